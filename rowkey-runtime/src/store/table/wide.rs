//! [`WideTable`]: rows as columns. Each logical record (a [`RowsAsColumns`] key and one
//! [`ColumnValue`]) is one cell: the key's row part is the row, the rest of the key is the
//! column qualifier, in one column family. One row holds every record of its span (an hour of
//! one series, the OpenTSDB way); [`WideMerged`] reads ranges of records back in logical order.

use std::collections::VecDeque;
use std::marker::PhantomData;

use super::merge::MergeIter;
use super::single;
use super::TableError;
use crate::error::{EncodeError, EncodeErrorKind};
use crate::field::Decode;
use crate::rows_as_columns::{Piece, RowsAsColumns};
use crate::scan::KeyRanges;
use crate::store::{Cell, CellError, Column, Columns, LentScan, Row, RowWrite, Store};
use crate::value::{ColumnValue, ValueError, ValueErrorKind};
use bytes::Bytes;

/// Records keyed by `K` (a key with a `#[row_span(N)]` field) with values `V`, stored as
/// rows of columns in the column family `family` of store `S`: writing a record puts one cell,
/// and a range of records reads exactly the rows it spans, with qualifier ranges on the first
/// and last row (so a read of ten minutes out of an hour's row reads ten minutes of cells).
pub struct WideTable<S, K, V> {
    store: S,
    family: &'static str,
    _types: PhantomData<fn() -> (K, V)>,
}

impl<S: Store, K: RowsAsColumns, V: ColumnValue> WideTable<S, K, V> {
    /// A table of `K` records with `V` values in column family `family` of `store`.
    pub fn new(store: S, family: &'static str) -> Self {
        WideTable {
            store,
            family,
            _types: PhantomData,
        }
    }

    /// The underlying store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The column family.
    pub fn family(&self) -> &'static str {
        self.family
    }

    /// Writes one record: one cell.
    pub fn put(&self, key: &K, value: &V) -> Result<(), TableError<S::Error>> {
        self.put_batch([(key, value)])
    }

    /// Writes many records, one row write per row they fall in. Every key and value is encoded
    /// before anything is written; a store failure lists the rows not written.
    pub fn put_batch<'r>(
        &self,
        records: impl IntoIterator<Item = (&'r K, &'r V)>,
    ) -> Result<(), TableError<S::Error>>
    where
        K: 'r,
        V: 'r,
    {
        let writes = record_writes(self.family, records)?;
        self.store.write_rows(&writes).map_err(TableError::Batch)
    }

    /// Reads one record.
    pub fn get(&self, key: &K) -> Result<Option<V>, TableError<S::Error>> {
        let (row, qualifier) = record_cell(key).map_err(single)?;
        let column = Columns::exact([Column::new(self.family, qualifier.clone())]);
        let found = self.store.read_row(&row, &column)?;
        record_value(self.family, row, qualifier, found)
    }

    /// Deletes one record (its cell; the row's other records stay).
    pub fn delete(&self, key: &K) -> Result<(), TableError<S::Error>> {
        let write = record_clear(self.family, key)?;
        self.store.write_rows(&[write]).map_err(TableError::Batch)
    }

    /// What a scan of `ranges` reads: per range, the rows and the qualifier ranges of its edge
    /// rows ([`RowsAsColumns::plan`]).
    pub fn plan(&self, ranges: &KeyRanges) -> Vec<Vec<Piece>> {
        ranges.iter().map(K::plan).collect()
    }

    /// The records of `ranges` (from `K::scan()`), in `K`'s logical order, salt buckets merged
    /// as [`Table::scan`](super::Table::scan) merges them, keys decoded as it decodes them.
    pub fn scan(&self, ranges: &KeyRanges) -> WideMerged<'_, S, K, V>
    where
        K: for<'de> Decode<'de>,
    {
        WideMerged::new(self, ranges, false).expect("forward scans always open")
    }

    /// The records of `ranges` in reverse logical order (the latest N); `None` when the store
    /// has no reverse scans.
    pub fn scan_rev(&self, ranges: &KeyRanges) -> Option<WideMerged<'_, S, K, V>>
    where
        K: for<'de> Decode<'de>,
    {
        WideMerged::new(self, ranges, true)
    }
}

