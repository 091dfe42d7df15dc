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

use crate::cell::{Cell, CellRow, Columns, LentCells, PackedCell, Pick};
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

/// Finds one escaped, terminated component at the start of `bytes`: the component as stored
/// (still escaped) and the rest after its terminator; `None` when it is not terminated or
/// holds a `00` that neither escapes a zero nor terminates.
fn escaped_component(bytes: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut from = 0;
    loop {
        let at = from + bytes[from..].iter().position(|&b| b == ESC)?;
        match bytes.get(at + 1) {
            Some(&END) => return Some((&bytes[..at], &bytes[at + 2..])),
            Some(&ESCAPED_ZERO) => from = at + 2,
            _ => return None,
        }
    }
}

/// Appends `escaped` (an escaped component, checked by [`escaped_component`]) unescaped.
fn unescape_into(out: &mut Vec<u8>, escaped: &[u8]) {
    out.reserve(escaped.len());
    let mut i = 0;
    while let Some(&b) = escaped.get(i) {
        out.push(b);
        // `00 FF` is one zero.
        i += if b == ESC { 2 } else { 1 };
    }
}

/// Reads one escaped, terminated component from `bytes`, returning it and the rest: borrowed
/// from `bytes` when it holds no escaped zero (rowkey's keys hold few), unescaped otherwise,
/// in the same pass that finds its end.
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
#[cfg(any(feature = "fjall", test))]
pub(crate) struct CellKey<'a> {
    pub(crate) row: Cow<'a, [u8]>,
    pub(crate) family: Cow<'a, str>,
    pub(crate) qualifier: &'a [u8],
}

/// Takes a composite key apart: row key, family, qualifier (unescaped per cell: what fjall's
/// rows as columns read, one record per cell).
#[cfg(any(feature = "fjall", test))]
pub(crate) fn split_cell_key(stored: &[u8]) -> Result<CellKey<'_>, MalformedCell> {
    let (row, rest) = take_component(stored).ok_or_else(|| malformed(stored, NO_ROW))?;
    let (family, qualifier) = split_column(stored, rest)?;
    Ok(CellKey {
        row,
        family,
        qualifier,
    })
}

/// A composite key taken apart with its row key left escaped as stored: row, family,
/// qualifier.
type EscapedCellKey<'a> = (&'a [u8], Cow<'a, str>, &'a [u8]);

/// Takes a composite key apart, leaving its row key escaped as stored.
fn split_escaped(stored: &[u8]) -> Result<EscapedCellKey<'_>, MalformedCell> {
    let (row, rest) = escaped_component(stored).ok_or_else(|| malformed(stored, NO_ROW))?;
    let (family, qualifier) = split_column(stored, rest)?;
    Ok((row, family, qualifier))
}

const NO_ROW: &str = "no terminated row key";

fn malformed(stored: &[u8], reason: &'static str) -> MalformedCell {
    MalformedCell {
        key: stored.to_vec(),
        reason,
    }
}

/// The family and qualifier of `stored`, whose row key ends where `rest` starts.
fn split_column<'a>(
    stored: &[u8],
    rest: &'a [u8],
) -> Result<(Cow<'a, str>, &'a [u8]), MalformedCell> {
    let (family, qualifier) =
        take_component(rest).ok_or_else(|| malformed(stored, "no terminated column family"))?;
    let not_utf8 = || malformed(stored, "the column family is not UTF-8");
    let family = match family {
        Cow::Borrowed(f) => Cow::Borrowed(std::str::from_utf8(f).map_err(|_| not_utf8())?),
        Cow::Owned(f) => Cow::Owned(String::from_utf8(f).map_err(|_| not_utf8())?),
    };
    Ok((family, qualifier))
}

/// Groups a composite-layout scan's entries into rows, keeping the selected cells; rows with no
/// selected cell are left out, as Bigtable and HBase leave them out. The entries' keys may be
/// any buffer (a store lends its own): a cell's key is taken apart where it lies, and its row
/// is told from the last one in the escaped form stored, so a row's key is unescaped once.
/// What a row is gathered into is `G`'s: a [`CellRow`] of copies ([`Grouped`]) or buffers
/// refilled row after row and lent ([`LentGrouped`]).
pub(crate) struct Grouper<I, G> {
    entries: I,
    columns: Columns,
    gather: G,
    /// Whether a row is being gathered, and its key as stored.
    started: bool,
    escaped: Vec<u8>,
    /// An error to hand out after the row in progress.
    pending: Option<MalformedCell>,
    done: bool,
}

