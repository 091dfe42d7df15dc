//! Rows of cells: [`Cell`], [`CellRow`], [`RowWrite`], the column selection [`Columns`], and the
//! composite layout that keeps cells in a store that has only keys and values (memory, fjall).
//!
//! **The composite layout.** A store without columns keeps each cell under one key:
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

use crate::scan::KeyRange;

/// One cell of a row: a column (family and qualifier) and its value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// The column family (`d`, short: every cell carries it).
    pub family: Cow<'static, str>,
    /// The column qualifier (`via`, short for the same reason).
    pub qualifier: Vec<u8>,
    /// The value, a shared buffer: a store hands out the bytes it read without copying them.
    pub value: Bytes,
}

impl Cell {
    /// A cell of column `family:qualifier` holding `value`.
    pub fn new(
        family: impl Into<Cow<'static, str>>,
        qualifier: impl Into<Vec<u8>>,
        value: impl Into<Bytes>,
    ) -> Self {
        Cell {
            family: family.into(),
            qualifier: qualifier.into(),
            value: value.into(),
        }
    }

    /// Whether this cell is in column `family:qualifier`.
    pub fn is(&self, family: &str, qualifier: &[u8]) -> bool {
        self.family == family && self.qualifier == qualifier
    }
}

/// A column: a family and a qualifier.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Column {
    /// The column family.
    pub family: Cow<'static, str>,
    /// The column qualifier.
    pub qualifier: Vec<u8>,
}

impl Column {
    /// The column `family:qualifier`.
    pub fn new(family: impl Into<Cow<'static, str>>, qualifier: impl Into<Vec<u8>>) -> Self {
        Column {
            family: family.into(),
            qualifier: qualifier.into(),
        }
    }
}

/// A row as a scan or a read returns it: its key and its cells (the selected ones), sorted by
/// family, then qualifier.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CellRow {
    /// The row key.
    pub key: Vec<u8>,
    /// The row's cells.
    pub cells: Vec<Cell>,
}

impl CellRow {
    /// The value of column `family:qualifier`, if the row has that cell.
    pub fn value(&self, family: &str, qualifier: &[u8]) -> Option<&[u8]> {
        self.cells
            .iter()
            .find(|c| c.is(family, qualifier))
            .map(|c| &c.value[..])
    }
}

/// A write to one row: cells to set (replacing those columns' values) and columns to clear
/// (a typed value's `None` fields). Columns named in neither stay as they are, as in HBase.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct RowWrite {
    /// The row key.
    pub key: Vec<u8>,
    /// Cells to write.
    pub set: Vec<Cell>,
    /// Columns to delete.
    pub clear: Vec<Column>,
}

impl RowWrite {
    /// A write of `cells` to row `key`.
    pub fn new(key: impl Into<Vec<u8>>, cells: Vec<Cell>) -> Self {
        RowWrite {
            key: key.into(),
            set: cells,
            clear: Vec::new(),
        }
    }
}

