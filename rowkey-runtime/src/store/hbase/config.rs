//! [`HbaseConfig`]: where and how an [`AsyncHbaseStore`](super::AsyncHbaseStore) connects
//! (the Thrift2 gateway), and its limits.

use crate::store::{NetOptions, RetryPolicy};

/// Where and how to connect; [`HbaseConfig::new`] gives the defaults.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct HbaseConfig {
    /// The Thrift2 gateway: `host:port`, or for a gateway in HTTP mode
    /// (`hbase.regionserver.thrift.http`, with the `hbase-http` feature) its URL,
    /// `http://host:port/` or `https://host:port/` (TLS, the gateway's
    /// `hbase.thrift.ssl.enabled`).
    pub address: String,
    /// The table, `name` or `namespace:name`.
    pub table: String,
    /// The column family that holds the values.
    pub family: String,
    /// Whether the gateway uses framed transport (`-f`, and always with `-hsha`,
    /// `-nonblocking` or `-threadedselector`); `hbase thrift2 start` alone is unframed.
    pub framed: bool,
    /// Connections to the gateway at most (each carries one call at a time). 16 by default:
    /// a stock gateway's thread-pool server has 16 core workers (`hbase.thrift.minWorkerThreads`)
    /// and gives each connection one for its life, so a 17th connection waits unanswered until
    /// another closes. Raise it together with the gateway's `hbase.thrift.minWorkerThreads`.
    pub max_connections: usize,
    /// Retries, deadlines, page and batch sizes, the first-use check: the fields every network
    /// store shares. Through the Thrift2 gateway: pages (`getScannerRows`, and the scanner's
    /// `caching`) and `putMultiple` calls of 5,000 rows, calls of at most 1 MiB (under a framed
    /// gateway's frame limit, 2 MiB unless configured); pages have no byte limit.
    pub options: NetOptions,
    /// Further column families, for rows of cells ([`CellTable`](crate::store::CellTable)):
    /// `create_table` creates them beside `family`, and the schema check requires them. A
    /// value type's are `V::SCHEMA.families()`.
    pub families: Vec<String>,
    /// Kerberos, for a gateway with `hbase.thrift.security.qop` set: SASL on a socket (the
    /// thread-pool server, unframed), SPNEGO on every request to an HTTP gateway (its
    /// principal `HTTP/host`, see [`Kerberos::http_service`](crate::store::Kerberos::http_service));
    /// `None`: no authentication.
    #[cfg(feature = "kerberos")]
    pub kerberos: Option<crate::store::Kerberos>,
    /// Which certificates an `https://` gateway may present (`None`: the system's root
    /// certificates, the URL's host); refused with any other address.
    #[cfg(feature = "hbase-http")]
    pub tls: Option<crate::store::Tls>,
    /// An HTTP proxy between this client and an HTTP gateway: each connection a `CONNECT`
    /// tunnel through it ([`HttpProxy`](crate::store::HttpProxy); `HttpProxy::from_env` reads
    /// `HTTPS_PROXY` and `NO_PROXY`). `None`: connect directly. Refused with a `host:port`
    /// address.
    #[cfg(feature = "hbase-http")]
    pub proxy: Option<crate::store::HttpProxy>,
    /// The user every call acts as at an HTTP gateway with proxy users
    /// (`hbase.thrift.support.proxyuser`): sent as the `doAs` header, the gateway checks that
    /// the authenticated user may impersonate it (`hadoop.proxyuser.<user>.*`) and calls
    /// HBase as it, so HBase's permissions are that user's. `None`: the authenticated user.
    /// Refused with a `host:port` address (impersonation is an HTTP gateway's).
    #[cfg(feature = "hbase-http")]
    pub do_as: Option<String>,
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
            max_connections: 16,
            options: NetOptions::new(),
            families: Vec::new(),
            #[cfg(feature = "kerberos")]
            kerberos: None,
            #[cfg(feature = "hbase-http")]
            tls: None,
            #[cfg(feature = "hbase-http")]
            proxy: None,
            #[cfg(feature = "hbase-http")]
            do_as: None,
        }
    }

    /// The trust for an `https://` gateway ([`HbaseConfig::tls`]).
    #[cfg(feature = "hbase-http")]
    pub fn tls(mut self, tls: crate::store::Tls) -> Self {
        self.tls = Some(tls);
        self
    }

    /// Connects through an HTTP proxy ([`HbaseConfig::proxy`]).
    #[cfg(feature = "hbase-http")]
    pub fn proxy(mut self, proxy: crate::store::HttpProxy) -> Self {
        self.proxy = Some(proxy);
        self
    }

    /// Acts as `user` at a gateway with proxy users ([`HbaseConfig::do_as`]).
    #[cfg(feature = "hbase-http")]
    pub fn do_as(mut self, user: &str) -> Self {
        self.do_as = Some(user.into());
        self
    }

    /// Authenticates with Kerberos ([`HbaseConfig::kerberos`]).
    #[cfg(feature = "kerberos")]
    pub fn kerberos(mut self, kerberos: crate::store::Kerberos) -> Self {
        self.kerberos = Some(kerberos);
        self
    }

    /// Further column families ([`HbaseConfig::families`]).
    pub fn families<F: Into<String>>(mut self, families: impl IntoIterator<Item = F>) -> Self {
        self.families = families.into_iter().map(Into::into).collect();
        self
    }

    /// Every family the table needs: `family`, then `families` (without repeats).
    pub(super) fn all_families(&self) -> Vec<String> {
        crate::store::net::all_families(&self.family, &self.families)
    }

    /// Framed transport (see [`HbaseConfig::framed`]).
    pub fn framed(mut self, framed: bool) -> Self {
        self.framed = framed;
        self
    }

    /// Another retry policy (in [`HbaseConfig::options`]).
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.options.retry = retry;
        self
    }

    /// Other options ([`HbaseConfig::options`]).
    pub fn options(mut self, options: NetOptions) -> Self {
        self.options = options;
        self
    }
}
