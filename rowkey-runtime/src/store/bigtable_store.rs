//! [`BigtableStore`]: the Cloud Bigtable data API (HBase's design sibling), for tables that
//! outgrow one machine. Connects to a real instance, or to the emulator named by
//! `BIGTABLE_EMULATOR_HOST` (`cbtemulator -host 127.0.0.1 -port P`).
//!
//! The store is blocking, like the others: it owns a small tokio runtime and must not be
//! called from inside another async runtime (use `spawn_blocking` there). Each row keeps its
//! value in one cell, column family `family`, qualifier `v`; reads ask for the latest cell.

use std::fmt;
use std::pin::Pin;
use std::time::Duration;

use bigtable_rs::bigtable::{BigTable, BigTableConnection, RowCell};
use bigtable_rs::google::bigtable::v2::{
    mutate_rows_request, mutation, row_filter, row_range, MutateRowRequest, MutateRowsRequest,
    Mutation, ReadRowsRequest, RowFilter, RowRange, RowSet,
};
use futures_util::{Stream, StreamExt};

use super::{BatchError, Row, Store};
use crate::scan::KeyRange;

const QUALIFIER: &[u8] = b"v";

/// A Bigtable store failure.
#[derive(Debug)]
pub enum BigtableError {
    /// Connecting, or a data API call, failed.
    Client(bigtable_rs::bigtable::Error),
    /// A table admin call failed.
    Admin(String),
    /// The runtime could not start.
    Runtime(std::io::Error),
    /// A row in a batch was rejected (`code`, `message` as the server sent them).
    Rejected {
        /// The gRPC status code.
        code: i32,
        /// The server's message.
        message: String,
    },
}

impl fmt::Display for BigtableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BigtableError::Client(e) => write!(f, "bigtable: {e}"),
            BigtableError::Admin(e) => write!(f, "bigtable admin: {e}"),
            BigtableError::Runtime(e) => write!(f, "bigtable runtime: {e}"),
            BigtableError::Rejected { code, message } => {
                write!(f, "bigtable rejected the row: code {code}: {message}")
            }
        }
    }
}

impl std::error::Error for BigtableError {}

impl From<bigtable_rs::bigtable::Error> for BigtableError {
    fn from(e: bigtable_rs::bigtable::Error) -> Self {
        BigtableError::Client(e)
    }
}

/// One Bigtable table as a sorted store.
pub struct BigtableStore {
    rt: tokio::runtime::Runtime,
    emulator: Option<String>,
    client: BigTable,
    project: String,
    instance: String,
    table: String,
    family: String,
}

impl BigtableStore {
    /// Connects to table `table` of `projects/{project}/instances/{instance}`, keeping values in
    /// column family `family`. Honours `BIGTABLE_EMULATOR_HOST`; otherwise uses Google's
    /// application-default credentials.
    pub fn connect(
        project: &str,
        instance: &str,
        table: &str,
        family: &str,
    ) -> Result<Self, BigtableError> {
        Self::open(None, project, instance, table, family)
    }

    /// Connects to the emulator at `host` (`127.0.0.1:PORT`), whatever the environment says.
    pub fn connect_emulator(
        host: &str,
        project: &str,
        instance: &str,
        table: &str,
        family: &str,
    ) -> Result<Self, BigtableError> {
        Self::open(Some(host), project, instance, table, family)
    }

