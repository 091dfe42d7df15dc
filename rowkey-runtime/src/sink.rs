//! Where encoded bytes go: the [`Sink`] trait and its implementations.
//!
//! The generated encoders are generic over a sink, so one generated function serves a caller's
//! slice, a [`bytes::BufMut`], an MD5 state (the salt) and a byte counter, all monomorphised and
//! inlined. Writes are infallible: the caller has already validated the value and checked that
//! the destination is large enough.

use bytes::BufMut;
use md5::{Digest, Md5};

/// A destination for key bytes.
pub trait Sink {
    /// Appends `bytes`.
    fn put(&mut self, bytes: &[u8]);

    /// Appends a fixed-size array; sinks override this to keep small writes in registers.
    #[inline(always)]
    fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        self.put(&bytes);
    }
}

/// Writes into a caller's slice that [`crate::RowKey`] has already checked is large enough.
///
/// A write past the end is dropped and recorded rather than panicking; the caller turns a
/// recorded overflow into an error (it would mean a length computation was wrong).
pub struct SliceSink<'a> {
    buf: &'a mut [u8],
    pos: usize,
    overflow: bool,
}

impl<'a> SliceSink<'a> {
    /// A sink writing from the start of `buf`.
    #[inline(always)]
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceSink {
            buf,
            pos: 0,
            overflow: false,
        }
    }

    /// Bytes written so far, or `None` if a write did not fit.
    #[inline(always)]
    pub fn written(&self) -> Option<usize> {
        if self.overflow {
            None
        } else {
            Some(self.pos)
        }
    }
}

impl Sink for SliceSink<'_> {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        let end = self.pos + bytes.len();
        match self.buf.get_mut(self.pos..end) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                self.pos = end;
            }
            None => self.overflow = true,
        }
    }

    #[inline(always)]
    fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        let end = self.pos + N;
        match self.buf.get_mut(self.pos..end) {
            Some(dst) => {
                dst.copy_from_slice(&bytes);
                self.pos = end;
            }
            None => self.overflow = true,
        }
    }
}

/// Forwards to a [`BufMut`] whose remaining capacity was checked beforehand.
pub struct BufSink<'a, B: BufMut + ?Sized>(pub &'a mut B);

impl<B: BufMut + ?Sized> Sink for BufSink<'_, B> {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.0.put_slice(bytes);
    }
}

/// Counts bytes without storing them.
#[derive(Default)]
pub struct CountSink(pub usize);

impl Sink for CountSink {
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// Feeds the bytes into an MD5 state: how salts and `#[hash(md5)]` digests are computed
/// without building the encoded bytes anywhere.
#[derive(Default)]
pub struct Md5Sink(Md5);

impl Md5Sink {
    /// A fresh MD5 state.
    pub fn new() -> Self {
        Md5Sink(Md5::new())
    }

    /// The 16-byte digest of everything put so far.
    pub fn finish(self) -> [u8; 16] {
        self.0.finalize().into()
    }
}

impl Sink for Md5Sink {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

/// Inverts every byte on its way to the inner sink: the `#[desc]` encoding.
pub struct Invert<'a, S: Sink + ?Sized>(pub &'a mut S);

impl<S: Sink + ?Sized> Sink for Invert<'_, S> {
    fn put(&mut self, bytes: &[u8]) {
        let mut chunk = [0u8; 64];
        for part in bytes.chunks(chunk.len()) {
            for (d, s) in chunk.iter_mut().zip(part) {
                *d = !*s;
            }
            self.0.put(&chunk[..part.len()]);
        }
    }

    #[inline(always)]
    fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        self.0.put_array(bytes.map(|b| !b));
    }
}
