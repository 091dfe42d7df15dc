//! # rowkey
//!
//! Declarative, order-preserving row keys for sorted, range-partitioned stores: HBase, Cloud
//! Bigtable and local LSM trees.
//!
//! ```
//! use rowkey::RowKey;
//!
//! /// One event of one user; newest first within a user, spread over 16 salt buckets.
//! #[derive(RowKey, Debug, Clone, PartialEq)]
//! struct Event {
//!     #[salt(buckets = 16)]
//!     user_id: u64,
//!     #[fixed(16)]
//!     event_type: String,
//!     #[reverse_ts]
//!     ts: u64,
//! }
//!
//! let ev = Event { user_id: 7, event_type: "click".into(), ts: 1_700_000_000_000 };
//! let mut buf = [0u8; Event::MAX_LEN];   // 33 bytes on the stack
//! let n = ev.encode_to_slice(&mut buf)?;
//! assert_eq!(Event::decode(&buf[..n])?, ev);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The [`guide`] takes rowkey chapter by chapter (keys, scans, stores, rows and families,
//! access paths, HBase, Bigtable, secured clusters, Phoenix, operating, performance). See
//! [`attributes`] for every attribute, [`RowKey`] for the encode and decode methods, and
//! [`Schema`] for a key's layout as data.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate self as rowkey;

pub mod attributes;
#[cfg(feature = "conformance")]
pub mod conformance;
// Compiled for the docs only (the derive's generated docs, shown on real keys); the examples
// and tests include the same file by path, so dependents do not compile four derives for it.
#[cfg(doc)]
pub mod example;

// The guide, chapter by chapter: in the docs (its examples run as doctests with the default
// store), never compiled into a user's build.
#[cfg(any(doc, all(doctest, feature = "fjall")))]
pub mod guide;

/// The README's examples, compiled and run as doctests so they cannot drift.
#[doc = include_str!("../README.md")]
#[cfg(all(doctest, feature = "fjall"))]
pub struct ReadmeDoctests;

pub use rowkey_derive::{PhoenixRow, RowKey, RowValue};
// The public API, by name: the key trait and its errors, scan ranges, the layout as data,
// hashed fields, and the `capacity`, `family`, `fmt`, `phoenix`, `split` and `store` modules.
pub use rowkey_runtime::{
    bytes, capacity, explain_schema, explain_schema_checked, explain_schema_with_names,
    explain_schema_with_names_checked, family, fmt, hotspot, phoenix, split, store, Decode,
    DecodeError, DecodeErrorKind, Domain, Encode, EncodeError, EncodeErrorKind, FieldSchema,
    HashInput, Hashed, IndexOf, KeyRange, KeyRanges, Order, Piece, RowKey, RowsAsColumns,
    SaltSchema, ScanRange, Schema, VariantSchema, HASH_PREFIX_FIELD,
};
// Keys read without their type, from the layout as data (`flat_fields`, `decode_schema`).
pub use rowkey_runtime::{
    decode_schema, decode_schema_trusted, flat_fields, DynField, DynValue, FieldVisitor, FlatField,
};
// A declared layout checked against the keys a table already holds.
pub use rowkey_runtime::{FieldRange, LayoutCheck, LayoutFailure, KEPT_FAILURES};
// Skip-scan queries (`T::query()`): any field constrained, a gap sought past.
pub use rowkey_runtime::{
    Constraint, KeyFilter, KeyPiece, Query, QueryArg, QueryFor, Step, TypedQuery,
};
// The same queries from values known at run time (SQL's literals): `DynQuery`.
pub use rowkey_runtime::{DynArg, DynQuery, QueryKey};
// The value side: rows of typed columns, and what their coordinates cost.
/// A column value of any serde type, stored as JSON (feature `json`).
#[cfg(feature = "json")]
pub use rowkey_runtime::Json;
pub use rowkey_runtime::{human_bytes, CellCost, CellFormat, SizeBudget};
pub use rowkey_runtime::{
    CellReader, ColumnSchema, ColumnValue, RowValue, ValueError, ValueErrorKind, ValueSchema,
};

#[doc(hidden)]
pub use rowkey_runtime::__private;
