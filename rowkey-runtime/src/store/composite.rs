//! The composite layout (FORMAT.md §7): rows of cells in a store that has only keys and
//! values (memory, fjall, a user's store through the provided [`Store`](super::Store)
//! methods), and the errors of reading cells.
//!
//! A store without columns keeps each cell under one key:
//!
//! ```text
//! escape(row key) 00 01  escape(family) 00 01  qualifier   ->   value
//! ```
//!
//! where `escape` writes every `00` byte as `00 FF`. The escaped key followed by `00 01` sorts
//! exactly as the row key does, and no escaped key followed by `00 01` is a prefix of another
//! row's: so a row's cells are contiguous, rows keep their order, and a row range
//! `[start, end)` is the key range `[escape(start), escape(end))`, for any row keys, raw bytes
//! included (rowkey's own keys are prefix-free already; the escape makes every key so, at the
//! cost of one byte per `00` byte in the key and two bytes of terminator). Within a row, cells
//! sort by family, then qualifier, as HBase keeps them.

use std::borrow::Cow;
use std::fmt;

use bytes::Bytes;

use crate::cell::{Cell, CellRow, Columns, Pick};
use crate::scan::KeyRange;

/// A cell read from a store holds a key the composite layout cannot take apart: the store's
/// keyspace holds rows that were not written as cells (a raw [`Table`](super::Table)'s rows,
/// or another program's).
#[derive(Clone, PartialEq, Eq)]
pub struct MalformedCell {
    /// The stored key.
    pub key: Vec<u8>,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Debug for MalformedCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "MalformedCell({}: {})",
            crate::fmt::binary(&self.key),
            self.reason
        )
    }
}

impl fmt::Display for MalformedCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stored key {} is not a cell of the composite layout: {}",
            crate::fmt::binary(&self.key),
            self.reason
        )
    }
}

impl std::error::Error for MalformedCell {}

/// A failed read of cells: the store's error, or a stored key that is not a cell.
#[derive(Debug)]
pub enum CellError<E> {
    /// The store failed.
    Store(E),
    /// A stored key is not a cell (see [`MalformedCell`]).
    Malformed(MalformedCell),
}

impl<E: fmt::Display> fmt::Display for CellError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellError::Store(e) => write!(f, "store error: {e}"),
            CellError::Malformed(m) => m.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for CellError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CellError::Store(e) => Some(e),
            CellError::Malformed(m) => Some(m),
        }
    }
}

/// The rows of a cell scan, in key order (or reverse key order).
pub type CellScan<'a, E> = Box<dyn Iterator<Item = Result<CellRow, CellError<E>>> + 'a>;

/// An async cell scan's rows.
#[cfg(feature = "async")]
pub type CellStream<E> = std::pin::Pin<
    Box<dyn futures_util::Stream<Item = Result<CellRow, CellError<E>>> + Send + 'static>,
>;

// ---- the composite layout ----

const ESC: u8 = 0x00;
const ESCAPED_ZERO: u8 = 0xFF;
const END: u8 = 0x01;

/// Appends `part` escaped (every `00` as `00 FF`).
fn escape_into(out: &mut Vec<u8>, part: &[u8]) {
    for &b in part {
        out.push(b);
        if b == ESC {
            out.push(ESCAPED_ZERO);
        }
    }
}

/// Appends `part` escaped and terminated.
fn component(out: &mut Vec<u8>, part: &[u8]) {
    escape_into(out, part);
    out.extend_from_slice(&[ESC, END]);
}

/// The composite key of row `key`'s cell in `family:qualifier`.
pub(crate) fn cell_key(key: &[u8], family: &str, qualifier: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(key.len() + family.len() + qualifier.len() + 6);
    component(&mut out, key);
    component(&mut out, family.as_bytes());
    out.extend_from_slice(qualifier);
    out
}

/// The key range of every cell of row `key`.
pub(crate) fn row_range(key: &[u8]) -> KeyRange {
    let mut start = Vec::with_capacity(key.len() + 2);
    component(&mut start, key);
    let mut end = start.clone();
    // `00 01` -> `00 02`: past every cell of the row, before any other row.
    *end.last_mut().expect("terminated") = END + 1;
    KeyRange::new(&start, Some(&end))
}

