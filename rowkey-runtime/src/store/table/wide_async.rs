//! [`AsyncWideTable`]: the async twin of [`WideTable`](super::WideTable), rows as columns over
//! an [`AsyncStore`], and [`WideMergedStream`], its merged scan. The plan, the record writes and
//! the decoding are the blocking table's (`wide_table.rs`); only the fetching differs.

use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::{Stream, StreamExt};

use super::merge::MergeStreams;
use super::single;
use super::wide::{
    decode_record, piece_columns, record_cell, record_clear, record_value, record_writes,
    records_of,
};
use super::TableError;
use crate::field::Decode;
use crate::rows_as_columns::RowsAsColumns;
use crate::scan::KeyRanges;
use crate::store::{AsyncStore, Column, Columns, Row};
use crate::value::ColumnValue;

/// Records keyed by `K` (a `#[row_span(N)]` key) with values `V`, one cell each in family
/// `family` of an async store: [`WideTable`](super::WideTable)'s operations as futures and a
/// merged stream.
pub struct AsyncWideTable<S, K, V> {
    store: S,
    family: &'static str,
    _types: PhantomData<fn() -> (K, V)>,
}

/// One range's records as a stream: its pieces' cell scans one after another, each row's
/// cells flattened into whole keys.
type RangeStream<'a, E> = Pin<Box<dyn Stream<Item = Result<Row, TableError<E>>> + Send + 'a>>;

impl<S: AsyncStore, K: RowsAsColumns, V: ColumnValue> AsyncWideTable<S, K, V> {
    /// A table of `K` records with `V` values in column family `family` of `store`.
    pub fn new(store: S, family: &'static str) -> Self {
        AsyncWideTable {
            store,
            family,
            _types: PhantomData,
        }
    }

    /// The underlying store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The column family.
    pub fn family(&self) -> &'static str {
        self.family
    }

    /// What a scan of `ranges` reads: per range, the rows and the qualifier ranges of its edge
    /// rows ([`RowsAsColumns::plan`]), as [`WideTable::plan`](super::WideTable::plan).
    pub fn plan(&self, ranges: &KeyRanges) -> Vec<Vec<crate::rows_as_columns::Piece>> {
        ranges.iter().map(K::plan).collect()
    }

    /// Writes one record: one cell.
    pub async fn put(&self, key: &K, value: &V) -> Result<(), TableError<S::Error>> {
        self.put_batch([(key, value)]).await
    }

    /// Writes many records, one row write per row; every key and value is encoded first.
    pub async fn put_batch<'r>(
        &self,
        records: impl IntoIterator<Item = (&'r K, &'r V)>,
    ) -> Result<(), TableError<S::Error>>
    where
        K: 'r,
        V: 'r,
    {
        let writes = record_writes(self.family, records)?;
        self.store
            .write_rows(&writes)
            .await
            .map_err(TableError::Batch)
    }

    /// Reads one record.
    pub async fn get(&self, key: &K) -> Result<Option<V>, TableError<S::Error>> {
        let (row, qualifier) = record_cell(key).map_err(single)?;
        let column = Columns::exact([Column::new(self.family, qualifier.clone())]);
        let found = self.store.read_row(&row, &column).await?;
        record_value(self.family, row, qualifier, found)
    }

    /// Deletes one record.
    pub async fn delete(&self, key: &K) -> Result<(), TableError<S::Error>> {
        let write = record_clear(self.family, key)?;
        self.store
            .write_rows(&[write])
            .await
            .map_err(TableError::Batch)
    }

    /// The records of `ranges` in `K`'s logical order, salt buckets merged.
    pub fn scan(&self, ranges: &KeyRanges) -> WideMergedStream<'_, S::Error, K, V>
    where
        K: for<'de> Decode<'de>,
    {
        self.merged(ranges, false)
            .expect("forward cell scans always open")
    }

    /// The records of `ranges` in reverse logical order; `None` when the store has no
    /// reverse scans.
    pub fn scan_rev(&self, ranges: &KeyRanges) -> Option<WideMergedStream<'_, S::Error, K, V>>
    where
        K: for<'de> Decode<'de>,
    {
        self.merged(ranges, true)
    }

    fn merged(
        &self,
        ranges: &KeyRanges,
        reverse: bool,
    ) -> Option<WideMergedStream<'_, S::Error, K, V>> {
        let family = self.family;
        let mut streams: Vec<RangeStream<'_, S::Error>> = Vec::new();
        for r in ranges.iter() {
            let mut pieces = K::plan(r);
            if reverse {
                pieces.reverse();
            }
            // Opened at once, so a store without reverse scans says so here.
            let mut scans = Vec::with_capacity(pieces.len());
            for piece in &pieces {
                let columns = piece_columns(family, piece);
                scans.push(if reverse {
                    self.store.scan_rows_rev(&piece.rows, &columns)?
                } else {
                    self.store.scan_rows(&piece.rows, &columns)
                });
            }
            let records = futures_util::stream::iter(scans)
                .flatten()
                .flat_map(move |row| {
                    let rows: Vec<Result<Row, TableError<S::Error>>> = match row {
                        Ok(row) => records_of(row, family, reverse)
                            .into_iter()
                            .map(Ok)
                            .collect(),
                        Err(e) => vec![Err(e.into())],
                    };
                    futures_util::stream::iter(rows)
                });
            streams.push(Box::pin(records));
        }
        Some(WideMergedStream {
            family,
            rows: MergeStreams::new(streams, usize::from(K::SCHEMA.salt.is_some()), reverse),
            _types: PhantomData,
        })
    }
}

/// The merged, decoded records of an [`AsyncWideTable`] scan.
pub struct WideMergedStream<'a, E, K, V> {
    family: &'static str,
    rows: MergeStreams<RangeStream<'a, E>, Row>,
    _types: PhantomData<fn() -> (K, V)>,
}

// Nothing is pinned structurally: the range streams are boxed, the rest is plain data.
impl<E, K, V> Unpin for WideMergedStream<'_, E, K, V> {}

impl<E, K: RowsAsColumns + for<'de> Decode<'de>, V: ColumnValue> Stream
    for WideMergedStream<'_, E, K, V>
{
    type Item = Result<(K, V), TableError<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        let family = this.family;
        this.rows.poll_next_row(cx).map(|row| {
            row.map(|row| match row {
                Ok(row) => decode_record(family, row),
                Err(e) => Err(e),
            })
        })
    }
}
