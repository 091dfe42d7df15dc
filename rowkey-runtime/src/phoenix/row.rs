//! Rust types as Phoenix columns ([`PhoenixColumn`]) and structs as rows of a Phoenix table
//! ([`PhoenixRow`], what `#[derive(PhoenixRow)]` implements).

use std::borrow::Cow;

use super::ddl::PhoenixTable;
use super::types::{Datum, PhoenixError, PhoenixType};

/// A Rust type that is a Phoenix column type. A field whose type has no Phoenix equivalent
/// does not compile in a `#[derive(PhoenixRow)]` struct.
///
/// | Rust | Phoenix |
/// |---|---|
/// | `i8`, `i16`, `i32`, `i64` | `TINYINT`, `SMALLINT`, `INTEGER`, `BIGINT` |
/// | `u8`, `u16`, `u32`, `u64` | `UNSIGNED_TINYINT` .. `UNSIGNED_LONG` (Phoenix's ranges: at most `i8::MAX` .. `i64::MAX`; larger values are refused, never wrapped) |
/// | `f32`, `f64` | `FLOAT`, `DOUBLE` |
/// | `bool` | `BOOLEAN` |
/// | `String` | `VARCHAR` |
/// | [`Char<N>`] | `CHAR(N)` |
/// | `[u8; N]` | `BINARY(N)` |
/// | `Vec<u8>` | `VARBINARY` |
/// | [`Date`] | `DATE` |
/// | [`Timestamp`] | `TIMESTAMP` |
/// | `Option<T>` | `T`'s type, nullable |
pub trait PhoenixColumn: Sized {
    /// The Phoenix type.
    const TYPE: PhoenixType;
    /// Whether the column may be null (`Option<T>`).
    const NULLABLE: bool = false;
    /// The value (`None`: null).
    fn to_datum(&self) -> Option<Datum<'_>>;
    /// The field from a value read back.
    fn from_datum(datum: Option<Datum<'static>>) -> Result<Self, PhoenixError>;
}

fn mismatch<T>(ty: PhoenixType, found: &Option<Datum<'_>>) -> Result<T, PhoenixError> {
    Err(PhoenixError::new(match found {
        None => "null in a NOT NULL column".to_string(),
        Some(d) => format!("{d:?} is not a {}", ty.sql()),
    }))
}

macro_rules! int_column {
    ($($t:ty => $ty:ident),*) => {$(
        impl PhoenixColumn for $t {
            const TYPE: PhoenixType = PhoenixType::$ty;
            fn to_datum(&self) -> Option<Datum<'_>> {
                Some(Datum::Int(*self as i64))
            }
            fn from_datum(datum: Option<Datum<'static>>) -> Result<Self, PhoenixError> {
                match datum {
                    Some(Datum::Int(v)) => <$t>::try_from(v)
                        .map_err(|_| PhoenixError::new(format!("{v} does not fit {}", stringify!($t)))),
                    other => mismatch(Self::TYPE, &other),
                }
            }
        }
    )*};
}

int_column!(i8 => TinyInt, i16 => SmallInt, i32 => Integer, i64 => BigInt,
    u8 => UnsignedTinyInt, u16 => UnsignedSmallInt, u32 => UnsignedInt);

/// `u64` as `UNSIGNED_LONG`: a value above `i64::MAX` is refused when written (Phoenix's
/// range), never wrapped.
impl PhoenixColumn for u64 {
    const TYPE: PhoenixType = PhoenixType::UnsignedLong;
    fn to_datum(&self) -> Option<Datum<'_>> {
        // Out of i64's range: a negative Int, which UNSIGNED_LONG's range check refuses.
        Some(Datum::Int(i64::try_from(*self).unwrap_or(-1)))
    }
    fn from_datum(datum: Option<Datum<'static>>) -> Result<Self, PhoenixError> {
        match datum {
            Some(Datum::Int(v)) if v >= 0 => Ok(v as u64),
            other => mismatch(Self::TYPE, &other),
        }
    }
}

/// The types whose value is one `Datum` variant: the field into the datum (`to`), and the
/// variant's content back into the field (`from`).
macro_rules! datum_column {
    ($($t:ty => $ty:ident, $variant:ident, |$v:ident| $to:expr, |$w:ident| $from:expr;)*) => {$(
        impl PhoenixColumn for $t {
            const TYPE: PhoenixType = PhoenixType::$ty;
            fn to_datum(&self) -> Option<Datum<'_>> {
                let $v = self;
                Some(Datum::$variant($to))
            }
            fn from_datum(datum: Option<Datum<'static>>) -> Result<Self, PhoenixError> {
                match datum {
                    Some(Datum::$variant($w)) => Ok($from),
                    other => mismatch(Self::TYPE, &other),
                }
            }
        }
    )*};
}

