//! Encodings of keys that Java code wrote, byte for byte (FORMAT.md §2.16-§2.18): the tables a
//! company already has. `#[java]` is `Bytes.toBytes` / `DataOutput.writeLong` and kin (two's
//! complement big-endian integers, raw IEEE 754 bits); `#[java(utf)]` is
//! `DataOutput.writeUTF` (a 2-byte length, then modified UTF-8); `#[rest]` is a last part
//! written raw (`Bytes.toBytes(String)` at the end of a key).
//!
//! What each keeps of the values' order is the derive's to know (it offers ranges only where
//! bytes sort as values): a signed `#[java]` integer puts negative values after positive ones,
//! a float's raw bits sort negative values backwards, `writeUTF`'s length sorts short strings
//! first. A `#[java]` field declared unsigned is a Java number that is never negative: its
//! bytes sort as its values, and a negative one is refused both ways.

use std::borrow::Cow;

use crate::codec::{BoundKind, Codec, CodecDecode};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::schema::Domain;
use crate::sink::Sink;
use crate::source::Source;
use crate::text::{FromKeyBytes, KeyBytes};
use crate::TypeLayout;

/// `#[java]`: the value as Java's `Bytes.toBytes` and `DataOutput.writeByte/Short/Int/Long/
/// Float/Double` write it: big-endian two's complement for integers, the raw IEEE 754 bits
/// (`Double.doubleToRawLongBits`) for floats. On an unsigned field, a Java number that is
/// never negative.
pub struct Java;

/// A number type `#[java]` accepts.
pub trait JavaNumber: Copy {
    /// Its width in bytes.
    const WIDTH: usize;
    /// The Java type it stands for, for the layout docs and errors.
    const JAVA: &'static str;
    /// Whether its bytes sort as its values: an unsigned field's (a Java number that is never
    /// negative); not a signed one's (negative values after positive ones) nor a float's.
    const ORDERED: bool;
    /// What its leading bytes range over.
    const DOMAIN: Domain;
    /// What the type contributes to the layout fingerprint.
    const LAYOUT: TypeLayout;
    /// Checks that Java can hold the value as written (an unsigned value above the signed
    /// type's maximum would be a negative Java number).
    fn java_check(self) -> Result<(), EncodeErrorKind>;
    /// Writes the value.
    fn java_write<S: Sink>(self, sink: &mut S);
    /// Reads a value; `Err` for a negative number in an unsigned field.
    fn java_read<'de, S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError>;
}

macro_rules! java_signed {
    ($($t:ty => $java:literal),*) => {$(
        impl JavaNumber for $t {
            const WIDTH: usize = core::mem::size_of::<$t>();
            const JAVA: &'static str = $java;
            const ORDERED: bool = false;
            const DOMAIN: Domain = Domain::full(core::mem::size_of::<$t>());
            const LAYOUT: TypeLayout = TypeLayout::named(stringify!($t));
            #[inline(always)]
            fn java_check(self) -> Result<(), EncodeErrorKind> {
                Ok(())
            }
            #[inline(always)]
            fn java_write<S: Sink>(self, sink: &mut S) {
                sink.put_array(self.to_be_bytes());
            }
            #[inline(always)]
            fn java_read<'de, S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
                Ok(<$t>::from_be_bytes(src.take_array()?))
            }
        }
    )*};
}

java_signed!(i8 => "byte", i16 => "short", i32 => "int", i64 => "long");

macro_rules! java_unsigned {
    ($($t:ty => $s:ty, $java:literal),*) => {$(
        impl JavaNumber for $t {
            const WIDTH: usize = core::mem::size_of::<$t>();
            const JAVA: &'static str = $java;
            const ORDERED: bool = true;
            // The upper half of the space holds negative Java numbers: never stored.
            const DOMAIN: Domain = Domain::interval(
                core::mem::size_of::<$t>() as u8,
                0,
                1u128 << (8 * core::mem::size_of::<$t>() - 1),
            );
            const LAYOUT: TypeLayout = TypeLayout::named(stringify!($t));
            #[inline(always)]
            fn java_check(self) -> Result<(), EncodeErrorKind> {
                if self > <$s>::MAX as $t {
                    Err(EncodeErrorKind::JavaOutOfRange {
                        value: self as u64,
                        max: <$s>::MAX as u64,
                    })
                } else {
                    Ok(())
                }
            }
            #[inline(always)]
            fn java_write<S: Sink>(self, sink: &mut S) {
                sink.put_array(self.to_be_bytes());
            }
            #[inline(always)]
            fn java_read<'de, S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
                let at = src.pos();
                let v = <$t>::from_be_bytes(src.take_array()?);
                if v > <$s>::MAX as $t {
                    return Err(DecodeError::new(at, DecodeErrorKind::JavaNegative));
                }
                Ok(v)
            }
        }
    )*};
}

