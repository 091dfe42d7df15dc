//! Apache Phoenix's data types and their byte encodings (`PDataType`), for key columns and
//! cell values alike: each value's bytes in ascending order; a `DESC` key column inverts them
//! ([`super::PhoenixKey`]).

use std::borrow::Cow;
use std::fmt;

/// A Phoenix data type rowkey reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PhoenixType {
    /// `TINYINT`: 1 byte, the sign bit flipped.
    TinyInt,
    /// `SMALLINT`: 2 bytes big-endian, the sign bit flipped.
    SmallInt,
    /// `INTEGER`: 4 bytes big-endian, the sign bit flipped.
    Integer,
    /// `BIGINT`: 8 bytes big-endian, the sign bit flipped.
    BigInt,
    /// `UNSIGNED_TINYINT`: 1 byte, 0 to 127.
    UnsignedTinyInt,
    /// `UNSIGNED_SMALLINT`: 2 bytes big-endian, 0 to 32,767.
    UnsignedSmallInt,
    /// `UNSIGNED_INT`: 4 bytes big-endian, 0 to 2^31 - 1.
    UnsignedInt,
    /// `UNSIGNED_LONG`: 8 bytes big-endian, 0 to 2^63 - 1 (HBase's `Bytes.toBytes(long)`).
    UnsignedLong,
    /// `FLOAT`: 4 bytes, ordered (negative values inverted, positive ones with the sign bit
    /// set, then plus one, as Phoenix's `PFloat` writes them).
    Float,
    /// `DOUBLE`: 8 bytes, ordered as `FLOAT` is.
    Double,
    /// `BOOLEAN`: 1 byte, 1 or 0.
    Boolean,
    /// `VARCHAR`: UTF-8, variable length (a key column ends with a separator).
    Varchar,
    /// `CHAR(n)`: `n` single-byte characters, padded with spaces.
    Char(u16),
    /// `BINARY(n)`: `n` bytes, padded with zeros (read back padded, as Phoenix reads it).
    Binary(u16),
    /// `VARBINARY`: any bytes; in a key, only as its last column.
    Varbinary,
    /// `DATE`: milliseconds since the epoch, as `BIGINT`.
    Date,
    /// `TIMESTAMP`: milliseconds since the epoch as `BIGINT`, then the nanoseconds within the
    /// millisecond (0 to 999,999) as a 4-byte big-endian integer.
    Timestamp,
}

impl PhoenixType {
    /// Every value's width, for the fixed-width types.
    pub const fn fixed_width(self) -> Option<usize> {
        use PhoenixType::*;
        Some(match self {
            TinyInt | UnsignedTinyInt | Boolean => 1,
            SmallInt | UnsignedSmallInt => 2,
            Integer | UnsignedInt | Float => 4,
            BigInt | UnsignedLong | Double | Date => 8,
            Timestamp => 12,
            Char(n) | Binary(n) => n as usize,
            Varchar | Varbinary => return None,
        })
    }

    /// The type as Phoenix's DDL names it.
    pub fn sql(self) -> Cow<'static, str> {
        use PhoenixType::*;
        Cow::Borrowed(match self {
            TinyInt => "TINYINT",
            SmallInt => "SMALLINT",
            Integer => "INTEGER",
            BigInt => "BIGINT",
            UnsignedTinyInt => "UNSIGNED_TINYINT",
            UnsignedSmallInt => "UNSIGNED_SMALLINT",
            UnsignedInt => "UNSIGNED_INT",
            UnsignedLong => "UNSIGNED_LONG",
            Float => "FLOAT",
            Double => "DOUBLE",
            Boolean => "BOOLEAN",
            Varchar => "VARCHAR",
            Varbinary => "VARBINARY",
            Date => "DATE",
            Timestamp => "TIMESTAMP",
            Char(n) => return Cow::Owned(format!("CHAR({n})")),
            Binary(n) => return Cow::Owned(format!("BINARY({n})")),
        })
    }

    /// The integer range of an integer type.
    fn int_range(self) -> Option<(i64, i64)> {
        use PhoenixType::*;
        Some(match self {
            TinyInt => (i8::MIN.into(), i8::MAX.into()),
            SmallInt => (i16::MIN.into(), i16::MAX.into()),
            Integer => (i32::MIN.into(), i32::MAX.into()),
            BigInt => (i64::MIN, i64::MAX),
            UnsignedTinyInt => (0, i8::MAX.into()),
            UnsignedSmallInt => (0, i16::MAX.into()),
            UnsignedInt => (0, i32::MAX.into()),
            UnsignedLong => (0, i64::MAX),
            _ => return None,
        })
    }
}

impl fmt::Display for PhoenixType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sql())
    }
}

