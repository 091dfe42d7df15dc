//! HBase: [`AsyncHbaseStore`], the async store, and [`HbaseStore`], its blocking face
//! ([`Blocking`]), over HBase's Thrift2 gateway (`hbase thrift2 start`, or the local HBase in
//! the repository's `hbase-local/`).
//!
//! **The client.** The gateway speaks Thrift's binary protocol; rowkey writes the dozen calls
//! it needs by hand (`thrift.rs`, `api.rs`) over tokio, unframed by default as `hbase thrift2
//! start` serves, or framed ([`HbaseConfig::framed`]) for gateways started with `-f`, `-hsha`
//! or `-nonblocking`. The `thrift` crate's generated code would be blocking-only and ~20k
//! lines; HBase's REST gateway costs a JSON or protobuf body per row and has no paged scanner
//! as cheap as `getScannerRows`.
//!
//! **Rows.** Each row keeps its value in one cell, column family `family`, qualifier `v`
//! (as the Bigtable store does). Writes carry an explicit timestamp (milliseconds, as HBase
//! keeps them) so every write can be retried without changing the result. HBase's deletes
//! are tombstones that hide every version at or below their timestamp, so the store keeps
//! its own timestamps in order: a delete is stamped no earlier than the last put, and a put
//! after a delete later than the delete, even within one millisecond. (Writers in other
//! processes follow HBase's usual rule: the newest timestamp wins.)
//!
//! **Scans** open a scanner per range (`openScanner` with start and stop rows, the value
//! column and `caching`), read it in pages of [`HbaseConfig::page_rows`] rows with
//! `getScannerRows` on a task of their own, hand each page over through a one-slot channel (a
//! range holds at most three pages, whatever the consumer does) and close the scanner at the
//! end, on error, and when the scan is dropped. A page that fails is read again from a new
//! scanner that starts after the last row delivered. Reverse scans set `TScan.reversed`.
//!
//! **Limits and failures.** Keys must be 1 to 32,767 bytes (HBase's `Short.MAX_VALUE`),
//! checked before anything is sent. Batches are cut into `putMultiple` calls of at most
//! [`HbaseConfig::batch_rows`] rows and [`HbaseConfig::batch_bytes`] (a framed gateway refuses
//! frames over its `max_frame_size_in_mb`, 2 MiB by default), a few in flight; `putMultiple` is
//! all-or-unknown, so a call that fails leaves all its rows unconfirmed (retried, then
//! reported). Transient failures (a dropped or refused connection, a deadline, a `TIOError`
//! HBase marks retriable) are retried per [`RetryPolicy`]; every call has a deadline. A
//! missing table or column family is an error on the first read or write (checked once per
//! store with `tableExists` and `getTableDescriptor`), not an empty result.

mod api;
mod config;
mod conn;
mod error;
#[cfg(feature = "hbase-http")]
mod http;
mod scan;

pub use config::HbaseConfig;
pub use error::HbaseError;
mod thrift;

use std::future::Future;
use std::sync::Arc;

use bytes::Bytes;
use futures_util::StreamExt;

use super::net::batch::{self, BatchRow, Confirmations};
use super::net::hbase_rules::{self, not_a_counter, Clock, DeleteRow, Stamps};
use super::net::key_layout;
use super::{AsyncAtomicStore, AtomicError};
use super::{
    AsyncStore, BatchError, Blocking, CellError, CellRow, CellStream, Columns, Row, RowStream,
    RowWrite,
};
use crate::family::Family;
use crate::scan::pushdown::KeyFilter;
use crate::scan::KeyRange;
use crate::store::{CellVersion, Versions};
use api::Column;
use conn::Pool;
use thrift::{In, Out};

pub use super::net::hbase_rules::Region;

const QUALIFIER: &[u8] = b"v";
fn check_families(op: &'static str, families: &[Family]) -> Result<(), HbaseError> {
    hbase_rules::check_families(error::STORE, op, families)
}

fn check_key(key: &[u8]) -> Result<(), HbaseError> {
    hbase_rules::check_key(error::STORE, key)
}

struct Inner {
    config: HbaseConfig,
    /// The client metrics' labels (`rowkey::store::metrics`).
    meter: super::net::metrics::Meter,
    pool: Pool,
    handle: tokio::runtime::Handle,
    clock: Clock,
    /// The table-and-family check, run once per store (see `checked.rs`).
    schema: super::net::checked::CheckedOnce<HbaseError>,
}

/// One HBase table, through a Thrift2 gateway, as an [`AsyncStore`]. Cheap to clone; clones
/// share the connections.
#[derive(Clone)]
pub struct AsyncHbaseStore {
    inner: Arc<Inner>,
}

