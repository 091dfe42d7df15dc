//! Connections to the Thrift2 gateway: one call at a time per connection (Thrift has no
//! multiplexing), framed or unframed as the gateway is configured, and a bounded pool so that
//! the 16 buckets of a merged scan and the parts of a batch run side by side.
//!
//! A connection is returned to the pool only after a call completed on it; one whose call
//! failed, timed out or was cancelled is closed, since it may still carry part of an answer.

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
}

impl From<std::io::Error> for TransportError {
    fn from(e: std::io::Error) -> Self {
        TransportError::Io(e)
    }
}

/// One open connection.
pub(super) struct Conn {
    stream: TcpStream,
    framed: bool,
    seq: i32,
    /// Whether a reply has come on this connection (a framed gateway closes an unframed
    /// connection at its first call, so only then is framing a likely cause of a close).
    answered: bool,
    out: Vec<u8>,
    input: Vec<u8>,
}

impl Conn {
    async fn open(addr: &str, framed: bool, timeout: Duration) -> Result<Conn, TransportError> {
        let stream = tokio::time::timeout(timeout, TcpStream::connect(addr))
            .await
            .map_err(|_| {
                TransportError::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("no connection to {addr} within {timeout:?}"),
                ))
            })??;
        stream.set_nodelay(true)?;
        Ok(Conn {
            stream,
            framed,
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
        if self.framed {
            self.out.extend_from_slice(&[0; 4]);
        }
        args(&mut Out::call(&mut self.out, method, self.seq));
        if self.framed {
            let len = u32::try_from(self.out.len() - 4)
                .map_err(|_| TransportError::Protocol("request over 4 GiB".into()))?;
            self.out[..4].copy_from_slice(&len.to_be_bytes());
        }
        self.stream.write_all(&self.out).await?;
        // A reply buffer grown for one huge page is not kept for the connection's life.
        if self.input.capacity() > 16 << 20 {
            self.input = Vec::with_capacity(64 << 10);
        }
        self.input.clear();
        let len = if self.framed {
            let n = self.stream.read_u32().await? as usize;
            if n > MAX_MESSAGE {
                return Err(TransportError::Protocol(format!("a {n}-byte frame")));
            }
            self.input.resize(n, 0);
            self.stream.read_exact(&mut self.input).await?;
            n
        } else {
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
             -threadedselector, see HbaseConfig::framed)"
        }
    }
}

/// Open connections waiting for a call, and the bound on how many exist.
pub(super) struct Pool {
    addr: String,
    framed: bool,
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
    pub(super) fn new(addr: String, framed: bool, connect_timeout: Duration, max: usize) -> Self {
        Pool {
            addr,
            framed,
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
            None => Conn::open(&self.addr, self.framed, self.connect_timeout).await?,
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