/// The key range of the cells a single-row read of `columns` needs: one family's part of the
/// row when the selection names one family, the whole row otherwise.
pub(crate) fn row_read_range(key: &[u8], columns: &Columns) -> KeyRange {
    let family = match columns.pick() {
        Pick::Families(f) if f.len() == 1 => &f[0],
        Pick::QualifierRange { family, .. } => family,
        _ => return row_range(key),
    };
    let mut start = Vec::with_capacity(key.len() + family.len() + 4);
    component(&mut start, key);
    component(&mut start, family.as_bytes());
    let mut end = start.clone();
    if let Pick::QualifierRange {
        start: q, end: e, ..
    } = columns.pick()
    {
        start.extend_from_slice(q);
        if let Some(e) = e {
            end.extend_from_slice(e);
            return KeyRange::new(&start, Some(&end));
        }
    }
    *end.last_mut().expect("terminated") = END + 1;
    KeyRange::new(&start, Some(&end))
}

/// The key range of the cells of every row in `range`.
pub(crate) fn rows_range(range: &KeyRange) -> KeyRange {
    let mut start = Vec::with_capacity(range.start().len() + 2);
    escape_into(&mut start, range.start());
    let end = range.end().map(|e| {
        let mut out = Vec::with_capacity(e.len() + 2);
        escape_into(&mut out, e);
        out
    });
    KeyRange::new(&start, end.as_deref())
}

/// Reads one escaped, terminated component from `bytes`, returning it and the rest: borrowed
/// from `bytes` when it holds no escaped zero (rowkey's keys hold few), unescaped otherwise.
fn take_component(bytes: &[u8]) -> Option<(Cow<'_, [u8]>, &[u8])> {
    let first = bytes.iter().position(|&b| b == ESC)?;
    match bytes.get(first + 1) {
        Some(&END) => return Some((Cow::Borrowed(&bytes[..first]), &bytes[first + 2..])),
        Some(&ESCAPED_ZERO) => {}
        _ => return None,
    }
    let mut out = Vec::with_capacity(bytes.len());
    out.extend_from_slice(&bytes[..first]);
    let mut i = first;
    while i < bytes.len() {
        let b = bytes[i];
        if b != ESC {
            out.push(b);
            i += 1;
            continue;
        }
        match bytes.get(i + 1) {
            Some(&ESCAPED_ZERO) => {
                out.push(ESC);
                i += 2;
            }
            Some(&END) => return Some((Cow::Owned(out), &bytes[i + 2..])),
            _ => return None,
        }
    }
    None
}

/// A composite key taken apart, borrowing from the stored key where it can.
pub(crate) struct CellKey<'a> {
    pub(crate) row: Cow<'a, [u8]>,
    pub(crate) family: Cow<'a, str>,
    pub(crate) qualifier: &'a [u8],
}

/// Takes a composite key apart: row key, family, qualifier.
pub(crate) fn split_cell_key(stored: &[u8]) -> Result<CellKey<'_>, MalformedCell> {
    let malformed = |reason| MalformedCell {
        key: stored.to_vec(),
        reason,
    };
    let (row, rest) = take_component(stored).ok_or_else(|| malformed("no terminated row key"))?;
    let (family, qualifier) =
        take_component(rest).ok_or_else(|| malformed("no terminated column family"))?;
    let not_utf8 = || malformed("the column family is not UTF-8");
    let family = match family {
        Cow::Borrowed(f) => Cow::Borrowed(std::str::from_utf8(f).map_err(|_| not_utf8())?),
        Cow::Owned(f) => Cow::Owned(String::from_utf8(f).map_err(|_| not_utf8())?),
    };
    Ok(CellKey {
        row,
        family,
        qualifier,
    })
}

/// Groups a composite-layout scan's entries into rows, keeping the selected cells; rows with no
/// selected cell are left out, as Bigtable and HBase leave them out. The entries' keys may be
/// any buffer (a store lends its own): a cell's key is taken apart where it lies, and only a
/// new row's key and a selected cell's qualifier are copied.
pub(crate) struct Grouped<I> {
    entries: I,
    columns: Columns,
    reverse: bool,
    /// The row being gathered.
    current: Option<CellRow>,
    /// An error to hand out after the row in progress.
    pending: Option<MalformedCell>,
    done: bool,
}

