//! Connections to the Thrift2 gateway: one call at a time per connection (Thrift has no
//! multiplexing), framed or unframed as the gateway is configured, and a bounded pool so that
//! the 16 buckets of a merged scan and the parts of a batch run side by side.
//!
//! A connection is returned to the pool only after a call completed on it; one whose call
//! failed, timed out or was cancelled is closed, since it may still carry part of an answer.
//!
//! Over HTTP (`http://` and `https://` addresses), a connection is an HTTP/1.1 connection
//! carrying each call as a POST ([`super::http`]).
//!
//! With Kerberos (a gateway with `hbase.thrift.security.qop`), a connection first
//! authenticates with Thrift's SASL transport (messages of a status byte, a 4-byte length and
//! a payload: `START` naming `GSSAPI`, then the tokens) and then carries calls and replies in
//! frames of a 4-byte length, each wrapped when the negotiated protection is integrity or
//! privacy.

use std::sync::Mutex;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::error::TransportError;
use super::thrift::{Completeness, Out};

/// The largest reply accepted (a page of rows); a larger length is a protocol error.
const MAX_MESSAGE: usize = 256 << 20;

/// How connections authenticate: not at all, or with Kerberos as this login to the gateway
/// at this host.
#[derive(Clone, Debug, Default)]
pub(super) enum Security {
    /// No authentication (the gateway's default).
    #[default]
    None,
    /// SASL `GSSAPI`.
    #[cfg(feature = "kerberos")]
    Kerberos {
        /// The login.
        login: std::sync::Arc<crate::store::net::kerberos::Login>,
        /// The gateway's host name, for its principal.
        host: String,
    },
}

/// How a connection's bytes are framed.
enum Framing {
    /// Unframed: a reply ends where its Thrift message does.
    Buffered,
    /// Each call and reply after a 4-byte length.
    Framed,
    /// SASL: framed, each frame wrapped by the negotiated layer, if any.
    #[cfg(feature = "kerberos")]
    Sasl(Option<crate::store::net::kerberos::Layer>),
}

impl Framing {
    fn is_sasl(&self) -> bool {
        #[cfg(feature = "kerberos")]
        if let Framing::Sasl(_) = self {
            return true;
        }
        false
    }
}

/// How long the first call on a connection without SASL waits for its answer before the
/// gateway is asked, on a connection of its own, whether it takes SASL.
const FIRST_ANSWER: Duration = Duration::from_secs(3);

/// How long the gateway has to answer that question.
const PROBE_TIMEOUT: Duration = Duration::from_secs(2);

/// The first call on a connection without SASL to the gateway at `addr`: answered, or, when it
/// fails or is not answered within [`FIRST_ANSWER`], refused as needing Kerberos if the
/// gateway answers a SASL handshake (a SASL gateway keeps a plain call waiting for ever, or
/// closes it); otherwise its own error, or waited for as any call is.
async fn first_call(
    call: impl std::future::Future<Output = Result<usize, TransportError>>,
    addr: std::net::SocketAddr,
) -> Result<usize, TransportError> {
    let mut call = std::pin::pin!(call);
    // A SASL gateway usually keeps a plain call waiting, but may also close it: either way
    // it is asked, and a gateway that is not SASL keeps its own error.
    let early = match tokio::time::timeout(FIRST_ANSWER, &mut call).await {
        Ok(Ok(n)) => return Ok(n),
        Ok(Err(e)) => Some(e),
        Err(_) => None,
    };
    if let Some(answer) = sasl_probe(addr).await {
        let feature = if cfg!(feature = "kerberos") {
            ""
        } else {
            ", with rowkey's `kerberos` feature"
        };
        return Err(TransportError::Auth {
            message: format!(
                "the Thrift2 gateway at {addr} requires SASL (Kerberos): it did not answer a call \
                 without SASL (it closed it, or kept it waiting {FIRST_ANSWER:?}), and answered a SASL handshake \
                 (\"{answer}\"), as a gateway with hbase.thrift.security.qop set does: see \
                 HbaseConfig::kerberos{feature}"
            ),
            transient: false,
        });
    }
    match early {
        Some(e) => Err(e),
        None => call.await,
    }
}

