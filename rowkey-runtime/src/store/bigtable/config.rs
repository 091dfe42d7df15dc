//! [`BigtableConfig`]: where and how an [`AsyncBigtableStore`](super::AsyncBigtableStore)
//! connects, and its limits.

use std::time::Duration;

use crate::store::RetryPolicy;

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
    /// An emulator's `host:port`; `None` connects to the real service with application-default
    /// credentials. [`BigtableConfig::new`] takes it from `BIGTABLE_EMULATOR_HOST`.
    pub emulator: Option<String>,
    /// The app profile for requests (empty: the instance's default).
    pub app_profile: String,
    /// Retries and per-attempt deadlines.
    pub retry: RetryPolicy,
    /// How long establishing a connection may take.
    pub connect_timeout: Duration,
    /// Rows per scan page (`rows_limit`); a range holds at most three pages in memory.
    pub page_rows: usize,
    /// Bytes per scan page: a page ends early once its rows pass this size.
    pub page_bytes: usize,
    /// Rows per MutateRows request (at most 100,000, Bigtable's limit of mutations per request).
    pub batch_rows: usize,
    /// Bytes of keys and values per MutateRows request.
    pub batch_bytes: usize,
    /// MutateRows requests in flight at once within one batch.
    pub batch_concurrency: usize,
    /// Check on first use that the table and the column family exist (admin `GetTable`), so a
    /// typo is an error rather than an empty table. Turn off only where the credentials may not
    /// read table metadata; a missing family then reads as empty.
    pub check_schema: bool,
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
            app_profile: String::new(),
            retry: RetryPolicy::default(),
            connect_timeout: Duration::from_secs(5),
            // 10,000: the emulator collects the rest of the range for every page, so small
            // pages cost it quadratically (1,000-row pages scan 2.3x slower there).
            page_rows: 10_000,
            page_bytes: 4 << 20,
            batch_rows: 10_000,
            batch_bytes: 4 << 20,
            batch_concurrency: 4,
            check_schema: true,
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
        let mut out = vec![self.family.clone()];
        for f in &self.families {
            if !out.contains(f) {
                out.push(f.clone());
            }
        }
        out
    }

    /// The emulator at `host` (`127.0.0.1:PORT`), whatever the environment says.
    pub fn emulator(mut self, host: &str) -> Self {
        self.emulator = Some(host.into());
        self
    }

    /// Another retry policy.
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    pub(super) fn table_name(&self) -> String {
        format!(
            "projects/{}/instances/{}/tables/{}",
            self.project, self.instance, self.table
        )
    }
}
