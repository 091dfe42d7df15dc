//! [`AsyncTable`]: typed keys over an [`AsyncStore`], and [`MergedStream`], the async face of
//! the salted merge (the ordering itself is `MergeCore`, shared with the blocking
//! [`Merged`](super::Merged)).

use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_util::{Stream, StreamExt};

use super::merge::MergeStreams;
use super::TableError;
use super::{decode_checked, decode_row, encode_batch, single, Check};
use crate::field::Decode;
use crate::key::RowKey;
use crate::scan::KeyRanges;
use crate::store::{AsyncStore, Row, RowStream};

/// Rows keyed by `K` in an async store `S`; values are raw bytes. The async twin of
/// [`Table`](super::Table), with the same encoding, batching and merge.
pub struct AsyncTable<S, K> {
    store: S,
    _key: PhantomData<fn() -> K>,
}

impl<S: AsyncStore, K: RowKey> AsyncTable<S, K> {
    /// A table of `K` keys over `store`.
    pub fn new(store: S) -> Self {
        AsyncTable {
            store,
            _key: PhantomData,
        }
    }

    /// The underlying store.
    pub fn store(&self) -> &S {
        &self.store
    }

    fn key(key: &K) -> Result<crate::bytes::Bytes, TableError<S::Error>> {
        key.to_bytes().map_err(single)
    }

    /// Writes one row.
    pub async fn put(&self, key: &K, value: &[u8]) -> Result<(), TableError<S::Error>> {
        let k = Self::key(key)?;
        self.store.put(&k, value).await.map_err(TableError::Store)
    }

    /// Reads one row.
    pub async fn get(&self, key: &K) -> Result<Option<Bytes>, TableError<S::Error>> {
        let k = Self::key(key)?;
        self.store.get(&k).await.map_err(TableError::Store)
    }

    /// Deletes one row.
    pub async fn delete(&self, key: &K) -> Result<(), TableError<S::Error>> {
        let k = Self::key(key)?;
        self.store.delete(&k).await.map_err(TableError::Store)
    }

