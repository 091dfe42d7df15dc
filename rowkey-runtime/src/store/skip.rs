//! Skip scans over any [`Store`] or [`AsyncStore`](super::AsyncStore): a [`Query`]'s walk,
//! each key read either matching or telling where the next key that could match starts, and
//! the store's scan started again there (so a gap of non-matching keys costs one seek, not a
//! read of each).
//!
//! A seek is not free (a new iterator on an embedded store, a new scanner on a network one),
//! and a gap is often short (the next few keys). So a walk first reads on through a gap for a
//! few keys and seeks only when that did not reach the target; how many it reads adapts to
//! what the gaps were (as many as the last gap read through took and one more, half as many
//! after one that needed a seek, and now and then a gap tried at the most again, so a budget
//! that fell to nothing recovers when gaps turn short), as CockroachDB's scanner does before
//! its seeks.
//! On a dense query the walk costs a scan; on a sparse one, about a seek per gap.
//!
//! The rows are in key byte order: a salted key's buckets one after another (the typed
//! [`Table::query`](super::Table::query) walks each bucket apart and merges them in logical
//! order).
//!
//! A store that filters rows itself ([`Store::scan_filtered`]: HBase's region servers, Bigtable)
//! is given the query's [`KeyFilter`] once, for the whole range: it hands over only rows that
//! pass it (on HBase, a `FuzzyRowFilter` seeks past gaps on the server), and the walk checks
//! each of them again and never reopens its scan.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::scan::pushdown::KeyFilter;
use crate::scan::query::{Query, Step};
use crate::scan::KeyRange;

use super::{Row, Store};

/// What a skip scan did: rows read from the store, seeks, rows returned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SkipStats {
    /// Rows the store handed over (matching or not). Where the store filtered rows itself
    /// (`filtered`), the rows that passed its filter.
    pub read: u64,
    /// Times the walk started a new scan past a gap.
    pub seeks: u64,
    /// Rows that matched.
    pub matched: u64,
    /// Rows whose key is not one of the query's type (it does not decode): never returned.
    pub foreign: u64,
    /// Walks whose store checked the query's [`KeyFilter`] on its side
    /// ([`Store::scan_filtered`]: HBase, Bigtable), so that rows outside it never reached the
    /// client; such a walk never seeks.
    pub filtered: u64,
}

/// The counters behind [`SkipStats`], shared by the walks of one query (one per salt bucket).
#[derive(Debug, Default)]
pub(crate) struct Counters {
    read: AtomicU64,
    seeks: AtomicU64,
    matched: AtomicU64,
    foreign: AtomicU64,
    filtered: AtomicU64,
}

impl Counters {
    pub(crate) fn stats(&self) -> SkipStats {
        SkipStats {
            read: self.read.load(Ordering::Relaxed),
            seeks: self.seeks.load(Ordering::Relaxed),
            matched: self.matched.load(Ordering::Relaxed),
            foreign: self.foreign.load(Ordering::Relaxed),
            filtered: self.filtered.load(Ordering::Relaxed),
        }
    }
}

/// Keys read on through a gap before seeking: at first, and at most. The most is about what a
/// seek costs in rows read on fjall (a new iterator: about 12 rows' reads, measured by
/// `benches/skip_scan`): a gap longer than that is cheaper to seek past.
const READ_ON_FIRST: u32 = 4;
const READ_ON_MAX: u32 = 12;
/// Gaps sought past before the walk tries reading one through with the most keys again: at
/// first (a walk that sought past short gaps learns within this many that reading on pays),
/// and at the most (the interval doubles after each try that failed, so a walk over long gaps
/// wastes `READ_ON_MAX` keys per doubling: about 12 x log2(gaps / 16) in all).
const PROBE_FIRST: u32 = 16;
const PROBE_LAST: u32 = 1 << 16;

/// What a walk does with the row it just read.
enum Action {
    /// Hand the row out.
    Yield,
    /// Read the next row of the same scan.
    ReadOn,
    /// Scan this range instead (forward, or backwards for a reverse walk).
    Reopen(KeyRange),
    /// Nothing more can match.
    End,
}

