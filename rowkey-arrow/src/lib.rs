//! Apache Arrow record batches from rowkey tables: a key type's fields become typed columns,
//! filled column-wise straight from the stored key bytes, as the key's layout (`K::SCHEMA`, or
//! a layout read back from JSON) says.
//!
//! ```
//! use arrow_array::{Array, UInt32Array};
//! use rowkey::RowKey;
//! use rowkey_arrow::KeyBatchBuilder;
//!
//! #[derive(RowKey)]
//! struct Visit {
//!     #[salt(buckets = 8)]
//!     user: u32,
//!     #[reverse_ts]
//!     ts: u64,
//!     page: String,
//! }
//!
//! let mut batch = KeyBatchBuilder::new(Visit::SCHEMA)?;
//! for (user, page) in [(7, "/a"), (8, "/b")] {
//!     let key = Visit { user, ts: 1_700_000_000_000, page: page.into() }.to_bytes()?;
//!     batch.push(&key, None)?;
//! }
//! let batch = batch.finish();
//! // The salt byte is not a column; the timestamp is one, in milliseconds.
//! assert_eq!(batch.schema().fields().len(), 3);
//! let users = batch.column(0).as_any().downcast_ref::<UInt32Array>().unwrap();
//! assert_eq!(users.values(), &[7, 8]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Columns.** One per field of the key ([`rowkey::flat_fields`]): a nested key's fields in its
//! place (`outer.inner`), a record-type enum's tag as the dictionary column `record_type` (the
//! record type's name) and each record type's own fields (`Variant.field`, null in the other
//! record types' rows). The salt byte and a hash prefix are not columns. Integers, floats and
//! `bool` keep their types; text is `Utf8`, bytes `Binary` (`FixedSizeBinary(N)` for `[u8; N]`
//! and a `#[hash]` field's digest), an `Option` is nullable, and a `#[timestamp]` or
//! `#[reverse_ts]` field is a `Timestamp(Millisecond)` (HBase's own unit; see
//! [`Options::timestamps`] for keys in another one). `u128` and `i128` are
//! `FixedSizeBinary(16)`, big-endian. [`Options::value_column`] adds the row's value as
//! `Binary`; [`RowBatchBuilder`] and [`row_batches`] add a `RowValue` type's fields instead,
//! each read from its cell (rows of cells, as `CellTable` writes them).
//!
//! **Errors.** A key that is not one of the layout's is refused with the decoder's own error
//! (never skipped: a batch holds every row it was given); the rows pushed since the last
//! [`KeyBatchBuilder::finish`] are dropped with it. A salt byte is checked against the bucket
//! count; its hash is checked too with [`Options::verify_salt`].

#![warn(missing_docs)]

use std::sync::Arc;

use arrow_array::builder::{
    ArrayBuilder, BinaryBuilder, BooleanBuilder, FixedSizeBinaryBuilder, Float32Builder,
    Float64Builder, Int16Builder, Int32Builder, Int64Builder, Int8Builder, StringBuilder,
    StringDictionaryBuilder, TimestampMillisecondBuilder, UInt16Builder, UInt32Builder,
    UInt64Builder, UInt8Builder,
};
use arrow_array::types::Int16Type;
use arrow_array::{ArrayRef, RecordBatch, RecordBatchOptions};
use arrow_schema::{DataType, Field, Schema as ArrowSchema, SchemaRef, TimeUnit};
use rowkey::{DecodeError, DynField, DynValue, FieldSchema, FieldVisitor, FlatField, Schema};

/// How keys become columns.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Options {
    /// `#[timestamp]` and `#[reverse_ts]` fields as `Timestamp(Millisecond)` (`true`, the
    /// default) or as their integers.
    pub timestamps: bool,
    /// A last column holding each row's value as `Binary`, under this name (`None`: keys only).
    pub value_column: Option<String>,
    /// The key columns to build, by name (`outer.inner`, `Variant.field`, `record_type`), in
    /// the key's order whatever the order here (`None`: all). Every field is still read and
    /// checked; the others are not copied into columns (an engine's projection).
    pub projection: Option<Vec<String>>,
    /// Re-hash each key's salted fields to check its salt byte (`false` by default, as
    /// `Table::scan` reads: the byte is still checked against the bucket count; HBase's own
    /// clients and Phoenix do not re-hash on read either, and the hash is most of a decode).
    pub verify_salt: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timestamps: true,
            value_column: None,
            projection: None,
            verify_salt: false,
        }
    }
}

impl Options {
    /// Timestamps as `Timestamp(Millisecond)` or as integers ([`Options::timestamps`]).
    pub fn timestamps(mut self, as_timestamps: bool) -> Self {
        self.timestamps = as_timestamps;
        self
    }

    /// Builds only the key columns named ([`Options::projection`]).
    pub fn project<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.projection = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Checks each salt byte against the hash of the salted fields ([`Options::verify_salt`]).
    pub fn verify_salt(mut self, verify: bool) -> Self {
        self.verify_salt = verify;
        self
    }

