//! [`ScanExec`]: the execution plan every scan of this crate is (`KeyScanExec` for the key and
//! cell tables, `PhoenixScanExec` for Phoenix tables), over what reads one partition
//! ([`PartitionedScan`]).

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use datafusion::arrow::datatypes::SchemaRef;
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::common::{DataFusionError, Result as DfResult};
use datafusion::execution::{SendableRecordBatchStream, TaskContext};
use datafusion::physical_expr::{EquivalenceProperties, PhysicalSortExpr};
use datafusion::physical_plan::execution_plan::{Boundedness, EmissionType};
use datafusion::physical_plan::metrics::{
    Count, ExecutionPlanMetricsSet, MetricBuilder, MetricsSet,
};
use datafusion::physical_plan::stream::RecordBatchReceiverStreamBuilder;
use datafusion::physical_plan::{
    DisplayAs, DisplayFormatType, ExecutionPlan, Partitioning, PlanProperties,
};

/// What a scan reads in each of its partitions, on DataFusion's blocking threads.
pub(crate) trait PartitionedScan: fmt::Debug + Send + Sync + 'static {
    /// The plan's name (`EXPLAIN`, metrics).
    const NAME: &'static str;

    /// How many partitions it has.
    fn partitions(&self) -> usize;

    /// `EXPLAIN`'s account of what is read, after the name; `limit` is the scan's.
    fn describe(
        &self,
        t: DisplayFormatType,
        limit: Option<usize>,
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result;

    /// Reads partition `partition`: at most `limit` rows, in batches handed to `send` (which
    /// says `false` when the query wants no more), counted in `meters`.
    fn read(
        &self,
        partition: usize,
        limit: usize,
        meters: &Meters,
        send: &HandOn<'_>,
    ) -> DfResult<()>;
}

/// Hands a batch on; `false` when the query wants no more rows (a `LIMIT` met above, a
/// cancel).
pub(crate) type HandOn<'a> = dyn Fn(RecordBatch) -> DfResult<bool> + 'a;

/// A partition's counters, as `EXPLAIN ANALYZE` shows them.
pub(crate) struct Meters {
    /// The rows read from the store.
    pub(crate) read: Count,
    /// The seeks a walk took.
    pub(crate) seeks: Count,
    /// The rows handed on.
    pub(crate) output: Count,
}

/// A scan as a DataFusion plan: no children, one partition per the scan's, rows in the order
/// `ordering` says, at most `limit` per partition.
pub(crate) struct ScanExec<R> {
    scan: Arc<R>,
    limit: Option<usize>,
    properties: PlanProperties,
    metrics: ExecutionPlanMetricsSet,
}

impl<R: PartitionedScan> ScanExec<R> {
    pub(crate) fn new(
        scan: R,
        schema: SchemaRef,
        ordering: Option<Vec<PhysicalSortExpr>>,
        limit: Option<usize>,
    ) -> Self {
        let properties = PlanProperties::new(
            EquivalenceProperties::new_with_orderings(schema, ordering),
            Partitioning::UnknownPartitioning(scan.partitions().max(1)),
            EmissionType::Incremental,
            Boundedness::Bounded,
        );
        ScanExec {
            scan: Arc::new(scan),
            limit,
            properties,
            metrics: ExecutionPlanMetricsSet::new(),
        }
    }
}

impl<R: PartitionedScan> fmt::Debug for ScanExec<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(R::NAME)
            .field("scan", &self.scan)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl<R: PartitionedScan> DisplayAs for ScanExec<R> {
    fn fmt_as(&self, t: DisplayFormatType, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", R::NAME)?;
        self.scan.describe(t, self.limit, f)
    }
}

impl<R: PartitionedScan> ExecutionPlan for ScanExec<R> {
    fn name(&self) -> &str {
        R::NAME
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn properties(&self) -> &PlanProperties {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        Vec::new()
    }

    fn with_new_children(
        self: Arc<Self>,
        children: Vec<Arc<dyn ExecutionPlan>>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        if children.is_empty() {
            Ok(self)
        } else {
            Err(DataFusionError::Internal(format!(
                "{} has no children",
                R::NAME
            )))
        }
    }

    fn metrics(&self) -> Option<MetricsSet> {
        Some(self.metrics.clone_inner())
    }

    /// A limit above the scan (`ORDER BY key LIMIT n` merged from partitions in key order, or
    /// a `LIMIT` DataFusion pushes down) stops each partition's read after `n` rows.
    fn with_fetch(&self, limit: Option<usize>) -> Option<Arc<dyn ExecutionPlan>> {
        let limit = match (self.limit, limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Some(Arc::new(ScanExec {
            scan: self.scan.clone(),
            limit,
            properties: self.properties.clone(),
            metrics: ExecutionPlanMetricsSet::new(),
        }))
    }

    fn fetch(&self) -> Option<usize> {
        self.limit
    }

    fn execute(
        &self,
        partition: usize,
        _context: Arc<TaskContext>,
    ) -> DfResult<SendableRecordBatchStream> {
        let schema = self.properties.eq_properties.schema().clone();
        let mut builder = RecordBatchReceiverStreamBuilder::new(schema, 2);
        if partition >= self.scan.partitions() {
            // A query no key can match has no part; its one partition is empty.
            return Ok(builder.build());
        }
        let tx = builder.tx();
        let scan = self.scan.clone();
        let limit = self.limit.unwrap_or(usize::MAX);
        let meters = Meters {
            read: MetricBuilder::new(&self.metrics).counter("rows_read", partition),
            seeks: MetricBuilder::new(&self.metrics).counter("seeks", partition),
            output: MetricBuilder::new(&self.metrics).output_rows(partition),
        };
        builder.spawn_blocking(move || {
            let send =
                |batch: RecordBatch| -> DfResult<bool> { Ok(tx.blocking_send(Ok(batch)).is_ok()) };
            scan.read(partition, limit, &meters, &send)
        });
        Ok(builder.build())
    }
}
