//! HBase over its own RPC protocol: [`AsyncHbaseRpcStore`], the async store, and
//! [`HbaseRpcStore`], its blocking face ([`Blocking`]). No gateway: the store talks to the
//! region servers and the master as HBase's Java client does.
//!
//! **The protocol** (`wire.rs`, `conn.rs`): one TCP connection per server and service, calls
//! multiplexed on it by call id, protobuf messages generated from HBase's own `.proto` files
//! (`pb.rs`, by `tools/hbase-proto`), results read from cell blocks (`KeyValueCodec`) as
//! slices of the reply. Simple authentication: the connection header names
//! [`HbaseRpcConfig::user`].
//!
//! **Finding regions** (`cluster.rs`): the connection registry HBase 2.5+ serves over RPC
//! (`ClientMetaService` on the [`HbaseRpcConfig::bootstrap`] servers) gives the active master
//! and `hbase:meta`'s location, so no ZooKeeper client is needed; a cluster older than 2.5 has
//! no such registry (put a Thrift2 gateway in front of it and use `HbaseStore`). Each row's
//! region is looked up in `hbase:meta` and cached by start key; a region that moved, split or
//! closed is forgotten precisely (`error.rs` sorts HBase's exceptions) and looked up again.
//!
//! **Rows** are kept as the Thrift2 store keeps them (one cell, family `family`, qualifier
//! `v`; cells of [`CellRow`]s natively), with the same explicit timestamps, so the two stores
//! read each other's tables.
//!
//! **Retries.** A call that meets a region in motion (not serving, moved, opening, busy) is
//! sent again to where the region is now, after a pause that grows from 100 ms to 2 s, until
//! the policy's budget (`attempt_timeout * max_attempts`) is spent; a dead connection or a
//! deadline counts as one of the policy's attempts. An attempt has one deadline for all its
//! steps (the lookup in `hbase:meta`, a new connection, the call: `cluster::within`), so slow
//! steps never add up past `attempt_timeout`. Writes carry explicit timestamps, so a
//! repeated write writes the same cells. Counters and conditional writes are repeated only when
//! the server refused them before running them (a region not served there, a busy region).

mod admin;
mod bulk;
mod cluster;
mod config;
mod conn;
mod error;
mod hfile;
mod ops;
mod scan;
mod staging;
#[cfg(all(feature = "hdfs", feature = "kerberos"))]
mod webhdfs;
mod wire;
mod zk;

use crate::store::net::hbase_pb as pb;

pub use bulk::{BulkLoadReport, BulkProgress};
pub use hfile::{
    HFileCell, HFileCellType, HFileCompression, HFileError, HFileOptions, HFileSummary, HFileWriter,
};
pub use staging::Staging;

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use bytes::{Bytes, BytesMut};
use futures_util::StreamExt;
use prost::Message;

pub use config::{AddressMap, HbaseRpcConfig};
pub use error::HbaseRpcError;
pub(crate) use zk::with_ports as zk_quorum;
#[cfg(feature = "kerberos")]
pub use zk::ZkSasl;
pub use zk::ZooKeeper;

use super::net::batch::{self, BatchRow, Confirmations};
use super::net::hbase_rules::{self, not_a_counter, Clock, DeleteRow, Stamps};
use super::net::metrics::Meter;
use super::{AsyncAtomicStore, AtomicError};
use super::{
    AsyncStore, BatchError, Blocking, CellError, CellRow, CellStream, Columns, Row, RowStream,
    RowWrite,
};
use crate::scan::pushdown::KeyFilter;
use crate::scan::KeyRange;
use crate::store::{CellVersion, NetError, RetryPolicy, Versions};
use cluster::{Cluster, Locate, RegionCache, RegionLoc};
use conn::Service;
use error::{Failure, STORE};
use ops::Shape;
use wire::CellReader;

fn check_key(key: &[u8]) -> Result<(), NetError> {
    hbase_rules::check_key(STORE, key)
}

struct Inner {
    config: HbaseRpcConfig,
    /// The client metrics' labels (`rowkey::store::metrics`).
    meter: Meter,
    cluster: Cluster,
    regions: RegionCache,
    handle: tokio::runtime::Handle,
    clock: Clock,
    /// The table-and-family check, run once per store.
    schema: super::net::checked::CheckedOnce<NetError>,
}

/// One HBase table over HBase's own RPC, as an [`AsyncStore`] and an [`AsyncAtomicStore`].
/// Cheap to clone; clones share the connections and the region cache.
#[derive(Clone)]
pub struct AsyncHbaseRpcStore {
    inner: Arc<Inner>,
}

/// One HBase table over HBase's own RPC as a blocking [`Store`](super::Store): the async
/// store on a runtime thread of its own, safe to create, use and drop inside or outside an
/// async runtime.
pub type HbaseRpcStore = Blocking<AsyncHbaseRpcStore>;

/// How many more times a failing call is sent: region-level failures (a region moving,
/// opening or busy) until the budget's deadline, others per the retry policy.
pub(crate) struct Budget<'a> {
    policy: &'a RetryPolicy,
    deadline: Instant,
    attempts: u32,
    region_retries: u32,
    /// Where each retry is counted, by cause (and each region found moved).
    meter: Option<&'a Meter>,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(policy: &'a RetryPolicy) -> Self {
        Budget {
            policy,
            deadline: Instant::now()
                + policy
                    .attempt_timeout
                    .saturating_mul(policy.max_attempts.max(1)),
            attempts: 1,
            region_retries: 0,
            meter: None,
        }
    }

    /// A budget whose retries `meter` counts.
    pub(crate) fn metered(policy: &'a RetryPolicy, meter: &'a Meter) -> Self {
        Budget {
            meter: Some(meter),
            ..Budget::new(policy)
        }
    }

    /// Whether to send again after `failure`; pauses first.
    pub(crate) async fn again(&mut self, failure: &Failure) -> bool {
        let pause = match failure {
            Failure::Relocate { .. }
            | Failure::Backoff(_)
            | Failure::Scanner(_)
            | Failure::Unreachable(_) => {
                self.region_retries += 1;
                cluster::region_backoff(self.region_retries)
            }
            Failure::Server(_) => {
                if !self.policy.retries_after(self.attempts) {
                    return false;
                }
                self.attempts += 1;
                self.policy.backoff(self.attempts - 1)
            }
            Failure::Other(e) => {
                if !e.is_transient() || !self.policy.retries_after(self.attempts) {
                    return false;
                }
                self.attempts += 1;
                self.policy.backoff(self.attempts - 1)
            }
        };
        if Instant::now() + pause > self.deadline {
            return false;
        }
        tracing::debug!(target: "rowkey::store", store = STORE, error = %failure.error(), "retrying");
        if let Some(meter) = self.meter {
            let cause = match failure {
                Failure::Relocate { .. } => {
                    meter.region_moved();
                    "region_moved"
                }
                Failure::Backoff(_) => "server_busy",
                Failure::Scanner(_) => "scanner_lost",
                Failure::Unreachable(_) => "server_unreachable",
                Failure::Server(_) => "unknown_outcome",
                Failure::Other(_) => "transient",
            };
            meter.retry(cause);
        }
        tokio::time::sleep(pause).await;
        true
    }
}

