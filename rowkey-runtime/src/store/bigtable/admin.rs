//! The admin calls the store makes: creating a pre-split table with its families and their
//! garbage-collection rules, reading and changing those rules, recording and checking the key
//! layout (Bigtable tables have no attributes: the fingerprint is the name of an empty marker
//! family, `rowkey.key_fingerprint.<16 hex digits>`, which never holds a cell), sampling the
//! table's row keys (`SampleRowKeys`, the data API's view of where tablets split), and checking
//! once that the table and its column families exist (so a typo in either is an error, not an
//! empty table).

use admin::bigtable_table_admin_client::BigtableTableAdminClient;
use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2 as admin;

use super::{error, AsyncBigtableStore, BigtableError};
use crate::family::{Family, GcRule};
use crate::store::net::key_layout;

/// The marker family that records key layout `fingerprint`.
fn marker(fingerprint: u64) -> String {
    format!(
        "{}.{}",
        key_layout::RECORD,
        key_layout::to_text(fingerprint)
    )
}

/// The fingerprint a family name records, if it is a marker (`Some(None)`: a marker whose
/// digits do not parse).
fn recorded(family: &str) -> Option<Option<u64>> {
    let digits = family.strip_prefix(key_layout::RECORD)?.strip_prefix('.')?;
    Some(key_layout::from_text(digits.as_bytes()))
}

/// A rule as the admin API takes it. `None` (nothing is ever collected) is sent as "keep
/// `i32::MAX` versions": some emulator builds panic on a family without a rule.
fn to_pb(rule: Option<&GcRule>) -> admin::GcRule {
    use admin::gc_rule::{Intersection, Rule, Union};
    let rule = match rule {
        None => Rule::MaxNumVersions(i32::MAX),
        Some(GcRule::MaxVersions(n)) => Rule::MaxNumVersions(i32::try_from(*n).unwrap_or(i32::MAX)),
        Some(GcRule::MaxAgeSecs(s)) => Rule::MaxAge(prost_types::Duration {
            seconds: i64::try_from(*s).unwrap_or(i64::MAX),
            nanos: 0,
        }),
        Some(GcRule::Intersection(rules)) => Rule::Intersection(Intersection {
            rules: rules.iter().map(|r| to_pb(Some(r))).collect(),
        }),
        Some(GcRule::Union(rules)) => Rule::Union(Union {
            rules: rules.iter().map(|r| to_pb(Some(r))).collect(),
        }),
    };
    admin::GcRule { rule: Some(rule) }
}

/// A rule as the admin API reports it; `None` for no rule, or the "keep `i32::MAX` versions"
/// that stands for none.
fn from_pb(rule: Option<&admin::GcRule>) -> Result<Option<GcRule>, BigtableError> {
    use admin::gc_rule::Rule;
    let Some(rule) = rule.and_then(|r| r.rule.as_ref()) else {
        return Ok(None);
    };
    let nested = |rules: &[admin::GcRule]| -> Result<Vec<GcRule>, BigtableError> {
        rules
            .iter()
            .map(|r| from_pb(Some(r))?.ok_or_else(|| error::protocol("an empty nested GC rule")))
            .collect()
    };
    Ok(Some(match rule {
        Rule::MaxNumVersions(i32::MAX) => return Ok(None),
        Rule::MaxNumVersions(n) => GcRule::MaxVersions(
            u32::try_from(*n).map_err(|_| error::protocol(format!("a GC rule of {n} versions")))?,
        ),
        Rule::MaxAge(d) => GcRule::MaxAgeSecs(
            u64::try_from(d.seconds)
                .map_err(|_| error::protocol(format!("a GC rule of age {}s", d.seconds)))?,
        ),
        Rule::Intersection(i) => GcRule::Intersection(nested(&i.rules)?),
        Rule::Union(u) => GcRule::Union(nested(&u.rules)?),
    }))
}

impl AsyncBigtableStore {
    fn admin(&self) -> BigtableTableAdminClient<tonic::transport::Channel> {
        BigtableTableAdminClient::new(self.inner.admin_channel.clone())
    }

