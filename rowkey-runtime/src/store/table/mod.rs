//! Typed tables over the stores, each blocking table beside its async twin: [`Table`] and
//! [`AsyncTable`] (a [`RowKey`](crate::RowKey) to raw values), [`CellTable`] and
//! [`AsyncCellTable`] (typed rows of cells), [`WideTable`] and [`AsyncWideTable`] (rows as
//! columns), the salted merge they share (`merge`), [`IndexedTable`] and [`AsyncIndexedTable`], [`rekey`] and [`rekey_async`], the lookup
//! table [`UidTable`] (and [`AsyncUidTable`]) and [`PhoenixRows`] (rows of a Phoenix table). What both
//! flavours share (the error, batch encoding, row decoding) is here, not in either twin.

use std::fmt;

use bytes::{Bytes, BytesMut};

use crate::error::{DecodeError, EncodeError};
use crate::field::Decode;
use crate::key::RowKey;
use crate::store::{BatchError, Row};

mod cells;
mod indexed;
mod merge;
mod phoenix;
mod query;
#[cfg(feature = "async")]
mod query_async;
mod raw;
mod rekey;
mod switch;
mod uid;
mod wide;

#[cfg(feature = "async")]
mod cells_async;
#[cfg(feature = "async")]
mod indexed_async;
#[cfg(feature = "async")]
mod raw_async;
#[cfg(feature = "async")]
mod rekey_async;
#[cfg(feature = "async")]
mod switch_async;
#[cfg(feature = "async")]
mod uid_async;
#[cfg(feature = "async")]
mod wide_async;

pub use cells::{CellMerged, CellTable};
pub use indexed::IndexedTable;
pub use phoenix::{PhoenixRows, PhoenixRowsError, PhoenixScan};
pub use query::QueryRows;
#[cfg(feature = "async")]
pub use query_async::QueryStream;
pub use raw::{LentRows, Merged, Table};
pub use rekey::{rekey, RekeyError, RekeyFailure, RekeyOptions, RekeyReport, Unconverted};
pub use switch::{verify_rekey, DualWriteError, DualWriter, RekeyDiff};
pub use uid::{UidError, UidReport, UidTable, UID_ID_FAMILY, UID_NAME_FAMILY};
pub use wide::{WideMerged, WideTable};

#[cfg(feature = "async")]
pub use cells_async::{AsyncCellTable, CellMergedStream};
#[cfg(feature = "async")]
pub use indexed_async::AsyncIndexedTable;
#[cfg(feature = "async")]
pub use raw_async::{AsyncTable, LentStream, MergedStream, RawMergedStream};
#[cfg(feature = "async")]
pub use rekey_async::rekey_async;
#[cfg(feature = "async")]
pub use switch_async::{verify_rekey_async, AsyncDualWriter};
#[cfg(feature = "async")]
pub use uid_async::AsyncUidTable;
#[cfg(feature = "async")]
pub use wide_async::{AsyncWideTable, WideMergedStream};

/// A failed table operation.
#[derive(Debug)]
pub enum TableError<E> {
    /// A key could not be encoded; nothing was written.
    Encode {
        /// The key's place in a batch; `None` for a single put, get or delete.
        index: Option<usize>,
        /// Why.
        error: EncodeError,
    },
    /// A stored key is not a key of this type (another schema's row, or corruption).
    Decode {
        /// The stored key bytes.
        key: Vec<u8>,
        /// Why.
        error: DecodeError,
    },
    /// The store failed.
    Store(E),
    /// A batch write failed; `failed` lists the keys that were not written.
    Batch(BatchError<E>),
    /// A stored row's cells are not a value of the table's value type (a typed table of
    /// cells, [`CellTable`](super::CellTable)).
    Value {
        /// The row key.
        key: Vec<u8>,
        /// Which column, and why.
        error: crate::value::ValueError,
    },
    /// A stored entry is not a cell of the composite layout (a key-value store holding rows
    /// that were not written as cells).
    Malformed(crate::store::MalformedCell),
}

impl<E> From<crate::store::CellError<E>> for TableError<E> {
    fn from(e: crate::store::CellError<E>) -> Self {
        match e {
            crate::store::CellError::Store(e) => TableError::Store(e),
            crate::store::CellError::Malformed(m) => TableError::Malformed(m),
        }
    }
}