impl Blocking<AsyncHbaseRpcStore> {
    /// Table `table` of the cluster whose registry answers at `bootstrap` (`host:port`, or
    /// several separated by commas), values in column family `family`.
    pub fn connect(bootstrap: &str, table: &str, family: &str) -> Result<Self, NetError> {
        Self::with_config(HbaseRpcConfig::new(bootstrap, table, family))
    }

    /// Connects as `config` says.
    pub fn with_config(config: HbaseRpcConfig) -> Result<Self, NetError> {
        Blocking::open(move || async move { AsyncHbaseRpcStore::connect(config).await })
    }

    /// [`AsyncHbaseRpcStore::create_table`]: the table with its families, pre-split.
    pub fn create_table(&self, splits: &[Bytes]) -> Result<(), NetError> {
        let splits = splits.to_vec();
        self.call(|s| async move { s.create_table(&splits).await })
    }

    /// [`AsyncHbaseRpcStore::create_table_with`]: the table with `families` and their options.
    pub fn create_table_with(
        &self,
        families: &[crate::family::Family],
        splits: &[Bytes],
    ) -> Result<(), NetError> {
        let (families, splits) = (families.to_vec(), splits.to_vec());
        self.call(|s| async move { s.create_table_with(&families, &splits).await })
    }

    /// [`AsyncHbaseRpcStore::create_table_for`]: the table with `K`'s key layout recorded.
    pub fn create_table_for<K: crate::RowKey>(
        &self,
        families: &[crate::family::Family],
        splits: &[Bytes],
    ) -> Result<(), NetError> {
        let (families, splits) = (families.to_vec(), splits.to_vec());
        self.call(|s| async move { s.create_table_for::<K>(&families, &splits).await })
    }

    /// [`AsyncHbaseRpcStore::create_table_keyed`]: the table with a key layout fingerprint
    /// given as a value.
    pub fn create_table_keyed(
        &self,
        families: &[crate::family::Family],
        splits: &[Bytes],
        key_fingerprint: u64,
    ) -> Result<(), NetError> {
        let (families, splits) = (families.to_vec(), splits.to_vec());
        self.call(|s| async move {
            s.create_table_keyed(&families, &splits, key_fingerprint)
                .await
        })
    }

    /// [`AsyncHbaseRpcStore::check_key_fingerprint`]: refuses a key layout other than the
    /// table's.
    pub fn check_key_fingerprint(&self, key: &str, fingerprint: u64) -> Result<(), NetError> {
        let key = key.to_string();
        self.call(|s| async move { s.check_key_fingerprint(&key, fingerprint).await })
    }

    /// [`AsyncHbaseRpcStore::families`]: the live table's families with their options.
    pub fn families(&self) -> Result<Vec<crate::family::Family>, NetError> {
        self.call(|s| async move { s.families().await })
    }

    /// [`AsyncHbaseRpcStore::alter_family`]: gives one family these options, adding it if
    /// needed.
    pub fn alter_family(&self, family: &crate::family::Family) -> Result<(), NetError> {
        let family = family.clone();
        self.call(|s| async move { s.alter_family(&family).await })
    }

    /// [`AsyncHbaseRpcStore::key_fingerprint`]: the key layout the table records.
    pub fn key_fingerprint(&self) -> Result<Option<u64>, NetError> {
        self.call(|s| async move { s.key_fingerprint().await })
    }

    /// [`AsyncHbaseRpcStore::check_key_layout`]: refuses a key type whose layout is not the
    /// table's.
    pub fn check_key_layout<K: crate::RowKey>(&self) -> Result<(), NetError> {
        self.call(|s| async move { s.check_key_layout::<K>().await })
    }

    /// [`AsyncHbaseRpcStore::regions`]: the table's regions, in key order.
    pub fn regions(&self) -> Result<Vec<super::Region>, NetError> {
        self.call(|s| async move { s.regions().await })
    }

    /// [`AsyncHbaseRpcStore::region_loads`]: each region's request counters now, from its
    /// region server.
    pub fn region_loads(&self) -> Result<Vec<crate::hotspot::RegionLoad>, NetError> {
        self.call(|s| async move { s.region_loads().await })
    }

    /// [`AsyncHbaseRpcStore::scan_keys_since`]: the keys of the rows in `range` written at or
    /// after `since_ms`, at most `limit` of them, in key order.
    pub fn scan_keys_since(
        &self,
        range: &KeyRange,
        since_ms: u64,
        limit: usize,
    ) -> Result<Vec<Bytes>, NetError> {
        let range = range.clone();
        self.call(move |s| async move {
            let mut keys = Vec::new();
            let mut stream = s.scan_keys_since(&range, since_ms);
            while keys.len() < limit {
                match stream.next().await {
                    Some(key) => keys.push(key?),
                    None => break,
                }
            }
            Ok(keys)
        })
    }

