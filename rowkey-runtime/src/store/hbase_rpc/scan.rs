//! Range reads over region scanners: one task per range opens a scanner on the region where
//! the range starts (its end, reversed), reads it page by page (`Scan` calls with the scanner
//! id and `next_call_seq`), hands each page over through the shared one-slot page channel,
//! moves to the next region when one is exhausted, and closes its scanner at the end, on error
//! and when the scan is dropped.
//!
//! **Never a row twice, never a row lost.** The task keeps the last row it delivered. When a
//! call fails (the region moved or split, the server died, the scanner expired or fell out of
//! step), the scanner is dropped and a new one opens just after that row, on whatever region
//! holds it now. A scanner left idle past half its lease (the `ttl` its region server
//! gives, 60 s by default; a consumer slower than that holds the task at the channel) is
//! replaced the same way before it is used again, and one that expired anyway
//! (`UnknownScannerException`) is reopened after the last row.
//!
//! `next_call_seq` starts at 0 on the first call after the one that opened the scanner (an
//! off-by-one there costs a failed call and a reopened scanner per page).
//!
//! Pages start at 128 rows and grow fourfold up to `page_rows` (the scanner's `caching`), each
//! within `page_bytes` (`max_result_size`); whole rows only (no partial results).

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use prost::Message;
use tokio::sync::mpsc;

use super::cluster::{scan_results, Locate, RegionLoc};
use super::conn::Service;
use super::error::{self, Failure};
use super::ops::Shape;
use super::{pb, AsyncHbaseRpcStore, Budget};
use crate::scan::KeyRange;
use crate::store::net::pages;
use crate::store::NetError;

/// A scanner's lease when the server does not say (HBase's default,
/// `hbase.client.scanner.timeout.period`).
const DEFAULT_LEASE: Duration = Duration::from_secs(60);

/// Starts reading `range` (reversed: from its end) on the store's runtime.
pub(super) fn spawn<S: Shape>(
    store: AsyncHbaseRpcStore,
    range: KeyRange,
    reversed: bool,
    shape: S,
) -> pages::PagedStream<S::Row, NetError> {
    let handle = store.inner.handle.clone();
    pages::spawn(&handle, move |tx| {
        read_pages(store, range, reversed, shape, tx)
    })
}

/// Where the next scanner starts: a row, and whether that row itself is included (`None`
/// row in a reversed scan: the end of the table).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Position {
    row: Option<Bytes>,
    inclusive: bool,
}

/// An open scanner on one region.
struct Open {
    loc: Arc<RegionLoc>,
    id: u64,
    /// The `next_call_seq` of the next call: 0 after the call that opened the scanner, one
    /// more after each call answered.
    seq: u64,
    last_call: Instant,
    /// How long the server keeps the scanner idle (its reply's `ttl`).
    lease: Duration,
}

impl Open {
    /// Whether the scanner has sat idle past half its lease: it is replaced rather than used,
    /// since it may expire on its way (a consumer slower than the lease holds the task).
    fn stale(&self) -> bool {
        self.last_call.elapsed() > self.lease / 2
    }
}

/// The next position after region `loc` is exhausted, or `None` when the range ends there.
fn after_region(range: &KeyRange, loc: &RegionLoc, reversed: bool) -> Option<Position> {
    if !reversed {
        if loc.end.is_empty() || range.end().is_some_and(|end| &loc.end[..] >= end) {
            return None;
        }
        Some(Position {
            row: Some(loc.end.clone()),
            inclusive: true,
        })
    } else {
        if loc.start.is_empty() || &loc.start[..] <= range.start() {
            return None;
        }
        Some(Position {
            row: Some(loc.start.clone()),
            inclusive: false,
        })
    }
}

/// The `Scan` that reads what is left of `range` from `pos`.
fn scan_spec(
    range: &KeyRange,
    pos: &Position,
    reversed: bool,
    shape: &impl Shape,
    page_rows: u32,
    page_bytes: u64,
) -> pb::Scan {
    let (stop, include_stop) = if reversed {
        (Bytes::copy_from_slice(range.start()), true)
    } else {
        (
            range.end().map(Bytes::copy_from_slice).unwrap_or_default(),
            false,
        )
    };
    pb::Scan {
        column: shape.columns(),
        filter: shape.filter(),
        start_row: Some(pos.row.clone().unwrap_or_default()),
        include_start_row: Some(pos.inclusive),
        stop_row: Some(stop),
        include_stop_row: Some(include_stop),
        reversed: Some(reversed),
        caching: Some(page_rows),
        max_result_size: Some(page_bytes),
        allow_partial_results: Some(false),
        time_range: shape.time_range(),
        ..Default::default()
    }
}