impl<I> Grouped<I> {
    pub(crate) fn new(entries: I, columns: Columns, reverse: bool) -> Self {
        Grouped {
            entries,
            columns,
            reverse,
            current: None,
            pending: None,
            done: false,
        }
    }
}

impl<I, B, E> Iterator for Grouped<I>
where
    I: Iterator<Item = Result<(B, Bytes), E>>,
    B: AsRef<[u8]>,
{
    type Item = Result<CellRow, CellError<E>>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(m) = self.pending.take() {
            return Some(Err(CellError::Malformed(m)));
        }
        while !self.done {
            let (stored, value) = match self.entries.next() {
                Some(Ok(entry)) => entry,
                Some(Err(e)) => {
                    // The row in progress may be incomplete: the error comes first.
                    self.done = true;
                    self.current = None;
                    return Some(Err(CellError::Store(e)));
                }
                None => {
                    self.done = true;
                    break;
                }
            };
            let parts = match split_cell_key(stored.as_ref()) {
                Ok(parts) => parts,
                Err(m) => match self.current.take() {
                    Some(row) if !row.cells.is_empty() => {
                        self.pending = Some(m);
                        return Some(Ok(finish(row, self.reverse)));
                    }
                    _ => return Some(Err(CellError::Malformed(m))),
                },
            };
            let cell = self
                .columns
                .selected_family(&parts.family, parts.qualifier)
                .map(|family| Cell::new(family, parts.qualifier, value));
            match &mut self.current {
                Some(row) if row.key == *parts.row => row.cells.extend(cell),
                slot => {
                    let mut cells = Vec::new();
                    if let Some(cell) = cell {
                        cells.reserve_exact(self.columns.row_capacity());
                        cells.push(cell);
                    }
                    let next = CellRow {
                        key: parts.row.into_owned(),
                        cells,
                    };
                    if let Some(row) = slot.replace(next) {
                        if !row.cells.is_empty() {
                            return Some(Ok(finish(row, self.reverse)));
                        }
                    }
                }
            }
        }
        let row = self.current.take()?;
        (!row.cells.is_empty()).then(|| Ok(finish(row, self.reverse)))
    }
}

/// A row's cells in family, qualifier order (a reverse scan meets them backwards).
fn finish(mut row: CellRow, reverse: bool) -> CellRow {
    if reverse {
        row.cells.reverse();
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composite_keys_take_apart_and_keep_row_order() {
        let keys: [&[u8]; 6] = [b"", b"\x00", b"\x00\x00", b"\x00\x01", b"a", b"a\x00b"];
        for k in keys {
            for (f, q) in [("d", &b""[..]), ("d", b"\x00\x01"), ("x\x00", b"via")] {
                let ck = cell_key(k, f, q);
                let parts = split_cell_key(&ck).unwrap();
                assert_eq!((&*parts.row, &*parts.family, parts.qualifier), (k, f, q));
                // Borrowed where nothing was escaped.
                assert_eq!(matches!(parts.row, Cow::Borrowed(_)), !k.contains(&0));
                assert_eq!(matches!(parts.family, Cow::Borrowed(_)), !f.contains('\0'));
                assert!(row_range(k).contains(&ck));
            }
        }
        for a in keys {
            for b in keys {
                let (ca, cb) = (cell_key(a, "d", b"\xff\xff"), cell_key(b, "d", b""));
                if a < b {
                    assert!(ca < cb, "{a:?} {b:?}");
                    assert!(!row_range(b).contains(&ca));
                }
            }
        }
        assert!(split_cell_key(b"ab").is_err());
        assert!(split_cell_key(b"a\x00\x05").is_err());
        assert!(split_cell_key(b"a\x00\x01d").is_err());
        assert!(split_cell_key(b"a\x00\xffb\x00\x01d\xff\x00\x01").is_err());
        assert!(split_cell_key(b"a\x00\x01\xff\xfe\x00\x01q").is_err());
    }
}