/// What a [`Grouper`] gathers each row into.
pub(crate) trait Gather<V> {
    /// A row as handed out.
    type Row;
    /// Starts the row whose key is `escaped` (as stored).
    fn start(&mut self, escaped: &[u8]);
    /// Adds a cell of the row started, if `columns` selects it.
    fn add(&mut self, columns: &Columns, family: &str, qualifier: &[u8], value: V);
    /// The row started, if it has a cell.
    fn finish(&mut self) -> Option<Self::Row>;
}

/// Rows of copies: each a [`CellRow`], the values kept as the store handed them out.
pub(crate) type Grouped<I> = Grouper<I, Copies>;

/// Rows lent to `make`, which makes each into a `T`: the row's key and its selected cells,
/// packed into buffers refilled row after row, so that once they have grown to the largest
/// row a row costs no allocation here.
pub(crate) type LentGrouped<I, F> = Grouper<I, Lent<F>>;

impl<I, G> Grouper<I, G> {
    fn with(entries: I, columns: Columns, gather: G) -> Self {
        Grouper {
            entries,
            columns,
            gather,
            started: false,
            escaped: Vec::new(),
            pending: None,
            done: false,
        }
    }

    /// The row gathered so far, if it has a selected cell; the row is closed either way.
    fn close<V>(&mut self) -> Option<G::Row>
    where
        G: Gather<V>,
    {
        std::mem::take(&mut self.started)
            .then(|| self.gather.finish())
            .flatten()
    }
}

impl<I> Grouped<I> {
    pub(crate) fn new(entries: I, columns: Columns, reverse: bool) -> Self {
        let row_capacity = columns.row_capacity();
        Grouper::with(
            entries,
            columns,
            Copies {
                row: CellRow::default(),
                reverse,
                row_capacity,
            },
        )
    }
}

impl<I, F> LentGrouped<I, F> {
    pub(crate) fn new(entries: I, columns: Columns, make: F) -> Self {
        Grouper::with(
            entries,
            columns,
            Lent {
                make,
                key: Vec::new(),
                bytes: Vec::new(),
                cells: Vec::new(),
            },
        )
    }
}

impl<I, K, V, E, G> Iterator for Grouper<I, G>
where
    I: Iterator<Item = Result<(K, V), E>>,
    K: AsRef<[u8]>,
    G: Gather<V>,
{
    type Item = Result<G::Row, CellError<E>>;

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
                    self.started = false;
                    return Some(Err(CellError::Store(e)));
                }
                None => {
                    self.done = true;
                    break;
                }
            };
            let (row, family, qualifier) = match split_escaped(stored.as_ref()) {
                Ok(parts) => parts,
                Err(m) => {
                    return Some(match self.close() {
                        Some(row) => {
                            self.pending = Some(m);
                            Ok(row)
                        }
                        None => Err(CellError::Malformed(m)),
                    })
                }
            };
            let mut made = None;
            if !(self.started && self.escaped == row) {
                made = self.close();
                self.started = true;
                self.escaped.clear();
                self.escaped.extend_from_slice(row);
                self.gather.start(row);
            }
            self.gather.add(&self.columns, &family, qualifier, value);
            if let Some(row) = made {
                return Some(Ok(row));
            }
        }
        self.close().map(Ok)
    }
}

/// Gathers [`CellRow`]s (see [`Grouped`]).
pub(crate) struct Copies {
    row: CellRow,
    /// A reverse scan meets a row's cells backwards: they are put back in family, qualifier
    /// order.
    reverse: bool,
    row_capacity: usize,
}

impl Gather<Bytes> for Copies {
    type Row = CellRow;

    fn start(&mut self, escaped: &[u8]) {
        let mut key = Vec::with_capacity(escaped.len());
        unescape_into(&mut key, escaped);
        self.row = CellRow {
            key,
            cells: Vec::new(),
        };
    }

    fn add(&mut self, columns: &Columns, family: &str, qualifier: &[u8], value: Bytes) {
        if let Some(family) = columns.selected_family(family, qualifier) {
            if self.row.cells.is_empty() {
                self.row.cells.reserve_exact(self.row_capacity);
            }
            self.row.cells.push(Cell::new(family, qualifier, value));
        }
    }

    fn finish(&mut self) -> Option<CellRow> {
        let mut row = std::mem::take(&mut self.row);
        if row.cells.is_empty() {
            return None;
        }
        if self.reverse {
            row.cells.reverse();
        }
        Some(row)
    }
}

/// Gathers rows into buffers and lends them to `make` (see [`LentGrouped`]).
pub(crate) struct Lent<F> {
    make: F,
    /// The row's key, unescaped.
    key: Vec<u8>,
    /// Its selected cells, packed in `bytes`.
    bytes: Vec<u8>,
    cells: Vec<PackedCell>,
}

