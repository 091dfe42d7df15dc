//! Cloud Bigtable: [`AsyncBigtableStore`], the async store, and [`BigtableStore`], its blocking
//! face ([`Blocking`]). Connects to a real instance, or to the emulator named by
//! `BIGTABLE_EMULATOR_HOST` (`cbtemulator -host 127.0.0.1 -port P`).
//!
//! **The client.** Requests go through the generated gRPC API
//! (`googleapis-tonic-google-bigtable-v2`) over tonic, TLS as [`BigtableConfig::tls`] says and
//! access tokens from [`Credentials`] (`credentials.rs`, `token.rs`) on real instances, not
//! through `bigtable_rs`: that crate decodes each ReadRows message on its own (a cell value
//! split across messages fails), hides the streams' flow control, starts runtimes and panics on
//! a bad emulator address. rowkey needs exactly the parts it replaces (chunk reassembly in
//! `chunks.rs`, paged bucket reads in `scan.rs`, batch bookkeeping) and not the rest.
//!
//! **Rows.** Each row keeps its value in one cell, column family `family`, qualifier `v`,
//! written with an explicit timestamp (the client's clock, in milliseconds as Bigtable stores
//! them), so every write is idempotent and can be retried; the newest write wins. Reads ask for
//! that column's latest cell.
//!
//! **Scans** read each range in pages (`rows_limit`, and a byte budget), each page drained as it
//! arrives by a task of its own and handed over whole, the next page requested only when the
//! consumer has room: a bucket holds at most three pages whatever the consumer does, the
//! HTTP/2 connection never piles up unread frames (h2 closes a connection that does, with
//! `too_many_data_frames`), and a failed page is read again from the last key delivered.
//! Ranges are opened at once, so a merged scan of 16 buckets waits for one round trip, not 16.
//!
//! **Limits and failures.** Keys must be 1 to 4,096 bytes (Bigtable's row-key limit), checked
//! before anything is sent. Batches are cut into MutateRows requests of at most
//! [`BigtableConfig::batch_rows`] rows (Bigtable allows 100,000 mutations) and
//! [`BigtableConfig::batch_bytes`]; per-row statuses that arrived before a stream broke are
//! kept, so a failed batch lists exactly the rows not confirmed. Transient failures
//! (UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED, a dropped connection or a cancelled
//! transport, a deadline) are retried per
//! [`RetryPolicy`]; every attempt has a deadline. A missing table or column family is an error
//! on the first read or write (checked once per store with the admin API's `GetTable`), not an
//! empty result.

mod admin;
mod atomic;
mod chunks;
mod config;
mod credentials;
mod dial;
mod error;
mod scan;
mod token;

pub use config::BigtableConfig;
pub use credentials::{
    AccessToken, Credentials, ServiceAccountKey, TokenError, TokenFuture, TokenSource,
};
pub use error::BigtableError;

use std::future::Future;
use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use futures_util::StreamExt;
use googleapis_tonic_google_bigtable_v2::google::bigtable::v2 as pb;
use pb::bigtable_client::BigtableClient;
use tonic::transport::{Channel, ClientTlsConfig, Endpoint};

use super::net::batch::{self, BatchRow, Confirmations};
use super::{
    AsyncStore, BatchError, Blocking, CellError, CellRow, CellStream, CellVersion, Columns, Row,
    RowStream, RowWrite, Versions,
};
use crate::cell::Pick;
use crate::scan::pushdown::KeyFilter;
use crate::scan::KeyRange;

const QUALIFIER: &[u8] = b"v";
/// Bigtable's row-key limit.
pub(crate) const MAX_KEY_LEN: usize = 4096;
/// Bigtable's limit of mutations in one MutateRows request.
pub(crate) const MAX_MUTATIONS: usize = 100_000;
const DATA_SCOPE: &str = "https://www.googleapis.com/auth/bigtable.data";
const ADMIN_SCOPE: &str = "https://www.googleapis.com/auth/bigtable.admin.table";

struct Inner {
    config: BigtableConfig,
    /// The client metrics' labels (`rowkey::store::metrics`).
    meter: super::net::metrics::Meter,
    table_name: String,
    data: BigtableClient<Channel>,
    admin_channel: Channel,
    /// The access tokens (`None`: the emulator, or [`Credentials::None`]).
    auth: Option<token::Auth>,
    handle: tokio::runtime::Handle,
    /// The read filter (see `value_filter`).
    filter: pb::RowFilter,
    /// Headers every data request carries.
    routing: tonic::metadata::MetadataValue<tonic::metadata::Ascii>,
    features: tonic::metadata::MetadataValue<tonic::metadata::Ascii>,
    /// The table-and-family check, run once per store (see `checked.rs`).
    schema: super::net::checked::CheckedOnce<BigtableError>,
}

