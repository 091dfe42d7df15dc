//! [`FjallStore`]: the embedded default, a fjall LSM tree (the storage design of HBase itself)
//! on local disk; no server.

use std::ops::Bound;
use std::path::Path;

use bytes::Bytes;
use fjall::{Database, Keyspace, KeyspaceCreateOptions, Slice};

use super::{composite, BatchError, CellError, CellScan, Columns, Row, RowWrite, Store};
use crate::scan::KeyRange;

/// One fjall keyspace as a sorted store. Cheap to clone; clones share the database.
///
/// **Copies.** By default a row read or scanned is copied out of fjall's buffers into a
/// [`Bytes`] (one copy of its key and one of its value) and a row written is copied into
/// fjall's. With the feature `fjall-shared`, fjall is built with its `bytes_1` feature, where
/// its `Slice` *is* a `Bytes`, and rows are shared both ways instead. Measured (the guide's performance chapter, "The
/// embedded store"): the shared build scans about 30% faster, but the write-heavy main job ran
/// 20-30% slower and peaked at 418 MB instead of 281 MB (1M events), since fjall then keeps
/// every key and value as a `Bytes` where its default keeps up to 20 bytes inline. And a
/// cargo feature of fjall applies to every crate of the application that uses fjall, so
/// rowkey leaves the choice to you: `fjall-shared` for read-heavy tables.
#[derive(Clone)]
pub struct FjallStore {
    db: Database,
    keyspace: Keyspace,
}

impl FjallStore {
    /// Opens (creating if needed) the database at `path` and its keyspace `table`.
    pub fn open(path: impl AsRef<Path>, table: &str) -> Result<Self, fjall::Error> {
        let db = Database::builder(path.as_ref()).open()?;
        FjallStore::with_database(db, table)
    }

    /// The keyspace `table` of an open database: several tables can share one database.
    pub fn with_database(db: Database, table: &str) -> Result<Self, fjall::Error> {
        let keyspace = db.keyspace(table, KeyspaceCreateOptions::default)?;
        Ok(FjallStore { db, keyspace })
    }

    /// The database, for settings and durability (`persist`).
    pub fn database(&self) -> &Database {
        &self.db
    }

    /// The keyspace, for what the `Store` trait does not cover.
    pub fn keyspace(&self) -> &Keyspace {
        &self.keyspace
    }

    /// Loads rows through fjall's ingestion path (sorted tables written straight to disk, no
    /// journal, no memtable): the fast way to fill a table for the first time or migrate one.
    /// The rows are sorted here (fjall requires ascending keys); of rows with the same key the
    /// last one wins, as it would with `put`. Rows already in the keyspace stay; an ingested
    /// row replaces one with the same key. Atomic like `write_batch`: on failure every key is
    /// reported.
    pub fn bulk_load(&self, mut rows: Vec<Row>) -> Result<(), BatchError<fjall::Error>> {
        // Stable sort, then keep the last of equal keys (in place).
        rows.sort_by(|a, b| a.0.cmp(&b.0));
        let mut kept = 0;
        for i in 0..rows.len() {
            if kept > 0 && rows[kept - 1].0 == rows[i].0 {
                rows.swap(kept - 1, i);
            } else {
                rows.swap(kept, i);
                kept += 1;
            }
        }
        tracing::debug!(
            target: "rowkey::store",
            store = "fjall",
            rows = kept,
            repeated = rows.len() - kept,
            "bulk load"
        );
        rows.truncate(kept);
        let unique = rows;
        let failed = |source, rows: &[Row]| BatchError {
            failed: rows.iter().map(|(k, _)| k.to_vec()).collect(),
            source,
        };
        let mut ingestion = match self.keyspace.start_ingestion() {
            Ok(i) => i,
            Err(e) => return Err(failed(e, &unique)),
        };
        for (k, v) in &unique {
            // `Bytes` into fjall's `Slice` (its `bytes_1` build): shared, not copied.
            if let Err(e) = ingestion.write(to_fjall(k), to_fjall(v)) {
                return Err(failed(e, &unique));
            }
        }
        ingestion.finish().map_err(|e| failed(e, &unique))
    }

    fn bounds(range: &KeyRange) -> (Bound<Vec<u8>>, Bound<Vec<u8>>) {
        let end = match range.end() {
            Some(e) => Bound::Excluded(e.to_vec()),
            None => Bound::Unbounded,
        };
        (Bound::Included(range.start().to_vec()), end)
    }
}

/// A fjall buffer as a [`Bytes`]: the same buffer with `fjall-shared` (fjall's `bytes_1`,
/// where its `Slice` is a `Bytes`), a copy without.
#[cfg(feature = "fjall-shared")]
fn from_fjall(s: Slice) -> Bytes {
    Bytes::from(s)
}

#[cfg(not(feature = "fjall-shared"))]
fn from_fjall(s: Slice) -> Bytes {
    Bytes::copy_from_slice(&s)
}