    async fn admin_request<T>(&self, message: T) -> Result<tonic::Request<T>, BigtableError> {
        let mut request = tonic::Request::new(message);
        request.set_timeout(self.inner.config.options.retry.attempt_timeout);
        self.authorize(&mut request, super::token::Scope::Admin)
            .await?;
        Ok(request)
    }

    /// Creates the table with its column families (one version kept per cell), pre-split at
    /// `splits`; an existing table is left as it is. Within the retry policy's deadlines.
    pub async fn create_table(&self, splits: &[bytes::Bytes]) -> Result<(), BigtableError> {
        let families: Vec<Family> = self
            .inner
            .config
            .all_families()
            .into_iter()
            .map(|name| Family::new("").named(name))
            .collect();
        self.create_table_with(&families, splits).await
    }

    /// Creates the table with `families`, each with the garbage-collection rule its versions
    /// and TTL map to ([`Family::gc_rule`]; the options Bigtable has no equivalent for,
    /// [`Family::without_bigtable_equivalent`], are not sent), pre-split at `splits`; an
    /// existing table is left as it is (compare it with [`gc_rules`](Self::gc_rules)).
    pub async fn create_table_with(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
    ) -> Result<(), BigtableError> {
        self.create(families, splits, None).await
    }

    /// [`create_table_with`](Self::create_table_with) for rows keyed by `K`: the table also
    /// records `K`'s layout fingerprint (an empty marker family,
    /// `rowkey.key_fingerprint.<16 hex digits>`), so that
    /// [`check_key_layout`](Self::check_key_layout) can refuse code whose key layout changed.
    pub async fn create_table_for<K: crate::RowKey>(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
    ) -> Result<(), BigtableError> {
        self.create(families, splits, Some(K::FINGERPRINT)).await
    }

    /// [`create_table_for`](Self::create_table_for) with the key layout's fingerprint given
    /// as a number (from a [`TableLayout`](crate::family::TableLayout) read back as JSON, say).
    pub async fn create_table_keyed(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
        key_fingerprint: u64,
    ) -> Result<(), BigtableError> {
        self.create(families, splits, Some(key_fingerprint)).await
    }