/// Asks the gateway at `addr` whether it speaks Thrift's SASL transport: a `START` for
/// `GSSAPI` and an initial response that is no Kerberos token. A SASL gateway answers with a
/// SASL status (`BAD` or `ERROR`, "GSS initiate failed") at once; a plain one reads the bytes as
/// the start of a large message and waits, or closes. The gateway's answer when it speaks SASL.
async fn sasl_probe(addr: std::net::SocketAddr) -> Option<String> {
    let probe = async {
        let mut stream = TcpStream::connect(addr).await.ok()?;
        let mut hello = vec![1u8];
        hello.extend_from_slice(&6u32.to_be_bytes());
        hello.extend_from_slice(b"GSSAPI");
        hello.push(2);
        hello.extend_from_slice(&1u32.to_be_bytes());
        hello.push(0);
        stream.write_all(&hello).await.ok()?;
        let status = stream.read_u8().await.ok()?;
        // OK, BAD, ERROR, COMPLETE: Thrift's SASL statuses after START.
        if !(2..=5).contains(&status) {
            return None;
        }
        let n = stream.read_u32().await.ok()? as usize;
        let mut payload = vec![0; n.min(1024)];
        stream.read_exact(&mut payload).await.ok()?;
        Some(String::from_utf8_lossy(&payload).into_owned())
    };
    tokio::time::timeout(PROBE_TIMEOUT, probe)
        .await
        .ok()
        .flatten()
}

/// Where the gateway is, and how calls reach it.
#[derive(Debug)]
pub(super) enum Endpoint {
    /// Thrift over a TCP socket at `host:port`, framed or not.
    Socket {
        /// `host:port`.
        addr: String,
        /// Framed transport.
        framed: bool,
    },
    /// Each call a POST to an HTTP gateway.
    #[cfg(feature = "hbase-http")]
    Http(std::sync::Arc<super::http::Endpoint>),
}

/// A connection's transport.
enum Link {
    /// A socket, its bytes framed as the gateway wants.
    Socket { stream: TcpStream, framing: Framing },
    /// An HTTP connection, and how its requests authenticate.
    #[cfg(feature = "hbase-http")]
    Http {
        conn: super::http::HttpConn,
        endpoint: std::sync::Arc<super::http::Endpoint>,
        security: Security,
    },
}

/// One open connection.
pub(super) struct Conn {
    link: Link,
    seq: i32,
    /// Whether a reply has come on this connection (a framed gateway closes an unframed
    /// connection at its first call, so only then is framing a likely cause of a close).
    answered: bool,
    out: Vec<u8>,
    input: Vec<u8>,
}

impl Conn {
    async fn open(
        endpoint: &Endpoint,
        security: &Security,
        timeout: Duration,
    ) -> Result<Conn, TransportError> {
        let link = match endpoint {
            Endpoint::Socket { addr, framed } => {
                let (stream, framing) = open_socket(addr, *framed, security, timeout).await?;
                Link::Socket { stream, framing }
            }
            #[cfg(feature = "hbase-http")]
            Endpoint::Http(http) => {
                let conn = tokio::time::timeout(timeout, super::http::HttpConn::open(http))
                    .await
                    .map_err(|_| {
                        TransportError::Io(std::io::Error::new(
                            std::io::ErrorKind::TimedOut,
                            format!("no connection to {} within {timeout:?}", http.url()),
                        ))
                    })??;
                Link::Http {
                    conn,
                    endpoint: http.clone(),
                    security: security.clone(),
                }
            }
        };
        Ok(Conn {
            link,
            seq: 0,
            answered: false,
            out: Vec::with_capacity(4096),
            input: Vec::with_capacity(64 << 10),
        })
    }

    /// Whether the connection can go back to the pool after a completed call.
    fn reusable(&self) -> bool {
        match &self.link {
            Link::Socket { .. } => true,
            #[cfg(feature = "hbase-http")]
            Link::Http { conn, .. } => conn.reusable(),
        }
    }