/// The row key and the qualifier of a record's key.
pub(super) fn record_cell<K: RowsAsColumns>(key: &K) -> Result<(Vec<u8>, Vec<u8>), EncodeError> {
    let bytes = key.to_bytes()?;
    let (row, qualifier) =
        K::split_key(&bytes).ok_or(EncodeError::new(EncodeErrorKind::Internal))?;
    Ok((row.to_vec(), qualifier.to_vec()))
}

/// The row writes of a batch of records: every key and value encoded first (an error names the
/// record), one write per row; of two writes of one record the later wins, as with `put` (one
/// request cannot order two values of one cell).
pub(super) fn record_writes<'r, K: RowsAsColumns + 'r, V: ColumnValue + 'r, E>(
    family: &'static str,
    records: impl IntoIterator<Item = (&'r K, &'r V)>,
) -> Result<Vec<RowWrite>, TableError<E>> {
    let mut cells: Vec<(Vec<u8>, Vec<u8>, &V)> = Vec::new();
    for (index, (key, value)) in records.into_iter().enumerate() {
        let (row, qualifier) = record_cell(key).map_err(|error| TableError::Encode {
            index: Some(index),
            error,
        })?;
        cells.push((row, qualifier, value));
    }
    cells.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    let mut writes: Vec<RowWrite> = Vec::new();
    for (row, qualifier, value) in cells {
        let mut bytes = Vec::with_capacity(V::WIDTH.unwrap_or(16));
        if let Err(kind) = value.encode_value(&mut bytes) {
            let mut key = row.clone();
            key.extend_from_slice(&qualifier);
            return Err(value_error::<V, E>(family, key, kind));
        }
        let cell = Cell::new(family, qualifier, bytes);
        match writes.last_mut() {
            Some(w) if w.key == row => match w.set.last_mut() {
                Some(last) if last.qualifier == cell.qualifier => *last = cell,
                _ => w.set.push(cell),
            },
            _ => writes.push(RowWrite::new(row, vec![cell])),
        }
    }
    Ok(writes)
}

/// The write that deletes one record's cell.
pub(super) fn record_clear<K: RowsAsColumns, E>(
    family: &'static str,
    key: &K,
) -> Result<RowWrite, TableError<E>> {
    let (row, qualifier) = record_cell(key).map_err(single)?;
    let mut write = RowWrite::new(row, Vec::new());
    write.clear.push(Column::new(family, qualifier));
    Ok(write)
}

/// A record's value from the row read for it.
pub(super) fn record_value<V: ColumnValue, E>(
    family: &'static str,
    row: Vec<u8>,
    qualifier: Vec<u8>,
    found: Option<crate::store::CellRow>,
) -> Result<Option<V>, TableError<E>> {
    let Some(cell) = found.and_then(|r| r.cells.into_iter().next()) else {
        return Ok(None);
    };
    let mut full = row;
    full.extend_from_slice(&qualifier);
    decode_value::<V, E>(family, full, &cell.value).map(Some)
}

/// The columns a piece of a plan reads: the family, or a qualifier range of it.
pub(super) fn piece_columns(family: &'static str, piece: &Piece) -> Columns {
    match &piece.qualifiers {
        None => Columns::families([family]),
        Some((lo, hi)) => Columns::qualifier_range(family, lo.clone(), hi.clone()),
    }
}

/// A row's records as whole keys and values, in key order (reversed for a reverse scan).
#[cfg(feature = "async")]
pub(super) fn records_of(
    row: crate::store::CellRow,
    family: &'static str,
    reverse: bool,
) -> Vec<Row> {
    let key = row.key;
    let mut out: Vec<Row> = row
        .cells
        .into_iter()
        .filter(|c| c.family == family)
        .map(|c| {
            // Exactly as long as it is: the `Bytes` takes the buffer over without another
            // allocation.
            let mut full = Vec::with_capacity(key.len() + c.qualifier.len());
            full.extend_from_slice(&key);
            full.extend_from_slice(&c.qualifier);
            (full.into(), c.value)
        })
        .collect();
    if reverse {
        out.reverse();
    }
    out
}

