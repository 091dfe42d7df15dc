//! Administration over the master (`MasterService`): tables created pre-split with their
//! families and options, the table descriptor read back, families added or modified, tables
//! dropped, each change awaited until its procedure finishes; and the table's regions from
//! `hbase:meta`.

use std::time::{Duration, Instant};

use bytes::Bytes;
use prost::Message;

use super::conn::Service;
use super::error::{self, Failure, STORE};
use super::{pb, AsyncHbaseRpcStore, Budget};
use crate::family::{BlockEncoding, Bloom, Compression, Family, KeepDeleted};
use crate::hotspot::RegionLoad;
use crate::store::net::{hbase_rules, key_layout};
use crate::store::{NetError, Region};

/// The table attribute that records the key layout (as the Thrift2 store records it).
const KEY_FINGERPRINT: &[u8] = key_layout::RECORD.as_bytes();

/// HBase's `TTL` for "forever" (`HConstants.FOREVER`, `Integer.MAX_VALUE` seconds).
const FOREVER: u64 = i32::MAX as u64;

/// A family as the master takes it: its options as descriptor attributes.
pub(super) fn family_schema(f: &Family) -> pb::ColumnFamilySchema {
    let attributes = f
        .shell_options()
        .into_iter()
        .map(|(k, v)| {
            let v = v.trim_matches('\'').to_string();
            let v = if k == "TTL" && v == "FOREVER" {
                FOREVER.to_string()
            } else {
                v
            };
            pb::BytesBytesPair {
                first: Bytes::from_static(k.as_bytes()),
                second: Bytes::from(v),
            }
        })
        .collect();
    pb::ColumnFamilySchema {
        name: Bytes::copy_from_slice(f.name.as_bytes()),
        attributes,
        configuration: Vec::new(),
    }
}

/// A family read back from a descriptor; options it does not name keep HBase's defaults.
pub(super) fn family_of(s: &pb::ColumnFamilySchema) -> Family {
    let mut f = Family::new("").named(String::from_utf8_lossy(&s.name).into_owned());
    for a in &s.attributes {
        let v = String::from_utf8_lossy(&a.second);
        let lower = v.to_ascii_lowercase();
        match &a.first[..] {
            b"VERSIONS" => f.max_versions = v.parse().unwrap_or(f.max_versions),
            b"MIN_VERSIONS" => f.min_versions = v.parse().unwrap_or(f.min_versions),
            b"TTL" => {
                f.ttl_secs = match v.parse::<u64>() {
                    Ok(FOREVER) | Err(_) => None,
                    Ok(secs) => Some(secs),
                }
            }
            b"KEEP_DELETED_CELLS" => {
                f.keep_deleted = KeepDeleted::from_name(&lower).unwrap_or(f.keep_deleted)
            }
            b"BLOOMFILTER" => f.bloom = Bloom::from_name(&lower).unwrap_or(f.bloom),
            b"COMPRESSION" => {
                f.compression = Compression::from_name(&lower).unwrap_or(f.compression)
            }
            b"BLOCKSIZE" => f.block_size = v.parse().unwrap_or(f.block_size),
            b"IN_MEMORY" => f.in_memory = lower == "true",
            b"DATA_BLOCK_ENCODING" => {
                f.encoding = BlockEncoding::from_name(&lower).unwrap_or(f.encoding)
            }
            _ => {}
        }
    }
    f
}

pub(super) fn table_name(table: &str) -> pb::TableName {
    let (ns, q) = table.split_once(':').unwrap_or(("default", table));
    pb::TableName {
        namespace: Bytes::copy_from_slice(ns.as_bytes()),
        qualifier: Bytes::copy_from_slice(q.as_bytes()),
    }
}

/// The master's answer names a procedure.
trait Procedure {
    fn procedure(&self) -> Option<u64>;
}

macro_rules! procedures {
    ($($t:ty),*) => {
        $(impl Procedure for $t {
            fn procedure(&self) -> Option<u64> {
                self.proc_id
            }
        })*
    };
}
procedures!(
    pb::CreateTableResponse,
    pb::DisableTableResponse,
    pb::DeleteTableResponse,
    pb::AddColumnResponse,
    pb::ModifyColumnResponse
);