/// A [`Bytes`] as fjall's `Slice`: shared with `fjall-shared`, a copy without.
#[cfg(feature = "fjall-shared")]
fn to_fjall(b: &Bytes) -> Slice {
    Slice::from(b.clone())
}

#[cfg(not(feature = "fjall-shared"))]
fn to_fjall(b: &Bytes) -> Slice {
    Slice::from(&b[..])
}

/// A row out of fjall's buffers ([`from_fjall`]).
fn row(guard: fjall::Guard) -> Result<Row, fjall::Error> {
    guard
        .into_inner()
        .map(|(k, v)| (from_fjall(k), from_fjall(v)))
}

/// A row with its key lent in fjall's own buffer and its value as a [`Bytes`].
fn lent(guard: fjall::Guard) -> Result<(Slice, Bytes), fjall::Error> {
    guard.into_inner().map(|(k, v)| (k, from_fjall(v)))
}

/// A fjall range iterator, forward or reversed.
pub struct FjallScan {
    iter: fjall::Iter,
    reverse: bool,
    /// The entry [`Store::lend_next`] lent last, kept until the next.
    #[cfg(not(feature = "fjall-shared"))]
    current: Option<(Slice, Slice)>,
}

impl FjallScan {
    /// The next entry in the scan's direction, still in fjall's buffers.
    #[inline]
    fn next_guard(&mut self) -> Option<fjall::Guard> {
        if self.reverse {
            self.iter.next_back()
        } else {
            self.iter.next()
        }
    }
}

impl Iterator for FjallScan {
    type Item = Result<Row, fjall::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_guard().map(row)
    }
}

impl Store for FjallStore {
    type Error = fjall::Error;
    type Scan<'a> = FjallScan;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), fjall::Error> {
        self.keyspace.insert(key, value)
    }

    fn get(&self, key: &[u8]) -> Result<Option<Bytes>, fjall::Error> {
        Ok(self.keyspace.get(key)?.map(from_fjall))
    }

    fn delete(&self, key: &[u8]) -> Result<(), fjall::Error> {
        self.keyspace.remove(key)
    }

    /// Atomic: either every row is written or none is, and then every key is reported.
    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<fjall::Error>> {
        let mut batch = self.db.batch();
        for (k, v) in rows {
            batch.insert(&self.keyspace, to_fjall(k), to_fjall(v));
        }
        batch.commit().map_err(|source| BatchError {
            failed: rows.iter().map(|(k, _)| k.to_vec()).collect(),
            source,
        })
    }

    fn load(&self, rows: Vec<Row>) -> Result<(), BatchError<fjall::Error>> {
        self.bulk_load(rows)
    }

    fn scan(&self, range: &KeyRange) -> FjallScan {
        FjallScan {
            iter: self.keyspace.range(Self::bounds(range)),
            reverse: false,
            #[cfg(not(feature = "fjall-shared"))]
            current: None,
        }
    }

    fn scan_rev(&self, range: &KeyRange) -> Option<FjallScan> {
        Some(FjallScan {
            iter: self.keyspace.range(Self::bounds(range)),
            reverse: true,
            #[cfg(not(feature = "fjall-shared"))]
            current: None,
        })
    }

    /// The entry is kept in the scan and lent from fjall's own buffers: nothing copied. (With
    /// `fjall-shared` the trait's default hands the row over instead, key and value as `Bytes`
    /// moved out of fjall's `Slice`s: nothing copied either, and a caller that keeps the value
    /// keeps fjall's buffer.)
    #[cfg(not(feature = "fjall-shared"))]
    #[inline]
    fn lend_next<'a, 's>(
        scan: &'s mut FjallScan,
    ) -> Option<Result<super::LentRow<'s>, fjall::Error>>
    where
        Self: 'a,
    {
        Some(match scan.next_guard()?.into_inner() {
            Ok(entry) => {
                let (k, v) = scan.current.insert(entry);
                Ok(super::LentRow::Lent(k, v))
            }
            Err(e) => Err(e),
        })
    }

    /// Atomic: set and cleared cells of every row in one batch.
    fn write_rows(&self, rows: &[RowWrite]) -> Result<(), BatchError<fjall::Error>> {
        let mut batch = self.db.batch();
        for r in rows {
            for c in &r.set {
                let k = composite::cell_key(&r.key, &c.family, &c.qualifier);
                batch.insert(&self.keyspace, k, to_fjall(&c.value));
            }
            for c in &r.clear {
                batch.remove(
                    &self.keyspace,
                    composite::cell_key(&r.key, &c.family, &c.qualifier),
                );
            }
        }
        batch.commit().map_err(|source| BatchError {
            failed: rows.iter().map(|r| r.key.clone()).collect(),
            source,
        })
    }

    /// Each cell's key is taken apart in fjall's buffer, without the copy [`Store::scan`]
    /// makes of it.
    fn scan_rows(&self, range: &KeyRange, columns: &Columns) -> CellScan<'_, fjall::Error> {
        let entries = self
            .keyspace
            .range(Self::bounds(&composite::rows_range(range)))
            .map(lent);
        Box::new(composite::Grouped::new(entries, columns.clone(), false))
    }

    /// [`FjallStore::scan_rows`] in reverse key order.
    fn scan_rows_rev(
        &self,
        range: &KeyRange,
        columns: &Columns,
    ) -> Option<CellScan<'_, fjall::Error>> {
        let entries = self
            .keyspace
            .range(Self::bounds(&composite::rows_range(range)))
            .rev()
            .map(lent);
        Some(Box::new(composite::Grouped::new(
            entries,
            columns.clone(),
            true,
        )))
    }

    /// Each cell's key is taken apart in fjall's buffer and lent: no row of copies.
    fn scan_cells_lent<'a, T, F>(
        &'a self,
        range: &KeyRange,
        columns: &Columns,
        reverse: bool,
        mut make: F,
    ) -> Option<super::LentScan<'a, T, CellError<fjall::Error>>>
    where
        T: 'a,
        F: FnMut(&[u8], &str, &[u8], &[u8]) -> T + 'a,
    {
        let iter = self
            .keyspace
            .range(Self::bounds(&composite::rows_range(range)));
        let columns = columns.clone();
        let each = move |guard: fjall::Guard| {
            let (k, v) = match guard.into_inner() {
                Ok(kv) => kv,
                Err(e) => return Some(Err(CellError::Store(e))),
            };
            match composite::split_cell_key(&k) {
                Ok(p) => columns
                    .contains(&p.family, p.qualifier)
                    .then(|| Ok(make(&p.row, &p.family, p.qualifier, &v))),
                Err(m) => Some(Err(CellError::Malformed(m))),
            }
        };
        Some(if reverse {
            Box::new(iter.rev().filter_map(each))
        } else {
            Box::new(iter.filter_map(each))
        })
    }

    /// Each row is gathered in buffers the scan refills and lent: no row of copies.
    fn scan_rows_lent<'a, T, F>(
        &'a self,
        range: &KeyRange,
        columns: &Columns,
        reverse: bool,
        make: F,
    ) -> Option<super::LentScan<'a, T, CellError<fjall::Error>>>
    where
        T: 'a,
        F: FnMut(&[u8], super::LentCells<'_>) -> T + 'a,
    {
        let iter = self
            .keyspace
            .range(Self::bounds(&composite::rows_range(range)));
        let columns = columns.clone();
        Some(if reverse {
            Box::new(composite::LentGrouped::new(
                iter.rev().map(fjall::Guard::into_inner),
                columns,
                make,
            ))
        } else {
            Box::new(composite::LentGrouped::new(
                iter.map(fjall::Guard::into_inner),
                columns,
                make,
            ))
        })
    }

    /// Atomic: every cell of the row in one batch.
    fn delete_row(&self, key: &[u8]) -> Result<(), CellError<fjall::Error>> {
        let mut batch = self.db.batch();
        for entry in self.scan(&composite::row_range(key)) {
            let (k, _) = entry.map_err(CellError::Store)?;
            batch.remove(&self.keyspace, to_fjall(&k));
        }
        batch.commit().map_err(CellError::Store)
    }
}

