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
    pub fn make_successor(&mut self) -> bool {
        match successor(self.as_mut_slice()) {
            Some(len) => {
                self.truncate(len);
                true
            }
            None => false,
        }
    }

    /// A buffer holding `data[..len]`.
    #[inline(always)]
    fn from_inline(data: [u8; INLINE], len: u8) -> Self {
        KeyBuf(Repr::Inline(Inline { data, len }))
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
/// `None` (bytes unchanged) when there is none: empty, or all `0xFF`. Used for keys too long
/// for an [`InlineBuf`], which has its own word-wise successor.
#[inline]
fn successor(bytes: &mut [u8]) -> Option<usize> {
    let last = bytes.iter().rposition(|&b| b != 0xFF)?;
    bytes[last] += 1;
    Some(last + 1)
}

/// The words of an [`InlineBuf`]'s array.
const WORDS: usize = 8;

/// Up to 62 bytes in place, and a flag for a write that did not fit (the first 62 bytes are
/// kept). The builders use it only for keys no longer than 62 bytes, so bytes that overflow
/// it are longer than every stored key.
///
/// Every byte past the length is zero, and the array is eight whole words (the last two bytes
/// are never written), so every operation the builders apply to a finished end (successor,
/// comparison, copy) is a fixed sequence of word operations at constant offsets, with no loop
/// or index that depends on the length. For a key of known width the compiler folds the length
/// away and keeps the whole buffer in registers.
#[derive(Clone, Copy)]
#[repr(C, align(8))]
pub struct InlineBuf {
    data: [[u8; 8]; WORDS],
    len: u8,
    overflow: bool,
}

impl Sink for InlineBuf {
    #[inline(always)]
    fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        self.put(&bytes);
    }

    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        let at = usize::from(self.len);
        match self.data.as_flattened_mut()[..INLINE].get_mut(at..at + bytes.len()) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                self.len = (at + bytes.len()) as u8;
            }
            None => self.put_overflowing(bytes),
        }
    }
}

impl InlineBuf {
    /// Keeps the bytes that fit and records that the rest did not.
    #[cold]
    fn put_overflowing(&mut self, bytes: &[u8]) {
        let at = usize::from(self.len).min(INLINE);
        let n = bytes.len().min(INLINE - at);
        self.data.as_flattened_mut()[at..at + n].copy_from_slice(&bytes[..n]);
        self.len = (at + n) as u8;
        self.overflow = true;
    }

    /// The array as big-endian words.
    #[inline(always)]
    fn words(&self) -> [u64; WORDS] {
        self.data.map(u64::from_be_bytes)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::KeyBuf {}
    impl Sealed for super::InlineBuf {}
}

/// What the scan builders write a range's ends into: `InlineBuf` for keys of up to 62 bytes,
/// `KeyBuf` for longer ones. Sealed; the generated code only names it as a bound.
pub trait ScanBuf: Sink + Clone + sealed::Sealed {
    /// An empty buffer.
    fn empty() -> Self;
    /// The bytes.
    fn bytes(&self) -> &[u8];
    /// Shortens to `len` bytes.
    fn truncate(&mut self, len: usize);
    /// Overwrites the first byte (a salted key's bucket slot).
    fn set_first(&mut self, b: u8);
    /// See `KeyBuf::make_successor`.
    fn make_successor(&mut self) -> bool;
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
    fn make_successor(&mut self) -> bool {
        KeyBuf::make_successor(self)
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
            data: [[0; 8]; WORDS],
            len: 0,
            overflow: false,
        }
    }
    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        &self.data.as_flattened()[..usize::from(self.len).min(INLINE)]
    }
    /// Also forgets an overflow: the builders truncate only to undo a bound's write.
    #[inline(always)]
    fn truncate(&mut self, len: usize) {
        if len < usize::from(self.len) {
            self.len = len as u8;
            self.data.as_flattened_mut()[len..].fill(0);
        }
        self.overflow = false;
    }
    #[inline(always)]
    fn set_first(&mut self, b: u8) {
        if self.len > 0 {
            self.data[0][0] = b;
        }
    }
    /// The bytes as one big-endian number, plus one in the last byte's place: the carry runs
    /// through the trailing 0xFF bytes (which become the zeros to drop) and stops in the byte
    /// to increment. Every word is computed, whatever the length.
    #[inline(always)]
    fn make_successor(&mut self) -> bool {
        let Some(last) = usize::from(self.len).min(INLINE).checked_sub(1) else {
            return false;
        };
        let mut words = self.words();
        let mut carry = false;
        for (i, w) in words.iter_mut().enumerate().rev() {
            let one = if i == last / 8 {
                1 << (8 * (7 - last % 8))
            } else {
                0
            };
            let (x, c1) = w.overflowing_add(one);
            let (x, c2) = x.overflowing_add(u64::from(carry));
            *w = x;
            carry = c1 | c2;
        }
        if carry {
            // All 0xFF: no successor, and the bytes are left as they were.
            return false;
        }
        // Zero past the incremented byte: the new length is one past the last non-zero byte.
        let mut len = 0;
        for (i, w) in words.iter().enumerate() {
            if *w != 0 {
                len = 8 * i + 8 - (w.trailing_zeros() / 8) as usize;
            }
        }
        self.data = words.map(u64::to_be_bytes);
        self.len = len as u8;
        true
    }
    #[inline(always)]
    fn overflowed(&self) -> bool {
        self.overflow
    }
    /// Zero past the lengths: the arrays compare as the zero-padded bytes, and equal padded
    /// bytes leave the shorter (a prefix of the other) first.
    #[inline(always)]
    fn precedes(&self, other: &Self) -> bool {
        self.words()
            .cmp(&other.words())
            .then(self.len.cmp(&other.len))
            .is_lt()
    }
    #[inline(always)]
    fn take(&mut self) -> KeyBuf {
        // Word by word, as the bytes were computed, so each is stored once from a register.
        let mut data = [0; INLINE];
        for (i, w) in self.data.iter().enumerate() {
            let at = 8 * i;
            let n = INLINE.saturating_sub(at).min(8);
            data[at..at + n].copy_from_slice(&w[..n]);
        }
        KeyBuf::from_inline(data, self.len)
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
                    if b.make_successor() {
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
            prop_assert!(x.data.as_flattened()[xv.len()..].iter().all(|&z| z == 0));
            prop_assert_eq!(x.precedes(&y), xv < yv);
            prop_assert_eq!(y.precedes(&x), yv < xv);
            prop_assert!(!x.precedes(&x));
        }
    }
}
