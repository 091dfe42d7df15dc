//! Where decoded bytes come from: the [`Source`] trait, the plain [`Reader`] and the
//! byte-inverting [`Inverted`] view used by `#[desc]` fields.
//!
//! Every read is bounds-checked and returns a [`DecodeError`] at the current offset; nothing
//! here can panic, whatever the input.

use std::borrow::Cow;

use crate::error::{DecodeError, DecodeErrorKind};

/// A cursor over key bytes.
///
/// Reads take a `mask` that is XORed into every stored byte: `0x00` reads bytes as stored,
/// `0xFF` reads a `#[desc]` field's inverted bytes back. `Inverted` flips the mask, so a
/// `#[desc]` field nested in another reads plainly again, at any depth.
pub trait Source<'de> {
    /// The absolute offset of the next byte.
    fn pos(&self) -> usize;

    /// The bytes not yet read.
    fn remaining(&self) -> usize;

    /// Reads exactly `N` bytes, XORed with `mask`.
    fn take_array_masked<const N: usize>(&mut self, mask: u8) -> Result<[u8; N], DecodeError>;

    /// Reads exactly `n` bytes, XORed with `mask`; borrowed when `mask` is zero.
    fn take_fixed_masked(&mut self, n: usize, mask: u8) -> Result<Cow<'de, [u8]>, DecodeError>;

    /// Reads one escaped, terminated variable-length value stored XORed with `mask` and
    /// unescapes it; borrowed when `mask` is zero and the value needed no unescaping.
    fn take_escaped_masked(&mut self, mask: u8) -> Result<Cow<'de, [u8]>, DecodeError>;

    /// Reads the bytes up to the next `delimiter` (stored XORed with `mask`), and the delimiter;
    /// returns the bytes before it. An error when the input ends first.
    fn take_until_masked(
        &mut self,
        delimiter: u8,
        mask: u8,
    ) -> Result<Cow<'de, [u8]>, DecodeError> {
        // Byte by byte: a source that can look ahead does better.
        let mut out = Vec::new();
        loop {
            match self.take_array_masked::<1>(mask) {
                Ok([b]) if b == delimiter => return Ok(Cow::Owned(out)),
                Ok([b]) => out.push(b),
                Err(_) => return Err(self.error(DecodeErrorKind::MissingDelimiter { delimiter })),
            }
        }
    }

    /// Reads the bytes up to the next `delimiter`, and the delimiter.
    #[inline(always)]
    fn take_until(&mut self, delimiter: u8) -> Result<Cow<'de, [u8]>, DecodeError> {
        self.take_until_masked(delimiter, 0)
    }

    /// Reads exactly `N` bytes.
    #[inline(always)]
    fn take_array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        self.take_array_masked::<N>(0)
    }

    /// Reads exactly `n` bytes.
    #[inline(always)]
    fn take_fixed(&mut self, n: usize) -> Result<Cow<'de, [u8]>, DecodeError> {
        self.take_fixed_masked(n, 0)
    }

    /// Reads one escaped variable-length value.
    #[inline(always)]
    fn take_escaped(&mut self) -> Result<Cow<'de, [u8]>, DecodeError> {
        self.take_escaped_masked(0)
    }

    /// An error of `kind` at the current offset.
    #[inline]
    fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        DecodeError::new(self.pos(), kind)
    }

    /// Called by the generated decoder before each field (and a record type's tag) it reads,
    /// with [`leave_field`](Self::leave_field) after: a source that notes where a key's
    /// fields end (a skip scan's) counts the depth; others do nothing.
    #[doc(hidden)]
    #[inline(always)]
    fn enter_field(&mut self) {}

    /// See [`enter_field`](Self::enter_field).
    #[doc(hidden)]
    #[inline(always)]
    fn leave_field(&mut self) {}
}

/// Reads key bytes as stored.
#[derive(Debug, Clone)]
pub struct Reader<'de> {
    buf: &'de [u8],
    pos: usize,
}

