//! [`Table::query`]: a skip-scan [`Query`] read through a typed table, in the key's logical
//! order ([`QueryRows`]).

use std::marker::PhantomData;
use std::sync::Arc;

use bytes::Bytes;

use super::merge::MergeIter;
use super::{decode_checked, Check, Table, TableError};
use crate::field::Decode;
use crate::key::RowKey;
use crate::scan::query::{Query, QueryFor};
use crate::store::skip::{Counters, SkipScan, SkipStats};
use crate::store::{Row, Store};

impl<S: Store, K: RowKey> Table<S, K> {
    /// The rows whose keys `query` matches (from `K::query()`), decoded, in `K`'s logical
    /// order. Keys outside the query are sought past, not read (a walk per salt bucket for a
    /// salted key whose bucket the query does not fix, merged as [`Table::scan`] merges);
    /// [`QueryRows::stats`] says how many rows were read and how many seeks it took. Rows
    /// whose key is not a `K` are not returned (counted as `foreign`); the salt byte is not
    /// re-hashed, as in [`Table::scan`].
    ///
    /// ```
    /// use rowkey::store::{MemStore, Table};
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// #[rowkey(query)] // generates `Install::query()`
    /// struct Install {
    ///     user: u32,
    ///     app: u16,
    /// }
    ///
    /// let table = Table::<_, Install>::new(MemStore::new());
    /// for user in 0..1_000 {
    ///     for app in 0..5 {
    ///         table.put(&Install { user, app }, b"")?;
    ///     }
    /// }
    /// // Every user of app 3, without a full scan: each user's other apps are sought past.
    /// let rows = table.query(&Install::query().app(3u16).build());
    /// let users: Vec<u32> = rows.map(|r| r.map(|(k, _)| k.user)).collect::<Result<_, _>>()?;
    /// assert_eq!(users, (0..1_000).collect::<Vec<_>>());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn query(&self, query: &impl QueryFor<K>) -> QueryRows<'_, S, K>
    where
        K: for<'de> Decode<'de>,
    {
        let counters = Arc::<Counters>::default();
        let walks = walks::<K>(query.as_query())
            .iter()
            .map(|q| SkipScan::counted(self.store(), q, counters.clone()))
            .collect();
        QueryRows::new(walks, false, counters)
    }

    /// [`Table::query`] in reverse logical order; `None` when the store has no reverse scans.
    pub fn query_rev(&self, query: &impl QueryFor<K>) -> Option<QueryRows<'_, S, K>>
    where
        K: for<'de> Decode<'de>,
    {
        let counters = Arc::<Counters>::default();
        let walks = walks::<K>(query.as_query())
            .iter()
            .map(|q| SkipScan::counted_rev(self.store(), q, counters.clone()))
            .collect::<Option<Vec<_>>>()?;
        Some(QueryRows::new(walks, true, counters))
    }
}

/// The walks of a query: one, or, for a salted key, one per bucket the query allows.
pub(super) fn walks<K: RowKey>(query: &Query) -> Vec<Query> {
    query.per_bucket(K::__SALT_BUCKETS)
}

/// The decoded rows of a query, in logical key order; see [`Table::query`].
pub struct QueryRows<'a, S: Store + 'a, K> {
    rows: MergeIter<SkipScan<'a, S>, Row>,
    counters: Arc<Counters>,
    _key: PhantomData<fn() -> K>,
}

impl<'a, S: Store + 'a, K: RowKey> QueryRows<'a, S, K> {
    fn new(walks: Vec<SkipScan<'a, S>>, reverse: bool, counters: Arc<Counters>) -> Self {
        QueryRows {
            rows: MergeIter::new(walks, usize::from(K::__SALT_BUCKETS != 0), reverse),
            counters,
            _key: PhantomData,
        }
    }

    /// What the query has done so far: rows read from the store, seeks, rows returned.
    pub fn stats(&self) -> SkipStats {
        self.counters.stats()
    }
}

impl<'a, S: Store + 'a, K: RowKey + for<'de> Decode<'de>> Iterator for QueryRows<'a, S, K> {
    type Item = Result<(K, Bytes), TableError<S::Error>>;

    fn next(&mut self) -> Option<Self::Item> {
        let (key, value) = match self.rows.next()? {
            Ok(row) => row,
            Err(e) => return Some(Err(TableError::Store(e))),
        };
        Some(decode_checked::<K, S::Error>(&key, Check::Trusted).map(|k| (k, value)))
    }
}
