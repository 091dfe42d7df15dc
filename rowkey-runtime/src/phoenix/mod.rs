//! Apache Phoenix's encodings, so a table rowkey writes is one Phoenix reads with SQL, and the
//! reverse: its data types ([`PhoenixType`], each value's bytes: [`encode_value`],
//! [`decode_value`]), its row keys ([`PhoenixKey`]: separators, sort orders, trailing nulls,
//! the salt byte) and its tables as data with the DDL that declares them ([`PhoenixTable`]).
//!
//! Checked byte for byte against Phoenix 5.2.1 itself on the local HBase
//! (`tests/phoenix.rs`). This is the dynamic layer: values as [`Datum`]s.

mod ddl;
mod key;
mod types;

pub use ddl::{PhoenixTable, ValueColumn, EMPTY_COLUMN, EMPTY_VALUE};
pub use key::{KeyColumn, PhoenixKey, SortOrder};
pub use types::{decode_value, encode_value, Datum, PhoenixError, PhoenixType};
