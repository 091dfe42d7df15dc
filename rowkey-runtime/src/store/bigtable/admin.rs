//! The two admin calls the store makes: creating a pre-split table, and checking once that the
//! table and its column families exist (so a typo in either is an error, not an empty table).

use admin::bigtable_table_admin_client::BigtableTableAdminClient;
use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2 as admin;

use super::{error, AsyncBigtableStore, BigtableError, ADMIN_SCOPE};

impl AsyncBigtableStore {
    fn admin(&self) -> BigtableTableAdminClient<tonic::transport::Channel> {
        BigtableTableAdminClient::new(self.inner.admin_channel.clone())
    }

    async fn admin_request<T>(&self, message: T) -> Result<tonic::Request<T>, BigtableError> {
        let mut request = tonic::Request::new(message);
        request.set_timeout(self.inner.config.options.retry.attempt_timeout);
        self.authorize(&mut request, ADMIN_SCOPE).await?;
        Ok(request)
    }

    /// Creates the table with its column families (one version kept per cell), pre-split at
    /// `splits`; an existing table is left as it is. Within the retry policy's deadlines.
    pub async fn create_table(&self, splits: &[bytes::Bytes]) -> Result<(), BigtableError> {
        let config = &self.inner.config;
        let families = config
            .all_families()
            .into_iter()
            .map(|name| {
                let family = admin::ColumnFamily {
                    // Always a GC rule: some emulator builds panic on a family without one.
                    gc_rule: Some(admin::GcRule {
                        rule: Some(admin::gc_rule::Rule::MaxNumVersions(1)),
                    }),
                    ..Default::default()
                };
                (name, family)
            })
            .collect();
        let message = admin::CreateTableRequest {
            parent: format!("projects/{}/instances/{}", config.project, config.instance),
            table_id: config.table.clone(),
            table: Some(admin::Table {
                column_families: families,
                ..Default::default()
            }),
            initial_splits: splits
                .iter()
                .map(|k| admin::create_table_request::Split { key: k.to_vec() })
                .collect(),
        };
        self.retrying("CreateTable", || async {
            let request = self.admin_request(message.clone()).await?;
            match self.admin().create_table(request).await {
                Ok(_) => Ok(()),
                Err(s) if s.code() == tonic::Code::AlreadyExists => Ok(()),
                Err(s) if s.message().contains("already exists") => Ok(()),
                Err(s) => Err(error::status("CreateTable", &s)),
            }
        })
        .await
    }

    /// One `GetTable`: the table must exist and have the families. Credentials that may not read
    /// table metadata skip the check (the data calls will say what they can).
    pub(super) async fn check_schema(&self) -> Result<(), BigtableError> {
        let request = self
            .admin_request(admin::GetTableRequest {
                name: self.inner.table_name.clone(),
                view: admin::table::View::SchemaView as i32,
            })
            .await?;
        let table = match self.admin().get_table(request).await {
            Ok(t) => t.into_inner(),
            Err(s) if s.code() == tonic::Code::NotFound => {
                return Err(BigtableError::MissingTable {
                    store: error::STORE,
                    table: self.inner.table_name.clone(),
                })
            }
            Err(s) if s.code() == tonic::Code::PermissionDenied => return Ok(()),
            Err(s) => return Err(error::status("GetTable", &s)),
        };
        let wanted = self.inner.config.all_families();
        let Some(family) = wanted
            .into_iter()
            .find(|f| !table.column_families.contains_key(f))
        else {
            return Ok(());
        };
        let mut families: Vec<String> = table.column_families.into_keys().collect();
        families.sort();
        Err(BigtableError::MissingFamily {
            store: error::STORE,
            table: self.inner.table_name.clone(),
            family,
            families,
        })
    }
}
