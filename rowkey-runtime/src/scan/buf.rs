//! The byte buffers the ends of a range are written into: [`KeyBuf`], which a returned
//! [`KeyRange`](super::KeyRange) keeps (inline up to 62 bytes, on the heap beyond), and
//! [`InlineBuf`], the plain fixed-size scratch the builders write first. `InlineBuf` is `Copy`
//! and has no heap case, so the compiler keeps it in registers and folds its bounds checks for a
//! key of known width; a key too long for it is written again into `KeyBuf`s.

use std::fmt;

use crate::sink::Sink;

/// Bytes kept inline up to this length: ranges over keys this short allocate nothing.
pub(crate) const INLINE: usize = 62;

/// A key-sized byte buffer that stays on the stack up to 62 bytes (64 bytes in all).
#[derive(Clone)]
pub struct KeyBuf(Repr);

#[derive(Clone)]
enum Repr {
    Inline(Inline),
    Heap(Vec<u8>),
}

/// Data first and 8-aligned, so 8-byte field writes and whole-buffer copies stay aligned
/// (a misaligned layout costs store-forwarding stalls on every range built).
#[derive(Clone, Copy)]
#[repr(C, align(8))]
struct Inline {
    data: [u8; INLINE],
    len: u8,
}

impl KeyBuf {
    /// An empty buffer.
    #[inline]
    pub const fn new() -> Self {
        KeyBuf(Repr::Inline(Inline {
            data: [0; INLINE],
            len: 0,
        }))
    }

    /// A buffer holding `bytes`.
    pub fn from_slice(bytes: &[u8]) -> Self {
        let mut b = KeyBuf::new();
        b.put(bytes);
        b
    }

    /// The bytes.
    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline(Inline { len, data }) => &data[..usize::from(*len).min(INLINE)],
            Repr::Heap(v) => v,
        }
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Repr::Inline(Inline { len, data }) => &mut data[..usize::from(*len).min(INLINE)],
            Repr::Heap(v) => v,
        }
    }

    /// The number of bytes.
    #[inline(always)]
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Inline(Inline { len, .. }) => usize::from(*len),
            Repr::Heap(v) => v.len(),
        }
    }

    /// Whether there are no bytes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Overwrites the first byte (a salted key's bucket slot).
    #[inline(always)]
    fn set_first(&mut self, b: u8) {
        if let Some(first) = self.as_mut_slice().first_mut() {
            *first = b;
        }
    }

    /// Appends one byte.
    #[inline]
    pub fn push(&mut self, b: u8) {
        self.put_array([b]);
    }

    /// Shortens to `len` bytes.
    #[inline]
    pub fn truncate(&mut self, new_len: usize) {
        match &mut self.0 {
            Repr::Inline(Inline { len, .. }) => {
                if new_len < usize::from(*len) {
                    *len = new_len as u8;
                }
            }
            Repr::Heap(v) => v.truncate(new_len),
        }
    }

    /// Replaces the bytes by the smallest byte string greater than every string that starts
    /// with them: trailing `0xFF` bytes dropped, then the last byte incremented. `false` (and
    /// the bytes left as they were) when there is none: empty, or all `0xFF`.
    #[inline]
    pub fn to_successor(&mut self) -> bool {
        match successor(self.as_mut_slice()) {
            Some(len) => {
                self.truncate(len);
                true
            }
            None => false,
        }
    }

    /// A buffer holding what `b` holds.
    #[inline(always)]
    fn from_inline(b: InlineBuf) -> Self {
        KeyBuf(Repr::Inline(b.inner))
    }
}

impl Default for KeyBuf {
    fn default() -> Self {
        KeyBuf::new()
    }
}

impl Sink for KeyBuf {
    #[inline(always)]
    fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        // A constant-length copy stays in registers; the general path handles the spill.
        if let Repr::Inline(Inline { len, data }) = &mut self.0 {
            let at = usize::from(*len);
            if let Some(dst) = data.get_mut(at..at + N) {
                dst.copy_from_slice(&bytes);
                *len = (at + N) as u8;
                return;
            }
        }
        self.put(&bytes);
    }

    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        match &mut self.0 {
            Repr::Inline(Inline { len, data }) => {
                let at = usize::from(*len);
                if let Some(dst) = data.get_mut(at..at + bytes.len()) {
                    dst.copy_from_slice(bytes);
                    *len = (at + bytes.len()) as u8;
                } else {
                    let mut v = Vec::with_capacity(at + bytes.len());
                    v.extend_from_slice(&data[..at]);
                    v.extend_from_slice(bytes);
                    self.0 = Repr::Heap(v);
                }
            }
            Repr::Heap(v) => v.extend_from_slice(bytes),
        }
    }
}

impl PartialEq for KeyBuf {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for KeyBuf {}

impl fmt::Debug for KeyBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::fmt::binary(self.as_slice()))
    }
}

