//! The runtime of [rowkey](https://docs.rs/rowkey): encoding primitives, errors, the schema
//! data and salt hashing. Depend on the `rowkey` crate, which re-exports this one together with
//! the derive; the `__private` module is the derive's and not public API.

// No unsafe code, but for one function behind the `kerberos` feature: the GSSAPI call that
// logs in from a keytab into a private ticket cache (`store/net/kerberos.rs::keytab_cred`),
// which the binding does not wrap.
#![deny(unsafe_code)]
#![warn(missing_docs)]

// The public API is the list below, by name; everything else is plumbing, reachable by the
// derive through the hidden `__private` module only.
mod budget;
pub mod capacity;
pub(crate) mod cell;
mod check;
mod codec;
mod dynamic;
mod error;
mod explain;
pub mod family;
mod field;
mod figures;
mod fingerprint;
pub mod fmt;
mod generated;
mod hashed;
pub mod hotspot;
mod index;
mod java;
mod key;
pub mod phoenix;
mod rows_as_columns;
mod salt;
mod scan;
mod schema;
mod serialize;
mod sink;
mod source;
pub mod split;
pub mod store;
mod text;
mod text_key;
mod value;

pub use bytes;

pub use crate::budget::{human_bytes, CellCost, CellFormat, SizeBudget};
pub use crate::check::{FieldRange, LayoutCheck, LayoutFailure, KEPT_FAILURES};
pub use crate::dynamic::{
    decode_schema, decode_schema_trusted, explain_schema, explain_schema_checked,
    explain_schema_with_names, explain_schema_with_names_checked, flat_fields, DynField, DynValue,
    FieldVisitor, FlatField,
};
pub use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
pub use crate::field::{Decode, Encode};
pub use crate::fingerprint::TypeLayout;
pub use crate::hashed::{HashInput, Hashed};
pub use crate::index::IndexOf;
pub use crate::key::RowKey;
pub use crate::rows_as_columns::{Piece, RowsAsColumns};
pub use crate::scan::dyn_query::{DynArg, DynQuery, QueryKey};
pub use crate::scan::pushdown::{KeyFilter, KeyPiece};
pub use crate::scan::query::{Constraint, Query, QueryArg, QueryFor, Step, TypedQuery};
pub use crate::scan::{KeyRange, KeyRanges, ScanRange};
pub use crate::schema::{
    Domain, FieldSchema, Order, SaltSchema, Schema, VariantSchema, HASH_PREFIX_FIELD,
};
#[cfg(feature = "json")]
pub use crate::value::Json;
pub use crate::value::{
    CellReader, ColumnSchema, ColumnValue, RowValue, ValueError, ValueErrorKind, ValueSchema,
};

#[doc(hidden)]
pub mod __private {
    pub use crate::codec::{
        Codec, CodecDecode, Desc, Fixed, MaxLen, Md5, Natural, Reverse, ReverseTs, RowSpan,
    };
    pub use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
    pub use crate::explain::{explain_fields, shown, Explain, Explainer};
    pub use crate::family::{BlockEncoding, Bloom, Compression, Family, KeepDeleted};
    pub use crate::field::{Decode, Encode};
    pub use crate::fingerprint::{fingerprint, LayoutPiece, TypeLayout};
    pub use crate::generated::{
        field, hash_prefix_field, read, read_tag, sum, unknown_tag, width, with_offsets,
        write_hash_prefix,
    };
    pub use crate::index::IndexOf;
    pub use crate::java::{FromJavaText, Java, JavaNumber, JavaText, JavaUtf, Rest};
    pub use crate::key::segment_ends;
    pub use crate::key::RowKey;
    pub use crate::rows_as_columns::{row_key_end, RowsAsColumns};
    pub use crate::salt::SaltHash;
    pub use crate::scan::dyn_query::{DynConstrain, DynProbe, DynRefuse, FromDyn};
    pub use crate::scan::query::{hash_prefix_of, Constraint, Query, QueryBuilder};
    pub use crate::scan::{
        ranges as scan_ranges, scan_step, CloneIf, CloneOf, KeyRanges, ScanArg, ScanBuf, ScanRange,
        ScanState, ScanThen, ScanValue, WriteScan,
    };
    pub use crate::schema::Domain;
    pub use crate::schema::{
        add, max_len, most, same, FieldSchema, Order, SaltSchema, Schema, VariantSchema,
    };
    pub use crate::sink::Sink;
    pub use crate::source::Reader;
    pub use crate::source::Source;
    pub use crate::store::{Cell, Column};
    pub use crate::text::{FromKeyBytes, KeyBytes};
    pub use crate::text_key::{
        Decimal, Delimited, FromText, Hex, Last, PaddedText, ReversedText, Text, TextNumber,
        TextPart,
    };
    pub use crate::value::{
        clear_cell, set_cell, CellReader, ColumnSchema, ColumnValue, RowValue, ValueError,
        ValueSchema,
    };
    pub use core::marker::PhantomData;
    pub use core::ops::Bound;
    pub use core::option::Option::{self, None, Some};
    pub use core::primitive::{bool, str, u16, u64, u8, usize};
    pub use core::result::Result::{self, Err, Ok};
    pub use std::vec::Vec;
}