    /// Adds the row's value as a `Binary` column named `name` ([`Options::value_column`]).
    pub fn value_column(mut self, name: &str) -> Self {
        self.value_column = Some(name.into());
        self
    }
}

/// Why a layout cannot become an Arrow schema, or a key a row.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A field whose type has no column here (the field's path and Rust type).
    Unsupported {
        /// The field, `outer.inner` for a nested key's.
        field: String,
        /// Its Rust type, as written.
        rust_type: &'static str,
    },
    /// A key that is not one of the layout's (the rows pushed since the last `finish` are
    /// dropped).
    Decode {
        /// The decoder's error.
        error: DecodeError,
        /// The key, as `Bytes.toStringBinary` shows it.
        key: String,
    },
    /// A row's value cell that its column's type does not read (the wrong width, text that
    /// is not UTF-8), or a required column the row lacks.
    Value {
        /// The column (the `RowValue` field).
        column: &'static str,
        /// What is wrong.
        why: String,
        /// The row's key, as `Bytes.toStringBinary` shows it.
        key: String,
    },
    /// A projected column the layout does not have.
    NoSuchColumn {
        /// The name asked for.
        name: String,
        /// The key's columns.
        columns: Vec<String>,
    },
    /// A timestamp outside what `Timestamp(Millisecond)` holds (over `i64::MAX`).
    Timestamp {
        /// The field.
        field: String,
        /// The value.
        value: u64,
    },
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Unsupported { field, rust_type } => write!(
                f,
                "field `{field}` ({rust_type}) has no Arrow column here"
            ),
            Error::Decode { error, key } => write!(f, "key {key} is not one of the layout's: {error}"),
            Error::Value { column, why, key } => write!(f, "row {key}, column `{column}`: {why}"),
            Error::NoSuchColumn { name, columns } => write!(
                f,
                "no key column `{name}` to project (the key's: {})",
                columns.join(", ")
            ),
            Error::Timestamp { field, value } => write!(
                f,
                "field `{field}`: {value} is over the largest millisecond timestamp (i64::MAX); read it as an integer (Options::timestamps(false))"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Decode { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// One column's builder.
enum Column {
    Bool(BooleanBuilder),
    U8(UInt8Builder),
    U16(UInt16Builder),
    U32(UInt32Builder),
    U64(UInt64Builder),
    I8(Int8Builder),
    I16(Int16Builder),
    I32(Int32Builder),
    I64(Int64Builder),
    F32(Float32Builder),
    F64(Float64Builder),
    Utf8(StringBuilder),
    Binary(BinaryBuilder),
    Fixed(FixedSizeBinaryBuilder),
    Millis(TimestampMillisecondBuilder),
}

impl Column {
    fn builder(&mut self) -> &mut dyn ArrayBuilder {
        match self {
            Column::Bool(b) => b,
            Column::U8(b) => b,
            Column::U16(b) => b,
            Column::U32(b) => b,
            Column::U64(b) => b,
            Column::I8(b) => b,
            Column::I16(b) => b,
            Column::I32(b) => b,
            Column::I64(b) => b,
            Column::F32(b) => b,
            Column::F64(b) => b,
            Column::Utf8(b) => b,
            Column::Binary(b) => b,
            Column::Fixed(b) => b,
            Column::Millis(b) => b,
        }
    }

    fn append_null(&mut self) {
        match self {
            Column::Bool(b) => b.append_null(),
            Column::U8(b) => b.append_null(),
            Column::U16(b) => b.append_null(),
            Column::U32(b) => b.append_null(),
            Column::U64(b) => b.append_null(),
            Column::I8(b) => b.append_null(),
            Column::I16(b) => b.append_null(),
            Column::I32(b) => b.append_null(),
            Column::I64(b) => b.append_null(),
            Column::F32(b) => b.append_null(),
            Column::F64(b) => b.append_null(),
            Column::Utf8(b) => b.append_null(),
            Column::Binary(b) => b.append_null(),
            Column::Fixed(b) => b.append_null(),
            Column::Millis(b) => b.append_null(),
        }
    }
}

/// The base of a Rust type as written (`std::string::String` -> `String`, `Option<T>` -> `T`
/// and whether it was optional).
fn base(rust_type: &str) -> (String, bool) {
    let t: String = rust_type.chars().filter(|c| !c.is_whitespace()).collect();
    match t.strip_prefix("Option<").and_then(|r| r.strip_suffix('>')) {
        Some(inner) => (inner.to_string(), true),
        None => (t, false),
    }
}

fn has(f: &FieldSchema, attr: &str) -> bool {
    f.attributes
        .iter()
        .any(|a| *a == attr || a.starts_with(&format!("{attr}(")))
}

/// The Arrow type of one field, and a builder for it.
fn column_of(flat: &FlatField, options: &Options) -> Result<(DataType, bool, Column), Error> {
    let f = flat.schema;
    let (ty, optional) = base(f.rust_type);
    let last = ty.rsplit("::").next().unwrap_or(&ty).to_string();
    let nullable = optional || flat.variant.is_some();
    let unsupported = || Error::Unsupported {
        field: flat.path.clone(),
        rust_type: f.rust_type,
    };
    let fixed = |n: usize| {
        i32::try_from(n)
            .map(|n| {
                (
                    DataType::FixedSizeBinary(n),
                    Column::Fixed(FixedSizeBinaryBuilder::new(n)),
                )
            })
            .map_err(|_| unsupported())
    };
    if has(f, "hash") {
        let (t, c) = fixed(f.width.ok_or_else(unsupported)?)?;
        return Ok((t, nullable, c));
    }
    let time = options.timestamps
        && (has(f, "timestamp") || has(f, "reverse_ts"))
        && matches!(last.as_str(), "u64" | "i64");
    if time {
        return Ok((
            DataType::Timestamp(TimeUnit::Millisecond, None),
            nullable,
            Column::Millis(TimestampMillisecondBuilder::new()),
        ));
    }
    let (t, c) = match plain_column(&last) {
        Some(column) => column,
        None if matches!(last.as_str(), "u128" | "i128") => fixed(16)?,
        // `#[reverse]` and `#[fixed]` arrays are stored as written; their width is the field's.
        None if last.starts_with("[u8;") => fixed(f.width.ok_or_else(unsupported)?)?,
        None => return Err(unsupported()),
    };
    Ok((t, nullable, c))
}

/// The column of a plain type's name (`u32`, `String`, `Vec<u8>`, ...), as keys and values
/// both hold them; `None` for any other.
fn plain_column(last: &str) -> Option<(DataType, Column)> {
    let is_text = last == "String"
        || last == "Box<str>"
        || last.ends_with("str>")
        || (last.starts_with('&') && last.ends_with("str"));
    let is_bytes = last == "Vec<u8>"
        || last.ends_with("[u8]>")
        || (last.starts_with('&') && last.ends_with("[u8]"));
    Some(match last {
        "bool" => (DataType::Boolean, Column::Bool(BooleanBuilder::new())),
        "u8" => (DataType::UInt8, Column::U8(UInt8Builder::new())),
        "u16" => (DataType::UInt16, Column::U16(UInt16Builder::new())),
        "u32" => (DataType::UInt32, Column::U32(UInt32Builder::new())),
        "u64" => (DataType::UInt64, Column::U64(UInt64Builder::new())),
        "i8" => (DataType::Int8, Column::I8(Int8Builder::new())),
        "i16" => (DataType::Int16, Column::I16(Int16Builder::new())),
        "i32" => (DataType::Int32, Column::I32(Int32Builder::new())),
        "i64" => (DataType::Int64, Column::I64(Int64Builder::new())),
        "f32" => (DataType::Float32, Column::F32(Float32Builder::new())),
        "f64" => (DataType::Float64, Column::F64(Float64Builder::new())),
        _ if is_text => (DataType::Utf8, Column::Utf8(StringBuilder::new())),
        _ if is_bytes => (DataType::Binary, Column::Binary(BinaryBuilder::new())),
        _ => return None,
    })
}

/// The Arrow schema of keys of `schema`, as [`KeyBatchBuilder`] fills it.
pub fn arrow_schema(schema: &'static Schema, options: &Options) -> Result<ArrowSchema, Error> {
    Ok(ArrowSchema::clone(&columns(schema, options)?.0))
}

/// The schema, a builder per key field (`None`: not projected), the fields, and whether the
/// record type is a column.
type Columns = (SchemaRef, Vec<Option<Column>>, Vec<FlatField>, bool);

fn columns(schema: &'static Schema, options: &Options) -> Result<Columns, Error> {
    let flat = rowkey::flat_fields(schema);
    let wanted = |name: &str| {
        options
            .projection
            .as_ref()
            .is_none_or(|p| p.iter().any(|n| n == name))
    };
    if let Some(p) = &options.projection {
        let mut known: Vec<String> = flat.iter().map(|f| f.path.clone()).collect();
        if !schema.variants.is_empty() {
            known.push("record_type".into());
        }
        if let Some(name) = p.iter().find(|n| !known.contains(n)) {
            return Err(Error::NoSuchColumn {
                name: name.clone(),
                columns: known,
            });
        }
    }
    let mut fields = Vec::with_capacity(flat.len() + 2);
    let mut builders = Vec::with_capacity(flat.len());
    let tagged = !schema.variants.is_empty() && wanted("record_type");
    // The record type first after the shared fields would split the key's order; it leads
    // the record types' own columns instead, after the shared ones.
    let shared = flat.iter().take_while(|f| f.variant.is_none()).count();
    for (i, f) in flat.iter().enumerate() {
        if tagged && i == shared {
            fields.push(Field::new(
                "record_type",
                DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8)),
                false,
            ));
        }
        if wanted(&f.path) {
            let (t, nullable, b) = column_of(f, options)?;
            fields.push(Field::new(f.path.clone(), t, nullable));
            builders.push(Some(b));
        } else {
            builders.push(None);
        }
    }
    if tagged && shared == flat.len() {
        fields.push(Field::new(
            "record_type",
            DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8)),
            false,
        ));
    }
    if let Some(name) = &options.value_column {
        fields.push(Field::new(name.clone(), DataType::Binary, true));
    }
    let metadata = [("rowkey.key".to_string(), schema.name.to_string())].into();
    Ok((
        Arc::new(ArrowSchema::new_with_metadata(fields, metadata)),
        builders,
        flat,
        tagged,
    ))
}

