//! Text and byte strings: `String`, `&str`, `Box<str>`, `Cow<str>`, `Vec<u8>`, `&[u8]`,
//! `Box<[u8]>` and `Cow<[u8]>`.
//!
//! Variable-length encoding: every `0x00` becomes `0x00 0xFF`, then the terminator `0x00 0x01`.
//! The empty value sorts first, `"10"` sorts before `"100"`, and no value's encoding is a prefix
//! of another's, so `"10"` can never match `"100"` in a prefix scan.

use std::borrow::Cow;

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{Decode, Encode};
use crate::schema::Domain;
use crate::sink::Sink;
use crate::source::Source;

/// Text is assumed to start with printable ASCII.
const TEXT: Domain = Domain::interval(1, 0x20, 0x7F);
/// Byte strings may start with anything.
const BYTES: Domain = Domain::full(2);

/// The bytes of a text or byte-string value, as stored (UTF-8 for text).
pub trait KeyBytes {
    /// What the leading bytes range over: printable ASCII for text (an assumption, stated in
    /// the split-point docs), every 2-byte prefix for byte strings.
    const DOMAIN: Domain;
    /// What the type contributes to a key's layout fingerprint (`text` or `bytes`; see
    /// [`Encode::LAYOUT`](crate::Encode::LAYOUT)).
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("key bytes");
    /// The value's bytes.
    fn key_bytes(&self) -> &[u8];
}

/// Builds a text or byte-string value from stored bytes, borrowing when it can.
pub trait FromKeyBytes<'de>: Sized {
    /// Builds the value; `bytes` is borrowed from the key when no copy was needed.
    fn from_key_bytes(bytes: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind>;
}

/// Width of the escaped, terminated encoding of `bytes`.
#[inline]
pub fn escaped_width(bytes: &[u8]) -> usize {
    bytes.len() + bytes.iter().filter(|&&b| b == 0).count() + 2
}

/// Writes `bytes` escaped and terminated.
#[inline]
pub fn write_escaped<S: Sink>(bytes: &[u8], sink: &mut S) {
    let mut parts = bytes.split(|&b| b == 0);
    if let Some(first) = parts.next() {
        sink.put(first);
    }
    for part in parts {
        sink.put_array([0x00, 0xFF]);
        sink.put(part);
    }
    sink.put_array([0x00, 0x01]);
}

/// Reads an escaped, terminated value of any text or byte-string type.
#[inline]
pub fn read_escaped<'de, T: FromKeyBytes<'de>, S: Source<'de>>(
    src: &mut S,
) -> Result<T, DecodeError> {
    let at = src.pos();
    let bytes = src.take_escaped()?;
    T::from_key_bytes(bytes).map_err(|k| DecodeError::new(at, k))
}

macro_rules! key_bytes {
    ($($t:ty, $d:ident, $class:literal => |$v:ident| $e:expr;)*) => {$(
        impl KeyBytes for $t {
            const DOMAIN: Domain = $d;
            const LAYOUT: crate::TypeLayout = crate::TypeLayout::named($class);
            #[inline(always)]
            fn key_bytes(&self) -> &[u8] {
                let $v = self;
                $e
            }
        }
    )*};
}
key_bytes! {
    String, TEXT, "text" => |v| v.as_bytes();
    &str, TEXT, "text" => |v| v.as_bytes();
    Box<str>, TEXT, "text" => |v| v.as_bytes();
    Cow<'_, str>, TEXT, "text" => |v| v.as_bytes();
    Vec<u8>, BYTES, "bytes" => |v| v.as_slice();
    &[u8], BYTES, "bytes" => |v| v;
    Box<[u8]>, BYTES, "bytes" => |v| v;
    Cow<'_, [u8]>, BYTES, "bytes" => |v| v;
}

fn utf8(bytes: Vec<u8>) -> Result<String, DecodeErrorKind> {
    String::from_utf8(bytes).map_err(|_| DecodeErrorKind::BadUtf8)
}

fn utf8_ref(bytes: &[u8]) -> Result<&str, DecodeErrorKind> {
    core::str::from_utf8(bytes).map_err(|_| DecodeErrorKind::BadUtf8)
}

