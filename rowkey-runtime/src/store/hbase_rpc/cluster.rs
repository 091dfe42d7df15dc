//! The cluster as the client sees it: the connection registry (`ClientMetaService` on the
//! bootstrap servers: the active master, `hbase:meta`'s location), calls to any server with
//! HBase's exceptions sorted (`error.rs`), and where each row's region is (lookups in
//! `hbase:meta`, cached per table by start key).
//!
//! **Lookups.** A row's region is the `hbase:meta` row at or before `table,row,99999999999999`
//! (a reversed scan of one row; meta sorts its rows by table, then start key, then region id,
//! so this is the region with the greatest start key at or below the row). The region before a
//! row (for reversed scans) is the one at or before `table,row,00000000000000`, and the last
//! region is found from `table` followed by a zero byte, as HBase's Java client does.
//!
//! **The cache** maps start keys to regions. A region found replaces every cached region it
//! overlaps (the parent of a split, the regions of a merge); a call that meets
//! `NotServingRegionException` forgets that one region, `RegionMovedException` moves it to the
//! server it names, and a server whose connection fails is forgotten with all its regions.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::{BufMut, Bytes, BytesMut};
use prost::Message;

use super::conn::{Pool, Service};
use super::error::{self, Failure};
use super::pb;
use super::wire::{self, Cell, CellReader, Reply};
use crate::store::{NetError, NetOptions};

tokio::task_local! {
    /// The deadline of the attempt the current task runs: every step of it (a lookup in
    /// `hbase:meta`, a new connection, the call) ends by then, so an attempt costs one
    /// `attempt_timeout`, not one per step.
    static DEADLINE: std::time::Instant;
}

/// Runs `attempt` with one deadline for all its steps, `timeout` from now (or the deadline it
/// runs under already, when that is sooner).
pub(crate) async fn within<F: std::future::Future>(timeout: Duration, attempt: F) -> F::Output {
    let mut deadline = std::time::Instant::now() + timeout;
    if let Ok(outer) = DEADLINE.try_with(|d| *d) {
        deadline = deadline.min(outer);
    }
    DEADLINE.scope(deadline, attempt).await
}

/// What is left of the current attempt's deadline for a step whose own limit is `step` (all of
/// it outside an attempt).
pub(crate) fn remaining(step: Duration) -> Duration {
    DEADLINE
        .try_with(|d| d.saturating_duration_since(std::time::Instant::now()))
        .map_or(step, |left| left.min(step))
}

/// Where one region is: its name (the `RegionSpecifier` calls carry), key range and server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RegionLoc {
    pub(crate) name: Bytes,
    pub(crate) start: Bytes,
    /// Exclusive; empty for the table's last region.
    pub(crate) end: Bytes,
    /// `host:port`.
    pub(crate) server: String,
    /// The region's id (its creation time).
    pub(crate) id: u64,
    /// Whether `server` comes from a `RegionMovedException`'s hint rather than `hbase:meta`.
    pub(crate) hinted: bool,
}

impl RegionLoc {
    pub(crate) fn contains(&self, row: &[u8]) -> bool {
        row >= &self.start[..] && (self.end.is_empty() || row < &self.end[..])
    }

    pub(crate) fn specifier(&self) -> pb::RegionSpecifier {
        pb::RegionSpecifier {
            r#type: pb::region_specifier::RegionSpecifierType::RegionName as i32,
            value: self.name.clone(),
        }
    }

    pub(crate) fn is_last(&self) -> bool {
        self.end.is_empty()
    }
}

/// Which region a lookup wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Locate {
    /// The region holding the row.
    At,
    /// The region holding the greatest key below the row (an empty row: the last region).
    Before,
}

/// The regions of one table found so far, by start key.
#[derive(Default)]
pub(crate) struct RegionCache {
    regions: Mutex<BTreeMap<Bytes, Arc<RegionLoc>>>,
}

