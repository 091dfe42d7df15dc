//! Finding a cluster through ZooKeeper, as HBase's Java client's default registry
//! (`ZKConnectionRegistry`) does: the active master, `hbase:meta`'s server and the cluster id
//! are the znodes `master`, `meta-region-server` and `hbaseid` under `zookeeper.znode.parent`
//! (`/hbase` by default), each HBase's record format: an optional metadata header (`ff`, a
//! 4-byte big-endian length, the writer's id), then `PBUF` and a protobuf message (`Master`,
//! `MetaRegionServer`, `ClusterId`: `ZooKeeper.proto` and `ClusterId.proto` in
//! `hbase-protocol-shaded`). The znodes are read again whenever the cluster forgets what they
//! said (the master failed, meta moved), so a failover or a move is followed.
//!
//! The ZooKeeper client is `zookeeper-client` (async, on the store's tokio runtime), one
//! session per store, opened on first use and again after it fails. Reads are anonymous unless
//! [`ZooKeeper::sasl`] asks for Kerberos (feature `kerberos`): then the session authenticates
//! with SASL `GSSAPI` as the store's own login, on a thread of its own whose default ticket
//! cache is that login's (the SASL library takes the default credential only). A ZooKeeper
//! whose HBase znodes are ACL-protected is named in the error, with the ways around it.

use std::time::Duration;

use prost::Message;

use super::error::{Failure, STORE};
use super::pb;
use crate::store::NetError;

/// Where the cluster registers itself in ZooKeeper: the quorum (`host:port`, comma-separated;
/// HBase's `hbase.zookeeper.quorum` with `hbase.zookeeper.property.clientPort`), the parent
/// znode (`zookeeper.znode.parent`), and whether to authenticate with Kerberos.
///
/// ```
/// # use rowkey::store::ZooKeeper;
/// let zk = ZooKeeper::new("zk1,zk2,zk3").parent("/hbase-secure");
/// # #[cfg(feature = "kerberos")]
/// let zk = zk.sasl(); // a secured ZooKeeper whose HBase znodes are not world-readable
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ZooKeeper {
    /// `host:port` of each ZooKeeper server, comma-separated.
    pub quorum: String,
    /// The znode HBase writes under (`zookeeper.znode.parent`): `/hbase` unless the cluster
    /// sets another (some distributions use `/hbase-unsecure` or `/hbase-secure`).
    pub parent: String,
    /// Kerberos to ZooKeeper (SASL `GSSAPI`), as the store's own login
    /// ([`HbaseRpcConfig::kerberos`](super::HbaseRpcConfig::kerberos)), for a quorum whose
    /// HBase znodes only authenticated identities may read. `None` (the default): ZooKeeper is
    /// read without authenticating, which a secured HBase allows for the three znodes a client
    /// needs unless its operators restricted them.
    #[cfg(feature = "kerberos")]
    pub sasl: Option<ZkSasl>,
}

/// How the servers of a ZooKeeper quorum that takes Kerberos are named ([`ZooKeeper::sasl`]):
/// each server's principal is `service/host@REALM`, the realm found by the Kerberos library
/// from the host (its `domain_realm`, or the default realm).
#[cfg(feature = "kerberos")]
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ZkSasl {
    /// The principal's first part: `zookeeper` unless the quorum's servers log in as another
    /// (Java's system property `zookeeper.sasl.client.username`).
    pub service: String,
    /// The principal's host part, for a quorum whose servers share one principal (`None`:
    /// each server's host as the quorum names it, canonicalized by the Kerberos library as
    /// Java's `zookeeper.sasl.client.canonicalize.hostname` does).
    pub host: Option<String>,
}

#[cfg(feature = "kerberos")]
impl Default for ZkSasl {
    fn default() -> Self {
        ZkSasl {
            service: "zookeeper".into(),
            host: None,
        }
    }
}

impl ZooKeeper {
    /// The quorum at `quorum` (`zk1:2181,zk2:2181`; a host without a port gets 2181), under
    /// `/hbase`.
    pub fn new(quorum: &str) -> Self {
        ZooKeeper {
            quorum: with_ports(quorum, 2181),
            parent: "/hbase".into(),
            #[cfg(feature = "kerberos")]
            sasl: None,
        }
    }

    /// The parent znode ([`ZooKeeper::parent`]).
    pub fn parent(mut self, parent: &str) -> Self {
        self.parent = format!("/{}", parent.trim_matches('/'));
        self
    }

