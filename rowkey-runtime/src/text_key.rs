//! Text keys (FORMAT.md §2.16): every field written as text and the fields joined by one
//! delimiter byte, `#[rowkey(delimiter = ':')]`, as Java services build keys with
//! `String.join` or `user + "_" + ts`: text as itself, integers as decimal (`#[decimal]`,
//! zero-padded with `#[decimal(width = N)]`) or hex (`#[hex(width = N, upper)]`), a string
//! reversed (`#[reverse]`).
//!
//! A field that is not the last is [`Delimited`]: its text, then the delimiter; the last is
//! [`Last`]: its text to the end of the key. A value that holds the delimiter is refused when
//! encoding (it could not be read back) and when decoding (the key is not one the layout
//! writes). An equality scan on a field that is not the last carries the delimiter, so `"10"`
//! never finds `"100"`; on the last field it is the one key.
//!
//! Order: a fixed-width field (`#[decimal(width = N)]` or `#[hex(width = N)]` on an unsigned
//! integer) sorts as its values; so does the last text field (its bytes run to the end); a
//! text field followed by the delimiter sorts as its values only when the delimiter is `00`
//! (below every byte a value may hold); unpadded numbers, signed ones and reversed text never.
//! The derive offers ranges exactly where [`Codec::ORDERED`] says so.

use std::borrow::Cow;
use std::marker::PhantomData;

use crate::codec::{BoundKind, Codec, CodecDecode};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::schema::Domain;
use crate::sink::Sink;
use crate::source::Source;
use crate::text::{FromKeyBytes, KeyBytes};
use crate::TypeLayout;

/// How a text field's value reads back from its text: the bytes between two delimiters (or
/// the last delimiter and the end), all of them. An error's offset is relative to them.
pub trait TextPart<'de, T>: Codec<T> {
    /// The value of `text`, which must be whole: every byte is the value's.
    fn parse(text: Cow<'de, [u8]>) -> Result<T, (usize, DecodeErrorKind)>;
}

/// A field of a text key that is not the last: `C`'s text, then the delimiter `D`.
pub struct Delimited<C, const D: u8>(PhantomData<C>);

impl<T: ?Sized, C: Codec<T>, const D: u8> Codec<T> for Delimited<C, D> {
    const FIXED_WIDTH: Option<usize> = match C::FIXED_WIDTH {
        Some(w) => Some(w + 1),
        None => None,
    };
    const MAX_WIDTH: Option<usize> = match C::MAX_WIDTH {
        Some(w) => Some(w + 1),
        None => None,
    };
    const ENCODING: &'static str = C::ENCODING;
    // A variable-width text sorts as its values only if the delimiter sorts below every byte
    // a value may hold: `00`, which no value holds.
    const ORDERED: bool = C::ORDERED && (C::FIXED_WIDTH.is_some() || D == 0);
    const DOMAIN: Domain = C::DOMAIN;
    const LAYOUT: TypeLayout = C::LAYOUT;

    #[inline]
    fn width(v: &T) -> Result<usize, EncodeError> {
        Ok(C::width(v)? + 1)
    }

    #[inline]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        C::write(v, sink);
        sink.put_array([D]);
    }

    #[inline]
    fn write_eq<S: Sink>(v: &T, sink: &mut S) -> bool {
        C::write_eq(v, sink) && {
            sink.put_array([D]);
            true
        }
    }

    /// A bound written as the value's text and the delimiter: exact for a fixed-width text
    /// (every value's text has the same length, so a key below `b D` holds a value below `b`).
    #[inline]
    fn write_bound<S: Sink>(v: &T, lower: bool, inclusive: bool, sink: &mut S) -> BoundKind {
        let kind = C::write_bound(v, lower, inclusive, sink);
        if matches!(kind, BoundKind::Inclusive | BoundKind::Exclusive) {
            sink.put_array([D]);
        }
        kind
    }
}

impl<'de, T, C: TextPart<'de, T>, const D: u8> CodecDecode<'de, T> for Delimited<C, D> {
    #[inline]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        let at = src.pos();
        let text = src.take_until(D)?;
        C::parse(text).map_err(|(o, k)| DecodeError::new(at + o, k))
    }
}