    /// [`AsyncHbaseRpcStore::count_rows`]: the rows in `range`, counted.
    pub fn count_rows(
        &self,
        range: &KeyRange,
        progress: impl FnMut(u64) + Send + 'static,
    ) -> Result<u64, NetError> {
        let range = range.clone();
        self.call(move |s| async move { s.count_rows(&range, progress).await })
    }

    /// [`AsyncHbaseRpcStore::delete_batch`]: deletes many rows.
    pub fn delete_batch(&self, keys: &[Vec<u8>]) -> Result<(), BatchError<NetError>> {
        let owned = keys.to_vec();
        match self.call(|s| async move { Ok(s.delete_batch(&owned).await) }) {
            Ok(result) => result,
            Err(source) => Err(BatchError {
                failed: keys.to_vec(),
                source,
            }),
        }
    }

    /// [`AsyncHbaseRpcStore::drop_table`]: disables and deletes the table.
    pub fn drop_table(&self) -> Result<(), NetError> {
        self.call(|s| async move { s.drop_table().await })
    }
}

impl AsyncHbaseRpcStore {
    /// Opens the store as `config` says. Must run inside a tokio runtime; the store's
    /// background work (connections, scan pages) runs on that runtime from then on. Asks the
    /// registry for the cluster id, so an unreachable cluster is an error here.
    pub async fn connect(config: HbaseRpcConfig) -> Result<Self, NetError> {
        let handle = tokio::runtime::Handle::try_current().map_err(|_| NetError::Runtime {
            store: STORE,
            message: "AsyncHbaseRpcStore::connect runs inside a tokio runtime; use HbaseRpcStore \
                      elsewhere"
                .into(),
        })?;
        #[cfg(feature = "kerberos")]
        let security = match &config.kerberos {
            Some(k) => {
                k.validate().map_err(|message| NetError::Connect {
                    store: STORE,
                    message,
                })?;
                conn::Security::Kerberos(Arc::new(super::net::kerberos::Login::new(k.clone())))
            }
            None => conn::Security::Simple(config.user.clone()),
        };
        #[cfg(not(feature = "kerberos"))]
        let security = conn::Security::Simple(config.user.clone());
        let zookeeper = match &config.zookeeper {
            Some(zk) => Some(zk::ZkRegistry::new(
                zk.clone(),
                config.options.connect_timeout,
                #[cfg(feature = "kerberos")]
                match &security {
                    conn::Security::Kerberos(login) => Some(login.clone()),
                    conn::Security::Simple(_) => None,
                },
            )?),
            None => None,
        };
        let tls = match &config.tls {
            Some(tls) => Some(conn::TlsClient::new(tls).map_err(|e| NetError::Connect {
                store: STORE,
                message: format!("TLS: {e}"),
            })?),
            None => None,
        };
        let meter = Meter::new(STORE, &config.table);
        let pool = conn::Pool::new(
            meter.clone(),
            security,
            tls,
            config.options.connect_timeout,
            config.address_map.clone(),
        );
        let cluster = Cluster::new(
            pool,
            config.bootstrap.clone(),
            config.bootstrap_refresh,
            zookeeper,
            config.options.clone(),
        );
        let store = AsyncHbaseRpcStore {
            inner: Arc::new(Inner {
                meter,
                cluster,
                regions: RegionCache::default(),
                handle,
                clock: Clock::default(),
                schema: super::net::checked::CheckedOnce::new(),
                config,
            }),
        };
        let mut budget = Budget::metered(&store.inner.config.options.retry, &store.inner.meter);
        loop {
            match store.inner.cluster.cluster_id().await {
                Ok(_) => return Ok(store),
                Err(f) => {
                    if !budget.again(&f).await {
                        let e = f.into_error();
                        return Err(match e {
                            NetError::Transport { message, .. } => {
                                // Closed as soon as it was opened, before any reply: what a
                                // 2.4 region server does when asked for the registry, and a
                                // Kerberized HBase 3.0 to a client without Kerberos (2.x
                                // says why; 3.0 sends nothing).
                                let closed = message.contains("reset by peer")
                                    || message.contains("closed the connection");
                                let hint = if closed && store.inner.config.zookeeper.is_none() {
                                    format!(
                                        " (the server closed the connection as soon as it was \
                                         opened, which {}a region server before HBase 2.5 does \
                                         (it serves no connection registry: give the masters' \
                                         addresses, hbase.masters, or the ZooKeeper quorum)",
                                        if store.has_kerberos() {
                                            ""
                                        } else {
                                            "a cluster that requires Kerberos does to a client \
                                             without it (this store has no Kerberos login), and "
                                        }
                                    )
                                } else {
                                    String::new()
                                };
                                NetError::Connect {
                                    store: STORE,
                                    message: format!(
                                        "no connection registry answered at {}: {message}{hint}",
                                        store.inner.config.bootstrap.join(",")
                                    ),
                                }
                            }
                            other => other,
                        });
                    }
                }
            }
        }
    }

    /// The configuration it was opened with.
    pub fn config(&self) -> &HbaseRpcConfig {
        &self.inner.config
    }

    /// Whether it logs in with Kerberos.
    fn has_kerberos(&self) -> bool {
        #[cfg(feature = "kerberos")]
        return self.inner.config.kerberos.is_some();
        #[cfg(not(feature = "kerberos"))]
        false
    }

    fn table(&self) -> &str {
        &self.inner.config.table
    }

    /// Runs one operation, counted and timed in the client metrics.
    async fn metered<T>(
        &self,
        op: &'static str,
        work: impl Future<Output = Result<T, NetError>>,
    ) -> Result<T, NetError> {
        let started = Instant::now();
        let result = work.await;
        self.inner.meter.finished(op, started, result.is_ok());
        result
    }

