//! The runtime of [rowkey](https://docs.rs/rowkey): encoding primitives, errors, the schema
//! data and salt hashing. Depend on the `rowkey` crate, which re-exports this one together with
//! the derive; the `__private` module is the derive's and not public API.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod codec;
pub mod error;
pub mod explain;
pub mod field;
pub mod fmt;
mod hashed;
mod key;
pub mod salt;
pub mod scan;
pub mod schema;
mod serialize;
pub mod sink;
pub mod source;
pub mod split;
pub mod store;
pub mod text;

/// The `bytes` crate, re-exported so that `encode_into(&mut BytesMut)` needs no version match.
pub use bytes;

pub use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
pub use crate::field::{Decode, Encode};
pub use crate::hashed::{HashInput, Hashed};
pub use crate::key::RowKey;
pub use crate::scan::{KeyRange, KeyRanges, ScanRange};
pub use crate::schema::{FieldSchema, Order, SaltSchema, Schema, VariantSchema};

/// What the generated code names; not public API, and may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::codec::{
        Codec, CodecDecode, Desc, Fixed, MaxLen, Md5, Natural, Reverse, ReverseTs,
    };
    /// The `bytes` crate, re-exported so that `encode_into(&mut BytesMut)` needs no version match.
    pub use bytes;

    pub use crate::__scan_arg;
    pub use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
    pub use crate::explain::{Explain, Explainer};
    pub use crate::field::{Decode, Encode};
    pub use crate::key::RowKey;
    pub use crate::scan::{
        ranges as scan_ranges, CloneIf, CloneOf, KeyRanges, ScanArg, ScanBuf, ScanRange, ScanState,
        ScanValue, WriteScan,
    };
    pub use crate::schema::{
        add, max_len, most, same, FieldSchema, Order, SaltSchema, Schema, VariantSchema,
    };
    pub use crate::sink::Sink;
    pub use crate::source::Source;
    pub use crate::split::Domain;
    pub use core::marker::PhantomData;
    pub use core::ops::Bound;
    pub use core::option::Option::{self, None, Some};
    pub use core::primitive::{bool, str, u16, u8, usize};
    pub use core::result::Result::{self, Err, Ok};
}