impl FromKeyBytes<'_> for String {
    fn from_key_bytes(bytes: Cow<'_, [u8]>) -> Result<Self, DecodeErrorKind> {
        utf8(bytes.into_owned())
    }
}

impl<'de: 'a, 'a> FromKeyBytes<'de> for &'a str {
    #[inline]
    fn from_key_bytes(bytes: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind> {
        match bytes {
            Cow::Borrowed(b) => utf8_ref(b),
            Cow::Owned(_) => Err(DecodeErrorKind::NeedsCopy),
        }
    }
}

impl FromKeyBytes<'_> for Box<str> {
    fn from_key_bytes(bytes: Cow<'_, [u8]>) -> Result<Self, DecodeErrorKind> {
        utf8(bytes.into_owned()).map(String::into_boxed_str)
    }
}

impl<'de: 'a, 'a> FromKeyBytes<'de> for Cow<'a, str> {
    fn from_key_bytes(bytes: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind> {
        match bytes {
            Cow::Borrowed(b) => utf8_ref(b).map(Cow::Borrowed),
            Cow::Owned(v) => utf8(v).map(Cow::Owned),
        }
    }
}

impl FromKeyBytes<'_> for Vec<u8> {
    fn from_key_bytes(bytes: Cow<'_, [u8]>) -> Result<Self, DecodeErrorKind> {
        Ok(bytes.into_owned())
    }
}

impl<'de: 'a, 'a> FromKeyBytes<'de> for &'a [u8] {
    #[inline]
    fn from_key_bytes(bytes: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind> {
        match bytes {
            Cow::Borrowed(b) => Ok(b),
            Cow::Owned(_) => Err(DecodeErrorKind::NeedsCopy),
        }
    }
}

impl FromKeyBytes<'_> for Box<[u8]> {
    fn from_key_bytes(bytes: Cow<'_, [u8]>) -> Result<Self, DecodeErrorKind> {
        Ok(bytes.into_owned().into_boxed_slice())
    }
}

impl<'de: 'a, 'a> FromKeyBytes<'de> for Cow<'a, [u8]> {
    fn from_key_bytes(bytes: Cow<'de, [u8]>) -> Result<Self, DecodeErrorKind> {
        Ok(bytes)
    }
}

macro_rules! text_field {
    ($($t:ty, $enc:literal;)*) => {$(
        impl Encode for $t {
            const FIXED_WIDTH: Option<usize> = None;
            const MAX_WIDTH: Option<usize> = None;
            const ENCODING: &'static str = $enc;
            const DOMAIN: Domain = <$t as KeyBytes>::DOMAIN;
            const LAYOUT: crate::TypeLayout = <$t as KeyBytes>::LAYOUT;

            #[inline]
            fn encoded_width(&self) -> Result<usize, EncodeError> {
                Ok(escaped_width(self.key_bytes()))
            }

            #[inline]
            fn write<S: Sink>(&self, sink: &mut S) {
                write_escaped(self.key_bytes(), sink);
            }
        }
    )*};
}
text_field! {
    String, "UTF-8, 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x01";
    &str, "UTF-8, 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x01";
    Box<str>, "UTF-8, 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x01";
    Cow<'_, str>, "UTF-8, 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x01";
    Vec<u8>, "bytes, 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x01";
    &[u8], "bytes, 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x01";
    Box<[u8]>, "bytes, 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x01";
    Cow<'_, [u8]>, "bytes, 0x00 escaped as 0x00 0xFF, terminated by 0x00 0x01";
}

macro_rules! text_decode {
    ($($t:ty $(, $l:lifetime)?;)*) => {$(
        impl<'de $(, $l)?> Decode<'de> for $t where $('de: $l)? {
            #[inline]
            fn read<S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
                read_escaped(src)
            }
        }
    )*};
}
text_decode! {
    String;
    &'a str, 'a;
    Box<str>;
    Cow<'a, str>, 'a;
    Vec<u8>;
    &'a [u8], 'a;
    Box<[u8]>;
    Cow<'a, [u8]>, 'a;
}
