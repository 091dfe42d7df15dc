//! The value side of a row: [`RowValue`] (a struct whose fields are columns, derived with
//! `#[derive(RowValue)]`), [`ColumnValue`] (one column's value encoding) and the layout data
//! ([`ValueSchema`], [`ColumnSchema`]).
//!
//! **Encodings.** Integers, floats, booleans and text are byte-compatible with HBase's
//! `Bytes.toBytes`: big-endian two's complement at the type's width (`i64`/`u64` as a Java
//! `long`, 8 bytes; `i32`/`u32` as an `int`; `i16`/`u16` as a `short`; `i8`/`u8` one byte),
//! IEEE 754 bits big-endian for `f32`/`f64` (`Bytes.toBytes(float)`/`(double)`), `0xFF`/`0x00`
//! for `bool` (read back as Java's `Bytes.toBoolean` does: any non-zero byte is true), UTF-8
//! for `String`. `Vec<u8>` is written as is. So a counter written by the HBase shell
//! (`incr`) reads back as an `i64`, and Java reads what rowkey writes. Other types implement
//! [`ColumnValue`] themselves (serialize them as you like).

use std::fmt;

use crate::cell::{Cell, CellRow, Column, Columns, LentCells, RowWrite};

/// One column's value encoding.
pub trait ColumnValue: Sized {
    /// The encoding's name in the layout docs (`"i64 (Bytes.toBytes(long))"`).
    const ENCODING: &'static str;
    /// The encoded width when it is fixed.
    const WIDTH: Option<usize>;

    /// Appends the value's bytes, or says why it has none (nothing is written then: a value
    /// that cannot be stored is an error, never a stand-in).
    fn encode_value(&self, out: &mut Vec<u8>) -> Result<(), ValueErrorKind>;

    /// Reads a value from its bytes (all of them).
    fn decode_value(bytes: &[u8]) -> Result<Self, ValueErrorKind>;
}

macro_rules! int_value {
    ($($t:ty => $java:literal),* $(,)?) => {$(
        impl ColumnValue for $t {
            const ENCODING: &'static str = concat!(
                stringify!($t), ", big-endian (Bytes.toBytes(", $java, "))"
            );
            const WIDTH: Option<usize> = Some(std::mem::size_of::<$t>());

            #[inline]
            fn encode_value(&self, out: &mut Vec<u8>) -> Result<(), ValueErrorKind> {
                out.extend_from_slice(&self.to_be_bytes());
                Ok(())
            }

            #[inline]
            fn decode_value(bytes: &[u8]) -> Result<Self, ValueErrorKind> {
                let array = bytes.try_into().map_err(|_| ValueErrorKind::Width {
                    expected: std::mem::size_of::<$t>(),
                    found: bytes.len(),
                })?;
                Ok(<$t>::from_be_bytes(array))
            }
        }
    )*};
}

int_value!(
    i8 => "byte", u8 => "byte", i16 => "short", u16 => "short", i32 => "int", u32 => "int",
    i64 => "long", u64 => "long", i128 => "two longs", u128 => "two longs",
    f32 => "float", f64 => "double",
);

impl ColumnValue for bool {
    const ENCODING: &'static str = "bool, 0xFF or 0x00 (Bytes.toBytes(boolean))";
    const WIDTH: Option<usize> = Some(1);

    fn encode_value(&self, out: &mut Vec<u8>) -> Result<(), ValueErrorKind> {
        out.push(if *self { 0xFF } else { 0x00 });
        Ok(())
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, ValueErrorKind> {
        match bytes {
            [b] => Ok(*b != 0),
            _ => Err(ValueErrorKind::Width {
                expected: 1,
                found: bytes.len(),
            }),
        }
    }
}

impl ColumnValue for String {
    const ENCODING: &'static str = "UTF-8 text (Bytes.toBytes(String))";
    const WIDTH: Option<usize> = None;