    /// Runs `attempt` on the region `how` and `row` name, sending it again after failures
    /// as the budget allows; the cache learns from each failure.
    async fn on_region<T, F, Fut>(
        &self,
        row: &[u8],
        how: Locate,
        retry_unknown: bool,
        mut attempt: F,
    ) -> Result<T, NetError>
    where
        F: FnMut(Arc<RegionLoc>) -> Fut,
        Fut: Future<Output = Result<T, Failure>>,
    {
        let mut budget = Budget::metered(&self.inner.config.options.retry, &self.inner.meter);
        let timeout = self.inner.config.options.retry.attempt_timeout;
        // Outside the attempt's deadline: at most once per refresh interval.
        self.inner.cluster.refresh_bootstrap_if_due().await;
        loop {
            // One deadline for the attempt: the lookup, a new connection and the call share it.
            let tried = cluster::within(timeout, async {
                let loc = self
                    .inner
                    .cluster
                    .locate(&self.inner.regions, self.table(), row, how)
                    .await?;
                attempt(loc.clone())
                    .await
                    .inspect_err(|f| self.learn(f, &loc))
            })
            .await;
            let failure = match tried {
                Ok(v) => return Ok(v),
                Err(f) => f,
            };
            // A call whose fate is unknown (a dead connection, a deadline) is not sent again
            // unless repeating it is harmless.
            let unknown = matches!(failure, Failure::Server(_) | Failure::Other(_));
            if (unknown && !retry_unknown) || !budget.again(&failure).await {
                return Err(failure.into_error());
            }
        }
    }

    /// What a failure on `loc` says about the cache.
    fn learn(&self, f: &Failure, loc: &RegionLoc) {
        match f {
            Failure::Relocate {
                moved_to: Some(to), ..
            } => self.inner.regions.moved(loc, to.clone()),
            Failure::Relocate { moved_to: None, .. } => self.inner.regions.forget(loc),
            Failure::Server(_) | Failure::Unreachable(_) => {
                self.inner.regions.forget_server(&loc.server)
            }
            _ => {}
        }
    }

    /// One data call on a region server.
    async fn region_call(
        &self,
        loc: &RegionLoc,
        op: &'static str,
        request: &impl Message,
    ) -> Result<wire::Reply, Failure> {
        self.inner
            .cluster
            .call(&loc.server, Service::Client, op, self.table(), request)
            .await
    }

    /// Checks once per store that the table and the families exist.
    async fn ensure_schema(&self) -> Result<(), NetError> {
        if !self.inner.config.options.check_schema {
            return Ok(());
        }
        self.inner.schema.ensure(|| self.check_schema()).await
    }

    async fn check_schema(&self) -> Result<(), NetError> {
        let families: Vec<String> = self
            .families()
            .await?
            .into_iter()
            .map(|f| f.name.into_owned())
            .collect();
        match self
            .inner
            .config
            .all_families()
            .into_iter()
            .find(|f| !families.contains(f))
        {
            Some(family) => Err(NetError::MissingFamily {
                store: STORE,
                table: self.inner.config.table.clone(),
                family,
                families,
            }),
            None => Ok(()),
        }
    }

    /// One row through `shape`, with retries.
    async fn get_shaped<S: Shape>(
        &self,
        key: &[u8],
        shape: &S,
    ) -> Result<Option<S::Row>, NetError> {
        let cells = self.get_cells(key, ops::get(key, shape)).await?;
        Ok(cells.and_then(|c| shape.row(c)))
    }

    /// The cells `get` selects of row `key` (`None`: no such row), with retries.
    async fn get_cells(
        &self,
        key: &[u8],
        get: pb::Get,
    ) -> Result<Option<Vec<wire::Cell>>, NetError> {
        self.on_region(key, Locate::At, true, |loc| {
            let request = pb::GetRequest {
                region: loc.specifier(),
                get: get.clone(),
            };
            async move {
                let reply = self.region_call(&loc, "Get", &request).await?;
                let resp =
                    pb::GetResponse::decode(reply.body).map_err(|e| error::decode("Get", e))?;
                let Some(result) = resp.result else {
                    return Ok(None);
                };
                let mut block = CellReader::new(reply.cells);
                let cells = ops::result_cells(&result, &mut block)
                    .map_err(|m| Failure::Other(error::protocol(m)))?;
                Ok(Some(cells))
            }
        })
        .await
    }

    /// One mutation of row `key`, repeated as the budget allows (it carries its timestamps).
    async fn mutate(&self, key: &[u8], mutation: pb::MutationProto) -> Result<(), NetError> {
        self.on_region(key, Locate::At, true, |loc| {
            let request = pb::MutateRequest {
                region: loc.specifier(),
                mutation: mutation.clone(),
                condition: None,
                nonce_group: None,
            };
            async move { self.region_call(&loc, "Mutate", &request).await.map(|_| ()) }
        })
        .await
    }

    /// Deletes many rows, grouped per region server into `Multi` calls; the error lists the
    /// keys not confirmed deleted.
    pub async fn delete_batch(&self, keys: &[Vec<u8>]) -> Result<(), BatchError<NetError>> {
        let rows: Vec<DeleteRow> = keys.iter().map(|k| DeleteRow(k.clone())).collect();
        self.write_parts(&rows).await
    }

    /// Writes `rows` as `Multi` calls per region server, within the batch limits, sending the
    /// rows not confirmed again (to where their regions are now) as the budget allows.
    async fn write_parts<R: Write>(&self, rows: &[R]) -> Result<(), BatchError<NetError>> {
        let rows = &*R::in_order(rows);
        let all = |source| BatchError {
            failed: rows.iter().map(|r| r.key().to_vec()).collect(),
            source,
        };
        if let Some(e) = rows.iter().find_map(|r| check_key(r.key()).err()) {
            return Err(all(e));
        }
        if rows.is_empty() {
            return Ok(());
        }
        self.ensure_schema().await.map_err(all)?;
        // Fixed for the batch, so that a row sent again writes exactly what the first try did.
        let (puts, deletes) = R::kinds(rows);
        let stamps = Stamps {
            delete: if deletes {
                self.inner.clock.delete()
            } else {
                0
            },
            put: if puts { self.inner.clock.put() } else { 0 },
        };
        let mut confirmations = Confirmations::new(rows.len());
        let mut left: Vec<usize> = (0..rows.len()).collect();
        let mut budget = Budget::metered(&self.inner.config.options.retry, &self.inner.meter);
        let timeout = self.inner.config.options.retry.attempt_timeout;
        loop {
            // One deadline for the round: lookups, new connections and calls share it.
            let (failed, failure) =
                cluster::within(timeout, self.send_rows(rows, &left, stamps)).await;
            let failed_set: std::collections::HashSet<usize> = failed.iter().copied().collect();
            for &i in &left {
                if !failed_set.contains(&i) {
                    confirmations.confirm(i);
                }
            }
            let Some(failure) = failure else {
                break;
            };
            if failed.is_empty() || !budget.again(&failure).await {
                confirmations.error(failure.into_error());
                break;
            }
            left = failed;
        }
        confirmations.finish(rows, || {
            error::protocol("rows were not confirmed and no error was reported")
        })
    }