java_unsigned!(u8 => i8, "byte", u16 => i16, "short", u32 => i32, "int", u64 => i64, "long");

macro_rules! java_float {
    ($($t:ty => $bits:ty, $java:literal),*) => {$(
        impl JavaNumber for $t {
            const WIDTH: usize = core::mem::size_of::<$t>();
            const JAVA: &'static str = $java;
            const ORDERED: bool = false;
            const DOMAIN: Domain = Domain::full(core::mem::size_of::<$t>());
            const LAYOUT: TypeLayout = TypeLayout::named(stringify!($t));
            #[inline(always)]
            fn java_check(self) -> Result<(), EncodeErrorKind> {
                Ok(())
            }
            #[inline(always)]
            fn java_write<S: Sink>(self, sink: &mut S) {
                sink.put_array(self.to_bits().to_be_bytes());
            }
            #[inline(always)]
            fn java_read<'de, S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
                Ok(<$t>::from_bits(<$bits>::from_be_bytes(src.take_array()?)))
            }
        }
    )*};
}

java_float!(f32 => u32, "float", f64 => u64, "double");

impl<T: JavaNumber> Codec<T> for Java {
    const FIXED_WIDTH: Option<usize> = Some(T::WIDTH);
    const MAX_WIDTH: Option<usize> = Some(T::WIDTH);
    const ENCODING: &'static str =
        "Java's Bytes.toBytes / DataOutput: big-endian two's complement, floats as raw IEEE 754 bits";
    const DOMAIN: Domain = T::DOMAIN;
    const LAYOUT: TypeLayout = T::LAYOUT;
    const ORDERED: bool = T::ORDERED;

    #[inline(always)]
    fn width(v: &T) -> Result<usize, EncodeError> {
        v.java_check().map_err(EncodeError::new)?;
        Ok(T::WIDTH)
    }

    #[inline(always)]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        v.java_write(sink)
    }

    /// An unsigned field's stored values are `0..=signed MAX`: a bound above that is rewritten
    /// as the bound at it (only an unsigned field takes ranges: the derive offers none on a
    /// signed or float one).
    #[inline(always)]
    fn write_bound<S: Sink>(v: &T, lower: bool, inclusive: bool, sink: &mut S) -> BoundKind {
        match v.java_check() {
            Ok(()) => {
                v.java_write(sink);
                if inclusive {
                    BoundKind::Inclusive
                } else {
                    BoundKind::Exclusive
                }
            }
            // Above every stored value: a lower bound leaves nothing, an upper one is no bound.
            Err(_) if lower => BoundKind::Empty,
            Err(_) => BoundKind::Unbounded,
        }
    }
}

impl<'de, T: JavaNumber> CodecDecode<'de, T> for Java {
    #[inline(always)]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        T::java_read(src)
    }
}

/// `#[java(utf)]`: the value as Java's `DataOutput.writeUTF` writes it: its length in bytes as
/// 2 bytes big-endian, then modified UTF-8 (U+0000 as `C0 80`, a character beyond U+FFFF as
/// its two UTF-16 surrogates of 3 bytes each). At most 65,535 bytes, as in Java.
pub struct JavaUtf;

/// The most bytes `writeUTF` writes after its length.
pub const WRITE_UTF_MAX: usize = 0xFFFF;

/// The length of `s` in modified UTF-8: a NUL takes one byte more, a 4-byte character two more.
#[inline]
pub fn modified_utf8_len(s: &str) -> usize {
    let b = s.as_bytes();
    b.len()
        + b.iter()
            .map(|&x| usize::from(x == 0) + 2 * usize::from(x >= 0xF0))
            .sum::<usize>()
}

/// Whether `b` (UTF-8) is its own modified UTF-8: no NUL, no 4-byte character.
#[inline(always)]
fn plain(b: &[u8]) -> bool {
    !b.iter().any(|&x| x == 0 || x >= 0xF0)
}

/// Writes `s` in modified UTF-8 (no length).
#[inline]
fn write_modified_utf8<S: Sink>(s: &str, sink: &mut S) {
    let b = s.as_bytes();
    if !b.iter().any(|&x| x == 0 || x >= 0xF0) {
        sink.put(b);
        return;
    }
    let mut run = 0;
    for (i, c) in s.char_indices() {
        let u = c as u32;
        if u != 0 && u < 0x1_0000 {
            continue;
        }
        sink.put(&b[run..i]);
        run = i + c.len_utf8();
        if u == 0 {
            sink.put_array([0xC0, 0x80]);
        } else {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units).iter() {
                let u = u32::from(*unit);
                sink.put_array([
                    0xE0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3F) as u8,
                    0x80 | (u & 0x3F) as u8,
                ]);
            }
        }
    }
    sink.put(&b[run..]);
}

