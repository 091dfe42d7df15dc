//! Skip scans over any [`Store`]: a [`Query`](crate::Query)'s walk, each key read either
//! matching or telling where the next key that could match starts, and the store's scan
//! started again there (so a gap of non-matching keys costs one seek, not a read of each).
//!
//! On an embedded store (fjall, memory) a new scan is a seek in the sorted data; on a network
//! store it is a new scanner, which is why those stores filter on the server instead (planned:
//! HBase's FuzzyRowFilter and row filters, Bigtable's row-key regular expression). The rows
//! are in key byte order: a salted key's buckets one after another (the typed
//! [`Table::query`](super::Table::query) walks each bucket apart and merges them in logical
//! order).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::scan::query::{Query, Step};
use crate::scan::KeyRange;

use super::{Row, Store};

/// What a skip scan did: rows read from the store, seeks, rows returned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkipStats {
    /// Rows the store handed over (matching or not).
    pub read: u64,
    /// Times the walk started a new scan past a gap.
    pub seeks: u64,
    /// Rows that matched.
    pub matched: u64,
    /// Rows whose key is not one of the query's type (it does not decode): never returned.
    pub foreign: u64,
}

/// The counters behind [`SkipStats`], shared by the walks of one query (one per salt bucket).
#[derive(Debug, Default)]
pub(crate) struct Counters {
    read: AtomicU64,
    seeks: AtomicU64,
    matched: AtomicU64,
    foreign: AtomicU64,
}

impl Counters {
    pub(crate) fn stats(&self) -> SkipStats {
        SkipStats {
            read: self.read.load(Ordering::Relaxed),
            seeks: self.seeks.load(Ordering::Relaxed),
            matched: self.matched.load(Ordering::Relaxed),
            foreign: self.foreign.load(Ordering::Relaxed),
        }
    }
}

/// The rows of a skip scan over any [`Store`], in key byte order (or reverse): each key read
/// either matches the [`Query`] or tells where the next key that could match starts, and the
/// store's scan starts again there. On an embedded store (fjall, memory) that is a seek; on a
/// network store a new scanner. A salted key's buckets come one after another;
/// [`Table::query`](super::Table::query) walks them apart and merges them in logical order.
pub struct SkipScan<'a, S: Store + ?Sized + 'a> {
    store: &'a S,
    query: Query,
    reverse: bool,
    /// The walk's fixed end: forward, the key it stops before; reverse, the first key.
    start: Vec<u8>,
    end: Option<Vec<u8>>,
    inner: Option<S::Scan<'a>>,
    ends: Vec<usize>,
    counters: Arc<Counters>,
}

impl<'a, S: Store + ?Sized + 'a> SkipScan<'a, S> {
    /// A forward walk of `query` over `store`.
    pub fn new(store: &'a S, query: &Query) -> Self {
        Self::counted(store, query, Arc::default())
    }

    /// A reverse walk; `None` when the store has no reverse scans.
    pub fn new_rev(store: &'a S, query: &Query) -> Option<Self> {
        Self::counted_rev(store, query, Arc::default())
    }

    pub(crate) fn counted(store: &'a S, query: &Query, counters: Arc<Counters>) -> Self {
        let (start, end) = (query.start(), query.end());
        let inner = (!query.is_empty()).then(|| store.scan(&KeyRange::new(&start, end.as_deref())));
        SkipScan {
            store,
            query: query.clone(),
            reverse: false,
            start,
            end,
            inner,
            ends: Vec::new(),
            counters,
        }
    }

    pub(crate) fn counted_rev(
        store: &'a S,
        query: &Query,
        counters: Arc<Counters>,
    ) -> Option<Self> {
        let (start, end) = (query.start(), query.end());
        let inner = if query.is_empty() {
            None
        } else {
            Some(store.scan_rev(&KeyRange::new(&start, end.as_deref()))?)
        };
        Some(SkipScan {
            store,
            query: query.clone(),
            reverse: true,
            start,
            end,
            inner,
            ends: Vec::new(),
            counters,
        })
    }

    /// What the walk has done so far.
    pub fn stats(&self) -> SkipStats {
        self.counters.stats()
    }

    /// Starts the scan again after `key`, which did not match, where `step` says.
    fn seek(&mut self, key: &[u8], step: Step) {
        self.counters.seeks.fetch_add(1, Ordering::Relaxed);
        self.inner = match next_range(key, step, self.reverse, &self.start, &self.end) {
            None => None,
            Some(range) if self.reverse => self.store.scan_rev(&range),
            Some(range) => Some(self.store.scan(&range)),
        };
    }
}

/// The range a walk reads next after `key`, which did not match, where `step` says (`None`:
/// nothing is left). Always past `key` forward and below it in reverse, whatever the step
/// computed, so that a walk never reads a key twice; within the walk's fixed ends.
fn next_range(
    key: &[u8],
    step: Step,
    reverse: bool,
    start: &[u8],
    end: &Option<Vec<u8>>,
) -> Option<KeyRange> {
    match step {
        Step::Match | Step::Foreign | Step::Done => None,
        // Only a reverse walk is told to read from the end.
        Step::FromEnd if !reverse => None,
        Step::Seek(mut to) if !reverse => {
            if to.as_slice() <= key {
                to = key.to_vec();
                to.push(0);
            }
            if end.as_ref().is_some_and(|e| &to >= e) {
                None
            } else {
                Some(KeyRange::new(&to, end.as_deref()))
            }
        }
        Step::Seek(to) => {
            let to = if to.as_slice() > key { key } else { &to[..] };
            (to > start).then(|| KeyRange::new(start, Some(to)))
        }
        Step::FromEnd => (key > start).then(|| KeyRange::new(start, Some(key))),
    }
}

