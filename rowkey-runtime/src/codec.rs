//! The encodings selected by field attributes, as zero-sized codec types.
//!
//! The derive turns each field's attributes into one codec type (`#[desc] #[fixed(16)]` is
//! `Desc<Fixed<16>>`) and calls it once per field, so every attribute's logic lives here,
//! compiled and tested once, and a codec that does not fit the field's type is a type error
//! that names both.

use std::borrow::Cow;
use std::marker::PhantomData;

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{Decode, Encode};
use crate::hashed::Hashed;
use crate::schema::Domain;
use crate::sink::{Invert, Sink};
use crate::source::{Inverted, Source};
use crate::text::{write_escaped, FromKeyBytes, KeyBytes};

/// What a range bound on a field becomes once rewritten onto the values the field can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundKind {
    /// Every value the field can hold is inside the bound: no constraint.
    Unbounded,
    /// No value the field can hold is inside the bound: the scan is empty.
    Empty,
    /// The written bytes are an inclusive bound.
    Inclusive,
    /// The written bytes are an exclusive bound.
    Exclusive,
}

/// How one field of type `T` is encoded.
#[diagnostic::on_unimplemented(
    message = "this field attribute cannot encode a field of type `{T}`",
    label = "`{Self}` does not apply to `{T}`"
)]
pub trait Codec<T: ?Sized> {
    /// The width of every encoding, if they all have the same width.
    const FIXED_WIDTH: Option<usize>;
    /// An upper bound on the encoded width, if there is one.
    const MAX_WIDTH: Option<usize>;
    /// A short description of the encoding, for layout docs.
    const ENCODING: &'static str;
    /// Whether the encoding preserves the value's order (`false` for `reverse` and `hash`).
    const ORDERED: bool = true;
    /// The layout of a nested key type.
    const NESTED: Option<&'static crate::schema::Schema> = None;
    /// Whether the bytes sort in the reverse order of the values (`desc`, `reverse_ts`).
    const DESCENDING: bool = false;
    /// What the leading encoded bytes range over, for split points.
    const DOMAIN: Domain;
    /// What the field's type contributes to the key's layout fingerprint (its class, as
    /// [`Encode::LAYOUT`] names it; the attribute's own part is written by the derive).
    const LAYOUT: crate::TypeLayout;
    /// Whether the field takes the rest of the key (`#[rest]`): nothing follows it, so an
    /// equality scan on it is one key, not a prefix.
    const TAKES_REST: bool = false;
    /// Why a field of this codec cannot be in a key (empty: it can): a nested key that is
    /// whole only as a key ([`Encode::__NOT_NESTED`](crate::Encode)). Checked when the key's
    /// layout (`RowKey::SCHEMA`) is built.
    #[doc(hidden)]
    const __NOT_NESTED: &'static str = "";

    /// Checks that `v` can be encoded and returns its encoded width.
    fn width(v: &T) -> Result<usize, EncodeError>;
    /// Writes `v`, already checked by [`Codec::width`].
    fn write<S: Sink>(v: &T, sink: &mut S);

    /// Writes `v` as an equality prefix; `false` (and nothing written) when no stored key can
    /// hold `v`, so the scan is empty.
    #[inline(always)]
    fn write_eq<S: Sink>(v: &T, sink: &mut S) -> bool {
        let ok = Self::width(v).is_ok();
        if ok {
            Self::write(v, sink);
        }
        ok
    }

    /// Writes a range bound on the field: the lower bound if `lower`, inclusive if `inclusive`.
    /// A bound the field cannot hold is rewritten as the equivalent bound on values it can
    /// hold; the result says what the written bytes mean. The default suits codecs whose every
    /// value encodes; a value that does not is treated as matching nothing.
    #[inline(always)]
    fn write_bound<S: Sink>(v: &T, lower: bool, inclusive: bool, sink: &mut S) -> BoundKind {
        let _ = lower;
        if Self::write_eq(v, sink) {
            if inclusive {
                BoundKind::Inclusive
            } else {
                BoundKind::Exclusive
            }
        } else {
            BoundKind::Empty
        }
    }
}

/// How one field of type `T` is decoded.
pub trait CodecDecode<'de, T>: Codec<T> {
    /// Reads one value; never panics, whatever the bytes.
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError>;
}

/// The type's own ascending encoding ([`Encode`]); also used for `#[timestamp]`.
pub struct Natural;

