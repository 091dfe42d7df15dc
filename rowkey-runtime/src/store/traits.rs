//! The store traits: [`Store`] (blocking) and [`AsyncStore`], the row they move ([`Row`]),
//! and their errors ([`BatchError`], [`CellError`]).

use std::fmt;

use bytes::Bytes;

use super::composite;
#[cfg(feature = "async")]
use super::composite::CellStream;
use super::composite::{CellError, CellScan};
use crate::cell::{CellRow, Columns, LentCells, RowWrite};
use crate::scan::pushdown::KeyFilter;
use crate::scan::KeyRange;

/// One stored row: key and value bytes, as shared buffers.
///
/// A store hands out the buffers it already holds where it can ([`MemStore`](super::MemStore) its map's,
/// [`FjallStore`] fjall's own with the feature `fjall-shared`), so reading a row copies
/// nothing; build one from a `Vec<u8>` with `.into()` (no copy) or from a borrowed slice with
/// [`Bytes::copy_from_slice`](bytes::Bytes::copy_from_slice).
///
#[cfg_attr(feature = "fjall", doc = "[`FjallStore`]: super::FjallStore")]
#[cfg_attr(
    not(feature = "fjall"),
    doc = "[`FjallStore`]: https://docs.rs/rowkey/latest/rowkey/store/struct.FjallStore.html"
)]
pub type Row = (Bytes, Bytes);

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
    fn get(&self, key: &[u8]) -> Result<Option<Bytes>, Self::Error>;

    /// Deletes one row (deleting a missing row is not an error).
    fn delete(&self, key: &[u8]) -> Result<(), Self::Error>;

    /// Writes many rows. Of rows with the same key the last wins. On failure the error lists
    /// every key that was not written, so nothing is lost silently: an atomic store lists them
    /// all, a store that writes row by row lists the ones that failed.
    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<Self::Error>>;

    /// Writes many rows the fastest way the store has for a first load or a migration, with
    /// [`Store::write_batch`]'s guarantees (of rows with the same key the last wins; on failure
    /// the error lists every key not written). [`FjallStore`] writes sorted tables straight to
    /// disk (fjall's ingestion); the default is `write_batch`.
    ///
    #[cfg_attr(feature = "fjall", doc = "[`FjallStore`]: super::FjallStore")]
    #[cfg_attr(
        not(feature = "fjall"),
        doc = "[`FjallStore`]: https://docs.rs/rowkey/latest/rowkey/store/struct.FjallStore.html"
    )]
    fn load(&self, rows: Vec<Row>) -> Result<(), BatchError<Self::Error>> {
        self.write_batch(&rows)
    }

    /// The rows of one range, in key order.
    fn scan(&self, range: &KeyRange) -> Self::Scan<'_>;

    /// The rows of one range in reverse key order, where the store supports it (`None`
    /// otherwise).
    fn scan_rev(&self, range: &KeyRange) -> Option<Self::Scan<'_>>;

    /// The rows of one range (in reverse key order when `reverse`) that a store which filters
    /// rows itself hands over after checking `filter` on its side: at least every row whose key
    /// passes [`KeyFilter::matches`] (more is allowed: the caller checks every row again).
    /// `None` (the default) when the store has no such filter, or not for this direction; the
    /// caller then reads [`Store::scan`] and seeks past gaps itself. What a skip scan
    /// ([`Table::query`](crate::store::Table::query)) uses on the network stores, so that rows
    /// which cannot match never cross the network.
    fn scan_filtered(
        &self,
        range: &KeyRange,
        filter: &KeyFilter,
        reverse: bool,
    ) -> Option<Self::Scan<'_>> {
        let _ = (range, filter, reverse);
        None
    }

    /// The keys of one range's rows, in key order, whatever columns the rows hold: what a
    /// survey of a table's keys reads ([`check_layout`](super::check_layout)). The network
    /// stores ask the servers for each row's first cell without its value (HBase's
    /// `FirstKeyOnlyFilter` with `KeyOnlyFilter`, as its `RowCounter` does; Bigtable's
    /// one cell per row with the value stripped): a row that Java code filled with columns of
    /// its own counts, and no value crosses the network. The default reads [`Store::scan`]'s
    /// rows and drops their values (on a key-value store every row is its value's).
    fn scan_keys(&self, range: &KeyRange) -> KeyScan<'_, Self::Error> {
        Box::new(self.scan(range).map(|row| row.map(|(key, _)| key)))
    }

    /// The next row of `scan` (one of [`Store::scan`] or [`Store::scan_rev`]), lent from
    /// buffers the scan keeps until its next row where the store has them (fjall), or handed
    /// over for the caller to hold. What typed tables read a single range with ([`Table::scan`]
    /// copies a lent value into the row's `Bytes`, the lending scan
    /// ([`LentRows`](crate::store::LentRows)) lends it on), as does the skip scan. The default
    /// hands over the row [`Iterator::next`] gives.
    ///
    /// [`Table::scan`]: crate::store::Table::scan
    #[doc(hidden)]
    #[inline]
    fn lend_next<'a, 's>(scan: &'s mut Self::Scan<'a>) -> Option<Result<LentRow<'s>, Self::Error>>
    where
        Self: 'a,
    {
        Some(scan.next()?.map(LentRow::Owned))
    }

    // ---- rows of cells ----
    //
    // Bigtable and HBase keep cells natively ([`Blocking`] forwards to their `AsyncStore`
    // methods); the provided methods keep them in the composite layout (module `cells`) over the
    // methods above, for stores that have only keys and values (memory, fjall, yours). A store
    // that wraps another must forward these too. Keep a store's raw rows and its rows of cells
    // apart (one keyspace each): on a key-value store the two layouts differ.

    /// Writes cells to rows and clears columns; on failure the error lists every row key not
    /// (fully) written.
    ///
    /// The batch is applied in order: when a batch writes one column more than once (one row
    /// key twice, say), the last write of it is what stays, on every store (a clear after a
    /// set clears, a set after a clear sets). A store that overrides this must keep that
    /// promise; the conformance suite checks it. The default first reduces the batch to each
    /// column's last write, then writes the set cells as one [`Store::write_batch`] and deletes
    /// the cleared ones key by key.
    fn write_rows(&self, rows: &[RowWrite]) -> Result<(), BatchError<Self::Error>> {
        let rows = &*crate::cell::coalesce(rows);
        let set: Vec<Row> = rows
            .iter()
            .flat_map(|r| {
                r.set.iter().map(|c| {
                    (
                        composite::cell_key(&r.key, &c.family, &c.qualifier).into(),
                        c.value.clone(),
                    )
                })
            })
            .collect();
        let all = |source| BatchError {
            failed: rows.iter().map(|r| r.key.clone()).collect(),
            source,
        };
        self.write_batch(&set).map_err(|e| all(e.source))?;
        for (i, r) in rows.iter().enumerate() {
            for c in &r.clear {
                if let Err(source) =
                    self.delete(&composite::cell_key(&r.key, &c.family, &c.qualifier))
                {
                    return Err(BatchError {
                        failed: rows[i..].iter().map(|r| r.key.clone()).collect(),
                        source,
                    });
                }
            }
        }
        Ok(())
    }

    /// Reads the `columns` of one row; `None` when the row has none of them.
    fn read_row(
        &self,
        key: &[u8],
        columns: &Columns,
    ) -> Result<Option<CellRow>, CellError<Self::Error>> {
        if columns.is_empty() {
            return Ok(None);
        }
        let entries = self.scan(&composite::row_read_range(key, columns));
        composite::Grouped::new(entries, columns.clone(), false)
            .next()
            .transpose()
    }

    /// Deletes every cell of one row.
    fn delete_row(&self, key: &[u8]) -> Result<(), CellError<Self::Error>> {
        let stored: Vec<Bytes> = self
            .scan(&composite::row_range(key))
            .map(|r| r.map(|(k, _)| k))
            .collect::<Result<_, _>>()
            .map_err(CellError::Store)?;
        for k in stored {
            self.delete(&k).map_err(CellError::Store)?;
        }
        Ok(())
    }

    /// The rows of one range with their `columns`, in key order; rows with none of them are
    /// left out.
    fn scan_rows(&self, range: &KeyRange, columns: &Columns) -> CellScan<'_, Self::Error> {
        let entries = self.scan(&composite::rows_range(range));
        Box::new(composite::Grouped::new(entries, columns.clone(), false))
    }

    /// The selected cells of the rows in one range, one by one in stored order (reversed with
    /// `reverse`: rows and their cells backwards; `None` when the store has no reverse
    /// scans), each made into a `T` by `make` from its row key, family, qualifier and value,
    /// all lent. What rows-as-columns tables read with, one record per cell: a store that
    /// keeps cells in buffers of its own (fjall's composite keys) lends their parts instead of
    /// building a [`CellRow`] of copies, and a record decoded in `make` copies nothing. The default flattens [`Store::scan_rows`]; a store
    /// error ends the scan (cells of the row it cut may have been handed out before it).
    #[doc(hidden)]
    fn scan_cells_lent<'a, T, F>(
        &'a self,
        range: &KeyRange,
        columns: &Columns,
        reverse: bool,
        mut make: F,
    ) -> Option<LentScan<'a, T, CellError<Self::Error>>>
    where
        T: 'a,
        F: FnMut(&[u8], &str, &[u8], &[u8]) -> T + 'a,
    {
        let rows = rows_of(self, range, columns, reverse)?;
        Some(Box::new(rows.flat_map(move |row| match row {
            Ok(row) => {
                let mut cells = row.cells;
                if reverse {
                    cells.reverse();
                }
                cells
                    .into_iter()
                    .map(|c| Ok(make(&row.key, &c.family, &c.qualifier, &c.value)))
                    .collect()
            }
            Err(e) => vec![Err(e)],
        })))
    }

    /// The rows of one range with their `columns`, in key order (reversed with `reverse`;
    /// `None` when the store has no reverse scans), each made into a `T` by `make` from its
    /// key and its cells, both lent. What tables of cells read a single range with: a store
    /// that keeps cells in buffers of its own (the composite layout of fjall and memory)
    /// gathers each row into buffers it refills instead of building a [`CellRow`] of copies.
    /// The default lends the rows of [`Store::scan_rows`]; a store error ends the scan.
    #[doc(hidden)]
    fn scan_rows_lent<'a, T, F>(
        &'a self,
        range: &KeyRange,
        columns: &Columns,
        reverse: bool,
        mut make: F,
    ) -> Option<LentScan<'a, T, CellError<Self::Error>>>
    where
        T: 'a,
        F: FnMut(&[u8], LentCells<'_>) -> T + 'a,
    {
        let rows = rows_of(self, range, columns, reverse)?;
        Some(Box::new(rows.map(move |row| {
            row.map(|row| make(&row.key, LentCells::cells(&row.cells)))
        })))
    }

    /// [`Store::scan_rows`] in reverse key order, where the store has reverse scans.
    fn scan_rows_rev(
        &self,
        range: &KeyRange,
        columns: &Columns,
    ) -> Option<CellScan<'_, Self::Error>> {
        let entries = self.scan_rev(&composite::rows_range(range))?;
        Some(Box::new(composite::Grouped::new(
            entries,
            columns.clone(),
            true,
        )))
    }
}

