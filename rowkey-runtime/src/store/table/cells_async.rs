//! [`AsyncCellTable`]: the async twin of [`CellTable`](super::CellTable), typed rows of cells
//! over an [`AsyncStore`], and [`CellMergedStream`], its merged scan.

use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::Stream;

use super::cells::{decode, encode_writes};
use super::merge::MergeStreams;
use super::single;
use super::TableError;
use crate::field::Decode;
use crate::key::RowKey;
use crate::scan::KeyRanges;
use crate::store::{AsyncStore, CellError, CellRow, CellStream};
use crate::value::RowValue;

/// Rows keyed by `K` whose columns are `V`'s fields, in an async store `S` (Bigtable, HBase,
/// memory): [`CellTable`](super::CellTable)'s operations and guarantees, as futures and
/// streams usable from any tokio service.
pub struct AsyncCellTable<S, K, V> {
    store: S,
    _types: PhantomData<fn() -> (K, V)>,
}

impl<S: AsyncStore, K: RowKey, V: RowValue> AsyncCellTable<S, K, V> {
    /// A table of `K` keys and `V` values over `store`.
    pub fn new(store: S) -> Self {
        AsyncCellTable {
            store,
            _types: PhantomData,
        }
    }

    /// The underlying store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Writes one row: set fields set their cells, `None` fields clear their columns.
    pub async fn put(&self, key: &K, value: &V) -> Result<(), TableError<S::Error>> {
        self.put_batch([(key, value)]).await
    }

    /// Writes many rows; every key and value is encoded before anything is written, and a
    /// store failure lists the keys not written.
    pub async fn put_batch<'r>(
        &self,
        rows: impl IntoIterator<Item = (&'r K, &'r V)>,
    ) -> Result<(), TableError<S::Error>>
    where
        K: 'r,
        V: 'r,
    {
        let writes = encode_writes(rows)?;
        self.store
            .write_rows(&writes)
            .await
            .map_err(TableError::Batch)
    }

    /// Reads one row's `V`; `None` when the row has none of `V`'s columns.
    pub async fn get(&self, key: &K) -> Result<Option<V>, TableError<S::Error>> {
        self.get_as::<V>(key).await
    }

    /// Reads one row's columns as `P` (a projection of `V`).
    pub async fn get_as<P: RowValue>(&self, key: &K) -> Result<Option<P>, TableError<S::Error>> {
        let k = key.to_bytes().map_err(single)?;
        let Some(row) = self.store.read_row(&k, &P::columns()).await? else {
            return Ok(None);
        };
        P::from_row(&row)
            .map(Some)
            .map_err(|error| TableError::Value {
                key: row.key,
                error,
            })
    }

    /// Deletes one row, every column.
    pub async fn delete(&self, key: &K) -> Result<(), TableError<S::Error>> {
        let k = key.to_bytes().map_err(single)?;
        self.store.delete_row(&k).await.map_err(TableError::from)
    }

    /// The rows of `ranges` as `(K, V)` in `K`'s logical order, salt buckets merged; every
    /// range is opened at once.
    pub fn scan(&self, ranges: &KeyRanges) -> CellMergedStream<S::Error, K, V>
    where
        K: for<'de> Decode<'de>,
    {
        self.scan_as::<V>(ranges)
    }

    /// [`AsyncCellTable::scan`] read as `P` (only `P`'s columns are read).
    pub fn scan_as<P: RowValue>(&self, ranges: &KeyRanges) -> CellMergedStream<S::Error, K, P>
    where
        K: for<'de> Decode<'de>,
    {
        let columns = P::columns();
        let streams = ranges
            .iter()
            .map(|r| self.store.scan_rows(r, &columns))
            .collect();
        CellMergedStream::new(streams, false)
    }

    /// The rows of `ranges` in reverse logical order; `None` when the store has no reverse
    /// scans.
    pub fn scan_rev(&self, ranges: &KeyRanges) -> Option<CellMergedStream<S::Error, K, V>>
    where
        K: for<'de> Decode<'de>,
    {
        let columns = V::columns();
        let streams = ranges
            .iter()
            .map(|r| self.store.scan_rows_rev(r, &columns))
            .collect::<Option<Vec<_>>>()?;
        Some(CellMergedStream::new(streams, true))
    }
}

/// The merged, decoded rows of an [`AsyncCellTable`] scan.
pub struct CellMergedStream<E, K, V> {
    rows: MergeStreams<CellStream<E>, CellRow>,
    _types: PhantomData<fn() -> (K, V)>,
}

impl<E, K: RowKey, V> CellMergedStream<E, K, V> {
    fn new(streams: Vec<CellStream<E>>, reverse: bool) -> Self {
        CellMergedStream {
            rows: MergeStreams::new(streams, usize::from(K::SCHEMA.salt.is_some()), reverse),
            _types: PhantomData,
        }
    }
}

// Nothing is pinned structurally: the range streams are boxed, the rest is plain data.
impl<E, K, V> Unpin for CellMergedStream<E, K, V> {}

impl<E, K: RowKey + for<'de> Decode<'de>, V: RowValue> Stream for CellMergedStream<E, K, V> {
    type Item = Result<(K, V), TableError<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().rows.poll_next_row(cx).map(|row| {
            row.map(|row: Result<CellRow, CellError<E>>| match row {
                Ok(row) => decode(row),
                Err(e) => Err(e.into()),
            })
        })
    }
}