/// A walk's state, apart from the store: the query, the ranges it reads and the one it is in,
/// the gap being read through.
struct Walk {
    query: Query,
    reverse: bool,
    /// The ranges to read after the current one, in walk order (reverse: the last first).
    ranges: std::vec::IntoIter<(Vec<u8>, Option<Vec<u8>>)>,
    /// The current range's ends: forward, its first key and the key it stops before; reverse,
    /// the same range read backwards.
    start: Vec<u8>,
    end: Option<Vec<u8>>,
    ends: Vec<usize>,
    counters: Arc<Counters>,
    /// The target of the gap being read through (forward: the first key that could match;
    /// reverse: the exclusive upper end), and how many more keys to read before seeking.
    gap: Option<(Vec<u8>, u32)>,
    /// The budget of the gap being read through (what `gap`'s count started at).
    budget: u32,
    read_on: u32,
    /// Gaps sought past since the walk last tried reading through one at the full budget, and
    /// how many make the next try (doubled after a try that failed: long gaps waste at most
    /// `READ_ON_MAX` keys per doubling).
    since_probe: u32,
    probe_every: u32,
    /// The gap being read through is such a try.
    probing: bool,
    /// The key filter the store checks itself, when it took one: the walk reads every row it
    /// hands over and never seeks.
    filter: Option<KeyFilter>,
    /// No range is left once narrowed to the part of the table asked for: nothing to read.
    nothing: bool,
    /// What the walk did since it last added to `counters` ([`Walk::flush`], before each row,
    /// error or end it hands out): a plain count per row read, not an atomic one.
    local: Local,
}

/// A walk's counts not yet in its shared [`Counters`].
#[derive(Debug, Default)]
struct Local {
    read: u64,
    seeks: u64,
    matched: u64,
    foreign: u64,
}

/// Opens a scan of a range, forward or backwards as the walk goes: through the store's own
/// key filter when given one (`None` back: the store has none), else a plain scan (`None`
/// back: no reverse scans).
type Opener<'o, X> = &'o mut dyn FnMut(&KeyRange, Option<&KeyFilter>) -> Option<X>;

impl Walk {
    fn new(
        query: &Query,
        reverse: bool,
        counters: Arc<Counters>,
        within: Option<&KeyRange>,
    ) -> Self {
        let mut ranges = query.key_ranges(Query::MAX_RANGES);
        let mut nothing = false;
        if let Some(w) = within {
            // Each range narrowed to `within`; those outside it dropped.
            ranges = ranges
                .into_iter()
                .filter_map(|(start, end)| {
                    let start = start.max(w.start().to_vec());
                    let end = match (end, w.end()) {
                        (Some(e), Some(b)) => Some(e.min(b.to_vec())),
                        (e, b) => e.or_else(|| b.map(<[u8]>::to_vec)),
                    };
                    end.as_ref()
                        .is_none_or(|e| start < *e)
                        .then_some((start, end))
                })
                .collect();
            nothing = ranges.is_empty();
        }
        if reverse {
            ranges.reverse();
        }
        let mut ranges = ranges.into_iter();
        let (start, end) = ranges.next().unwrap_or_default();
        Walk {
            nothing,
            start,
            end,
            ranges,
            query: query.clone(),
            reverse,
            ends: Vec::new(),
            counters,
            gap: None,
            budget: 0,
            read_on: READ_ON_FIRST,
            since_probe: 0,
            probe_every: PROBE_FIRST,
            probing: false,
            filter: None,
            local: Local::default(),
        }
    }

    /// A walk and its first scan, opened by `open`: one the store filters itself when the
    /// query has a [`KeyFilter`] and the store takes it, else a plain one; none when nothing
    /// can match; `None` when the store cannot open it (no reverse scans).
    fn open<X>(
        query: &Query,
        reverse: bool,
        counters: Arc<Counters>,
        within: Option<&KeyRange>,
        open: Opener<'_, X>,
    ) -> Option<(Walk, Option<X>)> {
        let mut walk = Walk::new(query, reverse, counters, within);
        if walk.query.is_empty() || walk.nothing {
            return Some((walk, None));
        }
        let range = KeyRange::new(&walk.start, walk.end.as_deref());
        if let Some(f) = query.key_filter() {
            if let Some(scan) = open(&range, Some(&f)) {
                walk.filter = Some(f);
                walk.count(&walk.counters.filtered);
                return Some((walk, Some(scan)));
            }
        }
        let inner = open(&range, None)?;
        Some((walk, Some(inner)))
    }

