//! [`IndexedTable`]: records in one table and a second order of them (an [`IndexOf`] key) in
//! another, written, deleted and read together: the guide's dual-write secondary index and the
//! Flurry article's second table.
//!
//! **No transaction, no wrong read.** Stores have no multi-row transactions, so a failure can
//! land between the two writes. The order makes every such state harmless:
//!
//! - a put writes the index entry first, then the record: a failure between leaves an entry
//!   whose record is missing;
//! - a delete removes the record first, then the entry: a failure between leaves the same;
//! - a read through the index follows each entry to its record and skips an entry whose record
//!   is missing.
//!
//! An entry is built from the record's own key fields ([`IndexOf::from_record`]), and an index
//! holds every field of its record, so an entry names exactly one record and can never point
//! at a wrong one; a record is never stored without its entry. A reader therefore sees exactly
//! the records stored, whatever failed; the only residue is entries without records, which
//! [`IndexedTable::check`] reports and [`IndexedTable::repair`] removes.

use super::{Store, Table, TableError};
use crate::scan::{KeyRange, KeyRanges};
use crate::{Decode, IndexOf, RowKey};
use bytes::Bytes;

/// Records keyed by `K` and their index entries keyed by `I`, in two stores of one kind.
pub struct IndexedTable<S, K, I> {
    records: Table<S, K>,
    index: Table<S, I>,
}

/// What [`IndexedTable::check`] found.
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
}

/// Rows of a whole table: one range over every key.
fn everything() -> KeyRange {
    KeyRange::new(&[], None)
}

impl<S, K, I> IndexedTable<S, K, I>
where
    S: Store,
    K: RowKey + for<'de> Decode<'de>,
    I: RowKey + IndexOf<K> + for<'de> Decode<'de>,
{
    /// The records in `records`, their index entries in `index`.
    pub fn new(records: S, index: S) -> Self {
        IndexedTable {
            records: Table::new(records),
            index: Table::new(index),
        }
    }

    /// The records table.
    pub fn records(&self) -> &Table<S, K> {
        &self.records
    }

    /// The index table.
    pub fn index(&self) -> &Table<S, I> {
        &self.index
    }

    /// Writes a record and its index entry: the entry first (see the module docs).
    pub fn put(&self, key: &K, value: &[u8]) -> Result<(), TableError<S::Error>> {
        self.index.put(&I::from_record(key), &[])?;
        self.records.put(key, value)
    }

    /// Writes many records: their index entries first, as one batch, then the records. If the
    /// entries fail, no record is written and the error lists the entries' keys not written;
    /// if the records fail, it lists the records not written (their entries are harmless).
    pub fn put_batch<'r, V: AsRef<[u8]> + 'r>(
        &self,
        rows: impl IntoIterator<Item = (&'r K, V)>,
    ) -> Result<(), TableError<S::Error>>
    where
        K: 'r,
    {
        let rows: Vec<(&K, V)> = rows.into_iter().collect();
        let entries: Vec<I> = rows.iter().map(|(k, _)| I::from_record(k)).collect();
        self.index.put_batch(entries.iter().map(|e| (e, &[][..])))?;
        self.records
            .put_batch(rows.iter().map(|(k, v)| (*k, v.as_ref())))
    }

    /// Reads a record by its own key.
    pub fn get(&self, key: &K) -> Result<Option<Bytes>, TableError<S::Error>> {
        self.records.get(key)
    }

    /// Deletes a record and its index entry: the record first (see the module docs).
    pub fn delete(&self, key: &K) -> Result<(), TableError<S::Error>> {
        self.records.delete(key)?;
        self.index.delete(&I::from_record(key))
    }

    /// The records whose index entries fall in `ranges` (from `I::scan()`), in the index's
    /// order: each entry is followed to its record (one get per entry), and an entry whose
    /// record is missing is skipped.
    pub fn scan_by_index<'a>(
        &'a self,
        ranges: &KeyRanges,
    ) -> impl Iterator<Item = Result<(K, Bytes), TableError<S::Error>>> + 'a {
        self.index.scan(ranges).filter_map(move |entry| {
            let record = match entry {
                Ok((i, _)) => i.to_record(),
                Err(e) => return Some(Err(e)),
            };
            match self.records.get(&record) {
                Ok(Some(value)) => Some(Ok((record, value))),
                Ok(None) => None,
                Err(e) => Some(Err(e)),
            }
        })
    }

    /// Writes the index entry of every record (the guide's periodically rebuilt index, or the
    /// first build of a new index over existing records), in batches of `batch` rows; returns
    /// the number of records indexed. Safe to run while writers use the table.
    pub fn rebuild_index(&self, batch: usize) -> Result<usize, TableError<S::Error>> {
        let mut done = 0;
        let mut entries: Vec<I> = Vec::with_capacity(batch.max(1));
        for row in self.records.store().scan(&everything()) {
            let (k, _) = row.map_err(TableError::Store)?;
            let record = decode::<S, K>(&k)?;
            entries.push(I::from_record(&record));
            if entries.len() >= batch.max(1) {
                self.index.put_batch(entries.iter().map(|e| (e, &[][..])))?;
                done += entries.len();
                entries.clear();
            }
        }
        self.index.put_batch(entries.iter().map(|e| (e, &[][..])))?;
        Ok(done + entries.len())
    }

    /// Compares index and records in full: entries without records, records without
    /// entries. Reads every row of both tables (one get per row of each).
    pub fn check(&self) -> Result<IndexReport<K>, TableError<S::Error>> {
        let mut report = IndexReport {
            orphans: Vec::new(),
            missing: Vec::new(),
            entries: 0,
            records: 0,
        };
        for row in self.index.store().scan(&everything()) {
            let (k, _) = row.map_err(TableError::Store)?;
            let record = decode::<S, I>(&k)?.to_record();
            report.entries += 1;
            if self.records.get(&record)?.is_none() {
                report.orphans.push(record);
            }
        }
        for row in self.records.store().scan(&everything()) {
            let (k, _) = row.map_err(TableError::Store)?;
            let record = decode::<S, K>(&k)?;
            report.records += 1;
            if self.index.get(&I::from_record(&record))?.is_none() {
                report.missing.push(record);
            }
        }
        Ok(report)
    }

    /// Removes the orphaned entries and writes the missing ones a [`check`](Self::check)
    /// found. An orphan whose record has been written since is kept.
    pub fn repair(&self, report: &IndexReport<K>) -> Result<(), TableError<S::Error>> {
        for record in &report.orphans {
            if self.records.get(record)?.is_none() {
                self.index.delete(&I::from_record(record))?;
            }
        }
        let entries: Vec<I> = report.missing.iter().map(I::from_record).collect();
        self.index.put_batch(entries.iter().map(|e| (e, &[][..])))
    }
}

/// Decodes a stored key, checking it in full (another writer's row is reported, not misread).
fn decode<S: Store, T: RowKey + for<'de> Decode<'de>>(
    bytes: &[u8],
) -> Result<T, TableError<S::Error>> {
    T::decode(bytes).map_err(|error| TableError::Decode {
        key: bytes.to_vec(),
        error,
    })
}