impl<V: AsRef<[u8]>, F: FnMut(&[u8], LentCells<'_>) -> T, T> Gather<V> for Lent<F> {
    type Row = T;

    fn start(&mut self, escaped: &[u8]) {
        self.key.clear();
        unescape_into(&mut self.key, escaped);
        self.bytes.clear();
        self.cells.clear();
    }

    fn add(&mut self, columns: &Columns, family: &str, qualifier: &[u8], value: V) {
        if columns.contains(family, qualifier) {
            let cell = PackedCell::push(
                &mut self.bytes,
                family.as_bytes(),
                qualifier,
                value.as_ref(),
            );
            self.cells.push(cell);
        }
    }

    fn finish(&mut self) -> Option<T> {
        (!self.cells.is_empty())
            .then(|| (self.make)(&self.key, LentCells::packed(&self.bytes, &self.cells)))
    }
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

    /// What a row of cells reads as, whichever way it was gathered: its key, how many cells
    /// it has, and the value of every column the test can name.
    type Seen = (Vec<u8>, usize, Vec<Option<Vec<u8>>>);

    const FAMILIES: [&str; 3] = ["d", "x", "x\0"];
    const QUALIFIERS: [&[u8]; 4] = [b"", b"a", b"a\0", b"via"];

    fn seen(key: &[u8], len: usize, value: impl Fn(&str, &[u8]) -> Option<Vec<u8>>) -> Seen {
        let values = FAMILIES
            .iter()
            .flat_map(|f| QUALIFIERS.iter().map(move |q| (*f, *q)))
            .map(|(f, q)| value(f, q))
            .collect();
        (key.to_vec(), len, values)
    }

    fn outcome<T>(r: Result<T, CellError<u8>>) -> Result<T, String> {
        r.map_err(|e| match e {
            CellError::Store(e) => format!("store {e}"),
            CellError::Malformed(m) => format!("malformed {:?} {}", m.key, m.reason),
        })
    }

    proptest::proptest! {
        /// The lending grouper hands out exactly the rows the grouper of copies builds, with
        /// the same errors in the same places, forward and backward, for any selection, row
        /// keys with zero bytes, keys that are not cells, and a store error anywhere.
        #[test]
        fn lent_rows_are_the_rows_of_copies(
            cells in proptest::collection::btree_set(
                (proptest::collection::vec(proptest::sample::select(vec![0u8, 1, 0xff, b'k']), 0..4),
                 0..FAMILIES.len(), 0..QUALIFIERS.len()),
                0..24,
            ),
            junk in proptest::collection::vec(
                proptest::collection::vec(proptest::sample::select(vec![0u8, 1, 5, 0xff, b'k']), 0..5),
                0..3,
            ),
            fail_at in proptest::option::of(0usize..30),
            pick in 0u8..4,
            reverse in proptest::bool::ANY,
        ) {
            let mut entries: Vec<(Vec<u8>, Bytes)> = cells
                .iter()
                .map(|(row, f, q)| {
                    let value = Bytes::from(format!("{row:?}{f}{q}"));
                    (cell_key(row, FAMILIES[*f], QUALIFIERS[*q]), value)
                })
                .chain(junk.into_iter().map(|k| (k, Bytes::from_static(b"junk"))))
                .collect();
            entries.sort();
            entries.dedup_by(|a, b| a.0 == b.0);
            if reverse {
                entries.reverse();
            }
            let entries: Vec<Result<(Vec<u8>, Bytes), u8>> = entries
                .into_iter()
                .enumerate()
                .map(|(i, e)| if Some(i) == fail_at { Err(7) } else { Ok(e) })
                .collect();
            let columns = match pick {
                0 => Columns::all(),
                1 => Columns::families(["x"]),
                2 => Columns::exact([
                    crate::cell::Column::new("d", b"a".to_vec()),
                    crate::cell::Column::new("x\0", b"via".to_vec()),
                ]),
                _ => Columns::qualifier_range("d", b"a".to_vec(), None),
            };
            let copies: Vec<Result<Seen, String>> =
                Grouped::new(entries.clone().into_iter(), columns.clone(), reverse)
                    .map(|r| {
                        outcome(r).map(|row| {
                            seen(&row.key, row.cells.len(), |f, q| {
                                row.value(f, q).map(<[u8]>::to_vec)
                            })
                        })
                    })
                    .collect();
            let lent: Vec<Result<Seen, String>> =
                LentGrouped::new(entries.into_iter(), columns, |key: &[u8], cells: LentCells<'_>| {
                    seen(key, cells.len(), |f, q| cells.value(f, q).map(<[u8]>::to_vec))
                })
                .map(outcome)
                .collect();
            proptest::prop_assert_eq!(lent, copies);
        }
    }
}