/// Reads modified UTF-8 as Java's `readUTF` does, refusing what `writeUTF` never writes: a raw
/// `00` byte, an overlong form other than `C0 80`, a 4-byte form, a surrogate without its
/// pair (a Rust `String` cannot hold one).
fn read_modified_utf8(bytes: &[u8]) -> Result<String, &'static str> {
    if !bytes.iter().any(|&x| x == 0 || x == 0xC0 || x >= 0xED) {
        // Plain UTF-8 below U+D000 and without NUL: the same bytes.
        return core::str::from_utf8(bytes)
            .map(str::to_owned)
            .map_err(|_| "not modified UTF-8");
    }
    let mut units: Vec<u16> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let cont = |b: Option<&u8>| match b {
        Some(&b) if b & 0xC0 == 0x80 => Ok(u16::from(b & 0x3F)),
        _ => Err("a multi-byte character is cut short"),
    };
    while let Some(&b) = bytes.get(i) {
        match b {
            0x00 => return Err("a raw 00 byte (writeUTF writes U+0000 as C0 80)"),
            0x01..=0x7F => {
                units.push(u16::from(b));
                i += 1;
            }
            0xC0..=0xDF => {
                let u = (u16::from(b & 0x1F) << 6) | cont(bytes.get(i + 1))?;
                if u != 0 && u < 0x80 {
                    return Err("an overlong 2-byte character");
                }
                units.push(u);
                i += 2;
            }
            0xE0..=0xEF => {
                let u = (u16::from(b & 0x0F) << 12)
                    | (cont(bytes.get(i + 1))? << 6)
                    | cont(bytes.get(i + 2))?;
                if u < 0x800 {
                    return Err("an overlong 3-byte character");
                }
                units.push(u);
                i += 3;
            }
            _ => {
                return Err(
                    "a byte modified UTF-8 never holds (a 4-byte form or a stray continuation)",
                )
            }
        }
    }
    String::from_utf16(&units).map_err(|_| "a UTF-16 surrogate without its pair")
}

/// A text type `#[java(utf)]` writes (and a scan or query takes as a value).
pub trait JavaText {
    /// The value.
    fn java_str(&self) -> &str;
}

/// A text type `#[java(utf)]` reads into: an owned string (modified UTF-8 is not UTF-8, so
/// the value cannot be borrowed from the key).
pub trait FromJavaText: Sized {
    /// The value from decoded text.
    fn from_java(s: String) -> Self;
}

macro_rules! java_text {
    ($($t:ty),*) => {$(
        impl JavaText for $t {
            #[inline(always)]
            fn java_str(&self) -> &str {
                self
            }
        }
    )*};
}

java_text!(String, Box<str>, &str, Cow<'_, str>);

impl FromJavaText for String {
    #[inline(always)]
    fn from_java(s: String) -> Self {
        s
    }
}

impl FromJavaText for Box<str> {
    #[inline(always)]
    fn from_java(s: String) -> Self {
        s.into_boxed_str()
    }
}

impl FromJavaText for Cow<'_, str> {
    #[inline(always)]
    fn from_java(s: String) -> Self {
        Cow::Owned(s)
    }
}

impl<T: JavaText> Codec<T> for JavaUtf {
    const FIXED_WIDTH: Option<usize> = None;
    const MAX_WIDTH: Option<usize> = Some(2 + WRITE_UTF_MAX);
    const ENCODING: &'static str =
        "Java's DataOutput.writeUTF: 2-byte big-endian length, then modified UTF-8";
    const ORDERED: bool = false;
    // The length leads: its high byte is 0 for every value under 256 bytes.
    const DOMAIN: Domain = Domain::interval(1, 0, 0x100);
    const LAYOUT: TypeLayout = TypeLayout::named("text");

    #[inline]
    fn width(v: &T) -> Result<usize, EncodeError> {
        let b = v.java_str().as_bytes();
        // Text without NUL or characters past U+FFFF is the same bytes in modified UTF-8.
        let len = if plain(b) {
            b.len()
        } else {
            modified_utf8_len(v.java_str())
        };
        if len > WRITE_UTF_MAX {
            return Err(EncodeError::new(EncodeErrorKind::TooLongForWriteUtf {
                len,
            }));
        }
        Ok(2 + len)
    }

