//! Connections to HBase servers: one TCP connection per server and service, many calls in
//! flight on it at once, told apart by call id.
//!
//! A connection has two tasks: a writer that takes whole frames from a channel (so a call
//! dropped half way never leaves half a frame on the wire) and flushes when the channel runs
//! dry, and a reader that matches each reply to its call. When either fails, every call in
//! flight fails with the cause and the connection is marked dead; the pool opens a new one on
//! the next call. A call that passes its deadline gives up its slot; its reply, if it comes,
//! is dropped.
//!
//! On a Kerberized cluster a connection authenticates first (SASL `GSSAPI`: the client's
//! tokens each with a 4-byte length; the server's each after a 4-byte status, 0 for success)
//! and then, when the negotiated protection is integrity or privacy, every byte either way
//! travels in wrapped messages, each with a 4-byte length: the writer wraps what each flush
//! sends, and the reader ([`Incoming`]) unwraps before it reads replies.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::store::net::metrics::Meter;
use bytes::{Bytes, BytesMut};
use prost::Message;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, BufWriter};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};

use super::config::AddressMap;
#[cfg(feature = "kerberos")]
use super::wire::Auth;
use super::wire::{self, Reply};
#[cfg(feature = "kerberos")]
use crate::store::net::kerberos::{Layer, Login};

/// How connections authenticate.
#[derive(Clone, Debug)]
pub(crate) enum Security {
    /// Simple authentication: the connection header names this user.
    Simple(String),
    /// Kerberos (SASL `GSSAPI`), as this login.
    #[cfg(feature = "kerberos")]
    Kerberos(Arc<Login>),
}

pub(crate) use crate::store::net::tls::TlsClient;

/// A connection's two directions, over TCP or TLS.
type Reader = Box<dyn AsyncRead + Send + Unpin>;
type Writer = Box<dyn tokio::io::AsyncWrite + Send + Unpin>;

/// Connects TLS over `stream` to the server known as `host`: a certificate it does not trust is
/// [`ConnError::Tls`] (not retried), any other failure a connect failure.
async fn tls_handshake(
    tls: &TlsClient,
    stream: TcpStream,
    host: &str,
    addr: &str,
) -> Result<(Reader, Writer), ConnError> {
    use crate::store::net::tls::HandshakeError;
    match tls.handshake(stream, host, addr).await {
        Ok(stream) => {
            let (read, write) = tokio::io::split(stream);
            Ok((Box::new(read), Box::new(write)))
        }
        Err(HandshakeError::Untrusted(m)) => Err(ConnError::Tls(m)),
        // The server answered the TLS hello with bytes that are not TLS: it serves plain RPC on
        // this port, which no retry changes.
        Err(HandshakeError::Failed(m)) if m.contains("InvalidContentType") => {
            Err(ConnError::Tls(format!(
                "{m}: the server answered without TLS (HBase serves TLS on its RPC from \
                 2.6.0, when its hbase.server.netty.tls.enabled is true)"
            )))
        }
        Err(HandshakeError::Failed(m)) => Err(ConnError::Connect(m)),
    }
}

/// A failure to set a connection up: [`ConnError::Tls`] (not retried) when the server's TLS
/// alert says it refused this client's certificate or wants one, else a connect failure.
fn tls_refusal(message: String, tls: Option<&TlsClient>) -> ConnError {
    let Some(tls) = tls else {
        return ConnError::Connect(message);
    };
    match crate::store::net::tls::handshake_problem(&message, tls.presents_identity()) {
        Some(problem) => ConnError::Tls(format!("{}: {problem}", addr_part(&message))),
        None => ConnError::Connect(message),
    }
}

/// The `host:port: ` a message starts with (the connection's address), or the message.
fn addr_part(message: &str) -> &str {
    message.split_once(": ").map_or(message, |(addr, _)| addr)
}