/// [`Store::scan_rows`], or [`Store::scan_rows_rev`] with `reverse` (`None` when the store has
/// no reverse scans).
fn rows_of<'a, S: Store + ?Sized>(
    store: &'a S,
    range: &KeyRange,
    columns: &Columns,
    reverse: bool,
) -> Option<CellScan<'a, S::Error>> {
    if reverse {
        store.scan_rows_rev(range, columns)
    } else {
        Some(store.scan_rows(range, columns))
    }
}

/// A row as [`Store::lend_next`] hands it over.
#[doc(hidden)]
pub enum LentRow<'s> {
    /// Key and value lent from the scan's buffers until its next row.
    Lent(&'s [u8], &'s [u8]),
    /// The row itself, for the caller to hold.
    Owned(Row),
}

impl LentRow<'_> {
    /// The row's key and value bytes, however they are held.
    #[inline]
    pub fn parts(&self) -> (&[u8], &[u8]) {
        match self {
            LentRow::Lent(key, value) => (key, value),
            LentRow::Owned((key, value)) => (key, value),
        }
    }

    /// The row to keep: the held row itself, or a copy of the lent one.
    #[inline]
    pub fn into_owned(self) -> Row {
        match self {
            LentRow::Lent(key, value) => {
                (Bytes::copy_from_slice(key), Bytes::copy_from_slice(value))
            }
            LentRow::Owned(row) => row,
        }
    }
}