impl<T: Encode + ?Sized> Codec<T> for Natural {
    const FIXED_WIDTH: Option<usize> = T::FIXED_WIDTH;
    const MAX_WIDTH: Option<usize> = T::MAX_WIDTH;
    const ENCODING: &'static str = T::ENCODING;
    const NESTED: Option<&'static crate::schema::Schema> = T::NESTED;
    const DOMAIN: Domain = T::DOMAIN;
    const LAYOUT: crate::TypeLayout = T::LAYOUT;
    const __NOT_NESTED: &'static str = T::__NOT_NESTED;

    #[inline(always)]
    fn width(v: &T) -> Result<usize, EncodeError> {
        v.encoded_width()
    }

    #[inline(always)]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        v.write(sink)
    }
}

impl<'de, T: Decode<'de> + Encode> CodecDecode<'de, T> for Natural {
    #[inline(always)]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        T::read(src)
    }
}

/// `#[fixed(N)]`: exactly `N` bytes, right-padded with `0x00`.
///
/// A longer value is refused, never truncated; so is a value ending in `0x00`, which the
/// padding would swallow on the way back.
pub struct Fixed<const N: usize>;

/// Right-pads `src` (at most `N` bytes) with zeros into an array, without a variable-length
/// copy for `N <= 16`: the bytes are gathered with two overlapping loads into one register.
#[inline(always)]
pub fn pad<const N: usize>(src: &[u8]) -> [u8; N] {
    let src = src.get(..N).unwrap_or(src);
    if N <= 16 {
        let n = src.len();
        let word: u128 =
            if let (Some(lo), Some(hi)) = (src.first_chunk::<8>(), src.last_chunk::<8>()) {
                u128::from(u64::from_le_bytes(*lo))
                    | (u128::from(u64::from_le_bytes(*hi)) << ((n - 8) * 8))
            } else if let (Some(lo), Some(hi)) = (src.first_chunk::<4>(), src.last_chunk::<4>()) {
                u128::from(u32::from_le_bytes(*lo))
                    | (u128::from(u32::from_le_bytes(*hi)) << ((n - 4) * 8))
            } else if let (Some(&a), Some(&c)) = (src.first(), src.last()) {
                let b = src.get(n / 2).copied().unwrap_or(0);
                u128::from(a) | (u128::from(b) << ((n / 2) * 8)) | (u128::from(c) << ((n - 1) * 8))
            } else {
                0
            };
        let wide = word.to_le_bytes();
        let mut out = [0u8; N];
        out.copy_from_slice(&wide[..N]);
        out
    } else {
        let mut out = [0u8; N];
        out[..src.len()].copy_from_slice(src);
        out
    }
}

impl<T: KeyBytes + ?Sized, const N: usize> Codec<T> for Fixed<N> {
    const LAYOUT: crate::TypeLayout = T::LAYOUT;
    const FIXED_WIDTH: Option<usize> = Some(N);
    const MAX_WIDTH: Option<usize> = Some(N);
    const ENCODING: &'static str = "fixed width, right-padded with 0x00";
    const DOMAIN: Domain = T::DOMAIN;

    #[inline(always)]
    fn width(v: &T) -> Result<usize, EncodeError> {
        let b = v.key_bytes();
        if b.len() > N {
            Err(EncodeError::new(EncodeErrorKind::TooLongForFixed {
                len: b.len(),
                width: N,
            }))
        } else if b.last() == Some(&0) {
            Err(EncodeError::new(EncodeErrorKind::TrailingNul {
                len: b.len(),
            }))
        } else {
            Ok(N)
        }
    }

    #[inline(always)]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        sink.put_array(pad::<N>(v.key_bytes()));
    }

    /// Stored values are at most `N` bytes and never end in 0x00. A bound `b` outside that set
    /// is rewritten onto it: cut `b` to `N` bytes (`b'`, a proper prefix of `b` if it was longer)
    /// and drop trailing zeros (`t`). No stored value lies strictly between `t` and `b`, so
    /// `v < b` and `v <= b` become `v <= t`, and `v > b` and `v >= b` become `v > t`.
    #[inline(always)]
    fn write_bound<S: Sink>(v: &T, lower: bool, inclusive: bool, sink: &mut S) -> BoundKind {
        let b = v.key_bytes();
        let cut = &b[..b.len().min(N)];
        let end = cut.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
        let t = &cut[..end];
        if t.len() == b.len() {
            sink.put_array(pad::<N>(b));
            return if inclusive {
                BoundKind::Inclusive
            } else {
                BoundKind::Exclusive
            };
        }
        sink.put_array(pad::<N>(t));
        if lower {
            BoundKind::Exclusive
        } else {
            BoundKind::Inclusive
        }
    }
}

