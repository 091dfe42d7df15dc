//! Batch bookkeeping shared by every store: which rows of a batch a store has confirmed, so that
//! a failure reports exactly the rows not confirmed (never a confirmed one, never one missing),
//! and how a batch is cut into requests that stay within a service's limits.

use std::ops::Range;

use std::borrow::Cow;

use bytes::Bytes;

use crate::store::{BatchError, Row, RowWrite};

/// What a cell costs in a write request beyond its family, qualifier and value: the framing
/// of its coordinates and value and its timestamp (22 bytes in a Bigtable `SetCell`, less in a
/// Thrift2 `TColumnValue` or an HBase `MutationProto` cell), counted so that a batch cut at
/// `batch_bytes` stays under a server's request limit whatever the cells' sizes.
pub(crate) const CELL_OVERHEAD: usize = 24;
/// What a row costs in a write request beyond its key and cells (its entry's framing).
pub(crate) const ROW_OVERHEAD: usize = 16;

/// A row of a batch, as the bookkeeping sees it: its key and its size in bytes.
pub(crate) trait BatchRow: Clone {
    fn key(&self) -> &[u8];
    fn size(&self) -> usize;
    /// The batch as it must be applied when its parts may be applied in any order (and one
    /// timestamp stamps them all): each key's, or each column's, last write only.
    fn in_order(rows: &[Self]) -> Cow<'_, [Self]>;
}

impl BatchRow for Row {
    fn key(&self) -> &[u8] {
        &self.0
    }
    /// Key, value and their framing (the value column's coordinates are a few bytes more).
    fn size(&self) -> usize {
        self.0.len() + self.1.len() + ROW_OVERHEAD + CELL_OVERHEAD
    }
    fn in_order(rows: &[Self]) -> Cow<'_, [Self]> {
        last_of_each(rows)
    }
}

impl BatchRow for RowWrite {
    fn key(&self) -> &[u8] {
        &self.key
    }
    /// Keys, coordinates, values and their framing: what a batch limit counts.
    fn size(&self) -> usize {
        let set: usize = self
            .set
            .iter()
            .map(|c| c.family.len() + c.qualifier.len() + c.value.len() + CELL_OVERHEAD)
            .sum();
        let clear: usize = self
            .clear
            .iter()
            .map(|c| c.family.len() + c.qualifier.len() + CELL_OVERHEAD)
            .sum();
        self.key.len() + ROW_OVERHEAD + set + clear
    }
    fn in_order(rows: &[Self]) -> Cow<'_, [Self]> {
        crate::cell::coalesce(rows)
    }
}

/// The rows of one batch a store has confirmed, and the first error seen.
pub(crate) struct Confirmations<E> {
    done: Vec<bool>,
    first_error: Option<E>,
}

impl<E> Confirmations<E> {
    /// Nothing confirmed yet, for a batch of `len` rows.
    pub(crate) fn new(len: usize) -> Self {
        Confirmations {
            done: vec![false; len],
            first_error: None,
        }
    }

    /// Row `index` is durably written. An index out of the batch is ignored (a server's bad
    /// status cannot confirm a row it was not sent).
    pub(crate) fn confirm(&mut self, index: usize) {
        if let Some(d) = self.done.get_mut(index) {
            *d = true;
        }
    }

    /// Records an error; the first one becomes the batch error's source.
    pub(crate) fn error(&mut self, error: E) {
        if self.first_error.is_none() {
            self.first_error = Some(error);
        }
    }