    /// The scan a walk goes on with after `action` (the current one for `ReadOn` and
    /// `Yield`), opened by `open`; `None` when the walk is over.
    fn next_scan<X>(&self, action: &Action, current: Option<X>, open: Opener<'_, X>) -> Option<X> {
        match action {
            Action::Yield | Action::ReadOn => current,
            Action::Reopen(range) => open(range, self.filter.as_ref()),
            Action::End => None,
        }
    }

    /// The scan of the next range once the current one is read (`None`: the walk is over).
    fn next_range<X>(&mut self, open: Opener<'_, X>) -> Option<X> {
        let (start, end) = self.ranges.next()?;
        self.start = start;
        self.end = end;
        self.gap = None;
        open(
            &KeyRange::new(&self.start, self.end.as_deref()),
            self.filter.as_ref(),
        )
    }

    fn count(&self, c: &AtomicU64) {
        c.fetch_add(1, Ordering::Relaxed);
    }

    /// Starts reading through a gap that ends at `target`: with the learnt budget, or, once
    /// enough gaps were sought past since the last try, with the most ([`READ_ON_MAX`]), so a
    /// walk whose budget fell to nothing learns again when its gaps are short.
    fn open_gap(&mut self, target: Vec<u8>) {
        self.budget = if self.since_probe >= self.probe_every {
            self.since_probe = 0;
            self.probing = true;
            READ_ON_MAX
        } else {
            self.read_on
        };
        self.gap = Some((target, self.budget));
    }

    /// Adds what the walk did since the last flush to its shared counters: called before the
    /// walk hands anything out, so [`SkipStats`] read between rows are exact.
    fn flush(&mut self) {
        let local = std::mem::take(&mut self.local);
        for (n, c) in [
            (local.read, &self.counters.read),
            (local.seeks, &self.counters.seeks),
            (local.matched, &self.counters.matched),
            (local.foreign, &self.counters.foreign),
        ] {
            if n > 0 {
                c.fetch_add(n, Ordering::Relaxed);
            }
        }
    }

    /// Decides about the row with key `key`, just read.
    fn on_row(&mut self, key: &[u8]) -> Action {
        self.local.read += 1;
        if let Some((target, left)) = &mut self.gap {
            let inside = if self.reverse {
                key >= target.as_slice()
            } else {
                key < target.as_slice()
            };
            if inside {
                if *left > 0 {
                    *left -= 1;
                    return Action::ReadOn;
                }
                // The gap is longer than reading on pays for: seek, and read on less next time.
                self.read_on /= 2;
                self.since_probe += 1;
                if std::mem::take(&mut self.probing) {
                    self.probe_every = self.probe_every.saturating_mul(2).min(PROBE_LAST);
                }
                let (target, _) = self.gap.take().expect("a gap");
                return self.reopen(key, Step::Seek(target));
            }
            // Read through: as many keys as this gap took, and one more, next time.
            let used = self.budget - *left;
            self.gap = None;
            if std::mem::take(&mut self.probing) {
                self.probe_every = PROBE_FIRST;
            }
            self.read_on = (self.read_on.max(used) + 1).min(READ_ON_MAX);
        }
        let step = if self.reverse {
            self.query.seek_rev(key, &mut self.ends)
        } else {
            self.query.seek(key, &mut self.ends)
        };
        if self.filter.is_some() {
            // The store hands over only rows near a match: read on, never reopen.
            return match step {
                Step::Match => {
                    self.local.matched += 1;
                    Action::Yield
                }
                Step::Foreign => {
                    self.local.foreign += 1;
                    Action::ReadOn
                }
                Step::Done => self.finish(),
                Step::Seek(_) | Step::FromEnd => Action::ReadOn,
            };
        }
        match step {
            Step::Match => {
                self.local.matched += 1;
                // Forward, the next key that can match is often known from the match alone
                // (Phoenix seeks there): the keys before it are a gap, read on or sought past
                // as any gap, without reading one to learn it.
                if !self.reverse {
                    if let Some(target) = self.query.next_after_match(key, &self.ends) {
                        self.open_gap(target);
                    }
                }
                Action::Yield
            }
            Step::Foreign => {
                self.local.foreign += 1;
                Action::ReadOn
            }
            Step::Done => self.finish(),
            Step::Seek(target) => {
                self.open_gap(target);
                Action::ReadOn
            }
            step @ Step::FromEnd => self.reopen(key, step),
        }
    }