impl<'de, T: KeyBytes + FromKeyBytes<'de>, const N: usize> CodecDecode<'de, T> for Fixed<N> {
    #[inline(always)]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        let at = src.pos();
        let stored = src.take_fixed(N)?;
        let trimmed = match stored {
            Cow::Borrowed(b) => {
                let end = b.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
                Cow::Borrowed(&b[..end])
            }
            Cow::Owned(mut v) => {
                let end = v.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
                v.truncate(end);
                Cow::Owned(v)
            }
        };
        T::from_key_bytes(trimmed).map_err(|k| DecodeError::new(at, k))
    }
}

/// `#[max_len(N)]` on a variable-length field: the value may hold at most `N` bytes, which
/// bounds the key's `MAX_LEN`. A longer value is refused.
pub struct MaxLen<const N: usize>;

impl<T: KeyBytes + Encode + ?Sized, const N: usize> Codec<T> for MaxLen<N> {
    const LAYOUT: crate::TypeLayout = <T as Encode>::LAYOUT;
    const FIXED_WIDTH: Option<usize> = None;
    // Every byte may be a zero that escapes to two, plus the terminator.
    const MAX_WIDTH: Option<usize> = Some(2 * N + 2);
    const ENCODING: &'static str = T::ENCODING;
    const DOMAIN: Domain = <T as KeyBytes>::DOMAIN;

    #[inline]
    fn width(v: &T) -> Result<usize, EncodeError> {
        let len = v.key_bytes().len();
        if len > N {
            return Err(EncodeError::new(EncodeErrorKind::TooLongForField {
                len,
                max: N,
            }));
        }
        v.encoded_width()
    }

    #[inline]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        write_escaped(v.key_bytes(), sink);
    }

    /// A scan for a longer value looks for it as it would be stored (no such key can exist,
    /// so the scan finds nothing, which is the right answer).
    #[inline]
    fn write_eq<S: Sink>(v: &T, sink: &mut S) -> bool {
        write_escaped(v.key_bytes(), sink);
        true
    }
}

impl<'de, T: KeyBytes + Encode + Decode<'de>, const N: usize> CodecDecode<'de, T> for MaxLen<N> {
    #[inline]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        // Only what the type can encode decodes: a key that decoded but could not be encoded
        // again could not be fetched or scanned for either.
        let at = src.pos();
        let v = T::read(src)?;
        let len = v.key_bytes().len();
        if len > N {
            return Err(DecodeError::new(
                at,
                DecodeErrorKind::TooLongForField { len, max: N },
            ));
        }
        Ok(v)
    }
}

/// A timestamp type accepted by `#[reverse_ts]`.
pub trait Timestamp: Copy {
    /// What the type contributes to a key's layout fingerprint (`u64` or `i64`).
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("timestamp");
    /// The timestamp as a wide integer, for the range check.
    fn to_i128(self) -> i128;
    /// The timestamp from a value known to be in `0..=i64::MAX`.
    fn from_i64(v: i64) -> Self;
}

impl Timestamp for u64 {
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("u64");
    #[inline(always)]
    fn to_i128(self) -> i128 {
        i128::from(self)
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v.unsigned_abs()
    }
}

impl Timestamp for i64 {
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("i64");
    #[inline(always)]
    fn to_i128(self) -> i128 {
        i128::from(self)
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v
    }
}

/// `#[reverse_ts]`: `i64::MAX - ts` as 8 bytes big-endian, byte-identical to HBase's
/// `Bytes.toBytes(Long.MAX_VALUE - ts)`; newest sorts first.
pub struct ReverseTs;

impl<T: Timestamp> Codec<T> for ReverseTs {
    const LAYOUT: crate::TypeLayout = T::LAYOUT;
    const FIXED_WIDTH: Option<usize> = Some(8);
    const MAX_WIDTH: Option<usize> = Some(8);
    const ENCODING: &'static str = "i64::MAX - ts, 8 bytes big-endian (HBase reverse timestamp)";

