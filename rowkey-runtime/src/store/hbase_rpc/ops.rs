//! The messages of the data calls, built from rowkey's rows, and the rows read back from
//! HBase's results: what a read selects and hands out (`Shape`: raw rows, rows of cells, row
//! keys), and the mutations of puts and deletes.

use std::borrow::Cow;

use bytes::{Bytes, BytesMut};
use prost::Message;

use super::pb::{self, mutation_proto as mp};
use super::wire::{self, CellReader};
use crate::cell::Pick;
use crate::scan::pushdown::KeyFilter;
use crate::store::net::hbase_rules::{filter, key_filter};
use crate::store::{Cell as RowCell, CellRow, Columns, Row};

/// The qualifier of a raw row's value cell (as in the Thrift2 and Bigtable stores).
pub(crate) const QUALIFIER: &[u8] = b"v";

/// What a read asks for and hands out.
pub(crate) trait Shape: Send + Sync + 'static {
    /// A row as the read hands it out.
    type Row: Send + 'static;
    /// The columns to read (none: all).
    fn columns(&self) -> Vec<pb::Column>;
    /// The filter, if any.
    fn filter(&self) -> Option<pb::Filter>;
    /// A row from its cells (`None`: nothing to hand out).
    fn row(&self, cells: Vec<wire::Cell>) -> Option<Self::Row>;
    /// The row's key (where a resumed scan starts).
    fn key(row: &Self::Row) -> &[u8];
    /// The cells' time range (none: every cell).
    fn time_range(&self) -> Option<pb::TimeRange> {
        None
    }
}

/// Raw rows: the value cell `family:v`, of the rows a key filter passes when there is one.
pub(crate) struct Values {
    family: Bytes,
    filter: Option<pb::Filter>,
}

impl Values {
    pub(crate) fn new(family: &str) -> Self {
        Values {
            family: Bytes::copy_from_slice(family.as_bytes()),
            filter: None,
        }
    }

    /// The rows whose keys pass `filter`, checked by the region servers ([`key_filter`]).
    pub(crate) fn filtered(family: &str, filter: &KeyFilter, reverse: bool) -> Self {
        Values {
            filter: Some(key_filter(filter, reverse)),
            ..Values::new(family)
        }
    }
}

impl Shape for Values {
    type Row = Row;

    fn columns(&self) -> Vec<pb::Column> {
        vec![pb::Column {
            family: self.family.clone(),
            qualifier: vec![Bytes::from_static(QUALIFIER)],
        }]
    }

    fn filter(&self) -> Option<pb::Filter> {
        self.filter.clone()
    }

    fn row(&self, cells: Vec<wire::Cell>) -> Option<Row> {
        let cell = cells
            .into_iter()
            .find(|c| c.family == self.family && &c.qualifier[..] == QUALIFIER)?;
        Some((cell.row, cell.value))
    }

    fn key(row: &Row) -> &[u8] {
        &row.0
    }
}

/// Rows of cells: the selected columns.
pub(crate) struct Cells {
    columns: Columns,
    select: Vec<pb::Column>,
    filter: Option<pb::Filter>,
}

impl Cells {
    pub(crate) fn new(columns: &Columns) -> Self {
        let family = |f: &str| pb::Column {
            family: Bytes::copy_from_slice(f.as_bytes()),
            qualifier: Vec::new(),
        };
        let (select, filter) = match columns.pick() {
            Pick::All => (Vec::new(), None),
            Pick::Families(names) => (names.iter().map(|f| family(f)).collect(), None),
            Pick::Exact(cols) => {
                // One `Column` per family, its qualifiers listed.
                let mut out: Vec<pb::Column> = Vec::new();
                for c in cols {
                    let q = Bytes::copy_from_slice(&c.qualifier);
                    match out.iter_mut().find(|o| o.family == c.family.as_bytes()) {
                        Some(o) => o.qualifier.push(q),
                        None => out.push(pb::Column {
                            family: Bytes::copy_from_slice(c.family.as_bytes()),
                            qualifier: vec![q],
                        }),
                    }
                }
                (out, None)
            }
            Pick::QualifierRange {
                family: f,
                start,
                end,
            } => (
                vec![family(f)],
                Some(filter(
                    "ColumnRangeFilter",
                    pb::ColumnRangeFilter {
                        min_column: Some(Bytes::copy_from_slice(start)),
                        min_column_inclusive: Some(true),
                        max_column: end.as_deref().map(Bytes::copy_from_slice),
                        max_column_inclusive: Some(false),
                    },
                )),
            ),
        };
        Cells {
            columns: columns.clone(),
            select,
            filter,
        }
    }
}

impl Shape for Cells {
    type Row = CellRow;

    fn columns(&self) -> Vec<pb::Column> {
        self.select.clone()
    }

    fn filter(&self) -> Option<pb::Filter> {
        self.filter.clone()
    }

