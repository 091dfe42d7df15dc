//! [`CellTable`]: rows of typed cells, keyed by a [`RowKey`] type and valued by a
//! [`RowValue`] type, over any [`Store`]; and [`CellMerged`], its salted scan merged back into
//! key order.

use std::marker::PhantomData;

use super::merge::MergeIter;
use super::single;
use super::TableError;
use crate::field::Decode;
use crate::key::RowKey;
use crate::scan::KeyRanges;
use crate::store::{CellError, CellRow, CellScan, Columns, LentCells, LentScan, RowWrite, Store};
use crate::value::{CellReader, RowValue};

/// Rows keyed by `K` whose columns are `V`'s fields, in a store `S`: Bigtable and HBase keep
/// them as native cells (family, qualifier, value), memory and fjall in the composite layout
/// (see [`Store::write_rows`]).
///
/// A put writes every field: a `Some` or required field sets its cell, a `None` field clears
/// its column, and columns that are not `V`'s stay as they are (another value type of the same
/// row, written by someone else). A read asks the store for `V`'s columns only; [`get_as`]
/// and [`scan_as`] read a projection: any other `RowValue` type whose columns are a subset.
///
/// [`get_as`]: CellTable::get_as
/// [`scan_as`]: CellTable::scan_as
pub struct CellTable<S, K, V> {
    store: S,
    _types: PhantomData<fn() -> (K, V)>,
}

impl<S: Store, K: RowKey, V: RowValue> CellTable<S, K, V> {
    /// A table of `K` keys and `V` values over `store`.
    pub fn new(store: S) -> Self {
        CellTable {
            store,
            _types: PhantomData,
        }
    }

    /// The underlying store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Writes one row (atomically, on every store rowkey has).
    pub fn put(&self, key: &K, value: &V) -> Result<(), TableError<S::Error>> {
        self.put_batch([(key, value)])
    }

    /// Writes many rows. Every key and value is encoded first: one that cannot be encoded
    /// fails the batch before anything is written; a store failure lists the keys not
    /// written.
    pub fn put_batch<'r>(
        &self,
        rows: impl IntoIterator<Item = (&'r K, &'r V)>,
    ) -> Result<(), TableError<S::Error>>
    where
        K: 'r,
        V: 'r,
    {
        let writes = encode_writes(rows)?;
        self.store.write_rows(&writes).map_err(TableError::Batch)
    }

    /// Reads one row's `V`; `None` when the row has none of `V`'s columns.
    pub fn get(&self, key: &K) -> Result<Option<V>, TableError<S::Error>> {
        self.get_as::<V>(key)
    }

    /// Reads one row's columns as `P`, any [`RowValue`] type (a projection of `V`: a few of
    /// its columns, read without the others).
    pub fn get_as<P: RowValue>(&self, key: &K) -> Result<Option<P>, TableError<S::Error>> {
        let k = key.to_bytes().map_err(single)?;
        let Some(row) = self.store.read_row(&k, &P::columns())? else {
            return Ok(None);
        };
        P::from_row(&row)
            .map(Some)
            .map_err(|error| TableError::Value {
                key: row.key,
                error,
            })
    }

    /// Deletes one row, every column (also those that are not `V`'s).
    pub fn delete(&self, key: &K) -> Result<(), TableError<S::Error>> {
        let k = key.to_bytes().map_err(single)?;
        self.store.delete_row(&k).map_err(TableError::from)
    }

    /// The rows of `ranges` (from `K::scan()`) as `(K, V)`, in `K`'s logical order, salt
    /// buckets merged as [`Table::scan`](super::Table::scan) merges them, with the same checks
    /// (keys decoded trusted within their bucket's range). Rows with none of `V`'s columns are
    /// left out.
    pub fn scan(&self, ranges: &KeyRanges) -> CellMerged<'_, S::Error, K, V>
    where
        K: for<'de> Decode<'de>,
    {
        self.scan_as::<V>(ranges)
    }

    /// [`CellTable::scan`] read as `P` (a projection: only `P`'s columns are read).
    pub fn scan_as<'a, P: RowValue + 'a>(
        &'a self,
        ranges: &KeyRanges,
    ) -> CellMerged<'a, S::Error, K, P>
    where
        K: for<'de> Decode<'de>,
    {
        CellMerged::forward(&self.store, ranges, &P::columns())
    }

    /// The rows of `ranges` in reverse logical order (the latest N), merged like
    /// [`CellTable::scan`]; `None` when the store has no reverse scans.
    pub fn scan_rev(&self, ranges: &KeyRanges) -> Option<CellMerged<'_, S::Error, K, V>>
    where
        K: for<'de> Decode<'de>,
    {
        CellMerged::backward(&self.store, ranges, &V::columns())
    }
}

/// The merged, decoded rows of a [`CellTable`] scan.
pub struct CellMerged<'a, E, K, V> {
    rows: Rows<'a, E, K, V>,
}