    #[inline(always)]
    fn width(v: &T) -> Result<usize, EncodeError> {
        let value = v.to_i128();
        if (0..=i128::from(i64::MAX)).contains(&value) {
            Ok(8)
        } else {
            Err(EncodeError::new(EncodeErrorKind::TimestampOutOfRange {
                value,
            }))
        }
    }

    const DESCENDING: bool = true;
    // `i64::MAX - ts` for ts in `0..=i64::MAX`: the upper half of the 8-byte space is unused.
    const DOMAIN: Domain = Domain::interval(8, 0, 1 << 63);

    #[inline(always)]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        // In range after `width`; the clamp only keeps an unchecked call from wrapping.
        let ts = v.to_i128().clamp(0, i128::from(i64::MAX)) as i64;
        sink.put_array((i64::MAX - ts).to_be_bytes());
    }

    /// Stored timestamps are `0..=i64::MAX`: a bound beyond that end constrains nothing, and
    /// a bound beyond the other end leaves nothing.
    #[inline(always)]
    fn write_bound<S: Sink>(v: &T, lower: bool, inclusive: bool, sink: &mut S) -> BoundKind {
        let value = v.to_i128();
        let max = i128::from(i64::MAX);
        match (lower, value) {
            (true, v) if v < 0 || (v == 0 && inclusive) => BoundKind::Unbounded,
            (true, v) if v > max || (v == max && !inclusive) => BoundKind::Empty,
            (false, v) if v > max || (v == max && inclusive) => BoundKind::Unbounded,
            (false, v) if v < 0 || (v == 0 && !inclusive) => BoundKind::Empty,
            _ => {
                Self::write(v, sink);
                if inclusive {
                    BoundKind::Inclusive
                } else {
                    BoundKind::Exclusive
                }
            }
        }
    }
}

impl<'de, T: Timestamp> CodecDecode<'de, T> for ReverseTs {
    #[inline(always)]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        let at = src.pos();
        let stored = i64::from_be_bytes(src.take_array()?);
        if stored < 0 {
            return Err(DecodeError::new(at, DecodeErrorKind::BadTimestamp));
        }
        Ok(T::from_i64(i64::MAX - stored))
    }
}

/// A fixed-width type accepted by `#[reverse]`.
pub trait Reversible: Sized {
    /// Writes the type's fixed-width encoding with its bytes in reverse order.
    fn write_reversed<S: Sink>(&self, sink: &mut S);
    /// Reads a value written by [`Reversible::write_reversed`].
    fn read_reversed<'de, S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError>;
}

macro_rules! reversible {
    ($($t:ty),*) => {$(
        impl Reversible for $t {
            #[inline(always)]
            fn write_reversed<S: Sink>(&self, sink: &mut S) {
                let mut a = [0u8; core::mem::size_of::<$t>()];
                let mut tmp = crate::sink::SliceSink::new(&mut a);
                Encode::write(self, &mut tmp);
                a.reverse();
                sink.put_array(a);
            }

            #[inline(always)]
            fn read_reversed<'de, S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
                let mut a: [u8; core::mem::size_of::<$t>()] = src.take_array()?;
                a.reverse();
                <$t as Decode>::read(&mut crate::source::Reader::new(&a))
            }
        }
    )*};
}
reversible!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);

impl<const N: usize> Reversible for [u8; N] {
    #[inline(always)]
    fn write_reversed<S: Sink>(&self, sink: &mut S) {
        let mut a = *self;
        a.reverse();
        sink.put_array(a);
    }

    #[inline(always)]
    fn read_reversed<'de, S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
        let mut a: [u8; N] = src.take_array()?;
        a.reverse();
        Ok(a)
    }
}

/// `#[reverse]`: the fixed-width encoding with its bytes reversed, so sequential ids spread
/// over the key space. Order is given up: only equality prefixes can scan on the field.
pub struct Reverse;

impl<T: Reversible + Encode> Codec<T> for Reverse {
    const LAYOUT: crate::TypeLayout = T::LAYOUT;
    const FIXED_WIDTH: Option<usize> = T::FIXED_WIDTH;
    const MAX_WIDTH: Option<usize> = T::MAX_WIDTH;
    const ENCODING: &'static str = "fixed-width bytes in reverse order (unordered)";
    const ORDERED: bool = false;
    const DOMAIN: Domain = T::DOMAIN;