impl RegionCache {
    pub(crate) fn find(&self, row: &[u8], how: Locate) -> Option<Arc<RegionLoc>> {
        let map = self.regions.lock().ok()?;
        match how {
            Locate::At => {
                let (_, r) = map
                    .range::<[u8], _>((Bound::Unbounded, Bound::Included(row)))
                    .next_back()?;
                r.contains(row).then(|| r.clone())
            }
            Locate::Before if row.is_empty() => {
                let (_, r) = map.iter().next_back()?;
                r.is_last().then(|| r.clone())
            }
            Locate::Before => {
                let (_, r) = map
                    .range::<[u8], _>((Bound::Unbounded, Bound::Excluded(row)))
                    .next_back()?;
                (r.is_last() || row <= &r.end[..]).then(|| r.clone())
            }
        }
    }

    /// Adds `loc`, replacing the regions it overlaps.
    fn insert(&self, loc: Arc<RegionLoc>) {
        let Ok(mut map) = self.regions.lock() else {
            return;
        };
        let overlapping: Vec<Bytes> = map
            .iter()
            .filter(|(_, r)| {
                let starts_before_end = loc.end.is_empty() || r.start < loc.end;
                let ends_after_start = r.end.is_empty() || r.end > loc.start;
                starts_before_end && ends_after_start
            })
            .map(|(k, _)| k.clone())
            .collect();
        for k in overlapping {
            map.remove(&k);
        }
        map.insert(loc.start.clone(), loc);
    }

    /// Forgets `loc` (if the cache still holds that region).
    pub(crate) fn forget(&self, loc: &RegionLoc) {
        if let Ok(mut map) = self.regions.lock() {
            if map.get(&loc.start).is_some_and(|r| r.name == loc.name) {
                map.remove(&loc.start);
            }
        }
    }

    /// `loc` now lives on `server`.
    ///
    /// One hint is followed; a region that is "moved" again from the server its hint named is
    /// looked up in `hbase:meta` instead. Servers remember regions that moved away for a while,
    /// and a region moved and then split answers from both servers that it moved to the other
    /// (as seen in `tests/hbase_rpc.rs`): following every hint would bounce between them.
    pub(crate) fn moved(&self, loc: &RegionLoc, server: String) {
        if let Ok(mut map) = self.regions.lock() {
            if let Some(r) = map.get_mut(&loc.start) {
                if r.name == loc.name {
                    if r.hinted {
                        map.remove(&loc.start);
                    } else {
                        *r = Arc::new(RegionLoc {
                            server,
                            hinted: true,
                            ..(**r).clone()
                        });
                    }
                }
            }
        }
    }

    /// Forgets every region on `server`.
    pub(crate) fn forget_server(&self, server: &str) {
        if let Ok(mut map) = self.regions.lock() {
            map.retain(|_, r| r.server != server);
        }
    }

    /// Forgets everything (a table dropped and created again).
    pub(crate) fn clear(&self) {
        if let Ok(mut map) = self.regions.lock() {
            map.clear();
        }
    }
}

/// The servers that answer the connection registry: those configured, and those the registry
/// named when last asked (`GetBootstrapNodes`, HBase 2.5+: the live region servers), so that a
/// client whose configured masters or servers have left still finds the cluster.
struct Bootstrap {
    configured: Vec<String>,
    learned: Vec<String>,
    /// When the registry was last asked for its nodes (or the asking failed); `None`: never.
    asked: Option<std::time::Instant>,
}

impl Bootstrap {
    /// The servers to try: the learned ones first (they were live when asked), then the
    /// configured ones not among them.
    fn nodes(&self) -> Vec<String> {
        let mut nodes = self.learned.clone();
        nodes.extend(
            self.configured
                .iter()
                .filter(|c| !self.learned.contains(c))
                .cloned(),
        );
        nodes
    }
}

