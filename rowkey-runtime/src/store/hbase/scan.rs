//! Paged range reads through the gateway's scanners: one task per range opens a scanner,
//! reads it page by page (`getScannerRows`), hands each page over through the shared one-slot
//! page channel, and closes the scanner at the end, on error, or when the scan is dropped.
//! A page that fails is read again from a new scanner that starts after the last row
//! delivered (the old one is closed: its position is unknown once a reply is lost); a
//! scanner the gateway dropped (idle past its lease, 60 s by default: a consumer slower than
//! that holds the task) is replaced the same way, at once and without counting as a failure.
//! The first page of a range is small (128 rows) and pages grow fourfold to the configured
//! size, so that short reads do not make the region servers read whole pages ahead.

use tokio::sync::mpsc;

use super::api::{self, Column, ScanSpec, Select};
use super::thrift::{DecodeError, In};
use super::{AsyncHbaseStore, HbaseError, QUALIFIER};
use crate::cell::Pick;
use crate::scan::pushdown::KeyFilter;
use crate::scan::KeyRange;
use crate::store::net::hbase_rules::key_filter;
use crate::store::net::pages;
use crate::store::{CellRow, Columns, Row};
use prost::Message;

/// What a scan asks for and hands out: raw rows or rows of cells.
pub(super) trait Shape: Send + Sync + 'static {
    /// A row as the scan hands it out.
    type Row: Send + 'static;
    /// The columns and filter the scanner is opened with.
    fn select(&self) -> &Select;
    /// Reads one `TResult` (`None`: nothing to hand out).
    fn read(&self, r: &mut In<'_>) -> Result<Option<Self::Row>, DecodeError>;
    /// The row's key (where a resumed scan starts).
    fn key(row: &Self::Row) -> &[u8];
}

/// Raw rows: the value cell `family:v`.
pub(super) struct Values {
    select: Select,
    family: Vec<u8>,
}

impl Values {
    pub(super) fn new(family: &str) -> Self {
        let column = Column {
            family: family.as_bytes(),
            qualifier: QUALIFIER,
        };
        Values {
            select: Select::column(column),
            family: family.as_bytes().to_vec(),
        }
    }

    /// The rows whose keys pass `filter`, checked by the region servers: HBase's own filter
    /// messages (a `FuzzyRowFilter`, or a `RowFilter` with a regular expression over the key
    /// read as ISO-8859-1), sent as `TScan.filterBytes` (HBase 2.4+ gateways); the filter
    /// language cannot say which character set a regular expression reads bytes in.
    pub(super) fn filtered(family: &str, filter: &KeyFilter, reverse: bool) -> Self {
        let mut values = Values::new(family);
        values.select.filter_bytes = Some(key_filter(filter, reverse).encode_to_vec());
        values
    }

    pub(super) fn column(&self) -> Column<'_> {
        Column {
            family: &self.family,
            qualifier: QUALIFIER,
        }
    }
}

impl Shape for Values {
    type Row = Row;

    fn select(&self) -> &Select {
        &self.select
    }

    fn read(&self, r: &mut In<'_>) -> Result<Option<Row>, DecodeError> {
        api::read_result(r, self.column())
    }

    fn key(row: &Row) -> &[u8] {
        &row.0
    }
}

/// Rows of cells: the selected columns.
pub(super) struct Cells {
    select: Select,
    columns: Columns,
}

impl Cells {
    pub(super) fn new(columns: &Columns) -> Self {
        let family = |f: &str| (f.as_bytes().to_vec(), None);
        let select = match columns.pick() {
            Pick::All => Select::default(),
            Pick::Families(names) => Select {
                columns: names.iter().map(|f| family(f)).collect(),
                ..Select::default()
            },
            Pick::Exact(cols) => Select {
                columns: cols
                    .iter()
                    .map(|c| (c.family.as_bytes().to_vec(), Some(c.qualifier.clone())))
                    .collect(),
                ..Select::default()
            },
            Pick::QualifierRange {
                family: f,
                start,
                end,
            } => Select {
                columns: vec![family(f)],
                filter: Some(column_range_filter(start, end.as_deref())),
                ..Select::default()
            },
        };
        Cells {
            select,
            columns: columns.clone(),
        }
    }
}