/// A batch of row writes as it must be applied: one write per row key (in the order keys
/// first appear), holding each column's last operation. A later set of a column replaces an
/// earlier set or clear of it, a later clear an earlier set; within one [`RowWrite`] the
/// clears come after the sets (a column in both ends cleared). Stores that cannot promise to
/// apply a batch's entries in order (Bigtable's `MutateRows`, HBase's split `putMultiple` and
/// `deleteMultiple` with one timestamp per batch, the provided [`Store::write_rows`]) write
/// this instead, so every store keeps the later write. Borrows when the batch is already
/// in this shape (no key twice, no column twice in a row), which is the common case.
///
/// [`Store::write_rows`]: super::Store::write_rows
pub(crate) fn coalesce(rows: &[RowWrite]) -> Cow<'_, [RowWrite]> {
    let mut keys = std::collections::HashSet::with_capacity(rows.len());
    let clean = rows
        .iter()
        .all(|r| keys.insert(r.key.as_slice()) && columns_distinct(r));
    if clean {
        return Cow::Borrowed(rows);
    }
    // Per row key, in first-appearance order: each column's last operation, in the order the
    // columns were first named (None = clear).
    type Ops = Vec<((Cow<'static, str>, Vec<u8>), Option<Bytes>)>;
    let mut order: Vec<(Vec<u8>, Ops)> = Vec::new();
    let mut index: std::collections::HashMap<&[u8], usize> = std::collections::HashMap::new();
    for r in rows {
        let slot = *index.entry(r.key.as_slice()).or_insert_with(|| {
            order.push((r.key.clone(), Vec::new()));
            order.len() - 1
        });
        let ops = &mut order[slot].1;
        let sets = r.set.iter().map(|c| {
            (
                (c.family.clone(), c.qualifier.clone()),
                Some(c.value.clone()),
            )
        });
        let clears = r
            .clear
            .iter()
            .map(|c| ((c.family.clone(), c.qualifier.clone()), None));
        for (column, op) in sets.chain(clears) {
            match ops.iter_mut().find(|(c, _)| *c == column) {
                Some(existing) => existing.1 = op,
                None => ops.push((column, op)),
            }
        }
    }
    let out = order
        .into_iter()
        .map(|(key, ops)| {
            let mut write = RowWrite {
                key,
                set: Vec::new(),
                clear: Vec::new(),
            };
            for ((family, qualifier), op) in ops {
                match op {
                    Some(value) => write.set.push(Cell {
                        family,
                        qualifier,
                        value,
                    }),
                    None => write.clear.push(Column { family, qualifier }),
                }
            }
            write
        })
        .collect();
    Cow::Owned(out)
}

/// Whether a row write names each column once (sets and clears together).
fn columns_distinct(r: &RowWrite) -> bool {
    let columns = || {
        r.set
            .iter()
            .map(|c| (&c.family, &c.qualifier))
            .chain(r.clear.iter().map(|c| (&c.family, &c.qualifier)))
    };
    let n = r.set.len() + r.clear.len();
    if n <= 16 {
        columns()
            .enumerate()
            .all(|(i, a)| columns().skip(i + 1).all(|b| a != b))
    } else {
        let mut seen = std::collections::HashSet::with_capacity(n);
        columns().all(|c| seen.insert(c))
    }
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

/// Which columns a read or a scan returns: all of them, some families, some columns, or a
/// range of qualifiers within one family (the edge rows of a time-bucketed row, for example).
/// The store applies it (Bigtable and HBase on the server), so unselected cells are never
/// handed out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns(Pick);

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Pick {
    All,
    Families(Vec<Cow<'static, str>>),
    Exact(Vec<Column>),
    QualifierRange {
        family: Cow<'static, str>,
        start: Vec<u8>,
        end: Option<Vec<u8>>,
    },
}

impl Columns {
    /// Every column.
    pub fn all() -> Self {
        Columns(Pick::All)
    }

    /// Every column of these families.
    pub fn families<F: Into<Cow<'static, str>>>(families: impl IntoIterator<Item = F>) -> Self {
        Columns(Pick::Families(
            families.into_iter().map(Into::into).collect(),
        ))
    }

    /// Exactly these columns.
    pub fn exact(columns: impl IntoIterator<Item = Column>) -> Self {
        Columns(Pick::Exact(columns.into_iter().collect()))
    }

    /// The columns of `family` whose qualifiers are at least `start` and, when `end` is given,
    /// below it (byte order).
    pub fn qualifier_range(
        family: impl Into<Cow<'static, str>>,
        start: impl Into<Vec<u8>>,
        end: Option<Vec<u8>>,
    ) -> Self {
        Columns(Pick::QualifierRange {
            family: family.into(),
            start: start.into(),
            end,
        })
    }

    /// Whether column `family:qualifier` is selected.
    pub fn contains(&self, family: &str, qualifier: &[u8]) -> bool {
        match &self.0 {
            Pick::All => true,
            Pick::Families(f) => f.iter().any(|f| f == family),
            Pick::Exact(c) => c
                .iter()
                .any(|c| c.family == family && c.qualifier == qualifier),
            Pick::QualifierRange {
                family: f,
                start,
                end,
            } => {
                f == family
                    && qualifier >= start.as_slice()
                    && end.as_deref().is_none_or(|e| qualifier < e)
            }
        }
    }

    pub(crate) fn pick(&self) -> &Pick {
        &self.0
    }

    /// Whether nothing can be selected (no families, no columns, an empty qualifier range).
    pub fn is_empty(&self) -> bool {
        match &self.0 {
            Pick::All => false,
            Pick::Families(f) => f.is_empty(),
            Pick::Exact(c) => c.is_empty(),
            Pick::QualifierRange { start, end, .. } => {
                end.as_deref().is_some_and(|e| e <= start.as_slice())
            }
        }
    }
}

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

/// Reads one escaped, terminated component from `bytes`, returning it and the rest.
fn take_component(bytes: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
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
            Some(&END) => return Some((out, &bytes[i + 2..])),
            _ => return None,
        }
    }
    None
}

/// Takes a composite key apart: row key, family, qualifier.
pub(crate) fn split_cell_key(stored: &[u8]) -> Result<(Vec<u8>, String, Vec<u8>), MalformedCell> {
    let malformed = |reason| MalformedCell {
        key: stored.to_vec(),
        reason,
    };
    let (key, rest) = take_component(stored).ok_or_else(|| malformed("no terminated row key"))?;
    let (family, qualifier) =
        take_component(rest).ok_or_else(|| malformed("no terminated column family"))?;
    let family =
        String::from_utf8(family).map_err(|_| malformed("the column family is not UTF-8"))?;
    Ok((key, family, qualifier.to_vec()))
}

/// Groups a composite-layout scan's entries into rows, keeping the selected cells; rows with no
/// selected cell are left out, as Bigtable and HBase leave them out.
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

impl<I, E> Iterator for Grouped<I>
where
    I: Iterator<Item = Result<(Bytes, Bytes), E>>,
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
            let (key, family, qualifier) = match split_cell_key(&stored) {
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
                .contains(&family, &qualifier)
                .then(|| Cell::new(family, qualifier, value));
            match &mut self.current {
                Some(row) if row.key == key => row.cells.extend(cell),
                slot => {
                    let next = CellRow {
                        key,
                        cells: cell.into_iter().collect(),
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
                let (k2, f2, q2) = split_cell_key(&ck).unwrap();
                assert_eq!((k2.as_slice(), f2.as_str(), q2.as_slice()), (k, f, q));
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
    }
}