    /// One round: rows `which` of `rows` located, grouped per server and sent; the rows that
    /// failed, and the failure that decides whether to go on.
    ///
    /// Rows whose region is cached go out at once, while hbase:meta places the others (which
    /// go out as soon as it has): a slow meta and servers that stopped answering cost one
    /// deadline together, not one after the other.
    async fn send_rows<R: Write>(
        &self,
        rows: &[R],
        which: &[usize],
        stamps: Stamps,
    ) -> (Vec<usize>, Option<Failure>) {
        let mut cached = Vec::new();
        let mut missing = Vec::new();
        for &i in which {
            match self.inner.regions.find(rows[i].key(), Locate::At) {
                Some(loc) => cached.push((loc, i)),
                None => missing.push(i),
            }
        }
        let gone = std::sync::Mutex::new(std::collections::HashSet::<String>::new());
        let now = self.send_located(rows, cached, stamps, &gone);
        let later = async {
            let (located, mut failed, first) = self.locate_rows(rows, &missing).await;
            let (more, failure) = self.send_located(rows, located, stamps, &gone).await;
            failed.extend(more);
            (failed, first.or(failure))
        };
        let ((mut failed, first), (more, failure)) = futures_util::join!(now, later);
        failed.extend(more);
        (failed, first.or(failure))
    }

    /// Rows `which` of `rows` located (the cache answers most; a miss asks meta once per
    /// region); the rows that could not be, and why.
    async fn locate_rows<R: Write>(
        &self,
        rows: &[R],
        which: &[usize],
    ) -> (Vec<(Arc<RegionLoc>, usize)>, Vec<usize>, Option<Failure>) {
        let mut located = Vec::new();
        let mut failed = Vec::new();
        let mut first: Option<Failure> = None;
        for &i in which {
            // Once a lookup has failed (meta unreachable or slow), rows whose region is not
            // cached fail at once: one deadline for the round, not one per row.
            let found = if first.is_some() {
                self.inner
                    .regions
                    .find(rows[i].key(), Locate::At)
                    .ok_or(None)
            } else {
                self.inner
                    .cluster
                    .locate(&self.inner.regions, self.table(), rows[i].key(), Locate::At)
                    .await
                    .map_err(Some)
            };
            match found {
                Ok(loc) => located.push((loc, i)),
                Err(f) => {
                    failed.push(i);
                    if let Some(f) = f {
                        first.get_or_insert(f);
                    }
                }
            }
        }
        (located, failed, first)
    }

    /// Located rows grouped per server, cut into `Multi` calls within the limits and sent:
    /// every server's calls start at once, `batch_concurrency` in flight per server. A server
    /// found gone (dead, cut off, not answering; noted in `gone`) gets no more calls this
    /// round: its other rows fail at once, so that servers that stopped answering cost one
    /// deadline, not one per server or per call.
    async fn send_located<R: Write>(
        &self,
        rows: &[R],
        located: Vec<(Arc<RegionLoc>, usize)>,
        stamps: Stamps,
        gone: &std::sync::Mutex<std::collections::HashSet<String>>,
    ) -> (Vec<usize>, Option<Failure>) {
        let options = &self.inner.config.options;
        let mut by_server: std::collections::BTreeMap<String, Vec<(Arc<RegionLoc>, usize)>> =
            Default::default();
        for (loc, i) in located {
            by_server
                .entry(loc.server.clone())
                .or_default()
                .push((loc, i));
        }
        let mut per_server = Vec::new();
        for (server, mut located) in by_server {
            located.sort_by(|a, b| a.0.start.cmp(&b.0.start));
            let ordered: Vec<R> = located.iter().map(|&(_, i)| rows[i].clone()).collect();
            let parts: Vec<Vec<(Arc<RegionLoc>, usize)>> =
                batch::split(&ordered, options.batch_rows, options.batch_bytes)
                    .into_iter()
                    .map(|part| located[part].to_vec())
                    .collect();
            per_server.push((server, parts));
        }
        let concurrency = options.batch_concurrency.max(1);
        let is_gone = |server: &str| gone.lock().is_ok_and(|g| g.contains(server));
        let outcomes: Vec<Vec<(Vec<usize>, Option<Failure>)>> = futures_util::future::join_all(
            per_server.into_iter().map(|(server, parts)| async move {
                let server = &server;
                futures_util::stream::iter(parts)
                    .map(|part| async move {
                        if is_gone(server) {
                            return (part.iter().map(|(_, i)| *i).collect(), None);
                        }
                        let outcome = self.multi(server, rows, &part, stamps).await;
                        if outcome.1.as_ref().is_some_and(Failure::server_gone) {
                            if let Ok(mut g) = gone.lock() {
                                g.insert(server.clone());
                            }
                        }
                        outcome
                    })
                    .buffer_unordered(concurrency)
                    .collect()
                    .await
            }),
        )
        .await;
        let mut failed = Vec::new();
        let mut first = None;
        for (f, failure) in outcomes.into_iter().flatten() {
            failed.extend(f);
            if let Some(failure) = failure {
                first.get_or_insert(failure);
            }
        }
        (failed, first)
    }

