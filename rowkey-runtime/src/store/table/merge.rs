//! The salted merge, written once: [`MergeCore`] holds one waiting row per range and hands them
//! out in logical key order (the key without its salt byte), forward or reversed. The blocking
//! [`Merged`](super::Merged) iterator and the async [`MergedStream`](super::MergedStream) only
//! decide how to fetch each range's next row; the ordering lives here.

use std::cmp::Ordering;
use std::collections::binary_heap::{BinaryHeap, PeekMut};

use crate::store::{CellRow, Row};

/// A row the merge can order: raw rows and rows of cells.
pub(crate) trait Keyed {
    /// The row key.
    fn key(&self) -> &[u8];
}

impl Keyed for Row {
    fn key(&self) -> &[u8] {
        &self.0
    }
}

impl Keyed for CellRow {
    fn key(&self) -> &[u8] {
        &self.key
    }
}

/// A row waiting in the merge, ordered by its key without the salt byte (then by range, so equal
/// keys, which cannot occur in one table, would still come out deterministically).
struct Head<T> {
    row: T,
    skip: usize,
    range: usize,
    reverse: bool,
}

impl<T: Keyed> Head<T> {
    fn sort_key(&self) -> &[u8] {
        self.row.key().get(self.skip..).unwrap_or(&[])
    }
}

impl<T: Keyed> PartialEq for Head<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<T: Keyed> Eq for Head<T> {}

impl<T: Keyed> PartialOrd for Head<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Keyed> Ord for Head<T> {
    // `BinaryHeap` is a max-heap: a forward merge wants the smallest key out first, so the
    // comparison is reversed; a reverse merge wants the largest first.
    fn cmp(&self, other: &Self) -> Ordering {
        let by_key = self.sort_key().cmp(other.sort_key());
        let by_range = self.range.cmp(&other.range);
        if self.reverse {
            by_key.then(other.range.cmp(&self.range))
        } else {
            by_key.reverse().then(by_range.reverse())
        }
    }
}

/// One waiting row per range, handed out in logical key order.
pub(crate) struct MergeCore<T = Row> {
    heap: BinaryHeap<Head<T>>,
    skip: usize,
    reverse: bool,
}

impl<T: Keyed> MergeCore<T> {
    /// A merge that compares keys after their first `skip` bytes (1 for a salted key).
    pub(crate) fn new(skip: usize, reverse: bool) -> Self {
        MergeCore {
            heap: BinaryHeap::new(),
            skip,
            reverse,
        }
    }

    /// Range `range`'s next row.
    pub(crate) fn push(&mut self, range: usize, row: T) {
        self.heap.push(Head {
            row,
            skip: self.skip,
            range,
            reverse: self.reverse,
        });
    }

    /// The next row in order and the range it came from (whose next row must be pushed before
    /// the following pop, or the range ended).
    pub(crate) fn pop(&mut self) -> Option<(usize, T)> {
        let head = self.heap.pop()?;
        Some((head.range, head.row))
    }

    /// The next row in order, its place taken by `next(range)`: the following row of the range
    /// it came from, or `None` when that range has ended. One sift of the heap instead of a
    /// pop and a push (the merge's main cost after the store's own iteration).
    pub(crate) fn pop_and_refill(&mut self, next: impl FnOnce(usize) -> Option<T>) -> Option<T> {
        let mut top = self.heap.peek_mut()?;
        match next(top.range) {
            Some(row) => Some(std::mem::replace(&mut top.row, row)),
            None => Some(PeekMut::pop(top).row),
        }
    }
}

/// Blocking ranges merged into order: one iterator per range, its next row waiting in the
/// [`MergeCore`]; an error ends its range and is handed out before the next row. The typed
/// iterators ([`Merged`](super::Merged), [`CellMerged`](super::CellMerged),
/// [`WideMerged`](super::WideMerged)) only decode what it hands out.
pub(crate) struct MergeIter<I: Iterator, T> {
    ranges: Vec<Option<I>>,
    core: MergeCore<T>,
    pending: Vec<I::Item>,
}

impl<I, T, E> MergeIter<I, T>
where
    I: Iterator<Item = Result<T, E>>,
    T: Keyed,
{
    /// Merges `ranges`, comparing keys after their first `skip` bytes.
    pub(crate) fn new(ranges: Vec<I>, skip: usize, reverse: bool) -> Self {
        let mut m = MergeIter {
            ranges: ranges.into_iter().map(Some).collect(),
            core: MergeCore::new(skip, reverse),
            pending: Vec::new(),
        };
        for i in 0..m.ranges.len() {
            m.refill(i);
        }
        m
    }

    /// Moves range `i`'s next row into the merge (see [`next_of`]).
    fn refill(&mut self, i: usize) {
        if let Some(row) = next_of(&mut self.ranges, &mut self.pending, i) {
            self.core.push(i, row);
        }
    }
}

