//! The stores' per-cell framing, in bytes, written once: the size budget (`budget.rs`) and the
//! derive's column docs (`#[derive(RowValue)]`, whose `src/figures.rs` is a link to this file)
//! both compute from these, so the figures users read and the ones the budget adds up cannot
//! disagree.

/// HBase's `KeyValue` framing: key length (4), value length (4), row length (2), family length
/// (1), timestamp (8) and type (1).
pub const HBASE_KEYVALUE: usize = 20;

/// Cloud Bigtable's cell: the timestamp (8), as its data model stores it.
pub const BIGTABLE_CELL: usize = 8;

/// rowkey's composite layout (FORMAT.md §7): the row key's and the family's terminators.
pub const COMPOSITE_TERMINATORS: usize = 4;

/// fjall's per-entry framing in a data block, about: a sequence number (varint), the value type,
/// and the key and value lengths.
pub const FJALL_ENTRY: usize = 10;