/// The connections and what the cluster told the client about itself.
pub(crate) struct Cluster {
    pub(crate) pool: Pool,
    bootstrap: Mutex<Bootstrap>,
    next_bootstrap: AtomicUsize,
    /// How often the bootstrap servers are asked anew (`None`: never).
    bootstrap_refresh: Option<Duration>,
    /// The ZooKeeper registry, when the cluster is found through ZooKeeper (then the
    /// bootstrap servers are not asked).
    zookeeper: Option<super::zk::ZkRegistry>,
    pub(crate) options: NetOptions,
    meta: Mutex<Option<Arc<RegionLoc>>>,
    master: Mutex<Option<String>>,
}

const META_TABLE: &str = "hbase:meta";

impl Cluster {
    pub(crate) fn new(
        pool: Pool,
        bootstrap: Vec<String>,
        bootstrap_refresh: Option<Duration>,
        zookeeper: Option<super::zk::ZkRegistry>,
        options: NetOptions,
    ) -> Self {
        Cluster {
            pool,
            bootstrap: Mutex::new(Bootstrap {
                configured: bootstrap,
                learned: Vec::new(),
                asked: None,
            }),
            next_bootstrap: AtomicUsize::new(0),
            bootstrap_refresh,
            zookeeper,
            options,
            meta: Mutex::new(None),
            master: Mutex::new(None),
        }
    }

    /// One call: `method` with `request` on `addr`'s `service`, within the attempt deadline;
    /// a failed connection is dropped.
    pub(crate) async fn call(
        &self,
        addr: &str,
        service: Service,
        op: &'static str,
        table: &str,
        request: &impl Message,
    ) -> Result<Reply, Failure> {
        self.call_with_cells(addr, service, op, table, request, &[])
            .await
    }

    /// [`call`](Self::call) with a cell block after the request (mutations whose cells it
    /// holds).
    pub(crate) async fn call_with_cells(
        &self,
        addr: &str,
        service: Service,
        op: &'static str,
        table: &str,
        request: &impl Message,
        cells: &[u8],
    ) -> Result<Reply, Failure> {
        // The attempt's deadline, shared with the steps before this call.
        let timeout = remaining(self.options.retry.attempt_timeout);
        if timeout.is_zero() {
            // The attempt's deadline passed in an earlier step: nothing is sent.
            return Err(error::conn(
                op,
                super::conn::ConnError::Timeout(self.options.retry.attempt_timeout),
            ));
        }
        let result = async {
            let conn = self
                .pool
                .get(addr, service)
                .await
                .map_err(|e| error::conn(op, e))?;
            conn.call(op, request, cells, timeout)
                .await
                .map_err(|e| error::conn(op, e))
        }
        .await;
        let reply = match result {
            Ok(r) => r,
            Err(f) => {
                if f.server_gone() {
                    self.pool.drop_server(addr, "a call on it failed");
                }
                return Err(f);
            }
        };
        match &reply.header.exception {
            Some(e) => {
                let f = error::remote(op, table, e);
                if matches!(f, Failure::Server(_)) {
                    self.pool.drop_server(addr, "the server is stopping");
                }
                Err(f)
            }
            None => Ok(reply),
        }
    }

    /// A registry call on the bootstrap servers, each tried in turn.
    async fn registry<Resp: Message + Default>(
        &self,
        op: &'static str,
        request: &impl Message,
    ) -> Result<Resp, Failure> {
        let nodes = self.bootstrap.lock().map(|b| b.nodes()).unwrap_or_default();
        let n = nodes.len();
        if n == 0 {
            return Err(Failure::Other(NetError::Connect {
                store: error::STORE,
                message: "no bootstrap servers are configured".into(),
            }));
        }
        let first = self.next_bootstrap.load(Ordering::Relaxed);
        let mut last = None;
        for i in 0..n {
            let addr = &nodes[(first + i) % n];
            match self.call(addr, Service::ClientMeta, op, "", request).await {
                Ok(reply) => {
                    self.next_bootstrap
                        .store((first + i) % n, Ordering::Relaxed);
                    // A server that did not answer may have left for good: ask the one that
                    // did which servers answer now (as when the refresh interval has passed).
                    self.refresh_bootstrap(addr, i > 0).await;
                    return Resp::decode(reply.body).map_err(|e| error::decode(op, e));
                }
                Err(f) => last = Some(f),
            }
        }
        Err(last.unwrap_or_else(|| Failure::Other(error::protocol("no registry answered"))))
    }