impl<E: fmt::Display> fmt::Display for TableError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Encode {
                index: Some(index),
                error,
            } => write!(f, "key {index} of the batch cannot be encoded: {error}"),
            TableError::Encode { index: None, error } => {
                write!(f, "the key cannot be encoded: {error}")
            }
            TableError::Decode { key, error } => {
                write!(
                    f,
                    "stored key {} is not a key of this table: {error}",
                    crate::fmt::binary(key)
                )
            }
            TableError::Store(e) => write!(f, "store error: {e}"),
            TableError::Batch(e) => write!(f, "batch write failed: {e}"),
            TableError::Value { key, error } => {
                write!(f, "row {}: {error}", crate::fmt::binary(key))
            }
            TableError::Malformed(m) => m.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for TableError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableError::Encode { error, .. } => Some(error),
            TableError::Decode { error, .. } => Some(error),
            TableError::Store(e) => Some(e),
            TableError::Batch(e) => Some(e),
            TableError::Value { error, .. } => Some(error),
            TableError::Malformed(m) => Some(m),
        }
    }
}

/// The error of a single-key operation whose key cannot be encoded.
pub(crate) fn single<E>(error: EncodeError) -> TableError<E> {
    TableError::Encode { index: None, error }
}

/// How a scan decodes its rows; see [`Table::scan`] and [`Table::scan_verified`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Check {
    /// `decode_trusted`: every check but re-hashing the salted fields.
    Trusted,
    /// `decode`: the salt byte re-hashed too.
    Verified,
}

pub(crate) fn decode_row<K: RowKey + for<'de> Decode<'de>, E>(
    (key, value): Row,
    check: Check,
) -> Result<(K, Bytes), TableError<E>> {
    decode_checked(&key, check).map(|k| (k, value))
}

/// Decodes a stored key with a scan's checks.
#[inline]
pub(crate) fn decode_checked<K: RowKey + for<'de> Decode<'de>, E>(
    key: &[u8],
    check: Check,
) -> Result<K, TableError<E>> {
    let decoded = match check {
        Check::Trusted => K::decode_trusted(key),
        Check::Verified => K::decode(key),
    };
    decoded.map_err(|error| undecoded(key, error))
}

/// The error of a key that did not decode (out of a scan's loop).
#[cold]
#[inline(never)]
fn undecoded<E>(key: &[u8], error: DecodeError) -> TableError<E> {
    TableError::Decode {
        key: key.to_vec(),
        error,
    }
}

/// Encodes every key of a batch before anything is written: a key that cannot be encoded fails
/// the whole batch, naming its index.
///
/// Keys and values are written one after another into shared buffers of [`CHUNK`] bytes and
/// handed out as views of them: no allocation per row, and a store that keeps the rows (fjall's
/// memtable) shares them instead of copying.
pub(crate) fn encode_batch<'r, K: RowKey + 'r, V: AsRef<[u8]> + 'r, E>(
    rows: impl IntoIterator<Item = (&'r K, V)>,
) -> Result<Vec<Row>, TableError<E>> {
    let rows = rows.into_iter();
    let mut encoded = Vec::with_capacity(rows.size_hint().0);
    let mut buf = BytesMut::new();
    for (index, (key, value)) in rows.enumerate() {
        let error = |error| TableError::Encode {
            index: Some(index),
            error,
        };
        let len = key.__checked_len().map_err(error)?;
        let value = value.as_ref();
        if buf.capacity() < len + value.len() {
            // A new chunk; the rows already handed out keep the old one alive.
            buf = BytesMut::with_capacity((len + value.len()).max(CHUNK));
        }
        buf.resize(len, 0);
        key.encode_to_slice(&mut buf).map_err(error)?;
        let k = buf.split().freeze();
        buf.extend_from_slice(value);
        encoded.push((k, buf.split().freeze()));
    }
    Ok(encoded)
}