    /// Sends one call (`args` writes its argument struct) and receives the whole reply; returns
    /// the call's sequence number, the bytes sent (the client metrics' count) and the reply's
    /// bytes.
    pub(super) async fn call(
        &mut self,
        method: &str,
        args: impl FnOnce(&mut Out<'_>),
    ) -> Result<(i32, usize, &[u8]), TransportError> {
        self.seq = self.seq.wrapping_add(1);
        let seq = self.seq;
        self.out.clear();
        // A reply buffer grown for one huge page is not kept for the connection's life.
        if self.input.capacity() > 16 << 20 {
            self.input = Vec::with_capacity(64 << 10);
        }
        self.input.clear();
        let len = match &mut self.link {
            Link::Socket { stream, framing } => {
                // A new connection without SASL: if its first call is not answered soon, the
                // gateway is asked whether it wants SASL (a stock SASL gateway neither
                // answers nor closes a plain call).
                let probe = if self.answered || framing.is_sasl() {
                    None
                } else {
                    stream.peer_addr().ok()
                };
                let call = socket_call(
                    stream,
                    framing,
                    &mut self.out,
                    &mut self.input,
                    self.answered,
                    |out| args(&mut Out::call(out, method, seq)),
                );
                match probe {
                    None => call.await?,
                    Some(addr) => first_call(call, addr).await?,
                }
            }
            #[cfg(feature = "hbase-http")]
            Link::Http {
                conn,
                endpoint,
                security,
            } => {
                args(&mut Out::call(&mut self.out, method, seq));
                http_call(conn, endpoint, security, &self.out, &mut self.input).await?;
                let mut done = Completeness::default();
                match done.advance(&self.input) {
                    Ok(Some(n)) => n,
                    Ok(None) => {
                        return Err(TransportError::Protocol(format!(
                            "{} sent {} bytes of a reply, not all of it",
                            endpoint.url(),
                            self.input.len()
                        )))
                    }
                    Err(e) => return Err(TransportError::Protocol(e.0)),
                }
            }
        };
        if len != self.input.len() {
            return Err(TransportError::Protocol(
                "bytes after the reply on an idle connection".into(),
            ));
        }
        self.answered = true;
        Ok((self.seq, self.out.len(), &self.input[..len]))
    }
}

/// One call on a socket: `args` writes the call into `out`; the reply's length in `input`.
/// What a socket call that got an HTTP response means.
const HTTP_GATEWAY: &str = "the gateway answered in HTTP: it runs in HTTP mode \
    (hbase.regionserver.thrift.http); give its address as http://host:port/ or \
    https://host:port/ (the hbase-http feature)";

async fn socket_call(
    stream: &mut TcpStream,
    framing: &Framing,
    out: &mut Vec<u8>,
    input: &mut Vec<u8>,
    answered: bool,
    args: impl FnOnce(&mut Vec<u8>),
) -> Result<usize, TransportError> {
    let framed = !matches!(framing, Framing::Buffered);
    if framed {
        out.extend_from_slice(&[0; 4]);
    }
    args(out);
    if framed {
        let len = u32::try_from(out.len() - 4)
            .map_err(|_| TransportError::Protocol("request over 4 GiB".into()))?;
        out[..4].copy_from_slice(&len.to_be_bytes());
    }
    #[cfg(feature = "kerberos")]
    if let Framing::Sasl(Some(layer)) = framing {
        let mut sealed = Vec::with_capacity(out.len() + 128);
        layer
            .wrap_into(&out[4..], &mut sealed)
            .map_err(|e| TransportError::Auth {
                message: e.message,
                transient: false,
            })?;
        *out = sealed;
    }
    stream.write_all(out).await?;
    Ok(match framing {
        Framing::Framed => {
            let n = stream.read_u32().await? as usize;
            if n as u32 == u32::from_be_bytes(*b"HTTP") {
                return Err(TransportError::Protocol(HTTP_GATEWAY.into()));
            }
            if n > MAX_MESSAGE {
                return Err(TransportError::Protocol(format!("a {n}-byte frame")));
            }
            input.resize(n, 0);
            stream.read_exact(input).await?;
            n
        }
        #[cfg(feature = "kerberos")]
        Framing::Sasl(layer) => {
            // Frames until the reply is whole (the gateway sends one per reply).
            let mut done = Completeness::default();
            let mut frame = Vec::new();
            loop {
                let n = stream.read_u32().await? as usize;
                if n > MAX_MESSAGE || input.len() + n > MAX_MESSAGE {
                    return Err(TransportError::Protocol(format!("a {n}-byte frame")));
                }
                frame.resize(n, 0);
                stream.read_exact(&mut frame).await?;
                match layer {
                    Some(layer) => {
                        let plain = layer.unwrap(&frame).map_err(|e| TransportError::Auth {
                            message: e.message,
                            transient: false,
                        })?;
                        input.extend_from_slice(&plain);
                    }
                    None => input.extend_from_slice(&frame),
                }
                match done.advance(input) {
                    Ok(Some(n)) => break n,
                    Ok(None) => {}
                    Err(e) => return Err(TransportError::Protocol(e.0)),
                }
            }
        }
        Framing::Buffered => {
            let mut done = Completeness::default();
            loop {
                if input.len() >= MAX_MESSAGE {
                    return Err(TransportError::Protocol("a reply over 256 MiB".into()));
                }
                input.reserve(64 << 10);
                if stream.read_buf(input).await? == 0 {
                    return Err(TransportError::Io(std::io::Error::new(
                        std::io::ErrorKind::UnexpectedEof,
                        closed_message(input.is_empty(), answered),
                    )));
                }
                match done.advance(input) {
                    Ok(Some(n)) => break n,
                    Ok(None) => {}
                    Err(_) if input.starts_with(b"HTTP/") => {
                        return Err(TransportError::Protocol(HTTP_GATEWAY.into()))
                    }
                    Err(e) => return Err(TransportError::Protocol(e.0)),
                }
            }
        }
    })
}

/// One call over HTTP: `out` POSTed (with a new SPNEGO token under Kerberos, the gateway's
/// answer checked), the reply's body in `input`.
#[cfg(feature = "hbase-http")]
async fn http_call(
    conn: &mut super::http::HttpConn,
    endpoint: &super::http::Endpoint,
    security: &Security,
    out: &[u8],
    input: &mut Vec<u8>,
) -> Result<(), TransportError> {
    match security {
        Security::None => {
            conn.post(endpoint, out, None, input, MAX_MESSAGE).await?;
        }
        #[cfg(feature = "kerberos")]
        Security::Kerberos { login, host } => {
            use base64::Engine as _;
            let auth = |e: crate::store::net::kerberos::AuthError| TransportError::Auth {
                message: e.message,
                transient: e.transient,
            };
            let (negotiation, token) = login.negotiate_async(host).await.map_err(auth)?;
            let header = format!(
                "Negotiate {}",
                base64::engine::general_purpose::STANDARD.encode(token)
            );
            let answer = match conn
                .post(endpoint, out, Some(header), input, MAX_MESSAGE)
                .await
            {
                Err(TransportError::Auth { message, transient }) => {
                    return Err(TransportError::Auth {
                        message: format!(
                            "{message} (the ticket was for {}; the gateway's SPNEGO principal, \
                             hbase.thrift.spnego.principal, may be another: see \
                             Kerberos::http_service)",
                            negotiation.server()
                        ),
                        transient,
                    })
                }
                other => other?,
            };
            negotiation
                .finish(answer.negotiate.as_deref())
                .map_err(auth)?;
        }
    }
    Ok(())
}

/// A socket to the gateway at `addr`, authenticated when `security` says so.
async fn open_socket(
    addr: &str,
    framed: bool,
    security: &Security,
    timeout: Duration,
) -> Result<(TcpStream, Framing), TransportError> {
    #[cfg_attr(not(feature = "kerberos"), allow(unused_mut))]
    let mut stream = tokio::time::timeout(timeout, TcpStream::connect(addr))
        .await
        .map_err(|_| {
            TransportError::Io(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("no connection to {addr} within {timeout:?}"),
            ))
        })??;
    stream.set_nodelay(true)?;
    let framing = match security {
        Security::None if framed => Framing::Framed,
        Security::None => Framing::Buffered,
        #[cfg(feature = "kerberos")]
        Security::Kerberos { login, host } => {
            let layer = tokio::time::timeout(timeout, sasl::authenticate(&mut stream, login, host))
                .await
                .map_err(|_| {
                    TransportError::Io(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        format!("{addr}: SASL authentication did not complete within {timeout:?}"),
                    ))
                })??;
            Framing::Sasl(layer)
        }
    };
    Ok((stream, framing))
}

