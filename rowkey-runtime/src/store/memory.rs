//! [`MemStore`]: a sorted in-memory store (a `BTreeMap` behind a lock), for tests and examples.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::ops::{Bound, Deref, DerefMut};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use bytes::Bytes;

use super::{composite, BatchError, CellError, Row, RowWrite, Store};
use crate::scan::KeyRange;

type Map = BTreeMap<Bytes, Bytes>;

/// A sorted in-memory store, blocking ([`Store`]) and async (`AsyncStore`, feature `async`).
///
/// A scan reads a snapshot of the store taken when it starts, lazily ([`MemScan`]): starting
/// one costs no copy of its rows, and a write made while a scan still has rows to read (more
/// than its first 256) copies the map once (copy on write), so the scan goes on seeing what it
/// started with.
#[derive(Default)]
pub struct MemStore {
    /// Shared with the open scans' snapshots; a write copies it only while one is open.
    rows: RwLock<Arc<Map>>,
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

    fn read(&self) -> RwLockReadGuard<'_, Arc<Map>> {
        // A panic while holding the lock cannot leave the map half-written: every operation
        // is a single map call.
        self.rows
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> Writing<'_> {
        Writing(
            self.rows
                .write()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        )
    }

    fn scan_from(&self, range: &KeyRange, reverse: bool) -> MemScan {
        let upper = match range.end() {
            // An empty or inverted range holds nothing (`BTreeMap::range` would panic).
            Some(e) if e <= range.start() => None,
            Some(e) => Some(Bound::Excluded(Bytes::copy_from_slice(e))),
            None => Some(Bound::Unbounded),
        };
        MemScan {
            rest: upper.map(|upper| Rest {
                map: Arc::clone(&self.read()),
                lower: Bound::Included(Bytes::copy_from_slice(range.start())),
                upper,
            }),
            reverse,
            read: Vec::new().into_iter(),
            chunk: MemScan::FIRST_CHUNK,
        }
    }
}

/// The map under the write lock: copied on the first change while a scan shares it.
struct Writing<'a>(RwLockWriteGuard<'a, Arc<Map>>);

impl Deref for Writing<'_> {
    type Target = Map;

    fn deref(&self) -> &Map {
        &self.0
    }
}

impl DerefMut for Writing<'_> {
    fn deref_mut(&mut self) -> &mut Map {
        Arc::make_mut(&mut self.0)
    }
}

/// A scan of a [`MemStore`]: the rows of its range in the snapshot taken when it started,
/// read in chunks (256 rows first, for a scan that stops early or a skip scan's seek; more as
/// it goes on), each row's buffers shared with the map, not copied. The scan lets go of the
/// snapshot once it has read its whole range: a write made while it hands out its last chunk
/// (the whole range, for a range of up to 256 rows) copies nothing.
pub struct MemScan {
    /// What is left to read; `None` once all of it is read.
    rest: Option<Rest>,
    reverse: bool,
    /// Rows read and not handed out yet, in the scan's order.
    read: std::vec::IntoIter<Row>,
    /// How many rows the next chunk reads.
    chunk: usize,
}

/// The snapshot a scan reads and the keys of its range it has not read yet.
struct Rest {
    map: Arc<Map>,
    lower: Bound<Bytes>,
    upper: Bound<Bytes>,
}

impl MemScan {
    const FIRST_CHUNK: usize = 256;
    const MAX_CHUNK: usize = 4096;

    /// Reads the next chunk of the range.
    fn refill(&mut self) {
        let Some(Rest { map, lower, upper }) = self.rest.take() else {
            return;
        };
        let bounds = (
            lower.as_ref().map(|b| &b[..]),
            upper.as_ref().map(|b| &b[..]),
        );
        let range = map.range::<[u8], _>(bounds);
        let copy = |(k, v): (&Bytes, &Bytes)| (k.clone(), v.clone());
        let rows: Vec<Row> = if self.reverse {
            range.rev().take(self.chunk).map(copy).collect()
        } else {
            range.take(self.chunk).map(copy).collect()
        };
        // A full chunk may have more after it: the rest lies beyond its last key. Otherwise
        // the snapshot is dropped here.
        if rows.len() == self.chunk {
            let last = Bound::Excluded(rows[rows.len() - 1].0.clone());
            let (lower, upper) = if self.reverse {
                (lower, last)
            } else {
                (last, upper)
            };
            self.rest = Some(Rest { map, lower, upper });
            self.chunk = (self.chunk * 2).min(Self::MAX_CHUNK);
        }
        self.read = rows.into_iter();
    }
}

impl Iterator for MemScan {
    type Item = Result<Row, Infallible>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(row) = self.read.next() {
            return Some(Ok(row));
        }
        self.refill();
        self.read.next().map(Ok)
    }
}

impl Store for MemStore {
    type Error = Infallible;
    type Scan<'a> = MemScan;

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

    fn scan(&self, range: &KeyRange) -> MemScan {
        self.scan_from(range, false)
    }

