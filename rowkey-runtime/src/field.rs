//! The ascending, self-delimiting encoding of each field type: the [`Encode`] and [`Decode`]
//! traits and their implementations for integers, `bool`, floats, byte arrays and `Option`.
//! Text and byte strings live in [`crate::text`]; attribute encodings in [`crate::codec`].
//!
//! The derive implements both traits for every `#[derive(RowKey)]` type (salt excluded), which
//! is how keys nest. The format of each type is stable: see the table in the crate docs.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::schema::Domain;
use crate::sink::Sink;
use crate::source::Source;

/// A type that has an order-preserving key encoding.
///
/// For any two values `a < b` of the type, `encode(a) < encode(b)` bytewise, and no encoding
/// is a proper prefix of another, so fields can follow each other without separators.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a row-key field",
    label = "not a key field type",
    note = "key fields are integers, `bool`, `f32`/`f64`, `String`, `&str`, `Vec<u8>`, `&[u8]`, `Cow`, `[u8; N]`, `Option<T>`, `rowkey::Hashed<T>` (with `#[hash]`) or another `#[derive(RowKey)]` type"
)]
pub trait Encode {
    /// The width of every encoding, if they all have the same width.
    const FIXED_WIDTH: Option<usize>;
    /// An upper bound on the encoded width, if there is one.
    const MAX_WIDTH: Option<usize>;
    /// A short description of the encoding, for layout docs.
    const ENCODING: &'static str;
    /// The layout of a nested key type (set by the derive).
    const NESTED: Option<&'static crate::schema::Schema> = None;
    /// What the leading bytes of the encoding range over, for split points.
    const DOMAIN: Domain;
    /// What the type contributes to a key's layout fingerprint
    /// ([`RowKey::FINGERPRINT`](crate::RowKey::FINGERPRINT)) where the derive cannot tell the
    /// type from its tokens (an alias, a path, a nested key). rowkey's types name their
    /// encoding class (`u64`, `text`, `option(u32)`) and derived keys their own fingerprint;
    /// the default, for a hand-written encoding, hashes [`Encode::ENCODING`] and the fixed
    /// width, so change `ENCODING` when the bytes change.
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::custom(Self::ENCODING, Self::FIXED_WIDTH);
    /// Why a value of this type cannot be a field of a key (empty: it can). The derive sets it
    /// on a key whose encoding is whole only as a key: a text key, one whose last field takes
    /// the rest of the key, one with a hash prefix.
    #[doc(hidden)]
    const __NOT_NESTED: &'static str = "";

    /// Checks that the value can be encoded and returns its encoded width.
    fn encoded_width(&self) -> Result<usize, EncodeError>;

    /// Writes the encoding. Call [`Encode::encoded_width`] first: a value it refuses may be
    /// written incompletely.
    fn write<S: Sink>(&self, sink: &mut S);
}

/// A type that can be read back from its key encoding, borrowing from the input where the
/// bytes allow it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be decoded from a row key",
    note = "borrowed fields need the key's lifetime, e.g. `struct Key<'a> {{ host: &'a str }}`"
)]
pub trait Decode<'de>: Sized {
    /// Reads one value; never panics, whatever the bytes.
    fn read<S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError>;
}

macro_rules! unsigned {
    ($($t:ty),*) => {$(
        impl Encode for $t {
            const FIXED_WIDTH: Option<usize> = Some(core::mem::size_of::<$t>());
            const MAX_WIDTH: Option<usize> = Self::FIXED_WIDTH;
            const ENCODING: &'static str = concat!(stringify!($t), " big-endian");
            const DOMAIN: Domain = Domain::full(core::mem::size_of::<$t>());
            const LAYOUT: crate::TypeLayout = crate::TypeLayout::named(stringify!($t));

            #[inline(always)]
            fn encoded_width(&self) -> Result<usize, EncodeError> {
                Ok(core::mem::size_of::<$t>())
            }

            #[inline(always)]
            fn write<S: Sink>(&self, sink: &mut S) {
                sink.put_array(self.to_be_bytes());
            }
        }

        impl<'de> Decode<'de> for $t {
            #[inline(always)]
            fn read<S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
                src.take_array().map(<$t>::from_be_bytes)
            }
        }
    )*};
}
unsigned!(u8, u16, u32, u64, u128);

macro_rules! signed {
    ($($t:ty => $u:ty),*) => {$(
        impl Encode for $t {
            const FIXED_WIDTH: Option<usize> = Some(core::mem::size_of::<$t>());
            const MAX_WIDTH: Option<usize> = Self::FIXED_WIDTH;
            const ENCODING: &'static str = concat!(stringify!($t), " big-endian, sign bit flipped");
            const DOMAIN: Domain = Domain::full(core::mem::size_of::<$t>());
            const LAYOUT: crate::TypeLayout = crate::TypeLayout::named(stringify!($t));

            #[inline(always)]
            fn encoded_width(&self) -> Result<usize, EncodeError> {
                Ok(core::mem::size_of::<$t>())
            }

            #[inline(always)]
            fn write<S: Sink>(&self, sink: &mut S) {
                sink.put_array(((*self as $u) ^ (<$t>::MIN as $u)).to_be_bytes());
            }
        }

        impl<'de> Decode<'de> for $t {
            #[inline(always)]
            fn read<S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
                src.take_array().map(|a| (<$u>::from_be_bytes(a) ^ (<$t>::MIN as $u)) as $t)
            }
        }
    )*};
}
signed!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, i128 => u128);

