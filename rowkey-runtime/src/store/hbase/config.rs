//! [`HbaseConfig`]: where and how an [`AsyncHbaseStore`](super::AsyncHbaseStore) connects
//! (the Thrift2 gateway), and its limits.

use std::time::Duration;

use crate::store::RetryPolicy;

/// Where and how to connect; [`HbaseConfig::new`] gives the defaults.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct HbaseConfig {
    /// The Thrift2 gateway, `host:port`.
    pub address: String,
    /// The table, `name` or `namespace:name`.
    pub table: String,
    /// The column family that holds the values.
    pub family: String,
    /// Whether the gateway uses framed transport (`-f`, and always with `-hsha`,
    /// `-nonblocking` or `-threadedselector`); `hbase thrift2 start` alone is unframed.
    pub framed: bool,
    /// Retries and per-call deadlines.
    pub retry: RetryPolicy,
    /// How long establishing a connection may take.
    pub connect_timeout: Duration,
    /// Connections to the gateway at most (each carries one call at a time).
    pub max_connections: usize,
    /// Rows per `getScannerRows` page (and the scanner's `caching`); a range holds at most
    /// three pages in memory.
    pub page_rows: usize,
    /// Rows per `putMultiple` call.
    pub batch_rows: usize,
    /// Bytes of keys and values per `putMultiple` call; keep it under a framed gateway's
    /// frame limit (2 MiB unless configured).
    pub batch_bytes: usize,
    /// `putMultiple` calls in flight at once within one batch.
    pub batch_concurrency: usize,
    /// Check on first use that the table and the column family exist.
    pub check_schema: bool,
    /// Further column families, for rows of cells ([`CellTable`](crate::store::CellTable)):
    /// `create_table` creates them beside `family`, and the schema check requires them. A
    /// value type's are `V::SCHEMA.families()`.
    pub families: Vec<String>,
}

impl HbaseConfig {
    /// Table `table` behind the Thrift2 gateway at `address`, values in column family
    /// `family`.
    pub fn new(address: &str, table: &str, family: &str) -> Self {
        HbaseConfig {
            address: address.into(),
            table: table.into(),
            family: family.into(),
            framed: false,
            retry: RetryPolicy::default(),
            connect_timeout: Duration::from_secs(5),
            max_connections: 20,
            page_rows: 5_000,
            batch_rows: 5_000,
            batch_bytes: 1 << 20,
            batch_concurrency: 4,
            check_schema: true,
            families: Vec::new(),
        }
    }

    /// Further column families ([`HbaseConfig::families`]).
    pub fn families<F: Into<String>>(mut self, families: impl IntoIterator<Item = F>) -> Self {
        self.families = families.into_iter().map(Into::into).collect();
        self
    }

    /// Every family the table needs: `family`, then `families` (without repeats).
    pub(super) fn all_families(&self) -> Vec<String> {
        let mut out = vec![self.family.clone()];
        for f in &self.families {
            if !out.contains(f) {
                out.push(f.clone());
            }
        }
        out
    }

    /// Framed transport (see [`HbaseConfig::framed`]).
    pub fn framed(mut self, framed: bool) -> Self {
        self.framed = framed;
        self
    }

    /// Another retry policy.
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }
}