    #[inline(always)]
    fn width(v: &T) -> Result<usize, EncodeError> {
        v.encoded_width()
    }

    #[inline(always)]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        v.write_reversed(sink)
    }
}

impl<'de, T: Reversible + Encode> CodecDecode<'de, T> for Reverse {
    #[inline(always)]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        T::read_reversed(src)
    }
}

/// `#[hash(md5)]` / `#[hash(md5, len = N)]`: the field is stored as (the first `N` bytes of)
/// its MD5 digest, and decodes to that digest; the field's type is [`Hashed<T, N>`].
pub struct Md5<const LEN: usize>;

impl<T: crate::HashInput, const LEN: usize> Codec<Hashed<T, LEN>> for Md5<LEN> {
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::hashed(T::LAYOUT);
    const FIXED_WIDTH: Option<usize> = Some(LEN);
    const MAX_WIDTH: Option<usize> = Some(LEN);
    const ENCODING: &'static str = "MD5 digest prefix (unordered)";
    const ORDERED: bool = false;
    const DOMAIN: Domain = Domain::full(LEN);

    #[inline(always)]
    fn width(_: &Hashed<T, LEN>) -> Result<usize, EncodeError> {
        Ok(LEN)
    }

    #[inline(always)]
    fn write<S: Sink>(v: &Hashed<T, LEN>, sink: &mut S) {
        sink.put_array(*v.digest());
    }
}

impl<'de, T: crate::HashInput, const LEN: usize> CodecDecode<'de, Hashed<T, LEN>> for Md5<LEN> {
    #[inline(always)]
    fn read<S: Source<'de>>(src: &mut S) -> Result<Hashed<T, LEN>, DecodeError> {
        src.take_array().map(Hashed::from_digest)
    }
}

/// `#[desc]`: the inner codec's bytes, every one inverted, so the field sorts descending.
pub struct Desc<C>(PhantomData<C>);

impl<T: ?Sized, C: Codec<T>> Codec<T> for Desc<C> {
    const FIXED_WIDTH: Option<usize> = C::FIXED_WIDTH;
    const MAX_WIDTH: Option<usize> = C::MAX_WIDTH;
    const ENCODING: &'static str = C::ENCODING;
    const ORDERED: bool = C::ORDERED;
    const NESTED: Option<&'static crate::schema::Schema> = C::NESTED;
    const __NOT_NESTED: &'static str = C::__NOT_NESTED;
    const DESCENDING: bool = !C::DESCENDING;
    const DOMAIN: Domain = C::DOMAIN.inverted();
    const LAYOUT: crate::TypeLayout = C::LAYOUT;

    #[inline(always)]
    fn width(v: &T) -> Result<usize, EncodeError> {
        C::width(v)
    }

    #[inline(always)]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        C::write(v, &mut Invert(sink))
    }

    #[inline(always)]
    fn write_eq<S: Sink>(v: &T, sink: &mut S) -> bool {
        C::write_eq(v, &mut Invert(sink))
    }

    #[inline(always)]
    fn write_bound<S: Sink>(v: &T, lower: bool, inclusive: bool, sink: &mut S) -> BoundKind {
        C::write_bound(v, lower, inclusive, &mut Invert(sink))
    }
}

impl<'de, T, C: CodecDecode<'de, T>> CodecDecode<'de, T> for Desc<C> {
    #[inline(always)]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        C::read(&mut Inverted(src))
    }
}

/// A type accepted by `#[row_span(N)]`: an unsigned integer (a timestamp, a sequence number).
pub trait RowSpanValue: Copy {
    /// What the type contributes to a key's layout fingerprint (`u32` or `u64`).
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("span value");
    /// The type's width in bytes (the bucket start's width).
    const WIDTH: usize;
    /// Its largest value.
    const MAX: u64;
    /// The value as a `u64`.
    fn to_u64(self) -> u64;
    /// The value from a `u64` known to be at most [`RowSpanValue::MAX`].
    fn from_u64(v: u64) -> Self;
}

impl RowSpanValue for u32 {
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("u32");
    const WIDTH: usize = 4;
    const MAX: u64 = u32::MAX as u64;
    #[inline(always)]
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        u32::try_from(v).unwrap_or(u32::MAX)
    }
}

impl RowSpanValue for u64 {
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("u64");
    const WIDTH: usize = 8;
    const MAX: u64 = u64::MAX;
    #[inline(always)]
    fn to_u64(self) -> u64 {
        self
    }
    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        v
    }
}

