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
//! session per store, opened on first use and again after it fails. Reads are plain: a
//! ZooKeeper whose HBase znodes are ACL-protected (SASL) is named in the error, with the way
//! around it (the masters' addresses).

use std::time::Duration;

use prost::Message;

use super::error::{Failure, STORE};
use super::pb;
use crate::store::NetError;

/// Where the cluster registers itself in ZooKeeper: the quorum (`host:port`, comma-separated;
/// HBase's `hbase.zookeeper.quorum` with `hbase.zookeeper.property.clientPort`) and the parent
/// znode (`zookeeper.znode.parent`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZooKeeper {
    /// `host:port` of each ZooKeeper server, comma-separated.
    pub quorum: String,
    /// The znode HBase writes under (`zookeeper.znode.parent`): `/hbase` unless the cluster
    /// sets another (some distributions use `/hbase-unsecure` or `/hbase-secure`).
    pub parent: String,
}

impl ZooKeeper {
    /// The quorum at `quorum` (`zk1:2181,zk2:2181`; a host without a port gets 2181), under
    /// `/hbase`.
    pub fn new(quorum: &str) -> Self {
        ZooKeeper {
            quorum: with_ports(quorum, 2181),
            parent: "/hbase".into(),
        }
    }

    /// The parent znode ([`ZooKeeper::parent`]).
    pub fn parent(mut self, parent: &str) -> Self {
        self.parent = format!("/{}", parent.trim_matches('/'));
        self
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
}

impl ZkRegistry {
    pub(crate) fn new(zk: ZooKeeper, timeout: Duration) -> Self {
        ZkRegistry {
            zk,
            timeout,
            client: tokio::sync::Mutex::new(None),
        }
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
            E::NoAuth | E::AuthFailed => Err(Failure::Other(self.error(format!(
                "ZooKeeper refused to let this client read {path} ({error}): the cluster's \
                 znodes are ACL-protected (a secured ZooKeeper), and rowkey reads ZooKeeper \
                 without SASL; give the masters' addresses instead (HbaseRpcConfig::new with \
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

    async fn connect(&self) -> Result<zookeeper_client::Client, Failure> {
        let quorum = &self.zk.quorum;
        let connect = zookeeper_client::Client::connector()
            .with_fail_eagerly()
            .with_connection_timeout(self.timeout)
            .with_session_timeout(self.timeout.max(Duration::from_secs(6)) * 2)
            .connect(quorum);
        match tokio::time::timeout(self.timeout * 2, connect).await {
            Ok(Ok(c)) => Ok(c),
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