/// A record from its whole key and value.
pub(super) fn decode_record<K: RowsAsColumns + for<'de> Decode<'de>, V: ColumnValue, E>(
    family: &'static str,
    (key, value): Row,
) -> Result<(K, V), TableError<E>> {
    decode_parts(family, &key, &value)
}

/// A record from its whole key and value, lent (copied only into an error).
fn decode_parts<K: RowsAsColumns + for<'de> Decode<'de>, V: ColumnValue, E>(
    family: &'static str,
    key: &[u8],
    value: &[u8],
) -> Result<(K, V), TableError<E>> {
    let decoded = match K::decode_trusted(key) {
        Ok(k) => k,
        Err(error) => {
            return Err(TableError::Decode {
                key: key.to_vec(),
                error,
            })
        }
    };
    match V::decode_value(value) {
        Ok(v) => Ok((decoded, v)),
        Err(kind) => Err(value_error::<V, E>(family, key.to_vec(), kind)),
    }
}

fn decode_value<V: ColumnValue, E>(
    family: &'static str,
    key: Vec<u8>,
    bytes: &[u8],
) -> Result<V, TableError<E>> {
    V::decode_value(bytes).map_err(|kind| value_error::<V, E>(family, key, kind))
}

/// A record's value that cannot be encoded or decoded, under its whole key.
fn value_error<V, E>(family: &'static str, key: Vec<u8>, kind: ValueErrorKind) -> TableError<E> {
    TableError::Value {
        key,
        error: ValueError {
            value_type: std::any::type_name::<V>(),
            family,
            qualifier: "(the key's qualifier)",
            kind,
        },
    }
}

/// One range's records, piece after piece, each cell made a `T` by the range's `open`: a
/// record under its whole key (a [`Row`], for the merge of several ranges), or, for a single
/// range, the record decoded where the store lends its parts.
struct WideRange<'a, S: Store + 'a, T> {
    store: &'a S,
    family: &'static str,
    reverse: bool,
    pieces: VecDeque<Piece>,
    current: Option<LentScan<'a, T, CellError<S::Error>>>,
    open: Open<'a, S, T>,
}

/// How a [`WideRange`] opens a piece: its cells (only the table's family: [`piece_columns`]
/// selects it) made into `T`s.
type Open<'a, S, T> = fn(&'a S, &Piece, &'static str, bool) -> Opened<'a, S, T>;

/// A piece's cells made `T`s; `None` for a reverse scan of a store without them.
type Opened<'a, S, T> = Option<LentScan<'a, T, CellError<<S as Store>::Error>>>;

/// A record from a cell: its row key and qualifier make the whole key (in a buffer of exactly
/// its size, which the `Bytes` takes over).
fn record(row: &[u8], _family: &str, qualifier: &[u8], value: &[u8]) -> Row {
    let mut full = Vec::with_capacity(row.len() + qualifier.len());
    full.extend_from_slice(row);
    full.extend_from_slice(qualifier);
    (full.into(), Bytes::copy_from_slice(value))
}

/// A piece's cells as records under their whole keys.
fn open_rows<'a, S: Store + 'a>(
    store: &'a S,
    piece: &Piece,
    family: &'static str,
    reverse: bool,
) -> Opened<'a, S, Row> {
    store.scan_cells_lent(&piece.rows, &piece_columns(family, piece), reverse, record)
}

/// A record decoded where the store lent its parts, or why it could not be.
type Decoded<S, K, V> = Result<(K, V), TableError<<S as Store>::Error>>;

/// A piece's cells decoded as they are lent: each whole key put together in one buffer, reused,
/// and decoded there, the value decoded in the store's buffer. Nothing is allocated for a
/// record but what its key and value own.
fn open_decoded<'a, S, K, V>(
    store: &'a S,
    piece: &Piece,
    family: &'static str,
    reverse: bool,
) -> Opened<'a, S, Decoded<S, K, V>>
where
    S: Store + 'a,
    K: RowsAsColumns + for<'de> Decode<'de> + 'a,
    V: ColumnValue + 'a,
{
    let mut key = Vec::new();
    store.scan_cells_lent(
        &piece.rows,
        &piece_columns(family, piece),
        reverse,
        move |row, _family, qualifier, value| {
            key.clear();
            key.extend_from_slice(row);
            key.extend_from_slice(qualifier);
            decode_parts(family, &key, value)
        },
    )
}