/// The smallest byte string greater than every string that starts with `bytes`, written over
/// them: trailing `0xFF` bytes dropped, then the last byte incremented. Returns its length, or
/// `None` (bytes unchanged) when there is none: empty, or all `0xFF`.
#[inline(always)]
fn successor(bytes: &mut [u8]) -> Option<usize> {
    let len = bytes.len();
    // The last eight bytes as one big-endian word: unless they are all 0xFF, adding one
    // increments the last byte below 0xFF and zeroes the 0xFF bytes after it (a byte below 0xFF
    // plus one is never zero), which are the bytes to drop. No byte loop, which compilers turn
    // into one branch per byte.
    if let Some(tail) = bytes.last_chunk_mut::<8>() {
        let word = u64::from_be_bytes(*tail);
        if let Some(next) = word.checked_add(1) {
            *tail = next.to_be_bytes();
            return Some(len - (next.trailing_zeros() / 8) as usize);
        }
    }
    let n = bytes.iter().rposition(|&b| b != 0xFF)?;
    bytes[n] += 1;
    Some(n + 1)
}

/// Up to 62 bytes in place, and a flag for a write that did not fit (the first 62 bytes are
/// kept). The builders use it only for keys no longer than 62 bytes, so bytes that overflow
/// it are longer than every stored key.
#[derive(Clone, Copy)]
pub struct InlineBuf {
    inner: Inline,
    overflow: bool,
}

impl Sink for InlineBuf {
    #[inline(always)]
    fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        self.put(&bytes);
    }

    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        let Inline { data, len } = &mut self.inner;
        let at = usize::from(*len);
        match data.get_mut(at..at + bytes.len()) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                *len = (at + bytes.len()) as u8;
            }
            None => self.put_overflowing(bytes),
        }
    }
}

impl InlineBuf {
    /// Keeps the bytes that fit and records that the rest did not.
    #[cold]
    fn put_overflowing(&mut self, bytes: &[u8]) {
        let Inline { data, len } = &mut self.inner;
        let at = usize::from(*len).min(INLINE);
        let n = bytes.len().min(INLINE - at);
        data[at..at + n].copy_from_slice(&bytes[..n]);
        *len = (at + n) as u8;
        self.overflow = true;
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::KeyBuf {}
    impl Sealed for super::InlineBuf {}
}

/// What the scan builders write a range's ends into: [`InlineBuf`] for keys of up to 62 bytes,
/// [`KeyBuf`] for longer ones. Sealed; the generated code only names it as a bound.
pub trait ScanBuf: Sink + Clone + sealed::Sealed {
    /// An empty buffer.
    fn empty() -> Self;
    /// The bytes.
    fn bytes(&self) -> &[u8];
    /// Shortens to `len` bytes.
    fn truncate(&mut self, len: usize);
    /// Overwrites the first byte (a salted key's bucket slot).
    fn set_first(&mut self, b: u8);
    /// See [`KeyBuf::to_successor`].
    fn to_successor(&mut self) -> bool;
    /// Whether a write did not fit, so the bytes are incomplete.
    fn overflowed(&self) -> bool;
    /// The bytes, as a range keeps them; this buffer is left empty or as it was.
    fn take(&mut self) -> KeyBuf;
}

impl ScanBuf for KeyBuf {
    #[inline(always)]
    fn empty() -> Self {
        KeyBuf::new()
    }
    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        self.as_slice()
    }
    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        KeyBuf::truncate(self, len)
    }
    #[inline(always)]
    fn set_first(&mut self, b: u8) {
        KeyBuf::set_first(self, b)
    }
    #[inline(always)]
    fn to_successor(&mut self) -> bool {
        KeyBuf::to_successor(self)
    }
    #[inline(always)]
    fn overflowed(&self) -> bool {
        false
    }
    #[inline(always)]
    fn take(&mut self) -> KeyBuf {
        core::mem::take(self)
    }
}

impl ScanBuf for InlineBuf {
    #[inline(always)]
    fn empty() -> Self {
        InlineBuf {
            inner: Inline {
                data: [0; INLINE],
                len: 0,
            },
            overflow: false,
        }
    }
    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        let Inline { data, len } = &self.inner;
        &data[..usize::from(*len).min(INLINE)]
    }
    /// Also forgets an overflow: the builders truncate only to undo a bound's write.
    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        if len < usize::from(self.inner.len) {
            self.inner.len = len as u8;
        }
        self.overflow = false;
    }
    #[inline(always)]
    fn set_first(&mut self, b: u8) {
        if self.inner.len > 0 {
            self.inner.data[0] = b;
        }
    }
    #[inline(always)]
    fn to_successor(&mut self) -> bool {
        let Inline { data, len } = &mut self.inner;
        match successor(&mut data[..usize::from(*len).min(INLINE)]) {
            Some(n) => {
                *len = n as u8;
                true
            }
            None => false,
        }
    }
    #[inline(always)]
    fn overflowed(&self) -> bool {
        self.overflow
    }
    #[inline(always)]
    fn take(&mut self) -> KeyBuf {
        KeyBuf::from_inline(*self)
    }
}
