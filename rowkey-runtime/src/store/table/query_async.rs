//! [`AsyncTable::query`]: the async twin of [`Table::query`](super::Table::query), a skip-scan
//! [`Query`] read through a typed async table as a stream ([`QueryStream`]).

use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;

use super::merge::MergeStreams;
use super::query::walks;
use super::{decode_checked, AsyncTable, Check, TableError};
use crate::field::Decode;
use crate::key::RowKey;
use crate::scan::query::QueryFor;
use crate::store::skip::{Counters, SkipStats, SkipStream};
use crate::store::{AsyncStore, Row};

impl<S: AsyncStore, K: RowKey> AsyncTable<S, K> {
    /// The rows whose keys `query` matches, decoded, in `K`'s logical order, as a stream:
    /// [`Table::query`](super::Table::query)'s walk, each seek a new range stream.
    pub fn query(&self, query: &impl QueryFor<K>) -> QueryStream<'_, S, K>
    where
        K: for<'de> Decode<'de>,
    {
        let counters = Arc::<Counters>::default();
        let walks = walks::<K>(query.as_query())
            .iter()
            .map(|q| SkipStream::counted(self.store(), q, counters.clone()))
            .collect();
        QueryStream::new(walks, false, counters)
    }

    /// [`AsyncTable::query`] in reverse logical order; `None` when the store has no reverse
    /// scans.
    pub fn query_rev(&self, query: &impl QueryFor<K>) -> Option<QueryStream<'_, S, K>>
    where
        K: for<'de> Decode<'de>,
    {
        let counters = Arc::<Counters>::default();
        let walks = walks::<K>(query.as_query())
            .iter()
            .map(|q| SkipStream::counted_rev(self.store(), q, counters.clone()))
            .collect::<Option<Vec<_>>>()?;
        Some(QueryStream::new(walks, true, counters))
    }
}

/// The decoded rows of an async query, in logical key order; see [`AsyncTable::query`].
pub struct QueryStream<'a, S: AsyncStore, K> {
    rows: MergeStreams<SkipStream<'a, S>, Row>,
    counters: Arc<Counters>,
    _key: PhantomData<fn() -> K>,
}

impl<'a, S: AsyncStore, K: RowKey> QueryStream<'a, S, K> {
    fn new(walks: Vec<SkipStream<'a, S>>, reverse: bool, counters: Arc<Counters>) -> Self {
        QueryStream {
            rows: MergeStreams::new(walks, usize::from(K::__SALT_BUCKETS != 0), reverse),
            counters,
            _key: PhantomData,
        }
    }

    /// What the query has done so far: rows read from the store, seeks, rows returned.
    pub fn stats(&self) -> SkipStats {
        self.counters.stats()
    }
}

// Nothing is pinned structurally: the walks' range streams are boxed, the rest is plain data.
impl<S: AsyncStore, K> Unpin for QueryStream<'_, S, K> {}

impl<S: AsyncStore, K: RowKey + for<'de> Decode<'de>> futures_util::Stream
    for QueryStream<'_, S, K>
{
    type Item = Result<(K, Bytes), TableError<S::Error>>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let (key, value) = match futures_util::ready!(self.rows.poll_next_row(cx)) {
            None => return Poll::Ready(None),
            Some(Ok(row)) => row,
            Some(Err(e)) => return Poll::Ready(Some(Err(TableError::Store(e)))),
        };
        Poll::Ready(Some(
            decode_checked::<K, S::Error>(&key, Check::Trusted).map(|k| (k, value)),
        ))
    }
}