/// HBase's filter language for a qualifier range: `ColumnRangeFilter('start', true, 'end',
/// false)`, quotes doubled inside the quoted bytes (qualifiers are arbitrary bytes; the
/// gateway parses the filter string as bytes).
fn column_range_filter(start: &[u8], end: Option<&[u8]>) -> Vec<u8> {
    let quoted = |out: &mut Vec<u8>, bytes: &[u8]| {
        out.push(b'\'');
        for &b in bytes {
            out.push(b);
            if b == b'\'' {
                out.push(b'\'');
            }
        }
        out.push(b'\'');
    };
    let mut out = b"ColumnRangeFilter(".to_vec();
    quoted(&mut out, start);
    out.extend_from_slice(b", true, ");
    quoted(&mut out, end.unwrap_or_default());
    out.extend_from_slice(b", false)");
    out
}

impl Shape for Cells {
    type Row = CellRow;

    fn select(&self) -> &Select {
        &self.select
    }

    fn read(&self, r: &mut In<'_>) -> Result<Option<CellRow>, DecodeError> {
        let Some(mut row) = api::read_cells(r)? else {
            return Ok(None);
        };
        // What the server selected, checked once more (a filter string is HBase's to parse).
        row.cells
            .retain(|c| self.columns.contains(&c.family, &c.qualifier));
        Ok((!row.cells.is_empty()).then_some(row))
    }

    fn key(row: &CellRow) -> &[u8] {
        &row.key
    }
}

/// Row keys only: the first cell of each row, without its value (HBase's `RowCounter` asks
/// for the same with `FirstKeyOnlyFilter` and `KeyOnlyFilter`).
pub(super) struct Keys {
    select: Select,
}

impl Keys {
    pub(super) fn new() -> Self {
        Keys {
            select: Select {
                columns: Vec::new(),
                filter: Some(b"FirstKeyOnlyFilter() AND KeyOnlyFilter()".to_vec()),
                ..Select::default()
            },
        }
    }
}

impl Shape for Keys {
    type Row = bytes::Bytes;

    fn select(&self) -> &Select {
        &self.select
    }

    fn read(&self, r: &mut In<'_>) -> Result<Option<bytes::Bytes>, DecodeError> {
        Ok(api::read_cells(r)?.map(|row| row.key.into()))
    }

    fn key(row: &bytes::Bytes) -> &[u8] {
        row
    }
}

/// Starts reading `range` (reversed: from its end) on the store's runtime.
pub(super) fn spawn<S: Shape>(
    store: AsyncHbaseStore,
    range: KeyRange,
    reversed: bool,
    shape: S,
) -> pages::PagedStream<S::Row, HbaseError> {
    let handle = store.inner.handle.clone();
    pages::spawn(&handle, move |tx| {
        read_pages(store, range, reversed, shape, tx)
    })
}

/// The start and stop rows of what is left of `range` after `cursor`, the last key
/// delivered, and whether a first row equal to the cursor must be skipped.
///
/// Forward: start at the cursor's successor (`cursor + 0x00`). Reverse: HBase's reversed
/// scan starts at `startRow` (inclusive) and runs down to `stopRow` (exclusive), so the range
/// is given end first; the end of a range is exclusive, and a reversed scan cannot start
/// just below a key, so it starts at the cursor itself and skips it. The range's start is
/// inclusive but a reversed scan's stop is not (and Thrift2's `TScan` has no
/// `includeStopRow`): the row at the start itself is read with a `get` once the scanner is
/// done (see `read_pages`).
fn remaining(
    range: &KeyRange,
    cursor: Option<&[u8]>,
    reversed: bool,
) -> (Vec<u8>, Option<Vec<u8>>, bool) {
    if !reversed {
        let start = match cursor {
            Some(c) => {
                let mut s = c.to_vec();
                s.push(0);
                s
            }
            None => range.start().to_vec(),
        };
        return (start, range.end().map(<[u8]>::to_vec), false);
    }
    let stop = (!range.start().is_empty()).then(|| range.start().to_vec());
    match cursor {
        Some(c) => (c.to_vec(), stop, true),
        None => match range.end() {
            // The end is exclusive: start there and skip a row equal to it.
            Some(end) => (end.to_vec(), stop, true),
            None => (Vec::new(), stop, false),
        },
    }
}