/// A security layer, when one was negotiated (never without the `kerberos` feature).
#[cfg(feature = "kerberos")]
type MaybeLayer = Option<Arc<Layer>>;
#[cfg(not(feature = "kerberos"))]
type MaybeLayer = Option<std::convert::Infallible>;

/// Why a call got no reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ConnError {
    /// Connecting failed (refused, unresolvable, or no answer within the connect deadline).
    Connect(String),
    /// The server's TLS certificate is not trusted (an unknown CA, another host's name).
    Tls(String),
    /// The connection failed or closed (before or under the call).
    Io(String),
    /// The server's bytes broke the framing.
    Protocol(String),
    /// No reply within the call's deadline.
    Timeout(Duration),
    /// The server refused the connection itself with an exception (class, message): an
    /// authentication it requires (`AccessDeniedException: Authentication is required` from a
    /// Kerberized cluster), a version it does not speak.
    Refused(String, String),
    /// Authentication failed (Kerberos, or the server's SASL refusal); `transient` when trying
    /// again may succeed (the KDC was unreachable).
    #[cfg_attr(not(feature = "kerberos"), allow(dead_code))]
    Auth {
        /// What failed, with GSSAPI's or the server's words.
        message: String,
        /// Whether another attempt may succeed.
        transient: bool,
    },
}

type Pending = Arc<Mutex<HashMap<u32, oneshot::Sender<Result<Reply, ConnError>>>>>;

/// One connection to one server for one service.
pub(crate) struct Conn {
    addr: String,
    meter: Meter,
    frames: mpsc::UnboundedSender<Bytes>,
    pending: Pending,
    next_id: AtomicU32,
    dead: Arc<AtomicBool>,
    reader: tokio::task::JoinHandle<()>,
    writer: tokio::task::JoinHandle<()>,
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.reader.abort();
        self.writer.abort();
    }
}