/// One Bigtable table as an [`AsyncStore`]. Cheap to clone; clones share the connection.
#[derive(Clone)]
pub struct AsyncBigtableStore {
    inner: Arc<Inner>,
}

/// One Bigtable table as a blocking [`Store`](super::Store): the async store on a runtime
/// thread of its own, safe to create, use and drop inside or outside an async runtime.
pub type BigtableStore = Blocking<AsyncBigtableStore>;

impl Blocking<AsyncBigtableStore> {
    /// Connects to table `table` of `projects/{project}/instances/{instance}`, keeping values in
    /// column family `family`. Honours `BIGTABLE_EMULATOR_HOST`; otherwise uses Google's
    /// application-default credentials.
    pub fn connect(
        project: &str,
        instance: &str,
        table: &str,
        family: &str,
    ) -> Result<Self, BigtableError> {
        Self::with_config(BigtableConfig::new(project, instance, table, family))
    }

    /// Connects to the emulator at `host` (`127.0.0.1:PORT`), whatever the environment says.
    pub fn connect_emulator(
        host: &str,
        project: &str,
        instance: &str,
        table: &str,
        family: &str,
    ) -> Result<Self, BigtableError> {
        Self::with_config(BigtableConfig::new(project, instance, table, family).emulator(host))
    }

    /// Connects as `config` says.
    pub fn with_config(config: BigtableConfig) -> Result<Self, BigtableError> {
        Blocking::open(move || AsyncBigtableStore::connect(config))
    }

    /// Creates the table with its column family (keeping one version per cell), pre-split at
    /// `splits` (from `split_points`); an existing table is left as it is. On a real instance
    /// the credentials need table-admin rights.
    pub fn create_table(&self, splits: &[bytes::Bytes]) -> Result<(), BigtableError> {
        let splits = splits.to_vec();
        self.call(|s| async move { s.create_table(&splits).await })
    }

    /// [`AsyncBigtableStore::create_table_with`]: the table with `families` and their
    /// garbage-collection rules.
    pub fn create_table_with(
        &self,
        families: &[crate::family::Family],
        splits: &[bytes::Bytes],
    ) -> Result<(), BigtableError> {
        let (families, splits) = (families.to_vec(), splits.to_vec());
        self.call(|s| async move { s.create_table_with(&families, &splits).await })
    }

    /// [`AsyncBigtableStore::create_table_for`]: the table with `families` and `K`'s key
    /// layout fingerprint recorded.
    pub fn create_table_for<K: crate::RowKey>(
        &self,
        families: &[crate::family::Family],
        splits: &[bytes::Bytes],
    ) -> Result<(), BigtableError> {
        let (families, splits) = (families.to_vec(), splits.to_vec());
        self.call(|s| async move { s.create_table_for::<K>(&families, &splits).await })
    }

    /// [`AsyncBigtableStore::create_table_keyed`]: the table with `families` and a key layout
    /// fingerprint recorded.
    pub fn create_table_keyed(
        &self,
        families: &[crate::family::Family],
        splits: &[bytes::Bytes],
        key_fingerprint: u64,
    ) -> Result<(), BigtableError> {
        let (families, splits) = (families.to_vec(), splits.to_vec());
        self.call(|s| async move {
            s.create_table_keyed(&families, &splits, key_fingerprint)
                .await
        })
    }

    /// [`AsyncBigtableStore::key_fingerprint`]: the key layout the table records.
    pub fn key_fingerprint(&self) -> Result<Option<u64>, BigtableError> {
        self.call(|s| async move { s.key_fingerprint().await })
    }

    /// [`AsyncBigtableStore::check_key_layout`]: refuses a key type whose layout is not the
    /// table's.
    pub fn check_key_layout<K: crate::RowKey>(&self) -> Result<(), BigtableError> {
        self.call(|s| async move { s.check_key_layout::<K>().await })
    }

    /// [`AsyncBigtableStore::check_key_fingerprint`]: refuses a key layout that is not the
    /// table's.
    pub fn check_key_fingerprint(&self, key: &str, fingerprint: u64) -> Result<(), BigtableError> {
        let key = key.to_string();
        self.call(|s| async move { s.check_key_fingerprint(&key, fingerprint).await })
    }

    /// [`AsyncBigtableStore::sample_row_keys`]: approximate tablet boundaries and the bytes
    /// before each.
    pub fn sample_row_keys(&self) -> Result<Vec<(bytes::Bytes, u64)>, BigtableError> {
        self.call(|s| async move { s.sample_row_keys().await })
    }