    /// One `Multi` call to `server` with `part`'s rows (one `RegionAction` per region); the
    /// rows not confirmed.
    async fn multi<R: Write>(
        &self,
        server: &str,
        rows: &[R],
        part: &[(Arc<RegionLoc>, usize)],
        stamps: Stamps,
    ) -> (Vec<usize>, Option<Failure>) {
        let mut actions: Vec<pb::RegionAction> = Vec::new();
        let mut cells = BytesMut::new();
        // Per action: the row it writes, and its region.
        let mut owners: Vec<Vec<(usize, Arc<RegionLoc>)>> = Vec::new();
        for (loc, i) in part {
            if actions.last().is_none_or(|a| a.region.value != loc.name) {
                actions.push(pb::RegionAction {
                    region: loc.specifier(),
                    ..Default::default()
                });
                owners.push(Vec::new());
            }
            let (Some(action), Some(owner)) = (actions.last_mut(), owners.last_mut()) else {
                continue;
            };
            for mutation in rows[*i].mutations(stamps, &mut cells) {
                action.action.push(pb::Action {
                    index: Some(action.action.len() as u32),
                    mutation: Some(mutation),
                    ..Default::default()
                });
                owner.push((*i, loc.clone()));
            }
        }
        let all = |f: Failure| -> (Vec<usize>, Option<Failure>) {
            let mut rows: Vec<usize> = part.iter().map(|(_, i)| *i).collect();
            rows.dedup();
            (rows, Some(f))
        };
        let request = pb::MultiRequest {
            region_action: actions,
            ..Default::default()
        };
        let reply = match self
            .inner
            .cluster
            .call_with_cells(
                server,
                Service::Client,
                "Multi",
                self.table(),
                &request,
                &cells,
            )
            .await
        {
            Ok(r) => r,
            Err(f) => {
                if let Some((loc, _)) = part.first() {
                    self.learn(&f, loc);
                }
                return all(f);
            }
        };
        let resp = match pb::MultiResponse::decode(reply.body) {
            Ok(r) => r,
            Err(e) => return all(error::decode("Multi", e)),
        };
        if resp.region_action_result.len() != owners.len() {
            return all(Failure::Other(error::protocol(format!(
                "Multi answered {} region actions of {}",
                resp.region_action_result.len(),
                owners.len()
            ))));
        }
        let mut failed = Vec::new();
        let mut first = None;
        for (result, owner) in resp.region_action_result.iter().zip(&owners) {
            if let Some(e) = &result.exception {
                let f = error::remote("Multi", self.table(), &exception(e));
                if let Some((_, loc)) = owner.first() {
                    self.learn(&f, loc);
                }
                failed.extend(owner.iter().map(|(i, _)| *i));
                first.get_or_insert(f);
                continue;
            }
            let mut answered = vec![false; owner.len()];
            for roe in &result.result_or_exception {
                let Some(idx) = roe.index.map(|x| x as usize).filter(|x| *x < owner.len()) else {
                    continue;
                };
                match &roe.exception {
                    Some(e) => {
                        let f = error::remote("Multi", self.table(), &exception(e));
                        self.learn(&f, &owner[idx].1);
                        first.get_or_insert(f);
                    }
                    None => answered[idx] = true,
                }
            }
            // A row is confirmed when every one of its actions is.
            for (k, (i, _)) in owner.iter().enumerate() {
                if !answered[k] && !failed.contains(i) {
                    failed.push(*i);
                }
            }
        }
        if !failed.is_empty() && first.is_none() {
            first = Some(Failure::Other(error::protocol(
                "Multi left actions without a result",
            )));
        }
        (failed, first)
    }

    /// The keys of the rows in `range` with a cell written at or after `since_ms` (HBase's
    /// time range on the scan: the region servers pass only those rows), in key order: what a
    /// region was written lately, such as a hotspot's rows
    /// ([`HotspotReport::sample`](crate::hotspot::HotspotReport::sample)).
    pub fn scan_keys_since(&self, range: &KeyRange, since_ms: u64) -> super::KeyStream<NetError> {
        Box::pin(scan::spawn(
            self.clone(),
            range.clone(),
            false,
            ops::KeysSince(since_ms),
        ))
    }

    /// The rows in `range`, counted (row keys only: the first cell of each row, without its
    /// value); `progress` is told the count after every 1,000 rows and at the end.
    pub async fn count_rows(
        &self,
        range: &KeyRange,
        mut progress: impl FnMut(u64) + Send,
    ) -> Result<u64, NetError> {
        let mut rows = scan::spawn(self.clone(), range.clone(), false, ops::Keys);
        let mut n = 0u64;
        while let Some(row) = rows.next().await {
            row?;
            n += 1;
            if n.is_multiple_of(1000) {
                progress(n);
            }
        }
        progress(n);
        Ok(n)
    }

    fn cell_scan(
        &self,
        range: &KeyRange,
        columns: &Columns,
        reversed: bool,
    ) -> CellStream<NetError> {
        if columns.is_empty() {
            return Box::pin(futures_util::stream::empty());
        }
        Box::pin(
            scan::spawn(
                self.clone(),
                range.clone(),
                reversed,
                ops::Cells::new(columns),
            )
            .map(|r| r.map_err(CellError::Store)),
        )
    }

    /// A single-cell mutation under a condition or an increment: sent again only when the
    /// server refused it before running it.
    async fn atomic(
        &self,
        key: &[u8],
        mutation: pb::MutationProto,
        condition: Option<pb::Condition>,
    ) -> Result<pb::MutateResponse, NetError> {
        self.on_region(key, Locate::At, false, |loc| {
            let request = pb::MutateRequest {
                region: loc.specifier(),
                mutation: mutation.clone(),
                condition: condition.clone(),
                nonce_group: None,
            };
            async move {
                let reply = self.region_call(&loc, "Mutate", &request).await?;
                let mut resp = pb::MutateResponse::decode(reply.body)
                    .map_err(|e| error::decode("Mutate", e))?;
                // The result's cells come in the cell block: put them inline for the caller.
                if let Some(result) = resp.result.as_mut() {
                    let mut block = CellReader::new(reply.cells);
                    let cells = ops::result_cells(result, &mut block)
                        .map_err(|m| Failure::Other(error::protocol(m)))?;
                    result.cell = cells
                        .into_iter()
                        .map(|c| pb::Cell {
                            row: Some(c.row),
                            family: Some(c.family),
                            qualifier: Some(c.qualifier),
                            value: Some(c.value),
                            ..Default::default()
                        })
                        .collect();
                    result.associated_cell_count = None;
                }
                Ok(resp)
            }
        })
        .await
    }
}