/// The last field of a text key: `C`'s text to the end of the key. `D` is the key's
/// delimiter, refused inside the value.
pub struct Last<C, const D: u8>(PhantomData<C>);

impl<T: ?Sized, C: Codec<T>, const D: u8> Codec<T> for Last<C, D> {
    const FIXED_WIDTH: Option<usize> = C::FIXED_WIDTH;
    const MAX_WIDTH: Option<usize> = C::MAX_WIDTH;
    const ENCODING: &'static str = C::ENCODING;
    const ORDERED: bool = C::ORDERED;
    const DOMAIN: Domain = C::DOMAIN;
    const LAYOUT: TypeLayout = C::LAYOUT;
    const TAKES_REST: bool = true;

    #[inline]
    fn width(v: &T) -> Result<usize, EncodeError> {
        C::width(v)
    }

    #[inline]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        C::write(v, sink)
    }

    #[inline]
    fn write_eq<S: Sink>(v: &T, sink: &mut S) -> bool {
        C::write_eq(v, sink)
    }

    /// Nothing follows the value: `v <= b` is `v < b 00` and `v > b` is `v >= b 00`, as for
    /// `#[rest]`.
    #[inline]
    fn write_bound<S: Sink>(v: &T, lower: bool, inclusive: bool, sink: &mut S) -> BoundKind {
        match C::write_bound(v, lower, inclusive, sink) {
            BoundKind::Exclusive if lower => {
                sink.put_array([0]);
                BoundKind::Inclusive
            }
            BoundKind::Inclusive if !lower => {
                sink.put_array([0]);
                BoundKind::Exclusive
            }
            kind => kind,
        }
    }
}

impl<'de, T, C: TextPart<'de, T>, const D: u8> CodecDecode<'de, T> for Last<C, D> {
    #[inline]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        let at = src.pos();
        let n = src.remaining();
        let text = src.take_fixed(n)?;
        if let Some(i) = text.iter().position(|&b| b == D) {
            return Err(DecodeError::new(
                at + i,
                DecodeErrorKind::DelimiterInValue { delimiter: D },
            ));
        }
        C::parse(text).map_err(|(o, k)| DecodeError::new(at + o, k))
    }
}

/// A text field of a text key: its UTF-8 bytes as they are (the delimiter refused inside).
pub struct Text<const D: u8>;

impl<T: KeyBytes + ?Sized, const D: u8> Codec<T> for Text<D> {
    const FIXED_WIDTH: Option<usize> = None;
    const MAX_WIDTH: Option<usize> = None;
    const ENCODING: &'static str = "text as it is";
    const DOMAIN: Domain = T::DOMAIN;
    const LAYOUT: TypeLayout = T::LAYOUT;

    #[inline]
    fn width(v: &T) -> Result<usize, EncodeError> {
        let b = v.key_bytes();
        if let Some(at) = b.iter().position(|&x| x == D) {
            return Err(EncodeError::new(EncodeErrorKind::DelimiterInValue {
                delimiter: D,
                at,
            }));
        }
        Ok(b.len())
    }

    #[inline]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        sink.put(v.key_bytes());
    }
}

impl<'de, T: KeyBytes + FromKeyBytes<'de>, const D: u8> TextPart<'de, T> for Text<D> {
    fn parse(text: Cow<'de, [u8]>) -> Result<T, (usize, DecodeErrorKind)> {
        T::from_key_bytes(text).map_err(|k| (0, k))
    }
}

/// `#[fixed(N)]` on a text field of a text key: exactly `N` bytes, the text right-padded with
/// spaces (Java's `String.format("%-Ns")`). A longer value, or one ending in a space (which the
/// padding would swallow), is refused; reading trims the trailing spaces. Equality only: a
/// value's bytes below the space sort against the padding.
pub struct PaddedText<const N: usize, const D: u8>;

impl<T: KeyBytes + ?Sized, const N: usize, const D: u8> Codec<T> for PaddedText<N, D> {
    const FIXED_WIDTH: Option<usize> = Some(N);
    const MAX_WIDTH: Option<usize> = Some(N);
    const ENCODING: &'static str = "text right-padded with spaces to a width";
    const ORDERED: bool = false;
    const DOMAIN: Domain = T::DOMAIN;
    const LAYOUT: TypeLayout = T::LAYOUT;