    #[inline]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        let s = v.java_str();
        let b = s.as_bytes();
        if plain(b) {
            sink.put_array((b.len().min(WRITE_UTF_MAX) as u16).to_be_bytes());
            sink.put(b);
            return;
        }
        let len = modified_utf8_len(s).min(WRITE_UTF_MAX) as u16;
        sink.put_array(len.to_be_bytes());
        write_modified_utf8(s, sink);
    }
}

impl<'de, T: JavaText + FromJavaText> CodecDecode<'de, T> for JavaUtf {
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        let at = src.pos();
        let len = u16::from_be_bytes(src.take_array()?);
        let bytes = src.take_fixed(usize::from(len))?;
        let s = read_modified_utf8(&bytes).map_err(|reason| {
            DecodeError::new(at + 2, DecodeErrorKind::BadModifiedUtf8 { reason })
        })?;
        Ok(T::from_java(s))
    }
}

/// `#[rest]`: the last field, its bytes as written to the end of the key (no length, no
/// terminator): `Bytes.toBytes(String)` or raw bytes at the end of a Java key. Bytes sort as
/// the values do; an equality scan is the one key, not a prefix (`"10"` never finds `"100"`).
pub struct Rest;

impl<T: KeyBytes + ?Sized> Codec<T> for Rest {
    const FIXED_WIDTH: Option<usize> = None;
    const MAX_WIDTH: Option<usize> = None;
    const ENCODING: &'static str = "the rest of the key, as written (no length, no terminator)";
    const DOMAIN: Domain = T::DOMAIN;
    const LAYOUT: TypeLayout = T::LAYOUT;
    const TAKES_REST: bool = true;

    #[inline(always)]
    fn width(v: &T) -> Result<usize, EncodeError> {
        Ok(v.key_bytes().len())
    }

    #[inline(always)]
    fn write<S: Sink>(v: &T, sink: &mut S) {
        sink.put(v.key_bytes());
    }

    /// Nothing follows the value, so `v <= b` is `v < b 00` and `v > b` is `v >= b 00`:
    /// written that way, no end is a successor (which would take in `b`'s extensions).
    #[inline(always)]
    fn write_bound<S: Sink>(v: &T, lower: bool, inclusive: bool, sink: &mut S) -> BoundKind {
        sink.put(v.key_bytes());
        match (lower, inclusive) {
            (true, true) => BoundKind::Inclusive,
            (false, false) => BoundKind::Exclusive,
            (true, false) => {
                sink.put_array([0]);
                BoundKind::Inclusive
            }
            (false, true) => {
                sink.put_array([0]);
                BoundKind::Exclusive
            }
        }
    }
}

impl<'de, T: KeyBytes + FromKeyBytes<'de>> CodecDecode<'de, T> for Rest {
    #[inline]
    fn read<S: Source<'de>>(src: &mut S) -> Result<T, DecodeError> {
        let at = src.pos();
        let n = src.remaining();
        let bytes: Cow<'de, [u8]> = src.take_fixed(n)?;
        T::from_key_bytes(bytes).map_err(|k| DecodeError::new(at, k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::BufSink;

    fn utf(s: &str) -> Vec<u8> {
        let mut out = Vec::new();
        <JavaUtf as Codec<String>>::write(&s.to_string(), &mut BufSink(&mut out));
        out
    }

    #[test]
    fn write_utf_is_javas_bytes() {
        // DataOutputStream.writeUTF("abc"), ("a\u0000b"), ("é"), ("😀") as the JDK writes them.
        assert_eq!(utf("abc"), b"\x00\x03abc");
        assert_eq!(utf("a\0b"), b"\x00\x04a\xC0\x80b");
        assert_eq!(utf("é"), b"\x00\x02\xC3\xA9");
        assert_eq!(utf("😀"), b"\x00\x06\xED\xA0\xBD\xED\xB8\x80");
        assert_eq!(utf(""), b"\x00\x00");
        for s in ["abc", "a\0b", "é", "😀", "", "x😀\0y\u{FFFF}\u{10FFFF}"] {
            let b = utf(s);
            assert_eq!(b.len(), 2 + modified_utf8_len(s));
            assert_eq!(read_modified_utf8(&b[2..]).as_deref(), Ok(s));
        }
    }

    #[test]
    fn modified_utf8_refuses_what_write_utf_never_writes() {
        for bad in [
            &b"a\x00"[..],
            b"\xC1\x81",
            b"\xE0\x81\x81",
            b"\xF0\x9F\x98\x80",
            b"\xED\xA0\xBD",
            b"\xED\xB8\x80",
            b"\xC3",
            b"\x80",
        ] {
            assert!(read_modified_utf8(bad).is_err(), "{bad:?}");
        }
    }
}