/// Fills one record batch from keys of one layout (and, with [`Options::value_column`], their
/// values), column by column, without an allocation per row but where a value is not stored
/// as it is (escaped text, a reversed value).
pub struct KeyBatchBuilder {
    schema: SchemaRef,
    key: &'static Schema,
    columns: Vec<Option<Column>>,
    flat: Vec<FlatField>,
    record_type: Option<StringDictionaryBuilder<Int16Type>>,
    value: Option<BinaryBuilder>,
    verify_salt: bool,
    /// Which columns the current row filled (record types leave the others' null).
    filled: Vec<bool>,
    rows: usize,
}

impl std::fmt::Debug for KeyBatchBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyBatchBuilder")
            .field("key", &self.key.name)
            .field("rows", &self.rows)
            .finish()
    }
}

impl KeyBatchBuilder {
    /// A builder for keys of `schema`, with the default [`Options`].
    pub fn new(schema: &'static Schema) -> Result<Self, Error> {
        Self::with_options(schema, &Options::default())
    }

    /// A builder for keys of `schema`; a field without an Arrow column is an error here.
    pub fn with_options(schema: &'static Schema, options: &Options) -> Result<Self, Error> {
        let (arrow, columns, flat, tagged) = columns(schema, options)?;
        Ok(KeyBatchBuilder {
            schema: arrow,
            key: schema,
            filled: vec![false; columns.len()],
            columns,
            flat,
            record_type: tagged.then(StringDictionaryBuilder::new),
            value: options.value_column.as_ref().map(|_| BinaryBuilder::new()),
            verify_salt: options.verify_salt,
            rows: 0,
        })
    }