/// A `NameBytesPair` exception of a `Multi` result as an `ExceptionResponse`.
fn exception(e: &pb::NameBytesPair) -> pb::ExceptionResponse {
    pb::ExceptionResponse {
        exception_class_name: Some(e.name.clone()),
        stack_trace: e
            .value
            .as_ref()
            .map(|v| String::from_utf8_lossy(v).into_owned()),
        ..Default::default()
    }
}

/// A kind of batch row and the mutations that write it.
trait Write: BatchRow + Send + Sync + Sized {
    /// Whether writing `rows` puts cells, and whether it deletes any.
    fn kinds(rows: &[Self]) -> (bool, bool);
    /// The row's mutations; the cells of its puts are appended to `cells`, the call's cell
    /// block, in the order of the mutations.
    fn mutations(&self, stamps: Stamps, cells: &mut BytesMut) -> Vec<pb::MutationProto>;
}

impl Write for DeleteRow {
    fn kinds(_: &[DeleteRow]) -> (bool, bool) {
        (false, true)
    }
    fn mutations(&self, stamps: Stamps, _: &mut BytesMut) -> Vec<pb::MutationProto> {
        vec![ops::delete_row(&self.0, stamps.delete)]
    }
}

impl Write for RowWrite {
    fn kinds(rows: &[RowWrite]) -> (bool, bool) {
        (
            rows.iter().any(|r| !r.set.is_empty()),
            rows.iter().any(|r| !r.clear.is_empty()),
        )
    }
    fn mutations(&self, stamps: Stamps, cells: &mut BytesMut) -> Vec<pb::MutationProto> {
        let mut out = Vec::with_capacity(2);
        if !self.set.is_empty() {
            out.push(ops::put_in_block(
                &self.key,
                self.set
                    .iter()
                    .map(|c| (c.family.as_bytes(), &c.qualifier[..], &c.value[..])),
                stamps.put,
                cells,
            ));
        }
        if !self.clear.is_empty() {
            out.push(ops::delete_columns(
                &self.key,
                self.clear
                    .iter()
                    .map(|c| (c.family.as_bytes(), &c.qualifier[..])),
                stamps.delete,
            ));
        }
        out
    }
}

/// A raw row bound for the value family (`Row` alone does not know the family).
#[derive(Clone)]
struct ValueRow {
    row: Row,
    family: Bytes,
}

impl BatchRow for ValueRow {
    fn key(&self) -> &[u8] {
        &self.row.0
    }
    fn size(&self) -> usize {
        use super::net::batch::{CELL_OVERHEAD, ROW_OVERHEAD};
        self.row.0.len() + self.row.1.len() + ROW_OVERHEAD + CELL_OVERHEAD
    }
    fn in_order(rows: &[Self]) -> std::borrow::Cow<'_, [Self]> {
        std::borrow::Cow::Borrowed(rows)
    }
}

impl Write for ValueRow {
    fn kinds(_: &[ValueRow]) -> (bool, bool) {
        (true, false)
    }
    fn mutations(&self, stamps: Stamps, cells: &mut BytesMut) -> Vec<pb::MutationProto> {
        vec![ops::put_in_block(
            &self.row.0,
            [(&self.family[..], ops::QUALIFIER, &self.row.1[..])],
            stamps.put,
            cells,
        )]
    }
}

/// On the region server, under the row's lock (`Mutate` with an increment, or with a
/// condition); sent again only when the server refused it before running it.
impl AsyncAtomicStore for AsyncHbaseRpcStore {
    async fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, AtomicError<NetError>> {
        check_key(key).map_err(AtomicError::Store)?;
        self.ensure_schema().await.map_err(AtomicError::Store)?;
        let mutation = ops::increment(key, family.as_bytes(), qualifier, delta);
        let resp = self
            .atomic(key, mutation, None)
            .await
            .map_err(|e| not_a_counter(&e).unwrap_or(AtomicError::Store(e)))?;
        let value = resp
            .result
            .and_then(|r| r.cell.into_iter().next())
            .and_then(|c| c.value)
            .unwrap_or_default();
        crate::store::counter_value(&value).ok_or_else(|| {
            AtomicError::Store(error::protocol(format!(
                "increment answered with a {}-byte value, not a counter",
                value.len()
            )))
        })
    }

    async fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, AtomicError<NetError>> {
        check_key(key).map_err(AtomicError::Store)?;
        self.ensure_schema().await.map_err(AtomicError::Store)?;
        let expected = crate::store::atomic::condition(expected);
        let condition = ops::condition(key, family.as_bytes(), qualifier, expected);
        let mutation = match new {
            Some(value) => ops::put(
                key,
                [(family.as_bytes(), qualifier, value)],
                self.inner.clock.put(),
            ),
            None => ops::delete_columns(
                key,
                [(family.as_bytes(), qualifier)],
                self.inner.clock.delete(),
            ),
        };
        let resp = self
            .atomic(key, mutation, Some(condition))
            .await
            .map_err(AtomicError::Store)?;
        resp.processed.ok_or_else(|| {
            AtomicError::Store(error::protocol("a conditional write without its answer"))
        })
    }
}

impl AsyncStore for AsyncHbaseRpcStore {
    type Error = NetError;

    async fn put(&self, key: &[u8], value: &[u8]) -> Result<(), NetError> {
        self.metered("put", async {
            check_key(key)?;
            self.ensure_schema().await?;
            let family = self.inner.config.family.as_bytes();
            let mutation = ops::put(
                key,
                [(family, ops::QUALIFIER, value)],
                self.inner.clock.put(),
            );
            self.mutate(key, mutation).await
        })
        .await
    }

    async fn get(&self, key: &[u8]) -> Result<Option<Bytes>, NetError> {
        self.metered("get", async {
            check_key(key)?;
            self.ensure_schema().await?;
            let values = ops::Values::new(&self.inner.config.family);
            Ok(self.get_shaped(key, &values).await?.map(|(_, v)| v))
        })
        .await
    }