/// A value of a Phoenix column (`None` of an `Option<Datum>` is SQL's `NULL`).
#[derive(Clone, Debug, PartialEq)]
pub enum Datum<'a> {
    /// An integer type's value.
    Int(i64),
    /// `FLOAT` or `DOUBLE`.
    Float(f64),
    /// `BOOLEAN`.
    Bool(bool),
    /// `VARCHAR` or `CHAR(n)` (without its padding).
    Text(Cow<'a, str>),
    /// `BINARY(n)` or `VARBINARY`.
    Bytes(Cow<'a, [u8]>),
    /// `DATE`: milliseconds since the epoch.
    Date(i64),
    /// `TIMESTAMP`: milliseconds since the epoch and the nanoseconds within that millisecond.
    Timestamp {
        /// Milliseconds since the epoch.
        millis: i64,
        /// Nanoseconds within the millisecond, 0 to 999,999.
        nanos: u32,
    },
}

impl Datum<'_> {
    /// The same value owning its text or bytes.
    pub fn into_owned(self) -> Datum<'static> {
        match self {
            Datum::Text(t) => Datum::Text(Cow::Owned(t.into_owned())),
            Datum::Bytes(b) => Datum::Bytes(Cow::Owned(b.into_owned())),
            Datum::Int(v) => Datum::Int(v),
            Datum::Float(v) => Datum::Float(v),
            Datum::Bool(v) => Datum::Bool(v),
            Datum::Date(v) => Datum::Date(v),
            Datum::Timestamp { millis, nanos } => Datum::Timestamp { millis, nanos },
        }
    }
}

/// A value Phoenix's encodings cannot hold, or bytes that are not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhoenixError {
    /// The column, where one is known.
    pub column: Option<String>,
    /// What is wrong.
    pub reason: String,
}

impl PhoenixError {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        PhoenixError {
            column: None,
            reason: reason.into(),
        }
    }

    /// The error as of column `column` (kept if it names one already).
    pub fn at(mut self, column: &str) -> Self {
        self.column.get_or_insert_with(|| column.to_string());
        self
    }
}

impl fmt::Display for PhoenixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.column {
            Some(c) => write!(f, "column {c}: {}", self.reason),
            None => f.write_str(&self.reason),
        }
    }
}

impl std::error::Error for PhoenixError {}

/// Appends `value`'s bytes as type `ty` in ascending order (padded for `CHAR` and `BINARY`;
/// no separator). A value out of the type's range, of another kind, or that the type could
/// not give back (text with a NUL byte, `CHAR` text that is not ASCII or ends in a space) is
/// refused; nothing is written then.
pub fn encode_value(
    ty: PhoenixType,
    value: &Datum<'_>,
    out: &mut Vec<u8>,
) -> Result<(), PhoenixError> {
    use PhoenixType::*;
    let wrong = || PhoenixError::new(format!("a {} cannot hold {value:?}", ty.sql()));
    match (ty, value) {
        (_, Datum::Int(v)) if ty.int_range().is_some() => {
            let (lo, hi) = ty.int_range().unwrap_or((0, 0));
            if *v < lo || *v > hi {
                return Err(PhoenixError::new(format!(
                    "{v} is out of {}'s range {lo}..={hi}",
                    ty.sql()
                )));
            }
            let width = ty.fixed_width().unwrap_or(8);
            // Signed types flip the sign bit; the unsigned ones are never negative.
            let flip = matches!(ty, TinyInt | SmallInt | Integer | BigInt);
            let be = (*v as u64).to_be_bytes();
            let start = out.len();
            out.extend_from_slice(&be[8 - width..]);
            if flip {
                out[start] ^= 0x80;
            }
        }
        (Float, Datum::Float(v)) => {
            let bits = if v.is_nan() { f32::NAN } else { *v as f32 }.to_bits() as i32;
            let ordered = (bits ^ ((bits >> 31) | i32::MIN)).wrapping_add(1);
            out.extend_from_slice(&ordered.to_be_bytes());
        }
        (Double, Datum::Float(v)) => {
            let bits = if v.is_nan() { f64::NAN } else { *v }.to_bits() as i64;
            let ordered = (bits ^ ((bits >> 63) | i64::MIN)).wrapping_add(1);
            out.extend_from_slice(&ordered.to_be_bytes());
        }
        (Boolean, Datum::Bool(b)) => out.push(u8::from(*b)),
        (Varchar, Datum::Text(t)) => {
            if t.contains('\0') {
                return Err(PhoenixError::new(
                    "a VARCHAR with a NUL byte cannot be told from its separator",
                ));
            }
            out.extend_from_slice(t.as_bytes());
        }
        (Char(n), Datum::Text(t)) => {
            let n = usize::from(n);
            if !t.is_ascii() || t.contains('\0') {
                return Err(PhoenixError::new(
                    "CHAR holds single-byte characters only (ASCII, no NUL)",
                ));
            }
            if t.len() > n {
                return Err(PhoenixError::new(format!(
                    "{} bytes do not fit CHAR({n}) (never truncated)",
                    t.len()
                )));
            }
            if t.ends_with(' ') {
                return Err(PhoenixError::new(
                    "CHAR text ending in a space would lose it (Phoenix pads with spaces)",
                ));
            }
            out.extend_from_slice(t.as_bytes());
            out.resize(out.len() + n - t.len(), b' ');
        }
        (Binary(n), Datum::Bytes(b)) => {
            let n = usize::from(n);
            if b.len() > n {
                return Err(PhoenixError::new(format!(
                    "{} bytes do not fit BINARY({n}) (never truncated)",
                    b.len()
                )));
            }
            out.extend_from_slice(b);
            out.resize(out.len() + n - b.len(), 0);
        }
        (Varbinary, Datum::Bytes(b)) => out.extend_from_slice(b),
        (Date, Datum::Date(ms)) => out.extend_from_slice(&((*ms as u64) ^ (1 << 63)).to_be_bytes()),
        (Timestamp, Datum::Timestamp { millis, nanos }) => {
            if *nanos > 999_999 {
                return Err(PhoenixError::new(format!(
                    "{nanos} nanoseconds within a millisecond (at most 999,999)"
                )));
            }
            out.extend_from_slice(&((*millis as u64) ^ (1 << 63)).to_be_bytes());
            out.extend_from_slice(&nanos.to_be_bytes());
        }
        _ => return Err(wrong()),
    }
    Ok(())
}