    /// The batches' schema.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The rows pushed since the last [`finish`](Self::finish).
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was pushed since the last [`finish`](Self::finish).
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Appends the row of `key` (and `value`, for [`Options::value_column`]). A key that is
    /// not one of the layout's is an error, and the rows pushed since the last `finish` are
    /// dropped with it.
    pub fn push(&mut self, key: &[u8], value: Option<&[u8]>) -> Result<(), Error> {
        self.filled.iter_mut().for_each(|f| *f = false);
        let mut row = Row {
            builder: self,
            failed: None,
        };
        let decoded = if row.builder.verify_salt {
            rowkey::decode_schema(row.builder.key, key, &mut row)
        } else {
            rowkey::decode_schema_trusted(row.builder.key, key, &mut row)
        };
        let failed = row.failed.take();
        if let Err(error) = decoded {
            self.discard();
            return Err(Error::Decode {
                error,
                key: rowkey::fmt::binary(key),
            });
        }
        if let Some(e) = failed {
            self.discard();
            return Err(e);
        }
        for (column, filled) in self.columns.iter_mut().zip(&self.filled) {
            if let (Some(column), false) = (column, filled) {
                column.append_null();
            }
        }
        if let Some(b) = &mut self.value {
            match value {
                Some(v) => b.append_value(v),
                None => b.append_null(),
            }
        }
        self.rows += 1;
        Ok(())
    }

    /// The rows pushed since the last call, as one batch; the builder starts anew.
    pub fn finish(&mut self) -> RecordBatch {
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(self.schema.fields().len());
        let shared = self.flat.iter().take_while(|f| f.variant.is_none()).count();
        for (i, c) in self.columns.iter_mut().enumerate() {
            if i == shared {
                if let Some(t) = &mut self.record_type {
                    arrays.push(Arc::new(t.finish()));
                }
            }
            if let Some(c) = c {
                arrays.push(c.builder().finish());
            }
        }
        if shared == self.columns.len() {
            if let Some(t) = &mut self.record_type {
                arrays.push(Arc::new(t.finish()));
            }
        }
        if let Some(v) = &mut self.value {
            arrays.push(Arc::new(v.finish()));
        }
        // A projection to no column (`SELECT count(*)`) still has its rows.
        let rows = core::mem::take(&mut self.rows);
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        // The columns are built to the schema, row for row: a mismatch is a bug here.
        RecordBatch::try_new_with_options(self.schema.clone(), arrays, &options)
            .expect("rowkey-arrow built columns that do not fit their schema")
    }