    /// [`AsyncBigtableStore::gc_rules`]: the live table's families and their rules.
    pub fn gc_rules(&self) -> Result<Vec<(String, Option<crate::family::GcRule>)>, BigtableError> {
        self.call(|s| async move { s.gc_rules().await })
    }

    /// [`AsyncBigtableStore::set_gc_rule`]: one family's rule, creating the family if needed.
    pub fn set_gc_rule(&self, family: &crate::family::Family) -> Result<(), BigtableError> {
        let family = family.clone();
        self.call(|s| async move { s.set_gc_rule(&family).await })
    }

    /// The same as [`create_table`](Self::create_table), under its earlier name.
    pub fn create_table_on_emulator(&self, splits: &[bytes::Bytes]) -> Result<(), BigtableError> {
        self.create_table(splits)
    }
}

/// A channel to `url`: TLS as `config.tls` says for `https://`, plain text for `http://`
/// (refused when a token would travel over it).
fn channel(url: &str, config: &BigtableConfig) -> Result<Channel, BigtableError> {
    let tls = if url.starts_with("https://") {
        Some(config.tls.tonic().map_err(error::connect)?)
    } else if url.starts_with("http://") {
        if !matches!(config.credentials, Credentials::None) {
            return Err(error::connect(format!(
                "{url} is plain text: access tokens go only over https:// (or use Credentials::None)"
            )));
        }
        None
    } else {
        return Err(error::connect(format!(
            "invalid endpoint `{url}`: an https:// (or http://) URL"
        )));
    };
    Ok(
        endpoint(url.to_string(), config, tls)?.connect_with_connector_lazy(dial::Dial {
            meter: super::net::metrics::Meter::new(error::STORE, &config.table),
        }),
    )
}

fn endpoint(
    uri: String,
    config: &BigtableConfig,
    tls: Option<ClientTlsConfig>,
) -> Result<Endpoint, BigtableError> {
    let mut e = Endpoint::from_shared(uri.clone())
        .map_err(|err| error::connect(format!("invalid address `{uri}`: {err}")))?
        .connect_timeout(config.options.connect_timeout)
        .tcp_nodelay(true)
        .http2_keep_alive_interval(Duration::from_secs(30))
        .keep_alive_timeout(Duration::from_secs(10))
        .keep_alive_while_idle(true)
        .initial_connection_window_size(Some(16 << 20))
        .initial_stream_window_size(Some(2 << 20));
    if let Some(tls) = tls {
        e = e
            .tls_config(tls)
            .map_err(|err| error::connect(format!("TLS: {}", super::net::error_chain(&err))))?;
    }
    Ok(e)
}

/// URL-safe base64 with padding, for the `bigtable-features` header (the base64 crate, which
/// the token exchange needs anyway).
fn base64url(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE.encode(bytes)
}