/// The width of a `#[row_span(N)]` offset (`v % N`): the fewest of 1, 2, 4 or 8 bytes that hold
/// `N - 1`.
pub const fn row_span_offset_width(n: u64) -> usize {
    if n <= 1 << 8 {
        1
    } else if n <= 1 << 16 {
        2
    } else if n <= 1 << 32 {
        4
    } else {
        8
    }
}

/// Reads a `#[row_span(n)]` value of a `width`-byte type whose largest value is `max`: the
/// bucket start, then the offset; only canonical bytes (the start a multiple of `n`, the offset
/// below it) are a value. `RowSpan<N>` and the schema-driven explain both read through it.
pub(crate) fn read_row_span<'de, S: Source<'de>>(
    src: &mut S,
    width: usize,
    max: u64,
    n: u64,
) -> Result<u64, DecodeError> {
    let at = src.pos();
    let be = |bytes: &[u8]| bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
    let bucket = be(&src.take_fixed(width)?);
    let offset = be(&src.take_fixed(row_span_offset_width(n))?);
    let n = n.max(1);
    match bucket.checked_add(offset) {
        Some(v) if bucket % n == 0 && offset < n && v <= max => Ok(v),
        _ => Err(DecodeError::new(at, DecodeErrorKind::BadRowSpan)),
    }
}

/// `#[row_span(N)]`: rows as columns. The bucket start `v - v % N` big-endian at the type's
/// width (the last bytes of the row key: one row holds `N` consecutive values), then the
/// offset `v % N` big-endian in the fewest of 1, 2, 4 or 8 bytes that hold `N - 1` (the first
/// bytes of the column qualifier). Ordered: `(bucket, offset)` sorts as `v`. The bucket start
/// is `Bytes.toBytes(hourStart)` for a `u64` in HBase's terms, as OpenTSDB's base hour.
pub struct RowSpan<const N: u64>;

impl<const N: u64> RowSpan<N> {
    /// The offset's width.
    pub const OFFSET_WIDTH: usize = row_span_offset_width(N);
}

impl<T: RowSpanValue, const N: u64> Codec<T> for RowSpan<N> {
    const LAYOUT: crate::TypeLayout = T::LAYOUT;
    const FIXED_WIDTH: Option<usize> = Some(T::WIDTH + row_span_offset_width(N));
    const MAX_WIDTH: Option<usize> = Some(T::WIDTH + row_span_offset_width(N));
    const ENCODING: &'static str = "row span: `v - v % N` big-endian ends the row key, `v % N` big-endian starts the column qualifier";
    const DOMAIN: Domain = Domain::full(T::WIDTH);

    #[inline(always)]
    fn width(_: &T) -> Result<usize, EncodeError> {
        Ok(T::WIDTH + row_span_offset_width(N))
    }

    #[inline(always)]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        let v = v.to_u64();
        // `N >= 2` (the derive's rule); `max(1)` keeps an unchecked use from dividing by zero.
        let n = N.max(1);
        let (bucket, offset) = (v - v % n, v % n);
        sink.put(&bucket.to_be_bytes()[8 - T::WIDTH..]);
        sink.put(&offset.to_be_bytes()[8 - row_span_offset_width(N)..]);
    }
}

impl<'de, T: RowSpanValue, const N: u64> CodecDecode<'de, T> for RowSpan<N> {
    #[inline(always)]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        read_row_span(src, T::WIDTH, T::MAX, N).map(T::from_u64)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::pad;

    proptest! {
        #[test]
        fn fixed_padding_matches_the_naive_copy(src in prop::collection::vec(any::<u8>(), 0..=16)) {
            fn naive<const N: usize>(s: &[u8]) -> [u8; N] {
                let mut out = [0u8; N];
                out[..s.len()].copy_from_slice(s);
                out
            }
            prop_assert_eq!(pad::<16>(&src), naive::<16>(&src));
            if src.len() <= 8 {
                prop_assert_eq!(pad::<8>(&src), naive::<8>(&src));
            }
            if src.len() <= 3 {
                prop_assert_eq!(pad::<3>(&src), naive::<3>(&src));
            }
            if src.len() <= 12 {
                prop_assert_eq!(pad::<12>(&src), naive::<12>(&src));
            }
        }
    }
}