/// One HBase table as a blocking [`Store`](super::Store): the async store on a runtime thread
/// of its own, safe to create, use and drop inside or outside an async runtime.
pub type HbaseStore = Blocking<AsyncHbaseStore>;

impl Blocking<AsyncHbaseStore> {
    /// Table `table` behind the Thrift2 gateway at `address` (`127.0.0.1:9090`), values in
    /// column family `family`, with the default settings (unframed transport).
    pub fn connect(address: &str, table: &str, family: &str) -> Result<Self, HbaseError> {
        Self::with_config(HbaseConfig::new(address, table, family))
    }

    /// Connects as `config` says.
    pub fn with_config(config: HbaseConfig) -> Result<Self, HbaseError> {
        Blocking::open(move || async move { AsyncHbaseStore::connect(config).await })
    }

    /// Creates the table with its column family (one version per cell), pre-split at
    /// `splits` (from `split_points`); an existing table is left as it is.
    pub fn create_table(&self, splits: &[bytes::Bytes]) -> Result<(), HbaseError> {
        let splits = splits.to_vec();
        self.call(|s| async move { s.create_table(&splits).await })
    }

    /// [`AsyncHbaseStore::create_table_with`]: the table with `families` and their options.
    pub fn create_table_with(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
    ) -> Result<(), HbaseError> {
        let (families, splits) = (families.to_vec(), splits.to_vec());
        self.call(|s| async move { s.create_table_with(&families, &splits).await })
    }

    /// [`AsyncHbaseStore::count_rows`]: the rows in `range`, counted.
    pub fn count_rows(
        &self,
        range: &KeyRange,
        progress: impl FnMut(u64) + Send + 'static,
    ) -> Result<u64, HbaseError> {
        let range = range.clone();
        self.call(move |s| async move { s.count_rows(&range, progress).await })
    }

    /// [`AsyncHbaseStore::create_table_for`]: the table with its families and `K`'s key layout
    /// fingerprint recorded.
    pub fn create_table_for<K: crate::RowKey>(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
    ) -> Result<(), HbaseError> {
        let (families, splits) = (families.to_vec(), splits.to_vec());
        self.call(|s| async move { s.create_table_for::<K>(&families, &splits).await })
    }

    /// [`AsyncHbaseStore::create_table_keyed`]: the table with its families and a key layout
    /// fingerprint recorded.
    pub fn create_table_keyed(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
        key_fingerprint: u64,
    ) -> Result<(), HbaseError> {
        let (families, splits) = (families.to_vec(), splits.to_vec());
        self.call(|s| async move {
            s.create_table_keyed(&families, &splits, key_fingerprint)
                .await
        })
    }

    /// [`AsyncHbaseStore::check_key_fingerprint`]: refuses a key layout that is not the
    /// table's.
    pub fn check_key_fingerprint(&self, key: &str, fingerprint: u64) -> Result<(), HbaseError> {
        let key = key.to_string();
        self.call(|s| async move { s.check_key_fingerprint(&key, fingerprint).await })
    }

    /// [`AsyncHbaseStore::key_fingerprint`]: the key layout the table records.
    pub fn key_fingerprint(&self) -> Result<Option<u64>, HbaseError> {
        self.call(|s| async move { s.key_fingerprint().await })
    }

    /// [`AsyncHbaseStore::check_key_layout`]: refuses a key type whose layout is not the
    /// table's.
    pub fn check_key_layout<K: crate::RowKey>(&self) -> Result<(), HbaseError> {
        self.call(|s| async move { s.check_key_layout::<K>().await })
    }

    /// [`AsyncHbaseStore::families`]: the live table's families with their options.
    pub fn families(&self) -> Result<Vec<Family>, HbaseError> {
        self.call(|s| async move { s.families().await })
    }

    /// [`AsyncHbaseStore::alter_family`]: gives one family these options, adding it if needed.
    pub fn alter_family(&self, family: &Family) -> Result<(), HbaseError> {
        let family = family.clone();
        self.call(|s| async move { s.alter_family(&family).await })
    }

    /// The table's regions as HBase reports them (`getAllRegionLocations`), in key order.
    pub fn regions(&self) -> Result<Vec<Region>, HbaseError> {
        self.call(|s| async move { s.regions().await })
    }

    /// Deletes many rows (`deleteMultiple`); the error lists the keys not confirmed deleted.
    pub fn delete_batch(&self, keys: &[Vec<u8>]) -> Result<(), BatchError<HbaseError>> {
        let owned = keys.to_vec();
        match self.call(|s| async move { Ok(s.delete_batch(&owned).await) }) {
            Ok(result) => result,
            // The runtime is gone: nothing is known to be deleted.
            Err(source) => Err(BatchError {
                failed: keys.to_vec(),
                source,
            }),
        }
    }