    /// Drops the rows pushed since the last `finish` (a row failed half-way, so the columns
    /// may be of different lengths: each is emptied on its own).
    fn discard(&mut self) {
        for c in self.columns.iter_mut().flatten() {
            let _ = c.builder().finish();
        }
        if let Some(t) = &mut self.record_type {
            let _ = t.finish();
        }
        if let Some(v) = &mut self.value {
            let _ = v.finish();
        }
        self.rows = 0;
    }
}

/// The visitor that appends one key's fields.
struct Row<'b> {
    builder: &'b mut KeyBatchBuilder,
    failed: Option<Error>,
}

impl<'de> FieldVisitor<'de> for Row<'_> {
    fn field(&mut self, index: usize, value: DynField<'de>) {
        let b = &mut *self.builder;
        // A field outside the projection is read (and checked) but not kept.
        let Some(Some(column)) = b.columns.get_mut(index) else {
            return;
        };
        b.filled[index] = true;
        // `Some(None)` of an `Option<Option<T>>` is null too: a column has one level of null.
        let value = value.value;
        match (column, value) {
            (c, DynValue::Null) => c.append_null(),
            (Column::Bool(c), DynValue::Bool(v)) => c.append_value(v),
            (Column::U8(c), DynValue::U8(v)) => c.append_value(v),
            (Column::U16(c), DynValue::U16(v)) => c.append_value(v),
            (Column::U32(c), DynValue::U32(v)) => c.append_value(v),
            (Column::U64(c), DynValue::U64(v)) => c.append_value(v),
            (Column::I8(c), DynValue::I8(v)) => c.append_value(v),
            (Column::I16(c), DynValue::I16(v)) => c.append_value(v),
            (Column::I32(c), DynValue::I32(v)) => c.append_value(v),
            (Column::I64(c), DynValue::I64(v)) => c.append_value(v),
            (Column::F32(c), DynValue::F32(v)) => c.append_value(v),
            (Column::F64(c), DynValue::F64(v)) => c.append_value(v),
            (Column::Utf8(c), DynValue::Str(v)) => c.append_value(v),
            (Column::Binary(c), DynValue::Bytes(v)) => c.append_value(v),
            (Column::Millis(c), DynValue::I64(v)) => c.append_value(v),
            (Column::Millis(c), DynValue::U64(v)) => match i64::try_from(v) {
                Ok(v) => c.append_value(v),
                Err(_) => {
                    c.append_null();
                    self.failed.get_or_insert(Error::Timestamp {
                        field: b.flat[index].path.clone(),
                        value: v,
                    });
                }
            },
            (Column::Fixed(c), value) => {
                let bytes: Option<Vec<u8>> = match value {
                    DynValue::Bytes(v) | DynValue::Digest(v) => Some(v.into_owned()),
                    DynValue::U128(v) => Some(v.to_be_bytes().to_vec()),
                    DynValue::I128(v) => Some(v.to_be_bytes().to_vec()),
                    _ => None,
                };
                match bytes.map(|b| c.append_value(b)) {
                    Some(Ok(())) => {}
                    _ => {
                        c.append_null();
                        self.failed.get_or_insert(Error::Unsupported {
                            field: b.flat[index].path.clone(),
                            rust_type: b.flat[index].schema.rust_type,
                        });
                    }
                }
            }
            (c, _) => {
                // The decoder read a value of another type than the column's: the layout and
                // this crate disagree.
                c.append_null();
                self.failed.get_or_insert(Error::Unsupported {
                    field: b.flat[index].path.clone(),
                    rust_type: b.flat[index].schema.rust_type,
                });
            }
        }
    }

    fn variant(&mut self, variant: usize) {
        let b = &mut *self.builder;
        if let Some(t) = &mut b.record_type {
            // At most 256 record types (a tag is a byte): Int16 keys always hold them.
            if t.append(b.key.variants[variant].name).is_err() {
                self.failed.get_or_insert(Error::Unsupported {
                    field: "record_type".into(),
                    rust_type: b.key.name,
                });
            }
        }
    }
}

/// Reads `rows` (a store's scan: key and value) into batches of at most `batch_rows` rows.
///
/// ```
/// use rowkey::store::{MemStore, Store};
/// use rowkey::{KeyRange, RowKey};
/// use rowkey_arrow::{batches, Options};
///
/// #[derive(RowKey)]
/// struct Reading { sensor: u16, at: u32 }
///
/// let store = MemStore::new();
/// for at in 0..10u32 {
///     store.put(&Reading { sensor: 1, at }.to_bytes()?, b"v")?;
/// }
/// let all: Vec<_> = batches(
///     store.scan(&KeyRange::new(b"", None)),
///     Reading::SCHEMA,
///     &Options::default().value_column("value"),
///     4,
/// )?
/// .collect::<Result<_, _>>()?;
/// assert_eq!(all.iter().map(|b| b.num_rows()).collect::<Vec<_>>(), [4, 4, 2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn batches<I, E>(
    rows: I,
    schema: &'static Schema,
    options: &Options,
    batch_rows: usize,
) -> Result<Batches<I::IntoIter>, Error>
where
    I: IntoIterator<Item = Result<rowkey::store::Row, E>>,
{
    Ok(Batches {
        rows: rows.into_iter(),
        builder: KeyBatchBuilder::with_options(schema, options)?,
        batch_rows: batch_rows.max(1),
        done: false,
    })
}

