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
/// `None` (bytes unchanged) when there is none: empty, or all `0xFF`. The dropped bytes are
/// zeroed ([`InlineBuf`] keeps every byte past its length zero).
#[inline(always)]
fn successor(bytes: &mut [u8]) -> Option<usize> {
    // The bytes as one big-endian number plus one: the word the carry stops in gets its last
    // byte below 0xFF incremented (never to zero), and the 0xFF bytes after it become zero, so
    // the bytes the carry zeroed are the trailing 0xFF to drop. No byte loop (compilers turn
    // one into a branch per byte).
    let len = bytes.len();
    // Most often the last eight bytes are not all 0xFF, and they are all that changes.
    if let Some(tail) = bytes.last_chunk_mut::<8>() {
        if let Some(next) = u64::from_be_bytes(*tail).checked_add(1) {
            *tail = next.to_be_bytes();
            return Some(len - (next.trailing_zeros() / 8) as usize);
        }
    }
    // Otherwise the carry runs through every word from the end (a word carries exactly when it
    // is all 0xFF), each rewritten, carry or not: with no early exit, a key of known length has
    // only constant positions, so its bytes can stay in registers.
    let mut carry = true;
    let mut dropped = 0;
    let mut words = bytes.rchunks_exact_mut(8);
    for w in &mut words {
        let w: &mut [u8; 8] = w.try_into().expect("chunks of eight");
        let (next, out) = u64::from_be_bytes(*w).overflowing_add(u64::from(carry));
        if carry {
            dropped += (next.trailing_zeros() / 8) as usize;
        }
        *w = next.to_be_bytes();
        carry = out;
    }
    for b in words.into_remainder().iter_mut().rev() {
        let (next, out) = b.overflowing_add(u8::from(carry));
        if carry && next == 0 {
            dropped += 1;
        }
        *b = next;
        carry = out;
    }
    if carry {
        // All 0xFF (or empty): no successor, and the bytes are put back.
        bytes.fill(0xFF);
        return None;
    }
    Some(len - dropped)
}

/// Byte order of two whole inline arrays, eight bytes at a time as big-endian integers (the
/// last word overlaps the one before: when that one is equal, so is the overlap). Eight-byte
/// loads, the width the fields are written with, so each load is forwarded from one store.
#[inline(always)]
fn inline_cmp(a: &[u8; INLINE], b: &[u8; INLINE]) -> core::cmp::Ordering {
    for at in [0, 8, 16, 24, 32, 40, 48, INLINE - 8] {
        let word = |d: &[u8; INLINE]| {
            let mut w = [0; 8];
            w.copy_from_slice(&d[at..at + 8]);
            u64::from_be_bytes(w)
        };
        let (x, y) = (word(a), word(b));
        if x != y {
            return x.cmp(&y);
        }
    }
    core::cmp::Ordering::Equal
}

/// Up to 62 bytes in place, and a flag for a write that did not fit (the first 62 bytes are
/// kept). The builders use it only for keys no longer than 62 bytes, so bytes that overflow
/// it are longer than every stored key.
///
/// Every byte past the length is zero, so two buffers compare as their whole arrays, then
/// their lengths: a constant-size comparison, with no loop over a variable length.
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
    /// Whether these bytes sort strictly before `other`'s (byte-string order).
    fn precedes(&self, other: &Self) -> bool;
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
    fn precedes(&self, other: &Self) -> bool {
        super::key_cmp(self.as_slice(), other.as_slice()).is_lt()
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
        let Inline { data, len: at } = &mut self.inner;
        if len < usize::from(*at) {
            *at = len as u8;
            if let Some(dropped) = data.get_mut(len..) {
                dropped.fill(0);
            }
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
    fn precedes(&self, other: &Self) -> bool {
        // Zero past the lengths: the arrays compare as the zero-padded bytes, and equal padded
        // bytes leave the shorter (a prefix of the other) first.
        let (a, b) = (&self.inner, &other.inner);
        inline_cmp(&a.data, &b.data).then(a.len.cmp(&b.len)).is_lt()
    }
    #[inline(always)]
    fn take(&mut self) -> KeyBuf {
        KeyBuf::from_inline(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the builders do to an end: write bytes, cut back, step to the successor.
    #[derive(Debug, Clone)]
    enum Op {
        Put(Vec<u8>),
        Truncate(usize),
        Successor,
    }

    fn op() -> impl Strategy<Value = Op> {
        let byte = prop_oneof![Just(0u8), Just(0xFF), any::<u8>()];
        prop_oneof![
            prop::collection::vec(byte, 0..24).prop_map(Op::Put),
            (0usize..70).prop_map(Op::Truncate),
            Just(Op::Successor),
        ]
    }

    /// Applies `ops` to an `InlineBuf` and to a plain vector (the definition).
    fn run(ops: &[Op]) -> (InlineBuf, Vec<u8>) {
        let (mut b, mut v) = (InlineBuf::empty(), Vec::new());
        for op in ops {
            match op {
                Op::Put(bytes) => {
                    b.put(bytes);
                    v.extend_from_slice(bytes);
                    v.truncate(INLINE);
                }
                Op::Truncate(n) => {
                    b.truncate(*n);
                    v.truncate(*n);
                }
                Op::Successor => {
                    if b.to_successor() {
                        while v.last() == Some(&0xFF) {
                            v.pop();
                        }
                        *v.last_mut().unwrap() += 1;
                    }
                }
            }
        }
        (b, v)
    }

    proptest! {
        /// Whatever was written, cut and stepped, an `InlineBuf` holds the bytes of the
        /// definition, zero past them, and `precedes` is byte-string order.
        #[test]
        fn inline_bufs_compare_as_their_bytes(
            a in prop::collection::vec(op(), 0..8),
            b in prop::collection::vec(op(), 0..8),
        ) {
            let (x, xv) = run(&a);
            let (y, yv) = run(&b);
            prop_assert_eq!(x.bytes(), &xv[..]);
            prop_assert!(x.inner.data[xv.len()..].iter().all(|&z| z == 0));
            prop_assert_eq!(x.precedes(&y), xv < yv);
            prop_assert_eq!(y.precedes(&x), yv < xv);
            prop_assert!(!x.precedes(&x));
        }
    }
}
