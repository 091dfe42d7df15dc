//! Rows of cells, the value side's model: [`Cell`], [`Column`], [`CellRow`], [`RowWrite`] and
//! the column selection [`Columns`]. A [`RowValue`](crate::RowValue) turns into and out of
//! these; every store keeps them (natively, or in the composite layout of FORMAT.md §7).

use std::borrow::Cow;

use bytes::Bytes;

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

/// The cells of one row as [`Store::scan_rows_lent`] lends them: read in place, from a
/// [`CellRow`]'s cells or from one buffer the store refills row after row (so a row read this
/// way and decoded allocates nothing of its own).
///
/// [`Store::scan_rows_lent`]: crate::store::Store::scan_rows_lent
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct LentCells<'a>(LentRepr<'a>);

#[derive(Clone, Copy)]
enum LentRepr<'a> {
    Cells(&'a [Cell]),
    Packed {
        bytes: &'a [u8],
        cells: &'a [PackedCell],
    },
}

/// Where one cell lies in a buffer of packed cells: its family, qualifier and value, one after
/// the other, from `start` to `end`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PackedCell {
    start: usize,
    family_end: usize,
    qualifier_end: usize,
    end: usize,
}

impl PackedCell {
    /// Appends a cell to `bytes`, returning where it lies.
    pub(crate) fn push(bytes: &mut Vec<u8>, family: &[u8], qualifier: &[u8], value: &[u8]) -> Self {
        let start = bytes.len();
        bytes.extend_from_slice(family);
        let family_end = bytes.len();
        bytes.extend_from_slice(qualifier);
        let qualifier_end = bytes.len();
        bytes.extend_from_slice(value);
        PackedCell {
            start,
            family_end,
            qualifier_end,
            end: bytes.len(),
        }
    }
}

impl<'a> LentCells<'a> {
    /// A row's cells, lent.
    pub fn cells(cells: &'a [Cell]) -> Self {
        LentCells(LentRepr::Cells(cells))
    }

    /// Cells packed in `bytes` where `cells` says.
    pub(crate) fn packed(bytes: &'a [u8], cells: &'a [PackedCell]) -> Self {
        LentCells(LentRepr::Packed { bytes, cells })
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        match self.0 {
            LentRepr::Cells(c) => c.len(),
            LentRepr::Packed { cells, .. } => cells.len(),
        }
    }

    /// Whether the row has no cell.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of column `family:qualifier`, if the row has that cell.
    pub fn value(&self, family: &str, qualifier: &[u8]) -> Option<&'a [u8]> {
        match self.0 {
            LentRepr::Cells(c) => c
                .iter()
                .find(|c| c.is(family, qualifier))
                .map(|c| &c.value[..]),
            LentRepr::Packed { bytes, cells } => cells
                .iter()
                .find(|c| {
                    &bytes[c.start..c.family_end] == family.as_bytes()
                        && &bytes[c.family_end..c.qualifier_end] == qualifier
                })
                .map(|c| &bytes[c.qualifier_end..c.end]),
        }
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
/// [`Store::write_rows`]: crate::store::Store::write_rows
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

    /// The family of column `family:qualifier` as this selection names it (a name the
    /// selection holds is shared, not copied), or `None` when it is not selected.
    pub(crate) fn selected_family(
        &self,
        family: &str,
        qualifier: &[u8],
    ) -> Option<Cow<'static, str>> {
        match &self.0 {
            Pick::All => Some(Cow::Owned(family.to_owned())),
            Pick::Families(f) => f.iter().find(|f| *f == family).cloned(),
            Pick::Exact(c) => c
                .iter()
                .find(|c| c.family == family && c.qualifier == qualifier)
                .map(|c| c.family.clone()),
            Pick::QualifierRange { family: f, .. } => {
                self.contains(family, qualifier).then(|| f.clone())
            }
        }
    }

    /// How many cells a row read with this selection is likely to hold: room made once
    /// instead of growing the row cell by cell.
    pub(crate) fn row_capacity(&self) -> usize {
        match &self.0 {
            Pick::Exact(c) => c.len().clamp(1, 64),
            _ => 4,
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

/// One version of a cell: when it was written (milliseconds since the Unix epoch, HBase's
/// unit) and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellVersion {
    /// The version's timestamp, in milliseconds since the Unix epoch.
    pub timestamp_ms: i64,
    /// The value.
    pub value: Bytes,
}

/// Which versions of a cell to read: newest first, at most `max`, with timestamps in
/// `from_ms..until_ms` (HBase's `TimeRange`: the start included, the end not).
///
/// Only the networked stores keep versions (HBase, Bigtable): the embedded stores' layout
/// keeps one value per cell, so they have no version reads (FORMAT.md §7; a versioned layout
/// would be a new, opt-in one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Versions {
    /// Versions at most (at least 1).
    pub max: u32,
    /// The oldest timestamp included.
    pub from_ms: i64,
    /// The first timestamp excluded.
    pub until_ms: i64,
}

impl Versions {
    /// The newest `n` versions.
    pub const fn latest(n: u32) -> Self {
        Versions {
            max: n,
            from_ms: 0,
            until_ms: i64::MAX,
        }
    }

    /// The value as of `timestamp_ms`: the newest version written at or before it.
    pub const fn as_of(timestamp_ms: i64) -> Self {
        Versions {
            max: 1,
            from_ms: 0,
            until_ms: timestamp_ms.saturating_add(1),
        }
    }

    /// Up to `max` versions with timestamps in `from_ms..until_ms`, newest first.
    pub const fn between(from_ms: i64, until_ms: i64, max: u32) -> Self {
        Versions {
            max,
            from_ms,
            until_ms,
        }
    }
}
