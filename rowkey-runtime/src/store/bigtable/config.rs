//! [`BigtableConfig`]: where and how an [`AsyncBigtableStore`](super::AsyncBigtableStore)
//! connects, and its limits.

use super::Credentials;
use crate::store::{NetOptions, RetryPolicy, Tls};

/// Google's endpoint for Bigtable's data API.
const DATA_ENDPOINT: &str = "https://bigtable.googleapis.com";
/// Google's endpoint for Bigtable's table-admin API.
const ADMIN_ENDPOINT: &str = "https://bigtableadmin.googleapis.com";

/// Where and how to connect; [`BigtableConfig::new`] gives the defaults.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct BigtableConfig {
    /// The Google Cloud project.
    pub project: String,
    /// The Bigtable instance.
    pub instance: String,
    /// The table.
    pub table: String,
    /// The column family that holds the values.
    pub family: String,
    /// An emulator's `host:port`, reached in plain text without credentials (`endpoint`,
    /// `tls` and `credentials` then play no part); `None` connects to `data_endpoint` and
    /// `admin_endpoint`. [`BigtableConfig::new`] takes it from `BIGTABLE_EMULATOR_HOST`.
    pub emulator: Option<String>,
    /// The data API's URL: Google's (`https://bigtable.googleapis.com`) by default; a private
    /// endpoint or a proxy otherwise. `http://` is plain text and allowed only with
    /// [`Credentials::None`] (a token is never sent in clear).
    pub data_endpoint: String,
    /// The table-admin API's URL (`https://bigtableadmin.googleapis.com` by default).
    pub admin_endpoint: String,
    /// Which certificates the TLS connections (and HTTPS token requests) trust: the system's
    /// roots by default.
    pub tls: Tls,
    /// Where access tokens come from: Google's application-default chain by default.
    pub credentials: Credentials,
    /// The app profile for requests (empty: the instance's default).
    pub app_profile: String,
    /// Retries, deadlines, page and batch sizes, the first-use check: the fields every network
    /// store shares. Bigtable's defaults: pages of 10,000 rows and 4 MiB, batches of 10,000 rows
    /// and 4 MiB less 64 KiB (framing counted).
    pub options: NetOptions,
    /// Further column families, for rows of cells ([`CellTable`](crate::store::CellTable)):
    /// `create_table` creates them beside `family`, and the schema check requires them. A
    /// value type's are `V::SCHEMA.families()`.
    pub families: Vec<String>,
}

impl BigtableConfig {
    /// Table `table` of `projects/{project}/instances/{instance}`, values in column family
    /// `family`; the emulator from `BIGTABLE_EMULATOR_HOST` when it is set.
    pub fn new(project: &str, instance: &str, table: &str, family: &str) -> Self {
        BigtableConfig {
            project: project.into(),
            instance: instance.into(),
            table: table.into(),
            family: family.into(),
            emulator: std::env::var("BIGTABLE_EMULATOR_HOST").ok(),
            data_endpoint: DATA_ENDPOINT.into(),
            admin_endpoint: ADMIN_ENDPOINT.into(),
            tls: Tls::default(),
            credentials: Credentials::default(),
            app_profile: String::new(),
            // 10,000-row pages: the emulator collects the rest of the range for every page,
            // so small pages cost it quadratically (1,000-row pages scan 2.3x slower there).
            // Batches under 4 MiB with their framing counted (a gRPC server's default message
            // limit, the emulator's): a batch of 2,000 rows of 4 KiB cells was one 4.24 MB
            // request, refused.
            options: NetOptions::new()
                .page_rows(10_000)
                .batches(10_000, (4 << 20) - (64 << 10), 4),
            families: Vec::new(),
        }
    }

    /// Further column families ([`BigtableConfig::families`]).
    pub fn families<F: Into<String>>(mut self, families: impl IntoIterator<Item = F>) -> Self {
        self.families = families.into_iter().map(Into::into).collect();
        self
    }

    /// Every family the table needs: `family`, then `families` (without repeats).
    pub(crate) fn all_families(&self) -> Vec<String> {
        crate::store::net::all_families(&self.family, &self.families)
    }

    /// The emulator at `host` (`127.0.0.1:PORT`), whatever the environment says.
    pub fn emulator(mut self, host: &str) -> Self {
        self.emulator = Some(host.into());
        self
    }

    /// Both APIs at `url` (a private endpoint, a proxy), and no emulator.
    pub fn endpoint(mut self, url: &str) -> Self {
        self.data_endpoint = url.into();
        self.admin_endpoint = url.into();
        self.emulator = None;
        self
    }

    /// Which certificates TLS trusts ([`BigtableConfig::tls`]).
    pub fn tls(mut self, tls: Tls) -> Self {
        self.tls = tls;
        self
    }

    /// Where access tokens come from ([`BigtableConfig::credentials`]).
    pub fn credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = credentials;
        self
    }

    /// Another retry policy (in [`BigtableConfig::options`]).
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.options.retry = retry;
        self
    }

    /// Other options ([`BigtableConfig::options`]).
    pub fn options(mut self, options: NetOptions) -> Self {
        self.options = options;
        self
    }

    pub(super) fn table_name(&self) -> String {
        format!(
            "projects/{}/instances/{}/tables/{}",
            self.project, self.instance, self.table
        )
    }
}