    #[inline]
    fn width(v: &T) -> Result<usize, EncodeError> {
        let b = v.key_bytes();
        if b.len() > N {
            return Err(EncodeError::new(EncodeErrorKind::TooLongForFixed {
                len: b.len(),
                width: N,
            }));
        }
        if b.last() == Some(&b' ') {
            return Err(EncodeError::new(EncodeErrorKind::TrailingSpace {
                len: b.len(),
            }));
        }
        if let Some(at) = b.iter().position(|&x| x == D) {
            return Err(EncodeError::new(EncodeErrorKind::DelimiterInValue {
                delimiter: D,
                at,
            }));
        }
        Ok(N)
    }

    #[inline]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        let b = v.key_bytes();
        sink.put(b);
        const SPACES: [u8; 64] = [b' '; 64];
        let mut pad = N.saturating_sub(b.len());
        while pad > 0 {
            let n = pad.min(SPACES.len());
            sink.put(&SPACES[..n]);
            pad -= n;
        }
    }
}

impl<'de, T: KeyBytes + FromKeyBytes<'de>, const N: usize, const D: u8> TextPart<'de, T>
    for PaddedText<N, D>
{
    fn parse(text: Cow<'de, [u8]>) -> Result<T, (usize, DecodeErrorKind)> {
        if text.len() != N {
            return Err((
                0,
                DecodeErrorKind::BadTextNumber {
                    reason: "text not of the declared width",
                },
            ));
        }
        let end = text.iter().rposition(|&x| x != b' ').map_or(0, |i| i + 1);
        let trimmed = match text {
            Cow::Borrowed(b) => Cow::Borrowed(&b[..end]),
            Cow::Owned(mut v) => {
                v.truncate(end);
                Cow::Owned(v)
            }
        };
        T::from_key_bytes(trimmed).map_err(|k| (0, k))
    }
}

/// `#[reverse]` on a text field of a text key: its characters in reverse order (the Chinese
/// row-key guide's reversed phone number). Equality only.
pub struct ReversedText<const D: u8>;

/// An owned text type `#[reverse]` reads into.
pub trait FromText: Sized {
    /// The value from its text.
    fn from_text(s: String) -> Self;
}

impl FromText for String {
    fn from_text(s: String) -> Self {
        s
    }
}

impl FromText for Box<str> {
    fn from_text(s: String) -> Self {
        s.into_boxed_str()
    }
}

impl FromText for Cow<'_, str> {
    fn from_text(s: String) -> Self {
        Cow::Owned(s)
    }
}

impl<T: crate::java::JavaText + ?Sized, const D: u8> Codec<T> for ReversedText<D> {
    const FIXED_WIDTH: Option<usize> = None;
    const MAX_WIDTH: Option<usize> = None;
    const ENCODING: &'static str = "text with its characters in reverse order";
    const ORDERED: bool = false;
    const DOMAIN: Domain = Domain::full(1);
    const LAYOUT: TypeLayout = TypeLayout::named("text");

    #[inline]
    fn width(v: &T) -> Result<usize, EncodeError> {
        let b = v.java_str().as_bytes();
        if let Some(i) = b.iter().position(|&x| x == D) {
            // The offset in the stored (reversed) text.
            return Err(EncodeError::new(EncodeErrorKind::DelimiterInValue {
                delimiter: D,
                at: b.len() - 1 - i,
            }));
        }
        Ok(b.len())
    }