/// Reads `range` page by page into `tx`.
async fn read_pages<S: Shape>(
    store: AsyncHbaseRpcStore,
    range: KeyRange,
    reversed: bool,
    shape: S,
    tx: mpsc::Sender<pages::Page<S::Row, NetError>>,
) {
    if let Err(e) = store.ensure_schema().await {
        let _ = tx.send(Err(e)).await;
        return;
    }
    let options = &store.inner.config.options;
    let full_page = options.page_rows.clamp(1, u32::MAX as usize) as u32;
    let page_bytes = options.page_bytes.max(1) as u64;
    let mut page_rows = (pages::FIRST_PAGE_ROWS as u32).min(full_page);
    let mut pos = if reversed {
        Position {
            row: range.end().map(Bytes::copy_from_slice),
            inclusive: false,
        }
    } else {
        Position {
            row: Some(Bytes::copy_from_slice(range.start())),
            inclusive: true,
        }
    };
    if range.end().is_some_and(|end| end <= range.start()) {
        return;
    }
    let mut open: Option<Open> = None;
    let mut sent_any = false;
    let mut budget = Budget::metered(&options.retry, &store.inner.meter);
    loop {
        if open.as_ref().is_some_and(Open::stale) {
            close(&store, open.take());
        }
        let call = async {
            match &mut open {
                Some(o) => {
                    let request = pb::ScanRequest {
                        scanner_id: Some(o.id),
                        number_of_rows: Some(page_rows),
                        next_call_seq: Some(o.seq),
                        close_scanner: Some(false),
                        ..Default::default()
                    };
                    let loc = o.loc.clone();
                    page(&store, &loc, &request).await.map(|p| (loc, p))
                }
                None => {
                    let how = if reversed { Locate::Before } else { Locate::At };
                    let row = pos.row.clone().unwrap_or_default();
                    let loc = store
                        .inner
                        .cluster
                        .locate(&store.inner.regions, store.table(), &row, how)
                        .await?;
                    let request = pb::ScanRequest {
                        region: Some(loc.specifier()),
                        scan: Some(scan_spec(
                            &range, &pos, reversed, &shape, full_page, page_bytes,
                        )),
                        number_of_rows: Some(page_rows),
                        close_scanner: Some(false),
                        client_handles_partials: Some(false),
                        // A filtered scan may read long between rows it sends: the server
                        // then answers with an empty page before the scanner's timeout.
                        client_handles_heartbeats: Some(shape.filter().is_some()),
                        ..Default::default()
                    };
                    match page(&store, &loc, &request).await {
                        Ok(p) => Ok((loc, p)),
                        Err(f) => {
                            store.learn(&f, &loc);
                            Err(f)
                        }
                    }
                }
            }
        };
        // One deadline for the page: a lookup, a new connection and the call share it.
        match super::cluster::within(options.retry.attempt_timeout, call).await {
            Ok((loc, p)) => {
                let rows: Vec<S::Row> = p.rows.into_iter().filter_map(|c| shape.row(c)).collect();
                if let Some(last) = rows.last() {
                    pos = Position {
                        row: Some(Bytes::copy_from_slice(S::key(last))),
                        inclusive: false,
                    };
                }
                match &mut open {
                    Some(o) => {
                        o.seq += 1;
                        o.last_call = Instant::now();
                    }
                    None => {
                        open = p.scanner_id.map(|id| Open {
                            loc: loc.clone(),
                            id,
                            seq: 0,
                            last_call: Instant::now(),
                            lease: p.lease.unwrap_or(DEFAULT_LEASE),
                        })
                    }
                }
                page_rows = pages::grow(page_rows as usize, full_page as usize) as u32;
                store.inner.meter.rows("scan", rows.len() as u64);
                let first = !sent_any && !rows.is_empty();
                if !rows.is_empty() && tx.send(Ok(rows)).await.is_err() {
                    close(&store, open.take());
                    return;
                }
                sent_any |= first;
                // After the first page, the next is read once the consumer wants it.
                if first && p.more_in_region && !pages::demand(&tx).await {
                    close(&store, open.take());
                    return;
                }
                if !p.more_in_region {
                    // The server closed the scanner with the region (or the range) done.
                    open = None;
                    match after_region(&range, &loc, reversed) {
                        Some(next) => pos = next,
                        None => return,
                    }
                }
                // The next call's retries have their own budget, counted from now: the time
                // the consumer held the page (any length) is not the server's.
                budget = Budget::metered(&options.retry, &store.inner.meter);
            }
            Err(f) => {
                if let Some(o) = open.take() {
                    store.learn(&f, &o.loc);
                    close(&store, Some(o));
                }
                if !budget.again(&f).await {
                    let _ = tx.send(Err(f.into_error())).await;
                    return;
                }
            }
        }
    }
}