impl Conn {
    /// Connects to `dial` (`host:port`) for `service`, authenticating as `security` says to
    /// the server the cluster names `host`.
    pub(crate) async fn open(
        dial: &str,
        host: &str,
        service: &str,
        security: &Security,
        tls: Option<&TlsClient>,
        connect_timeout: Duration,
        meter: &Meter,
    ) -> Result<Conn, ConnError> {
        let addr = dial;
        let stream = match tokio::time::timeout(connect_timeout, TcpStream::connect(addr)).await {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => return Err(ConnError::Connect(format!("{addr}: {e}"))),
            Err(_) => {
                return Err(ConnError::Connect(format!(
                    "{addr}: no connection within {connect_timeout:?}"
                )))
            }
        };
        let _ = stream.set_nodelay(true);
        let (read, write): (Reader, Writer) = match tls {
            Some(tls) => {
                match tokio::time::timeout(connect_timeout, tls_handshake(tls, stream, host, addr))
                    .await
                {
                    Ok(halves) => halves?,
                    Err(_) => {
                        return Err(ConnError::Connect(format!(
                            "{addr}: no TLS handshake within {connect_timeout:?}"
                        )))
                    }
                }
            }
            None => {
                let (read, write) = stream.into_split();
                (Box::new(read), Box::new(write))
            }
        };
        let mut write = BufWriter::with_capacity(64 << 10, write);
        #[cfg_attr(not(feature = "kerberos"), allow(unused_mut))]
        let mut read = tokio::io::BufReader::with_capacity(64 << 10, read);
        let hello = async {
            match security {
                Security::Simple(user) => {
                    write.write_all(&wire::hello(user, service)).await?;
                    write.flush().await?;
                    Ok(None)
                }
                #[cfg(feature = "kerberos")]
                Security::Kerberos(login) => {
                    authenticate(&mut read, &mut write, login, host, service).await
                }
            }
        };
        let layer: MaybeLayer = match tokio::time::timeout(connect_timeout, hello).await {
            Ok(Ok(layer)) => layer,
            Ok(Err(HelloError::Io(e))) => return Err(tls_refusal(format!("{addr}: {e}"), tls)),
            Ok(Err(HelloError::Conn(e))) => return Err(e),
            Err(_) => {
                return Err(ConnError::Connect(format!(
                    "{addr}: the connection was not set up within {connect_timeout:?}"
                )))
            }
        };
        let pending: Pending = Arc::default();
        let dead = Arc::new(AtomicBool::new(false));
        let (frames, mut rx) = mpsc::unbounded_channel::<Bytes>();

        let fail = {
            let (pending, dead) = (pending.clone(), dead.clone());
            move |e: ConnError| {
                dead.store(true, Ordering::Release);
                let calls: Vec<_> = pending
                    .lock()
                    .map(|mut p| p.drain().collect())
                    .unwrap_or_default();
                for (_, tx) in calls {
                    let _ = tx.send(Err(e.clone()));
                }
            }
        };

        let writer = {
            let fail = fail.clone();
            let addr = addr.to_string();
            // Without `kerberos` the layer is `Option<Infallible>`, which is Copy.
            #[cfg_attr(not(feature = "kerberos"), allow(clippy::clone_on_copy))]
            let layer = layer.clone();
            tokio::spawn(async move {
                #[cfg_attr(not(feature = "kerberos"), allow(unused_mut))]
                let mut plain: Vec<u8> = Vec::new();
                while let Some(frame) = rx.recv().await {
                    let result = match &layer {
                        None => {
                            let mut result = write.write_all(&frame).await;
                            // Frames that queued meanwhile go out in the same flush.
                            while result.is_ok() {
                                match rx.try_recv() {
                                    Ok(frame) => result = write.write_all(&frame).await,
                                    Err(_) => break,
                                }
                            }
                            result
                        }
                        #[cfg(feature = "kerberos")]
                        Some(layer) => {
                            // What queued meanwhile is wrapped with it (up to 1 MiB).
                            plain.clear();
                            plain.extend_from_slice(&frame);
                            while plain.len() < (1 << 20) {
                                match rx.try_recv() {
                                    Ok(frame) => plain.extend_from_slice(&frame),
                                    Err(_) => break,
                                }
                            }
                            let mut sealed = Vec::with_capacity(plain.len() + 128);
                            if let Err(e) = layer.wrap_into(&plain, &mut sealed) {
                                fail(ConnError::Auth {
                                    message: format!("{addr}: {e}"),
                                    transient: false,
                                });
                                return;
                            }
                            write.write_all(&sealed).await
                        }
                        #[cfg(not(feature = "kerberos"))]
                        Some(never) => match *never {},
                    };
                    if let Err(e) = result.and(write.flush().await) {
                        fail(ConnError::Io(format!("{addr}: {e}")));
                        return;
                    }
                }
                drop(plain);
            })
        };

        let reader = {
            let pending = pending.clone();
            let addr = addr.to_string();
            let meter = meter.clone();
            let tls = tls.cloned();
            tokio::spawn(async move {
                let mut incoming = Incoming {
                    inner: read,
                    layer,
                    plain: BytesMut::new(),
                };
                let e = read_replies(&mut incoming, &pending, Some(&meter)).await;
                fail(match e {
                    // With TLS 1.3 a server that refuses the client's certificate (or its
                    // absence) says so with an alert after the handshake: on the first read.
                    ConnError::Io(m) => match tls_refusal(format!("{addr}: {m}"), tls.as_ref()) {
                        ConnError::Connect(m) => ConnError::Io(m),
                        refused => refused,
                    },
                    other => other,
                });
            })
        };

        Ok(Conn {
            addr: addr.to_string(),
            meter: meter.clone(),
            frames,
            pending,
            next_id: AtomicU32::new(1),
            dead,
            reader,
            writer,
        })
    }

    /// Whether the connection has failed (its calls fail; open another).
    pub(crate) fn is_dead(&self) -> bool {
        self.dead.load(Ordering::Acquire)
    }