/// Reads `range` page by page into `tx`.
async fn read_pages<S: Shape>(
    store: AsyncHbaseStore,
    range: KeyRange,
    reversed: bool,
    shape: S,
    tx: mpsc::Sender<pages::Page<S::Row, HbaseError>>,
) {
    if let Err(e) = store.ensure_schema().await {
        let _ = tx.send(Err(e)).await;
        return;
    }
    let full_page = store
        .inner
        .config
        .options
        .page_rows
        .clamp(1, i32::MAX as usize);
    // Pages start small and grow (pages.rs); each growth reopens the scanner after the last
    // row, since a scanner's caching (how far the region server reads ahead) is fixed when it
    // opens.
    let mut page_rows = pages::FIRST_PAGE_ROWS.min(full_page);
    let mut cursor: Option<Vec<u8>> = None;
    let mut scanner = Scanner::none(&store);
    let mut failures = 0u32;
    let mut lost = 0u32;
    let mut sent_any = false;
    loop {
        let (start, stop, skip) = remaining(&range, cursor.as_deref(), reversed);
        let n = i32::try_from(page_rows).unwrap_or(i32::MAX);
        let page = async {
            if scanner.id.is_none() {
                scanner.id = Some(
                    store
                        .open_scanner(&start, stop.as_deref(), n, reversed, shape.select())
                        .await?,
                );
            }
            let id = scanner.id.unwrap_or_default();
            store.scanner_rows(id, n, &shape).await
        };
        let policy = &store.inner.config.options.retry;
        let page = match tokio::time::timeout(policy.attempt_timeout, page).await {
            Ok(r) => r,
            Err(_) => Err(HbaseError::Timeout {
                store: super::error::STORE,
                op: "getScannerRows",
                after: policy.attempt_timeout,
            }),
        };
        match page {
            Ok(mut rows) => {
                failures = 0;
                lost = 0;
                let done = rows.len() < page_rows;
                let first = rows.first().map(S::key);
                if skip && cursor_matches(first, cursor.as_deref(), range.end(), reversed) {
                    rows.remove(0);
                }
                // Rows past the range's start in a reversed scan cannot come (stopRow), nor past
                // its end in a forward one; the merge relies on it, so it is checked.
                if let Some(last) = rows.last() {
                    cursor = Some(S::key(last).to_vec());
                }
                if done || page_rows < full_page {
                    scanner.close();
                    page_rows = pages::grow(page_rows, full_page);
                }
                let first = !sent_any && !rows.is_empty();
                store.inner.meter.rows("scan", rows.len() as u64);
                if !rows.is_empty() && tx.send(Ok(rows)).await.is_err() {
                    return;
                }
                sent_any |= first;
                // After the first page, the next is read once the consumer wants it.
                if first && !done && !pages::demand(&tx).await {
                    return;
                }
                if done {
                    if reversed && !range.start().is_empty() {
                        // The range's first row, which the reversed scanner's exclusive stop
                        // row left out: last in reverse order.
                        let last = match store.get_shaped(range.start(), &shape).await {
                            Ok(row) => Ok(row.into_iter().collect()),
                            Err(e) => Err(e),
                        };
                        let _ = tx.send(last).await;
                    }
                    return;
                }
            }
            Err(e) if super::error::scanner_gone(&e) && scanner.id.is_some() && lost < 3 => {
                // The gateway (or HBase under it) dropped the scanner, most often after a
                // consumer slower than its lease: a new one starts after the last row
                // delivered, at once. `lost` bounds scanners lost before delivering a page.
                scanner.id = None;
                lost += 1;
            }
            Err(e) => {
                // The scanner's position is unknown after a failed page: start a new one
                // after the last row delivered.
                scanner.close();
                failures += 1;
                if e.is_transient() && policy.retries_after(failures) {
                    tokio::time::sleep(policy.backoff(failures)).await;
                    continue;
                }
                let _ = tx.send(Err(e)).await;
                return;
            }
        }
    }
}

/// Whether the first row is the one a resumed (or end-exclusive) reversed scan must skip.
fn cursor_matches(
    first: Option<&[u8]>,
    cursor: Option<&[u8]>,
    end: Option<&[u8]>,
    reversed: bool,
) -> bool {
    let Some(first) = first else {
        return false;
    };
    let skip = if reversed { cursor.or(end) } else { cursor };
    skip == Some(first)
}

