//! [`IndexedTable`]: records in one table and a second order of them (an [`IndexOf`] key) in
//! another, written, deleted and read together: the guide's dual-write secondary index and the
//! Flurry article's second table.
//!
//! **No transaction, no wrong read.** Stores have no multi-row transactions, so a failure can
//! land between the two writes. The order makes every such state harmless:
//!
//! - a put writes the index entry first, then the record, then the entry once more (see
//!   below): a failure after the first write leaves an entry whose record is missing;
//! - a delete removes the record first, then the entry: a failure between leaves the same;
//! - a read through the index follows each entry to its record and skips an entry whose record
//!   is missing.
//!
//! An entry is built from the record's own key fields ([`IndexOf::from_record`]), and an index
//! holds every field of its record, so an entry names exactly one record and can never point
//! at a wrong one. A reader therefore sees exactly the records stored, whatever failed; the
//! only residue is entries without records, which [`IndexedTable::check`] reports and
//! [`IndexedTable::repair`] removes.
//!
//! **Concurrent writers.** Each store operation is on one row and atomic (as on HBase,
//! Bigtable and the embedded stores); nothing spans the two tables. What other processes can
//! observe:
//!
//! - while a put is under way, a reader through the index may see its entry before its record
//!   (and skips it) and a reader of the records may see the record before the put returns;
//!   once a put returns, both readers see the record;
//! - while a delete is under way, a reader may see the record gone and its entry still there
//!   (skipped);
//! - `check` reads the two tables one after the other, not as one snapshot: a record written or
//!   deleted while it runs may be reported as an orphan or as missing. `repair` re-reads before
//!   it acts, so a stale report does no harm: it removes an orphan's entry only when the record
//!   is still absent, then reads the record once more and writes the entry back if a put has
//!   stored it meanwhile; and a put writes its entry again after its record. Whichever of the
//!   two finishes last leaves the entry in place, so a completed put always has its entry, with
//!   `repair` running or not (every interleaving of the two is tested). The price is one more
//!   write of the entry, an empty row, per put;
//! - a put and a delete of the same record racing each other may leave an orphan entry
//!   (harmless, removed by the next repair), never a record without its entry.

use super::{IndexProgress, IndexReport, IndexStep, Table, TableError};
use crate::scan::{KeyRange, KeyRanges};
use crate::store::Store;
use crate::{Decode, IndexOf, RowKey};
use bytes::Bytes;

/// Records keyed by `K` and their index entries keyed by `I`, in two stores of one kind.
pub struct IndexedTable<S, K, I> {
    records: Table<S, K>,
    index: Table<S, I>,
}