impl<'de> Reader<'de> {
    /// A reader at the start of `buf`.
    #[inline(always)]
    pub fn new(buf: &'de [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    #[inline(always)]
    fn rest(&self) -> &'de [u8] {
        self.buf.get(self.pos..).unwrap_or(&[])
    }

    /// Fails with [`DecodeErrorKind::TrailingBytes`] unless every byte was read.
    #[inline]
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            count => Err(self.error(DecodeErrorKind::TrailingBytes { count })),
        }
    }
}

/// Finds the end of an escaped value in `raw` (as stored, with zero bytes as markers) and
/// unescapes it. A stored byte `b` means the plain byte `b ^ inv`, so a plain 0x00 marker is
/// stored as `inv`. Returns the value and the number of stored bytes consumed; `start` is the
/// absolute offset of `raw`, for errors.
fn unescape<'de>(
    raw: &'de [u8],
    start: usize,
    inv: u8,
) -> Result<(Cow<'de, [u8]>, usize), DecodeError> {
    let zero = inv;
    let mut owned: Option<Vec<u8>> = None;
    let mut seg = 0; // start of the current run of ordinary bytes
    let mut i = 0;
    loop {
        let Some(rel) = raw[i..].iter().position(|&b| b == zero) else {
            return Err(DecodeError::new(
                start + raw.len(),
                DecodeErrorKind::Truncated { needed: 2 },
            ));
        };
        let z = i + rel;
        let Some(&next) = raw.get(z + 1) else {
            return Err(DecodeError::new(
                start + raw.len(),
                DecodeErrorKind::Truncated { needed: 1 },
            ));
        };
        match next ^ inv {
            0x01 => {
                let value = match owned {
                    None if inv == 0 => Cow::Borrowed(&raw[seg..z]),
                    None => Cow::Owned(raw[seg..z].iter().map(|b| b ^ inv).collect()),
                    Some(mut v) => {
                        v.extend(raw[seg..z].iter().map(|b| b ^ inv));
                        Cow::Owned(v)
                    }
                };
                return Ok((value, z + 2));
            }
            0xFF => {
                let v = owned.get_or_insert_with(Vec::new);
                v.extend(raw[seg..z].iter().map(|b| b ^ inv));
                v.push(0);
                i = z + 2;
                seg = i;
            }
            _ => {
                return Err(DecodeError::new(
                    start + z + 1,
                    DecodeErrorKind::BadEscape { byte: next ^ inv },
                ))
            }
        }
    }
}

impl<'de> Source<'de> for Reader<'de> {
    #[inline(always)]
    fn pos(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }

    #[inline(always)]
    fn take_array_masked<const N: usize>(&mut self, mask: u8) -> Result<[u8; N], DecodeError> {
        match self.rest().first_chunk::<N>() {
            Some(a) => {
                self.pos += N;
                Ok(if mask == 0 { *a } else { a.map(|b| b ^ mask) })
            }
            None => Err(self.error(DecodeErrorKind::Truncated {
                needed: N - self.remaining(),
            })),
        }
    }

    #[inline(always)]
    fn take_fixed_masked(&mut self, n: usize, mask: u8) -> Result<Cow<'de, [u8]>, DecodeError> {
        match self.rest().get(..n) {
            Some(s) => {
                self.pos += n;
                Ok(if mask == 0 {
                    Cow::Borrowed(s)
                } else {
                    Cow::Owned(s.iter().map(|b| b ^ mask).collect())
                })
            }
            None => Err(self.error(DecodeErrorKind::Truncated {
                needed: n - self.remaining(),
            })),
        }
    }

    #[inline]
    fn take_escaped_masked(&mut self, mask: u8) -> Result<Cow<'de, [u8]>, DecodeError> {
        let (value, used) = unescape(self.rest(), self.pos, mask)?;
        self.pos += used;
        Ok(value)
    }

    #[inline]
    fn take_until_masked(
        &mut self,
        delimiter: u8,
        mask: u8,
    ) -> Result<Cow<'de, [u8]>, DecodeError> {
        let rest = self.rest();
        match rest.iter().position(|&b| b ^ mask == delimiter) {
            Some(n) => {
                let value = self.take_fixed_masked(n, mask)?;
                self.pos += 1;
                Ok(value)
            }
            None => {
                self.pos += rest.len();
                Err(self.error(DecodeErrorKind::MissingDelimiter { delimiter }))
            }
        }
    }
}