/// The rows of [`Store::scan_cells_lent`] and [`Store::scan_rows_lent`], made into `T`s.
#[doc(hidden)]
pub type LentScan<'a, T, E> = Box<dyn Iterator<Item = Result<T, E>> + 'a>;

/// The keys [`Store::scan_keys`] hands out, in key order.
pub type KeyScan<'a, E> = Box<dyn Iterator<Item = Result<Bytes, E>> + 'a>;

/// A shared reference to a store is a store: several typed tables (one per record type, one
/// per value type) can read and write one store.
impl<S: Store + ?Sized> Store for &S {
    type Error = S::Error;
    type Scan<'a>
        = S::Scan<'a>
    where
        Self: 'a;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), S::Error> {
        (**self).put(key, value)
    }
    fn get(&self, key: &[u8]) -> Result<Option<Bytes>, S::Error> {
        (**self).get(key)
    }
    fn delete(&self, key: &[u8]) -> Result<(), S::Error> {
        (**self).delete(key)
    }
    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<S::Error>> {
        (**self).write_batch(rows)
    }
    fn load(&self, rows: Vec<Row>) -> Result<(), BatchError<S::Error>> {
        (**self).load(rows)
    }
    fn scan(&self, range: &KeyRange) -> S::Scan<'_> {
        (**self).scan(range)
    }
    fn scan_rev(&self, range: &KeyRange) -> Option<S::Scan<'_>> {
        (**self).scan_rev(range)
    }
    fn scan_filtered(
        &self,
        range: &KeyRange,
        filter: &KeyFilter,
        reverse: bool,
    ) -> Option<S::Scan<'_>> {
        (**self).scan_filtered(range, filter, reverse)
    }
    fn scan_keys(&self, range: &KeyRange) -> KeyScan<'_, S::Error> {
        (**self).scan_keys(range)
    }
    #[inline]
    fn lend_next<'a, 's>(scan: &'s mut S::Scan<'a>) -> Option<Result<LentRow<'s>, S::Error>>
    where
        Self: 'a,
    {
        S::lend_next(scan)
    }
    fn write_rows(&self, rows: &[RowWrite]) -> Result<(), BatchError<S::Error>> {
        (**self).write_rows(rows)
    }
    fn read_row(
        &self,
        key: &[u8],
        columns: &Columns,
    ) -> Result<Option<CellRow>, CellError<S::Error>> {
        (**self).read_row(key, columns)
    }
    fn delete_row(&self, key: &[u8]) -> Result<(), CellError<S::Error>> {
        (**self).delete_row(key)
    }
    fn scan_rows(&self, range: &KeyRange, columns: &Columns) -> CellScan<'_, S::Error> {
        (**self).scan_rows(range, columns)
    }
    fn scan_rows_rev(&self, range: &KeyRange, columns: &Columns) -> Option<CellScan<'_, S::Error>> {
        (**self).scan_rows_rev(range, columns)
    }
    fn scan_cells_lent<'a, T, F>(
        &'a self,
        range: &KeyRange,
        columns: &Columns,
        reverse: bool,
        make: F,
    ) -> Option<LentScan<'a, T, CellError<S::Error>>>
    where
        T: 'a,
        F: FnMut(&[u8], &str, &[u8], &[u8]) -> T + 'a,
    {
        (**self).scan_cells_lent(range, columns, reverse, make)
    }
    fn scan_rows_lent<'a, T, F>(
        &'a self,
        range: &KeyRange,
        columns: &Columns,
        reverse: bool,
        make: F,
    ) -> Option<LentScan<'a, T, CellError<S::Error>>>
    where
        T: 'a,
        F: FnMut(&[u8], LentCells<'_>) -> T + 'a,
    {
        (**self).scan_rows_lent(range, columns, reverse, make)
    }
}