/// What a connection closed under an unframed call means: mid-reply, or before any reply; a
/// framed gateway closes an unframed connection at its first call (it reads the call's first
/// bytes as a frame length), so the hint about framing is given only then.
fn closed_message(nothing_read: bool, answered_before: bool) -> &'static str {
    match (nothing_read, answered_before) {
        (false, _) => "the gateway closed the connection mid-reply",
        (true, true) => "the gateway closed the connection without answering",
        (true, false) => {
            "the gateway closed a new connection at its first call without answering (a framed \
             gateway does that to unframed calls: if it runs with -f, -hsha, -nonblocking or \
             -threadedselector, see HbaseConfig::framed; and a SASL gateway, with \
             hbase.thrift.security.qop set, to calls without Kerberos: see HbaseConfig::kerberos)"
        }
    }
}

/// Open connections waiting for a call, and the bound on how many exist.
pub(super) struct Pool {
    /// Counts the connections opened, and the idle ones found closed.
    meter: crate::store::net::metrics::Meter,
    endpoint: Endpoint,
    security: Security,
    connect_timeout: Duration,
    idle: Mutex<Vec<Conn>>,
    slots: std::sync::Arc<Semaphore>,
}

/// A connection lent out; [`Lease::done`] gives it back, dropping it closes it.
pub(super) struct Lease<'p> {
    pool: &'p Pool,
    /// `None` once [`Lease::done`] has handed it back.
    conn: Option<Conn>,
    _slot: OwnedSemaphorePermit,
}