    fn open(
        emulator: Option<&str>,
        project: &str,
        instance: &str,
        table: &str,
        family: &str,
    ) -> Result<Self, BigtableError> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(BigtableError::Runtime)?;
        let timeout = Some(Duration::from_secs(30));
        let conn = match emulator {
            Some(host) => {
                let _guard = rt.enter();
                BigTableConnection::new_with_emulator(host, project, instance, false, 1, timeout)?
            }
            None => rt.block_on(BigTableConnection::new(
                project, instance, false, 1, timeout,
            ))?,
        };
        Ok(BigtableStore {
            emulator: emulator.map(str::to_string),
            client: conn.client(),
            rt,
            project: project.into(),
            instance: instance.into(),
            table: table.into(),
            family: family.into(),
        })
    }

    /// Creates the table on the emulator (the one connected to, or `BIGTABLE_EMULATOR_HOST`), with its column family
    /// (keeping one version per cell) and pre-split at `splits` (from `split_points`). On a real
    /// instance, create tables with `cbt` or the console. An existing table is left as it is.
    pub fn create_table_on_emulator(&self, splits: &[bytes::Bytes]) -> Result<(), BigtableError> {
        use googleapis_tonic_google_bigtable_admin_v2::google::bigtable::admin::v2 as admin;
        let host = match &self.emulator {
            Some(h) => h.clone(),
            None => std::env::var("BIGTABLE_EMULATOR_HOST").map_err(|_| {
                BigtableError::Admin(
                    "not connected to an emulator and BIGTABLE_EMULATOR_HOST is not set".into(),
                )
            })?,
        };
        let mut families = std::collections::HashMap::new();
        families.insert(
            self.family.clone(),
            admin::ColumnFamily {
                // Always a GC rule: some emulator builds panic on a family without one.
                gc_rule: Some(admin::GcRule {
                    rule: Some(admin::gc_rule::Rule::MaxNumVersions(1)),
                }),
                ..Default::default()
            },
        );
        let request = admin::CreateTableRequest {
            parent: format!("projects/{}/instances/{}", self.project, self.instance),
            table_id: self.table.clone(),
            table: Some(admin::Table {
                column_families: families,
                ..Default::default()
            }),
            initial_splits: splits
                .iter()
                .map(|k| admin::create_table_request::Split { key: k.to_vec() })
                .collect(),
        };
        self.rt.block_on(async {
            let channel = tonic::transport::Channel::from_shared(format!("http://{host}"))
                .map_err(|e| BigtableError::Admin(e.to_string()))?
                .connect()
                .await
                .map_err(|e| BigtableError::Admin(e.to_string()))?;
            let mut client =
                admin::bigtable_table_admin_client::BigtableTableAdminClient::new(channel);
            match client.create_table(request).await {
                Ok(_) => Ok(()),
                Err(s)
                    if s.code() == tonic::Code::AlreadyExists
                        || s.message().contains("already exists") =>
                {
                    Ok(())
                }
                Err(s) => Err(BigtableError::Admin(s.to_string())),
            }
        })
    }

    fn table_name(&self) -> String {
        self.client.get_full_table_name(&self.table)
    }

    fn set_cell(&self, value: &[u8]) -> Mutation {
        Mutation {
            mutation: Some(mutation::Mutation::SetCell(mutation::SetCell {
                family_name: self.family.clone(),
                column_qualifier: QUALIFIER.to_vec(),
                // Server time: the newest write wins.
                timestamp_micros: -1,
                value: value.to_vec(),
            })),
        }
    }

    fn latest_only() -> Option<RowFilter> {
        Some(RowFilter {
            filter: Some(row_filter::Filter::CellsPerColumnLimitFilter(1)),
        })
    }

    fn value_of(&self, cells: Vec<RowCell>) -> Vec<u8> {
        cells
            .into_iter()
            .find(|c| c.family_name == self.family && c.qualifier == QUALIFIER)
            .map(|c| c.value)
            .unwrap_or_default()
    }

    fn read_request(&self, rows: RowSet) -> ReadRowsRequest {
        ReadRowsRequest {
            table_name: self.table_name(),
            rows: Some(rows),
            filter: Self::latest_only(),
            ..Default::default()
        }
    }
}

/// Which rows of a batch Bigtable did not apply, from its per-entry statuses `(index, code,
/// message)`: every row without a status `0` (OK), including rows it sent no status for.
fn unapplied(
    rows: &[Row],
    statuses: &[(usize, i32, String)],
) -> Result<(), BatchError<BigtableError>> {
    let mut done = vec![false; rows.len()];
    let mut first: Option<BigtableError> = None;
    for (i, code, message) in statuses {
        if *code == 0 {
            if let Some(d) = done.get_mut(*i) {
                *d = true;
            }
        } else if first.is_none() {
            first = Some(BigtableError::Rejected {
                code: *code,
                message: message.clone(),
            });
        }
    }
    let failed: Vec<Vec<u8>> = rows
        .iter()
        .zip(&done)
        .filter(|(_, d)| !**d)
        .map(|((k, _), _)| k.clone())
        .collect();
    if failed.is_empty() {
        return Ok(());
    }
    let source = first.unwrap_or(BigtableError::Rejected {
        code: -1,
        message: "no status for the row".into(),
    });
    Err(BatchError { failed, source })
}

type RowStream = Pin<
    Box<dyn Stream<Item = Result<(Vec<u8>, Vec<RowCell>), bigtable_rs::bigtable::Error>> + Send>,
>;

/// A Bigtable range read, streamed row by row.
pub struct BigtableScan<'a> {
    store: &'a BigtableStore,
    request: Option<ReadRowsRequest>,
    stream: Option<RowStream>,
}