impl AsyncHbaseRpcStore {
    /// One call on the active master, sent again when the master moved, is starting, or its
    /// connection failed (`retry_unknown`: also when the answer was lost).
    async fn master_call<Resp: Message + Default>(
        &self,
        op: &'static str,
        request: &impl Message,
        retry_unknown: bool,
    ) -> Result<Resp, NetError> {
        let cluster = &self.inner.cluster;
        let mut budget = Budget::new(&self.inner.config.options.retry);
        loop {
            let result = async {
                let master = cluster.master().await?;
                let reply = cluster
                    .call(&master, Service::Master, op, self.table(), request)
                    .await?;
                Resp::decode(reply.body).map_err(|e| error::decode(op, e))
            }
            .await;
            let f = match result {
                Ok(r) => return Ok(r),
                Err(f) => f,
            };
            if matches!(f, Failure::Relocate { .. }) || f.server_gone() {
                cluster.forget_master();
            }
            let unknown = matches!(f, Failure::Server(_));
            if (unknown && !retry_unknown) || !budget.again(&f).await {
                return Err(f.into_error());
            }
        }
    }

    /// Waits until the master's procedure `id` finishes; its failure, if it failed.
    async fn await_procedure(&self, op: &'static str, id: Option<u64>) -> Result<(), NetError> {
        let Some(id) = id else {
            return Ok(());
        };
        let policy = &self.inner.config.options.retry;
        let limit = Duration::from_secs(120).max(policy.attempt_timeout * policy.max_attempts);
        let started = Instant::now();
        let mut pause = Duration::from_millis(20);
        loop {
            let resp: pb::GetProcedureResultResponse = self
                .master_call(
                    "getProcedureResult",
                    &pb::GetProcedureResultRequest { proc_id: id },
                    true,
                )
                .await?;
            match pb::get_procedure_result_response::State::try_from(resp.state) {
                Ok(pb::get_procedure_result_response::State::Finished) => {
                    return match resp.exception {
                        None => Ok(()),
                        Some(e) => Err(NetError::Server {
                            store: STORE,
                            op,
                            status: "procedure failed".into(),
                            message: e
                                .generic_exception
                                .and_then(|g| g.message)
                                .or(e.source)
                                .unwrap_or_else(|| format!("procedure {id}")),
                            transient: false,
                        }),
                    };
                }
                // Finished long ago and forgotten: done.
                Ok(pb::get_procedure_result_response::State::NotFound) => return Ok(()),
                _ => {}
            }
            if started.elapsed() > limit {
                return Err(error::timeout(op, limit));
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(500));
        }
    }

