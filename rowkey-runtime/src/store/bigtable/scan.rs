//! Paged range reads: one task per range reads a page (`rows_limit` rows, or fewer once the
//! page passes its byte budget), drains it from the connection as it arrives, hands it over
//! whole through a one-slot channel, and asks for the next page after the last key it
//! delivered. The consumer's pace therefore bounds memory (three pages per range) without
//! ever leaving frames unread on the HTTP/2 connection, and a failed page is simply read
//! again from the same place. The same reads serve raw rows and rows of cells: a [`Shape`]
//! says which cells to ask for and what a row becomes.

use googleapis_tonic_google_bigtable_v2::google::bigtable::v2 as pb;
use pb::row_range::{EndKey, StartKey};
use tokio::sync::mpsc;

use super::chunks::{ReadRow, RowMerger};
use super::{error, AsyncBigtableStore, BigtableError, QUALIFIER};
use crate::scan::KeyRange;
use crate::store::net::pages;
use crate::store::{Cell, CellRow, Row};

/// What a read asks for and hands out.
pub(super) trait Shape: Send + Sync + 'static {
    /// A row as the scan hands it out.
    type Row: Send + 'static;
    /// The server-side filter.
    fn filter(&self) -> &pb::RowFilter;
    /// A row read back, in this shape.
    fn convert(&self, row: ReadRow) -> Self::Row;
}

/// Raw rows: the value cell of the store's family.
pub(super) struct Values {
    pub(super) filter: pb::RowFilter,
    pub(super) family: String,
}

impl Shape for Values {
    type Row = Row;

    fn filter(&self) -> &pb::RowFilter {
        &self.filter
    }

    fn convert(&self, row: ReadRow) -> Row {
        let value = row
            .cells
            .into_iter()
            .find(|c| c.family == self.family && c.qualifier == QUALIFIER)
            .map(|c| c.value)
            .unwrap_or_default();
        (row.key.into(), value.into())
    }
}

/// Row keys only: each row's first cell, its value stripped by the server.
pub(super) struct Keys {
    filter: pb::RowFilter,
}

impl Keys {
    pub(super) fn new() -> Self {
        use pb::row_filter::{Chain, Filter};
        let f = |filter| pb::RowFilter {
            filter: Some(filter),
        };
        Keys {
            filter: f(Filter::Chain(Chain {
                filters: vec![
                    f(Filter::CellsPerRowLimitFilter(1)),
                    f(Filter::StripValueTransformer(true)),
                ],
            })),
        }
    }
}

impl Shape for Keys {
    type Row = bytes::Bytes;

    fn filter(&self) -> &pb::RowFilter {
        &self.filter
    }

    fn convert(&self, row: ReadRow) -> bytes::Bytes {
        row.key.into()
    }
}

/// Rows of cells: the selected columns' latest cells.
pub(super) struct Cells {
    pub(super) filter: pb::RowFilter,
}

impl Shape for Cells {
    type Row = CellRow;

    fn filter(&self) -> &pb::RowFilter {
        &self.filter
    }

    fn convert(&self, row: ReadRow) -> CellRow {
        let mut cells: Vec<Cell> = row
            .cells
            .into_iter()
            .map(|c| Cell::new(c.family, c.qualifier, c.value))
            .collect();
        // Bigtable sends families in no fixed order; rowkey's rows list them sorted.
        cells.sort_by(|a, b| (&a.family, &a.qualifier).cmp(&(&b.family, &b.qualifier)));
        CellRow {
            key: row.key,
            cells,
        }
    }
}

/// The versions of one cell, newest first (Bigtable sends a column's cells newest first).
pub(super) struct CellVersions {
    pub(super) filter: pb::RowFilter,
}

impl Shape for CellVersions {
    type Row = Vec<crate::store::CellVersion>;

    fn filter(&self) -> &pb::RowFilter {
        &self.filter
    }

    fn convert(&self, row: ReadRow) -> Self::Row {
        let mut out: Vec<crate::store::CellVersion> = row
            .cells
            .into_iter()
            .map(|c| crate::store::CellVersion {
                // Bigtable keeps microseconds at millisecond granularity.
                timestamp_ms: c.timestamp_micros.div_euclid(1000),
                value: bytes::Bytes::from(c.value),
            })
            .collect();
        out.sort_by_key(|v| std::cmp::Reverse(v.timestamp_ms));
        out
    }
}

/// Starts reading `range` (reversed: from its end) on the store's runtime.
pub(super) fn spawn<S: Shape>(
    store: AsyncBigtableStore,
    range: KeyRange,
    reversed: bool,
    shape: S,
) -> pages::PagedStream<S::Row, BigtableError> {
    let handle = store.inner.handle.clone();
    pages::spawn(&handle, move |tx| {
        read_pages(store, range, reversed, shape, tx)
    })
}