    fn row(&self, cells: Vec<wire::Cell>) -> Option<CellRow> {
        let key = cells.first()?.row.to_vec();
        let cells: Vec<RowCell> = cells
            .into_iter()
            .filter_map(|c| {
                let family = std::str::from_utf8(&c.family).ok()?;
                // What the server selected, checked once more.
                self.columns
                    .contains(family, &c.qualifier)
                    .then(|| RowCell {
                        family: Cow::Owned(family.to_string()),
                        qualifier: c.qualifier.to_vec(),
                        value: c.value,
                    })
            })
            .collect();
        (!cells.is_empty()).then_some(CellRow { key, cells })
    }

    fn key(row: &CellRow) -> &[u8] {
        &row.key
    }
}

/// Row keys only, of the rows with a cell written at or after a time (milliseconds): the first
/// such cell of each row, without its value.
pub(crate) struct KeysSince(pub(crate) u64);

impl Shape for KeysSince {
    type Row = Bytes;

    fn columns(&self) -> Vec<pb::Column> {
        Keys.columns()
    }

    fn filter(&self) -> Option<pb::Filter> {
        Keys.filter()
    }

    fn row(&self, cells: Vec<wire::Cell>) -> Option<Bytes> {
        Keys.row(cells)
    }

    fn key(row: &Bytes) -> &[u8] {
        row
    }

    fn time_range(&self) -> Option<pb::TimeRange> {
        Some(pb::TimeRange {
            from: Some(self.0),
            to: None,
        })
    }
}

/// Row keys only: the first cell of each row, without its value (HBase's `RowCounter`).
pub(crate) struct Keys;

impl Shape for Keys {
    type Row = Bytes;

    fn columns(&self) -> Vec<pb::Column> {
        Vec::new()
    }

    fn filter(&self) -> Option<pb::Filter> {
        let list = pb::FilterList {
            operator: pb::filter_list::Operator::MustPassAll as i32,
            filters: vec![
                filter("FirstKeyOnlyFilter", pb::FirstKeyOnlyFilter {}),
                filter("KeyOnlyFilter", pb::KeyOnlyFilter { len_as_val: false }),
            ],
        };
        Some(filter("FilterList", list))
    }

    fn row(&self, cells: Vec<wire::Cell>) -> Option<Bytes> {
        cells.into_iter().next().map(|c| c.row)
    }

    fn key(row: &Bytes) -> &[u8] {
        row
    }
}

/// The `Get` of row `key` through `shape`.
pub(crate) fn get(key: &[u8], shape: &impl Shape) -> pb::Get {
    pb::Get {
        row: Bytes::copy_from_slice(key),
        column: shape.columns(),
        filter: shape.filter(),
        ..Default::default()
    }
}

/// The `Get` of the versions of one cell that `versions` selects (HBase's time range starts
/// at 0: an earlier bound is 0).
pub(crate) fn versions(
    key: &[u8],
    family: &[u8],
    qualifier: &[u8],
    versions: &crate::cell::Versions,
) -> pb::Get {
    let at = |ms: i64| u64::try_from(ms).unwrap_or(0);
    pb::Get {
        row: Bytes::copy_from_slice(key),
        column: vec![pb::Column {
            family: Bytes::copy_from_slice(family),
            qualifier: vec![Bytes::copy_from_slice(qualifier)],
        }],
        time_range: Some(pb::TimeRange {
            from: Some(at(versions.from_ms)),
            to: Some(at(versions.until_ms)),
        }),
        max_versions: Some(versions.max.max(1)),
        ..Default::default()
    }
}

/// The cells of a `Result`: from the reply's cell block, or inline.
pub(crate) fn result_cells(
    result: &pb::Result,
    block: &mut CellReader,
) -> Result<Vec<wire::Cell>, String> {
    match result.associated_cell_count.unwrap_or(0) {
        n if n > 0 => block.take(n as usize),
        _ => Ok(wire::inline_cells(result)),
    }
}

fn qualifier_value(
    qualifier: &[u8],
    value: Option<&[u8]>,
    ts: i64,
) -> mp::column_value::QualifierValue {
    mp::column_value::QualifierValue {
        qualifier: Some(Bytes::copy_from_slice(qualifier)),
        value: value.map(Bytes::copy_from_slice),
        timestamp: Some(ts as u64),
        delete_type: None,
        tags: None,
    }
}

/// Adds `qv` to `family`'s entry of `columns`.
fn push_column(
    columns: &mut Vec<mp::ColumnValue>,
    family: &[u8],
    qv: mp::column_value::QualifierValue,
) {
    match columns.iter_mut().find(|c| c.family == family) {
        Some(c) => c.qualifier_value.push(qv),
        None => columns.push(mp::ColumnValue {
            family: Bytes::copy_from_slice(family),
            qualifier_value: vec![qv],
        }),
    }
}