    /// Authenticates to ZooKeeper with Kerberos (SASL `GSSAPI`) as the store's login
    /// ([`HbaseRpcConfig::kerberos`](super::HbaseRpcConfig::kerberos), which the store then
    /// requires), to servers whose principals are `zookeeper/HOST@REALM`
    /// ([`ZooKeeper::sasl_service`] and [`ZooKeeper::sasl_host`] for others). This is what
    /// HBase's Java client does when its JAAS configuration has a `Client` section.
    ///
    /// The login is the store's: a keytab's tickets (fetched again as they age) or a ticket
    /// cache. A login that picks a principal from the cache collection without naming a cache
    /// authenticates to ZooKeeper with the default cache's tickets.
    #[cfg(feature = "kerberos")]
    pub fn sasl(mut self) -> Self {
        self.sasl.get_or_insert_with(ZkSasl::default);
        self
    }

    /// The first part of the servers' principals ([`ZkSasl::service`]); implies
    /// [`ZooKeeper::sasl`].
    #[cfg(feature = "kerberos")]
    pub fn sasl_service(mut self, service: &str) -> Self {
        self.sasl.get_or_insert_with(ZkSasl::default).service = service.into();
        self
    }

    /// The host part of the servers' principals ([`ZkSasl::host`]); implies
    /// [`ZooKeeper::sasl`].
    #[cfg(feature = "kerberos")]
    pub fn sasl_host(mut self, host: &str) -> Self {
        self.sasl.get_or_insert_with(ZkSasl::default).host = Some(host.into());
        self
    }

    /// Whether the quorum is read with Kerberos.
    fn authenticated(&self) -> bool {
        #[cfg(feature = "kerberos")]
        return self.sasl.is_some();
        #[cfg(not(feature = "kerberos"))]
        false
    }
}