    /// Asks `addr` which servers answer the registry (`GetBootstrapNodes`) when the refresh
    /// interval has passed since it was last asked, or `failed` (a server did not answer) and a
    /// twelfth of it has (HBase's 60 s of 300). An older HBase without the call, or any
    /// failure, keeps the list as it is; the store's call goes on either way.
    async fn refresh_bootstrap(&self, addr: &str, failed: bool) {
        let Some(interval) = self.bootstrap_refresh else {
            return;
        };
        let now = std::time::Instant::now();
        {
            let Ok(mut b) = self.bootstrap.lock() else {
                return;
            };
            let due = match b.asked {
                None => true,
                Some(at) => {
                    let since = now.saturating_duration_since(at);
                    since >= interval || (failed && since >= interval / 12)
                }
            };
            if !due {
                return;
            }
            // Claimed: concurrent calls do not ask too.
            b.asked = Some(now);
        }
        // Bounded by the connect timeout (and by the attempt it runs in, if any): a server
        // that does not answer costs a refresh, not the call.
        let asked = within(
            self.options.connect_timeout,
            self.call(
                addr,
                Service::ClientMeta,
                "GetBootstrapNodes",
                "",
                &pb::GetBootstrapNodesRequest {},
            ),
        )
        .await
        .ok()
        .and_then(|reply| pb::GetBootstrapNodesResponse::decode(reply.body).ok());
        if let Some(resp) = asked {
            let learned: Vec<String> = resp.server_name.iter().map(host_port).collect();
            if !learned.is_empty() {
                if let Ok(mut b) = self.bootstrap.lock() {
                    b.learned = learned;
                }
            }
        }
    }

    /// Asks the registry for its servers when the refresh interval has passed, from the server
    /// that last answered: a client whose caches spare it the registry for hours still learns
    /// of servers that came and went. Nothing to do on a cluster found through ZooKeeper.
    pub(crate) async fn refresh_bootstrap_if_due(&self) {
        if self.zookeeper.is_some() {
            return;
        }
        let Some(interval) = self.bootstrap_refresh else {
            return;
        };
        let nodes = match self.bootstrap.lock() {
            Ok(b) if b.asked.is_some_and(|at| at.elapsed() >= interval) => b.nodes(),
            _ => return,
        };
        if nodes.is_empty() {
            return;
        }
        let addr = &nodes[self.next_bootstrap.load(Ordering::Relaxed) % nodes.len()];
        self.refresh_bootstrap(addr, false).await;
    }

    /// The active master's `host:port`.
    pub(crate) async fn master(&self) -> Result<String, Failure> {
        if let Some(m) = self.master.lock().ok().and_then(|m| m.clone()) {
            return Ok(m);
        }
        let server = match &self.zookeeper {
            Some(zk) => zk.master().await?,
            None => {
                let resp: pb::GetActiveMasterResponse = self
                    .registry("GetActiveMaster", &pb::GetActiveMasterRequest {})
                    .await?;
                resp.server_name.ok_or_else(|| {
                    Failure::Backoff(error::protocol("the registry knows no active master"))
                })?
            }
        };
        let addr = host_port(&server);
        if let Ok(mut m) = self.master.lock() {
            *m = Some(addr.clone());
        }
        Ok(addr)
    }

    /// Forgets the master (it failed or stepped down).
    pub(crate) fn forget_master(&self) {
        if let Ok(mut m) = self.master.lock() {
            *m = None;
        }
    }