/// Rows of a whole table: one range over every key.
pub(super) fn everything() -> KeyRange {
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

    /// Writes a record and its index entry: the entry first, then the record, then the entry
    /// again, so that a [`repair`](Self::repair) running meanwhile cannot leave the record
    /// without its entry (see the module docs). An error after the record is written means the
    /// entry's second write failed; the entry may be gone if a repair ran: put again.
    pub fn put(&self, key: &K, value: &[u8]) -> Result<(), TableError<S::Error>> {
        let entry = I::from_record(key);
        self.index.put(&entry, &[])?;
        self.records.put(key, value)?;
        self.index.put(&entry, &[])
    }

    /// Writes many records: their index entries first, as one batch, then the records, then
    /// the entries again (as [`put`](Self::put)). If the entries fail, no record is written and
    /// the error lists the entries' keys not written; if the records fail, it lists the records
    /// not written (their entries are harmless); if the second writing of the entries fails,
    /// it lists those entries: put their records again.
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
            .put_batch(rows.iter().map(|(k, v)| (*k, v.as_ref())))?;
        self.index.put_batch(entries.iter().map(|e| (e, &[][..])))
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
        self.rebuild_index_with_progress(batch, |_| {})
    }

    /// [`rebuild_index`](Self::rebuild_index), telling `progress` the records indexed so far
    /// after each batch written ([`IndexProgress`]): a rebuild over millions of records takes
    /// minutes on a network store.
    pub fn rebuild_index_with_progress(
        &self,
        batch: usize,
        mut progress: impl FnMut(IndexProgress),
    ) -> Result<usize, TableError<S::Error>> {
        let mut done = 0;
        let mut entries: Vec<I> = Vec::with_capacity(batch.max(1));
        for row in self.records.store().scan(&everything()) {
            let (k, _) = row.map_err(TableError::Store)?;
            let record = decode::<S::Error, K>(&k)?;
            entries.push(I::from_record(&record));
            if entries.len() >= batch.max(1) {
                self.index.put_batch(entries.iter().map(|e| (e, &[][..])))?;
                done += entries.len();
                entries.clear();
                progress(IndexProgress::of(IndexStep::Rebuild, done as u64, None));
            }
        }
        self.index.put_batch(entries.iter().map(|e| (e, &[][..])))?;
        done += entries.len();
        progress(IndexProgress::of(IndexStep::Rebuild, done as u64, None));
        Ok(done)
    }

    /// Compares index and records in full: entries without records, records without
    /// entries. Reads every row of both tables (one get per row of each).
    pub fn check(&self) -> Result<IndexReport<K>, TableError<S::Error>> {
        self.check_with_progress(|_| {})
    }

    /// [`check`](Self::check), telling `progress` the rows read so far in each of its two
    /// steps, every [`IndexProgress::EVERY`] rows and at the end of each.
    pub fn check_with_progress(
        &self,
        mut progress: impl FnMut(IndexProgress),
    ) -> Result<IndexReport<K>, TableError<S::Error>> {
        let mut report = IndexReport {
            orphans: Vec::new(),
            missing: Vec::new(),
            entries: 0,
            records: 0,
        };
        let mut tell = Every::new(IndexStep::CheckEntries, None);
        for row in self.index.store().scan(&everything()) {
            let (k, _) = row.map_err(TableError::Store)?;
            let record = decode::<S::Error, I>(&k)?.to_record();
            report.entries += 1;
            if self.records.get(&record)?.is_none() {
                report.orphans.push(record);
            }
            tell.one(&mut progress);
        }
        tell.end(&mut progress);
        let mut tell = Every::new(IndexStep::CheckRecords, None);
        for row in self.records.store().scan(&everything()) {
            let (k, _) = row.map_err(TableError::Store)?;
            let record = decode::<S::Error, K>(&k)?;
            report.records += 1;
            if self.index.get(&I::from_record(&record))?.is_none() {
                report.missing.push(record);
            }
            tell.one(&mut progress);
        }
        tell.end(&mut progress);
        Ok(report)
    }

    /// Removes the orphaned entries and writes the missing ones a [`check`](Self::check)
    /// found; safe to run while writers use the table. An orphan whose record has been written
    /// since is kept: its record is read before the entry is removed and once more after, and
    /// the entry is written back if the record is there by then (a put racing the removal
    /// writes its entry again itself; see the module docs). The missing entries are written in
    /// batches of [`IndexProgress::EVERY`]: after an error, some may be written and the rest
    /// not; checking and repairing again finishes the work.
    pub fn repair(&self, report: &IndexReport<K>) -> Result<(), TableError<S::Error>> {
        self.repair_with_progress(report, |_| {})
    }

    /// [`repair`](Self::repair), telling `progress` the orphans and missing records dealt with
    /// so far, of [`IndexProgress::total`]: every [`IndexProgress::EVERY`] and at the end.
    pub fn repair_with_progress(
        &self,
        report: &IndexReport<K>,
        mut progress: impl FnMut(IndexProgress),
    ) -> Result<(), TableError<S::Error>> {
        let mut tell = Every::new(IndexStep::Repair, Some(report.len() as u64));
        for record in &report.orphans {
            tell.one(&mut progress);
            if self.records.get(record)?.is_some() {
                continue;
            }
            let entry = I::from_record(record);
            self.index.delete(&entry)?;
            if self.records.get(record)?.is_some() {
                self.index.put(&entry, &[])?;
            }
        }
        for chunk in report.missing.chunks(IndexProgress::EVERY as usize) {
            let entries: Vec<I> = chunk.iter().map(I::from_record).collect();
            self.index.put_batch(entries.iter().map(|e| (e, &[][..])))?;
            tell.many(chunk.len() as u64, &mut progress);
        }
        tell.end(&mut progress);
        Ok(())
    }
}

/// Tells a progress callback every [`IndexProgress::EVERY`] rows of one step, and at its end.
pub(super) struct Every {
    step: IndexStep,
    total: Option<u64>,
    done: u64,
}

impl Every {
    pub(super) fn new(step: IndexStep, total: Option<u64>) -> Self {
        Every {
            step,
            total,
            done: 0,
        }
    }

    pub(super) fn one(&mut self, progress: &mut impl FnMut(IndexProgress)) {
        self.many(1, progress);
    }

    pub(super) fn many(&mut self, n: u64, progress: &mut impl FnMut(IndexProgress)) {
        let before = self.done / IndexProgress::EVERY;
        self.done += n;
        if self.done / IndexProgress::EVERY != before {
            progress(IndexProgress::of(self.step, self.done, self.total));
        }
    }

    pub(super) fn end(self, progress: &mut impl FnMut(IndexProgress)) {
        progress(IndexProgress::of(self.step, self.done, self.total));
    }
}

/// Decodes a stored key, checking it in full (another writer's row is reported, not misread).
pub(super) fn decode<E, T: RowKey + for<'de> Decode<'de>>(
    bytes: &[u8],
) -> Result<T, TableError<E>> {
    T::decode(bytes).map_err(|error| TableError::Decode {
        key: bytes.to_vec(),
        error,
    })
}