/// What [`IndexedTable::check`] (or its async twin's) found.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexReport<K> {
    /// Records named by index entries that have no record (left by a failed put or delete).
    pub orphans: Vec<K>,
    /// Records without an index entry (never produced by `IndexedTable`; written to the
    /// records table by other means, or an index built before the records were complete).
    pub missing: Vec<K>,
    /// Index entries read.
    pub entries: usize,
    /// Records read.
    pub records: usize,
}

impl<K> IndexReport<K> {
    /// Whether index and records agree.
    pub fn is_clean(&self) -> bool {
        self.orphans.is_empty() && self.missing.is_empty()
    }

    /// The rows a repair deals with: orphans and missing records.
    pub fn len(&self) -> usize {
        self.orphans.len() + self.missing.len()
    }

    /// Whether a repair has nothing to do ([`is_clean`](Self::is_clean)).
    pub fn is_empty(&self) -> bool {
        self.is_clean()
    }
}

/// How far an index [`check`](IndexedTable::check_with_progress),
/// [`rebuild`](IndexedTable::rebuild_index_with_progress) or
/// [`repair`](IndexedTable::repair_with_progress) has come: told to the caller's callback
/// every [`IndexProgress::EVERY`] rows and once at the end of each step, for a progress bar or
/// a log line (the library prints nothing). The row counts are the step's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct IndexProgress {
    /// The step under way.
    pub step: IndexStep,
    /// Rows of this step done so far.
    pub done: u64,
    /// The step's rows, where known before it starts (a repair's: the report's orphans and
    /// missing records); a scan of a whole table does not know its size.
    pub total: Option<u64>,
}

impl IndexProgress {
    /// How often the callback is told, in rows.
    pub const EVERY: u64 = 1_000;

    pub(super) fn of(step: IndexStep, done: u64, total: Option<u64>) -> Self {
        IndexProgress { step, done, total }
    }
}

/// The steps of an index's upkeep ([`IndexProgress::step`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum IndexStep {
    /// A check reads every index entry and looks up its record.
    CheckEntries,
    /// A check reads every record and looks up its entry.
    CheckRecords,
    /// A rebuild reads every record and writes its entry.
    Rebuild,
    /// A repair removes orphaned entries and writes missing ones.
    Repair,
}

/// The size of the buffers a batch is encoded into (a larger row gets a buffer of its own
/// size).
const CHUNK: usize = 64 * 1024;

/// The twins cannot drift: every typed table offers the same public operations blocking and
/// async. A method added to one flavour only fails this test until its twin has it too.
#[cfg(all(test, feature = "async"))]
mod twins {
    use std::collections::BTreeSet;

    /// The names of the public methods a source file defines (`pub fn` and `pub async fn`).
    fn methods(src: &str) -> BTreeSet<&str> {
        src.lines()
            .filter_map(|l| {
                let l = l.trim_start();
                l.strip_prefix("pub async fn ")
                    .or_else(|| l.strip_prefix("pub fn "))
            })
            .map(|rest| {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                &rest[..end]
            })
            .collect()
    }

    #[test]
    fn every_table_has_the_same_methods_blocking_and_async() {
        let pairs = [
            (
                "Table",
                include_str!("raw.rs"),
                include_str!("raw_async.rs"),
            ),
            (
                "CellTable",
                include_str!("cells.rs"),
                include_str!("cells_async.rs"),
            ),
            (
                "WideTable",
                include_str!("wide.rs"),
                include_str!("wide_async.rs"),
            ),
            (
                "IndexedTable",
                include_str!("indexed.rs"),
                include_str!("indexed_async.rs"),
            ),
            (
                "UidTable",
                include_str!("uid.rs"),
                include_str!("uid_async.rs"),
            ),
            (
                "Table (queries)",
                include_str!("query.rs"),
                include_str!("query_async.rs"),
            ),
        ];
        for (table, blocking, nonblocking) in pairs {
            let (b, a) = (methods(blocking), methods(nonblocking));
            assert!(b.len() >= 3, "{table}: the parser found {b:?}");
            assert_eq!(
                b.difference(&a).collect::<Vec<_>>(),
                Vec::<&&str>::new(),
                "{table} has methods its async twin lacks"
            );
            assert_eq!(
                a.difference(&b).collect::<Vec<_>>(),
                Vec::<&&str>::new(),
                "Async{table} has methods its blocking twin lacks"
            );
        }
    }
}