    /// Disables and deletes the table (for tests and tools).
    pub fn drop_table(&self) -> Result<(), HbaseError> {
        self.call(|s| async move { s.drop_table().await })
    }
}

/// Where `config` says the gateway is: a socket (`host:port`), or an HTTP gateway's URL.
fn endpoint(config: &HbaseConfig) -> Result<conn::Endpoint, String> {
    let scheme = config.address.split_once("://").map(|(s, _)| s);
    if let Some(scheme) = scheme {
        if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
            return Err(format!(
                "the gateway's address must be host:port, or an HTTP gateway's http:// or \
                 https:// URL, not {scheme}://"
            ));
        }
        #[cfg(feature = "hbase-http")]
        {
            if config.framed {
                return Err(
                    "an HTTP gateway is not framed: HbaseConfig::framed must be false with an \
                     http:// or https:// address"
                        .into(),
                );
            }
            return Ok(conn::Endpoint::Http(Arc::new(
                http::Endpoint::parse(&config.address, config.tls.as_ref())?
                    .through(config.proxy.as_ref())?
                    .acting_as(config.do_as.as_deref())?,
            )));
        }
        #[cfg(not(feature = "hbase-http"))]
        return Err(
            "the gateway's address is an HTTP gateway's URL: the HTTP transport needs rowkey's \
             `hbase-http` feature"
                .into(),
        );
    }
    #[cfg(feature = "hbase-http")]
    if config.tls.is_some() {
        return Err(
            "TLS (HbaseConfig::tls) needs an https:// address: a Thrift2 gateway takes TLS in \
             HTTP mode only"
                .into(),
        );
    }
    #[cfg(feature = "hbase-http")]
    if config.proxy.is_some() || config.do_as.is_some() {
        return Err(
            "an HTTP proxy (HbaseConfig::proxy) and doAs (HbaseConfig::do_as) need an HTTP \
             gateway's http:// or https:// address: a gateway on a socket has neither"
                .into(),
        );
    }
    Ok(conn::Endpoint::Socket {
        addr: config.address.clone(),
        framed: config.framed,
    })
}

impl AsyncHbaseStore {
    /// Opens the store as `config` says. Must run inside a tokio runtime; the store's
    /// background work (scan pages) runs on that runtime from then on. Connections are opened
    /// on first use.
    pub async fn connect(config: HbaseConfig) -> Result<Self, HbaseError> {
        let handle = tokio::runtime::Handle::try_current().map_err(|_| HbaseError::Runtime {
            store: error::STORE,
            message:
                "AsyncHbaseStore::connect runs inside a tokio runtime; use HbaseStore elsewhere"
                    .into(),
        })?;
        let refuse = |message: String| HbaseError::Connect {
            store: error::STORE,
            message,
        };
        let endpoint = endpoint(&config).map_err(refuse)?;
        #[cfg(feature = "kerberos")]
        let security = match &config.kerberos {
            Some(k) => {
                k.validate().map_err(refuse)?;
                let host = match &endpoint {
                    conn::Endpoint::Socket { framed: true, .. } => {
                        return Err(refuse(
                            "a SASL (Kerberos) Thrift2 gateway is not framed: HbaseConfig::framed \
                             must be false with HbaseConfig::kerberos"
                                .into(),
                        ))
                    }
                    conn::Endpoint::Socket { addr, .. } => super::net::host_of(addr).to_string(),
                    #[cfg(feature = "hbase-http")]
                    conn::Endpoint::Http(http) => http.host.clone(),
                };
                conn::Security::Kerberos {
                    login: Arc::new(super::net::kerberos::Login::new(k.clone())),
                    host,
                }
            }
            None => conn::Security::None,
        };
        #[cfg(not(feature = "kerberos"))]
        let security = conn::Security::None;
        Ok(AsyncHbaseStore {
            inner: Arc::new(Inner {
                meter: super::net::metrics::Meter::new(error::STORE, &config.table),
                pool: Pool::new(
                    super::net::metrics::Meter::new(error::STORE, &config.table),
                    endpoint,
                    security,
                    config.options.connect_timeout,
                    config.max_connections,
                ),
                handle,
                clock: Clock::default(),
                schema: super::net::checked::CheckedOnce::new(),
                config,
            }),
        })
    }

    /// The configuration it was opened with.
    pub fn config(&self) -> &HbaseConfig {
        &self.inner.config
    }

    fn table(&self) -> &[u8] {
        self.inner.config.table.as_bytes()
    }