    #[inline]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        let s = v.java_str();
        if s.is_ascii() {
            for &b in s.as_bytes().iter().rev() {
                sink.put_array([b]);
            }
        } else {
            let mut buf = [0u8; 4];
            for c in s.chars().rev() {
                sink.put(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
}

impl<'de, T: crate::java::JavaText + FromText, const D: u8> TextPart<'de, T> for ReversedText<D> {
    fn parse(text: Cow<'de, [u8]>) -> Result<T, (usize, DecodeErrorKind)> {
        let s =
            core::str::from_utf8(&text).map_err(|e| (e.valid_up_to(), DecodeErrorKind::BadUtf8))?;
        Ok(T::from_text(s.chars().rev().collect()))
    }
}

/// An integer type `#[decimal]` and `#[hex]` write as text.
pub trait TextNumber: Copy + Sized {
    /// Whether it has negative values.
    const SIGNED: bool;
    /// The most decimal characters a value takes (the sign included).
    const DECIMAL_MAX: usize;
    /// The most hex digits a value takes.
    const HEX_MAX: usize;
    /// What the type contributes to the layout fingerprint.
    const LAYOUT: TypeLayout;
    /// Whether the value is below zero, and its magnitude.
    fn split(self) -> (bool, u64);
    /// The value of a sign and magnitude, if the type holds it.
    fn join(negative: bool, magnitude: u64) -> Option<Self>;
}

macro_rules! text_number {
    ($($t:ty, $signed:expr, $dec:expr, $hex:expr);* $(;)?) => {$(
        impl TextNumber for $t {
            const SIGNED: bool = $signed;
            const DECIMAL_MAX: usize = $dec;
            const HEX_MAX: usize = $hex;
            const LAYOUT: TypeLayout = TypeLayout::named(stringify!($t));
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn split(self) -> (bool, u64) {
                // Every type here is at most 64 bits: its magnitude fits a u64 (i64::MIN's too).
                (self < 0, (self as i128).unsigned_abs() as u64)
            }
            #[inline]
            fn join(negative: bool, magnitude: u64) -> Option<Self> {
                if negative {
                    let v = 0i128 - i128::from(magnitude);
                    <$t>::try_from(v).ok()
                } else {
                    <$t>::try_from(magnitude).ok()
                }
            }
        }
    )*};
}

text_number!(
    u8, false, 3, 2; u16, false, 5, 4; u32, false, 10, 8; u64, false, 20, 16;
    i8, true, 4, 2; i16, true, 6, 4; i32, true, 11, 8; i64, true, 20, 16;
);

/// How many decimal digits `m` takes (no division: compared with the powers of ten).
#[inline(always)]
fn decimal_len(m: u64) -> usize {
    let mut n = 1;
    let mut p = 10u64;
    while n < 20 && m >= p {
        n += 1;
        p = p.wrapping_mul(10);
    }
    n
}

/// How many hex digits `m` takes.
#[inline(always)]
fn hex_len(m: u64) -> usize {
    (64 - m.leading_zeros() as usize).div_ceil(4).max(1)
}

/// Two decimal digits per entry, `00` to `99`.
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// The decimal digits of `m` (`n` of them, [`decimal_len`]) into the end of `buf`: two at a
/// time, by multiplication-backed division by 100.
#[inline(always)]
fn decimal_digits(mut m: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = 20;
    while m >= 100 {
        let pair = (m % 100) as usize * 2;
        m /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if m >= 10 {
        at -= 2;
        let pair = m as usize * 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        at -= 1;
        buf[at] = b'0' + m as u8;
    }
    &buf[at..]
}

/// The hex digits of `m` into the end of `buf`.
#[inline(always)]
fn hex_digits(m: u64, upper: bool, buf: &mut [u8; 20]) -> &[u8] {
    let table: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let n = hex_len(m);
    for i in 0..n {
        buf[19 - i] = table[((m >> (4 * i)) & 0xF) as usize];
    }
    &buf[20 - n..]
}

/// Zeros to pad a field to its width.
const ZEROS: [u8; 40] = [b'0'; 40];

/// A bound on a padded number: a value the width cannot hold is past every stored value, so a
/// lower bound leaves nothing and an upper one is no bound (ranges are offered only on
/// unsigned padded fields).
#[inline]
fn padded_bound<C: Codec<T>, T, S: Sink>(
    v: &T,
    lower: bool,
    inclusive: bool,
    sink: &mut S,
) -> BoundKind {
    if C::width(v).is_err() {
        return if lower {
            BoundKind::Empty
        } else {
            BoundKind::Unbounded
        };
    }
    C::write(v, sink);
    if inclusive {
        BoundKind::Inclusive
    } else {
        BoundKind::Exclusive
    }
}

/// `#[decimal]` (`W` = 0: as few digits as the value needs, as Java's `Long.toString`) and
/// `#[decimal(width = W)]` (at least `W` characters, zero-padded after the sign, as Java's
/// `String.format("%0Wd")`; a value that needs more is refused).
pub struct Decimal<const W: usize>;

impl<T: TextNumber, const W: usize> Codec<T> for Decimal<W> {
    const FIXED_WIDTH: Option<usize> = if W > 0 { Some(W) } else { None };
    const MAX_WIDTH: Option<usize> = Some(if W > 0 { W } else { T::DECIMAL_MAX });
    const ENCODING: &'static str = if W > 0 {
        "decimal text, zero-padded to a width"
    } else {
        "decimal text"
    };
    // Padded digits of a value that is never negative sort as the value.
    const ORDERED: bool = W > 0 && !T::SIGNED;
    const DOMAIN: Domain = Domain::interval(1, 0x2D, 0x3A);
    const LAYOUT: TypeLayout = T::LAYOUT;

    #[inline]
    fn width(v: &T) -> Result<usize, EncodeError> {
        let (neg, m) = v.split();
        let n = decimal_len(m) + usize::from(neg);
        if W > 0 && n > W {
            return Err(EncodeError::new(EncodeErrorKind::TooWideForText {
                len: n,
                width: W,
            }));
        }
        Ok(n.max(W))
    }

    #[inline]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        let (neg, m) = v.split();
        let mut buf = [0u8; 20];
        let digits = decimal_digits(m, &mut buf);
        if neg {
            sink.put_array([b'-']);
        }
        let pad = W.saturating_sub(digits.len() + usize::from(neg));
        if pad > 0 {
            sink.put(&ZEROS[..pad.min(ZEROS.len())]);
        }
        sink.put(digits);
    }

    #[inline]
    fn write_bound<S: Sink>(v: &T, lower: bool, inclusive: bool, sink: &mut S) -> BoundKind {
        padded_bound::<Self, T, S>(v, lower, inclusive, sink)
    }
}

impl<'de, T: TextNumber, const W: usize> TextPart<'de, T> for Decimal<W> {
    fn parse(text: Cow<'de, [u8]>) -> Result<T, (usize, DecodeErrorKind)> {
        parse_number::<T>(&text, 10, W, None)
    }
}

/// `#[hex]` / `#[hex(upper)]` (`W` = 0: as few digits as the value needs, as Java's
/// `Long.toHexString`) and `#[hex(width = W)]` (zero-padded to `W` digits, as
/// `String.format("%0Wx")`; a value that needs more is refused), lowercase unless `UPPER`.
/// Unsigned integers only.
pub struct Hex<const W: usize, const UPPER: bool>;

impl<T: TextNumber, const W: usize, const UPPER: bool> Codec<T> for Hex<W, UPPER> {
    const FIXED_WIDTH: Option<usize> = if W > 0 { Some(W) } else { None };
    const MAX_WIDTH: Option<usize> = Some(if W > 0 { W } else { T::HEX_MAX });
    const ENCODING: &'static str = if UPPER {
        "hex text, uppercase"
    } else {
        "hex text, lowercase"
    };
    // Padded digits sort as the value: '0'-'9' sort below 'A'-'F' and 'a'-'f'.
    const ORDERED: bool = W > 0 && !T::SIGNED;
    const DOMAIN: Domain = Domain::interval(1, 0x30, 0x67);
    const LAYOUT: TypeLayout = T::LAYOUT;

    #[inline]
    fn width(v: &T) -> Result<usize, EncodeError> {
        let (_, m) = v.split();
        let n = hex_len(m);
        if W > 0 && n > W {
            return Err(EncodeError::new(EncodeErrorKind::TooWideForText {
                len: n,
                width: W,
            }));
        }
        Ok(n.max(W))
    }

    #[inline]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        let (_, m) = v.split();
        let mut buf = [0u8; 20];
        let digits = hex_digits(m, UPPER, &mut buf);
        let pad = W.saturating_sub(digits.len());
        if pad > 0 {
            sink.put(&ZEROS[..pad.min(ZEROS.len())]);
        }
        sink.put(digits);
    }