    async fn create(
        &self,
        families: &[Family],
        splits: &[bytes::Bytes],
        fingerprint: Option<u64>,
    ) -> Result<(), BigtableError> {
        let config = &self.inner.config;
        let mut families: std::collections::HashMap<String, admin::ColumnFamily> = families
            .iter()
            .map(|f| {
                let family = admin::ColumnFamily {
                    gc_rule: Some(to_pb(f.gc_rule().as_ref())),
                    ..Default::default()
                };
                (f.name.to_string(), family)
            })
            .collect();
        if let Some(f) = fingerprint {
            let keep_one = admin::ColumnFamily {
                gc_rule: Some(to_pb(Some(&GcRule::MaxVersions(1)))),
                ..Default::default()
            };
            families.insert(marker(f), keep_one);
        }
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

    /// The table's schema (`GetTable`, schema view).
    async fn get_table(&self) -> Result<admin::Table, BigtableError> {
        let message = admin::GetTableRequest {
            name: self.inner.table_name.clone(),
            view: admin::table::View::SchemaView as i32,
        };
        self.retrying("GetTable", || async {
            let request = self.admin_request(message.clone()).await?;
            self.admin()
                .get_table(request)
                .await
                .map(tonic::Response::into_inner)
                .map_err(|s| error::status("GetTable", &s))
        })
        .await
    }

    /// The table's column families and their garbage-collection rules (`GetTable`), by name;
    /// the key layout's marker family is not among them.
    pub async fn gc_rules(&self) -> Result<Vec<(String, Option<GcRule>)>, BigtableError> {
        let mut out = self
            .get_table()
            .await?
            .column_families
            .into_iter()
            .filter(|(name, _)| recorded(name).is_none())
            .map(|(name, f)| Ok((name, from_pb(f.gc_rule.as_ref())?)))
            .collect::<Result<Vec<_>, BigtableError>>()?;
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    /// The key layout fingerprint the table records (`None`: created without one).
    pub async fn key_fingerprint(&self) -> Result<Option<u64>, BigtableError> {
        let table = self.get_table().await?;
        let mut found = None;
        for name in table.column_families.keys() {
            match recorded(name) {
                None => {}
                Some(None) => {
                    return Err(error::protocol(format!(
                        "family `{name}` looks like a key layout record but does not end in 16 hex digits"
                    )))
                }
                Some(Some(f)) if found.is_some_and(|g| g != f) => {
                    return Err(error::protocol(format!(
                        "table `{}` records two key layouts ({:#018x} and {f:#018x})",
                        self.inner.config.table,
                        found.unwrap_or_default()
                    )))
                }
                Some(Some(f)) => found = Some(f),
            }
        }
        Ok(found)
    }

    /// Refuses to go on when the table records a key layout other than `K`'s: its rows were
    /// written with other key bytes, which `K` would misread. A table without a record passes
    /// (it predates the record, or was created elsewhere).
    pub async fn check_key_layout<K: crate::RowKey>(&self) -> Result<(), BigtableError> {
        self.check_key_fingerprint(K::SCHEMA.name, K::FINGERPRINT)
            .await
    }

    /// [`check_key_layout`](Self::check_key_layout) for key type `key` whose layout
    /// fingerprint is `fingerprint`.
    pub async fn check_key_fingerprint(
        &self,
        key: &str,
        fingerprint: u64,
    ) -> Result<(), BigtableError> {
        let recorded = self.key_fingerprint().await?;
        key_layout::check(
            error::STORE,
            &self.inner.config.table,
            recorded,
            key,
            fingerprint,
        )
    }

    /// Gives family `family.name` the garbage-collection rule of `family`
    /// (`ModifyColumnFamilies`), creating the family when the table lacks it.
    pub async fn set_gc_rule(&self, family: &Family) -> Result<(), BigtableError> {
        use admin::modify_column_families_request::{modification::Mod, Modification};
        let exists = self
            .gc_rules()
            .await?
            .iter()
            .any(|(n, _)| *n == family.name);
        let column = admin::ColumnFamily {
            gc_rule: Some(to_pb(family.gc_rule().as_ref())),
            ..Default::default()
        };
        let message = admin::ModifyColumnFamiliesRequest {
            name: self.inner.table_name.clone(),
            modifications: vec![Modification {
                id: family.name.to_string(),
                update_mask: None,
                r#mod: Some(if exists {
                    Mod::Update(column)
                } else {
                    Mod::Create(column)
                }),
            }],
            ignore_warnings: false,
        };
        // Repeating an update is harmless; a create whose answer was lost fails as existing
        // on the retry, and the family is then there.
        self.retrying("ModifyColumnFamilies", || async {
            let request = self.admin_request(message.clone()).await?;
            match self.admin().modify_column_families(request).await {
                Ok(_) => Ok(()),
                Err(s) if !exists && s.code() == tonic::Code::AlreadyExists => Ok(()),
                Err(s) => Err(error::status("ModifyColumnFamilies", &s)),
            }
        })
        .await
    }

    /// Row keys that split the table into pieces of about equal size, each with the bytes of
    /// the table before it (`SampleRowKeys`): the boundaries of the tablets as Bigtable sees
    /// them, approximate. The last sample's key is empty (the end of the table) and its offset
    /// the table's size. Bigtable's emulator samples at random.
    pub async fn sample_row_keys(&self) -> Result<Vec<(bytes::Bytes, u64)>, BigtableError> {
        use futures_util::StreamExt;
        self.retrying("SampleRowKeys", || async {
            let request = self
                .request(
                    googleapis_tonic_google_bigtable_v2::google::bigtable::v2::SampleRowKeysRequest {
                        table_name: self.inner.table_name.clone(),
                        app_profile_id: self.inner.config.app_profile.clone(),
                        ..Default::default()
                    },
                )
                .await?;
            let mut client = self.inner.data.clone();
            let mut stream = client
                .sample_row_keys(request)
                .await
                .map_err(|s| error::status("SampleRowKeys", &s))?
                .into_inner();
            let mut out = Vec::new();
            while let Some(sample) = stream.next().await {
                let sample = sample.map_err(|s| error::status("SampleRowKeys", &s))?;
                let offset = u64::try_from(sample.offset_bytes).map_err(|_| {
                    error::protocol(format!("a sample at offset {}", sample.offset_bytes))
                })?;
                out.push((bytes::Bytes::from(sample.row_key), offset));
            }
            Ok(out)
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
