//! [`MemStore`]: a sorted in-memory store (a `BTreeMap` behind a lock), for tests and examples.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::ops::Bound;
use std::sync::RwLock;

use bytes::Bytes;

use super::{composite, BatchError, CellError, Row, RowWrite, Store};
use crate::scan::KeyRange;

/// A sorted in-memory store, blocking ([`Store`]) and async (`AsyncStore`, feature `async`). Scans take the range's rows when they start (shared buffers, not copies),
/// so they see a consistent snapshot.
#[derive(Default)]
pub struct MemStore {
    rows: RwLock<BTreeMap<Bytes, Bytes>>,
}

impl MemStore {
    /// An empty store.
    pub fn new() -> Self {
        MemStore::default()
    }

    /// How many rows it holds.
    pub fn len(&self) -> usize {
        self.read().len()
    }

    /// Whether it holds no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<Bytes, Bytes>> {
        // A panic while holding the lock cannot leave the map half-written: every operation
        // is a single map call.
        self.rows
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<Bytes, Bytes>> {
        self.rows
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn collect(&self, range: &KeyRange) -> Vec<Row> {
        let end = match range.end() {
            // An empty or inverted range holds nothing (`BTreeMap::range` would panic).
            Some(e) if e <= range.start() => return Vec::new(),
            Some(e) => Bound::Excluded(e),
            None => Bound::Unbounded,
        };
        self.read()
            .range::<[u8], _>((Bound::Included(range.start()), end))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }
}

impl Store for MemStore {
    type Error = Infallible;
    type Scan<'a> = std::iter::Map<std::vec::IntoIter<Row>, fn(Row) -> Result<Row, Infallible>>;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Infallible> {
        self.write()
            .insert(Bytes::copy_from_slice(key), Bytes::copy_from_slice(value));
        Ok(())
    }

    fn get(&self, key: &[u8]) -> Result<Option<Bytes>, Infallible> {
        Ok(self.read().get(key).cloned())
    }

    fn delete(&self, key: &[u8]) -> Result<(), Infallible> {
        self.write().remove(key);
        Ok(())
    }

    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<Infallible>> {
        let mut map = self.write();
        // Copies, so that each row owns its bytes: a row sharing a batch's buffer would keep
        // the whole buffer alive for as long as the map holds it.
        for (k, v) in rows {
            map.insert(Bytes::copy_from_slice(k), Bytes::copy_from_slice(v));
        }
        Ok(())
    }

    fn scan(&self, range: &KeyRange) -> Self::Scan<'_> {
        self.collect(range).into_iter().map(Ok)
    }

    fn scan_rev(&self, range: &KeyRange) -> Option<Self::Scan<'_>> {
        let mut rows = self.collect(range);
        rows.reverse();
        Some(rows.into_iter().map(Ok))
    }

    /// Each row is gathered in buffers the scan refills and lent, as fjall does.
    fn scan_rows_lent<'a, T, F>(
        &'a self,
        range: &KeyRange,
        columns: &super::Columns,
        reverse: bool,
        make: F,
    ) -> Option<super::LentScan<'a, T, CellError<Infallible>>>
    where
        T: 'a,
        F: FnMut(&[u8], super::LentCells<'_>) -> T + 'a,
    {
        let range = composite::rows_range(range);
        let rows = if reverse {
            self.scan_rev(&range)?
        } else {
            self.scan(&range)
        };
        Some(Box::new(composite::LentGrouped::new(
            rows,
            columns.clone(),
            make,
        )))
    }

    /// Atomic: the whole batch under one lock.
    fn write_rows(&self, rows: &[RowWrite]) -> Result<(), BatchError<Infallible>> {
        let mut map = self.write();
        for r in rows {
            for c in &r.set {
                map.insert(
                    composite::cell_key(&r.key, &c.family, &c.qualifier).into(),
                    c.value.clone(),
                );
            }
            for c in &r.clear {
                map.remove(composite::cell_key(&r.key, &c.family, &c.qualifier).as_slice());
            }
        }
        Ok(())
    }

    /// The row's cells only (a range of the map), not a walk of the whole table.
    fn delete_row(&self, key: &[u8]) -> Result<(), CellError<Infallible>> {
        let range = composite::row_range(key);
        let end = range.end().expect("a row's range is bounded");
        let mut map = self.write();
        let cells: Vec<Bytes> = map
            .range::<[u8], _>((Bound::Included(range.start()), Bound::Excluded(end)))
            .map(|(k, _)| k.clone())
            .collect();
        for k in cells {
            map.remove(&k);
        }
        Ok(())
    }
}