    /// The cluster id (a cheap call that proves the registry answers).
    pub(crate) async fn cluster_id(&self) -> Result<String, Failure> {
        if let Some(zk) = &self.zookeeper {
            return zk.cluster_id().await;
        }
        let resp: pb::GetClusterIdResponse = self
            .registry("GetClusterId", &pb::GetClusterIdRequest {})
            .await?;
        Ok(resp.cluster_id.unwrap_or_default())
    }

    /// Where `hbase:meta` is (its primary replica).
    async fn meta_location(&self) -> Result<Arc<RegionLoc>, Failure> {
        if let Some(m) = self.meta.lock().ok().and_then(|m| m.clone()) {
            return Ok(m);
        }
        if let Some(zk) = &self.zookeeper {
            // ZooKeeper names meta's server; the region is HBase's first meta region,
            // `hbase:meta,,1`, whose bounds are the whole table space of `hbase:meta`.
            let server = zk.meta().await?;
            let loc = Arc::new(RegionLoc {
                name: Bytes::from_static(b"hbase:meta,,1"),
                start: Bytes::new(),
                end: Bytes::new(),
                server: host_port(&server),
                id: 1,
                hinted: false,
            });
            if let Ok(mut m) = self.meta.lock() {
                *m = Some(loc.clone());
            }
            return Ok(loc);
        }
        let resp: pb::GetMetaRegionLocationsResponse = self
            .registry(
                "GetMetaRegionLocations",
                &pb::GetMetaRegionLocationsRequest {},
            )
            .await?;
        let primary = resp
            .meta_locations
            .iter()
            .find(|l| l.region_info.replica_id.unwrap_or(0) == 0)
            .ok_or_else(|| Failure::Backoff(error::protocol("hbase:meta has no location yet")))?;
        let server = primary
            .server_name
            .as_ref()
            .ok_or_else(|| Failure::Backoff(error::protocol("hbase:meta is not assigned yet")))?;
        let info = &primary.region_info;
        let loc = Arc::new(RegionLoc {
            name: old_style_region_name(info),
            start: info.start_key.clone().unwrap_or_default(),
            end: info.end_key.clone().unwrap_or_default(),
            server: host_port(server),
            id: info.region_id,
            hinted: false,
        });
        if let Ok(mut m) = self.meta.lock() {
            *m = Some(loc.clone());
        }
        Ok(loc)
    }

    fn forget_meta(&self) {
        if let Ok(mut m) = self.meta.lock() {
            *m = None;
        }
    }

    /// Scans `hbase:meta` (one call: open, read `rows`, close), from `start` down (reversed)
    /// or up to `stop`; the rows' cells.
    async fn scan_meta(
        &self,
        start: Bytes,
        stop: Bytes,
        reversed: bool,
        rows: u32,
    ) -> Result<Vec<Vec<Cell>>, Failure> {
        let meta = self.meta_location().await?;
        let request = pb::ScanRequest {
            region: Some(meta.specifier()),
            scan: Some(pb::Scan {
                column: vec![pb::Column {
                    family: Bytes::from_static(b"info"),
                    qualifier: Vec::new(),
                }],
                start_row: Some(start),
                stop_row: Some(stop),
                include_stop_row: Some(reversed),
                reversed: Some(reversed),
                caching: Some(rows),
                ..Default::default()
            }),
            number_of_rows: Some(rows),
            close_scanner: Some(true),
            limit_of_rows: Some(rows),
            ..Default::default()
        };
        let reply = match self
            .call(&meta.server, Service::Client, "Scan", META_TABLE, &request)
            .await
        {
            Ok(r) => r,
            Err(f) => {
                if matches!(f, Failure::Relocate { .. }) || f.server_gone() {
                    self.forget_meta();
                }
                return Err(f);
            }
        };
        let resp =
            pb::ScanResponse::decode(reply.body.clone()).map_err(|e| error::decode("Scan", e))?;
        scan_results(&resp, reply.cells).map_err(|m| Failure::Other(error::protocol(m)))
    }