impl Pool {
    pub(super) fn new(
        meter: crate::store::net::metrics::Meter,
        endpoint: Endpoint,
        security: Security,
        connect_timeout: Duration,
        max: usize,
    ) -> Self {
        Pool {
            meter,
            endpoint,
            security,
            connect_timeout,
            idle: Mutex::new(Vec::new()),
            slots: std::sync::Arc::new(Semaphore::new(max.max(1))),
        }
    }

    /// An idle connection, or a new one; waits while `max` are in use.
    pub(super) async fn lease(&self) -> Result<Lease<'_>, TransportError> {
        let slot = std::sync::Arc::clone(&self.slots)
            .acquire_owned()
            .await
            .map_err(|_| TransportError::Protocol("connection pool closed".into()))?;
        let idle = {
            let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
            // An HTTP connection the gateway closed while it sat idle is dropped here.
            std::iter::from_fn(|| idle.pop()).find(|c| {
                let reusable = c.reusable();
                if !reusable {
                    self.meter.connection_lost();
                }
                reusable
            })
        };
        let conn = match idle {
            Some(c) => c,
            None => {
                let c = Conn::open(&self.endpoint, &self.security, self.connect_timeout).await?;
                self.meter.connection_opened();
                c
            }
        };
        Ok(Lease {
            pool: self,
            conn: Some(conn),
            _slot: slot,
        })
    }
}

impl Lease<'_> {
    /// The leased connection.
    pub(super) fn conn(&mut self) -> Result<&mut Conn, TransportError> {
        self.conn
            .as_mut()
            .ok_or_else(|| TransportError::Protocol("a connection used after its lease".into()))
    }

    /// The call completed: the connection is clean and goes back to the pool (unless an HTTP
    /// gateway closed it: counted as lost).
    pub(super) fn done(mut self) {
        let Some(conn) = self.conn.take() else { return };
        if !conn.reusable() {
            self.pool.meter.connection_lost();
            return;
        }
        self.pool
            .idle
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(conn);
    }
}