/// One scan reply, read.
struct Page {
    scanner_id: Option<u64>,
    rows: Vec<Vec<super::wire::Cell>>,
    more_in_region: bool,
    /// The scanner's lease, as the server says it (`ttl`).
    lease: Option<Duration>,
}

async fn page(
    store: &AsyncHbaseRpcStore,
    loc: &RegionLoc,
    request: &pb::ScanRequest,
) -> Result<Page, Failure> {
    let reply = store
        .inner
        .cluster
        .call(&loc.server, Service::Client, "Scan", store.table(), request)
        .await?;
    let resp =
        pb::ScanResponse::decode(reply.body.clone()).map_err(|e| error::decode("Scan", e))?;
    let rows = scan_results(&resp, reply.cells).map_err(|m| Failure::Other(error::protocol(m)))?;
    let more_in_region =
        resp.more_results.unwrap_or(true) && resp.more_results_in_region.unwrap_or(true);
    Ok(Page {
        scanner_id: resp.scanner_id,
        rows,
        more_in_region,
        lease: resp
            .ttl
            .filter(|&ms| ms > 0)
            .map(|ms| Duration::from_millis(ms.into())),
    })
}

/// Closes a scanner in the background (best effort: one not closed expires with its lease).
fn close(store: &AsyncHbaseRpcStore, open: Option<Open>) {
    let Some(o) = open else {
        return;
    };
    let store2 = store.clone();
    store.inner.handle.spawn(async move {
        let request = pb::ScanRequest {
            scanner_id: Some(o.id),
            number_of_rows: Some(0),
            close_scanner: Some(true),
            ..Default::default()
        };
        let _ = store2
            .inner
            .cluster
            .call(
                &o.loc.server,
                Service::Client,
                "Scan",
                store2.table(),
                &request,
            )
            .await;
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(start: &[u8], end: &[u8]) -> RegionLoc {
        RegionLoc {
            name: Bytes::new(),
            start: Bytes::copy_from_slice(start),
            end: Bytes::copy_from_slice(end),
            server: String::new(),
            id: 1,
            hinted: false,
        }
    }

    #[test]
    fn a_scan_moves_region_by_region_until_its_range_ends() {
        let range = KeyRange::new(b"c", Some(b"p"));
        // Forward: the next region starts where this one ends, included.
        assert_eq!(
            after_region(&range, &loc(b"a", b"g"), false),
            Some(Position {
                row: Some(Bytes::from_static(b"g")),
                inclusive: true
            })
        );
        assert_eq!(after_region(&range, &loc(b"g", b"p"), false), None);
        assert_eq!(after_region(&range, &loc(b"g", b""), false), None);
        // Reversed: the next region holds the keys below this one's start.
        assert_eq!(
            after_region(&range, &loc(b"g", b"p"), true),
            Some(Position {
                row: Some(Bytes::from_static(b"g")),
                inclusive: false
            })
        );
        assert_eq!(after_region(&range, &loc(b"a", b"g"), true), None);
        assert_eq!(after_region(&range, &loc(b"c", b"g"), true), None);
        let whole = KeyRange::new(b"", None);
        assert_eq!(after_region(&whole, &loc(b"", b"g"), true), None);
        assert!(after_region(&whole, &loc(b"g", b""), true).is_some());
    }
}