    #[inline]
    fn write_bound<S: Sink>(v: &T, lower: bool, inclusive: bool, sink: &mut S) -> BoundKind {
        padded_bound::<Self, T, S>(v, lower, inclusive, sink)
    }
}

impl<'de, T: TextNumber, const W: usize, const UPPER: bool> TextPart<'de, T> for Hex<W, UPPER> {
    fn parse(text: Cow<'de, [u8]>) -> Result<T, (usize, DecodeErrorKind)> {
        parse_number::<T>(&text, 16, W, Some(UPPER))
    }
}

/// A number written by [`Decimal`] or [`Hex`], refusing every other spelling (a `+`, a leading
/// zero beyond the padding, `-0`, the other letter case, a value the type cannot hold).
pub(crate) fn parse_number<T: TextNumber>(
    text: &[u8],
    radix: u32,
    width: usize,
    upper: Option<bool>,
) -> Result<T, (usize, DecodeErrorKind)> {
    let bad = |at: usize, why: &'static str| (at, DecodeErrorKind::BadTextNumber { reason: why });
    if text.is_empty() {
        return Err(bad(0, "no digits"));
    }
    if width > 0 && text.len() != width {
        return Err(bad(0, "not the declared width"));
    }
    let negative = radix == 10 && T::SIGNED && text[0] == b'-';
    let body = &text[usize::from(negative)..];
    if body.is_empty() {
        return Err(bad(0, "no digits"));
    }
    let mut m: u64 = 0;
    for (i, &b) in body.iter().enumerate() {
        let d = match (b, upper) {
            (b'0'..=b'9', _) => b - b'0',
            (b'a'..=b'f', Some(false)) => b - b'a' + 10,
            (b'A'..=b'F', Some(true)) => b - b'A' + 10,
            _ => {
                return Err(bad(
                    i + usize::from(negative),
                    "not a digit of this encoding",
                ))
            }
        };
        m = m
            .checked_mul(u64::from(radix))
            .and_then(|m| m.checked_add(u64::from(d)))
            .ok_or_else(|| bad(0, "out of the type's range"))?;
    }
    // Canonical: no zeros beyond what the width pads, no `-0`. Unpadded, a leading zero is
    // one only before other digits; padded, the zeros are the padding.
    if width == 0 && body.len() > 1 && body[0] == b'0' {
        return Err(bad(0, "a leading zero"));
    }
    if negative && m == 0 {
        return Err(bad(0, "-0"));
    }
    T::join(negative, m).ok_or_else(|| bad(0, "out of the type's range"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::BufSink;

    fn dec<const W: usize, T: TextNumber>(v: T) -> String {
        let mut out = Vec::new();
        assert_eq!(<Decimal<W> as Codec<T>>::width(&v).unwrap(), {
            <Decimal<W> as Codec<T>>::write(&v, &mut BufSink(&mut out));
            out.len()
        });
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_are_javas_text() {
        // Long.toString, String.format("%06d"), Long.toHexString, String.format("%08X")
        assert_eq!(dec::<0, i64>(-1_234), "-1234");
        assert_eq!(dec::<0, u64>(0), "0");
        assert_eq!(dec::<6, u32>(230_611), "230611");
        assert_eq!(dec::<6, u32>(63_031), "063031");
        assert_eq!(dec::<6, i32>(-5), "-00005");
        assert_eq!(dec::<0, i64>(i64::MIN), "-9223372036854775808");
        assert!(<Decimal<4> as Codec<u32>>::width(&12_345).is_err());
        let mut out = Vec::new();
        <Hex<8, true> as Codec<u32>>::write(&0xBEEF, &mut BufSink(&mut out));
        assert_eq!(out, b"0000BEEF");
        for (text, w, upper, ok) in [
            (&b"0000BEEF"[..], 8, Some(true), Some(0xBEEFu64)),
            (b"0000beef", 8, Some(true), None),
            (b"beef", 0, Some(false), Some(0xBEEF)),
            (b"0beef", 0, Some(false), None),
            (b"", 0, Some(false), None),
        ] {
            assert_eq!(parse_number::<u64>(text, 16, w, upper).ok(), ok, "{text:?}");
        }
        for (text, w, ok) in [
            (&b"-00005"[..], 6, Some(-5i32)),
            (b"-0", 0, None),
            (b"+5", 0, None),
            (b"007", 0, None),
            (b"2147483648", 0, None),
            (b"-2147483648", 0, Some(i32::MIN)),
        ] {
            assert_eq!(parse_number::<i32>(text, 10, w, None).ok(), ok, "{text:?}");
        }
    }
}