/// A single range's rows, decoded as the store lends them (no salt buckets to merge: a query
/// that fixes the salted fields, or an unsalted key); or several ranges' rows of copies,
/// merged in key order and decoded after.
enum Rows<'a, E, K, V> {
    One(Option<LentRows<'a, E, K, V>>),
    Merged(MergeIter<CellScan<'a, E>, CellRow>),
}

impl<'a, E: 'a, K: RowKey + for<'de> Decode<'de> + 'a, V: RowValue + 'a> CellMerged<'a, E, K, V> {
    /// The rows of `ranges` with `columns`, in key order.
    fn forward<S: Store<Error = E>>(store: &'a S, ranges: &KeyRanges, columns: &Columns) -> Self {
        Self::lent(store, ranges, columns, false).unwrap_or_else(|| {
            let scans = ranges.iter().map(|r| store.scan_rows(r, columns));
            Self::merged(scans.collect(), false)
        })
    }

    /// The rows of `ranges` with `columns`, in reverse key order; `None` when the store has no
    /// reverse scans.
    fn backward<S: Store<Error = E>>(
        store: &'a S,
        ranges: &KeyRanges,
        columns: &Columns,
    ) -> Option<Self> {
        if let Some(lent) = Self::lent(store, ranges, columns, true) {
            return Some(lent);
        }
        let scans = ranges.iter().map(|r| store.scan_rows_rev(r, columns));
        Some(Self::merged(scans.collect::<Option<_>>()?, true))
    }

    /// A single range's rows as the store lends them; `None` for several ranges, or when the
    /// store does not scan the way asked.
    fn lent<S: Store<Error = E>>(
        store: &'a S,
        ranges: &KeyRanges,
        columns: &Columns,
        reverse: bool,
    ) -> Option<Self> {
        let range = ranges.iter().next().filter(|_| ranges.len() == 1)?;
        let rows = store.scan_rows_lent(range, columns, reverse, decode_lent::<K, V, E>)?;
        Some(CellMerged {
            rows: Rows::One(Some(rows)),
        })
    }

    /// Several ranges' rows merged in key order.
    fn merged(scans: Vec<CellScan<'a, E>>, reverse: bool) -> Self {
        CellMerged {
            rows: Rows::Merged(MergeIter::new(
                scans,
                usize::from(K::SCHEMA.salt.is_some()),
                reverse,
            )),
        }
    }
}

impl<E, K: RowKey + for<'de> Decode<'de>, V: RowValue> Iterator for CellMerged<'_, E, K, V> {
    type Item = Result<(K, V), TableError<E>>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.rows {
            // An error ends the scan, as it ends a merged range.
            Rows::One(rows) => match rows.as_mut()?.next() {
                Some(Ok(decoded)) => Some(decoded),
                Some(Err(e)) => {
                    *rows = None;
                    Some(Err(e.into()))
                }
                None => {
                    *rows = None;
                    None
                }
            },
            Rows::Merged(rows) => match rows.next()? {
                Ok(row) => Some(decode(row)),
                Err(e) => Some(Err(e.into())),
            },
        }
    }
}

/// A single range's rows, decoded as lent.
type LentRows<'a, E, K, V> = LentScan<'a, Result<(K, V), TableError<E>>, CellError<E>>;

/// A lent row decoded: its value, then its key (trusted: the store kept it in the range).
fn decode_lent<K: RowKey + for<'de> Decode<'de>, V: RowValue, E>(
    key: &[u8],
    cells: LentCells<'_>,
) -> Result<(K, V), TableError<E>> {
    let value =
        V::read_cells(&CellReader::lent(cells, &V::SCHEMA)).map_err(|error| TableError::Value {
            key: key.to_vec(),
            error,
        })?;
    match K::decode_trusted(key) {
        Ok(k) => Ok((k, value)),
        Err(error) => Err(TableError::Decode {
            key: key.to_vec(),
            error,
        }),
    }
}

/// Encodes every key and value of a batch before anything is written: one that cannot be
/// encoded fails the batch (a key naming its index, a value its key and column).
pub(super) fn encode_writes<'r, K: RowKey + 'r, V: RowValue + 'r, E>(
    rows: impl IntoIterator<Item = (&'r K, &'r V)>,
) -> Result<Vec<RowWrite>, TableError<E>> {
    let rows = rows.into_iter();
    let mut writes: Vec<RowWrite> = Vec::with_capacity(rows.size_hint().0);
    for (index, (key, value)) in rows.enumerate() {
        let k = key.to_bytes().map_err(|error| TableError::Encode {
            index: Some(index),
            error,
        })?;
        let k = Vec::from(k);
        let write = value
            .to_write(k.clone())
            .map_err(|error| TableError::Value { key: k, error })?;
        writes.push(write);
    }
    Ok(writes)
}

/// A row of a typed scan: its key decoded (trusted within its bucket's range) and its cells
/// read as `V`.
pub(super) fn decode<K: RowKey + for<'de> Decode<'de>, V: RowValue, E>(
    row: CellRow,
) -> Result<(K, V), TableError<E>> {
    decode_lent(&row.key, LentCells::cells(&row.cells))
}