    fn column(&self) -> Column<'_> {
        Column {
            family: self.inner.config.family.as_bytes(),
            qualifier: QUALIFIER,
        }
    }

    /// One attempt of one call: `args` writes the arguments, `success` reads the value.
    async fn call_once<T>(
        &self,
        op: &'static str,
        args: impl FnOnce(&mut Out<'_>),
        success: impl FnOnce(&mut In<'_>, u8) -> Result<T, thrift::DecodeError>,
    ) -> Result<Option<T>, HbaseError> {
        let mut lease = self
            .inner
            .pool
            .lease()
            .await
            .map_err(|e| error::transport(op, e))?;
        let (seq, sent, bytes) = lease
            .conn()
            .map_err(|e| error::transport(op, e))?
            .call(op, args)
            .await
            .map_err(|e| error::transport(op, e))?;
        self.inner.meter.sent(sent);
        self.inner.meter.received(bytes.len());
        let outcome = api::reply(bytes, op, seq, success);
        match outcome {
            Ok(reply) => {
                // The exchange completed, whatever HBase answered: the connection is clean.
                lease.done();
                reply.map_err(|r| error::refused(op, r))
            }
            Err(e) => Err(error::protocol(format!("{op}: {e}"))),
        }
    }

    /// Runs `attempt` under the retry policy.
    async fn retrying<T, F, Fut>(&self, op: &'static str, attempt: F) -> Result<T, HbaseError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, HbaseError>>,
    {
        let span = tracing::debug_span!(target: "rowkey::store", "call", store = "hbase", op);
        tracing::Instrument::instrument(
            super::net::retry::run(
                &self.inner.meter,
                op,
                &self.inner.config.options.retry,
                HbaseError::is_transient,
                |after| HbaseError::Timeout {
                    store: error::STORE,
                    op,
                    after,
                },
                attempt,
            ),
            span,
        )
        .await
    }

    /// A call with retries, for calls that are safe to repeat.
    async fn call<T>(
        &self,
        op: &'static str,
        args: impl Fn(&mut Out<'_>),
        success: impl Fn(&mut In<'_>, u8) -> Result<T, thrift::DecodeError>,
    ) -> Result<Option<T>, HbaseError> {
        self.retrying(op, || self.call_once(op, &args, &success))
            .await
    }

    /// Checks once per store that the table and the family exist.
    async fn ensure_schema(&self) -> Result<(), HbaseError> {
        if !self.inner.config.options.check_schema {
            return Ok(());
        }
        self.inner.schema.ensure(|| self.check_schema()).await
    }

    async fn check_schema(&self) -> Result<(), HbaseError> {
        let table = self.table();
        let config = &self.inner.config;
        if !self.exists().await? {
            return Err(HbaseError::MissingTable {
                store: error::STORE,
                table: config.table.clone(),
            });
        }
        let families = self
            .call(
                "getTableDescriptor",
                |o| api::get_table_descriptor(o, table),
                api::read_families,
            )
            .await?
            .unwrap_or_default();
        match config
            .all_families()
            .into_iter()
            .find(|f| !families.contains(f))
        {
            Some(family) => Err(HbaseError::MissingFamily {
                store: error::STORE,
                table: config.table.clone(),
                family,
                families,
            }),
            None => Ok(()),
        }
    }

    async fn exists(&self) -> Result<bool, HbaseError> {
        let table = self.table();
        Ok(self
            .call(
                "tableExists",
                |o| api::table_exists(o, table),
                api::read_bool,
            )
            .await?
            .unwrap_or(false))
    }

    /// Creates the table with its column families (HBase's defaults: one version per cell,
    /// no TTL), pre-split at `splits`; an existing table is left as it is.
    pub async fn create_table(&self, splits: &[bytes::Bytes]) -> Result<(), HbaseError> {
        let families: Vec<Family> = self
            .inner
            .config
            .all_families()
            .into_iter()
            .map(|name| Family {
                name: name.into(),
                ..Family::new("")
            })
            .collect();
        self.create_table_with(&families, splits).await
    }

    /// Creates the table with `families` and their options, pre-split at `splits`; an
    /// existing table is left as it is (compare it with [`families`](Self::families) and
    /// [`family::diff`](crate::family::diff)). A family whose options break HBase's rules
    /// (`Family::problems`, the long-name advice aside) is refused before anything is sent.
    pub async fn create_table_with(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
    ) -> Result<(), HbaseError> {
        self.create(families, splits, None).await
    }

    /// [`create_table_with`](Self::create_table_with) for rows keyed by `K`: the table also
    /// records `K`'s layout fingerprint (a table attribute, `rowkey.key_fingerprint`), so that
    /// [`check_key_layout`](Self::check_key_layout) can refuse code whose key layout changed.
    pub async fn create_table_for<K: crate::RowKey>(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
    ) -> Result<(), HbaseError> {
        self.create(families, splits, Some(K::FINGERPRINT)).await
    }

    /// [`create_table_for`](Self::create_table_for) with the key layout's fingerprint given
    /// as a number (from a [`TableLayout`](crate::family::TableLayout) read back as JSON, say).
    pub async fn create_table_keyed(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
        key_fingerprint: u64,
    ) -> Result<(), HbaseError> {
        self.create(families, splits, Some(key_fingerprint)).await
    }

    /// The key layout fingerprint the table records (`None`: created without one).
    pub async fn key_fingerprint(&self) -> Result<Option<u64>, HbaseError> {
        let table = self.table();
        let Some(Some(text)) = self
            .call(
                "getTableDescriptor",
                |o| api::get_table_descriptor(o, table),
                |r, k| api::read_attribute(r, k, api::KEY_FINGERPRINT),
            )
            .await?
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

    /// Refuses to go on when the table records a key layout other than `K`'s: its rows were
    /// written with other key bytes, which `K` would misread. A table without a record passes
    /// (it predates the record, or was created elsewhere).
    pub async fn check_key_layout<K: crate::RowKey>(&self) -> Result<(), HbaseError> {
        self.check_key_fingerprint(K::SCHEMA.name, K::FINGERPRINT)
            .await
    }

    /// [`check_key_layout`](Self::check_key_layout) for key type `key` whose layout
    /// fingerprint is `fingerprint`.
    pub async fn check_key_fingerprint(
        &self,
        key: &str,
        fingerprint: u64,
    ) -> Result<(), HbaseError> {
        let recorded = self.key_fingerprint().await?;
        key_layout::check(
            error::STORE,
            &self.inner.config.table,
            recorded,
            key,
            fingerprint,
        )
    }

    async fn create(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
        fingerprint: Option<u64>,
    ) -> Result<(), HbaseError> {
        check_families("createTable", families)?;
        if self.exists().await? {
            return Ok(());
        }
        let table = self.table();
        let splits: Vec<&[u8]> = splits.iter().map(|s| &s[..]).collect();
        let hex = fingerprint.map(key_layout::to_text);
        let attributes: Vec<(&[u8], &[u8])> = hex
            .iter()
            .map(|h| (api::KEY_FINGERPRINT, h.as_bytes()))
            .collect();
        // Not retried: a creation whose answer was lost may have happened; the existence
        // check above runs again on the caller's next attempt.
        let created = self
            .call_once(
                "createTable",
                |o| api::create_table(o, table, families, &splits, &attributes),
                |r, k| r.skip(k),
            )
            .await;
        match created {
            Err(HbaseError::Server { message, .. }) if message.contains("TableExistsException") => {
                Ok(())
            }
            other => other.map(|_| ()),
        }
    }

    /// The table's column families with their options, as HBase describes them
    /// (`getTableDescriptor`).
    pub async fn families(&self) -> Result<Vec<Family>, HbaseError> {
        let table = self.table();
        Ok(self
            .call(
                "getTableDescriptor",
                |o| api::get_table_descriptor(o, table),
                api::read_descriptors,
            )
            .await?
            .unwrap_or_default())
    }

    /// Gives the table's family `family.name` these options (`modifyColumnFamily`), adding
    /// the family when the table lacks it (`addColumnFamily`); HBase applies it online. The
    /// changes [`family::diff`](crate::family::diff) lists are applied one by one with it.
    pub async fn alter_family(&self, family: &Family) -> Result<(), HbaseError> {
        check_families("alter_family", std::slice::from_ref(family))?;
        let table = self.table();
        let op = if self.families().await?.iter().any(|f| f.name == family.name) {
            "modifyColumnFamily"
        } else {
            "addColumnFamily"
        };
        // Repeating either is harmless: the same options are set again.
        self.call(
            op,
            |o| api::column_family(o, table, family),
            |r, k| r.skip(k),
        )
        .await?;
        Ok(())
    }

    /// The rows in `range`, counted on the way (row keys only: the first cell of each row,
    /// without its value, as HBase's `RowCounter` reads them); `progress` is told the count so
    /// far after each page of rows. Reads the whole range: long on a large table.
    pub async fn count_rows(
        &self,
        range: &KeyRange,
        mut progress: impl FnMut(u64) + Send,
    ) -> Result<u64, HbaseError> {
        let mut rows = scan::spawn(self.clone(), range.clone(), false, scan::Keys::new());
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

    /// Disables and deletes the table.
    pub async fn drop_table(&self) -> Result<(), HbaseError> {
        if !self.exists().await? {
            return Ok(());
        }
        let table = self.table();
        let disabled = self
            .call_once(
                "disableTable",
                |o| api::table_only(o, table),
                |r, k| r.skip(k),
            )
            .await;
        match disabled {
            Err(HbaseError::Server { message, .. })
                if message.contains("TableNotEnabledException") => {}
            other => {
                other?;
            }
        }
        self.call_once(
            "deleteTable",
            |o| api::table_only(o, table),
            |r, k| r.skip(k),
        )
        .await?;
        self.inner.schema.reset();
        Ok(())
    }

    /// The table's regions as HBase reports them, in key order.
    pub async fn regions(&self) -> Result<Vec<Region>, HbaseError> {
        let table = self.table();
        Ok(self
            .call(
                "getAllRegionLocations",
                |o| api::get_all_region_locations(o, table),
                api::read_regions,
            )
            .await?
            .unwrap_or_default())
    }

    /// Deletes many rows with `deleteMultiple`, in calls of at most `batch_rows`; the error
    /// lists the keys not confirmed deleted.
    pub async fn delete_batch(&self, keys: &[Vec<u8>]) -> Result<(), BatchError<HbaseError>> {
        let rows: Vec<DeleteRow> = keys.iter().map(|k| DeleteRow(k.clone())).collect();
        self.write_parts(&rows).await
    }

    /// Writes `rows` in parts; see [`AsyncStore::write_batch`].
    async fn write_parts<R: Write>(&self, rows: &[R]) -> Result<(), BatchError<HbaseError>> {
        // Parts go out concurrently under one timestamp: only each key's (each column's) last
        // write may be sent, or an earlier one could win.
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
        let config = &self.inner.config;
        // Fixed for the batch, so that a retried part writes exactly what the first try did;
        // the clock is read only for the kinds of write the batch holds.
        let (puts, deletes) = R::kinds(rows);
        let stamps = Stamps {
            delete: if deletes {
                self.inner.clock.delete()
            } else {
                0
            },
            put: if puts { self.inner.clock.put() } else { 0 },
        };
        let parts = batch::split(rows, config.options.batch_rows, config.options.batch_bytes);
        let outcomes: Vec<_> = futures_util::stream::iter(parts)
            .map(|part| async move {
                let slice = &rows[part.clone()];
                (part, R::send(self, slice, stamps).await)
            })
            .buffer_unordered(config.options.batch_concurrency.max(1))
            .collect()
            .await;
        let mut confirmations = Confirmations::new(rows.len());
        for (part, outcome) in outcomes {
            match outcome {
                Ok(()) => part.for_each(|i| confirmations.confirm(i)),
                Err(e) => confirmations.error(e),
            }
        }
        confirmations.finish(rows, || {
            error::protocol("rows were not confirmed and no error was reported")
        })
    }

    /// `putMultiple` of raw rows, retried as a whole (the writes are idempotent).
    async fn put_rows(&self, rows: &[Row], timestamp: i64) -> Result<(), HbaseError> {
        let (table, column) = (self.table(), self.column());
        self.call(
            "putMultiple",
            |o| {
                api::put_multiple(
                    o,
                    table,
                    rows.iter().map(|(k, v)| (&k[..], &v[..])),
                    column,
                    timestamp,
                )
            },
            |r, k| r.skip(k),
        )
        .await
        .map(|_| ())
    }

    /// `deleteMultiple` of `what`, retried as a whole; an unapplied delete is an error.
    async fn delete_multiple(&self, args: impl Fn(&mut Out<'_>)) -> Result<(), HbaseError> {
        self.call("deleteMultiple", args, api::read_unapplied)
            .await
            .and_then(|unapplied| match unapplied.unwrap_or(0) {
                0 => Ok(()),
                n => Err(error::server(
                    "deleteMultiple",
                    format!("{n} delete(s) not applied"),
                    false,
                )),
            })
    }

    /// The set cells (`putMultiple`), then the cleared columns (`deleteMultiple`) of `rows`.
    async fn write_cells(&self, rows: &[RowWrite], stamps: Stamps) -> Result<(), HbaseError> {
        let table = self.table();
        if rows.iter().any(|r| !r.set.is_empty()) {
            self.call(
                "putMultiple",
                |o| api::put_cells_multiple(o, table, rows, stamps.put),
                |r, k| r.skip(k),
            )
            .await?;
        }
        if rows.iter().any(|r| !r.clear.is_empty()) {
            self.delete_multiple(|o| api::delete_columns_multiple(o, table, rows, stamps.delete))
                .await?;
        }
        Ok(())
    }
}

/// A kind of batch row and the calls that write a part of such rows.
trait Write: BatchRow + Sync + Sized {
    /// Whether writing `rows` puts cells, and whether it deletes any.
    fn kinds(rows: &[Self]) -> (bool, bool);

    fn send<'a>(
        store: &'a AsyncHbaseStore,
        rows: &'a [Self],
        stamps: Stamps,
    ) -> impl Future<Output = Result<(), HbaseError>> + Send + 'a;
}

impl Write for Row {
    fn kinds(_: &[Row]) -> (bool, bool) {
        (true, false)
    }

    fn send<'a>(
        store: &'a AsyncHbaseStore,
        rows: &'a [Row],
        stamps: Stamps,
    ) -> impl Future<Output = Result<(), HbaseError>> + Send + 'a {
        store.put_rows(rows, stamps.put)
    }
}

impl Write for DeleteRow {
    fn kinds(_: &[DeleteRow]) -> (bool, bool) {
        (false, true)
    }

    fn send<'a>(
        store: &'a AsyncHbaseStore,
        rows: &'a [DeleteRow],
        stamps: Stamps,
    ) -> impl Future<Output = Result<(), HbaseError>> + Send + 'a {
        let table = store.table();
        store.delete_multiple(move |o| {
            api::delete_multiple(o, table, rows.iter().map(|r| &r.0[..]), stamps.delete)
        })
    }
}

impl Write for RowWrite {
    fn kinds(rows: &[RowWrite]) -> (bool, bool) {
        (
            rows.iter().any(|r| !r.set.is_empty()),
            rows.iter().any(|r| !r.clear.is_empty()),
        )
    }

    fn send<'a>(
        store: &'a AsyncHbaseStore,
        rows: &'a [RowWrite],
        stamps: Stamps,
    ) -> impl Future<Output = Result<(), HbaseError>> + Send + 'a {
        store.write_cells(rows, stamps)
    }
}