    /// No key matches past this one, in any range.
    fn finish(&mut self) -> Action {
        self.ranges = Vec::new().into_iter();
        Action::End
    }

    /// Starts again after `key`, which did not match, where `step` says: always past `key`
    /// forward and below it in reverse, whatever the step computed (a walk never reads a key
    /// twice), within the walk's fixed ends.
    fn reopen(&mut self, key: &[u8], step: Step) -> Action {
        self.local.seeks += 1;
        let range = match step {
            Step::Seek(mut to) if !self.reverse => {
                if to.as_slice() <= key {
                    to = key.to_vec();
                    to.push(0);
                }
                if self.end.as_ref().is_some_and(|e| &to >= e) {
                    None
                } else {
                    Some(KeyRange::new(&to, self.end.as_deref()))
                }
            }
            Step::Seek(to) => {
                let to = if to.as_slice() > key { key } else { &to[..] };
                (to > self.start.as_slice()).then(|| KeyRange::new(&self.start, Some(to)))
            }
            Step::FromEnd if self.reverse => {
                (key > self.start.as_slice()).then(|| KeyRange::new(&self.start, Some(key)))
            }
            _ => None,
        };
        range.map_or(Action::End, Action::Reopen)
    }
}

/// The rows of a skip scan over any [`Store`], in key byte order (or reverse): each key read
/// either matches the [`Query`] or tells where the next key that could match starts, and the
/// walk reads on through short gaps and seeks past long ones (a new scan of the store). A
/// salted key's buckets come one after another; [`Table::query`](super::Table::query) walks
/// them apart and merges them in logical order.
pub struct SkipScan<'a, S: Store + ?Sized + 'a> {
    store: &'a S,
    walk: Walk,
    inner: Option<S::Scan<'a>>,
}

/// Opens one of a blocking walk's scans.
fn open_blocking<'a, S: Store + ?Sized>(
    store: &'a S,
    reverse: bool,
) -> impl FnMut(&KeyRange, Option<&KeyFilter>) -> Option<S::Scan<'a>> {
    move |range, filter| match filter {
        Some(f) => store.scan_filtered(range, f, reverse),
        None if reverse => store.scan_rev(range),
        None => Some(store.scan(range)),
    }
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
        Self::counted_within(store, query, counters, None)
    }

    /// A forward walk of `query` over the part of `store` in `within` (a region, a tablet: a
    /// partition of a parallel read): the walk's ranges narrowed to it. The walks of the
    /// pieces of a partition of the table yield, one after the other, the walk of the whole.
    pub fn within(store: &'a S, query: &Query, within: &KeyRange) -> Self {
        Self::counted_within(store, query, Arc::default(), Some(within))
    }

    fn counted_within(
        store: &'a S,
        query: &Query,
        counters: Arc<Counters>,
        within: Option<&KeyRange>,
    ) -> Self {
        let (walk, inner) = Walk::open(
            query,
            false,
            counters,
            within,
            &mut open_blocking(store, false),
        )
        .unwrap_or_else(|| (Walk::new(query, false, Arc::default(), within), None));
        SkipScan { store, walk, inner }
    }

    pub(crate) fn counted_rev(
        store: &'a S,
        query: &Query,
        counters: Arc<Counters>,
    ) -> Option<Self> {
        let (walk, inner) =
            Walk::open(query, true, counters, None, &mut open_blocking(store, true))?;
        Some(SkipScan { store, walk, inner })
    }

    /// What the walk has done so far.
    pub fn stats(&self) -> SkipStats {
        self.walk.counters.stats()
    }
}

impl<'a, S: Store + ?Sized + 'a> Iterator for SkipScan<'a, S> {
    type Item = Result<Row, S::Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = self.walk_on();
        self.walk.flush();
        next
    }
}