/// Range `i`'s next row; an error is queued in `pending` (handed out after the row in hand)
/// and, like the range's end, ends the range.
fn next_of<I, T, E>(
    ranges: &mut [Option<I>],
    pending: &mut Vec<Result<T, E>>,
    i: usize,
) -> Option<T>
where
    I: Iterator<Item = Result<T, E>>,
{
    let slot = ranges.get_mut(i)?;
    match slot.as_mut()?.next() {
        Some(Ok(row)) => Some(row),
        Some(Err(e)) => {
            pending.push(Err(e));
            *slot = None;
            None
        }
        None => {
            *slot = None;
            None
        }
    }
}

impl<I, T, E> Iterator for MergeIter<I, T>
where
    I: Iterator<Item = Result<T, E>>,
    T: Keyed,
{
    type Item = Result<T, E>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.pending.pop() {
            return Some(e);
        }
        // One range (a prefix that decides the salt bucket, an unsalted key): nothing to
        // merge, and its rows need not pass through the heap. Its first row is in the heap.
        if let [only] = self.ranges.as_mut_slice() {
            if let Some((_, row)) = self.core.pop() {
                return Some(Ok(row));
            }
            let next = only.as_mut()?.next();
            if !matches!(next, Some(Ok(_))) {
                *only = None;
            }
            return next;
        }
        let (ranges, pending) = (&mut self.ranges, &mut self.pending);
        let row = self.core.pop_and_refill(|i| next_of(ranges, pending, i))?;
        Some(Ok(row))
    }
}

/// Async ranges merged into order: the stream twin of [`MergeIter`]. A row leaves only when
/// every live range has its next row in the merge; an error ends its range and is handed out
/// first.
#[cfg(feature = "async")]
pub(crate) struct MergeStreams<St: futures_util::Stream, T> {
    streams: Vec<Option<St>>,
    /// Ranges whose next row the merge is waiting for.
    waiting: Vec<bool>,
    core: MergeCore<T>,
    pending: Vec<St::Item>,
}

#[cfg(feature = "async")]
impl<St, T, E> MergeStreams<St, T>
where
    St: futures_util::Stream<Item = Result<T, E>> + Unpin,
    T: Keyed,
{
    /// Merges `streams`, comparing keys after their first `skip` bytes.
    pub(crate) fn new(streams: Vec<St>, skip: usize, reverse: bool) -> Self {
        MergeStreams {
            waiting: vec![true; streams.len()],
            streams: streams.into_iter().map(Some).collect(),
            core: MergeCore::new(skip, reverse),
            pending: Vec::new(),
        }
    }

    /// The next row in order, an error, or the end.
    pub(crate) fn poll_next_row(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<T, E>>> {
        use std::task::Poll;
        let mut not_ready = false;
        for i in 0..self.streams.len() {
            if !self.waiting[i] {
                continue;
            }
            let Some(stream) = self.streams[i].as_mut() else {
                self.waiting[i] = false;
                continue;
            };
            match std::pin::Pin::new(stream).poll_next(cx) {
                Poll::Ready(Some(Ok(row))) => {
                    self.core.push(i, row);
                    self.waiting[i] = false;
                }
                Poll::Ready(Some(Err(e))) => {
                    self.pending.push(Err(e));
                    self.streams[i] = None;
                    self.waiting[i] = false;
                }
                Poll::Ready(None) => {
                    self.streams[i] = None;
                    self.waiting[i] = false;
                }
                Poll::Pending => not_ready = true,
            }
        }
        if let Some(e) = self.pending.pop() {
            return Poll::Ready(Some(e));
        }
        if not_ready {
            return Poll::Pending;
        }
        match self.core.pop() {
            Some((range, row)) => {
                self.waiting[range] = true;
                Poll::Ready(Some(Ok(row)))
            }
            None => Poll::Ready(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(mut m: MergeCore<Row>, mut ranges: Vec<std::vec::IntoIter<Vec<u8>>>) -> Vec<Vec<u8>> {
        for (i, r) in ranges.iter_mut().enumerate() {
            if let Some(k) = r.next() {
                m.push(i, (k.into(), Default::default()));
            }
        }
        let mut out = vec![];
        while let Some((i, (k, _))) = m.pop() {
            out.push(k.to_vec());
            if let Some(k) = ranges[i].next() {
                m.push(i, (k.into(), Default::default()));
            }
        }
        out
    }

    #[test]
    fn merges_on_the_key_after_the_salt_byte_both_ways() {
        let forward = vec![
            vec![vec![0, 1], vec![0, 4]].into_iter(),
            vec![vec![1, 2], vec![1, 3]].into_iter(),
        ];
        let got = drain(MergeCore::new(1, false), forward);
        assert_eq!(got, [vec![0, 1], vec![1, 2], vec![1, 3], vec![0, 4]]);
        let backward = vec![
            vec![vec![0, 4], vec![0, 1]].into_iter(),
            vec![vec![1, 3], vec![1, 2]].into_iter(),
        ];
        let got = drain(MergeCore::new(1, true), backward);
        assert_eq!(got, [vec![0, 4], vec![1, 3], vec![1, 2], vec![0, 1]]);
    }
}