/// An open scanner, closed (in the background) when replaced or dropped.
struct Scanner {
    store: AsyncHbaseStore,
    id: Option<i32>,
}

impl Scanner {
    fn none(store: &AsyncHbaseStore) -> Self {
        Scanner {
            store: store.clone(),
            id: None,
        }
    }

    fn close(&mut self) {
        if let Some(id) = self.id.take() {
            let store = self.store.clone();
            // Best effort: a scanner not closed expires on the gateway after its lease.
            self.store.inner.handle.spawn(async move {
                let _ = tokio::time::timeout(
                    store.inner.config.options.retry.attempt_timeout,
                    store.call_once(
                        "closeScanner",
                        |o| api::close_scanner(o, id),
                        |r, k| r.skip(k),
                    ),
                )
                .await;
            });
        }
    }
}

impl Drop for Scanner {
    fn drop(&mut self) {
        self.close();
    }
}

impl AsyncHbaseStore {
    async fn open_scanner(
        &self,
        start: &[u8],
        stop: Option<&[u8]>,
        caching: i32,
        reversed: bool,
        select: &Select,
    ) -> Result<i32, HbaseError> {
        let spec = ScanSpec {
            start,
            stop,
            select,
            caching,
            reversed,
        };
        let table = self.table();
        self.call_once(
            "openScanner",
            |o| api::open_scanner(o, table, &spec),
            api::read_i32,
        )
        .await?
        .ok_or_else(|| super::error::protocol("openScanner returned no scanner id"))
    }

    /// One row through `shape` (`get` with its columns and filter), with retries.
    pub(super) async fn get_shaped<S: Shape>(
        &self,
        key: &[u8],
        shape: &S,
    ) -> Result<Option<S::Row>, HbaseError> {
        let table = self.table();
        let row = self
            .call(
                "get",
                |o| api::get(o, table, key, shape.select()),
                |r, k| {
                    r.expect(k, super::thrift::ty::STRUCT, "TResult")?;
                    shape.read(r)
                },
            )
            .await?;
        Ok(row.flatten())
    }

    async fn scanner_rows<S: Shape>(
        &self,
        id: i32,
        rows: i32,
        shape: &S,
    ) -> Result<Vec<S::Row>, HbaseError> {
        Ok(self
            .call_once(
                "getScannerRows",
                |o| api::get_scanner_rows(o, id, rows),
                |r, k| api::read_results(r, k, |r| shape.read(r)),
            )
            .await?
            .unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remaining_range_starts_after_the_cursor() {
        let r = KeyRange::new(b"a", Some(b"m"));
        assert_eq!(
            remaining(&r, None, false),
            (b"a".to_vec(), Some(b"m".to_vec()), false)
        );
        assert_eq!(
            remaining(&r, Some(b"c"), false),
            (b"c\0".to_vec(), Some(b"m".to_vec()), false)
        );
        // Reversed: from the (exclusive) end down to the start, skipping the end itself.
        assert_eq!(
            remaining(&r, None, true),
            (b"m".to_vec(), Some(b"a".to_vec()), true)
        );
        assert_eq!(
            remaining(&r, Some(b"f"), true),
            (b"f".to_vec(), Some(b"a".to_vec()), true)
        );
        let whole = KeyRange::new(b"", None);
        assert_eq!(remaining(&whole, None, true), (Vec::new(), None, false));
        let first = Some(&b"m"[..]);
        assert!(cursor_matches(first, None, Some(b"m"), true));
        assert!(!cursor_matches(first, None, Some(b"m"), false));
        assert!(cursor_matches(first, Some(b"m"), None, true));
        assert!(!cursor_matches(None, Some(b"m"), None, true));
    }

    #[test]
    fn a_qualifier_range_is_hbase_filter_language_with_quotes_doubled() {
        assert_eq!(
            column_range_filter(b"a'b", Some(b"\x00z")),
            b"ColumnRangeFilter('a''b', true, '\x00z', false)".to_vec()
        );
        assert_eq!(
            column_range_filter(b"", None),
            b"ColumnRangeFilter('', true, '', false)".to_vec()
        );
    }
}
