//! [`HbaseRpcConfig`]: where an [`AsyncHbaseRpcStore`](super::AsyncHbaseRpcStore) finds the
//! cluster, which table it holds, and its limits.

use std::fmt;
use std::sync::Arc;

use crate::store::{NetOptions, RetryPolicy};

/// Where to connect for a server the cluster names: maps the `host:port` a server advertises
/// (in the registry's answers and in `hbase:meta`) to the `host:port` to dial. For clusters the
/// client sees through address translation (NAT, port forwarding, a container network, a
/// proxy), where region servers advertise addresses it cannot reach; HBase's Java client has
/// no such hook (its users edit `/etc/hosts`). Applied to every connection, bootstrap servers
/// included; errors and region listings keep the advertised names.
#[derive(Clone)]
pub struct AddressMap(Arc<dyn Fn(&str) -> String + Send + Sync>);

impl AddressMap {
    /// A map that calls `f` with each advertised `host:port`.
    pub fn new(f: impl Fn(&str) -> String + Send + Sync + 'static) -> Self {
        AddressMap(Arc::new(f))
    }

    /// Where to dial for `advertised`.
    pub fn resolve(&self, advertised: &str) -> String {
        (self.0)(advertised)
    }
}

impl fmt::Debug for AddressMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AddressMap(..)")
    }
}

/// Where and how to connect; [`HbaseRpcConfig::new`] gives the defaults.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct HbaseRpcConfig {
    /// The servers that answer the connection registry (`ClientMetaService`), `host:port`
    /// each: the masters (RPC port, 16000 by default), or from HBase 2.6 also region servers
    /// (what `hbase.client.bootstrap.servers` lists). Tried in turn.
    pub bootstrap: Vec<String>,
    /// How often the registry is asked which servers answer it (`GetBootstrapNodes`, HBase
    /// 2.5+: the live region servers), as HBase's `hbase.client.bootstrap.refresh_interval_secs`
    /// (300 s by default): it is asked at first contact, then once per interval, and sooner
    /// (after a twelfth of it) when a server in the list did not answer. The servers learned
    /// are tried before `bootstrap`, so a client whose configured masters have left (replaced,
    /// failed over) still finds the cluster. `None`: only `bootstrap` is ever asked. Unused
    /// with ZooKeeper.
    pub bootstrap_refresh: Option<std::time::Duration>,
    /// The ZooKeeper quorum the cluster registers in, when it is found that way (as HBase's
    /// Java client does by default: `hbase.zookeeper.quorum`); then `bootstrap` is not used.
    pub zookeeper: Option<super::ZooKeeper>,
    /// The table, `name` or `namespace:name`.
    pub table: String,
    /// The column family that holds the values.
    pub family: String,
    /// Further column families, for rows of cells: `create_table` creates them beside
    /// `family`, and the schema check requires them.
    pub families: Vec<String>,
    /// The user the connections name (simple authentication; HBase's ACLs see this name).
    /// Unused with [`HbaseRpcConfig::kerberos`]: calls then run as the authenticated principal.
    pub user: String,
    /// Kerberos for a secured cluster (`hbase.security.authentication=kerberos`); `None`:
    /// simple authentication as [`HbaseRpcConfig::user`].
    #[cfg(feature = "kerberos")]
    pub kerberos: Option<crate::store::Kerberos>,
    /// TLS on every connection, for a cluster with HBase 2.6's
    /// `hbase.server.netty.tls.enabled`: each server's certificate is checked against the
    /// trusted roots and the host name the cluster advertises for it. `None`: plain TCP.
    /// A cluster that requires client certificates (`hbase.server.netty.tls.client.auth.mode`
    /// `NEED`) gets [`crate::store::Tls::identity`]'s.
    pub tls: Option<crate::store::Tls>,
    /// Where to dial for each server the cluster advertises (`None`: the advertised address).
    pub address_map: Option<AddressMap>,
    /// Where bulk loads stage their HFiles ([`Staging`](super::Staging): a directory on HDFS,
    /// or one the region servers can read and write at the same path): with it,
    /// [`Store::load`](crate::store::Store::load) (and `Table::bulk_load`) loads rows through
    /// HFiles ([`AsyncHbaseRpcStore::bulk_load`](super::AsyncHbaseRpcStore::bulk_load)) instead
    /// of a batch write. `None` (the default): a batch write.
    pub bulk_load_dir: Option<super::Staging>,
    /// A bulk load's HFiles are cut at this size (at a row boundary; default 1 GiB): a region's
    /// rows go into as many files as they fill, handed to the region in one call (all or none
    /// become visible). Smaller files are written in parallel and retried at less cost.
    pub bulk_file_bytes: u64,
    /// Retries, deadlines, page and batch sizes, the first-use check. Over HBase's RPC: scan
    /// pages of `page_rows` rows (the scanner's `caching`) and `page_bytes` bytes (its
    /// `max_result_size`); batches cut per region server into `Multi` calls of at most
    /// `batch_rows` rows and `batch_bytes` bytes, `batch_concurrency` calls in flight per
    /// server.
    pub options: NetOptions,
}