datum_column! {
    f64 => Double, Float, |v| *v, |w| w;
    f32 => Float, Float, |v| f64::from(*v), |w| w as f32;
    bool => Boolean, Bool, |v| *v, |w| w;
    String => Varchar, Text, |v| Cow::Borrowed(v.as_str()), |w| w.into_owned();
    Vec<u8> => Varbinary, Bytes, |v| Cow::Borrowed(v.as_slice()), |w| w.into_owned();
    Date => Date, Date, |v| v.0, |w| Date(w);
}

impl<const N: usize> PhoenixColumn for [u8; N] {
    const TYPE: PhoenixType = PhoenixType::Binary(width::<N>());
    fn to_datum(&self) -> Option<Datum<'_>> {
        Some(Datum::Bytes(Cow::Borrowed(self)))
    }
    fn from_datum(datum: Option<Datum<'static>>) -> Result<Self, PhoenixError> {
        match datum {
            Some(Datum::Bytes(b)) => <[u8; N]>::try_from(&b[..])
                .map_err(|_| PhoenixError::new(format!("{} bytes for BINARY({N})", b.len()))),
            other => mismatch(Self::TYPE, &other),
        }
    }
}

/// `N` as a `CHAR(N)`/`BINARY(N)` width; a width over `u16::MAX` fails to compile.
const fn width<const N: usize>() -> u16 {
    assert!(
        N >= 1 && N <= u16::MAX as usize,
        "CHAR and BINARY widths are 1 to 65,535"
    );
    N as u16
}

/// Text in a `CHAR(N)` column: at most `N` ASCII characters, not ending in a space (Phoenix
/// pads with spaces and drops them when reading).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Char<const N: usize>(pub String);

impl<const N: usize> PhoenixColumn for Char<N> {
    const TYPE: PhoenixType = PhoenixType::Char(width::<N>());
    fn to_datum(&self) -> Option<Datum<'_>> {
        Some(Datum::Text(Cow::Borrowed(&self.0)))
    }
    fn from_datum(datum: Option<Datum<'static>>) -> Result<Self, PhoenixError> {
        match datum {
            Some(Datum::Text(t)) => Ok(Char(t.into_owned())),
            other => mismatch(Self::TYPE, &other),
        }
    }
}

/// A `DATE`: milliseconds since the epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Date(pub i64);

/// A `TIMESTAMP`: milliseconds since the epoch and the nanoseconds within that millisecond
/// (0 to 999,999).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp {
    /// Milliseconds since the epoch.
    pub millis: i64,
    /// Nanoseconds within the millisecond.
    pub nanos: u32,
}

impl PhoenixColumn for Timestamp {
    const TYPE: PhoenixType = PhoenixType::Timestamp;
    fn to_datum(&self) -> Option<Datum<'_>> {
        Some(Datum::Timestamp {
            millis: self.millis,
            nanos: self.nanos,
        })
    }
    fn from_datum(datum: Option<Datum<'static>>) -> Result<Self, PhoenixError> {
        match datum {
            Some(Datum::Timestamp { millis, nanos }) => Ok(Timestamp { millis, nanos }),
            other => mismatch(Self::TYPE, &other),
        }
    }
}

impl<T: PhoenixColumn> PhoenixColumn for Option<T> {
    const TYPE: PhoenixType = T::TYPE;
    const NULLABLE: bool = true;
    fn to_datum(&self) -> Option<Datum<'_>> {
        self.as_ref().and_then(T::to_datum)
    }
    fn from_datum(datum: Option<Datum<'static>>) -> Result<Self, PhoenixError> {
        datum.map(|d| T::from_datum(Some(d))).transpose()
    }
}

/// A struct as a row of a Phoenix table: its key columns and value columns, in declaration
/// order. Derive it (`#[derive(PhoenixRow)]`); [`crate::store::PhoenixRows`] reads and writes
/// such rows on any store, and [`PhoenixRow::table`] renders the DDL.
pub trait PhoenixRow: Sized {
    /// The table: its name, key and value columns.
    fn table() -> PhoenixTable;
    /// The key columns' values, in key order.
    fn key(&self) -> Vec<Option<Datum<'_>>>;
    /// The value columns' values, in the table's column order.
    fn values(&self) -> Vec<Option<Datum<'_>>>;
    /// A row from its key's and its columns' values (as [`PhoenixRow::key`] and
    /// [`PhoenixRow::values`] give them).
    fn from_parts(
        key: Vec<Option<Datum<'static>>>,
        values: Vec<Option<Datum<'static>>>,
    ) -> Result<Self, PhoenixError>;
}