    fn encode_value(&self, out: &mut Vec<u8>) -> Result<(), ValueErrorKind> {
        out.extend_from_slice(self.as_bytes());
        Ok(())
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, ValueErrorKind> {
        String::from_utf8(bytes.to_vec()).map_err(|e| ValueErrorKind::NotUtf8 {
            at: e.utf8_error().valid_up_to(),
        })
    }
}

impl ColumnValue for Vec<u8> {
    const ENCODING: &'static str = "raw bytes";
    const WIDTH: Option<usize> = None;

    fn encode_value(&self, out: &mut Vec<u8>) -> Result<(), ValueErrorKind> {
        out.extend_from_slice(self);
        Ok(())
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, ValueErrorKind> {
        Ok(bytes.to_vec())
    }
}

/// A column value of any serde type, stored as JSON (feature `json`): the guide's advice is
/// short coordinates, not a value format, so values that are not numbers, booleans, text or
/// bytes go through serde. A field of type `Json<Address>` is a column like any other.
///
/// ```
/// # #[cfg(feature = "json")] {
/// use std::collections::BTreeMap;
/// use rowkey_runtime::{ColumnValue, Json};
///
/// // Any serde type: your `#[derive(Serialize, Deserialize)]` structs, maps, vectors.
/// let tags = Json(BTreeMap::from([("env".to_string(), "prod".to_string())]));
/// let mut bytes = Vec::new();
/// tags.encode_value(&mut bytes).unwrap();
/// assert_eq!(bytes, br#"{"env":"prod"}"#);
/// assert_eq!(Json::<BTreeMap<String, String>>::decode_value(&bytes).unwrap(), tags);
/// assert!(Json::<BTreeMap<String, String>>::decode_value(b"[1]").is_err());
/// # }
/// ```
#[cfg(feature = "json")]
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Json<T>(pub T);

#[cfg(feature = "json")]
impl<T: serde::Serialize + serde::de::DeserializeOwned> ColumnValue for Json<T> {
    const ENCODING: &'static str = "JSON (serde_json)";
    const WIDTH: Option<usize> = None;

    fn encode_value(&self, out: &mut Vec<u8>) -> Result<(), ValueErrorKind> {
        // Into a `Vec`, serialization fails only where `T`'s own `Serialize` does (a map with
        // non-string keys); then nothing is written.
        let json = serde_json::to_vec(&self.0)
            .map_err(|e| ValueErrorKind::Invalid(format!("cannot be written as JSON: {e}")))?;
        out.extend_from_slice(&json);
        Ok(())
    }

    fn decode_value(bytes: &[u8]) -> Result<Self, ValueErrorKind> {
        serde_json::from_slice(bytes)
            .map(Json)
            .map_err(|e| ValueErrorKind::Invalid(format!("not the JSON of this type: {e}")))
    }
}

/// Why a stored value is not a value of its column's type.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ValueErrorKind {
    /// A required column has no cell in the row.
    Missing,
    /// A fixed-width value has another width.
    Width {
        /// The type's width.
        expected: usize,
        /// The stored value's length.
        found: usize,
    },
    /// Text that is not UTF-8.
    NotUtf8 {
        /// The length of the valid prefix.
        at: usize,
    },
    /// A [`ColumnValue`] of your own refused the bytes.
    Invalid(String),
}

impl fmt::Display for ValueErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueErrorKind::Missing => f.write_str("the row has no cell in this required column"),
            ValueErrorKind::Width { expected, found } => {
                write!(f, "the value is {found} byte(s); the type takes {expected}")
            }
            ValueErrorKind::NotUtf8 { at } => {
                write!(f, "the text is not UTF-8 (valid up to byte {at})")
            }
            ValueErrorKind::Invalid(why) => f.write_str(why),
        }
    }
}

/// A value that cannot be written, or stored cells that are not a value of the row type:
/// which column, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError {
    /// The Rust type being read.
    pub value_type: &'static str,
    /// The column family.
    pub family: &'static str,
    /// The column qualifier.
    pub qualifier: &'static str,
    /// Why.
    pub kind: ValueErrorKind,
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "column {}:{} of {}: {}",
            self.family, self.qualifier, self.value_type, self.kind
        )
    }
}