    /// Looks up in `hbase:meta` the region of `table` that `how` and `row` describe.
    pub(crate) async fn lookup(
        &self,
        table: &str,
        row: &[u8],
        how: Locate,
    ) -> Result<Arc<RegionLoc>, Failure> {
        let table = meta_table_name(table);
        let search = match (how, row.is_empty()) {
            (Locate::Before, true) => {
                let mut k = BytesMut::from(table.as_bytes());
                k.put_u8(0);
                k.freeze()
            }
            (Locate::Before, false) => region_name(table, row, b"00000000000000"),
            (Locate::At, _) => region_name(table, row, b"99999999999999"),
        };
        let stop = region_name(table, b"", b"");
        let rows = self.scan_meta(search, stop, true, 1).await?;
        let Some(cells) = rows.into_iter().next() else {
            return Err(Failure::Other(NetError::MissingTable {
                store: error::STORE,
                table: table.to_string(),
            }));
        };
        let loc = parse_meta_row(&cells)?;
        let (info, server) = loc;
        if meta_table_name(&info.table) != table {
            return Err(Failure::Other(NetError::MissingTable {
                store: error::STORE,
                table: table.to_string(),
            }));
        }
        if info.offline {
            return Err(Failure::Backoff(error::protocol(format!(
                "region {} is offline (split or in transition)",
                String::from_utf8_lossy(&info.loc.name)
            ))));
        }
        let Some(server) = server else {
            return Err(Failure::Backoff(NetError::Server {
                store: error::STORE,
                op: "locate",
                status: "NoServerForRegionException".into(),
                message: format!(
                    "region {} has no server (in transition, or the table is disabled)",
                    String::from_utf8_lossy(&info.loc.name)
                ),
                transient: true,
            }));
        };
        let loc = Arc::new(RegionLoc { server, ..info.loc });
        let wanted = match how {
            Locate::At => loc.contains(row),
            Locate::Before if row.is_empty() => loc.is_last(),
            Locate::Before => loc.start[..] < *row && (loc.is_last() || row <= &loc.end[..]),
        };
        if !wanted {
            // A hole in meta while regions change: look again shortly.
            return Err(Failure::Backoff(error::protocol(format!(
                "hbase:meta has no region of {table} for this row yet"
            ))));
        }
        Ok(loc)
    }

    /// The region `how` and `row` describe: from `cache`, or looked up and cached.
    pub(crate) async fn locate(
        &self,
        cache: &RegionCache,
        table: &str,
        row: &[u8],
        how: Locate,
    ) -> Result<Arc<RegionLoc>, Failure> {
        if let Some(loc) = cache.find(row, how) {
            return Ok(loc);
        }
        let loc = self.lookup(table, row, how).await?;
        cache.insert(loc.clone());
        Ok(loc)
    }

    /// Every region of `table`, in key order, from `hbase:meta` (regions without a server
    /// included, with an empty server).
    pub(crate) async fn all_regions(&self, table: &str) -> Result<Vec<RegionLoc>, Failure> {
        let table = meta_table_name(table);
        let mut out: Vec<RegionLoc> = Vec::new();
        let mut start = region_name(table, b"", b"");
        // Rows of this table sort before `table` followed by a zero byte (see `lookup`).
        let mut stop = BytesMut::from(table.as_bytes());
        stop.put_u8(0);
        let stop = stop.freeze();
        loop {
            let rows = self
                .scan_meta(start.clone(), stop.clone(), false, 1000)
                .await?;
            let n = rows.len();
            for cells in rows {
                let (info, server) = parse_meta_row(&cells)?;
                let name = info.loc.name.clone();
                if !info.offline && meta_table_name(&info.table) == table {
                    out.push(RegionLoc {
                        server: server.unwrap_or_default(),
                        ..info.loc
                    });
                }
                let mut next = BytesMut::from(&name[..]);
                next.put_u8(0);
                start = next.freeze();
            }
            if n < 1000 {
                break;
            }
        }
        if out.is_empty() {
            return Err(Failure::Other(NetError::MissingTable {
                store: error::STORE,
                table: table.to_string(),
            }));
        }
        Ok(out)
    }
}