impl<'a, S: Store + ?Sized + 'a> Iterator for SkipScan<'a, S> {
    type Item = Result<Row, S::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let row = match self.inner.as_mut()?.next() {
                None => {
                    self.inner = None;
                    return None;
                }
                Some(Err(e)) => {
                    self.inner = None;
                    return Some(Err(e));
                }
                Some(Ok(row)) => row,
            };
            self.counters.read.fetch_add(1, Ordering::Relaxed);
            let step = if self.reverse {
                self.query.seek_rev(&row.0, &mut self.ends)
            } else {
                self.query.seek(&row.0, &mut self.ends)
            };
            match step {
                Step::Match => {
                    self.counters.matched.fetch_add(1, Ordering::Relaxed);
                    return Some(Ok(row));
                }
                Step::Foreign => {
                    self.counters.foreign.fetch_add(1, Ordering::Relaxed);
                }
                Step::Done => {
                    self.inner = None;
                    return None;
                }
                step => self.seek(&row.0, step),
            }
        }
    }
}

/// The async twin of [`SkipScan`]: a skip scan over an [`AsyncStore`](super::AsyncStore), each
/// seek a new range stream.
#[cfg(feature = "async")]
pub struct SkipStream<'a, S: super::AsyncStore> {
    store: &'a S,
    query: Query,
    reverse: bool,
    start: Vec<u8>,
    end: Option<Vec<u8>>,
    inner: Option<super::RowStream<S::Error>>,
    ends: Vec<usize>,
    counters: Arc<Counters>,
}

#[cfg(feature = "async")]
impl<'a, S: super::AsyncStore> SkipStream<'a, S> {
    /// A forward walk of `query` over `store`.
    pub fn new(store: &'a S, query: &Query) -> Self {
        Self::counted(store, query, Arc::default())
    }

    /// A reverse walk; `None` when the store has no reverse scans.
    pub fn new_rev(store: &'a S, query: &Query) -> Option<Self> {
        Self::counted_rev(store, query, Arc::default())
    }

    pub(crate) fn counted(store: &'a S, query: &Query, counters: Arc<Counters>) -> Self {
        let (start, end) = (query.start(), query.end());
        let inner = (!query.is_empty()).then(|| store.scan(&KeyRange::new(&start, end.as_deref())));
        SkipStream {
            store,
            query: query.clone(),
            reverse: false,
            start,
            end,
            inner,
            ends: Vec::new(),
            counters,
        }
    }

    pub(crate) fn counted_rev(
        store: &'a S,
        query: &Query,
        counters: Arc<Counters>,
    ) -> Option<Self> {
        let (start, end) = (query.start(), query.end());
        let inner = if query.is_empty() {
            None
        } else {
            Some(store.scan_rev(&KeyRange::new(&start, end.as_deref()))?)
        };
        Some(SkipStream {
            store,
            query: query.clone(),
            reverse: true,
            start,
            end,
            inner,
            ends: Vec::new(),
            counters,
        })
    }

    /// What the walk has done so far.
    pub fn stats(&self) -> SkipStats {
        self.counters.stats()
    }
}

#[cfg(feature = "async")]
impl<S: super::AsyncStore> futures_util::Stream for SkipStream<'_, S> {
    type Item = Result<Row, S::Error>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use futures_util::StreamExt;
        use std::task::Poll;
        let this = &mut *self;
        loop {
            let Some(inner) = this.inner.as_mut() else {
                return Poll::Ready(None);
            };
            let row = match inner.poll_next_unpin(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => {
                    this.inner = None;
                    return Poll::Ready(None);
                }
                Poll::Ready(Some(Err(e))) => {
                    this.inner = None;
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Ready(Some(Ok(row))) => row,
            };
            this.counters.read.fetch_add(1, Ordering::Relaxed);
            let step = if this.reverse {
                this.query.seek_rev(&row.0, &mut this.ends)
            } else {
                this.query.seek(&row.0, &mut this.ends)
            };
            match step {
                Step::Match => {
                    this.counters.matched.fetch_add(1, Ordering::Relaxed);
                    return Poll::Ready(Some(Ok(row)));
                }
                Step::Foreign => {
                    this.counters.foreign.fetch_add(1, Ordering::Relaxed);
                }
                Step::Done => {
                    this.inner = None;
                    return Poll::Ready(None);
                }
                step => {
                    this.counters.seeks.fetch_add(1, Ordering::Relaxed);
                    this.inner =
                        match next_range(&row.0, step, this.reverse, &this.start, &this.end) {
                            None => None,
                            Some(range) if this.reverse => this.store.scan_rev(&range),
                            Some(range) => Some(this.store.scan(&range)),
                        };
                }
            }
        }
    }
}