/// On the region server, under the row's lock (`increment`, `checkAndPut`, `checkAndDelete`);
/// sent once, never retried (see `rowkey::store::AtomicStore`). A conditional write's put or
/// delete carries the store's own timestamp, as its other writes do.
impl AsyncAtomicStore for AsyncHbaseStore {
    async fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, AtomicError<HbaseError>> {
        check_key(key).map_err(AtomicError::Store)?;
        self.ensure_schema().await.map_err(AtomicError::Store)?;
        let table = self.table();
        let column = Column {
            family: family.as_bytes(),
            qualifier,
        };
        let result = self
            .call_once(
                "increment",
                |o| api::increment(o, table, key, column, delta),
                |r, k| {
                    r.expect(k, thrift::ty::STRUCT, "TResult")?;
                    api::read_result(r, column)
                },
            )
            .await
            .map_err(|e| not_a_counter(&e).unwrap_or(AtomicError::Store(e)))?;
        let value = result.flatten().map(|(_, v)| v).unwrap_or_default();
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
    ) -> Result<bool, AtomicError<HbaseError>> {
        check_key(key).map_err(AtomicError::Store)?;
        self.ensure_schema().await.map_err(AtomicError::Store)?;
        let table = self.table();
        let column = Column {
            family: family.as_bytes(),
            qualifier,
        };
        let expected = crate::store::atomic::condition(expected);
        let done = match new {
            Some(value) => {
                let ts = self.inner.clock.put();
                self.call_once(
                    "checkAndPut",
                    |o| api::check_and_put(o, table, key, column, expected, value, ts),
                    api::read_bool,
                )
                .await
            }
            None => {
                let ts = self.inner.clock.delete();
                self.call_once(
                    "checkAndDelete",
                    |o| api::check_and_delete(o, table, key, column, expected, ts),
                    api::read_bool,
                )
                .await
            }
        };
        done.map_err(AtomicError::Store)?.ok_or_else(|| {
            AtomicError::Store(error::protocol("a conditional write without its answer"))
        })
    }
}

