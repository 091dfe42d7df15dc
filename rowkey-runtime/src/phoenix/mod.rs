//! Apache Phoenix's encodings, so a table rowkey writes is one Phoenix reads with SQL, and the
//! reverse: its data types ([`PhoenixType`], each value's bytes: [`encode_value`],
//! [`decode_value`]), its row keys ([`PhoenixKey`]: separators, sort orders, trailing nulls,
//! the salt byte) and its tables as data with the DDL that declares them ([`PhoenixTable`]).
//!
//! Checked byte for byte against Phoenix 5.2.1 itself on the local HBase
//! (`tests/phoenix.rs`). Values are [`Datum`]s here; `#[derive(PhoenixRow)]` maps a struct's
//! fields onto them ([`PhoenixColumn`], [`PhoenixRow`]) and
//! [`PhoenixRows`](crate::store::PhoenixRows) reads and writes such rows on any store.

mod ddl;
mod key;
mod row;
mod types;

pub use ddl::{PhoenixTable, ValueColumn, EMPTY_COLUMN, EMPTY_VALUE};
pub use key::{KeyColumn, PhoenixKey, SortOrder};
pub use row::{Char, Date, PhoenixColumn, PhoenixRow, Timestamp};
pub use types::{decode_value, encode_value, Datum, PhoenixError, PhoenixType};