/// The value of type `ty` in `bytes` (ascending order, exactly the value's bytes: `CHAR` with
/// its padding, which is dropped).
pub fn decode_value(ty: PhoenixType, bytes: &[u8]) -> Result<Datum<'static>, PhoenixError> {
    use PhoenixType::*;
    if let Some(w) = ty.fixed_width() {
        if bytes.len() != w {
            return Err(PhoenixError::new(format!(
                "{} bytes for a {} (it takes {w})",
                bytes.len(),
                ty.sql()
            )));
        }
    }
    let word = |b: &[u8]| {
        let mut be = [0u8; 8];
        be[8 - b.len()..].copy_from_slice(b);
        u64::from_be_bytes(be)
    };
    Ok(match ty {
        TinyInt => Datum::Int(i64::from((bytes[0] ^ 0x80) as i8)),
        SmallInt => Datum::Int(i64::from((word(bytes) as u16 ^ 0x8000) as i16)),
        Integer => Datum::Int(i64::from((word(bytes) as u32 ^ 0x8000_0000) as i32)),
        BigInt => Datum::Int((word(bytes) ^ (1 << 63)) as i64),
        UnsignedTinyInt | UnsignedSmallInt | UnsignedInt | UnsignedLong => {
            let v = word(bytes);
            let (_, hi) = ty.int_range().unwrap_or((0, 0));
            if v > hi as u64 {
                return Err(PhoenixError::new(format!(
                    "{v} is out of {}'s range",
                    ty.sql()
                )));
            }
            Datum::Int(v as i64)
        }
        Float => {
            let mut v = (word(bytes) as u32 as i32).wrapping_sub(1);
            v ^= (!v >> 31) | i32::MIN;
            Datum::Float(f64::from(f32::from_bits(v as u32)))
        }
        Double => {
            let mut v = (word(bytes) as i64).wrapping_sub(1);
            v ^= (!v >> 63) | i64::MIN;
            Datum::Float(f64::from_bits(v as u64))
        }
        Boolean => match bytes[0] {
            0 => Datum::Bool(false),
            1 => Datum::Bool(true),
            b => return Err(PhoenixError::new(format!("{b:#04x} is not a BOOLEAN"))),
        },
        Varchar => Datum::Text(Cow::Owned(
            String::from_utf8(bytes.to_vec())
                .map_err(|_| PhoenixError::new("a VARCHAR that is not UTF-8"))?,
        )),
        Char(_) => {
            let end = bytes.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
            if !bytes.is_ascii() {
                return Err(PhoenixError::new("a CHAR that is not ASCII"));
            }
            Datum::Text(Cow::Owned(
                String::from_utf8(bytes[..end].to_vec()).unwrap_or_default(),
            ))
        }
        Binary(_) | Varbinary => Datum::Bytes(Cow::Owned(bytes.to_vec())),
        Date => Datum::Date((word(bytes) ^ (1 << 63)) as i64),
        Timestamp => {
            let millis = (word(&bytes[..8]) ^ (1 << 63)) as i64;
            let nanos = word(&bytes[8..]) as u32;
            if nanos > 999_999 {
                return Err(PhoenixError::new(format!(
                    "{nanos} nanoseconds within a millisecond"
                )));
            }
            Datum::Timestamp { millis, nanos }
        }
    })
}