impl AsyncStore for AsyncHbaseStore {
    type Error = HbaseError;

    async fn put(&self, key: &[u8], value: &[u8]) -> Result<(), HbaseError> {
        check_key(key)?;
        self.ensure_schema().await?;
        let (table, column) = (self.table(), self.column());
        let ts = self.inner.clock.put();
        self.call(
            "put",
            |o| api::put(o, table, key, value, column, ts),
            |r, k| r.skip(k),
        )
        .await
        .map(|_| ())
    }

    async fn get(&self, key: &[u8]) -> Result<Option<Bytes>, HbaseError> {
        check_key(key)?;
        self.ensure_schema().await?;
        let values = scan::Values::new(&self.inner.config.family);
        Ok(self.get_shaped(key, &values).await?.map(|(_, v)| v))
    }

    async fn delete(&self, key: &[u8]) -> Result<(), HbaseError> {
        check_key(key)?;
        self.ensure_schema().await?;
        let table = self.table();
        let ts = self.inner.clock.delete();
        self.call(
            "deleteSingle",
            |o| api::delete_single(o, table, key, ts),
            |r, k| r.skip(k),
        )
        .await
        .map(|_| ())
    }

    /// Cut into `putMultiple` calls within the limits, a few in flight; the error lists
    /// exactly the rows of the calls HBase did not confirm. A key HBase cannot store fails the
    /// batch before anything is sent.
    async fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<HbaseError>> {
        let started = std::time::Instant::now();
        let result = self.write_parts(rows).await;
        self.inner.meter.batch(started, rows.len(), &result);
        result
    }

