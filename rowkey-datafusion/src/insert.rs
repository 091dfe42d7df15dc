//! `INSERT INTO` a [`KeyTable`](crate::KeyTable): each row's columns become its key through
//! the key's own typed codec (the run-time query that fixes every field, [`DynQuery`], whose
//! bytes are the typed builder's), checked by decoding them back, and written with the
//! store's [`Store::write_batch`].

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::common::runtime::SpawnedTask;
use datafusion::common::{DataFusionError, Result as DfResult, ScalarValue};
use datafusion::datasource::sink::DataSink;
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::physical_plan::metrics::{
    Count, ExecutionPlanMetricsSet, MetricBuilder, MetricsSet,
};
use datafusion::physical_plan::{DisplayAs, DisplayFormatType};
use futures_util::StreamExt;
use rowkey::bytes::Bytes;
use rowkey::store::{Row, Store};
use rowkey::{DynQuery, DynValue, QueryKey};

use crate::{Kind, RECORD_TYPE};

/// What one of the table's columns is to a row written into it.
#[derive(Debug)]
enum Target {
    /// A key field: its name, its number among the key's fields, and its column's kind.
    Field {
        name: String,
        field: usize,
        kind: Kind,
    },
    /// A record-type key's tag (`record_type`).
    Record,
    /// The row's value ([`Options::value_column`](crate::Options::value_column)).
    Value,
}

/// The columns of a table rows can be inserted into, each as a [`Target`], in the table's
/// column order; an error naming the first column SQL cannot write.
fn targets<S, K>(table: &crate::KeyTable<S, K>) -> DfResult<Vec<Target>>
where
    S: Store + Send + Sync + 'static,
    K: QueryKey + 'static,
{
    let mut out = Vec::with_capacity(table.schema.fields().len());
    for column in table.schema.fields() {
        let name = column.name().as_str();
        if Some(name) == table.options.value_column.as_deref() {
            out.push(Target::Value);
        } else if name == RECORD_TYPE && !K::SCHEMA.variants.is_empty() {
            out.push(Target::Record);
        } else if let Some((field, kind)) = table.field(name) {
            out.push(Target::Field {
                name: name.to_string(),
                field,
                kind,
            });
        } else {
            // A record type's own field or a nested key's: the run-time query that builds a
            // key fixes the key's leading fields only.
            return Err(DataFusionError::NotImplemented(format!(
                "INSERT INTO a table of `{}` keys: column `{name}` is a record type's own field or a \
                 nested key's, which SQL cannot write yet (write these rows with `Table::put`)",
                K::SCHEMA.name
            )));
        }
    }
    Ok(out)
}

/// The sink `INSERT INTO` writes a [`KeyTable`](crate::KeyTable)'s rows through.
pub(crate) struct KeySink<S, K> {
    store: Arc<S>,
    schema: SchemaRef,
    targets: Arc<[Target]>,
    metrics: ExecutionPlanMetricsSet,
    key: PhantomData<fn() -> K>,
}

impl<S, K> KeySink<S, K>
where
    S: Store + Send + Sync + 'static,
    K: QueryKey + 'static,
{
    /// The sink of `table`'s rows; an error naming the first column SQL cannot write.
    pub(crate) fn new(table: &crate::KeyTable<S, K>) -> DfResult<Self> {
        Ok(KeySink {
            store: table.store.clone(),
            schema: table.schema.clone(),
            targets: targets(table)?.into(),
            metrics: ExecutionPlanMetricsSet::new(),
            key: PhantomData,
        })
    }
}

impl<S, K: QueryKey> fmt::Debug for KeySink<S, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeySink")
            .field("key", &K::SCHEMA.name)
            .finish_non_exhaustive()
    }
}

impl<S, K: QueryKey> DisplayAs for KeySink<S, K> {
    fn fmt_as(&self, t: DisplayFormatType, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match t {
            DisplayFormatType::TreeRender => write!(f, "key={}", K::SCHEMA.name),
            _ => write!(f, "KeySink: key={}, write=write_batch", K::SCHEMA.name),
        }
    }
}

