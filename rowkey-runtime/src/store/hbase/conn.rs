//! Connections to the Thrift2 gateway: one call at a time per connection (Thrift has no
//! multiplexing), framed or unframed as the gateway is configured, and a bounded pool so that
//! the 16 buckets of a merged scan and the parts of a batch run side by side.
//!
//! A connection is returned to the pool only after a call completed on it; one whose call
//! failed, timed out or was cancelled is closed, since it may still carry part of an answer.
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

use super::thrift::{Completeness, Out};

/// The largest reply accepted (a page of rows); a larger length is a protocol error.
const MAX_MESSAGE: usize = 256 << 20;

/// How a connection failed.
#[derive(Debug)]
pub(super) enum TransportError {
    /// The socket failed or closed.
    Io(std::io::Error),
    /// The bytes received are not a Thrift message.
    Protocol(String),
    /// Authentication failed (`transient`: the KDC was unreachable).
    #[cfg_attr(not(feature = "kerberos"), allow(dead_code))]
    Auth {
        /// What failed, with GSSAPI's or the gateway's words.
        message: String,
        /// Whether another attempt may succeed.
        transient: bool,
    },
}

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

impl From<std::io::Error> for TransportError {
    fn from(e: std::io::Error) -> Self {
        TransportError::Io(e)
    }
}

/// One open connection.
pub(super) struct Conn {
    stream: TcpStream,
    framing: Framing,
    seq: i32,
    /// Whether a reply has come on this connection (a framed gateway closes an unframed
    /// connection at its first call, so only then is framing a likely cause of a close).
    answered: bool,
    out: Vec<u8>,
    input: Vec<u8>,
}

impl Conn {
    async fn open(
        addr: &str,
        framed: bool,
        security: &Security,
        timeout: Duration,
    ) -> Result<Conn, TransportError> {
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
                let layer =
                    tokio::time::timeout(timeout, sasl::authenticate(&mut stream, login, host))
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
        Ok(Conn {
            stream,
            framing,
            seq: 0,
            answered: false,
            out: Vec::with_capacity(4096),
            input: Vec::with_capacity(64 << 10),
        })
    }

    /// Sends one call (`args` writes its argument struct) and receives the whole reply; returns
    /// the call's sequence number and the reply's bytes.
    pub(super) async fn call(
        &mut self,
        method: &str,
        args: impl FnOnce(&mut Out<'_>),
    ) -> Result<(i32, &[u8]), TransportError> {
        self.seq = self.seq.wrapping_add(1);
        self.out.clear();
        let framed = !matches!(self.framing, Framing::Buffered);
        if framed {
            self.out.extend_from_slice(&[0; 4]);
        }
        args(&mut Out::call(&mut self.out, method, self.seq));
        if framed {
            let len = u32::try_from(self.out.len() - 4)
                .map_err(|_| TransportError::Protocol("request over 4 GiB".into()))?;
            self.out[..4].copy_from_slice(&len.to_be_bytes());
        }
        #[cfg(feature = "kerberos")]
        if let Framing::Sasl(Some(layer)) = &self.framing {
            let mut sealed = Vec::with_capacity(self.out.len() + 128);
            layer
                .wrap_into(&self.out[4..], &mut sealed)
                .map_err(|e| TransportError::Auth {
                    message: e.message,
                    transient: false,
                })?;
            self.out = sealed;
        }
        self.stream.write_all(&self.out).await?;
        // A reply buffer grown for one huge page is not kept for the connection's life.
        if self.input.capacity() > 16 << 20 {
            self.input = Vec::with_capacity(64 << 10);
        }
        self.input.clear();
        let len = match &self.framing {
            Framing::Framed => {
                let n = self.stream.read_u32().await? as usize;
                if n > MAX_MESSAGE {
                    return Err(TransportError::Protocol(format!("a {n}-byte frame")));
                }
                self.input.resize(n, 0);
                self.stream.read_exact(&mut self.input).await?;
                n
            }
            #[cfg(feature = "kerberos")]
            Framing::Sasl(layer) => {
                // Frames until the reply is whole (the gateway sends one per reply).
                let mut done = Completeness::default();
                let mut frame = Vec::new();
                loop {
                    let n = self.stream.read_u32().await? as usize;
                    if n > MAX_MESSAGE || self.input.len() + n > MAX_MESSAGE {
                        return Err(TransportError::Protocol(format!("a {n}-byte frame")));
                    }
                    frame.resize(n, 0);
                    self.stream.read_exact(&mut frame).await?;
                    match layer {
                        Some(layer) => {
                            let plain = layer.unwrap(&frame).map_err(|e| TransportError::Auth {
                                message: e.message,
                                transient: false,
                            })?;
                            self.input.extend_from_slice(&plain);
                        }
                        None => self.input.extend_from_slice(&frame),
                    }
                    match done.advance(&self.input) {
                        Ok(Some(n)) => break n,
                        Ok(None) => {}
                        Err(e) => return Err(TransportError::Protocol(e.0)),
                    }
                }
            }
            Framing::Buffered => {
                let mut done = Completeness::default();
                loop {
                    if self.input.len() >= MAX_MESSAGE {
                        return Err(TransportError::Protocol("a reply over 256 MiB".into()));
                    }
                    self.input.reserve(64 << 10);
                    if self.stream.read_buf(&mut self.input).await? == 0 {
                        return Err(TransportError::Io(std::io::Error::new(
                            std::io::ErrorKind::UnexpectedEof,
                            closed_message(self.input.is_empty(), self.answered),
                        )));
                    }
                    match done.advance(&self.input) {
                        Ok(Some(n)) => break n,
                        Ok(None) => {}
                        Err(e) => return Err(TransportError::Protocol(e.0)),
                    }
                }
            }
        };
        if len != self.input.len() {
            return Err(TransportError::Protocol(
                "bytes after the reply on an idle connection".into(),
            ));
        }
        self.answered = true;
        Ok((self.seq, &self.input[..len]))
    }
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
    addr: String,
    framed: bool,
    security: Security,
    connect_timeout: Duration,
    idle: Mutex<Vec<Conn>>,
    slots: std::sync::Arc<Semaphore>,
}

/// A connection lent out; [`Lease::done`] gives it back, dropping it closes it.
pub(super) struct Lease<'p> {
    pool: &'p Pool,
    pub conn: Conn,
    _slot: OwnedSemaphorePermit,
}

impl Pool {
    pub(super) fn new(
        addr: String,
        framed: bool,
        security: Security,
        connect_timeout: Duration,
        max: usize,
    ) -> Self {
        Pool {
            addr,
            framed,
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
        let idle = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let conn = match idle {
            Some(c) => c,
            None => {
                Conn::open(
                    &self.addr,
                    self.framed,
                    &self.security,
                    self.connect_timeout,
                )
                .await?
            }
        };
        Ok(Lease {
            pool: self,
            conn,
            _slot: slot,
        })
    }
}

impl Lease<'_> {
    /// The call completed: the connection is clean and goes back to the pool.
    pub(super) fn done(self) {
        self.pool
            .idle
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(self.conn);
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