    fn scan(&self, range: &KeyRange) -> RowStream<HbaseError> {
        let values = scan::Values::new(&self.inner.config.family);
        scan::spawn(self.clone(), range.clone(), false, values)
    }

    fn scan_rev(&self, range: &KeyRange) -> Option<RowStream<HbaseError>> {
        let values = scan::Values::new(&self.inner.config.family);
        Some(scan::spawn(self.clone(), range.clone(), true, values))
    }

    /// A `RowFilter` with a regular expression, applied by the region servers.
    fn scan_filtered(
        &self,
        range: &KeyRange,
        filter: &KeyFilter,
        reverse: bool,
    ) -> Option<RowStream<HbaseError>> {
        let values = scan::Values::filtered(&self.inner.config.family, filter, reverse);
        Some(scan::spawn(self.clone(), range.clone(), reverse, values))
    }

    /// Each row's first cell without its value (`FirstKeyOnlyFilter() AND KeyOnlyFilter()`, no
    /// column named): every row of the range, whatever its columns.
    fn scan_keys(&self, range: &KeyRange) -> super::KeyStream<HbaseError> {
        scan::spawn(self.clone(), range.clone(), false, scan::Keys::new())
    }

    /// Set cells through `putMultiple` and cleared columns through `deleteMultiple`, cut into
    /// parts as [`AsyncStore::write_batch`] cuts them; the error lists the rows of every part
    /// not confirmed.
    async fn write_rows(&self, rows: &[RowWrite]) -> Result<(), BatchError<HbaseError>> {
        self.write_parts(rows).await
    }