impl<'a, S: Store + 'a, T> WideRange<'a, S, T> {
    fn open(&self, piece: &Piece) -> Opened<'a, S, T> {
        (self.open)(self.store, piece, self.family, self.reverse)
    }
}

impl<'a, S: Store + 'a, T> Iterator for WideRange<'a, S, T> {
    type Item = Result<T, TableError<S::Error>>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let scan = match self.current.as_mut() {
                Some(scan) => scan,
                None => {
                    let piece = if self.reverse {
                        self.pieces.pop_back()
                    } else {
                        self.pieces.pop_front()
                    }?;
                    // Opened in `WideMerged::new` for the first piece: the store has the
                    // direction, so `None` cannot come here; treated as an empty piece.
                    self.current = self.open(&piece);
                    continue;
                }
            };
            match scan.next() {
                Some(Ok(record)) => return Some(Ok(record)),
                Some(Err(e)) => {
                    self.current = None;
                    self.pieces.clear();
                    return Some(Err(e.into()));
                }
                None => self.current = None,
            }
        }
    }
}

/// The merged, decoded records of a [`WideTable`] scan.
pub struct WideMerged<'a, S: Store + 'a, K, V> {
    family: &'static str,
    records: Records<'a, S, K, V>,
    _types: PhantomData<fn() -> (K, V)>,
}

/// A single range's records, decoded as the store lends them (no salt buckets to merge: a
/// query that fixes the salted fields, or an unsalted key); or several ranges' records under
/// their whole keys, merged in key order and decoded after.
enum Records<'a, S: Store + 'a, K, V> {
    One(WideRange<'a, S, Decoded<S, K, V>>),
    Merged(MergeIter<WideRange<'a, S, Row>, Row>),
}

impl<'a, S, K, V> WideMerged<'a, S, K, V>
where
    S: Store + 'a,
    K: RowsAsColumns + for<'de> Decode<'de> + 'a,
    V: ColumnValue + 'a,
{
    /// The merge of `ranges`; `None` when a reverse scan is asked of a store without them
    /// (each range's first piece is opened here, so the store says so at once).
    fn new(table: &'a WideTable<S, K, V>, ranges: &KeyRanges, reverse: bool) -> Option<Self> {
        let records = if ranges.len() == 1 {
            let r = ranges.iter().next().expect("one range");
            Records::One(WideRange::first(
                table,
                r,
                reverse,
                open_decoded::<S, K, V>,
            )?)
        } else {
            let mut opened = Vec::new();
            for r in ranges.iter() {
                opened.push(WideRange::first(table, r, reverse, open_rows::<S>)?);
            }
            Records::Merged(MergeIter::new(
                opened,
                usize::from(K::SCHEMA.salt.is_some()),
                reverse,
            ))
        };
        Some(WideMerged {
            family: table.family,
            records,
            _types: PhantomData,
        })
    }
}

impl<'a, S: Store + 'a, T> WideRange<'a, S, T> {
    /// The records of range `r` of `table`, its first piece opened.
    fn first<K: RowsAsColumns, V>(
        table: &'a WideTable<S, K, V>,
        r: &crate::scan::KeyRange,
        reverse: bool,
        open: Open<'a, S, T>,
    ) -> Option<Self> {
        let mut range = WideRange {
            store: &table.store,
            family: table.family,
            reverse,
            pieces: K::plan(r).into(),
            current: None,
            open,
        };
        let first = if reverse {
            range.pieces.pop_back()
        } else {
            range.pieces.pop_front()
        };
        if let Some(piece) = first {
            range.current = Some(range.open(&piece)?);
        }
        Some(range)
    }
}

impl<'a, S: Store + 'a, K: RowsAsColumns + for<'de> Decode<'de>, V: ColumnValue> Iterator
    for WideMerged<'a, S, K, V>
{
    type Item = Result<(K, V), TableError<S::Error>>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(match &mut self.records {
            Records::One(range) => match range.next()? {
                Ok(record) => record,
                Err(e) => Err(e),
            },
            Records::Merged(rows) => match rows.next()? {
                Ok(row) => decode_record(self.family, row),
                Err(e) => Err(e),
            },
        })
    }
}