/// The batches of [`batches`]: each `Ok` holds up to `batch_rows` rows; the first error ends
/// them.
#[derive(Debug)]
pub struct Batches<I> {
    rows: I,
    builder: KeyBatchBuilder,
    batch_rows: usize,
    done: bool,
}

/// An error of [`Batches`]: the store's, or the row's.
#[derive(Debug)]
pub enum BatchError<E> {
    /// The store failed.
    Store(E),
    /// A row is not one of the layout's.
    Row(Error),
}

impl<E: std::fmt::Display> std::fmt::Display for BatchError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BatchError::Store(e) => write!(f, "the scan failed: {e}"),
            BatchError::Row(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for BatchError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BatchError::Store(e) => Some(e),
            BatchError::Row(e) => Some(e),
        }
    }
}

impl<I, E> Iterator for Batches<I>
where
    I: Iterator<Item = Result<rowkey::store::Row, E>>,
{
    type Item = Result<RecordBatch, BatchError<E>>;

    fn next(&mut self) -> Option<Self::Item> {
        let rows = &mut self.rows;
        next_batch(&mut self.builder, self.batch_rows, &mut self.done, || {
            rows.next()
        })
    }
}

/// What a batch is filled from, one scan item at a time.
trait Fill<T> {
    fn fill(&mut self, item: &T) -> Result<(), Error>;
    fn rows(&self) -> usize;
    fn batch(&mut self) -> RecordBatch;
}

impl Fill<rowkey::store::Row> for KeyBatchBuilder {
    fn fill(&mut self, (key, value): &rowkey::store::Row) -> Result<(), Error> {
        self.push(key, Some(value))
    }
    fn rows(&self) -> usize {
        self.len()
    }
    fn batch(&mut self) -> RecordBatch {
        self.finish()
    }
}

/// The next batch of up to `batch_rows` items from `next`: `None` once the items (or an
/// error) ended the batches.
fn next_batch<T, E, B: Fill<T>>(
    builder: &mut B,
    batch_rows: usize,
    done: &mut bool,
    mut next: impl FnMut() -> Option<Result<T, E>>,
) -> Option<Result<RecordBatch, BatchError<E>>> {
    if *done {
        return None;
    }
    while builder.rows() < batch_rows {
        match next() {
            Some(Ok(item)) => {
                if let Err(e) = builder.fill(&item) {
                    *done = true;
                    return Some(Err(BatchError::Row(e)));
                }
            }
            Some(Err(e)) => {
                *done = true;
                return Some(Err(BatchError::Store(e)));
            }
            None => {
                *done = true;
                break;
            }
        }
    }
    (builder.rows() > 0).then(|| Ok(builder.batch()))
}

/// One value column: the field, its cell's coordinates and its builder.
struct ValueColumn {
    schema: &'static rowkey::ColumnSchema,
    column: Column,
}

impl ValueColumn {
    /// Appends a cell's bytes as the column's type reads them (HBase's `Bytes.toBytes`
    /// encodings, as `ColumnValue` writes them).
    fn append(&mut self, bytes: &[u8]) -> Result<(), String> {
        fn be<const N: usize>(bytes: &[u8]) -> Result<[u8; N], String> {
            bytes
                .try_into()
                .map_err(|_| format!("{} bytes where {N} are stored", bytes.len()))
        }
        match &mut self.column {
            Column::Bool(c) => c.append_value(be::<1>(bytes)?[0] != 0),
            Column::U8(c) => c.append_value(u8::from_be_bytes(be(bytes)?)),
            Column::U16(c) => c.append_value(u16::from_be_bytes(be(bytes)?)),
            Column::U32(c) => c.append_value(u32::from_be_bytes(be(bytes)?)),
            Column::U64(c) => c.append_value(u64::from_be_bytes(be(bytes)?)),
            Column::I8(c) => c.append_value(i8::from_be_bytes(be(bytes)?)),
            Column::I16(c) => c.append_value(i16::from_be_bytes(be(bytes)?)),
            Column::I32(c) => c.append_value(i32::from_be_bytes(be(bytes)?)),
            Column::I64(c) => c.append_value(i64::from_be_bytes(be(bytes)?)),
            Column::F32(c) => c.append_value(f32::from_be_bytes(be(bytes)?)),
            Column::F64(c) => c.append_value(f64::from_be_bytes(be(bytes)?)),
            Column::Utf8(c) => c.append_value(
                std::str::from_utf8(bytes)
                    .map_err(|e| format!("not UTF-8 after byte {}", e.valid_up_to()))?,
            ),
            Column::Binary(c) => c.append_value(bytes),
            Column::Fixed(c) => c.append_value(bytes).map_err(|e| e.to_string())?,
            Column::Millis(c) => c.append_value(i64::from_be_bytes(be(bytes)?)),
        }
        Ok(())
    }
}