impl std::error::Error for ValueError {}

/// One column of a [`RowValue`] type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnSchema {
    /// The Rust field's name.
    pub field: &'static str,
    /// The column family.
    pub family: &'static str,
    /// The column qualifier.
    pub qualifier: &'static str,
    /// The field's Rust type, as written.
    pub rust_type: &'static str,
    /// The value encoding ([`ColumnValue::ENCODING`]).
    pub encoding: &'static str,
    /// The value's width, when fixed.
    pub width: Option<usize>,
    /// Whether the field is an `Option` (no cell when `None`).
    pub optional: bool,
}

/// The columns of a [`RowValue`] type: the value side of a row's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueSchema {
    /// The Rust type's name.
    pub name: &'static str,
    /// The columns, in field order.
    pub columns: &'static [ColumnSchema],
    /// Every family the columns use, in first-use order, with the options declared for it
    /// (`#[family(name = "d", ...)]`) or HBase's defaults.
    pub family_options: &'static [crate::family::Family],
}

impl ValueSchema {
    /// The distinct column families, in first-use order.
    pub fn families(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for c in self.columns {
            if !out.contains(&c.family) {
                out.push(c.family);
            }
        }
        out
    }
}

/// A struct whose fields are the columns of a row: `#[derive(RowValue)]`.
///
/// ```
/// use rowkey::RowValue;
///
/// #[derive(RowValue, Debug, PartialEq)]
/// #[column(family = "d")]
/// struct Visit {
///     #[column(name = "via")]
///     referrer: String,
///     #[column(name = "ms")]
///     duration_ms: u32,
///     #[column(family = "x", name = "ua")]
///     user_agent: Option<String>,
/// }
///
/// let v = Visit { referrer: "search".into(), duration_ms: 1200, user_agent: None };
/// let write = v.to_write(b"row-1".to_vec()).unwrap();
/// assert_eq!(write.set.len(), 2);
/// assert_eq!(write.clear.len(), 1); // `None`: the column is cleared
/// # let row = rowkey::store::CellRow { key: write.key.clone(), cells: write.set.clone() };
/// assert_eq!(Visit::from_row(&row).unwrap(), v);
/// assert_eq!(Visit::SCHEMA.families(), ["d", "x"]);
/// ```
pub trait RowValue: Sized {
    /// The columns.
    const SCHEMA: ValueSchema;

    /// Appends the cells of the fields that have a value (`set`) and the columns of the
    /// `None` fields (`clear`); a value that cannot be encoded is an error naming its column.
    fn write_cells(&self, set: &mut Vec<Cell>, clear: &mut Vec<Column>) -> Result<(), ValueError>;

    /// The value from a row's cells; cells of other columns are ignored.
    fn read_cells(cells: &CellReader<'_>) -> Result<Self, ValueError>;

    /// The write that stores this value in row `key`: every field's column set or cleared.
    fn to_write(&self, key: Vec<u8>) -> Result<RowWrite, ValueError> {
        let mut write = RowWrite {
            key,
            set: Vec::with_capacity(Self::SCHEMA.columns.len()),
            clear: Vec::new(),
        };
        self.write_cells(&mut write.set, &mut write.clear)?;
        Ok(write)
    }

    /// The value held by a row's cells.
    fn from_row(row: &CellRow) -> Result<Self, ValueError> {
        Self::read_cells(&CellReader::new(&row.cells, &Self::SCHEMA))
    }

    /// The columns to read: exactly this type's.
    fn columns() -> Columns {
        Columns::exact(
            Self::SCHEMA
                .columns
                .iter()
                .map(|c| Column::new(c.family, c.qualifier.as_bytes())),
        )
    }
}

/// A row's cells as a [`RowValue`] reads them, column by column (the derive's helper).
pub struct CellReader<'a> {
    cells: LentCells<'a>,
    schema: &'a ValueSchema,
}