/// Each `host` of a comma-separated list with `:port` unless it has one.
pub(crate) fn with_ports(hosts: &str, port: u16) -> String {
    hosts
        .split(',')
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .map(|h| {
            let has_port = match h.rsplit_once(':') {
                // `[::1]:2181`, `host:2181`; a bare IPv6 address has more than one colon.
                Some((host, p)) => {
                    p.parse::<u16>().is_ok() && (!host.contains(':') || host.ends_with(']'))
                }
                None => false,
            };
            if has_port {
                h.to_string()
            } else {
                format!("{h}:{port}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The registry: a ZooKeeper session, opened when needed.
pub(crate) struct ZkRegistry {
    zk: ZooKeeper,
    timeout: Duration,
    client: tokio::sync::Mutex<Option<zookeeper_client::Client>>,
    /// With [`ZooKeeper::sasl`]: the login, and the thread its sessions run on.
    #[cfg(feature = "kerberos")]
    sasl: Option<sasl::SaslSessions>,
}

impl ZkRegistry {
    /// The registry of `zk`; `login` is the store's Kerberos login, which [`ZooKeeper::sasl`]
    /// requires.
    pub(crate) fn new(
        zk: ZooKeeper,
        timeout: Duration,
        #[cfg(feature = "kerberos")] login: Option<
            std::sync::Arc<crate::store::net::kerberos::Login>,
        >,
    ) -> Result<Self, NetError> {
        #[cfg(feature = "kerberos")]
        let sasl = match (&zk.sasl, login) {
            (None, _) => None,
            (Some(_), None) => {
                return Err(NetError::Connect {
                    store: STORE,
                    message: format!(
                        "ZooKeeper ({}): ZooKeeper::sasl authenticates as the store's Kerberos \
                         login, and the store has none (HbaseRpcConfig::kerberos)",
                        zk.quorum
                    ),
                })
            }
            (Some(options), Some(login)) => Some(
                sasl::SaslSessions::start(options.clone(), login).map_err(|e| {
                    NetError::Connect {
                        store: STORE,
                        message: format!("ZooKeeper ({}): {e}", zk.quorum),
                    }
                })?,
            ),
        };
        Ok(ZkRegistry {
            zk,
            timeout,
            client: tokio::sync::Mutex::new(None),
            #[cfg(feature = "kerberos")]
            sasl,
        })
    }

    /// The active master's address.
    pub(crate) async fn master(&self) -> Result<pb::ServerName, Failure> {
        let m: pb::Master = self.record("master", "the active master").await?;
        Ok(m.master)
    }

    /// The server `hbase:meta` is on.
    pub(crate) async fn meta(&self) -> Result<pb::ServerName, Failure> {
        let m: pb::MetaRegionServer = self
            .record("meta-region-server", "hbase:meta's location")
            .await?;
        Ok(m.server)
    }

    /// The cluster id.
    pub(crate) async fn cluster_id(&self) -> Result<String, Failure> {
        let c: pb::ClusterId = self.record("hbaseid", "the cluster id").await?;
        Ok(c.cluster_id)
    }

    /// The record in znode `name` under the parent.
    async fn record<M: Message + Default>(&self, name: &str, what: &str) -> Result<M, Failure> {
        let path = format!("{}/{name}", self.zk.parent.trim_end_matches('/'));
        let data = self.read(&path, what).await?;
        decode(&data).map_err(|e| {
            Failure::Other(NetError::Protocol {
                store: STORE,
                message: format!("ZooKeeper's {path} ({what}): {e}"),
            })
        })
    }

    /// The data of `path`, on the session (opened first if needed; dropped on a failure, so the
    /// next read opens another).
    async fn read(&self, path: &str, what: &str) -> Result<Vec<u8>, Failure> {
        let mut slot = self.client.lock().await;
        if slot.is_none() {
            *slot = Some(self.connect().await?);
        }
        let client = slot.as_ref().expect("connected above");
        let result = tokio::time::timeout(self.timeout, client.get_data(path)).await;
        let error = match result {
            Ok(Ok((data, _))) => return Ok(data),
            Ok(Err(e)) => e,
            Err(_) => {
                *slot = None;
                return Err(Failure::Unreachable(self.error(format!(
                    "reading {path} ({what}) got no answer within {:?}",
                    self.timeout
                ))));
            }
        };
        use zookeeper_client::Error as E;
        match error {
            E::NoNode => {
                // Which is missing: the parent (a wrong `zookeeper.znode.parent`, or no HBase
                // on this quorum) or the record (HBase not up yet, or its master down).
                let parent_exists = matches!(client.check_stat(&self.zk.parent).await, Ok(Some(_)));
                if parent_exists {
                    Err(Failure::Backoff(self.error(format!(
                        "{path} does not exist: {what} is not registered yet (HBase starting, or \
                         its master down)"
                    ))))
                } else {
                    Err(Failure::Other(self.error(format!(
                        "no znode {}: no HBase registers under it on this quorum (the \
                         cluster's zookeeper.znode.parent may be another, as /hbase-unsecure \
                         or /hbase-secure on some distributions: see ZooKeeper::parent)",
                        self.zk.parent
                    ))))
                }
            }
            E::NoAuth | E::AuthFailed if self.zk.authenticated() => {
                Err(Failure::Other(self.error(format!(
                    "ZooKeeper refused to let {} read {path} ({error}): the znode's ACL does \
                     not grant it read (a secured ZooKeeper names identities as \
                     sasl:PRINCIPAL, often without host and realm)",
                    self.identity()
                ))))
            }
            E::NoAuth | E::AuthFailed => Err(Failure::Other(self.error(format!(
                "ZooKeeper refused to let this client read {path} ({error}): the cluster's \
                 znodes are ACL-protected (a secured ZooKeeper), and this client read it \
                 without authenticating; authenticate with Kerberos (ZooKeeper::sasl, feature \
                 kerberos), or give the masters' addresses instead (HbaseRpcConfig::new with \
                 hbase.masters), which the native store reaches with Kerberos"
            )))),
            other => {
                *slot = None;
                Err(Failure::Unreachable(
                    self.error(format!("reading {path} ({what}): {other}")),
                ))
            }
        }
    }

    /// Who this client reads ZooKeeper as, for errors.
    fn identity(&self) -> String {
        #[cfg(feature = "kerberos")]
        if let Some(sasl) = &self.sasl {
            return sasl.identity();
        }
        "this client".into()
    }

    async fn connect(&self) -> Result<zookeeper_client::Client, Failure> {
        let quorum = &self.zk.quorum;
        let connector = zookeeper_client::Client::connector()
            .with_fail_eagerly()
            .with_connection_timeout(self.timeout)
            .with_session_timeout(self.timeout.max(Duration::from_secs(6)) * 2);
        #[cfg(feature = "kerberos")]
        let connected = match &self.sasl {
            Some(sasl) => {
                let connect = sasl.connect(connector, quorum.clone());
                match tokio::time::timeout(self.timeout * 2, connect).await {
                    Ok(Err(sasl::Refused(message))) => {
                        return Err(Failure::Other(self.error(message)))
                    }
                    Ok(Ok(result)) => Ok(result),
                    Err(elapsed) => Err(elapsed),
                }
            }
            None => tokio::time::timeout(self.timeout * 2, connector.connect(quorum)).await,
        };
        #[cfg(not(feature = "kerberos"))]
        let connected = tokio::time::timeout(self.timeout * 2, connector.connect(quorum)).await;
        match connected {
            Ok(Ok(c)) => Ok(c),
            #[cfg(feature = "kerberos")]
            Ok(Err(e)) if self.sasl.is_some() && !matches!(e, zookeeper_client::Error::NoHosts) => {
                Err(Failure::Other(self.error(format!(
                    "no ZooKeeper session with {quorum}: authenticating as {} with Kerberos \
                     (SASL GSSAPI) failed: {e}",
                    self.identity()
                ))))
            }
            Ok(Err(e)) => {
                let why = if matches!(e, zookeeper_client::Error::NoHosts) {
                    format!(
                        "every server refused the connection or did not answer within {:?}",
                        self.timeout
                    )
                } else {
                    e.to_string()
                };
                Err(Failure::Other(self.error(format!(
                    "no ZooKeeper session with {quorum}: {why} (hbase.zookeeper.quorum and \
                     hbase.zookeeper.property.clientPort name the quorum)"
                ))))
            }
            Err(_) => Err(Failure::Other(self.error(format!(
                "no ZooKeeper session with {quorum} within {:?} (hbase.zookeeper.quorum and \
                 hbase.zookeeper.property.clientPort name the quorum)",
                self.timeout * 2
            )))),
        }
    }

    fn error(&self, message: String) -> NetError {
        NetError::Connect {
            store: STORE,
            message: format!("ZooKeeper ({}): {message}", self.zk.quorum),
        }
    }
}

/// ZooKeeper sessions authenticated with Kerberos: run on a thread of their own, whose default
/// ticket cache (GSSAPI's, per thread) is the store's login's before each connection, since the
/// SASL library (rsasl, under zookeeper-client) acquires the default credential itself.
#[cfg(feature = "kerberos")]
mod sasl {
    use std::sync::Arc;

    use crate::store::net::kerberos::{use_cache_on_this_thread, Login};

    use super::ZkSasl;

    /// A refusal before any server was asked (the login failed), in words for the user.
    pub(super) struct Refused(pub(super) String);

    /// The thread the sessions run on (a single-threaded tokio runtime, kept until the
    /// registry is dropped), and the login they authenticate as.
    pub(super) struct SaslSessions {
        options: ZkSasl,
        login: Arc<Login>,
        runtime: tokio::runtime::Handle,
        _stop: tokio::sync::oneshot::Sender<()>,
    }

    impl SaslSessions {
        pub(super) fn start(options: ZkSasl, login: Arc<Login>) -> Result<Self, String> {
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let (ready, handle) = std::sync::mpsc::channel();
            std::thread::Builder::new()
                .name("rowkey-zookeeper".into())
                .spawn(move || {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build();
                    match runtime {
                        Ok(runtime) => {
                            let _ = ready.send(Ok(runtime.handle().clone()));
                            // Until the registry drops `stop`; the sessions end with the runtime.
                            runtime.block_on(async move {
                                let _ = stopped.await;
                            });
                        }
                        Err(e) => {
                            let _ = ready.send(Err(e));
                        }
                    }
                })
                .map_err(|e| format!("no thread for the ZooKeeper session: {e}"))?;
            let runtime = handle
                .recv()
                .map_err(|_| "the ZooKeeper session's thread ended".to_string())?
                .map_err(|e| format!("no runtime for the ZooKeeper session: {e}"))?;
            Ok(SaslSessions {
                options,
                login,
                runtime,
                _stop: stop,
            })
        }

        /// The client principal, as errors name it.
        pub(super) fn identity(&self) -> String {
            self.login
                .principal()
                .unwrap_or("the default ticket cache's principal")
                .to_string()
        }

        /// A session with `quorum`, authenticated on the sessions' thread.
        pub(super) async fn connect(
            &self,
            connector: zookeeper_client::Connector,
            quorum: String,
        ) -> Result<Result<zookeeper_client::Client, zookeeper_client::Error>, Refused> {
            let mut gssapi =
                zookeeper_client::SaslOptions::gssapi().with_username(self.options.service.clone());
            if let Some(host) = &self.options.host {
                gssapi = gssapi.with_hostname(host.clone());
            }
            let connector = connector.with_sasl(gssapi);
            let login = self.login.clone();
            let (service, host) = (self.options.service.clone(), self.options.host.clone());
            let task = self.runtime.spawn(async move {
                // Blocks this thread (it may ask the KDC): only the sessions run here.
                let cache = login.cache_name().map_err(|e| Refused(e.to_string()))?;
                use_cache_on_this_thread(cache.as_deref()).map_err(|e| Refused(e.to_string()))?;
                let connected = connector.connect(&quorum).await;
                // A SASL session that cannot start counts as a server that failed: with none
                // left, ask Kerberos itself for the first server's ticket, whose refusal says
                // why (an unknown service, an unreachable KDC); else the servers failed.
                if matches!(connected, Err(zookeeper_client::Error::NoHosts)) {
                    let host = host.unwrap_or_else(|| first_host(&quorum));
                    login.check_service(&service, &host).map_err(|e| {
                        Refused(format!("{e} (ZooKeeper::sasl_service, sasl_host)"))
                    })?;
                }
                Ok(connected)
            });
            // Dropped (the caller's deadline passed): the attempt stops too.
            let mut task = AbortOnDrop(task);
            match (&mut task.0).await {
                Ok(result) => result,
                Err(e) => Err(Refused(format!("the ZooKeeper session's task failed: {e}"))),
            }
        }
    }

    /// The first server's host in a quorum (`zk1:2181,zk2:2181`, `[::1]:2181`).
    fn first_host(quorum: &str) -> String {
        let first = quorum.split(',').next().unwrap_or_default().trim();
        let host = first.rsplit_once(':').map_or(first, |(host, _)| host);
        host.trim_start_matches('[')
            .trim_end_matches(']')
            .to_string()
    }

    struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

    impl<T> Drop for AbortOnDrop<T> {
        fn drop(&mut self) {
            self.0.abort();
        }
    }
}

/// A record as HBase writes it in a znode: an optional metadata header (`ff`, the id's length
/// in 4 big-endian bytes, the id), then `PBUF` and the message.
fn decode<M: Message + Default>(data: &[u8]) -> Result<M, String> {
    let mut rest = data;
    if rest.first() == Some(&0xff) {
        let len = rest
            .get(1..5)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or("a metadata header cut short")?;
        rest = rest
            .get(5 + len..)
            .ok_or("a metadata header longer than the record")?;
    }
    let body = rest
        .strip_prefix(b"PBUF")
        .ok_or("not a protobuf record (no PBUF magic): written by an HBase older than 0.96?")?;
    M::decode(body).map_err(|e| format!("the record does not decode: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quorums_get_their_default_port() {
        assert_eq!(
            with_ports("zk1,zk2:2182, zk3", 2181),
            "zk1:2181,zk2:2182,zk3:2181"
        );
        assert_eq!(
            with_ports("[::1]:2181,[::1]", 2181),
            "[::1]:2181,[::1]:2181"
        );
        assert_eq!(
            ZooKeeper::new("zk").parent("hbase-unsecure/").parent,
            "/hbase-unsecure"
        );
    }

    #[test]
    fn records_decode_with_and_without_their_header() {
        let master = pb::Master {
            master: pb::ServerName {
                host_name: "m1".into(),
                port: Some(16000),
                start_code: Some(7),
            },
            rpc_version: None,
            info_port: Some(16010),
        };
        let body = master.encode_to_vec();
        let plain = [b"PBUF".as_slice(), &body].concat();
        let mut headed = vec![0xff, 0, 0, 0, 3, b'a', b'b', b'c'];
        headed.extend_from_slice(&plain);
        for data in [plain, headed] {
            let m: pb::Master = decode(&data).unwrap();
            assert_eq!(m.master.host_name, "m1");
            assert_eq!(m.master.port, Some(16000));
        }
        assert!(decode::<pb::Master>(&[0xff, 0, 0, 0, 9, 1]).is_err());
        assert!(decode::<pb::Master>(b"junk").unwrap_err().contains("PBUF"));
    }
}
