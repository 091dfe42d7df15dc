//! The TCP connections under the Bigtable store's gRPC channels, dialled by rowkey so that the
//! client metrics see them: each connection opened, each one lost (a read or write error, or
//! the server closing it), and the bytes on it (HTTP/2 frames, encrypted when TLS wraps them).
//! tonic applies TLS and the connect timeout on top, as for its own connector, and reconnects
//! through this dialler when a connection is lost.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tonic::codegen::http::Uri;

use crate::store::net::metrics::Meter;

/// Dials each connection a channel asks for (`TCP_NODELAY` set, as tonic's own connector).
#[derive(Clone)]
pub(super) struct Dial {
    pub(super) meter: Meter,
}

impl tonic::codegen::Service<Uri> for Dial {
    type Response = TokioIo<Counted>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, io::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), io::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let meter = self.meter.clone();
        Box::pin(async move {
            let host = uri
                .host()
                .ok_or_else(|| {
                    io::Error::new(io::ErrorKind::InvalidInput, format!("no host in {uri}"))
                })?
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_string();
            let port = uri
                .port_u16()
                .unwrap_or(if uri.scheme_str() == Some("https") {
                    443
                } else {
                    80
                });
            let stream = TcpStream::connect((host.as_str(), port)).await?;
            stream.set_nodelay(true)?;
            meter.connection_opened();
            Ok(TokioIo::new(Counted {
                stream,
                meter,
                lost: false,
            }))
        })
    }
}

/// A connection that counts its bytes and its loss.
pub(super) struct Counted {
    stream: TcpStream,
    meter: Meter,
    lost: bool,
}

impl Counted {
    /// Counts the connection lost, once.
    fn lose(&mut self) {
        if !self.lost {
            self.lost = true;
            self.meter.connection_lost();
        }
    }

    /// Counts what a write did: the bytes it sent, or the connection lost.
    fn wrote(&mut self, polled: &Poll<io::Result<usize>>) {
        match polled {
            Poll::Ready(Ok(n)) => self.meter.sent(*n),
            Poll::Ready(Err(_)) => self.lose(),
            Poll::Pending => {}
        }
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let wanted = buf.remaining() > 0;
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        match &polled {
            Poll::Ready(Ok(())) => {
                let n = buf.filled().len() - before;
                if n == 0 && wanted {
                    // The server closed the connection.
                    self.lose();
                } else {
                    self.meter.received(n);
                }
            }
            Poll::Ready(Err(_)) => self.lose(),
            Poll::Pending => {}
        }
        polled
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.wrote(&polled);
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.wrote(&polled);
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