/// An async scan's rows: a boxed stream that owns everything it needs, so it can outlive the
/// call that made it and move between tasks.
#[cfg(feature = "async")]
pub type RowStream<E> =
    std::pin::Pin<Box<dyn futures_util::Stream<Item = Result<Row, E>> + Send + 'static>>;

/// The keys [`AsyncStore::scan_keys`] hands out, in key order.
#[cfg(feature = "async")]
pub type KeyStream<E> =
    std::pin::Pin<Box<dyn futures_util::Stream<Item = Result<Bytes, E>> + Send + 'static>>;

/// A sorted key-value store with an async API: the same operations as [`Store`], for stores
/// behind a network (Bigtable, HBase), usable from any tokio service without blocking a runtime
/// thread. [`Blocking`](super::Blocking) turns one into a [`Store`].
///
/// Every returned future is `Send`, so calls can be spawned.
#[cfg(feature = "async")]
pub trait AsyncStore: Send + Sync + 'static {
    /// The store's own error.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Writes one row, replacing any value under the key.
    fn put(
        &self,
        key: &[u8],
        value: &[u8],
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send;

    /// Reads one row.
    fn get(
        &self,
        key: &[u8],
    ) -> impl std::future::Future<Output = Result<Option<Bytes>, Self::Error>> + Send;

    /// Deletes one row (deleting a missing row is not an error).
    fn delete(
        &self,
        key: &[u8],
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send;

    /// Writes many rows (of rows with the same key the last wins); on failure the error lists
    /// exactly the keys not confirmed written.
    fn write_batch(
        &self,
        rows: &[Row],
    ) -> impl std::future::Future<Output = Result<(), BatchError<Self::Error>>> + Send;

    /// Writes many rows the fastest way the store has for a first load or a migration, with
    /// [`AsyncStore::write_batch`]'s guarantees ([`Store::load`]); the default is
    /// `write_batch`.
    fn load(
        &self,
        rows: Vec<Row>,
    ) -> impl std::future::Future<Output = Result<(), BatchError<Self::Error>>> + Send {
        async move { self.write_batch(&rows).await }
    }

    /// The rows of one range, in key order. The stream is lazy in what it hands out and bounded
    /// in what it buffers.
    fn scan(&self, range: &KeyRange) -> RowStream<Self::Error>;

    /// The rows of one range in reverse key order, where the store supports it.
    fn scan_rev(&self, range: &KeyRange) -> Option<RowStream<Self::Error>>;

    /// The rows of one range (in reverse key order when `reverse`) that the store hands over
    /// after checking `filter` on its side ([`Store::scan_filtered`]); `None` (the default)
    /// when it cannot.
    fn scan_filtered(
        &self,
        range: &KeyRange,
        filter: &KeyFilter,
        reverse: bool,
    ) -> Option<RowStream<Self::Error>> {
        let _ = (range, filter, reverse);
        None
    }

    /// The keys of one range's rows, in key order, whatever columns the rows hold
    /// ([`Store::scan_keys`]). The default reads [`AsyncStore::scan`]'s rows and drops their
    /// values.
    fn scan_keys(&self, range: &KeyRange) -> KeyStream<Self::Error> {
        use futures_util::StreamExt;
        Box::pin(self.scan(range).map(|row| row.map(|(key, _)| key)))
    }

    /// Writes cells to rows and clears columns, in order ([`Store::write_rows`]: of writes to
    /// one column the last stays).
    fn write_rows(
        &self,
        rows: &[RowWrite],
    ) -> impl std::future::Future<Output = Result<(), BatchError<Self::Error>>> + Send;

    /// Reads the `columns` of one row ([`Store::read_row`]).
    fn read_row(
        &self,
        key: &[u8],
        columns: &Columns,
    ) -> impl std::future::Future<Output = Result<Option<CellRow>, CellError<Self::Error>>> + Send;

    /// Deletes every cell of one row ([`Store::delete_row`]).
    fn delete_row(
        &self,
        key: &[u8],
    ) -> impl std::future::Future<Output = Result<(), CellError<Self::Error>>> + Send;

    /// The rows of one range with their `columns` ([`Store::scan_rows`]).
    fn scan_rows(&self, range: &KeyRange, columns: &Columns) -> CellStream<Self::Error>;

    /// [`AsyncStore::scan_rows`] in reverse key order, where the store supports it.
    fn scan_rows_rev(&self, range: &KeyRange, columns: &Columns)
        -> Option<CellStream<Self::Error>>;
}

/// A shared async store is an async store: one store behind an `Arc`, used by several tasks
/// and tables (the network stores are cheap to clone already; this serves [`MemStore`](super::MemStore)
/// and stores of your own).
#[cfg(feature = "async")]
impl<S: AsyncStore> AsyncStore for std::sync::Arc<S> {
    type Error = S::Error;

    fn put(
        &self,
        key: &[u8],
        value: &[u8],
    ) -> impl std::future::Future<Output = Result<(), S::Error>> + Send {
        (**self).put(key, value)
    }
    fn get(
        &self,
        key: &[u8],
    ) -> impl std::future::Future<Output = Result<Option<Bytes>, S::Error>> + Send {
        (**self).get(key)
    }
    fn delete(&self, key: &[u8]) -> impl std::future::Future<Output = Result<(), S::Error>> + Send {
        (**self).delete(key)
    }
    fn write_batch(
        &self,
        rows: &[Row],
    ) -> impl std::future::Future<Output = Result<(), BatchError<S::Error>>> + Send {
        (**self).write_batch(rows)
    }
    fn load(
        &self,
        rows: Vec<Row>,
    ) -> impl std::future::Future<Output = Result<(), BatchError<S::Error>>> + Send {
        (**self).load(rows)
    }
    fn scan(&self, range: &KeyRange) -> RowStream<S::Error> {
        (**self).scan(range)
    }
    fn scan_rev(&self, range: &KeyRange) -> Option<RowStream<S::Error>> {
        (**self).scan_rev(range)
    }
    fn scan_filtered(
        &self,
        range: &KeyRange,
        filter: &KeyFilter,
        reverse: bool,
    ) -> Option<RowStream<S::Error>> {
        (**self).scan_filtered(range, filter, reverse)
    }
    fn scan_keys(&self, range: &KeyRange) -> KeyStream<S::Error> {
        (**self).scan_keys(range)
    }
    fn write_rows(
        &self,
        rows: &[RowWrite],
    ) -> impl std::future::Future<Output = Result<(), BatchError<S::Error>>> + Send {
        (**self).write_rows(rows)
    }
    fn read_row(
        &self,
        key: &[u8],
        columns: &Columns,
    ) -> impl std::future::Future<Output = Result<Option<CellRow>, CellError<S::Error>>> + Send
    {
        (**self).read_row(key, columns)
    }
    fn delete_row(
        &self,
        key: &[u8],
    ) -> impl std::future::Future<Output = Result<(), CellError<S::Error>>> + Send {
        (**self).delete_row(key)
    }
    fn scan_rows(&self, range: &KeyRange, columns: &Columns) -> CellStream<S::Error> {
        (**self).scan_rows(range, columns)
    }
    fn scan_rows_rev(&self, range: &KeyRange, columns: &Columns) -> Option<CellStream<S::Error>> {
        (**self).scan_rows_rev(range, columns)
    }
}

/// A batch write that did not complete: which keys were not written, and why.
pub struct BatchError<E> {
    /// The keys that were not written; write them again.
    pub failed: Vec<Vec<u8>>,
    /// The first underlying error.
    pub source: E,
}

// By hand: a failed batch can list a million keys, and `unwrap` prints `Debug`.
impl<E: fmt::Debug> fmt::Debug for BatchError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 3;
        let first: Vec<String> = self
            .failed
            .iter()
            .take(SHOWN)
            .map(|k| crate::fmt::binary(k))
            .collect();
        f.debug_struct("BatchError")
            .field(
                "failed",
                &format_args!("{} key(s), first {:?}", self.failed.len(), first),
            )
            .field("source", &self.source)
            .finish()
    }
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