    /// The table's descriptor (`None`: no such table).
    async fn descriptor(&self) -> Result<Option<pb::TableSchema>, NetError> {
        let request = pb::GetTableDescriptorsRequest {
            table_names: vec![table_name(self.table())],
            ..Default::default()
        };
        match self
            .master_call::<pb::GetTableDescriptorsResponse>("GetTableDescriptors", &request, true)
            .await
        {
            Ok(resp) => Ok(resp.table_schema.into_iter().next()),
            Err(NetError::MissingTable { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    async fn exists(&self) -> Result<bool, NetError> {
        Ok(self.descriptor().await?.is_some())
    }

    /// Creates the table with its column families (HBase's defaults), pre-split at `splits`;
    /// an existing table is left as it is.
    pub async fn create_table(&self, splits: &[Bytes]) -> Result<(), NetError> {
        let families: Vec<Family> = self
            .inner
            .config
            .all_families()
            .into_iter()
            .map(|name| Family::new("").named(name))
            .collect();
        self.create(&families, splits, None).await
    }

    /// Creates the table with `families` and their options, pre-split at `splits`, and waits
    /// until its regions are open; an existing table is left as it is. A family whose options
    /// break HBase's rules is refused before anything is sent.
    pub async fn create_table_with(
        &self,
        families: &[Family],
        splits: &[Bytes],
    ) -> Result<(), NetError> {
        self.create(families, splits, None).await
    }

    /// [`create_table_with`](Self::create_table_with) for rows keyed by `K`: the table also
    /// records `K`'s layout fingerprint (table attribute `rowkey.key_fingerprint`, as the
    /// Thrift2 store records it).
    pub async fn create_table_for<K: crate::RowKey>(
        &self,
        families: &[Family],
        splits: &[Bytes],
    ) -> Result<(), NetError> {
        self.create(families, splits, Some(K::FINGERPRINT)).await
    }

    /// [`create_table_for`](Self::create_table_for) with the fingerprint given as a value
    /// (`RowKey::FINGERPRINT`, or a `TableLayout`'s), for callers that hold a key layout
    /// rather than a key type.
    pub async fn create_table_keyed(
        &self,
        families: &[Family],
        splits: &[Bytes],
        key_fingerprint: u64,
    ) -> Result<(), NetError> {
        self.create(families, splits, Some(key_fingerprint)).await
    }

    async fn create(
        &self,
        families: &[Family],
        splits: &[Bytes],
        fingerprint: Option<u64>,
    ) -> Result<(), NetError> {
        hbase_rules::check_families(STORE, "CreateTable", families)?;
        if self.exists().await? {
            return Ok(());
        }
        let attributes = fingerprint
            .map(|f| pb::BytesBytesPair {
                first: Bytes::from_static(KEY_FINGERPRINT),
                second: Bytes::from(key_layout::to_text(f)),
            })
            .into_iter()
            .collect();
        let request = pb::CreateTableRequest {
            table_schema: pb::TableSchema {
                table_name: Some(table_name(self.table())),
                attributes,
                column_families: families.iter().map(family_schema).collect(),
                configuration: Vec::new(),
            },
            split_keys: splits.to_vec(),
            nonce_group: None,
            nonce: None,
        };
        // Not sent again when the answer is lost: the creation may have happened (the
        // existence check runs again on the caller's next attempt).
        let created = self
            .master_call::<pb::CreateTableResponse>("CreateTable", &request, false)
            .await;
        match created {
            Ok(resp) => {
                self.inner.regions.clear();
                self.await_procedure("CreateTable", resp.procedure()).await
            }
            Err(NetError::Server { status, .. }) if status == "TableExistsException" => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// The table's column families with their options, as the master describes them.
    pub async fn families(&self) -> Result<Vec<Family>, NetError> {
        let schema = self
            .descriptor()
            .await?
            .ok_or_else(|| NetError::MissingTable {
                store: STORE,
                table: self.inner.config.table.clone(),
            })?;
        Ok(schema.column_families.iter().map(family_of).collect())
    }

    /// Gives the table's family `family.name` these options (`ModifyColumn`), adding it when
    /// the table lacks it (`AddColumn`); HBase applies it online.
    pub async fn alter_family(&self, family: &Family) -> Result<(), NetError> {
        hbase_rules::check_families(STORE, "alter_family", std::slice::from_ref(family))?;
        let exists = self.families().await?.iter().any(|f| f.name == family.name);
        let (name, column) = (table_name(self.table()), family_schema(family));
        // Repeating either is harmless: the same options are set again.
        let id = if exists {
            let request = pb::ModifyColumnRequest {
                table_name: name,
                column_families: column,
                ..Default::default()
            };
            self.master_call::<pb::ModifyColumnResponse>("ModifyColumn", &request, true)
                .await?
                .procedure()
        } else {
            let request = pb::AddColumnRequest {
                table_name: name,
                column_families: column,
                ..Default::default()
            };
            self.master_call::<pb::AddColumnResponse>("AddColumn", &request, true)
                .await?
                .procedure()
        };
        self.await_procedure("alter_family", id).await?;
        self.inner.schema.reset();
        Ok(())
    }

    /// The key layout fingerprint the table records (`None`: created without one).
    pub async fn key_fingerprint(&self) -> Result<Option<u64>, NetError> {
        let schema = self
            .descriptor()
            .await?
            .ok_or_else(|| NetError::MissingTable {
                store: STORE,
                table: self.inner.config.table.clone(),
            })?;
        let Some(text) = schema
            .attributes
            .iter()
            .find(|a| a.first == KEY_FINGERPRINT)
            .map(|a| a.second.clone())
        else {
            return Ok(None);
        };
        key_layout::from_text(&text).map(Some).ok_or_else(|| {
            error::protocol(format!(
                "table attribute rowkey.key_fingerprint is not 16 hex digits: {:?}",
                String::from_utf8_lossy(&text)
            ))
        })
    }

    /// Refuses to go on when the table records a key layout other than `K`'s (see the
    /// Thrift2 store's method of the same name).
    pub async fn check_key_layout<K: crate::RowKey>(&self) -> Result<(), NetError> {
        self.check_key_fingerprint(K::SCHEMA.name, K::FINGERPRINT)
            .await
    }

    /// [`check_key_layout`](Self::check_key_layout) for key `key` (its name, for the error)
    /// whose layout fingerprint is `fingerprint`.
    pub async fn check_key_fingerprint(&self, key: &str, fingerprint: u64) -> Result<(), NetError> {
        let recorded = self.key_fingerprint().await?;
        key_layout::check(STORE, &self.inner.config.table, recorded, key, fingerprint)
    }

    /// Disables and deletes the table (for tests and tools).
    pub async fn drop_table(&self) -> Result<(), NetError> {
        if !self.exists().await? {
            return Ok(());
        }
        let name = table_name(self.table());
        let disabled = self
            .master_call::<pb::DisableTableResponse>(
                "DisableTable",
                &pb::DisableTableRequest {
                    table_name: name.clone(),
                    ..Default::default()
                },
                false,
            )
            .await;
        match disabled {
            Ok(resp) => {
                self.await_procedure("DisableTable", resp.procedure())
                    .await?
            }
            Err(NetError::Server { status, .. }) if status == "TableNotEnabledException" => {}
            Err(e) => return Err(e),
        }
        let deleted: pb::DeleteTableResponse = self
            .master_call(
                "DeleteTable",
                &pb::DeleteTableRequest {
                    table_name: name,
                    ..Default::default()
                },
                false,
            )
            .await?;
        self.await_procedure("DeleteTable", deleted.procedure())
            .await?;
        self.inner.regions.clear();
        self.inner.schema.reset();
        Ok(())
    }

    /// The table's regions as `hbase:meta` lists them, in key order (a region between servers
    /// has an empty `server`).
    pub async fn regions(&self) -> Result<Vec<Region>, NetError> {
        let mut budget = Budget::new(&self.inner.config.options.retry);
        loop {
            match self.inner.cluster.all_regions(self.table()).await {
                Ok(regions) => {
                    return Ok(regions
                        .into_iter()
                        .map(|r| Region {
                            start: r.start.to_vec(),
                            end: r.end.to_vec(),
                            server: r.server,
                            id: r.id as i64,
                        })
                        .collect())
                }
                Err(f) => {
                    if !budget.again(&f).await {
                        return Err(f.into_error());
                    }
                }
            }
        }
    }
}

impl AsyncHbaseRpcStore {
    /// Each region's request counters as its region server reports them now (HBase's
    /// `AdminService.GetRegionLoad`, asked of every server holding a region of the table), in
    /// key order; a region between servers, or opened since the region list was read, is left
    /// out. Two of these, taken an interval apart, make a
    /// [`HotspotReport`](crate::hotspot::HotspotReport).
    pub async fn region_loads(&self) -> Result<Vec<RegionLoad>, NetError> {
        let regions = self.regions().await?;
        let mut servers: Vec<&str> = regions
            .iter()
            .map(|r| r.server.as_str())
            .filter(|s| !s.is_empty())
            .collect();
        servers.sort_unstable();
        servers.dedup();
        let request = pb::GetRegionLoadRequest {
            table_name: Some(table_name(self.table())),
        };
        // Each region's counters by its start key and id, from its server's answer.
        let mut counted: std::collections::HashMap<(Vec<u8>, u64), (u64, u64)> =
            std::collections::HashMap::new();
        for server in servers {
            let mut budget = Budget::new(&self.inner.config.options.retry);
            let resp = loop {
                let result = async {
                    let reply = self
                        .inner
                        .cluster
                        .call(
                            server,
                            Service::Admin,
                            "GetRegionLoad",
                            self.table(),
                            &request,
                        )
                        .await?;
                    pb::GetRegionLoadResponse::decode(reply.body)
                        .map_err(|e| error::decode("GetRegionLoad", e))
                }
                .await;
                match result {
                    Ok(r) => break r,
                    Err(f) if budget.again(&f).await => {}
                    Err(f) => return Err(f.into_error()),
                }
            };
            for load in resp.region_loads {
                if let Some((start, id)) = start_and_id(self.table(), &load.region_specifier.value)
                {
                    counted.insert(
                        (start, id),
                        (
                            load.read_requests_count.unwrap_or(0),
                            load.write_requests_count.unwrap_or(0),
                        ),
                    );
                }
            }
        }
        Ok(regions
            .into_iter()
            .filter_map(|r| {
                let (reads, writes) = counted.get(&(r.start.clone(), r.id as u64))?;
                Some(RegionLoad {
                    start: r.start,
                    end: r.end,
                    server: r.server,
                    id: r.id,
                    read_requests: *reads,
                    write_requests: *writes,
                })
            })
            .collect())
    }
}

/// The start key and id of a region of `table` from its name: `table,start,id` or, since HBase
/// 0.90, `table,start,id.<32 hex digits of its encoded name>.` (`namespace:table` outside
/// the default namespace); `None` for another table's region. The start key may hold commas:
/// the id is after the last one.
fn start_and_id(table: &str, name: &[u8]) -> Option<(Vec<u8>, u64)> {
    let name = match name {
        [rest @ .., b'.'] if rest.len() > 33 && rest[rest.len() - 33] == b'.' => {
            &rest[..rest.len() - 33]
        }
        other => other,
    };
    let prefix = table.strip_prefix("default:").unwrap_or(table).as_bytes();
    let rest = name.strip_prefix(prefix)?.strip_prefix(b",")?;
    let comma = rest.iter().rposition(|&b| b == b',')?;
    let id = std::str::from_utf8(&rest[comma + 1..]).ok()?.parse().ok()?;
    Some((rest[..comma].to_vec(), id))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_region_name_gives_its_start_key_and_id() {
        let name = b"events,\x03a,b,1700000000000.0123456789abcdef0123456789abcdef.";
        let parsed = super::start_and_id("events", name);
        assert_eq!(parsed, Some((b"\x03a,b".to_vec(), 1_700_000_000_000)));
        assert_eq!(
            super::start_and_id(
                "events",
                b"events,,1700000000000.0123456789abcdef0123456789abcdef."
            ),
            Some((Vec::new(), 1_700_000_000_000))
        );
        assert_eq!(
            super::start_and_id("events", b"events,k,12"),
            Some((b"k".to_vec(), 12))
        );
        assert_eq!(super::start_and_id("other", b"events,k,12"), None);
        assert_eq!(super::start_and_id("events", b"events2,k,12"), None);
        assert_eq!(
            super::start_and_id("ns:t", b"ns:t,k,5"),
            Some((b"k".to_vec(), 5))
        );
    }

    use super::*;

    #[test]
    fn a_family_goes_to_the_master_and_comes_back_the_same() {
        let declared = Family::new("d")
            .versions(3)
            .min_versions(1)
            .ttl_secs(86_400)
            .bloom(Bloom::RowCol)
            .compression(Compression::Gz)
            .encoding(BlockEncoding::FastDiff);
        let schema = family_schema(&declared);
        let attr = |k: &str| {
            schema
                .attributes
                .iter()
                .find(|a| a.first == k.as_bytes())
                .map(|a| String::from_utf8_lossy(&a.second).into_owned())
        };
        assert_eq!(attr("TTL").as_deref(), Some("86400"));
        assert_eq!(attr("BLOOMFILTER").as_deref(), Some("ROWCOL"));
        assert_eq!(family_of(&schema), declared);
        let forever = family_schema(&Family::new("e"));
        assert_eq!(
            forever
                .attributes
                .iter()
                .find(|a| &a.first[..] == b"TTL")
                .map(|a| a.second.clone()),
            Some(Bytes::from("2147483647"))
        );
        assert_eq!(family_of(&forever), Family::new("e"));
    }
}