#[async_trait]
impl<S, K> DataSink for KeySink<S, K>
where
    S: Store + Send + Sync + 'static,
    K: QueryKey + 'static,
{
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn metrics(&self) -> Option<MetricsSet> {
        Some(self.metrics.clone_inner())
    }

    fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// Each input batch is made into rows and written as one [`Store::write_batch`] on a
    /// blocking thread, while the next batch is made; the first error stops the insert, and
    /// the rows of the batches written before it stay written (a store has no transaction).
    async fn write_all(
        &self,
        mut data: SendableRecordBatchStream,
        _context: &Arc<TaskContext>,
    ) -> DfResult<u64> {
        let written: Count = MetricBuilder::new(&self.metrics).counter("rows_written", 0);
        let mut seen = 0u64;
        let mut in_flight: Option<SpawnedTask<DfResult<usize>>> = None;
        while let Some(batch) = data.next().await {
            let rows = rows_of::<K>(&batch?, &self.targets, seen)?;
            seen += rows.len() as u64;
            if let Some(task) = in_flight.take() {
                written.add(joined(task).await?);
            }
            let store = self.store.clone();
            in_flight = Some(SpawnedTask::spawn_blocking(move || {
                store
                    .write_batch(&rows)
                    .map(|()| rows.len())
                    .map_err(|e| DataFusionError::External(Box::new(e)))
            }));
        }
        if let Some(task) = in_flight {
            written.add(joined(task).await?);
        }
        Ok(written.value() as u64)
    }
}

async fn joined(task: SpawnedTask<DfResult<usize>>) -> DfResult<usize> {
    task.join_unwind()
        .await
        .map_err(|e| DataFusionError::ExecutionJoin(Box::new(e)))?
}

/// One input batch's rows: each row's key built from its key columns, its value from the
/// value column (empty when there is none, or it is NULL). `first` is the number of the
/// batch's first row in the insert, for errors.
fn rows_of<K: QueryKey>(batch: &RecordBatch, targets: &[Target], first: u64) -> DfResult<Vec<Row>> {
    let columns = batch.columns();
    let mut rows = Vec::with_capacity(batch.num_rows());
    for row in 0..batch.num_rows() {
        let fail = |why: String| {
            DataFusionError::Execution(format!(
                "INSERT INTO a table of `{}` keys: row {} {why}",
                K::SCHEMA.name,
                first + row as u64 + 1
            ))
        };
        let mut q = DynQuery::<K>::new();
        let mut value = Bytes::new();
        for (target, column) in targets.iter().zip(columns) {
            match target {
                Target::Value => {
                    if let Some(v) = binary(column, row) {
                        value = Bytes::copy_from_slice(v);
                    }
                }
                Target::Record => {
                    let name = ScalarValue::try_from_array(column, row)?;
                    let name = match &name {
                        ScalarValue::Dictionary(_, inner) => inner.as_ref(),
                        other => other,
                    };
                    let taken = match name {
                        ScalarValue::Utf8(Some(n))
                        | ScalarValue::LargeUtf8(Some(n))
                        | ScalarValue::Utf8View(Some(n)) => q.record(n),
                        _ => false,
                    };
                    if !taken {
                        let names: Vec<&str> = K::SCHEMA.variants.iter().map(|v| v.name).collect();
                        return Err(fail(format!(
                            "has `record_type` {name}, which is none of the key's record types ({})",
                            names.join(", ")
                        )));
                    }
                }
                Target::Field { name, field, kind } => {
                    let sql = ScalarValue::try_from_array(column, row)?;
                    let v = if sql.is_null() {
                        if !kind.nullable {
                            return Err(fail(format!(
                                "has NULL in `{name}`, a key field that is not an `Option`"
                            )));
                        }
                        DynValue::Null
                    } else {
                        kind.value(&sql).ok_or_else(|| {
                            fail(format!(
                                "has {sql} ({}) in `{name}`, which has no value of that type",
                                sql.data_type()
                            ))
                        })?
                    };
                    if !q.eq(*field, &v) {
                        return Err(fail(format!(
                            "has {sql} in `{name}`, which the field's Rust type cannot hold exactly"
                        )));
                    }
                }
            }
        }
        let walks = q.build().walks();
        let [walk] = walks.as_slice() else {
            return Err(fail("does not fix every field of the key".into()));
        };
        let key = walk.start();
        // Only a whole, canonical key decodes: the check that nothing was left out or
        // written in another form than the typed key's (a value over a field's `max_len`,
        // a key over the key limit).
        if let Err(e) = K::decode(&key) {
            return Err(fail(format!("makes no key of `{}`: {e}", K::SCHEMA.name)));
        }
        rows.push((Bytes::from(key), value));
    }
    Ok(rows)
}

/// The value of a `Binary` column's row (`None` for NULL).
fn binary(column: &ArrayRef, row: usize) -> Option<&[u8]> {
    let bytes = column.as_binary_opt::<i32>()?;
    (!bytes.is_null(row)).then(|| bytes.value(row))
}