    /// Marks the connection dead (a server that stopped answering); calls in flight fail.
    pub(crate) fn kill(&self, why: &str) {
        self.dead.store(true, Ordering::Release);
        let calls: Vec<_> = self
            .pending
            .lock()
            .map(|mut p| p.drain().collect())
            .unwrap_or_default();
        for (_, tx) in calls {
            let _ = tx.send(Err(ConnError::Io(format!("{}: {why}", self.addr))));
        }
    }

    /// Calls `method` with `request` (and `cells`, a cell block, when not empty); the reply
    /// (which may carry a remote exception) within `timeout`.
    pub(crate) async fn call(
        &self,
        method: &str,
        request: &impl Message,
        cells: &[u8],
        timeout: Duration,
    ) -> Result<Reply, ConnError> {
        if self.is_dead() {
            return Err(ConnError::Io(format!(
                "{}: the connection is closed",
                self.addr
            )));
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) & 0x7fff_ffff;
        let (tx, rx) = oneshot::channel();
        if let Ok(mut p) = self.pending.lock() {
            p.insert(id, tx);
        }
        // Unregisters the call however it ends (reply, deadline, or the caller dropping it).
        struct Slot<'a>(&'a Pending, u32);
        impl Drop for Slot<'_> {
            fn drop(&mut self) {
                if let Ok(mut p) = self.0.lock() {
                    p.remove(&self.1);
                }
            }
        }
        let _slot = Slot(&self.pending, id);
        let ms = u32::try_from(timeout.as_millis()).unwrap_or(u32::MAX);
        let frame = wire::call_frame(id, method, request, cells, ms);
        self.meter.sent(frame.len());
        if self.frames.send(frame).is_err() {
            return Err(ConnError::Io(format!(
                "{}: the connection is closed",
                self.addr
            )));
        }
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(reply)) => reply,
            Ok(Err(_)) => Err(ConnError::Io(format!(
                "{}: the connection closed",
                self.addr
            ))),
            Err(_) => Err(ConnError::Timeout(timeout)),
        }
    }
}

/// Reads replies and hands each to its call until the connection fails; returns why.
async fn read_replies<R: AsyncRead + Unpin>(
    read: &mut Incoming<R>,
    pending: &Pending,
    meter: Option<&Meter>,
) -> ConnError {
    let mut len = [0u8; 4];
    loop {
        if let Err(e) = read.read_exact(&mut len).await {
            return ConnError::Io(if e.kind() == std::io::ErrorKind::UnexpectedEof {
                "the server closed the connection".into()
            } else {
                e.to_string()
            });
        }
        let n = u32::from_be_bytes(len) as usize;
        if n > wire::MAX_FRAME {
            return ConnError::Protocol(format!(
                "a reply of {n} bytes (over {} MiB): the stream is out of step",
                wire::MAX_FRAME >> 20
            ));
        }
        let mut frame = BytesMut::zeroed(n);
        if let Err(e) = read.read_exact(&mut frame).await {
            return ConnError::Io(e.to_string());
        }
        if let Some(meter) = meter {
            meter.received(4 + n);
        }
        let reply = match wire::parse_reply(frame.freeze()) {
            Ok(r) => r,
            Err(m) => return ConnError::Protocol(m),
        };
        // A reply to no call (no id, or -1: HBase's id for a refused connection, such as
        // "AccessDeniedException: Authentication is required" from a Kerberized cluster): the
        // connection-level failure HBase sends before closing.
        let Some(id) = reply.header.call_id.filter(|&id| id != u32::MAX) else {
            return match reply.header.exception.as_ref() {
                Some(e) => ConnError::Refused(
                    e.exception_class_name().to_string(),
                    first_line(e.stack_trace()).to_string(),
                ),
                None => ConnError::Protocol("a reply without a call id".into()),
            };
        };
        let tx = pending.lock().ok().and_then(|mut p| p.remove(&id));
        if let Some(tx) = tx {
            let _ = tx.send(Ok(reply));
        }
        // Otherwise the call gave up (its deadline passed): the reply is dropped.
    }
}

