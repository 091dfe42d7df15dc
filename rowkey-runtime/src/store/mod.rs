//! Stores: the operations rowkey needs of a sorted key-value store ([`Store`]), an in-memory
//! store for tests ([`MemStore`]), the embedded LSM store ([`FjallStore`], feature `fjall`), and
//! a typed table over any of them ([`Table`]) whose salted scans merge the buckets back into key
//! order.
//!
//! The encoding core does not depend on this module; the stores' dependencies come with their
//! cargo features.

mod memory;
mod table;

#[cfg(feature = "fjall")]
mod fjall_store;

#[cfg(feature = "bigtable")]
mod bigtable_store;

use std::fmt;

pub use memory::MemStore;
pub use table::{Merged, Table, TableError};

#[cfg(feature = "fjall")]
pub use fjall_store::FjallStore;

#[cfg(feature = "bigtable")]
pub use bigtable_store::{BigtableError, BigtableScan, BigtableStore};

use crate::scan::KeyRange;

/// One stored row: key and value bytes.
pub type Row = (Vec<u8>, Vec<u8>);

/// A sorted key-value store: rows ordered by key bytes, as HBase, Bigtable and LSM trees keep
/// them.
pub trait Store {
    /// The store's own error.
    type Error: std::error::Error + Send + Sync + 'static;
    /// A scan's rows, in key order (or reverse key order for [`Store::scan_rev`]), read lazily.
    type Scan<'a>: Iterator<Item = Result<Row, Self::Error>> + 'a
    where
        Self: 'a;

    /// Writes one row, replacing any value under the key.
    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Self::Error>;

    /// Reads one row.
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Self::Error>;

    /// Deletes one row (deleting a missing row is not an error).
    fn delete(&self, key: &[u8]) -> Result<(), Self::Error>;

    /// Writes many rows. On failure the error lists every key that was not written, so nothing
    /// is lost silently: an atomic store lists them all, a store that writes row by row lists
    /// the ones that failed.
    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<Self::Error>>;

    /// The rows of one range, in key order.
    fn scan(&self, range: &KeyRange) -> Self::Scan<'_>;

    /// The rows of one range in reverse key order, where the store supports it (`None`
    /// otherwise; HBase has reverse scans, Bigtable has none).
    fn scan_rev(&self, range: &KeyRange) -> Option<Self::Scan<'_>>;
}

/// A batch write that did not complete: which keys were not written, and why.
#[derive(Debug)]
pub struct BatchError<E> {
    /// The keys that were not written; write them again.
    pub failed: Vec<Vec<u8>>,
    /// The first underlying error.
    pub source: E,
}

impl<E: fmt::Display> fmt::Display for BatchError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} row(s) not written: {}",
            self.failed.len(),
            self.source
        )
    }
}

impl<E: std::error::Error + 'static> std::error::Error for BatchError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}
