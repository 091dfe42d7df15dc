//! The network stores' client metrics, through the `metrics` facade: the application installs
//! a recorder (a Prometheus exporter, StatsD, a test's) or none, in which case each of these is
//! a no-op. Names and labels follow Prometheus's conventions (`_total` counters, `_seconds`
//! histograms, `snake_case` labels); every metric carries `store` (`hbase`, `hbase-rpc`,
//! `bigtable`) and `table`, but the Kerberos renewals (a login serves every store sharing it).
//!
//! | metric | kind | labels | what |
//! |---|---|---|---|
//! | `rowkey_client_operations_total` | counter | `op`, `outcome` (`ok`, `error`) | operations finished |
//! | `rowkey_client_operation_duration_seconds` | histogram | `op` | each operation, retries included |
//! | `rowkey_client_rows_total` | counter | `op` | rows written by batches (those confirmed), read by scans, loaded by bulk loads as each region confirms its file (a bulk load's progress) |
//! | `rowkey_client_bytes_total` | counter | `direction` (`sent`, `received`) | bytes of the protocol's messages (the HBase stores, before TLS or SASL wraps them; Bigtable: the HTTP/2 stream, TLS included) |
//! | `rowkey_client_retries_total` | counter | `cause` | attempts sent again: `region_moved`, `server_busy`, `scanner_lost`, `server_unreachable`, `unknown_outcome` (the native store), `timeout`, `transient` |
//! | `rowkey_client_region_moves_total` | counter | | regions found moved, split or merged, and followed |
//! | `rowkey_client_connections_opened_total` | counter | | connections opened to a server (Bigtable's: the TCP connections under its gRPC channels) |
//! | `rowkey_client_connections_lost_total` | counter | | connections that failed or closed under the client, or were dropped mid-call (a deadline passed) |
//! | `rowkey_client_kerberos_renewals_total` | counter | none | a keytab's Kerberos tickets obtained again (due, or refused as expired) |

use std::time::Instant;

use metrics::SharedString;

/// Operations finished, by `op` and `outcome`.
pub const OPERATIONS: &str = "rowkey_client_operations_total";
/// Each operation's time, retries included, by `op`.
pub const DURATION: &str = "rowkey_client_operation_duration_seconds";
/// Rows written by batches, read by scans and loaded by bulk loads, by `op`.
pub const ROWS: &str = "rowkey_client_rows_total";
/// Bytes of the protocol's messages sent and received, by `direction`.
pub const BYTES: &str = "rowkey_client_bytes_total";
/// Attempts sent again, by `cause`.
pub const RETRIES: &str = "rowkey_client_retries_total";
/// Regions the client found moved, split or merged, and followed.
pub const REGION_MOVES: &str = "rowkey_client_region_moves_total";
/// Connections opened.
pub const CONNECTIONS_OPENED: &str = "rowkey_client_connections_opened_total";
/// Connections lost (failed, or closed by the other side).
pub const CONNECTIONS_LOST: &str = "rowkey_client_connections_lost_total";
/// Kerberos tickets renewed.
pub const KERBEROS_RENEWALS: &str = "rowkey_client_kerberos_renewals_total";

/// The labels every metric of one store carries.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    store: &'static str,
    table: SharedString,
}

impl Meter {
    pub(crate) fn new(store: &'static str, table: &str) -> Self {
        Meter {
            store,
            // Shared, not owned: each metric clones the label, and an owned string's clone
            // would copy it on every operation.
            table: SharedString::from_shared(std::sync::Arc::<str>::from(table)),
        }
    }

    /// An operation that started at `started` finished.
    pub(crate) fn finished(&self, op: &'static str, started: Instant, ok: bool) {
        let outcome = if ok { "ok" } else { "error" };
        metrics::counter!(OPERATIONS, "store" => self.store, "table" => self.table.clone(), "op" => op, "outcome" => outcome)
            .increment(1);
        metrics::histogram!(DURATION, "store" => self.store, "table" => self.table.clone(), "op" => op)
            .record(started.elapsed().as_secs_f64());
    }

    /// `rows` rows moved by `op`.
    pub(crate) fn rows(&self, op: &'static str, rows: u64) {
        metrics::counter!(ROWS, "store" => self.store, "table" => self.table.clone(), "op" => op)
            .increment(rows);
    }

    /// `n` bytes of messages sent to the store's servers.
    pub(crate) fn sent(&self, n: usize) {
        metrics::counter!(BYTES, "store" => self.store, "table" => self.table.clone(), "direction" => "sent")
            .increment(n as u64);
    }

    /// `n` bytes of messages received from the store's servers.
    pub(crate) fn received(&self, n: usize) {
        metrics::counter!(BYTES, "store" => self.store, "table" => self.table.clone(), "direction" => "received")
            .increment(n as u64);
    }

    /// A write batch of `rows` rows that started at `started` finished with `result`: the
    /// operation, and the rows written (all of them, or those its error does not list).
    pub(crate) fn batch<E>(
        &self,
        started: Instant,
        rows: usize,
        result: &Result<(), crate::store::BatchError<E>>,
    ) {
        self.finished("write_batch", started, result.is_ok());
        let written = match result {
            Ok(()) => rows,
            Err(e) => rows.saturating_sub(e.failed.len()),
        };
        self.rows("write_batch", written as u64);
    }

    /// An attempt is sent again after a failure of kind `cause`.
    pub(crate) fn retry(&self, cause: &'static str) {
        metrics::counter!(RETRIES, "store" => self.store, "table" => self.table.clone(), "cause" => cause)
            .increment(1);
    }

    /// A region was found moved, split or merged.
    #[cfg_attr(not(feature = "hbase-rpc"), allow(dead_code))]
    pub(crate) fn region_moved(&self) {
        metrics::counter!(REGION_MOVES, "store" => self.store, "table" => self.table.clone())
            .increment(1);
    }

    /// A connection was opened.
    #[cfg_attr(not(any(feature = "hbase", feature = "hbase-rpc")), allow(dead_code))]
    pub(crate) fn connection_opened(&self) {
        metrics::counter!(CONNECTIONS_OPENED, "store" => self.store, "table" => self.table.clone())
            .increment(1);
    }

    /// A connection was lost.
    #[cfg_attr(not(any(feature = "hbase", feature = "hbase-rpc")), allow(dead_code))]
    pub(crate) fn connection_lost(&self) {
        metrics::counter!(CONNECTIONS_LOST, "store" => self.store, "table" => self.table.clone())
            .increment(1);
    }
}

/// A keytab's Kerberos tickets were obtained again (a login serves every store that shares
/// it: this counter has no labels).
#[cfg_attr(not(feature = "kerberos"), allow(dead_code))]
pub(crate) fn kerberos_renewed() {
    metrics::counter!(KERBEROS_RENEWALS).increment(1);
}