impl Iterator for BigtableScan<'_> {
    type Item = Result<Row, BigtableError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(request) = self.request.take() {
            let mut client = self.store.client.clone();
            match self.store.rt.block_on(client.stream_rows(request)) {
                Ok(s) => self.stream = Some(Box::pin(s)),
                Err(e) => return Some(Err(e.into())),
            }
        }
        let stream = self.stream.as_mut()?;
        match self.store.rt.block_on(stream.next())? {
            Ok((key, cells)) => Some(Ok((key, self.store.value_of(cells)))),
            Err(e) => {
                self.stream = None;
                Some(Err(e.into()))
            }
        }
    }
}

impl Store for BigtableStore {
    type Error = BigtableError;
    type Scan<'a> = BigtableScan<'a>;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), BigtableError> {
        let request = MutateRowRequest {
            table_name: self.table_name(),
            row_key: key.to_vec(),
            mutations: vec![self.set_cell(value)],
            ..Default::default()
        };
        let mut client = self.client.clone();
        self.rt.block_on(client.mutate_row(request))?;
        Ok(())
    }

    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, BigtableError> {
        let rows = RowSet {
            row_keys: vec![key.to_vec()],
            row_ranges: vec![],
        };
        let mut client = self.client.clone();
        let found = self
            .rt
            .block_on(client.read_rows(self.read_request(rows)))?;
        Ok(found
            .into_iter()
            .next()
            .map(|(_, cells)| self.value_of(cells)))
    }

    fn delete(&self, key: &[u8]) -> Result<(), BigtableError> {
        let request = MutateRowRequest {
            table_name: self.table_name(),
            row_key: key.to_vec(),
            mutations: vec![Mutation {
                mutation: Some(mutation::Mutation::DeleteFromRow(
                    mutation::DeleteFromRow {},
                )),
            }],
            ..Default::default()
        };
        let mut client = self.client.clone();
        self.rt.block_on(client.mutate_row(request))?;
        Ok(())
    }

    /// Row by row on the server: the error lists exactly the rows Bigtable did not apply (all
    /// of them if the call itself failed).
    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<BigtableError>> {
        if rows.is_empty() {
            return Ok(());
        }
        let request = MutateRowsRequest {
            table_name: self.table_name(),
            entries: rows
                .iter()
                .map(|(k, v)| mutate_rows_request::Entry {
                    row_key: k.clone(),
                    mutations: vec![self.set_cell(v)],
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let all = || rows.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
        let mut client = self.client.clone();
        let result: Result<Vec<(usize, i32, String)>, BigtableError> = self.rt.block_on(async {
            let mut responses = client.mutate_rows(request).await?;
            let mut statuses = Vec::new();
            while let Some(response) = responses.next().await {
                let response = response.map_err(|s| BigtableError::Client(s.into()))?;
                for e in response.entries {
                    let (code, message) =
                        e.status.map_or((0, String::new()), |s| (s.code, s.message));
                    statuses.push((
                        usize::try_from(e.index).unwrap_or(usize::MAX),
                        code,
                        message,
                    ));
                }
            }
            Ok(statuses)
        });
        let statuses = result.map_err(|source| BatchError {
            failed: all(),
            source,
        })?;
        unapplied(rows, &statuses)
    }

    fn scan(&self, range: &KeyRange) -> BigtableScan<'_> {
        // Built from the KeyRange itself: an empty start is the table's start, no end its end.
        let start = (!range.start().is_empty())
            .then(|| row_range::StartKey::StartKeyClosed(range.start().to_vec()));
        let end = range
            .end()
            .map(|e| row_range::EndKey::EndKeyOpen(e.to_vec()));
        let rows = RowSet {
            row_keys: vec![],
            row_ranges: vec![RowRange {
                start_key: start,
                end_key: end,
            }],
        };
        BigtableScan {
            store: self,
            request: Some(self.read_request(rows)),
            stream: None,
        }
    }

    /// `None`: the emulator has no reversed reads, so this store does not offer them.
    fn scan_rev(&self, _: &KeyRange) -> Option<BigtableScan<'_>> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(n: u8) -> Vec<Row> {
        (0..n).map(|i| (vec![i], vec![])).collect()
    }

    #[test]
    fn every_row_without_an_ok_status_is_reported() {
        let r = rows(4);
        let ok: Vec<(usize, i32, String)> = (0..4).map(|i| (i, 0, String::new())).collect();
        assert!(unapplied(&r, &ok).is_ok());
        let err = unapplied(
            &r,
            &[
                (0, 0, String::new()),
                (1, 14, "unavailable".into()),
                (3, 0, String::new()),
            ],
        )
        .unwrap_err();
        assert_eq!(
            err.failed,
            [vec![1u8], vec![2u8]],
            "row 1 failed, row 2 got no status"
        );
        assert!(matches!(
            err.source,
            BigtableError::Rejected { code: 14, .. }
        ));
    }
}