/// A put of cells `(family, qualifier, value)` to row `key` at timestamp `ts`.
pub(crate) fn put<'a>(
    key: &[u8],
    cells: impl IntoIterator<Item = (&'a [u8], &'a [u8], &'a [u8])>,
    ts: i64,
) -> pb::MutationProto {
    let mut columns = Vec::new();
    for (family, qualifier, value) in cells {
        push_column(
            &mut columns,
            family,
            qualifier_value(qualifier, Some(value), ts),
        );
    }
    pb::MutationProto {
        row: Some(Bytes::copy_from_slice(key)),
        mutate_type: Some(mp::MutationType::Put as i32),
        column_value: columns,
        timestamp: Some(ts as u64),
        ..Default::default()
    }
}

/// [`put`] with its cells appended to `block`, a cell block (the `KeyValueCodec` the
/// connection names): the message carries only the row, type, timestamp and cell count, and
/// the region server reads the cells in place instead of rebuilding them from messages, as it
/// does for HBase's Java client. A row whose cells do not fit the format (a family over 255
/// bytes) goes as a plain [`put`], the block left as it was.
pub(crate) fn put_in_block<'a, I>(
    key: &[u8],
    cells: I,
    ts: i64,
    block: &mut BytesMut,
) -> pb::MutationProto
where
    I: IntoIterator<Item = (&'a [u8], &'a [u8], &'a [u8])> + Clone,
{
    let start = block.len();
    let mut count = 0i32;
    for (family, qualifier, value) in cells.clone() {
        if !wire::put_cell(block, key, family, qualifier, ts, value) {
            block.truncate(start);
            return put(key, cells, ts);
        }
        count += 1;
    }
    pb::MutationProto {
        row: Some(Bytes::copy_from_slice(key)),
        mutate_type: Some(mp::MutationType::Put as i32),
        timestamp: Some(ts as u64),
        associated_cell_count: Some(count),
        ..Default::default()
    }
}

/// A delete of the whole row `key` (every version at or before `ts`).
pub(crate) fn delete_row(key: &[u8], ts: i64) -> pb::MutationProto {
    pb::MutationProto {
        row: Some(Bytes::copy_from_slice(key)),
        mutate_type: Some(mp::MutationType::Delete as i32),
        timestamp: Some(ts as u64),
        ..Default::default()
    }
}

/// A delete of columns `(family, qualifier)` of row `key` (every version at or before `ts`).
pub(crate) fn delete_columns<'a>(
    key: &[u8],
    columns: impl IntoIterator<Item = (&'a [u8], &'a [u8])>,
    ts: i64,
) -> pb::MutationProto {
    let mut out = Vec::new();
    for (family, qualifier) in columns {
        let mut qv = qualifier_value(qualifier, None, ts);
        qv.delete_type = Some(mp::DeleteType::DeleteMultipleVersions as i32);
        push_column(&mut out, family, qv);
    }
    pb::MutationProto {
        row: Some(Bytes::copy_from_slice(key)),
        mutate_type: Some(mp::MutationType::Delete as i32),
        column_value: out,
        timestamp: Some(ts as u64),
        ..Default::default()
    }
}

/// An increment of `family:qualifier` of row `key` by `delta`.
pub(crate) fn increment(
    key: &[u8],
    family: &[u8],
    qualifier: &[u8],
    delta: i64,
) -> pb::MutationProto {
    let mut columns = Vec::new();
    let qv = mp::column_value::QualifierValue {
        qualifier: Some(Bytes::copy_from_slice(qualifier)),
        value: Some(Bytes::copy_from_slice(&delta.to_be_bytes())),
        ..Default::default()
    };
    push_column(&mut columns, family, qv);
    pb::MutationProto {
        row: Some(Bytes::copy_from_slice(key)),
        mutate_type: Some(mp::MutationType::Increment as i32),
        column_value: columns,
        ..Default::default()
    }
}

/// The condition "cell `family:qualifier` of row `key` holds `expected`" (`None`: absent or
/// empty, HBase's rule for an empty comparator value).
pub(crate) fn condition(
    key: &[u8],
    family: &[u8],
    qualifier: &[u8],
    expected: Option<&[u8]>,
) -> pb::Condition {
    let comparator = pb::BinaryComparator {
        comparable: pb::ByteArrayComparable {
            value: expected.map(Bytes::copy_from_slice),
        },
    };
    pb::Condition {
        row: Bytes::copy_from_slice(key),
        family: Some(Bytes::copy_from_slice(family)),
        qualifier: Some(Bytes::copy_from_slice(qualifier)),
        compare_type: Some(pb::CompareType::Equal as i32),
        comparator: Some(pb::Comparator {
            name: "org.apache.hadoop.hbase.filter.BinaryComparator".into(),
            serialized_comparator: Some(Bytes::from(comparator.encode_to_vec())),
        }),
        ..Default::default()
    }
}