/// The locks atomic operations take, one per stripe of cells: shared by every handle of every
/// database in the process, so two handles of one keyspace exclude each other on a cell.
static STRIPES: [std::sync::Mutex<()>; 64] = [const { std::sync::Mutex::new(()) }; 64];

/// The lock of one cell's stripe (FNV-1a of the cell's stored key).
fn stripe(cell: &[u8]) -> std::sync::MutexGuard<'static, ()> {
    let hash = cell.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    // A panic under the lock cannot leave a cell half-written: the write is one insert.
    STRIPES[(hash % STRIPES.len() as u64) as usize]
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Read, compare and write under the cell's stripe lock (see `rowkey::store::AtomicStore`:
/// plain writes do not take it).
impl super::AtomicStore for FjallStore {
    fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, super::AtomicError<fjall::Error>> {
        let cell = composite::cell_key(key, family, qualifier);
        let _lock = stripe(&cell);
        let current = self
            .keyspace
            .get(&cell)
            .map_err(super::AtomicError::Store)?;
        let next = super::atomic::next_counter(current.as_deref(), delta)?;
        self.keyspace
            .insert(&cell, super::counter_bytes(next))
            .map_err(super::AtomicError::Store)?;
        Ok(next)
    }

    fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, super::AtomicError<fjall::Error>> {
        let cell = composite::cell_key(key, family, qualifier);
        let _lock = stripe(&cell);
        let current = self
            .keyspace
            .get(&cell)
            .map_err(super::AtomicError::Store)?;
        if !super::atomic::holds(current.as_deref(), expected) {
            return Ok(false);
        }
        match new {
            Some(v) => self.keyspace.insert(&cell, v),
            None => self.keyspace.remove(&cell),
        }
        .map_err(super::AtomicError::Store)?;
        Ok(true)
    }
}