impl HbaseRpcConfig {
    /// Table `table` of the cluster whose registry answers at `bootstrap` (`host:port`, or
    /// several separated by commas), values in column family `family`.
    pub fn new(bootstrap: &str, table: &str, family: &str) -> Self {
        HbaseRpcConfig {
            bootstrap: bootstrap
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
            bootstrap_refresh: Some(std::time::Duration::from_secs(300)),
            zookeeper: None,
            table: table.into(),
            family: family.into(),
            families: Vec::new(),
            user: std::env::var("USER")
                .ok()
                .filter(|u| !u.is_empty())
                .unwrap_or_else(|| "rowkey".into()),
            tls: None,
            address_map: None,
            bulk_load_dir: None,
            bulk_file_bytes: 1 << 30,
            #[cfg(feature = "kerberos")]
            kerberos: None,
            options: NetOptions::new(),
        }
    }

    /// Table `table` of the cluster registered in the ZooKeeper quorum `quorum`
    /// (`zk1:2181,zk2:2181`; HBase's `hbase.zookeeper.quorum` with its client port, 2181 when a
    /// host has none) under `/hbase` ([`ZooKeeper::parent`](super::ZooKeeper::parent) for
    /// another `zookeeper.znode.parent`), values in column family `family`. The active master
    /// and `hbase:meta`'s server are read from ZooKeeper, and read again when the master fails
    /// over or meta moves.
    pub fn from_zookeeper(quorum: &str, table: &str, family: &str) -> Self {
        Self::new("", table, family).zookeeper(super::ZooKeeper::new(quorum))
    }

    /// How often the registry's servers are asked anew ([`HbaseRpcConfig::bootstrap_refresh`];
    /// `None`: never).
    pub fn bootstrap_refresh(mut self, every: Option<std::time::Duration>) -> Self {
        self.bootstrap_refresh = every;
        self
    }

    /// Finds the cluster through ZooKeeper ([`HbaseRpcConfig::zookeeper`]).
    pub fn zookeeper(mut self, zookeeper: super::ZooKeeper) -> Self {
        self.zookeeper = Some(zookeeper);
        self
    }

    /// Further column families ([`HbaseRpcConfig::families`]).
    pub fn families<F: Into<String>>(mut self, families: impl IntoIterator<Item = F>) -> Self {
        self.families = families.into_iter().map(Into::into).collect();
        self
    }

    /// Every family the table needs: `family`, then `families` (without repeats).
    pub(super) fn all_families(&self) -> Vec<String> {
        crate::store::net::all_families(&self.family, &self.families)
    }

    /// The user the connections name ([`HbaseRpcConfig::user`]).
    pub fn user(mut self, user: &str) -> Self {
        self.user = user.into();
        self
    }

    /// Authenticates with Kerberos ([`HbaseRpcConfig::kerberos`]).
    #[cfg(feature = "kerberos")]
    pub fn kerberos(mut self, kerberos: crate::store::Kerberos) -> Self {
        self.kerberos = Some(kerberos);
        self
    }

    /// Connects over TLS with this trust ([`HbaseRpcConfig::tls`]).
    pub fn tls(mut self, tls: crate::store::Tls) -> Self {
        self.tls = Some(tls);
        self
    }

    /// Dials the address `f` gives for each advertised server ([`AddressMap`]).
    pub fn address_map(mut self, f: impl Fn(&str) -> String + Send + Sync + 'static) -> Self {
        self.address_map = Some(AddressMap::new(f));
        self
    }

    /// Loads through HFiles staged in `dir` ([`HbaseRpcConfig::bulk_load_dir`]): a local
    /// path, or `hdfs://namenode:port/path` with the `hdfs` feature.
    pub fn bulk_load_dir(mut self, dir: impl Into<super::Staging>) -> Self {
        self.bulk_load_dir = Some(dir.into());
        self
    }

    /// Cuts bulk loads' HFiles at `bytes` ([`HbaseRpcConfig::bulk_file_bytes`]).
    pub fn bulk_file_bytes(mut self, bytes: u64) -> Self {
        self.bulk_file_bytes = bytes;
        self
    }

    /// Another retry policy (in [`HbaseRpcConfig::options`]).
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.options.retry = retry;
        self
    }

    /// Other options ([`HbaseRpcConfig::options`]).
    pub fn options(mut self, options: NetOptions) -> Self {
        self.options = options;
        self
    }
}