/// The row set of what is left of `range` after `cursor`, the last key delivered.
fn remaining(range: &KeyRange, cursor: Option<&[u8]>, reversed: bool) -> pb::RowSet {
    let start = match (cursor, reversed) {
        (Some(c), false) => Some(StartKey::StartKeyOpen(c.to_vec())),
        _ if range.start().is_empty() => None,
        _ => Some(StartKey::StartKeyClosed(range.start().to_vec())),
    };
    let end = match (cursor, reversed) {
        (Some(c), true) => Some(EndKey::EndKeyOpen(c.to_vec())),
        _ => range.end().map(|e| EndKey::EndKeyOpen(e.to_vec())),
    };
    pb::RowSet {
        row_keys: vec![],
        row_ranges: vec![pb::RowRange {
            start_key: start,
            end_key: end,
        }],
    }
}

async fn read_pages<S: Shape>(
    store: AsyncBigtableStore,
    range: KeyRange,
    reversed: bool,
    shape: S,
    tx: mpsc::Sender<pages::Page<S::Row, BigtableError>>,
) {
    if let Err(e) = store.ensure_schema().await {
        let _ = tx.send(Err(e)).await;
        return;
    }
    let config = &store.inner.config;
    let full_page = config.options.page_rows.max(1);
    // Pages start small and grow (pages.rs): a short read costs the server a short read.
    let mut page_rows = pages::FIRST_PAGE_ROWS.min(full_page);
    let mut cursor: Option<Vec<u8>> = None;
    loop {
        let page = store
            .retrying("ReadRows", || {
                store.read_rows(
                    remaining(&range, cursor.as_deref(), reversed),
                    i64::try_from(page_rows).unwrap_or(i64::MAX),
                    reversed,
                    config.options.page_bytes,
                    shape.filter(),
                )
            })
            .await;
        match page {
            Ok((rows, cut_short)) => {
                let more = cut_short || rows.len() >= page_rows;
                if let Some(last) = rows.last() {
                    cursor = Some(last.key.clone());
                }
                let rows: Vec<S::Row> = rows.into_iter().map(|r| shape.convert(r)).collect();
                // Waits while the consumer still has a page in hand: the bound on memory.
                store.inner.meter.rows("scan", rows.len() as u64);
                if !rows.is_empty() && tx.send(Ok(rows)).await.is_err() {
                    return;
                }
                if !more {
                    return;
                }
                page_rows = pages::grow(page_rows, full_page);
            }
            Err(e) => {
                let _ = tx.send(Err(e)).await;
                return;
            }
        }
    }
}

impl AsyncBigtableStore {
    /// One ReadRows call through `filter`, drained: up to `rows_limit` rows, ending early
    /// (`true`) once their size passes `max_bytes`.
    pub(super) async fn read_rows(
        &self,
        rows: pb::RowSet,
        rows_limit: i64,
        reversed: bool,
        max_bytes: usize,
        filter: &pb::RowFilter,
    ) -> Result<(Vec<ReadRow>, bool), BigtableError> {
        let request = self
            .request(pb::ReadRowsRequest {
                table_name: self.inner.table_name.clone(),
                app_profile_id: self.inner.config.app_profile.clone(),
                rows: Some(rows),
                filter: Some(filter.clone()),
                rows_limit,
                reversed,
                ..Default::default()
            })
            .await?;
        let mut client = self.inner.data.clone();
        let mut stream = client
            .read_rows(request)
            .await
            .map_err(|s| error::status("ReadRows", &s))?
            .into_inner();
        let mut merger = RowMerger::new(reversed);
        let mut out = Vec::new();
        let mut bytes = 0usize;
        while let Some(response) = stream
            .message()
            .await
            .map_err(|s| error::status("ReadRows", &s))?
        {
            for chunk in response.chunks {
                let Some(row) = merger.push(chunk).map_err(error::read_rows)? else {
                    continue;
                };
                bytes += row.key.len()
                    + row
                        .cells
                        .iter()
                        .map(|c| c.qualifier.len() + c.value.len())
                        .sum::<usize>();
                out.push(row);
            }
            if bytes >= max_bytes {
                // Dropping the stream cancels the call; the next page starts after the last
                // row kept, and a half-received row is simply read again.
                return Ok((out, true));
            }
        }
        merger.finish().map_err(error::read_rows)?;
        Ok((out, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remaining_range_starts_or_ends_after_the_cursor() {
        let r = KeyRange::new(b"a", Some(b"m"));
        let fwd = remaining(&r, Some(b"c"), false);
        assert_eq!(
            fwd.row_ranges[0].start_key,
            Some(StartKey::StartKeyOpen(b"c".to_vec()))
        );
        assert_eq!(
            fwd.row_ranges[0].end_key,
            Some(EndKey::EndKeyOpen(b"m".to_vec()))
        );
        let rev = remaining(&r, Some(b"c"), true);
        assert_eq!(
            rev.row_ranges[0].start_key,
            Some(StartKey::StartKeyClosed(b"a".to_vec()))
        );
        assert_eq!(
            rev.row_ranges[0].end_key,
            Some(EndKey::EndKeyOpen(b"c".to_vec()))
        );
        let whole = remaining(&KeyRange::new(b"", None), None, false);
        assert_eq!(whole.row_ranges[0].start_key, None);
        assert_eq!(whole.row_ranges[0].end_key, None);
    }
}