#[cfg(feature = "async")]
impl super::AsyncStore for MemStore {
    type Error = Infallible;

    async fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Infallible> {
        Store::put(self, key, value)
    }

    async fn get(&self, key: &[u8]) -> Result<Option<Bytes>, Infallible> {
        Store::get(self, key)
    }

    async fn delete(&self, key: &[u8]) -> Result<(), Infallible> {
        Store::delete(self, key)
    }

    async fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<Infallible>> {
        Store::write_batch(self, rows)
    }

    fn scan(&self, range: &KeyRange) -> super::RowStream<Infallible> {
        Box::pin(futures_util::stream::iter(Store::scan(self, range)))
    }

    fn scan_rev(&self, range: &KeyRange) -> Option<super::RowStream<Infallible>> {
        Some(Box::pin(futures_util::stream::iter(Store::scan_rev(
            self, range,
        )?)))
    }

    async fn write_rows(&self, rows: &[RowWrite]) -> Result<(), BatchError<Infallible>> {
        Store::write_rows(self, rows)
    }

    async fn read_row(
        &self,
        key: &[u8],
        columns: &super::Columns,
    ) -> Result<Option<super::CellRow>, CellError<Infallible>> {
        Store::read_row(self, key, columns)
    }

    async fn delete_row(&self, key: &[u8]) -> Result<(), CellError<Infallible>> {
        Store::delete_row(self, key)
    }

    fn scan_rows(
        &self,
        range: &KeyRange,
        columns: &super::Columns,
    ) -> super::CellStream<Infallible> {
        // The scan reads a snapshot when it starts, so collecting it here changes nothing.
        let rows: Vec<_> = Store::scan_rows(self, range, columns).collect();
        Box::pin(futures_util::stream::iter(rows))
    }

    fn scan_rows_rev(
        &self,
        range: &KeyRange,
        columns: &super::Columns,
    ) -> Option<super::CellStream<Infallible>> {
        let rows: Vec<_> = Store::scan_rows_rev(self, range, columns)?.collect();
        Some(Box::pin(futures_util::stream::iter(rows)))
    }
}

/// Under the map's write lock: atomic against every other operation on the store.
impl super::AtomicStore for MemStore {
    fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, super::AtomicError<Infallible>> {
        let cell = composite::cell_key(key, family, qualifier);
        let mut map = self.write();
        let next = super::atomic::next_counter(map.get(&cell[..]).map(|v| &v[..]), delta)?;
        map.insert(
            cell.into(),
            Bytes::copy_from_slice(&super::counter_bytes(next)),
        );
        Ok(next)
    }

    fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, super::AtomicError<Infallible>> {
        let cell = composite::cell_key(key, family, qualifier);
        let mut map = self.write();
        if !super::atomic::holds(map.get(&cell[..]).map(|v| &v[..]), expected) {
            return Ok(false);
        }
        match new {
            Some(v) => map.insert(cell.into(), Bytes::copy_from_slice(v)),
            None => map.remove(&cell[..]),
        };
        Ok(true)
    }
}

#[cfg(feature = "async")]
impl super::AsyncAtomicStore for MemStore {
    async fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, super::AtomicError<Infallible>> {
        super::AtomicStore::increment(self, key, family, qualifier, delta)
    }

    async fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, super::AtomicError<Infallible>> {
        super::AtomicStore::check_and_set(self, key, family, qualifier, expected, new)
    }
}