    async fn read_row(
        &self,
        key: &[u8],
        columns: &Columns,
    ) -> Result<Option<CellRow>, CellError<HbaseError>> {
        check_key(key).map_err(CellError::Store)?;
        if columns.is_empty() {
            return Ok(None);
        }
        self.ensure_schema().await.map_err(CellError::Store)?;
        self.get_shaped(key, &scan::Cells::new(columns))
            .await
            .map_err(CellError::Store)
    }

    async fn delete_row(&self, key: &[u8]) -> Result<(), CellError<HbaseError>> {
        AsyncStore::delete(self, key)
            .await
            .map_err(CellError::Store)
    }

    fn scan_rows(&self, range: &KeyRange, columns: &Columns) -> CellStream<HbaseError> {
        self.cell_scan(range, columns, false)
    }

    fn scan_rows_rev(&self, range: &KeyRange, columns: &Columns) -> Option<CellStream<HbaseError>> {
        Some(self.cell_scan(range, columns, true))
    }
}

impl AsyncHbaseStore {
    fn cell_scan(
        &self,
        range: &KeyRange,
        columns: &Columns,
        reversed: bool,
    ) -> CellStream<HbaseError> {
        if columns.is_empty() {
            return Box::pin(futures_util::stream::empty());
        }
        let shape = scan::Cells::new(columns);
        Box::pin(
            scan::spawn(self.clone(), range.clone(), reversed, shape)
                .map(|r| r.map_err(CellError::Store)),
        )
    }
}

/// Cells' versions: timestamps in milliseconds, explicit on write.
impl super::AsyncVersions for AsyncHbaseStore {
    /// The versions of cell `family:qualifier` of row `key` that `versions` selects, newest
    /// first, with their timestamps (HBase's own: milliseconds). What HBase keeps is what the
    /// family declares (`VERSIONS`, `MIN_VERSIONS`, `TTL`, `KEEP_DELETED_CELLS`), applied as HBase
    /// reads.
    async fn read_versions(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        versions: &Versions,
    ) -> Result<Vec<CellVersion>, HbaseError> {
        check_key(key)?;
        let table = self.table();
        let column = Column {
            family: family.as_bytes(),
            qualifier,
        };
        Ok(self
            .call(
                "get",
                |o| api::get_versions(o, table, key, column, versions),
                api::read_versions,
            )
            .await?
            .unwrap_or_default())
    }

    /// Writes `value` to cell `family:qualifier` of row `key` as the version at
    /// `timestamp_ms` (an explicit timestamp: repeating it writes the same version again).
    async fn write_version(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        value: &[u8],
        timestamp_ms: i64,
    ) -> Result<(), HbaseError> {
        check_key(key)?;
        let table = self.table();
        let column = Column {
            family: family.as_bytes(),
            qualifier,
        };
        self.call(
            "put",
            |o| api::put(o, table, key, value, column, timestamp_ms),
            |r, k| r.skip(k),
        )
        .await?;
        Ok(())
    }
}