/// Fills one record batch from rows of cells: the key's columns (as [`KeyBatchBuilder`]
/// makes them), then one column per field of a `RowValue` type, read from its cell
/// (`family:qualifier`) as the type's `ColumnValue` writes it: integers and floats big-endian,
/// `bool` one byte, `String` UTF-8, `Vec<u8>` as stored, `Json<T>` as its JSON text. An
/// `Option` field whose cell is absent is null; a required field's absent cell is an error,
/// as the typed read says.
pub struct RowBatchBuilder {
    keys: KeyBatchBuilder,
    values: Vec<ValueColumn>,
    schema: SchemaRef,
}

impl std::fmt::Debug for RowBatchBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RowBatchBuilder")
            .field("keys", &self.keys)
            .field("values", &self.values.len())
            .finish()
    }
}

impl RowBatchBuilder {
    /// A builder for rows keyed by `key`, valued by `value` (`K::SCHEMA`, `V::SCHEMA`).
    pub fn new(key: &'static Schema, value: &'static rowkey::ValueSchema) -> Result<Self, Error> {
        Self::with_options(key, value, &Options::default())
    }

    /// [`RowBatchBuilder::new`] with `options` ([`Options::value_column`] does not apply: the
    /// value is its columns).
    pub fn with_options(
        key: &'static Schema,
        value: &'static rowkey::ValueSchema,
        options: &Options,
    ) -> Result<Self, Error> {
        let mut key_options = options.clone();
        key_options.value_column = None;
        let keys = KeyBatchBuilder::with_options(key, &key_options)?;
        let mut fields: Vec<Field> = keys.schema.fields().iter().map(|f| (**f).clone()).collect();
        let mut values = Vec::with_capacity(value.columns.len());
        for c in value.columns {
            let (ty, _) = base(c.rust_type);
            let last = ty.rsplit("::").next().unwrap_or(&ty).to_string();
            let json = last.starts_with("Json<");
            let (t, column) = match plain_column(&last) {
                Some(column) => column,
                None if json => (DataType::Utf8, Column::Utf8(StringBuilder::new())),
                None => {
                    return Err(Error::Unsupported {
                        field: c.field.to_string(),
                        rust_type: c.rust_type,
                    })
                }
            };
            let metadata = [
                ("rowkey.family".to_string(), c.family.to_string()),
                ("rowkey.qualifier".to_string(), c.qualifier.to_string()),
            ]
            .into();
            fields.push(Field::new(c.field, t, c.optional).with_metadata(metadata));
            values.push(ValueColumn { schema: c, column });
        }
        let mut metadata = keys.schema.metadata().clone();
        metadata.insert("rowkey.value".into(), value.name.into());
        Ok(RowBatchBuilder {
            keys,
            values,
            schema: Arc::new(ArrowSchema::new_with_metadata(fields, metadata)),
        })
    }

    /// The batches' schema: the key's columns, then the value's.
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    /// The rows pushed since the last [`finish`](Self::finish).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no row was pushed since the last [`finish`](Self::finish).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Appends one row of cells. A key not of the layout, a cell its column cannot read or a
    /// required column the row lacks is an error, and the rows pushed since the last
    /// `finish` are dropped with it.
    pub fn push(&mut self, row: &rowkey::store::CellRow) -> Result<(), Error> {
        let failed = self.values.iter_mut().find_map(|v| {
            let cell = row.value(v.schema.family, v.schema.qualifier.as_bytes());
            let appended = match cell {
                Some(bytes) => v.append(bytes),
                None if v.schema.optional => {
                    v.column.append_null();
                    Ok(())
                }
                None => Err(format!(
                    "the row has no cell {}:{} and the field is not an Option",
                    v.schema.family, v.schema.qualifier
                )),
            };
            appended.err().map(|why| (v.schema.field, why))
        });
        let result = match failed {
            Some((column, why)) => Err(Error::Value {
                column,
                why,
                key: rowkey::fmt::binary(&row.key),
            }),
            None => self.keys.push(&row.key, None),
        };
        if result.is_err() {
            self.keys.discard();
            for v in &mut self.values {
                let _ = v.column.builder().finish();
            }
        }
        result
    }

    /// The rows pushed since the last call, as one batch; the builder starts anew.
    pub fn finish(&mut self) -> RecordBatch {
        let keys = self.keys.finish();
        let mut arrays: Vec<ArrayRef> = keys.columns().to_vec();
        arrays.extend(self.values.iter_mut().map(|v| v.column.builder().finish()));
        // Every row appended one value to every column, or none (a failed row is dropped
        // whole): a mismatch is a bug here.
        RecordBatch::try_new(self.schema.clone(), arrays)
            .expect("rowkey-arrow built columns that do not fit their schema")
    }
}