    async fn delete(&self, key: &[u8]) -> Result<(), NetError> {
        self.metered("delete", async {
            check_key(key)?;
            self.ensure_schema().await?;
            self.mutate(key, ops::delete_row(key, self.inner.clock.delete()))
                .await
        })
        .await
    }

    /// Grouped by region server into `Multi` calls within the limits, sent concurrently; rows
    /// HBase did not confirm are sent again where their regions are now, and the error lists
    /// exactly the rows never confirmed.
    async fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<NetError>> {
        let family = Bytes::copy_from_slice(self.inner.config.family.as_bytes());
        let last = batch::last_of_each(rows);
        let rows: Vec<ValueRow> = last
            .iter()
            .map(|row| ValueRow {
                row: row.clone(),
                family: family.clone(),
            })
            .collect();
        let started = Instant::now();
        let result = self.write_parts(&rows).await;
        self.inner.meter.batch(started, rows.len(), &result);
        result
    }

    /// Through HFiles ([`AsyncHbaseRpcStore::bulk_load`]) when the configuration names a
    /// [`bulk_load_dir`](HbaseRpcConfig::bulk_load_dir); a batch write otherwise.
    async fn load(&self, rows: Vec<Row>) -> Result<(), BatchError<NetError>> {
        match self.inner.config.bulk_load_dir.clone() {
            Some(dir) => self.bulk_load(rows, dir).await.map(|_| ()),
            None => self.write_batch(&rows).await,
        }
    }

    fn scan(&self, range: &KeyRange) -> RowStream<NetError> {
        let values = ops::Values::new(&self.inner.config.family);
        scan::spawn(self.clone(), range.clone(), false, values)
    }

    fn scan_rev(&self, range: &KeyRange) -> Option<RowStream<NetError>> {
        let values = ops::Values::new(&self.inner.config.family);
        Some(scan::spawn(self.clone(), range.clone(), true, values))
    }

    /// A `FuzzyRowFilter` (the region servers seek past gaps) or a `RowFilter` with a regular
    /// expression, applied by the region servers.
    fn scan_filtered(
        &self,
        range: &KeyRange,
        filter: &KeyFilter,
        reverse: bool,
    ) -> Option<RowStream<NetError>> {
        let values = ops::Values::filtered(&self.inner.config.family, filter, reverse);
        Some(scan::spawn(self.clone(), range.clone(), reverse, values))
    }

    /// Each row's first cell without its value (`FirstKeyOnlyFilter` and `KeyOnlyFilter`, no
    /// column named): every row of the range, whatever its columns.
    fn scan_keys(&self, range: &KeyRange) -> super::KeyStream<NetError> {
        Box::pin(scan::spawn(self.clone(), range.clone(), false, ops::Keys))
    }

    /// Set cells and cleared columns of each row in one `Multi` action each, grouped as
    /// [`AsyncStore::write_batch`] groups rows.
    async fn write_rows(&self, rows: &[RowWrite]) -> Result<(), BatchError<NetError>> {
        self.write_parts(rows).await
    }

    async fn read_row(
        &self,
        key: &[u8],
        columns: &Columns,
    ) -> Result<Option<CellRow>, CellError<NetError>> {
        check_key(key).map_err(CellError::Store)?;
        if columns.is_empty() {
            return Ok(None);
        }
        self.ensure_schema().await.map_err(CellError::Store)?;
        self.get_shaped(key, &ops::Cells::new(columns))
            .await
            .map_err(CellError::Store)
    }

    async fn delete_row(&self, key: &[u8]) -> Result<(), CellError<NetError>> {
        AsyncStore::delete(self, key)
            .await
            .map_err(CellError::Store)
    }

    fn scan_rows(&self, range: &KeyRange, columns: &Columns) -> CellStream<NetError> {
        self.cell_scan(range, columns, false)
    }

    fn scan_rows_rev(&self, range: &KeyRange, columns: &Columns) -> Option<CellStream<NetError>> {
        Some(self.cell_scan(range, columns, true))
    }
}

/// Cells' versions: timestamps in milliseconds, explicit on write.
impl super::AsyncVersions for AsyncHbaseRpcStore {
    /// The versions of cell `family:qualifier` of row `key` that `versions` selects, newest
    /// first, with their timestamps (HBase's own: milliseconds), as the Thrift2 store
    /// ([`AsyncHbaseStore`](crate::store::AsyncHbaseStore)) reads them through a gateway. What HBase keeps is what the family declares (`VERSIONS`,
    /// `MIN_VERSIONS`, `TTL`, `KEEP_DELETED_CELLS`), applied as HBase reads. Timestamps before
    /// the epoch select nothing (HBase has none).
    async fn read_versions(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        versions: &Versions,
    ) -> Result<Vec<CellVersion>, NetError> {
        check_key(key)?;
        let get = ops::versions(key, family.as_bytes(), qualifier, versions);
        let cells = self.get_cells(key, get).await?.unwrap_or_default();
        Ok(cells
            .into_iter()
            .filter(|c| c.family == family.as_bytes() && c.qualifier == qualifier)
            .map(|c| CellVersion {
                timestamp_ms: c.timestamp,
                value: c.value,
            })
            .collect())
    }

    /// Writes `value` to cell `family:qualifier` of row `key` as the version at
    /// `timestamp_ms` (an explicit timestamp: repeating it writes the same version again). A
    /// negative timestamp is refused, as HBase refuses it.
    async fn write_version(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        value: &[u8],
        timestamp_ms: i64,
    ) -> Result<(), NetError> {
        check_key(key)?;
        if timestamp_ms < 0 {
            return Err(NetError::Rejected {
                store: STORE,
                op: "Mutate",
                status: "IllegalArgumentException".into(),
                message: format!("Timestamp cannot be negative: {timestamp_ms}"),
                transient: false,
            });
        }
        let mutation = ops::put(key, [(family.as_bytes(), qualifier, value)], timestamp_ms);
        self.mutate(key, mutation).await
    }
}