impl<'a, S: Store + ?Sized + 'a> SkipScan<'a, S> {
    /// The next row the walk hands out.
    fn walk_on(&mut self) -> Option<Result<Row, S::Error>> {
        let mut open = open_blocking(self.store, self.walk.reverse);
        loop {
            // Each row is lent where the store lends it (fjall: no copy of a key the walk reads
            // past), and made owned only when it is handed out.
            let read = match S::lend_next(self.inner.as_mut()?) {
                None => None,
                Some(Err(e)) => Some(Err(e)),
                Some(Ok(row)) => Some(Ok(match self.walk.on_row(row.parts().0) {
                    Action::Yield => Ok(row.into_owned()),
                    action => Err(action),
                })),
            };
            match read {
                None => self.inner = self.walk.next_range(&mut open),
                Some(Err(e)) => {
                    self.inner = None;
                    return Some(Err(e));
                }
                Some(Ok(Ok(row))) => return Some(Ok(row)),
                Some(Ok(Err(Action::ReadOn))) => {}
                Some(Ok(Err(action))) => {
                    self.inner = self.walk.next_scan(&action, self.inner.take(), &mut open);
                    if let Action::End = action {
                        self.inner = self.walk.next_range(&mut open);
                    }
                }
            }
        }
    }
}

/// The async twin of [`SkipScan`]: a skip scan over an [`AsyncStore`](super::AsyncStore), each
/// seek a new range stream.
#[cfg(feature = "async")]
pub struct SkipStream<'a, S: super::AsyncStore> {
    store: &'a S,
    walk: Walk,
    inner: Option<super::RowStream<S::Error>>,
}

/// Opens one of an async walk's scans.
#[cfg(feature = "async")]
fn open_async<S: super::AsyncStore>(
    store: &S,
    reverse: bool,
) -> impl FnMut(&KeyRange, Option<&KeyFilter>) -> Option<super::RowStream<S::Error>> + '_ {
    move |range, filter| match filter {
        Some(f) => store.scan_filtered(range, f, reverse),
        None if reverse => store.scan_rev(range),
        None => Some(store.scan(range)),
    }
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
        let (walk, inner) = Walk::open(query, false, counters, None, &mut open_async(store, false))
            .unwrap_or_else(|| (Walk::new(query, false, Arc::default(), None), None));
        SkipStream { store, walk, inner }
    }

    pub(crate) fn counted_rev(
        store: &'a S,
        query: &Query,
        counters: Arc<Counters>,
    ) -> Option<Self> {
        let (walk, inner) = Walk::open(query, true, counters, None, &mut open_async(store, true))?;
        Some(SkipStream { store, walk, inner })
    }

    /// What the walk has done so far.
    pub fn stats(&self) -> SkipStats {
        self.walk.counters.stats()
    }
}

#[cfg(feature = "async")]
impl<S: super::AsyncStore> futures_util::Stream for SkipStream<'_, S> {
    type Item = Result<Row, S::Error>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        let this = &mut *self;
        let next = this.walk_on(cx);
        this.walk.flush();
        next
    }
}

#[cfg(feature = "async")]
impl<S: super::AsyncStore> SkipStream<'_, S> {
    /// The next row the walk hands out, once it is read.
    fn walk_on(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<Row, S::Error>>> {
        use futures_util::StreamExt;
        use std::task::Poll;
        let this = self;
        let mut open = open_async(this.store, this.walk.reverse);
        loop {
            let Some(inner) = this.inner.as_mut() else {
                return Poll::Ready(None);
            };
            let row = match inner.poll_next_unpin(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => {
                    this.inner = this.walk.next_range(&mut open);
                    continue;
                }
                Poll::Ready(Some(Err(e))) => {
                    this.inner = None;
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Ready(Some(Ok(row))) => row,
            };
            let action = this.walk.on_row(&row.0);
            this.inner = this.walk.next_scan(&action, this.inner.take(), &mut open);
            match action {
                Action::Yield => return Poll::Ready(Some(Ok(row))),
                Action::End => this.inner = this.walk.next_range(&mut open),
                Action::ReadOn | Action::Reopen(_) => {}
            }
        }
    }
}