impl Drop for Lease<'_> {
    /// A lease dropped before [`Lease::done`] ends a call that failed or was abandoned (its
    /// deadline passed) mid-exchange: the connection is in an unknown state and is closed,
    /// which the metrics count as a lost connection.
    fn drop(&mut self) {
        if self.conn.take().is_some() {
            self.pool.meter.connection_lost();
        }
    }
}

/// Thrift's SASL transport, client side, with `GSSAPI`.
#[cfg(feature = "kerberos")]
mod sasl {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    use super::TransportError;
    use crate::store::net::kerberos::{AuthError, Layer, Login};

    const START: u8 = 1;
    const OK: u8 = 2;
    const BAD: u8 = 3;
    const ERROR: u8 = 4;
    const COMPLETE: u8 = 5;

    /// The largest SASL message accepted from the gateway.
    const MAX: usize = 1 << 20;

    fn auth(e: AuthError) -> TransportError {
        TransportError::Auth {
            message: e.message,
            transient: e.transient,
        }
    }

    async fn send(stream: &mut TcpStream, status: u8, payload: &[u8]) -> std::io::Result<()> {
        let mut m = Vec::with_capacity(5 + payload.len());
        m.push(status);
        m.extend_from_slice(&(payload.len() as u32).to_be_bytes());
        m.extend_from_slice(payload);
        stream.write_all(&m).await
    }

    async fn receive(stream: &mut TcpStream, host: &str) -> Result<(u8, Vec<u8>), TransportError> {
        let status = stream.read_u8().await?;
        let n = stream.read_u32().await? as usize;
        if n > MAX {
            return Err(TransportError::Protocol(format!(
                "a SASL message of {n} bytes from the gateway (is it a SASL gateway?)"
            )));
        }
        let mut payload = vec![0; n];
        stream.read_exact(&mut payload).await?;
        match status {
            OK | COMPLETE => Ok((status, payload)),
            BAD | ERROR => Err(TransportError::Auth {
                message: format!(
                    "the Thrift2 gateway at {host} refused the Kerberos authentication: {}",
                    String::from_utf8_lossy(&payload)
                ),
                transient: false,
            }),
            other => Err(TransportError::Protocol(format!(
                "SASL status {other} from the gateway"
            ))),
        }
    }

    /// Authenticates to the gateway at `host`; the security layer, if one was negotiated.
    pub(super) async fn authenticate(
        stream: &mut TcpStream,
        login: &std::sync::Arc<Login>,
        host: &str,
    ) -> Result<Option<Layer>, TransportError> {
        let (mut client, token) = login.start_async(host).await.map_err(auth)?;
        send(stream, START, b"GSSAPI").await?;
        send(stream, OK, &token).await?;
        let mut last = OK;
        while !client.is_complete() {
            let (status, challenge) = match receive(stream, host).await {
                Err(TransportError::Io(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    return Err(TransportError::Auth {
                        message: format!(
                            "the Thrift2 gateway at {host} closed the connection during SASL \
                             (is it a SASL gateway, unframed, with hbase.thrift.security.qop?)"
                        ),
                        transient: false,
                    })
                }
                other => other?,
            };
            last = status;
            let answer = client.evaluate(&challenge).map_err(auth)?;
            if status == COMPLETE {
                break;
            }
            let next = if client.is_complete() { COMPLETE } else { OK };
            send(stream, next, &answer).await?;
        }
        if last != COMPLETE {
            let (status, _) = receive(stream, host).await?;
            if status != COMPLETE {
                return Err(TransportError::Protocol(
                    "the gateway did not complete the SASL exchange".into(),
                ));
            }
        }
        tracing::debug!(
            gateway = host,
            principal = client.client_name().unwrap_or_default(),
            protection = ?client.protection(),
            "authenticated with Kerberos"
        );
        Ok(client.into_layer())
    }
}