impl<'a> CellReader<'a> {
    /// The cells of a row, read as `schema`'s columns.
    pub fn new(cells: &'a [Cell], schema: &'a ValueSchema) -> Self {
        CellReader {
            cells: LentCells::cells(cells),
            schema,
        }
    }

    /// The cells of a row as a store lends them, read as `schema`'s columns.
    #[doc(hidden)]
    pub fn lent(cells: LentCells<'a>, schema: &'a ValueSchema) -> Self {
        CellReader { cells, schema }
    }

    fn find(&self, column: usize) -> Option<&'a [u8]> {
        let c = self.schema.columns.get(column)?;
        self.cells.value(c.family, c.qualifier.as_bytes())
    }

    fn error(&self, column: usize, kind: ValueErrorKind) -> ValueError {
        let c = self.schema.columns.get(column);
        ValueError {
            value_type: self.schema.name,
            family: c.map_or("", |c| c.family),
            qualifier: c.map_or("", |c| c.qualifier),
            kind,
        }
    }

    /// The value of required column `column` (its index in the schema).
    pub fn required<T: ColumnValue>(&self, column: usize) -> Result<T, ValueError> {
        let bytes = self
            .find(column)
            .ok_or_else(|| self.error(column, ValueErrorKind::Missing))?;
        T::decode_value(bytes).map_err(|kind| self.error(column, kind))
    }

    /// The value of optional column `column`: `None` without a cell.
    pub fn optional<T: ColumnValue>(&self, column: usize) -> Result<Option<T>, ValueError> {
        match self.find(column) {
            None => Ok(None),
            Some(bytes) => T::decode_value(bytes)
                .map(Some)
                .map_err(|kind| self.error(column, kind)),
        }
    }
}

/// Appends column `column`'s cell (the derive's helper).
pub fn set_cell<T: ColumnValue>(
    out: &mut Vec<Cell>,
    schema: &ValueSchema,
    column: usize,
    value: &T,
) -> Result<(), ValueError> {
    let c = &schema.columns[column];
    let mut bytes = Vec::with_capacity(T::WIDTH.unwrap_or(16));
    value.encode_value(&mut bytes).map_err(|kind| ValueError {
        value_type: schema.name,
        family: c.family,
        qualifier: c.qualifier,
        kind,
    })?;
    out.push(Cell::new(c.family, c.qualifier.as_bytes(), bytes));
    Ok(())
}

/// Appends column `column` to the columns to clear (the derive's helper).
pub fn clear_cell(out: &mut Vec<Column>, schema: &ValueSchema, column: usize) {
    let c = &schema.columns[column];
    out.push(Column::new(c.family, c.qualifier.as_bytes()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes<T: ColumnValue>(v: T) -> Vec<u8> {
        let mut out = Vec::new();
        v.encode_value(&mut out).unwrap();
        out
    }

    #[test]
    fn encodings_match_hbase_bytes_to_bytes() {
        // Bytes.toBytes(-2L), (int) 258, (short) -1, (double) 1.5, true, "é".
        assert_eq!(
            bytes(-2i64),
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE]
        );
        assert_eq!(bytes(258i32), [0, 0, 1, 2]);
        assert_eq!(bytes(-1i16), [0xFF, 0xFF]);
        assert_eq!(bytes(1.5f64), [0x3F, 0xF8, 0, 0, 0, 0, 0, 0]);
        assert_eq!(bytes(true), [0xFF]);
        assert_eq!(bytes(false), [0x00]);
        assert_eq!(bytes(String::from("é")), [0xC3, 0xA9]);
        assert_eq!(bool::decode_value(&[1]), Ok(true));
        assert_eq!(
            i64::decode_value(&[0; 4]),
            Err(ValueErrorKind::Width {
                expected: 8,
                found: 4
            })
        );
        assert_eq!(
            String::decode_value(&[b'a', 0xFF]),
            Err(ValueErrorKind::NotUtf8 { at: 1 })
        );
    }
}