/// Percent-encodes a routing-header value (everything but unreserved characters).
fn percent(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A regular expression (RE2) that matches exactly `s`.
fn exact_regex(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for &b in s {
        if !b.is_ascii_alphanumeric() && b != b'_' {
            out.push(b'\\');
        }
        out.push(b);
    }
    out
}

/// The read filter: the latest cell of the value column (`family:v`). Built once per store.
fn value_filter(family: &str) -> pb::RowFilter {
    use pb::row_filter::{Chain, Filter};
    let f = |filter| pb::RowFilter {
        filter: Some(filter),
    };
    let family = String::from_utf8_lossy(&exact_regex(family.as_bytes())).into_owned();
    f(Filter::Chain(Chain {
        filters: vec![
            f(Filter::FamilyNameRegexFilter(family)),
            f(Filter::ColumnQualifierRegexFilter(exact_regex(QUALIFIER))),
            f(Filter::CellsPerColumnLimitFilter(1)),
        ],
    }))
}

/// The read filter of a cell read: the latest cell of each selected column. Exact columns
/// and qualifier ranges are column ranges (no regular expressions over raw qualifier bytes).
fn columns_filter(columns: &Columns) -> pb::RowFilter {
    use pb::column_range::{EndQualifier, StartQualifier};
    use pb::row_filter::{Chain, Filter, Interleave};
    let f = |filter| pb::RowFilter {
        filter: Some(filter),
    };
    let one_of = |mut filters: Vec<pb::RowFilter>| {
        if filters.len() == 1 {
            filters.pop().expect("one")
        } else {
            f(Filter::Interleave(Interleave { filters }))
        }
    };
    let family = |name: &str| {
        f(Filter::FamilyNameRegexFilter(
            String::from_utf8_lossy(&exact_regex(name.as_bytes())).into_owned(),
        ))
    };
    let range = |family: &str, start: &[u8], end: Option<EndQualifier>| {
        f(Filter::ColumnRangeFilter(pb::ColumnRange {
            family_name: family.to_owned(),
            start_qualifier: Some(StartQualifier::StartQualifierClosed(start.to_vec())),
            end_qualifier: end,
        }))
    };
    let selection = match columns.pick() {
        Pick::All => f(Filter::PassAllFilter(true)),
        Pick::Families(names) => one_of(names.iter().map(|n| family(n)).collect()),
        Pick::Exact(cols) => one_of(
            cols.iter()
                .map(|c| {
                    range(
                        &c.family,
                        &c.qualifier,
                        Some(EndQualifier::EndQualifierClosed(c.qualifier.clone())),
                    )
                })
                .collect(),
        ),
        Pick::QualifierRange { family, start, end } => range(
            family,
            start,
            end.clone().map(EndQualifier::EndQualifierOpen),
        ),
    };
    f(Filter::Chain(Chain {
        filters: vec![selection, f(Filter::CellsPerColumnLimitFilter(1))],
    }))
}

/// A row of a batch as Bigtable mutations.
trait Mutate: BatchRow + Sync {
    fn mutations(&self, family: &str, timestamp_micros: i64) -> Vec<pb::Mutation>;
}

fn set_cell(family: &str, qualifier: &[u8], value: &[u8], timestamp_micros: i64) -> pb::Mutation {
    pb::Mutation {
        mutation: Some(pb::mutation::Mutation::SetCell(pb::mutation::SetCell {
            family_name: family.to_owned(),
            column_qualifier: qualifier.to_vec(),
            timestamp_micros,
            value: value.to_vec(),
        })),
    }
}

impl Mutate for Row {
    fn mutations(&self, family: &str, timestamp_micros: i64) -> Vec<pb::Mutation> {
        vec![set_cell(family, QUALIFIER, &self.1, timestamp_micros)]
    }
}

impl Mutate for RowWrite {
    fn mutations(&self, _: &str, timestamp_micros: i64) -> Vec<pb::Mutation> {
        let clear = self.clear.iter().map(|c| pb::Mutation {
            mutation: Some(pb::mutation::Mutation::DeleteFromColumn(
                pb::mutation::DeleteFromColumn {
                    family_name: c.family.to_string(),
                    column_qualifier: c.qualifier.clone(),
                    // Every version up to this write's: a retry deletes nothing newer.
                    time_range: Some(pb::TimestampRange {
                        start_timestamp_micros: 0,
                        end_timestamp_micros: timestamp_micros.saturating_add(1000),
                    }),
                },
            )),
        });
        let set = self
            .set
            .iter()
            .map(|c| set_cell(&c.family, &c.qualifier, &c.value, timestamp_micros));
        clear.chain(set).collect()
    }
}

fn now_micros() -> i64 {
    // Milliseconds, as Bigtable keeps timestamps; a clock before 1970 writes at 0.
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    i64::try_from(ms).unwrap_or(i64::MAX / 1000) * 1000
}

fn check_key(key: &[u8]) -> Result<(), BigtableError> {
    if key.is_empty() || key.len() > MAX_KEY_LEN {
        return Err(error::invalid_key(key.len()));
    }
    Ok(())
}

impl AsyncBigtableStore {
    /// Connects as `config` says. Must run inside a tokio runtime; the store's background work
    /// (scan pages) runs on that runtime from then on.
    pub async fn connect(config: BigtableConfig) -> Result<Self, BigtableError> {
        let handle = tokio::runtime::Handle::try_current().map_err(|_| {
            BigtableError::Runtime {
                store: error::STORE,
                message: "AsyncBigtableStore::connect runs inside a tokio runtime; use BigtableStore elsewhere"
                    .into(),
            }
        })?;
        let (data, admin_channel, auth) = match &config.emulator {
            Some(host) => {
                let channel = endpoint(format!("http://{host}"), &config, None)?
                    .connect_with_connector_lazy(dial::Dial {
                        meter: super::net::metrics::Meter::new(error::STORE, &config.table),
                    });
                (channel.clone(), channel, None)
            }
            None => {
                let data = channel(&config.data_endpoint, &config)?;
                let admin = if config.admin_endpoint == config.data_endpoint {
                    data.clone()
                } else {
                    channel(&config.admin_endpoint, &config)?
                };
                let auth = token::Auth::new(
                    &config.credentials,
                    &config.tls,
                    config.options.retry.attempt_timeout,
                )
                .await?;
                (data, admin, auth)
            }
        };
        let table_name = config.table_name();
        let mut routing = format!("table_name={}", percent(&table_name));
        if !config.app_profile.is_empty() {
            routing.push_str(&format!("&app_profile_id={}", percent(&config.app_profile)));
        }
        let features = pb::FeatureFlags {
            reverse_scans: true,
            ..Default::default()
        };
        let features = base64url(&prost::Message::encode_to_vec(&features));
        let header = |s: String| {
            tonic::metadata::MetadataValue::try_from(s)
                .map_err(|e| error::connect(format!("invalid header: {e}")))
        };
        Ok(AsyncBigtableStore {
            inner: Arc::new(Inner {
                data: BigtableClient::new(data)
                    .max_decoding_message_size(256 << 20)
                    .max_encoding_message_size(256 << 20),
                admin_channel,
                auth,
                handle,
                routing: header(routing)?,
                features: header(features)?,
                filter: value_filter(&config.family),
                schema: super::net::checked::CheckedOnce::new(),
                meter: super::net::metrics::Meter::new(error::STORE, &config.table),
                table_name,
                config,
            }),
        })
    }

    /// The configuration it was opened with.
    pub fn config(&self) -> &BigtableConfig {
        &self.inner.config
    }

    /// A data request with the routing and feature headers, the attempt's deadline and, on a
    /// real instance, the access token.
    async fn request<T>(&self, message: T) -> Result<tonic::Request<T>, BigtableError> {
        let mut request = tonic::Request::new(message);
        request.set_timeout(self.inner.config.options.retry.attempt_timeout);
        let md = request.metadata_mut();
        md.insert("x-goog-request-params", self.inner.routing.clone());
        md.insert("bigtable-features", self.inner.features.clone());
        self.authorize(&mut request, token::Scope::Data).await?;
        Ok(request)
    }

    /// Adds the access token for `scope`, when the store has credentials.
    async fn authorize<T>(
        &self,
        request: &mut tonic::Request<T>,
        scope: token::Scope,
    ) -> Result<(), BigtableError> {
        if let Some(auth) = &self.inner.auth {
            let header = auth.header(scope).await?;
            request.metadata_mut().insert("authorization", header);
        }
        Ok(())
    }

    /// Whether a failed attempt, sent at `sent`, is worth another: a transient failure, or the
    /// server refusing the access token (the token is dropped, so the next attempt carries a
    /// new one).
    fn retry_after(&self, e: &BigtableError, sent: Instant) -> bool {
        if error::refused_token(e) {
            if let Some(auth) = &self.inner.auth {
                auth.refused(sent);
                return true;
            }
        }
        e.is_transient()
    }

    /// Runs `attempt` under the policy: each try within its deadline, transient failures tried
    /// again after a backoff while attempts remain.
    /// A refused access token counts as a transient failure: dropped, and the next attempt
    /// carries a new one.
    async fn retrying<T, F, Fut>(
        &self,
        op: &'static str,
        mut attempt: F,
    ) -> Result<T, BigtableError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, BigtableError>>,
    {
        let span = tracing::debug_span!(target: "rowkey::store", "call", store = "bigtable", op);
        let sent = std::sync::Mutex::new(Instant::now());
        let sent_at = || *sent.lock().unwrap_or_else(|p| p.into_inner());
        tracing::Instrument::instrument(
            super::net::retry::run(
                &self.inner.meter,
                op,
                &self.inner.config.options.retry,
                |e| self.retry_after(e, sent_at()),
                |after| BigtableError::Timeout {
                    store: error::STORE,
                    op,
                    after,
                },
                || {
                    *sent.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
                    attempt()
                },
            ),
            span,
        )
        .await
    }

    /// Checks once per store that the table and the family exist (see
    /// [`BigtableConfig::check_schema`]).
    async fn ensure_schema(&self) -> Result<(), BigtableError> {
        if !self.inner.config.options.check_schema {
            return Ok(());
        }
        self.inner
            .schema
            .ensure(|| self.retrying("GetTable", || self.check_schema()))
            .await
    }

    async fn mutate_row(&self, key: &[u8], mutation: pb::Mutation) -> Result<(), BigtableError> {
        check_key(key)?;
        self.ensure_schema().await?;
        // Every mutation rowkey sends is idempotent (explicit timestamps, whole-row deletes),
        // so a transient failure is retried.
        self.retrying("MutateRow", || async {
            let request = self
                .request(pb::MutateRowRequest {
                    table_name: self.inner.table_name.clone(),
                    app_profile_id: self.inner.config.app_profile.clone(),
                    row_key: key.to_vec(),
                    mutations: vec![mutation.clone()],
                    ..Default::default()
                })
                .await?;
            let mut client = self.inner.data.clone();
            client
                .mutate_row(request)
                .await
                .map_err(|s| error::status("MutateRow", &s))?;
            Ok(())
        })
        .await
    }

    /// One MutateRows request for the rows at `pending` (indices into `rows`): OK statuses go
    /// to `confirmed`, transient ones to `retry`, others to `rejected`; `seen` marks the rows
    /// that got any status. Progress survives a broken stream or a deadline: the caller owns it.
    async fn mutate_rows_once<R: Mutate>(
        &self,
        rows: &[R],
        pending: &[usize],
        timestamp: i64,
        progress: &mut PartProgress,
    ) -> Result<(), BigtableError> {
        let entries = pending
            .iter()
            .map(|&i| pb::mutate_rows_request::Entry {
                row_key: rows[i].key().to_vec(),
                mutations: rows[i].mutations(&self.inner.config.family, timestamp),
                ..Default::default()
            })
            .collect();
        let request = self
            .request(pb::MutateRowsRequest {
                table_name: self.inner.table_name.clone(),
                app_profile_id: self.inner.config.app_profile.clone(),
                entries,
                ..Default::default()
            })
            .await?;
        let mut client = self.inner.data.clone();
        let mut stream = client
            .mutate_rows(request)
            .await
            .map_err(|s| error::status("MutateRows", &s))?
            .into_inner();
        while let Some(response) = stream
            .message()
            .await
            .map_err(|s| error::status("MutateRows", &s))?
        {
            for entry in response.entries {
                let Some(&row) = usize::try_from(entry.index)
                    .ok()
                    .and_then(|i| pending.get(i))
                else {
                    continue;
                };
                let (code, message) = entry
                    .status
                    .map_or((0, String::new()), |s| (s.code, s.message));
                progress.seen.insert(row);
                if code == 0 {
                    progress.confirmed.push(row);
                } else if error::transient_code(code) {
                    progress.retry.push(row);
                    progress.last_error = Some(error::rejected(code, message));
                } else {
                    progress
                        .rejected
                        .push((row, error::rejected(code, message)));
                }
            }
        }
        Ok(())
    }

    /// Writes the rows of `part`, retrying what is transient; returns the confirmed rows and
    /// the first error.
    async fn mutate_part<R: Mutate>(
        &self,
        rows: &[R],
        part: Range<usize>,
        timestamp: i64,
    ) -> (Vec<usize>, Option<BigtableError>) {
        let policy = &self.inner.config.options.retry;
        let mut pending: Vec<usize> = part.collect();
        let mut confirmed = Vec::new();
        let mut first_error: Option<BigtableError> = None;
        let mut attempt = 1;
        loop {
            let mut progress = PartProgress::default();
            let sent = Instant::now();
            let outcome = tokio::time::timeout(
                policy.attempt_timeout,
                self.mutate_rows_once(rows, &pending, timestamp, &mut progress),
            )
            .await
            .unwrap_or(Err(BigtableError::Timeout {
                store: error::STORE,
                op: "MutateRows",
                after: policy.attempt_timeout,
            }));
            confirmed.append(&mut progress.confirmed);
            for (_, e) in progress.rejected {
                first_error.get_or_insert(e);
            }
            // Rows with no status: the call broke before answering for them.
            let unanswered = pending
                .iter()
                .filter(|r| !progress.seen.contains(r))
                .copied();
            let mut retry = progress.retry;
            let call_error = match outcome {
                Ok(()) => {
                    let missing: Vec<usize> = unanswered.collect();
                    if !missing.is_empty() {
                        first_error.get_or_insert(error::protocol(format!(
                            "MutateRows ended without a status for {} row(s)",
                            missing.len()
                        )));
                    }
                    progress.last_error
                }
                Err(e) => {
                    if self.retry_after(&e, sent) {
                        retry.extend(unanswered);
                        Some(e)
                    } else {
                        first_error.get_or_insert(e);
                        progress.last_error
                    }
                }
            };
            if retry.is_empty() {
                return (confirmed, first_error);
            }
            if !policy.retries_after(attempt) {
                if let Some(e) = call_error {
                    first_error.get_or_insert(e);
                }
                return (confirmed, first_error);
            }
            self.inner.meter.retry(match &call_error {
                Some(BigtableError::Timeout { .. }) => "timeout",
                _ => "transient",
            });
            tokio::time::sleep(policy.backoff(attempt)).await;
            attempt += 1;
            retry.sort_unstable();
            pending = retry;
        }
    }

    /// Writes a batch (raw rows or rows of cells): cut into requests within the limits, sent a
    /// few at a time; the error lists exactly the rows Bigtable did not confirm. A key Bigtable
    /// cannot store fails the batch before anything is sent.
    async fn write_all<R: Mutate>(&self, rows: &[R]) -> Result<(), BatchError<BigtableError>> {
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
        let timestamp = now_micros();
        let parts = batch::split(
            rows,
            config.options.batch_rows.clamp(1, MAX_MUTATIONS),
            config.options.batch_bytes,
        );
        let outcomes: Vec<_> = futures_util::stream::iter(parts)
            .map(|part| self.mutate_part(rows, part, timestamp))
            .buffer_unordered(config.options.batch_concurrency.max(1))
            .collect()
            .await;
        let mut confirmations = Confirmations::new(rows.len());
        for (confirmed, error) in outcomes {
            for i in confirmed {
                confirmations.confirm(i);
            }
            if let Some(e) = error {
                confirmations.error(e);
            }
        }
        confirmations.finish(rows, || {
            error::protocol("rows were not confirmed and no error was reported")
        })
    }
}

/// What one MutateRows attempt learned.
#[derive(Default)]
struct PartProgress {
    confirmed: Vec<usize>,
    retry: Vec<usize>,
    rejected: Vec<(usize, BigtableError)>,
    seen: std::collections::HashSet<usize>,
    last_error: Option<BigtableError>,
}

impl AsyncStore for AsyncBigtableStore {
    type Error = BigtableError;

    async fn put(&self, key: &[u8], value: &[u8]) -> Result<(), BigtableError> {
        let set = set_cell(&self.inner.config.family, QUALIFIER, value, now_micros());
        self.mutate_row(key, set).await
    }

    async fn get(&self, key: &[u8]) -> Result<Option<Bytes>, BigtableError> {
        check_key(key)?;
        self.ensure_schema().await?;
        Ok(self.read_one(key, &self.values()).await?.map(|(_, v)| v))
    }

    async fn delete(&self, key: &[u8]) -> Result<(), BigtableError> {
        let all = pb::Mutation {
            mutation: Some(pb::mutation::Mutation::DeleteFromRow(
                pb::mutation::DeleteFromRow {},
            )),
        };
        self.mutate_row(key, all).await
    }

    /// Cut into requests within the limits, sent a few at a time; the error lists exactly the
    /// rows Bigtable did not confirm. A key Bigtable cannot store fails the batch before
    /// anything is sent.
    async fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<BigtableError>> {
        let started = Instant::now();
        let result = self.write_all(rows).await;
        self.inner.meter.batch(started, rows.len(), &result);
        result
    }

    fn scan(&self, range: &KeyRange) -> RowStream<BigtableError> {
        scan::spawn(self.clone(), range.clone(), false, self.values())
    }

    fn scan_rev(&self, range: &KeyRange) -> Option<RowStream<BigtableError>> {
        Some(scan::spawn(
            self.clone(),
            range.clone(),
            true,
            self.values(),
        ))
    }

    /// A row-key regular expression ([`KeyFilter::re2_regex`]) chained before the value
    /// filter: the tablet servers send only the rows whose keys match it.
    fn scan_filtered(
        &self,
        range: &KeyRange,
        filter: &KeyFilter,
        reverse: bool,
    ) -> Option<RowStream<BigtableError>> {
        use pb::row_filter::{Chain, Filter};
        let f = |filter| pb::RowFilter {
            filter: Some(filter),
        };
        let keys = f(Filter::RowKeyRegexFilter(filter.re2_regex().into_bytes()));
        let values = scan::Values {
            filter: f(Filter::Chain(Chain {
                filters: vec![keys, self.inner.filter.clone()],
            })),
            family: self.inner.config.family.clone(),
        };
        Some(scan::spawn(self.clone(), range.clone(), reverse, values))
    }

    /// Each row's first cell with its value stripped (`CellsPerRowLimitFilter(1)` chained with
    /// `StripValueTransformer`): every row of the range, whatever its columns.
    fn scan_keys(&self, range: &KeyRange) -> super::KeyStream<BigtableError> {
        scan::spawn(self.clone(), range.clone(), false, scan::Keys::new())
    }

    /// One MutateRow per batch of requests, as [`AsyncStore::write_batch`]: a row's set and
    /// cleared cells go in one MutateRows entry, so each row is written atomically.
    async fn write_rows(&self, rows: &[RowWrite]) -> Result<(), BatchError<BigtableError>> {
        self.write_all(rows).await
    }

    async fn read_row(
        &self,
        key: &[u8],
        columns: &Columns,
    ) -> Result<Option<CellRow>, CellError<BigtableError>> {
        check_key(key).map_err(CellError::Store)?;
        if columns.is_empty() {
            return Ok(None);
        }
        self.ensure_schema().await.map_err(CellError::Store)?;
        let shape = scan::Cells {
            filter: columns_filter(columns),
        };
        self.read_one(key, &shape).await.map_err(CellError::Store)
    }

    async fn delete_row(&self, key: &[u8]) -> Result<(), CellError<BigtableError>> {
        AsyncStore::delete(self, key)
            .await
            .map_err(CellError::Store)
    }

    fn scan_rows(&self, range: &KeyRange, columns: &Columns) -> CellStream<BigtableError> {
        self.cell_scan(range, columns, false)
    }

    fn scan_rows_rev(
        &self,
        range: &KeyRange,
        columns: &Columns,
    ) -> Option<CellStream<BigtableError>> {
        Some(self.cell_scan(range, columns, true))
    }
}

impl AsyncBigtableStore {
    /// One row through `shape`'s filter, with retries; `None` when the row has no selected
    /// cell.
    async fn read_one<S: scan::Shape>(
        &self,
        key: &[u8],
        shape: &S,
    ) -> Result<Option<S::Row>, BigtableError> {
        let (rows, _) = self
            .retrying("ReadRows", || {
                self.read_rows(
                    pb::RowSet {
                        row_keys: vec![key.to_vec()],
                        row_ranges: vec![],
                    },
                    1,
                    false,
                    usize::MAX,
                    shape.filter(),
                )
            })
            .await?;
        Ok(rows.into_iter().next().map(|r| shape.convert(r)))
    }

    fn values(&self) -> scan::Values {
        scan::Values {
            filter: self.inner.filter.clone(),
            family: self.inner.config.family.clone(),
        }
    }

    fn cell_scan(
        &self,
        range: &KeyRange,
        columns: &Columns,
        reversed: bool,
    ) -> CellStream<BigtableError> {
        if columns.is_empty() {
            return Box::pin(futures_util::stream::empty());
        }
        let shape = scan::Cells {
            filter: columns_filter(columns),
        };
        Box::pin(
            scan::spawn(self.clone(), range.clone(), reversed, shape)
                .map(|r| r.map_err(CellError::Store)),
        )
    }
}

/// Cells' versions: timestamps in milliseconds, explicit on write.
impl super::AsyncVersions for AsyncBigtableStore {
    /// The versions of cell `family:qualifier` of row `key` that `versions` selects, newest
    /// first, with their timestamps (milliseconds; Bigtable keeps microseconds at millisecond
    /// granularity). What Bigtable keeps is what the family's GC rule leaves: garbage
    /// collection runs in the background, so cells past their rule may still be read for a
    /// while (unlike HBase, which applies TTL and versions as it reads).
    async fn read_versions(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        versions: &Versions,
    ) -> Result<Vec<CellVersion>, BigtableError> {
        use pb::row_filter::{Chain, Filter};
        check_key(key)?;
        self.ensure_schema().await?;
        let f = |filter| pb::RowFilter {
            filter: Some(filter),
        };
        let micros = |ms: i64| ms.saturating_mul(1000);
        let shape = scan::CellVersions {
            filter: f(Filter::Chain(Chain {
                filters: vec![
                    f(Filter::FamilyNameRegexFilter(
                        String::from_utf8_lossy(&exact_regex(family.as_bytes())).into_owned(),
                    )),
                    f(Filter::ColumnQualifierRegexFilter(exact_regex(qualifier))),
                    f(Filter::TimestampRangeFilter(pb::TimestampRange {
                        start_timestamp_micros: micros(versions.from_ms.max(0)),
                        // 0: no end.
                        end_timestamp_micros: if versions.until_ms >= i64::MAX / 1000 {
                            0
                        } else {
                            micros(versions.until_ms.max(0))
                        },
                    })),
                    f(Filter::CellsPerColumnLimitFilter(
                        i32::try_from(versions.max.max(1)).unwrap_or(i32::MAX),
                    )),
                ],
            })),
        };
        Ok(self.read_one(key, &shape).await?.unwrap_or_default())
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
    ) -> Result<(), BigtableError> {
        self.mutate_row(
            key,
            set_cell(family, qualifier, value, timestamp_ms.saturating_mul(1000)),
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_matches_the_standard() {
        assert_eq!(base64url(b""), "");
        assert_eq!(base64url(b"f"), "Zg==");
        assert_eq!(base64url(b"fo"), "Zm8=");
        assert_eq!(base64url(b"foo"), "Zm9v");
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8=");
        // FeatureFlags { reverse_scans: true }: field 1, varint 1.
        let flags = pb::FeatureFlags {
            reverse_scans: true,
            ..Default::default()
        };
        assert_eq!(base64url(&prost::Message::encode_to_vec(&flags)), "CAE=");
    }

    #[test]
    fn headers_and_regexes_escape() {
        assert_eq!(
            percent("projects/p/tables/t-1"),
            "projects%2Fp%2Ftables%2Ft-1"
        );
        assert_eq!(exact_regex(b"a.b"), b"a\\.b");
        assert!(check_key(&[]).is_err());
        assert!(check_key(&[0; MAX_KEY_LEN]).is_ok());
        assert!(check_key(&[0; MAX_KEY_LEN + 1]).is_err());
        assert_eq!(now_micros() % 1000, 0);
    }
}