/// A table's name as meta spells it: `name` in the default namespace, `ns:name` otherwise.
pub(crate) fn meta_table_name(table: &str) -> &str {
    table.strip_prefix("default:").unwrap_or(table)
}

/// `table,row,id`: a region name, or a meta search key.
fn region_name(table: &str, row: &[u8], id: &[u8]) -> Bytes {
    let mut k = BytesMut::with_capacity(table.len() + row.len() + id.len() + 2);
    k.put_slice(table.as_bytes());
    k.put_u8(b',');
    k.put_slice(row);
    k.put_u8(b',');
    k.put_slice(id);
    k.freeze()
}

/// The name of a region HBase names the old way (`hbase:meta,,1`: no encoded suffix).
fn old_style_region_name(info: &pb::RegionInfo) -> Bytes {
    let table = table_string(&info.table_name);
    let mut name = region_name(
        &table,
        info.start_key.as_deref().unwrap_or_default(),
        info.region_id.to_string().as_bytes(),
    )
    .to_vec();
    if let Some(replica) = info.replica_id.filter(|r| *r > 0) {
        name.extend_from_slice(format!("_{replica:04X}").as_bytes());
    }
    Bytes::from(name)
}

fn table_string(t: &pb::TableName) -> String {
    let ns = String::from_utf8_lossy(&t.namespace);
    let q = String::from_utf8_lossy(&t.qualifier);
    if ns == "default" {
        q.into_owned()
    } else {
        format!("{ns}:{q}")
    }
}

fn host_port(s: &pb::ServerName) -> String {
    format!("{}:{}", s.host_name, s.port.unwrap_or(16020))
}

/// A region as one `hbase:meta` row describes it.
struct MetaRow {
    loc: RegionLoc,
    table: String,
    offline: bool,
}

/// Reads a meta row: `info:regioninfo` (`PBUF` and a `RegionInfo`) and `info:server`.
fn parse_meta_row(cells: &[Cell]) -> Result<(MetaRow, Option<String>), Failure> {
    let bad = |m: String| Failure::Other(error::protocol(m));
    let mut info = None;
    let mut server = None;
    for c in cells {
        match &c.qualifier[..] {
            b"regioninfo" => {
                let v = &c.value;
                if v.len() < 4 || &v[..4] != b"PBUF" {
                    return Err(bad(format!(
                        "hbase:meta row {} has a regioninfo without the PBUF magic",
                        String::from_utf8_lossy(&c.row)
                    )));
                }
                let ri = pb::RegionInfo::decode(v.slice(4..))
                    .map_err(|e| bad(format!("a regioninfo does not decode: {e}")))?;
                info = Some(MetaRow {
                    table: table_string(&ri.table_name),
                    offline: ri.offline() || ri.split(),
                    loc: RegionLoc {
                        name: c.row.clone(),
                        start: ri.start_key.unwrap_or_default(),
                        end: ri.end_key.unwrap_or_default(),
                        server: String::new(),
                        id: ri.region_id,
                        hinted: false,
                    },
                });
            }
            b"server" if !c.value.is_empty() => {
                server = Some(String::from_utf8_lossy(&c.value).into_owned());
            }
            _ => {}
        }
    }
    let info = info.ok_or_else(|| bad("an hbase:meta row without regioninfo".into()))?;
    Ok((info, server))
}

/// The rows of a scan reply: from its cell block (`cells_per_result`) or inline.
pub(crate) fn scan_results(
    resp: &pb::ScanResponse,
    cells: Bytes,
) -> Result<Vec<Vec<Cell>>, String> {
    if !resp.cells_per_result.is_empty() {
        let mut reader = CellReader::new(cells);
        return resp
            .cells_per_result
            .iter()
            .map(|&n| reader.take(n as usize))
            .collect();
    }
    Ok(resp.results.iter().map(wire::inline_cells).collect())
}