macro_rules! float {
    ($($t:ty => $u:ty),*) => {$(
        impl Encode for $t {
            const FIXED_WIDTH: Option<usize> = Some(core::mem::size_of::<$t>());
            const MAX_WIDTH: Option<usize> = Self::FIXED_WIDTH;
            const ENCODING: &'static str =
                concat!(stringify!($t), " IEEE bits: negative inverted, else sign bit set");
            const DOMAIN: Domain = Domain::full(core::mem::size_of::<$t>());
            const LAYOUT: crate::TypeLayout = crate::TypeLayout::named(stringify!($t));

            #[inline(always)]
            fn encoded_width(&self) -> Result<usize, EncodeError> {
                Ok(core::mem::size_of::<$t>())
            }

            #[inline(always)]
            fn write<S: Sink>(&self, sink: &mut S) {
                const SIGN: $u = 1 << (<$u>::BITS - 1);
                let bits = self.to_bits();
                let key = if bits & SIGN != 0 { !bits } else { bits | SIGN };
                sink.put_array(key.to_be_bytes());
            }
        }

        impl<'de> Decode<'de> for $t {
            #[inline(always)]
            fn read<S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
                const SIGN: $u = 1 << (<$u>::BITS - 1);
                let key = <$u>::from_be_bytes(src.take_array()?);
                let bits = if key & SIGN != 0 { key ^ SIGN } else { !key };
                Ok(<$t>::from_bits(bits))
            }
        }
    )*};
}
float!(f32 => u32, f64 => u64);

impl Encode for bool {
    const FIXED_WIDTH: Option<usize> = Some(1);
    const MAX_WIDTH: Option<usize> = Some(1);
    const ENCODING: &'static str = "bool 0x00 / 0x01";
    const DOMAIN: Domain = Domain::interval(1, 0, 2);
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::named("bool");

    #[inline(always)]
    fn encoded_width(&self) -> Result<usize, EncodeError> {
        Ok(1)
    }

    #[inline(always)]
    fn write<S: Sink>(&self, sink: &mut S) {
        sink.put_array([*self as u8]);
    }
}

impl<'de> Decode<'de> for bool {
    #[inline]
    fn read<S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
        let at = src.pos();
        match src.take_array::<1>()? {
            [0] => Ok(false),
            [1] => Ok(true),
            [byte] => Err(DecodeError::new(at, DecodeErrorKind::BadBool { byte })),
        }
    }
}

impl<const N: usize> Encode for [u8; N] {
    const FIXED_WIDTH: Option<usize> = Some(N);
    const MAX_WIDTH: Option<usize> = Some(N);
    const ENCODING: &'static str = "raw bytes, fixed width";
    const DOMAIN: Domain = Domain::full(N);
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::byte_array(N);

    #[inline(always)]
    fn encoded_width(&self) -> Result<usize, EncodeError> {
        Ok(N)
    }

    #[inline(always)]
    fn write<S: Sink>(&self, sink: &mut S) {
        sink.put_array(*self);
    }
}

impl<'de, const N: usize> Decode<'de> for [u8; N] {
    #[inline(always)]
    fn read<S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
        src.take_array()
    }
}

impl<T: Encode> Encode for Option<T> {
    const FIXED_WIDTH: Option<usize> = match T::FIXED_WIDTH {
        // `None` is one byte, `Some` one byte more than `T`: fixed only if `T` is empty.
        Some(0) => Some(1),
        _ => None,
    };
    const MAX_WIDTH: Option<usize> = match T::MAX_WIDTH {
        Some(n) => Some(n + 1),
        None => None,
    };
    const ENCODING: &'static str = "0x00 for None; 0x01 then the value";
    const DOMAIN: Domain = Domain::interval(1, 0, 2);
    const LAYOUT: crate::TypeLayout = crate::TypeLayout::option(T::LAYOUT);
    const __NOT_NESTED: &'static str = T::__NOT_NESTED;

    #[inline]
    fn encoded_width(&self) -> Result<usize, EncodeError> {
        match self {
            None => Ok(1),
            Some(v) => Ok(1 + v.encoded_width()?),
        }
    }

    #[inline]
    fn write<S: Sink>(&self, sink: &mut S) {
        match self {
            None => sink.put_array([0]),
            Some(v) => {
                sink.put_array([1]);
                v.write(sink);
            }
        }
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for Option<T> {
    #[inline]
    fn read<S: Source<'de>>(src: &mut S) -> Result<Self, DecodeError> {
        let at = src.pos();
        match src.take_array::<1>()? {
            [0] => Ok(None),
            [1] => T::read(src).map(Some),
            [byte] => Err(DecodeError::new(at, DecodeErrorKind::BadOption { byte })),
        }
    }
}