    /// `Ok` when every row is confirmed, otherwise the unconfirmed keys, in batch order.
    /// `unreported` is the error used when rows are unconfirmed but no error was recorded.
    ///
    /// A batch with unconfirmed rows is a `warn` event (target `rowkey::store`): how many rows
    /// of how many, and the first error.
    pub(crate) fn finish<R: BatchRow>(
        self,
        rows: &[R],
        unreported: impl FnOnce() -> E,
    ) -> Result<(), BatchError<E>>
    where
        E: std::fmt::Display,
    {
        let failed: Vec<Vec<u8>> = rows
            .iter()
            .zip(&self.done)
            .filter(|(_, done)| !**done)
            .map(|(r, _)| r.key().to_vec())
            .collect();
        if failed.is_empty() {
            return Ok(());
        }
        let source = self.first_error.unwrap_or_else(unreported);
        tracing::warn!(
            target: "rowkey::store",
            failed = failed.len(),
            rows = rows.len(),
            error = %source,
            "batch rows not confirmed"
        );
        Err(BatchError { failed, source })
    }
}

/// Cuts `rows` into consecutive index ranges of at most `max_rows` rows and, where more than one
/// row, at most `max_bytes` of keys and values (a single larger row goes alone: the server
/// decides whether it fits).
pub(crate) fn split<R: BatchRow>(
    rows: &[R],
    max_rows: usize,
    max_bytes: usize,
) -> Vec<Range<usize>> {
    let max_rows = max_rows.max(1);
    let mut out = Vec::new();
    let mut start = 0;
    let mut bytes = 0usize;
    for (i, row) in rows.iter().enumerate() {
        let size = row.size();
        if i > start && (i - start >= max_rows || bytes + size > max_bytes) {
            out.push(start..i);
            start = i;
            bytes = 0;
        }
        bytes += size;
    }
    if start < rows.len() {
        out.push(start..rows.len());
    }
    out
}

/// A batch of raw rows as it must be applied: of rows with the same key only the last, the
/// others in batch order. Borrows when no key repeats.
pub(crate) fn last_of_each(rows: &[(Bytes, Bytes)]) -> Cow<'_, [(Bytes, Bytes)]> {
    let mut last: std::collections::HashMap<&[u8], usize> =
        std::collections::HashMap::with_capacity(rows.len());
    for (i, (k, _)) in rows.iter().enumerate() {
        last.insert(k, i);
    }
    if last.len() == rows.len() {
        return Cow::Borrowed(rows);
    }
    Cow::Owned(
        rows.iter()
            .enumerate()
            .filter(|(i, (k, _))| last[&k[..]] == *i)
            .map(|(_, row)| row.clone())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_respects_both_limits_and_covers_every_row_once() {
        let rows: Vec<Row> = (0..25u8)
            .map(|i| (vec![i].into(), vec![0; 9].into()))
            .collect();
        let parts = split(&rows, 10, usize::MAX);
        assert_eq!(parts, [0..10, 10..20, 20..25]);
        // Each row is 50 bytes with its framing: three fit in 150.
        assert_eq!(rows[0].size(), 1 + 9 + ROW_OVERHEAD + CELL_OVERHEAD);
        let parts = split(&rows, 100, 150);
        assert!(parts.iter().all(|r| r.len() <= 3), "{parts:?}");
        assert_eq!(parts.len(), 9);
        assert_eq!(parts.last().unwrap(), &(24..25));
        let big: Vec<Row> = vec![
            (vec![1].into(), vec![0; 100].into()),
            (vec![2].into(), Default::default()),
        ];
        assert_eq!(split(&big, 10, 50), [0..1, 1..2]);
        assert!(split::<Row>(&[], 10, 10).is_empty());
    }

    #[test]
    fn finish_lists_exactly_the_unconfirmed_rows() {
        let rows: Vec<Row> = (0..4u8)
            .map(|i| (vec![i].into(), Default::default()))
            .collect();
        let mut c = Confirmations::<&str>::new(4);
        c.confirm(0);
        c.confirm(3);
        c.confirm(99);
        c.error("first");
        c.error("second");
        let err = c.finish(&rows, || "none").unwrap_err();
        assert_eq!(err.failed, [vec![1u8], vec![2u8]]);
        assert_eq!(err.source, "first");
        let mut c = Confirmations::<&str>::new(2);
        c.confirm(0);
        c.confirm(1);
        assert!(c.finish(&rows[..2], || "none").is_ok());
    }
}