/// Pauses before retry `n` of a region-level failure (a region moving or opening): from 100 ms
/// up to 2 s, so a move or split of a few seconds is waited out.
pub(crate) fn region_backoff(n: u32) -> Duration {
    Duration::from_millis((100u64 << n.min(5).saturating_sub(1)).min(2000))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loc(start: &[u8], end: &[u8], name: &str) -> Arc<RegionLoc> {
        Arc::new(RegionLoc {
            name: Bytes::from(name.to_string()),
            start: Bytes::copy_from_slice(start),
            end: Bytes::copy_from_slice(end),
            server: "s1:1".into(),
            id: 1,
            hinted: false,
        })
    }

    #[test]
    fn the_cache_finds_the_region_at_or_before_a_row() {
        let cache = RegionCache::default();
        cache.insert(loc(b"", b"g", "a"));
        cache.insert(loc(b"g", b"p", "b"));
        cache.insert(loc(b"p", b"", "c"));
        let at = |row: &[u8]| cache.find(row, Locate::At).map(|r| r.name.clone());
        let before = |row: &[u8]| cache.find(row, Locate::Before).map(|r| r.name.clone());
        assert_eq!(at(b""), Some(Bytes::from("a")));
        assert_eq!(at(b"g"), Some(Bytes::from("b")));
        assert_eq!(at(b"zz"), Some(Bytes::from("c")));
        assert_eq!(
            before(b"g"),
            Some(Bytes::from("a")),
            "the key just below g is in a"
        );
        assert_eq!(before(b"h"), Some(Bytes::from("b")));
        assert_eq!(
            before(b""),
            Some(Bytes::from("c")),
            "empty: the last region"
        );
        assert_eq!(before(b"\0"), Some(Bytes::from("a")));

        // A split's daughter replaces its parent; the other half is unknown until looked up.
        cache.insert(loc(b"g", b"k", "b1"));
        assert_eq!(at(b"h"), Some(Bytes::from("b1")));
        assert_eq!(at(b"m"), None);
        // A merge replaces both halves.
        cache.insert(loc(b"", b"p", "ab"));
        assert_eq!(at(b"h"), Some(Bytes::from("ab")));
        assert_eq!(at(b"a"), Some(Bytes::from("ab")));

        let ab = cache.find(b"a", Locate::At).unwrap();
        cache.moved(&ab, "s2:2".into());
        let hinted = cache.find(b"a", Locate::At).unwrap();
        assert_eq!(hinted.server, "s2:2");
        // A second hint for the same region is not followed: meta is asked again.
        cache.moved(&hinted, "s1:1".into());
        assert_eq!(at(b"a"), None);
        cache.insert(ab.clone());
        cache.moved(&ab, "s2:2".into());
        cache.forget_server("s2:2");
        assert_eq!(at(b"a"), None);
        assert_eq!(at(b"q"), Some(Bytes::from("c")));
        let c = cache.find(b"q", Locate::At).unwrap();
        cache.forget(&c);
        assert_eq!(at(b"q"), None);
    }

    #[test]
    fn region_names_and_meta_keys() {
        assert_eq!(&region_name("t", b"k", b"99")[..], b"t,k,99");
        assert_eq!(meta_table_name("default:t"), "t");
        assert_eq!(meta_table_name("ns:t"), "ns:t");
        let info = pb::RegionInfo {
            region_id: 1,
            table_name: pb::TableName {
                namespace: Bytes::from_static(b"hbase"),
                qualifier: Bytes::from_static(b"meta"),
            },
            ..Default::default()
        };
        assert_eq!(&old_style_region_name(&info)[..], b"hbase:meta,,1");
    }
}
