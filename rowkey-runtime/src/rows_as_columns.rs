//! [`RowsAsColumns`]: a key whose encoding is a row key followed by a column qualifier (the
//! guide's "rows as columns", OpenTSDB's layout): a `#[row_span(N)]` field is split between
//! the two, so one row holds `N` consecutive values of it and every field after it.
//!
//! The key's bytes are unchanged by the split: the encoding of the whole logical key is the
//! row key and the qualifier, concatenated. Because rowkey's row keys are prefix-free, the
//! order of the whole keys is the order of (row key, qualifier), so a range of whole keys is
//! an exact set of rows, with a qualifier range on the first and the last:
//! [`RowsAsColumns::plan`] computes them.

use crate::key::RowKey;
use crate::scan::KeyRange;
use crate::source::{Reader, Source};

/// A key with a `#[row_span(N)]` field (derived): the row key is its encoding up to and
/// including the span field's bucket start; the column qualifier is the rest.
pub trait RowsAsColumns: RowKey {
    /// The name of the `#[row_span(N)]` field.
    const SPAN_FIELD: &'static str;
    /// `N`: the values of the span field one row holds.
    const SPAN: u64;

    /// Where the row key ends in `bytes`, an encoded key or a scan bound; `None` when `bytes`
    /// end before the row key does (a bound on the row key alone).
    fn row_key_len(bytes: &[u8]) -> Option<usize>;

    /// The row key and the qualifier of an encoded key; `None` if `key` is not one.
    fn split_key(key: &[u8]) -> Option<(&[u8], &[u8])> {
        Self::row_key_len(key).map(|n| key.split_at(n))
    }

    /// The exact pieces a range of whole keys covers, in key order: rows, each with the
    /// qualifier range its cells must have (`None`: all of them).
    fn plan(range: &KeyRange) -> Vec<Piece> {
        plan(range, Self::row_key_len)
    }
}

/// One piece of a rows-as-columns scan: a range of rows and, for an edge row, the range of
/// qualifiers within it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The rows.
    pub rows: KeyRange,
    /// The qualifiers, at least the first and, when given, below the second; `None` for every
    /// qualifier.
    pub qualifiers: Option<(Vec<u8>, Option<Vec<u8>>)>,
}

/// The first row after `row`: `row` followed by `00` (row keys are prefix-free, so no other
/// row starts with `row`).
fn after(row: &[u8]) -> Vec<u8> {
    let mut out = row.to_vec();
    out.push(0);
    out
}

fn plan(range: &KeyRange, row_key_len: impl Fn(&[u8]) -> Option<usize>) -> Vec<Piece> {
    let start = range.start();
    if range.end().is_some_and(|e| e <= start) {
        return Vec::new();
    }
    let first = row_key_len(start).map(|n| start.split_at(n));
    let last = range
        .end()
        .and_then(|e| row_key_len(e).map(|n| e.split_at(n)));
    let one_row = |row: &[u8], qualifiers| Piece {
        rows: KeyRange::new(row, Some(&after(row))),
        qualifiers: Some(qualifiers),
    };
    let mut out = Vec::new();
    if let (Some((rs, qs)), Some((re, qe))) = (first, last) {
        if rs == re {
            if qs < qe {
                out.push(one_row(rs, (qs.to_vec(), Some(qe.to_vec()))));
            }
            return out;
        }
    }
    // The rows strictly inside, all qualifiers: from after the first edge row (or the start),
    // to the last edge row (or the end).
    let middle_start = match first {
        Some((rs, qs)) => {
            out.push(one_row(rs, (qs.to_vec(), None)));
            after(rs)
        }
        None => start.to_vec(),
    };
    let middle_end: Option<Vec<u8>> = match (last, range.end()) {
        (Some((re, _)), _) => Some(re.to_vec()),
        (None, end) => end.map(<[u8]>::to_vec),
    };
    if middle_end
        .as_deref()
        .is_none_or(|e| middle_start.as_slice() < e)
    {
        out.push(Piece {
            rows: KeyRange::new(&middle_start, middle_end.as_deref()),
            qualifiers: None,
        });
    }
    if let Some((re, qe)) = last {
        if !qe.is_empty() && first.is_none_or(|(rs, _)| rs < re) {
            out.push(one_row(re, (Vec::new(), Some(qe.to_vec()))));
        }
    }
    out
}

/// The end of the row key, for the derive: the span field's bucket start follows the fields
/// already read.
#[doc(hidden)]
pub fn row_key_end<T: crate::codec::RowSpanValue>(src: &Reader<'_>) -> Option<usize> {
    let end = src.pos() + T::WIDTH;
    (src.remaining() >= T::WIDTH).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Row keys of 2 bytes: every bound of 2 or more bytes splits there.
    fn len2(b: &[u8]) -> Option<usize> {
        (b.len() >= 2).then_some(2)
    }

    #[test]
    fn a_range_is_edge_rows_with_qualifier_ranges_and_whole_rows_between() {
        let r = KeyRange::new(b"ab\x05", Some(b"ad\x02"));
        let got = plan(&r, len2);
        assert_eq!(
            got,
            [
                Piece {
                    rows: KeyRange::new(b"ab", Some(b"ab\0")),
                    qualifiers: Some((vec![5], None))
                },
                Piece {
                    rows: KeyRange::new(b"ab\0", Some(b"ad")),
                    qualifiers: None
                },
                Piece {
                    rows: KeyRange::new(b"ad", Some(b"ad\0")),
                    qualifiers: Some((vec![], Some(vec![2])))
                },
            ]
        );
        // One row: one piece; an empty qualifier range: nothing.
        let one = plan(&KeyRange::new(b"ab\x01", Some(b"ab\x03")), len2);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].qualifiers, Some((vec![1], Some(vec![3]))));
        assert!(plan(&KeyRange::new(b"ab\x03", Some(b"ab\x03")), len2).is_empty());
        // Bounds on the row key alone are row ranges.
        let rows = plan(&KeyRange::new(b"a", Some(b"b")), len2);
        assert_eq!(
            rows,
            [Piece {
                rows: KeyRange::new(b"a", Some(b"b")),
                qualifiers: None
            }]
        );
        let open = plan(&KeyRange::new(b"ab\x05", None), len2);
        assert_eq!(open.len(), 2);
        assert_eq!(open[1].rows, KeyRange::new(b"ab\0", None));
    }
}