/// Reads `rows` (a store's `scan_rows` with the value type's columns) into batches of at most
/// `batch_rows` rows of key and value columns ([`RowBatchBuilder`]).
pub fn row_batches<I, E>(
    rows: I,
    key: &'static Schema,
    value: &'static rowkey::ValueSchema,
    options: &Options,
    batch_rows: usize,
) -> Result<RowBatches<I::IntoIter>, Error>
where
    I: IntoIterator<Item = Result<rowkey::store::CellRow, E>>,
{
    Ok(RowBatches {
        rows: rows.into_iter(),
        builder: RowBatchBuilder::with_options(key, value, options)?,
        batch_rows: batch_rows.max(1),
        done: false,
    })
}

/// The batches of [`row_batches`]: each `Ok` holds up to `batch_rows` rows; the first error
/// ends them.
#[derive(Debug)]
pub struct RowBatches<I> {
    rows: I,
    builder: RowBatchBuilder,
    batch_rows: usize,
    done: bool,
}

impl<I, E> Iterator for RowBatches<I>
where
    I: Iterator<Item = Result<rowkey::store::CellRow, E>>,
{
    type Item = Result<RecordBatch, BatchError<E>>;

    fn next(&mut self) -> Option<Self::Item> {
        let rows = &mut self.rows;
        next_batch(&mut self.builder, self.batch_rows, &mut self.done, || {
            rows.next()
        })
    }
}

impl Fill<rowkey::store::CellRow> for RowBatchBuilder {
    fn fill(&mut self, row: &rowkey::store::CellRow) -> Result<(), Error> {
        self.push(row)
    }
    fn rows(&self) -> usize {
        self.len()
    }
    fn batch(&mut self) -> RecordBatch {
        self.finish()
    }
}

/// [`batches`] for an async scan (an [`AsyncStore`](rowkey::store::AsyncStore)'s `scan`, any
/// `Stream` of rows): batches of at most `batch_rows` rows, each built as soon as its rows
/// have come (feature `async`).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use futures_util::TryStreamExt;
/// use rowkey::store::{AsyncStore, MemStore};
/// use rowkey::{KeyRange, RowKey};
/// use rowkey_arrow::{batch_stream, Options};
///
/// #[derive(RowKey)]
/// struct Reading { sensor: u16, at: u32 }
///
/// let store = MemStore::new();
/// for at in 0..10u32 {
///     AsyncStore::put(&store, &Reading { sensor: 1, at }.to_bytes()?, b"v").await?;
/// }
/// let scan = AsyncStore::scan(&store, &KeyRange::new(b"", None));
/// let all: Vec<_> = batch_stream(scan, Reading::SCHEMA, &Options::default(), 4)?
///     .try_collect()
///     .await?;
/// assert_eq!(all.iter().map(|b| b.num_rows()).collect::<Vec<_>>(), [4, 4, 2]);
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "async")]
pub fn batch_stream<S, E>(
    rows: S,
    schema: &'static Schema,
    options: &Options,
    batch_rows: usize,
) -> Result<BatchStream<S>, Error>
where
    S: futures_core::Stream<Item = Result<rowkey::store::Row, E>> + Unpin,
{
    Ok(BatchStream {
        rows,
        builder: KeyBatchBuilder::with_options(schema, options)?,
        batch_rows: batch_rows.max(1),
        done: false,
    })
}

/// The batches of [`batch_stream`]: each `Ok` holds up to `batch_rows` rows; the first error
/// ends them.
#[cfg(feature = "async")]
#[derive(Debug)]
pub struct BatchStream<S> {
    rows: S,
    builder: KeyBatchBuilder,
    batch_rows: usize,
    done: bool,
}

#[cfg(feature = "async")]
impl<S, E> futures_core::Stream for BatchStream<S>
where
    S: futures_core::Stream<Item = Result<rowkey::store::Row, E>> + Unpin,
{
    type Item = Result<RecordBatch, BatchError<E>>;

    fn poll_next(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        while this.builder.len() < this.batch_rows {
            match std::pin::Pin::new(&mut this.rows).poll_next(cx) {
                // The rows so far stay in the builder until the next poll.
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok((key, value)))) => {
                    if let Err(e) = this.builder.push(&key, Some(&value)) {
                        this.done = true;
                        return Poll::Ready(Some(Err(BatchError::Row(e))));
                    }
                }
                Poll::Ready(Some(Err(e))) => {
                    this.done = true;
                    return Poll::Ready(Some(Err(BatchError::Store(e))));
                }
                Poll::Ready(None) => {
                    this.done = true;
                    break;
                }
            }
        }
        Poll::Ready((!this.builder.is_empty()).then(|| Ok(this.builder.finish())))
    }
}