    /// Writes many rows; every key is encoded before anything is written, and a store failure
    /// reports exactly the keys not confirmed written.
    pub async fn put_batch<'r, V: AsRef<[u8]> + 'r>(
        &self,
        rows: impl IntoIterator<Item = (&'r K, V)>,
    ) -> Result<(), TableError<S::Error>>
    where
        K: 'r,
    {
        let encoded = encode_batch(rows)?;
        self.store
            .write_batch(&encoded)
            .await
            .map_err(TableError::Batch)
    }

    /// The rows of `ranges`, decoded, in `K`'s logical order (salt buckets merged), as a
    /// stream; every range is opened at once. The checks are [`Table::scan`](super::Table::scan)'s:
    /// all but re-hashing the salt byte.
    pub fn scan(&self, ranges: &KeyRanges) -> MergedStream<S::Error, K>
    where
        K: for<'de> Decode<'de>,
    {
        self.merged(ranges, Check::Trusted)
    }

    /// [`AsyncTable::scan`] with every row's salt byte re-hashed and checked.
    pub fn scan_verified(&self, ranges: &KeyRanges) -> MergedStream<S::Error, K>
    where
        K: for<'de> Decode<'de>,
    {
        self.merged(ranges, Check::Verified)
    }

    fn merged(&self, ranges: &KeyRanges, check: Check) -> MergedStream<S::Error, K> {
        let scans = ranges.iter().map(|r| self.store.scan(r)).collect();
        MergedStream::new(scans, false, check)
    }

    /// The rows of `ranges` in reverse logical order, merged across salt buckets; `None` when
    /// the store has no reverse scans.
    pub fn scan_rev(&self, ranges: &KeyRanges) -> Option<MergedStream<S::Error, K>>
    where
        K: for<'de> Decode<'de>,
    {
        let scans = ranges
            .iter()
            .map(|r| self.store.scan_rev(r))
            .collect::<Option<Vec<_>>>()?;
        Some(MergedStream::new(scans, true, Check::Trusted))
    }

    /// The salted merge of [`AsyncTable::scan`] without decoding: the stored rows in `K`'s
    /// logical order, key bytes and all, as [`Table::scan_raw`](super::Table::scan_raw) hands
    /// them out (for a key type that borrows from the row, or to pass rows on undecoded).
    pub fn scan_raw(&self, ranges: &KeyRanges) -> RawMergedStream<S::Error> {
        let scans = ranges.iter().map(|r| self.store.scan(r)).collect();
        RawMergedStream {
            rows: MergeStreams::new(scans, usize::from(K::SCHEMA.salt.is_some()), false),
        }
    }

    /// Loads rows the fastest way the store has ([`AsyncStore::load`]; a batch write unless
    /// the store has a faster path): the first load of a table, or a migration. Every key is
    /// encoded before anything is written; of rows with the same key the last wins; a store
    /// failure reports the keys not written.
    pub async fn bulk_load<'r, V: AsRef<[u8]> + 'r>(
        &self,
        rows: impl IntoIterator<Item = (&'r K, V)>,
    ) -> Result<(), TableError<S::Error>>
    where
        K: 'r,
    {
        let encoded = encode_batch(rows)?;
        self.store.load(encoded).await.map_err(TableError::Batch)
    }

    /// The rows of `ranges` range after range, without merging (bucket order for a salted
    /// key).
    pub fn scan_unordered(
        &self,
        ranges: &KeyRanges,
    ) -> impl Stream<Item = Result<(K, Bytes), TableError<S::Error>>> + Send + 'static
    where
        K: for<'de> Decode<'de>,
    {
        let scans: Vec<RowStream<S::Error>> = ranges.iter().map(|r| self.store.scan(r)).collect();
        futures_util::stream::iter(scans)
            .flatten()
            .map(|row| decode_row::<K, S::Error>(row.map_err(TableError::Store)?, Check::Trusted))
    }
}

/// The merged, decoded rows of an async scan; see [`AsyncTable::scan`].
pub struct MergedStream<E, K> {
    rows: MergeStreams<RowStream<E>, Row>,
    check: Check,
    _key: PhantomData<fn() -> K>,
}

impl<E, K: RowKey> MergedStream<E, K> {
    fn new(streams: Vec<RowStream<E>>, reverse: bool, check: Check) -> Self {
        MergedStream {
            check,
            rows: MergeStreams::new(streams, usize::from(K::SCHEMA.salt.is_some()), reverse),
            _key: PhantomData,
        }
    }
}

impl<E, K: RowKey + for<'de> Decode<'de>> MergedStream<E, K> {
    /// This stream as one that lends each row instead of handing it out: see [`LentStream`],
    /// the async twin of [`Merged::lending`](super::Merged::lending).
    pub fn lending(self) -> LentStream<E, K> {
        LentStream {
            merged: self,
            held: None,
        }
    }
}

// Nothing is pinned structurally: the range streams are boxed, the rest is plain data.
impl<E, K> Unpin for MergedStream<E, K> {}

/// The async twin of [`LentRows`](super::LentRows), from [`MergedStream::lending`]: each row's
/// key decoded (with the checks of the scan it came from) and its value lent until the next
/// call, from the row the stream holds; [`LentStream::next_raw`] lends the key's bytes too,
/// for a borrowed twin of the key type. Read with `while let Some(row) = rows.next().await`.
/// (An async store's rows are its own `Bytes` already: what this saves is the decode into an
/// owned key where a borrowed one will do, and it keeps one shape with the blocking scan.)
pub struct LentStream<E, K> {
    merged: MergedStream<E, K>,
    /// The current row.
    held: Option<Row>,
}

impl<E, K: RowKey + for<'de> Decode<'de>> LentStream<E, K> {
    /// The next row: its key decoded, its value lent until the next call. A store error ends
    /// its range, as in [`MergedStream`]; a key that does not decode is a
    /// [`TableError::Decode`] and the scan goes on.
    #[allow(clippy::type_complexity)] // says exactly what is lent
    pub async fn next(&mut self) -> Option<Result<(K, &[u8]), TableError<E>>> {
        let check = self.merged.check;
        let (key, value) = match self.next_raw().await? {
            Ok(row) => row,
            Err(e) => return Some(Err(e)),
        };
        Some(decode_checked(key, check).map(|k| (k, value)))
    }

    /// The next row as stored, not decoded: key and value bytes lent until the next call. A
    /// store error ends its range.
    #[allow(clippy::type_complexity)] // says exactly what is lent
    pub async fn next_raw(&mut self) -> Option<Result<(&[u8], &[u8]), TableError<E>>> {
        let rows = &mut self.merged.rows;
        let row = match std::future::poll_fn(|cx| rows.poll_next_row(cx)).await? {
            Ok(row) => row,
            Err(e) => return Some(Err(TableError::Store(e))),
        };
        let (key, value) = self.held.insert(row);
        Some(Ok((&key[..], &value[..])))
    }
}

/// The merged, undecoded rows of an async scan; see [`AsyncTable::scan_raw`].
pub struct RawMergedStream<E> {
    rows: MergeStreams<RowStream<E>, Row>,
}

impl<E> Unpin for RawMergedStream<E> {}

impl<E> Stream for RawMergedStream<E> {
    type Item = Result<Row, TableError<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut()
            .rows
            .poll_next_row(cx)
            .map(|row| row.map(|row| row.map_err(TableError::Store)))
    }
}

impl<E, K: RowKey + for<'de> Decode<'de>> Stream for MergedStream<E, K> {
    type Item = Result<(K, Bytes), TableError<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        this.rows.poll_next_row(cx).map(|row| {
            row.map(|row| match row {
                Ok(row) => decode_row(row, this.check),
                Err(e) => Err(TableError::Store(e)),
            })
        })
    }
}