/// Why a connection could not be set up.
enum HelloError {
    /// The socket failed.
    Io(std::io::Error),
    /// Authentication failed, or the server refused.
    #[cfg_attr(not(feature = "kerberos"), allow(dead_code))]
    Conn(ConnError),
}

impl From<std::io::Error> for HelloError {
    fn from(e: std::io::Error) -> Self {
        HelloError::Io(e)
    }
}

/// The largest SASL message accepted from a server (HBase's own client takes 1 MiB).
#[cfg(feature = "kerberos")]
const MAX_SASL_MESSAGE: usize = 1 << 20;

/// Authenticates a new connection to `host` with SASL `GSSAPI` and sends the connection
/// header (through the negotiated layer); returns the layer, if any.
#[cfg(feature = "kerberos")]
async fn authenticate(
    read: &mut (impl AsyncRead + Unpin),
    write: &mut (impl tokio::io::AsyncWrite + Unpin),
    login: &Arc<Login>,
    host: &str,
    service: &str,
) -> Result<MaybeLayer, HelloError> {
    let auth = |e: crate::store::net::kerberos::AuthError| {
        HelloError::Conn(ConnError::Auth {
            message: e.message,
            transient: e.transient,
        })
    };
    write.write_all(&wire::preamble(Auth::Kerberos)).await?;
    let (mut client, token) = login.start_async(host).await.map_err(auth)?;
    send_token(write, &token).await?;
    while !client.is_complete() {
        let status = read.read_i32().await?;
        if status != 0 {
            // An error: the exception's class and message, as Hadoop's WritableUtils strings.
            let class = read_writable_string(read).await?;
            let message = read_writable_string(read).await?;
            return Err(HelloError::Conn(ConnError::Auth {
                message: format!(
                    "{host} refused the Kerberos authentication: {}: {}",
                    class.rsplit('.').next().unwrap_or(&class),
                    first_line(&message)
                ),
                transient: false,
            }));
        }
        let len = read.read_i32().await?;
        // SaslUtil.SWITCH_TO_SIMPLE_AUTH: the server does not use Kerberos.
        if len == -88 {
            return Err(HelloError::Conn(ConnError::Auth {
                message: format!(
                    "{host} does not use Kerberos (it offers simple authentication, which a                      store configured for Kerberos does not fall back to)"
                ),
                transient: false,
            }));
        }
        let len = usize::try_from(len)
            .ok()
            .filter(|&n| n <= MAX_SASL_MESSAGE)
            .ok_or_else(|| {
                HelloError::Conn(ConnError::Protocol(format!(
                    "{host}: a SASL message of {len} bytes"
                )))
            })?;
        let mut challenge = vec![0; len];
        read.read_exact(&mut challenge).await?;
        let answer = client.evaluate(&challenge).map_err(auth)?;
        send_token(write, &answer).await?;
    }
    // Calls run as the authenticated principal, as HBase's Java client sends it.
    let user = client.client_name().map_err(auth)?;
    tracing::debug!(
        server = host,
        principal = %user,
        protection = ?client.protection(),
        "authenticated with Kerberos"
    );
    let layer = client.into_layer().map(Arc::new);
    let header = wire::connection_header(&user, service);
    match &layer {
        Some(l) => {
            let mut sealed = Vec::new();
            l.wrap_into(&header, &mut sealed).map_err(auth)?;
            write.write_all(&sealed).await?;
        }
        None => write.write_all(&header).await?,
    }
    write.flush().await?;
    Ok(layer)
}

/// One SASL token to the server: its 4-byte length, then the token.
#[cfg(feature = "kerberos")]
async fn send_token(
    write: &mut (impl tokio::io::AsyncWrite + Unpin),
    token: &[u8],
) -> std::io::Result<()> {
    write.write_all(&(token.len() as u32).to_be_bytes()).await?;
    write.write_all(token).await?;
    write.flush().await
}

