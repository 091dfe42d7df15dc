//! Connections to HBase servers: one TCP connection per server and service, many calls in
//! flight on it at once, told apart by call id.
//!
//! A connection has two tasks: a writer that takes whole frames from a channel (so a call
//! dropped half way never leaves half a frame on the wire) and flushes when the channel runs
//! dry, and a reader that matches each reply to its call. When either fails, every call in
//! flight fails with the cause and the connection is marked dead; the pool opens a new one on
//! the next call. A call that passes its deadline gives up its slot; its reply, if it comes,
//! is dropped.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use prost::Message;
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufWriter};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot};

use super::config::AddressMap;
use super::wire::{self, Auth, Reply};

/// Why a call got no reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ConnError {
    /// Connecting failed (refused, unresolvable, or no answer within the connect deadline).
    Connect(String),
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
}

type Pending = Arc<Mutex<HashMap<u32, oneshot::Sender<Result<Reply, ConnError>>>>>;

/// One connection to one server for one service.
pub(crate) struct Conn {
    addr: String,
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
    /// Connects to `addr` (`host:port`) for `service`, as `user`.
    pub(crate) async fn open(
        addr: &str,
        service: &str,
        user: &str,
        connect_timeout: Duration,
    ) -> Result<Conn, ConnError> {
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
        let (mut read, write) = stream.into_split();
        let mut write = BufWriter::with_capacity(64 << 10, write);
        let hello = wire::hello(Auth::Simple, user, service);
        let sent = async {
            write.write_all(&hello).await?;
            write.flush().await
        };
        match tokio::time::timeout(connect_timeout, sent).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => return Err(ConnError::Connect(format!("{addr}: {e}"))),
            Err(_) => {
                return Err(ConnError::Connect(format!(
                    "{addr}: the connection header was not taken within {connect_timeout:?}"
                )))
            }
        }

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
            tokio::spawn(async move {
                while let Some(frame) = rx.recv().await {
                    let mut result = write.write_all(&frame).await;
                    // Frames that queued meanwhile go out in the same flush.
                    while result.is_ok() {
                        match rx.try_recv() {
                            Ok(frame) => result = write.write_all(&frame).await,
                            Err(_) => break,
                        }
                    }
                    if let Err(e) = result.and(write.flush().await) {
                        fail(ConnError::Io(format!("{addr}: {e}")));
                        return;
                    }
                }
            })
        };

        let reader = {
            let pending = pending.clone();
            let addr = addr.to_string();
            tokio::spawn(async move {
                let e = read_replies(&mut read, &pending).await;
                fail(match e {
                    ConnError::Io(m) => ConnError::Io(format!("{addr}: {m}")),
                    other => other,
                });
            })
        };

        Ok(Conn {
            addr: addr.to_string(),
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
async fn read_replies(read: &mut (impl AsyncReadExt + Unpin), pending: &Pending) -> ConnError {
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
}

impl Service {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Service::Client => "ClientService",
            Service::Master => "MasterService",
            Service::ClientMeta => "ClientMetaService",
        }
    }
}

/// The open connections, one per server and service.
pub(crate) struct Pool {
    user: String,
    connect_timeout: Duration,
    address_map: Option<AddressMap>,
    conns: Mutex<HashMap<(String, Service), Arc<Conn>>>,
}

impl Pool {
    pub(crate) fn new(
        user: String,
        connect_timeout: Duration,
        address_map: Option<AddressMap>,
    ) -> Self {
        Pool {
            user,
            connect_timeout,
            address_map,
            conns: Mutex::default(),
        }
    }

    /// The live connection to `addr` for `service`, opened if needed.
    pub(crate) async fn get(&self, addr: &str, service: Service) -> Result<Arc<Conn>, ConnError> {
        let key = (addr.to_string(), service);
        if let Some(c) = self.conns.lock().ok().and_then(|m| m.get(&key).cloned()) {
            if !c.is_dead() {
                return Ok(c);
            }
        }
        let dial = match &self.address_map {
            Some(map) => map.resolve(addr),
            None => addr.to_string(),
        };
        let conn =
            Arc::new(Conn::open(&dial, service.name(), &self.user, self.connect_timeout).await?);
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
        match read_replies(&mut &bytes[..], &pending).await {
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
