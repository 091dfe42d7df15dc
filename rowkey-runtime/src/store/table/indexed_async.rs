//! [`AsyncIndexedTable`]: the async twin of [`IndexedTable`](super::IndexedTable), records and
//! their index entries over an [`AsyncStore`], with the same write order and so the same
//! guarantees without transactions (the module docs of `indexed.rs` say which, and what
//! concurrent readers and writers observe). Reads through the index keep several record gets
//! in flight, in the index's order.

use bytes::Bytes;
use futures_util::{Stream, StreamExt};

use super::indexed::Every;
use super::indexed::{decode, everything};
use super::{AsyncTable, IndexProgress, IndexReport, IndexStep, TableError};
use crate::field::Decode;
use crate::key::RowKey;
use crate::scan::KeyRanges;
use crate::store::AsyncStore;
use crate::IndexOf;

/// How many record gets a read through the index keeps in flight: enough to hide a network
/// store's round trip behind the next ones, few enough not to flood it.
const GETS_IN_FLIGHT: usize = 16;

/// Records keyed by `K` and their index entries keyed by `I`, in two async stores of one kind:
/// [`IndexedTable`](super::IndexedTable) for a tokio service.
pub struct AsyncIndexedTable<S, K, I> {
    records: AsyncTable<S, K>,
    index: AsyncTable<S, I>,
}