/// A string as Hadoop's `WritableUtils.writeString` writes it: a 4-byte length (-1: none),
/// then UTF-8.
#[cfg(feature = "kerberos")]
async fn read_writable_string(read: &mut (impl AsyncRead + Unpin)) -> Result<String, HelloError> {
    let len = read.read_i32().await?;
    if len < 0 {
        return Ok(String::new());
    }
    let len = usize::try_from(len)
        .ok()
        .filter(|&n| n <= MAX_SASL_MESSAGE)
        .ok_or_else(|| HelloError::Conn(ConnError::Protocol("an oversized SASL error".into())))?;
    let mut bytes = vec![0; len];
    read.read_exact(&mut bytes).await?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// What arrives on a connection, unwrapped when a security layer was negotiated.
struct Incoming<R> {
    inner: R,
    layer: MaybeLayer,
    /// Unwrapped bytes not read yet.
    #[cfg_attr(not(feature = "kerberos"), allow(dead_code))]
    plain: BytesMut,
}

impl<R: AsyncRead + Unpin> Incoming<R> {
    /// Fills `buf` from the connection.
    async fn read_exact(&mut self, buf: &mut [u8]) -> std::io::Result<()> {
        let Some(layer) = &self.layer else {
            self.inner.read_exact(buf).await?;
            return Ok(());
        };
        #[cfg(not(feature = "kerberos"))]
        match *layer {}
        #[cfg(feature = "kerberos")]
        {
            while self.plain.len() < buf.len() {
                let n = self.inner.read_u32().await? as usize;
                if n > wire::MAX_FRAME {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        format!("a wrapped message of {n} bytes: the stream is out of step"),
                    ));
                }
                let mut sealed = vec![0; n];
                self.inner.read_exact(&mut sealed).await?;
                let plain = layer
                    .unwrap(&sealed)
                    .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e.message))?;
                self.plain.extend_from_slice(&plain);
            }
            buf.copy_from_slice(&self.plain.split_to(buf.len()));
            Ok(())
        }
    }
}

/// The first line of a Java stack trace: the exception and its message.
pub(crate) fn first_line(trace: &str) -> &str {
    trace.lines().next().unwrap_or("").trim()
}

/// The services a connection is opened for (HBase names one per connection).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Service {
    /// Data calls on a region server.
    Client,
    /// Administration on the master.
    Master,
    /// The connection registry (masters, and region servers from HBase 2.6).
    ClientMeta,
    /// A region server's administration (its regions' loads).
    Admin,
}

impl Service {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Service::Client => "ClientService",
            Service::Master => "MasterService",
            Service::ClientMeta => "ClientMetaService",
            Service::Admin => "AdminService",
        }
    }
}

/// The open connections, one per server and service.
pub(crate) struct Pool {
    /// Counts the connections opened and lost.
    meter: crate::store::net::metrics::Meter,
    security: Security,
    tls: Option<TlsClient>,
    connect_timeout: Duration,
    address_map: Option<AddressMap>,
    conns: Mutex<HashMap<(String, Service), Arc<Conn>>>,
}

impl Pool {
    pub(crate) fn new(
        meter: crate::store::net::metrics::Meter,
        security: Security,
        tls: Option<TlsClient>,
        connect_timeout: Duration,
        address_map: Option<AddressMap>,
    ) -> Self {
        Pool {
            meter,
            security,
            tls,
            connect_timeout,
            address_map,
            conns: Mutex::default(),
        }
    }

    /// The live connection to `addr` for `service`, opened if needed.
    /// The Kerberos login the connections authenticate as (`None`: simple authentication).
    #[cfg(feature = "kerberos")]
    pub(crate) fn login(&self) -> Option<&Arc<Login>> {
        match &self.security {
            Security::Kerberos(login) => Some(login),
            Security::Simple(_) => None,
        }
    }

