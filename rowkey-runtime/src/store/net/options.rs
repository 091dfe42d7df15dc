//! [`NetOptions`]: what every network store is told beyond where to connect, declared once.

use std::time::Duration;

use super::RetryPolicy;

/// Retries, deadlines, page and batch sizes and the first-use checks of a network store: the
/// same fields for every network backend, in each config's `options` (`BigtableConfig`,
/// `HbaseConfig`). Each backend's `new` fills in the defaults that suit its server; a field a
/// backend cannot honour says so below.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct NetOptions {
    /// Retries and per-attempt deadlines.
    pub retry: RetryPolicy,
    /// How long establishing a connection may take.
    pub connect_timeout: Duration,
    /// Rows per scan page; a scanned range holds at most three pages in memory.
    pub page_rows: usize,
    /// Bytes per scan page: a page ends early once its rows pass this size (Bigtable; the
    /// Thrift2 gateway has no such limit and pages by rows only).
    pub page_bytes: usize,
    /// Rows per write request of a batch.
    pub batch_rows: usize,
    /// Bytes per write request of a batch: keys, values, column coordinates and each cell's
    /// framing (counted as 24 bytes, a row's as 16); keep it under the server's request limit
    /// (a framed Thrift2 gateway's frame, 2 MiB unless configured; a gRPC server's message, 4
    /// MiB unless configured).
    pub batch_bytes: usize,
    /// Write requests in flight at once within one batch.
    pub batch_concurrency: usize,
    /// Check on first use that the table and its column families exist, so a typo is an error
    /// rather than an empty table. Turn off only where the credentials may not read table
    /// metadata; a missing family then reads as empty.
    pub check_schema: bool,
}

impl NetOptions {
    /// The defaults shared by the backends before each adjusts its own: 3 attempts of 10 s, a
    /// 5 s connect deadline, pages and batches of 5,000 rows, 4 MiB pages, 1 MiB batches, four
    /// batch requests in flight, the schema checked.
    pub fn new() -> Self {
        NetOptions {
            retry: RetryPolicy::default(),
            connect_timeout: Duration::from_secs(5),
            page_rows: 5_000,
            page_bytes: 4 << 20,
            batch_rows: 5_000,
            batch_bytes: 1 << 20,
            batch_concurrency: 4,
            check_schema: true,
        }
    }

    /// Another retry policy.
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Pages of at most `rows` rows.
    pub fn page_rows(mut self, rows: usize) -> Self {
        self.page_rows = rows;
        self
    }

    /// Batch requests of at most `rows` rows and `bytes` bytes, `concurrency` of them in
    /// flight.
    pub fn batches(mut self, rows: usize, bytes: usize, concurrency: usize) -> Self {
        self.batch_rows = rows;
        self.batch_bytes = bytes;
        self.batch_concurrency = concurrency;
        self
    }

    /// Whether to check the table and its families on first use
    /// ([`NetOptions::check_schema`]).
    pub fn check_schema(mut self, check: bool) -> Self {
        self.check_schema = check;
        self
    }
}

impl Default for NetOptions {
    fn default() -> Self {
        NetOptions::new()
    }
}