/// Reads a `#[desc]` field: every stored byte is inverted back before interpretation.
pub struct Inverted<'a, S: ?Sized>(pub &'a mut S);

impl<'de, S: Source<'de> + ?Sized> Source<'de> for Inverted<'_, S> {
    #[inline(always)]
    fn pos(&self) -> usize {
        self.0.pos()
    }

    #[inline(always)]
    fn remaining(&self) -> usize {
        self.0.remaining()
    }

    #[inline(always)]
    fn take_array_masked<const N: usize>(&mut self, mask: u8) -> Result<[u8; N], DecodeError> {
        self.0.take_array_masked::<N>(mask ^ 0xFF)
    }

    #[inline(always)]
    fn take_fixed_masked(&mut self, n: usize, mask: u8) -> Result<Cow<'de, [u8]>, DecodeError> {
        self.0.take_fixed_masked(n, mask ^ 0xFF)
    }

    #[inline(always)]
    fn take_escaped_masked(&mut self, mask: u8) -> Result<Cow<'de, [u8]>, DecodeError> {
        self.0.take_escaped_masked(mask ^ 0xFF)
    }

    #[inline(always)]
    fn take_until_masked(
        &mut self,
        delimiter: u8,
        mask: u8,
    ) -> Result<Cow<'de, [u8]>, DecodeError> {
        self.0.take_until_masked(delimiter, mask ^ 0xFF)
    }

    #[inline(always)]
    fn enter_field(&mut self) {
        self.0.enter_field();
    }

    #[inline(always)]
    fn leave_field(&mut self) {
        self.0.leave_field();
    }
}

/// A [`Reader`] that notes where each top-level field of a key ends (nested keys' fields are
/// inside their field): how a skip scan splits a stored key into segments.
pub(crate) struct Marking<'a, 'de> {
    pub(crate) inner: Reader<'de>,
    depth: u32,
    ends: &'a mut Vec<usize>,
}

impl<'a, 'de> Marking<'a, 'de> {
    pub(crate) fn new(inner: Reader<'de>, ends: &'a mut Vec<usize>) -> Self {
        Marking {
            inner,
            depth: 0,
            ends,
        }
    }
}

impl<'de> Source<'de> for Marking<'_, 'de> {
    #[inline(always)]
    fn pos(&self) -> usize {
        self.inner.pos()
    }

    #[inline(always)]
    fn remaining(&self) -> usize {
        self.inner.remaining()
    }

    #[inline(always)]
    fn take_array_masked<const N: usize>(&mut self, mask: u8) -> Result<[u8; N], DecodeError> {
        self.inner.take_array_masked::<N>(mask)
    }

    #[inline(always)]
    fn take_fixed_masked(&mut self, n: usize, mask: u8) -> Result<Cow<'de, [u8]>, DecodeError> {
        self.inner.take_fixed_masked(n, mask)
    }

    #[inline(always)]
    fn take_escaped_masked(&mut self, mask: u8) -> Result<Cow<'de, [u8]>, DecodeError> {
        self.inner.take_escaped_masked(mask)
    }

    #[inline(always)]
    fn take_until_masked(
        &mut self,
        delimiter: u8,
        mask: u8,
    ) -> Result<Cow<'de, [u8]>, DecodeError> {
        self.inner.take_until_masked(delimiter, mask)
    }

    #[inline(always)]
    fn enter_field(&mut self) {
        self.depth += 1;
    }

    #[inline(always)]
    fn leave_field(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        if self.depth == 0 {
            self.ends.push(self.inner.pos());
        }
    }
}
