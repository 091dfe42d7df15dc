//! Counters and conditional writes on Bigtable: `ReadModifyWriteRow` (an increment rule) and
//! `CheckAndMutateRow` (a predicate on the cell's newest version), each applied by the tablet
//! server atomically, each sent once (see `rowkey::store::AtomicStore`).

use googleapis_tonic_google_bigtable_v2::google::bigtable::v2 as pb;
use pb::row_filter::{Chain, Filter};

use super::{check_key, error, now_micros, set_cell, AsyncBigtableStore, BigtableError};
use crate::store::{AsyncAtomicStore, AtomicError};

/// The filter that keeps cell `family:qualifier`'s newest version, and only if it holds
/// `value` (`None`: any value but the empty one).
fn newest(family: &str, qualifier: &[u8], value: Option<&[u8]>) -> pb::RowFilter {
    use pb::column_range::{EndQualifier, StartQualifier};
    use pb::value_range::{EndValue, StartValue};
    let filter = |f| pb::RowFilter { filter: Some(f) };
    let mut filters = vec![
        filter(Filter::ColumnRangeFilter(pb::ColumnRange {
            family_name: family.to_string(),
            start_qualifier: Some(StartQualifier::StartQualifierClosed(qualifier.to_vec())),
            end_qualifier: Some(EndQualifier::EndQualifierClosed(qualifier.to_vec())),
        })),
        filter(Filter::CellsPerColumnLimitFilter(1)),
    ];
    // An exact value as a closed range (no regular expression to escape bytes for); without
    // one, any value but the empty one, which counts as absent (HBase's rule).
    let range = match value {
        Some(v) => pb::ValueRange {
            start_value: Some(StartValue::StartValueClosed(v.to_vec())),
            end_value: Some(EndValue::EndValueClosed(v.to_vec())),
        },
        None => pb::ValueRange {
            start_value: Some(StartValue::StartValueOpen(Vec::new())),
            end_value: None,
        },
    };
    filters.push(filter(Filter::ValueRangeFilter(range)));
    filter(Filter::Chain(Chain { filters }))
}

/// An increment Bigtable refused because the cell does not hold 8 bytes.
fn not_a_counter(s: &tonic::Status) -> bool {
    let m = s.message();
    m.contains("64-bit") || m.contains("8 bytes") || m.contains("8-byte")
}

impl AsyncAtomicStore for AsyncBigtableStore {
    async fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, AtomicError<BigtableError>> {
        check_key(key).map_err(AtomicError::Store)?;
        self.ensure_schema().await.map_err(AtomicError::Store)?;
        self.once_more_if_refused(|| self.increment_once(key, family, qualifier, delta))
            .await
    }

    async fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, AtomicError<BigtableError>> {
        check_key(key).map_err(AtomicError::Store)?;
        self.ensure_schema().await.map_err(AtomicError::Store)?;
        self.once_more_if_refused(|| self.check_and_set_once(key, family, qualifier, expected, new))
            .await
    }
}

impl AsyncBigtableStore {
    /// Runs an atomic call (sent once, never retried) a second time if the server refused its
    /// access token: a refused call did nothing, and the second carries a new token.
    async fn once_more_if_refused<T, F, Fut>(
        &self,
        mut call: F,
    ) -> Result<T, AtomicError<BigtableError>>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<T, AtomicError<BigtableError>>>,
    {
        let sent = std::time::Instant::now();
        match call().await {
            Err(AtomicError::Store(e))
                if error::refused_token(&e) && self.retry_after(&e, sent) =>
            {
                call().await
            }
            other => other,
        }
    }

    async fn increment_once(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, AtomicError<BigtableError>> {
        use pb::read_modify_write_rule::Rule;
        let request = self
            .request(pb::ReadModifyWriteRowRequest {
                table_name: self.inner.table_name.clone(),
                app_profile_id: self.inner.config.app_profile.clone(),
                row_key: key.to_vec(),
                rules: vec![pb::ReadModifyWriteRule {
                    family_name: family.to_string(),
                    column_qualifier: qualifier.to_vec(),
                    rule: Some(Rule::IncrementAmount(delta)),
                }],
                ..Default::default()
            })
            .await
            .map_err(AtomicError::Store)?;
        let mut client = self.inner.data.clone();
        let row = match client.read_modify_write_row(request).await {
            Ok(r) => r.into_inner().row,
            Err(s) if not_a_counter(&s) => return Err(AtomicError::NotACounter { found: None }),
            Err(s) => return Err(AtomicError::Store(error::status("ReadModifyWriteRow", &s))),
        };
        let value = row
            .into_iter()
            .flat_map(|r| r.families)
            .filter(|f| f.name == family)
            .flat_map(|f| f.columns)
            .filter(|c| c.qualifier == qualifier)
            .find_map(|c| c.cells.into_iter().next())
            .map(|c| c.value)
            .unwrap_or_default();
        crate::store::counter_value(&value).ok_or_else(|| {
            AtomicError::Store(error::protocol(format!(
                "ReadModifyWriteRow answered with a {}-byte value, not a counter",
                value.len()
            )))
        })
    }

    async fn check_and_set_once(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, AtomicError<BigtableError>> {
        let expected = crate::store::atomic::condition(expected);
        let write = match new {
            Some(v) => set_cell(family, qualifier, v, now_micros()),
            None => pb::Mutation {
                mutation: Some(pb::mutation::Mutation::DeleteFromColumn(
                    pb::mutation::DeleteFromColumn {
                        family_name: family.to_string(),
                        column_qualifier: qualifier.to_vec(),
                        time_range: None,
                    },
                )),
            },
        };
        // With an expected value the write is the match's; for "absent", the predicate asks
        // for the cell, and the write is what happens when it is not there.
        let (true_mutations, false_mutations) = match expected {
            Some(_) => (vec![write], Vec::new()),
            None => (Vec::new(), vec![write]),
        };
        let request = self
            .request(pb::CheckAndMutateRowRequest {
                table_name: self.inner.table_name.clone(),
                app_profile_id: self.inner.config.app_profile.clone(),
                row_key: key.to_vec(),
                predicate_filter: Some(newest(family, qualifier, expected)),
                true_mutations,
                false_mutations,
                ..Default::default()
            })
            .await
            .map_err(AtomicError::Store)?;
        let mut client = self.inner.data.clone();
        let matched = client
            .check_and_mutate_row(request)
            .await
            .map_err(|s| AtomicError::Store(error::status("CheckAndMutateRow", &s)))?
            .into_inner()
            .predicate_matched;
        Ok(matched == expected.is_some())
    }
}