    fn scan_rev(&self, range: &KeyRange) -> Option<MemScan> {
        Some(self.scan_from(range, true))
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn store(keys: &[u16]) -> MemStore {
        let store = MemStore::new();
        for k in keys {
            store.put(&k.to_be_bytes(), &k.to_le_bytes()).unwrap();
        }
        store
    }

    fn keys(scan: MemScan) -> Vec<u16> {
        scan.map(|row| {
            let (k, v) = row.unwrap();
            let k = u16::from_be_bytes(k[..].try_into().unwrap());
            assert_eq!(&v[..], k.to_le_bytes());
            k
        })
        .collect()
    }

    proptest! {
        /// Chunk after chunk, forward and reversed, a scan reads exactly the range's rows:
        /// row counts around every chunk boundary, bounds on and between keys.
        #[test]
        fn a_scan_reads_its_range_in_chunks(
            stored in prop::collection::btree_set(0u16..3000, 0..2100),
            start in 0u16..3100,
            len in prop::option::of(0u16..3100),
        ) {
            let store = store(&stored.iter().copied().collect::<Vec<_>>());
            let end = len.map(|n| start.saturating_add(n));
            let range = KeyRange::new(&start.to_be_bytes(), end.map(u16::to_be_bytes).as_ref().map(|e| &e[..]));
            let want: Vec<u16> = stored
                .iter()
                .copied()
                .filter(|&k| k >= start && end.is_none_or(|e| k < e))
                .collect();
            prop_assert_eq!(keys(store.scan(&range)), want.clone());
            let mut rev = want;
            rev.reverse();
            prop_assert_eq!(keys(store.scan_rev(&range).unwrap()), rev);
        }
    }

    /// Across its chunks: rows deleted, added and changed after a scan started are not its.
    #[test]
    fn a_scan_keeps_the_snapshot_it_started_with() {
        let store = store(&(0..1000).collect::<Vec<_>>());
        let all = KeyRange::new(&[], None);
        let mut scan = store.scan(&all);
        let rev = store.scan_rev(&all).unwrap();
        assert_eq!(scan.next().unwrap().unwrap().0[..], 0u16.to_be_bytes());
        assert!(scan.rest.is_some(), "the scan has more chunks to read");
        // Writes while both scans are open: deletes ahead of them, a new row, a changed one.
        for k in 300..900u16 {
            store.delete(&k.to_be_bytes()).unwrap();
        }
        store.put(&5000u16.to_be_bytes(), b"new").unwrap();
        store.put(&950u16.to_be_bytes(), b"changed").unwrap();
        assert_eq!(keys(scan), (1..1000).collect::<Vec<_>>());
        assert_eq!(keys(rev), (0..1000).rev().collect::<Vec<_>>());
        // A scan started now sees them.
        let now: Vec<Row> = store.scan(&all).map(Result::unwrap).collect();
        assert_eq!(now.len(), 401);
        assert_eq!(&now[350].1[..], b"changed");
        assert_eq!(&now[400].1[..], b"new");
    }

    /// Starting a scan reads a chunk, not the range: a skip scan's seek over a large store
    /// (a new scan each) costs a chunk's rows, not the rest of the table's. Chunks double up
    /// to the largest, and the scan lets go of the snapshot once it has read the range.
    #[test]
    fn a_scan_reads_a_chunk_at_a_time() {
        let store = store(&(0..20_000).collect::<Vec<_>>());
        let shared = |store: &MemStore| Arc::strong_count(&store.read());
        let mut scan = store.scan(&KeyRange::new(&[], None));
        assert_eq!(
            scan.read.len(),
            0,
            "nothing is read before the first row is asked for"
        );
        assert_eq!(shared(&store), 2, "the scan holds the snapshot");
        let mut chunks = Vec::new();
        let mut seen = 0;
        while scan.next().is_some() {
            chunks.push(scan.read.len() + 1);
            seen += 1 + scan.read.len();
            scan.read.by_ref().for_each(drop);
        }
        assert_eq!(seen, 20_000);
        assert_eq!(chunks, [256, 512, 1024, 2048, 4096, 4096, 4096, 3872]);
        assert_eq!(
            shared(&store),
            1,
            "the snapshot is let go with the last chunk"
        );
    }

    /// A range of up to a chunk is read at the first row, and the snapshot let go: writing
    /// while its rows are handed out copies nothing (the store's map is not shared).
    #[test]
    fn writing_while_a_short_scan_hands_out_its_rows_copies_nothing() {
        let store = store(&(0..20_000).collect::<Vec<_>>());
        let range = KeyRange::new(&100u16.to_be_bytes(), Some(&300u16.to_be_bytes()));
        let mut scan = store.scan(&range);
        let before = Arc::as_ptr(&store.read());
        scan.next().unwrap().unwrap();
        assert_eq!(Arc::strong_count(&store.read()), 1);
        for row in scan {
            let (k, _) = row.unwrap();
            store.put(&k, b"seen").unwrap();
        }
        assert_eq!(Arc::as_ptr(&store.read()), before, "the map was not copied");
        assert_eq!(
            store.get(&150u16.to_be_bytes()).unwrap().unwrap(),
            &b"seen"[..]
        );
    }
}