impl<S, K, I> AsyncIndexedTable<S, K, I>
where
    S: AsyncStore,
    K: RowKey + for<'de> Decode<'de>,
    I: RowKey + IndexOf<K> + for<'de> Decode<'de>,
{
    /// The records in `records`, their index entries in `index`.
    pub fn new(records: S, index: S) -> Self {
        AsyncIndexedTable {
            records: AsyncTable::new(records),
            index: AsyncTable::new(index),
        }
    }

    /// The records table.
    pub fn records(&self) -> &AsyncTable<S, K> {
        &self.records
    }

    /// The index table.
    pub fn index(&self) -> &AsyncTable<S, I> {
        &self.index
    }

    /// Writes a record and its index entry: the entry, the record, the entry again
    /// ([`IndexedTable::put`](super::IndexedTable::put)).
    pub async fn put(&self, key: &K, value: &[u8]) -> Result<(), TableError<S::Error>> {
        let entry = I::from_record(key);
        self.index.put(&entry, &[]).await?;
        self.records.put(key, value).await?;
        self.index.put(&entry, &[]).await
    }

    /// Writes many records: their entries as one batch, then the records, then the entries
    /// again ([`IndexedTable::put_batch`](super::IndexedTable::put_batch), with its errors).
    pub async fn put_batch<'r, V: AsRef<[u8]> + 'r>(
        &self,
        rows: impl IntoIterator<Item = (&'r K, V)>,
    ) -> Result<(), TableError<S::Error>>
    where
        K: 'r,
    {
        let rows: Vec<(&K, V)> = rows.into_iter().collect();
        let entries: Vec<I> = rows.iter().map(|(k, _)| I::from_record(k)).collect();
        self.index
            .put_batch(entries.iter().map(|e| (e, &[][..])))
            .await?;
        self.records
            .put_batch(rows.iter().map(|(k, v)| (*k, v.as_ref())))
            .await?;
        self.index
            .put_batch(entries.iter().map(|e| (e, &[][..])))
            .await
    }

    /// Reads a record by its own key.
    pub async fn get(&self, key: &K) -> Result<Option<Bytes>, TableError<S::Error>> {
        self.records.get(key).await
    }

    /// Deletes a record and its index entry: the record first.
    pub async fn delete(&self, key: &K) -> Result<(), TableError<S::Error>> {
        self.records.delete(key).await?;
        self.index.delete(&I::from_record(key)).await
    }

    /// The records whose index entries fall in `ranges` (from `I::scan()`), in the index's
    /// order: each entry is followed to its record, up to 16 gets in flight at once, and an
    /// entry whose record is missing is skipped. A failed read is handed out in its place.
    pub fn scan_by_index<'a>(
        &'a self,
        ranges: &KeyRanges,
    ) -> impl Stream<Item = Result<(K, Bytes), TableError<S::Error>>> + 'a {
        self.index
            .scan(ranges)
            .map(move |entry| async move {
                let record = entry?.0.to_record();
                Ok(self
                    .records
                    .get(&record)
                    .await?
                    .map(|value| (record, value)))
            })
            .buffered(GETS_IN_FLIGHT)
            .filter_map(|found| async move { found.transpose() })
    }

    /// Writes the index entry of every record, in batches of `batch` rows; returns the number
    /// of records indexed ([`IndexedTable::rebuild_index`](super::IndexedTable::rebuild_index)).
    pub async fn rebuild_index(&self, batch: usize) -> Result<usize, TableError<S::Error>> {
        self.rebuild_index_with_progress(batch, |_| {}).await
    }

    /// [`rebuild_index`](Self::rebuild_index) with its progress
    /// ([`IndexedTable::rebuild_index_with_progress`](super::IndexedTable::rebuild_index_with_progress)).
    pub async fn rebuild_index_with_progress(
        &self,
        batch: usize,
        mut progress: impl FnMut(IndexProgress),
    ) -> Result<usize, TableError<S::Error>> {
        let mut done = 0;
        let mut entries: Vec<I> = Vec::with_capacity(batch.max(1));
        let mut rows = self.records.store().scan(&everything());
        while let Some(row) = rows.next().await {
            let (k, _) = row.map_err(TableError::Store)?;
            entries.push(I::from_record(&decode::<S::Error, K>(&k)?));
            if entries.len() >= batch.max(1) {
                self.index
                    .put_batch(entries.iter().map(|e| (e, &[][..])))
                    .await?;
                done += entries.len();
                entries.clear();
                progress(IndexProgress::of(IndexStep::Rebuild, done as u64, None));
            }
        }
        self.index
            .put_batch(entries.iter().map(|e| (e, &[][..])))
            .await?;
        done += entries.len();
        progress(IndexProgress::of(IndexStep::Rebuild, done as u64, None));
        Ok(done)
    }

    /// Compares index and records in full: entries without records, records without entries
    /// ([`IndexedTable::check`](super::IndexedTable::check)).
    pub async fn check(&self) -> Result<IndexReport<K>, TableError<S::Error>> {
        self.check_with_progress(|_| {}).await
    }

    /// [`check`](Self::check) with its progress
    /// ([`IndexedTable::check_with_progress`](super::IndexedTable::check_with_progress)).
    pub async fn check_with_progress(
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
        let mut entries = self.index.store().scan(&everything());
        while let Some(row) = entries.next().await {
            let (k, _) = row.map_err(TableError::Store)?;
            let record = decode::<S::Error, I>(&k)?.to_record();
            report.entries += 1;
            if self.records.get(&record).await?.is_none() {
                report.orphans.push(record);
            }
            tell.one(&mut progress);
        }
        tell.end(&mut progress);
        let mut tell = Every::new(IndexStep::CheckRecords, None);
        let mut records = self.records.store().scan(&everything());
        while let Some(row) = records.next().await {
            let (k, _) = row.map_err(TableError::Store)?;
            let record = decode::<S::Error, K>(&k)?;
            report.records += 1;
            if self.index.get(&I::from_record(&record)).await?.is_none() {
                report.missing.push(record);
            }
            tell.one(&mut progress);
        }
        tell.end(&mut progress);
        Ok(report)
    }

    /// Removes the orphaned entries and writes the missing ones a [`check`](Self::check)
    /// found, safe beside writers ([`IndexedTable::repair`](super::IndexedTable::repair)).
    pub async fn repair(&self, report: &IndexReport<K>) -> Result<(), TableError<S::Error>> {
        self.repair_with_progress(report, |_| {}).await
    }

    /// [`repair`](Self::repair) with its progress
    /// ([`IndexedTable::repair_with_progress`](super::IndexedTable::repair_with_progress)).
    pub async fn repair_with_progress(
        &self,
        report: &IndexReport<K>,
        mut progress: impl FnMut(IndexProgress),
    ) -> Result<(), TableError<S::Error>> {
        let mut tell = Every::new(IndexStep::Repair, Some(report.len() as u64));
        for record in &report.orphans {
            tell.one(&mut progress);
            if self.records.get(record).await?.is_some() {
                continue;
            }
            let entry = I::from_record(record);
            self.index.delete(&entry).await?;
            if self.records.get(record).await?.is_some() {
                self.index.put(&entry, &[]).await?;
            }
        }
        for chunk in report.missing.chunks(IndexProgress::EVERY as usize) {
            let entries: Vec<I> = chunk.iter().map(I::from_record).collect();
            self.index
                .put_batch(entries.iter().map(|e| (e, &[][..])))
                .await?;
            tell.many(chunk.len() as u64, &mut progress);
        }
        tell.end(&mut progress);
        Ok(())
    }
}