    pub(crate) async fn get(&self, addr: &str, service: Service) -> Result<Arc<Conn>, ConnError> {
        let key = (addr.to_string(), service);
        if let Some(c) = self.conns.lock().ok().and_then(|m| m.get(&key).cloned()) {
            if !c.is_dead() {
                return Ok(c);
            }
            // It failed or was closed under the client: replaced below, counted once.
            let forgotten = self.conns.lock().ok().and_then(|mut m| match m.get(&key) {
                Some(held) if Arc::ptr_eq(held, &c) => m.remove(&key),
                _ => None,
            });
            if forgotten.is_some() {
                self.meter.connection_lost();
            }
        }
        let dial = match &self.address_map {
            Some(map) => map.resolve(addr),
            None => addr.to_string(),
        };
        // The server's name for Kerberos and TLS: the host the cluster advertises, whatever is
        // dialed.
        let host = crate::store::net::host_of(addr);
        let conn = Arc::new(
            Conn::open(
                &dial,
                host,
                service.name(),
                &self.security,
                self.tls.as_ref(),
                // Within the attempt's deadline, when there is one.
                super::cluster::remaining(self.connect_timeout),
                &self.meter,
            )
            .await?,
        );
        self.meter.connection_opened();
        let mut map = self
            .conns
            .lock()
            .map_err(|_| ConnError::Io("the connection pool's lock is poisoned".into()))?;
        // Another call may have connected meanwhile: keep one.
        match map.get(&key) {
            Some(existing) if !existing.is_dead() => Ok(existing.clone()),
            _ => {
                map.insert(key, conn.clone());
                Ok(conn)
            }
        }
    }

    /// Closes every connection to `addr` (a server found dead or gone); calls on them fail.
    pub(crate) fn drop_server(&self, addr: &str, why: &str) {
        let gone: Vec<Arc<Conn>> = self
            .conns
            .lock()
            .map(|mut m| {
                let keys: Vec<_> = m.keys().filter(|(a, _)| a == addr).cloned().collect();
                keys.into_iter().filter_map(|k| m.remove(&k)).collect()
            })
            .unwrap_or_default();
        for c in gone {
            // Out of the pool once: counted here whether or not it had already failed (a cut
            // connection's reader marks it dead before the failure names the server).
            self.meter.connection_lost();
            c.kill(why);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::pb;
    use super::*;

    /// One reply frame: its length, then the length-delimited header.
    fn frame(header: &pb::ResponseHeader) -> Vec<u8> {
        let mut body = Vec::new();
        header.encode_length_delimited(&mut body).unwrap();
        let mut out = (body.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(&body);
        out
    }

    #[tokio::test]
    async fn a_connection_refused_with_call_id_minus_one_says_why() {
        // What a Kerberized HBase sends a connection that offered simple authentication.
        let refusal = pb::ResponseHeader {
            call_id: Some(u32::MAX),
            exception: Some(pb::ExceptionResponse {
                exception_class_name: Some(
                    "org.apache.hadoop.hbase.security.AccessDeniedException".into(),
                ),
                stack_trace: Some("Authentication is required\n\tat ...".into()),
                ..Default::default()
            }),
            cell_block_meta: None,
        };
        let bytes = frame(&refusal);
        let pending: Pending = Arc::default();
        let mut incoming = Incoming {
            inner: &bytes[..],
            layer: None,
            plain: BytesMut::new(),
        };
        match read_replies(&mut incoming, &pending, None).await {
            ConnError::Refused(class, message) => {
                assert!(class.ends_with("AccessDeniedException"));
                assert_eq!(message, "Authentication is required");
            }
            other => panic!("{other:?}"),
        }
        let failure = super::super::error::conn(
            "GetClusterId",
            ConnError::Refused(
                "org.apache.hadoop.hbase.security.AccessDeniedException".into(),
                "Authentication is required".into(),
            ),
        );
        let e = failure.into_error();
        assert!(!e.is_transient());
        assert!(e.to_string().contains("requires Kerberos"), "{e}");
    }
}
