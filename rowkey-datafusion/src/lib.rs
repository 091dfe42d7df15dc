//! SQL over rowkey tables with [Apache DataFusion](https://datafusion.apache.org): a typed key
//! table ([`KeyTable`]) is a DataFusion [`TableProvider`] on any store rowkey speaks (fjall,
//! memory, HBase through either store, Bigtable), and a `WHERE` clause on the key's fields
//! becomes the key's skip scan, not a full scan and a filter.
//!
//! ```
//! use std::sync::Arc;
//! use datafusion::prelude::SessionContext;
//! use rowkey::store::{MemStore, Table};
//! use rowkey::RowKey;
//! use rowkey_datafusion::KeyTable;
//!
//! #[derive(RowKey)]
//! #[rowkey(query)] // what lets SQL's predicates become the key's queries
//! struct Install {
//!     user_id: u32,
//!     app_id: u32,
//! }
//!
//! # tokio::runtime::Runtime::new()?.block_on(async {
//! let store = Arc::new(MemStore::new());
//! let table = Table::<_, Install>::new(&*store);
//! for user_id in 0..100 {
//!     for app_id in 0..10 {
//!         table.put(&Install { user_id, app_id }, b"")?;
//!     }
//! }
//! let ctx = SessionContext::new();
//! ctx.register_table("installs", Arc::new(KeyTable::<_, Install>::shared(store)?))?;
//! // `app_id = 4` is the skip scan `Install::query().app_id(4u32)`: each user's other apps are
//! // sought past, and DataFusion does not filter again (the pushdown is exact).
//! let batches = ctx
//!     .sql("SELECT count(*) AS n FROM installs WHERE app_id = 4 AND user_id < 50")
//!     .await?
//!     .collect()
//!     .await?;
//! let n = batches[0].column(0).as_any().downcast_ref::<datafusion::arrow::array::Int64Array>();
//! assert_eq!(n.unwrap().value(0), 50);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! # })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Columns** are [`rowkey_arrow`]'s: one per key field, natural Arrow types, the salt byte
//! not a column; with [`rowkey_arrow::Options::value_column`] the row's value as `Binary`.
//!
//! **Pushdown.** Each conjunct of a `WHERE` clause that compares one of the key's leading
//! fields with literals (`=`, `<`, `<=`, `>`, `>=`, `IN (...)`, `BETWEEN`, `IS NULL`, and
//! `record_type = '...'` on a record-type key) becomes part of one skip-scan query
//! ([`rowkey::DynQuery`]): a leading field fixes the range read, a later one is sought past.
//! It is reported to DataFusion as *exact* (not filtered again) where the key's order is
//! SQL's: integers, text, bytes, booleans and millisecond timestamps; as *inexact* (DataFusion
//! filters the rows again) for floats and for ranges over nullable fields. Everything else
//! (`OR`, functions of a column, value columns, a nested key's fields) is left to DataFusion.
//! A `LIMIT` above exact filters stops each partition's walk early, and a projection builds
//! only the columns asked for (every key is still decoded and checked).
//!
//! **Partitions.** One per walk of the query: a salted key's buckets are read in parallel,
//! one partition each (the buckets the query's values fix, when it fixes them).
//!
//! **Order.** Each partition's rows come in key order, and the scan says so to DataFusion:
//! the longest run of leading key fields whose bytes sort as their values (ascending, or
//! descending under `#[desc]` and `#[reverse_ts]`; an `Option` field's `None` first, last under
//! `#[desc]`), among the columns projected. An `ORDER BY` on such a prefix sorts nothing: one
//! partition is read in order, a salted key's buckets are merged in order
//! (`SortPreservingMergeExec`), and `ORDER BY ... LIMIT n` stops each walk after `n` rows.
//! A field whose bytes do not sort as its values (`#[hash]`, `#[java]` signed numbers,
//! unpadded decimal text, ...), a float, a nested key and a record type's tag end the run.
//!
//! **INSERT INTO** (and `REPLACE INTO`) writes each row under the key its key columns make
//! (the typed table's bytes, decoded back before they are written), its value from the value
//! column, through the store's `write_batch` one input batch at a time; a row whose key
//! exists is replaced, as with Phoenix's `UPSERT`. A row that makes no key is refused with its
//! number and why.
//!
//! **EXPLAIN** shows the walk's plan (the range read, each segment's treatment, the server's
//! key filter); `EXPLAIN ANALYZE` adds the rows each partition read and the seeks it took
//! (`rows_read`, `seeks`).
//!
//! **Rows of cells.** [`RowTable`] is a `CellTable<S, K, V>` as SQL: the key's columns, then
//! one per field of the `RowValue` `V`, read from its cell. Key predicates narrow the key
//! ranges read (inexactly: DataFusion checks every row, value predicates included).
//!
//! **A layout as data.** Without the key's Rust type (a layout exported as JSON and read back,
//! as `rowkey sql` does), [`SchemaTable`] gives the same columns and order, reading every row
//! (no query to push a `WHERE` clause into: DataFusion filters), one partition per salt
//! bucket and per piece between split keys.
//!
//! Stores are read through their blocking interface on DataFusion's blocking threads, so a
//! table works the same inside any tokio runtime DataFusion runs on.

#![warn(missing_docs)]

mod exec;
mod insert;
mod phoenix;
mod row_table;
mod schema_table;

pub use phoenix::{phoenix_data_type, PhoenixRowTable};
pub use row_table::RowTable;
pub use schema_table::SchemaTable;

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Bound;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::compute::SortOptions;
use datafusion::arrow::datatypes::{DataType, SchemaRef, TimeUnit};
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::{DataFusionError, Result as DfResult, ScalarValue, SchemaExt};
use datafusion::datasource::sink::DataSinkExec;
use datafusion::datasource::TableType;
use datafusion::logical_expr::dml::InsertOp;
use datafusion::logical_expr::expr::InList;
use datafusion::logical_expr::{Between, BinaryExpr, Expr, Operator, TableProviderFilterPushDown};
use datafusion::physical_expr::expressions::Column;
use datafusion::physical_expr::PhysicalSortExpr;
use datafusion::physical_plan::{DisplayFormatType, ExecutionPlan};
use rowkey::store::{SkipScan, Store};
use rowkey::{Constraint, DynQuery, DynValue, KeyRange, Query, QueryKey, TypedQuery};
use rowkey_arrow::KeyBatchBuilder;
pub use rowkey_arrow::Options;

/// The DataFusion this crate is built on (51), for a program to name the same version's types.
pub use datafusion;

/// The guide's chapter on SQL and Arrow (`rowkey::guide::sql`), whose examples run here.
#[cfg(doctest)]
#[doc = include_str!("../../rowkey/guide/sql.md")]
pub struct GuideDoctests;

/// The rows per record batch unless a table says otherwise.
const BATCH_ROWS: usize = 8_192;

/// Split keys as a table keeps them: sorted, without duplicates or the empty key.
fn split_keys<B: AsRef<[u8]>>(keys: impl IntoIterator<Item = B>) -> Arc<[Vec<u8>]> {
    let mut keys: Vec<Vec<u8>> = keys
        .into_iter()
        .map(|k| k.as_ref().to_vec())
        .filter(|k| !k.is_empty())
        .collect();
    keys.sort_unstable();
    keys.dedup();
    Arc::from(keys)
}

/// The column a record-type key's tag becomes (`rowkey_arrow`'s name for it).
const RECORD_TYPE: &str = "record_type";

/// A rowkey table of `K` keys over the store `S`, as a DataFusion table: register it with
/// `SessionContext::register_table` and query it with SQL (see the crate's documentation for
/// what is pushed down).
pub struct KeyTable<S, K> {
    store: Arc<S>,
    schema: SchemaRef,
    options: Options,
    batch_rows: usize,
    /// Keys a walk is cut at into partitions (regions' or tablets' first keys), sorted.
    splits: Arc<[Vec<u8>]>,
    key: PhantomData<fn() -> K>,
}

impl<S, K: QueryKey> fmt::Debug for KeyTable<S, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyTable")
            .field("key", &K::SCHEMA.name)
            .field("columns", &self.schema.fields().len())
            .field("batch_rows", &self.batch_rows)
            .field("splits", &self.splits.len())
            .finish_non_exhaustive()
    }
}

impl<S, K> KeyTable<S, K>
where
    S: Store + Send + Sync + 'static,
    K: QueryKey + 'static,
{
    /// The rows per record batch unless [`KeyTable::batch_rows`] says otherwise.
    pub const BATCH_ROWS: usize = BATCH_ROWS;

    /// The table of `K` keys in `store`, with `rowkey_arrow`'s default columns (the key's
    /// fields only); an error when a field of `K` has no Arrow column.
    pub fn new(store: S) -> Result<Self, rowkey_arrow::Error> {
        Self::with_options(Arc::new(store), Options::default())
    }

    /// The table of `K` keys in a store shared with the rest of the program (a `Table` over
    /// `&*store` writes to it), with the default columns.
    pub fn shared(store: Arc<S>) -> Result<Self, rowkey_arrow::Error> {
        Self::with_options(store, Options::default())
    }

    /// The table over a shared store, its columns as `options` say (a projection in `options`
    /// is ignored: each query projects its own).
    pub fn with_options(store: Arc<S>, mut options: Options) -> Result<Self, rowkey_arrow::Error> {
        options.projection = None;
        let schema = Arc::new(rowkey_arrow::arrow_schema(K::SCHEMA, &options)?);
        Ok(KeyTable {
            store,
            schema,
            options,
            batch_rows: Self::BATCH_ROWS,
            splits: Arc::from(Vec::new()),
            key: PhantomData,
        })
    }

    /// Cuts each walk at `keys` into partitions that DataFusion reads in parallel: give the
    /// first keys of the table's regions (`HbaseRpcStore::regions`, `HbaseStore::regions`) or
    /// of its tablets (`BigtableStore::sample_row_keys`'s boundaries), and each partition is
    /// one region's part of the walk. An unsalted key's table is otherwise one partition. The
    /// walk's rows, its pushdown and each partition's key order are the same; empty keys
    /// and duplicates are ignored.
    pub fn split_at<B: AsRef<[u8]>>(mut self, keys: impl IntoIterator<Item = B>) -> Self {
        self.splits = split_keys(keys);
        self
    }

    /// Rows per record batch (at least 1).
    pub fn batch_rows(mut self, rows: usize) -> Self {
        self.batch_rows = rows.max(1);
        self
    }

    /// The store.
    pub fn store(&self) -> &Arc<S> {
        &self.store
    }

    /// The skip-scan query `filters` become (each conjunct DataFusion hands over), and how
    /// each was taken: what `scan` reads and what it tells DataFusion.
    pub fn plan(&self, filters: &[Expr]) -> (TypedQuery<K>, Vec<TableProviderFilterPushDown>) {
        let mut q = DynQuery::<K>::new();
        let taken = filters.iter().map(|f| self.push(&mut q, f)).collect();
        (q.build(), taken)
    }

    /// Adds `filter` to `q` when it can be, and says how.
    fn push(&self, q: &mut DynQuery<K>, filter: &Expr) -> TableProviderFilterPushDown {
        use TableProviderFilterPushDown::Unsupported;
        match filter {
            // `x = 1 OR x = 2` (DataFusion's form of a short `IN` list) is a list of values.
            Expr::BinaryExpr(BinaryExpr {
                op: Operator::Or, ..
            }) => {
                let mut leaves = Vec::new();
                let Some(name) = or_values(filter, &mut leaves) else {
                    return Unsupported;
                };
                self.values(q, name, &leaves)
            }
            Expr::BinaryExpr(BinaryExpr { left, op, right }) => {
                let (name, value, op) = match (column(left), literal(right)) {
                    (Some(c), Some(v)) => (c, v, *op),
                    _ => match (literal(left), column(right), op.swap()) {
                        (Some(v), Some(c), Some(op)) => (c, v, op),
                        _ => return Unsupported,
                    },
                };
                if name == RECORD_TYPE && op == Operator::Eq {
                    return self.record(q, value);
                }
                let Some((field, kind)) = self.field(name) else {
                    return Unsupported;
                };
                let Some(v) = kind.value(value) else {
                    return Unsupported;
                };
                let taken = match op {
                    Operator::Eq => q.eq(field, &v),
                    Operator::Lt => q.between(field, Bound::Unbounded, Bound::Excluded(&v)),
                    Operator::LtEq => q.between(field, Bound::Unbounded, Bound::Included(&v)),
                    Operator::Gt => q.between(field, Bound::Excluded(&v), Bound::Unbounded),
                    Operator::GtEq => q.between(field, Bound::Included(&v), Bound::Unbounded),
                    _ => return Unsupported,
                };
                kind.taken(taken, op != Operator::Eq)
            }
            Expr::InList(InList {
                expr,
                list,
                negated: false,
            }) => {
                let (Some(name), Some(values)) = (
                    column(expr),
                    list.iter().map(literal).collect::<Option<Vec<_>>>(),
                ) else {
                    return Unsupported;
                };
                self.values(q, name, &values)
            }
            Expr::Between(Between {
                expr,
                negated: false,
                low,
                high,
            }) => {
                let (Some((field, kind)), Some(lo), Some(hi)) = (
                    column(expr).and_then(|c| self.field(c)),
                    literal(low),
                    literal(high),
                ) else {
                    return Unsupported;
                };
                let (Some(lo), Some(hi)) = (kind.value(lo), kind.value(hi)) else {
                    return Unsupported;
                };
                let taken = q.between(field, Bound::Included(&lo), Bound::Included(&hi));
                kind.taken(taken, true)
            }
            Expr::IsNull(inner) => match column(inner).and_then(|c| self.field(c)) {
                Some((field, kind)) if kind.nullable => {
                    kind.taken(q.eq(field, &DynValue::Null), false)
                }
                _ => Unsupported,
            },
            _ => Unsupported,
        }
    }

    /// `name IN (values)`.
    fn values(
        &self,
        q: &mut DynQuery<K>,
        name: &str,
        values: &[&ScalarValue],
    ) -> TableProviderFilterPushDown {
        let Some((field, kind)) = self.field(name) else {
            return TableProviderFilterPushDown::Unsupported;
        };
        let mut list = Vec::with_capacity(values.len());
        for v in values {
            // `x IN (1, NULL)` holds where `x = 1`: a NULL in the list matches nothing.
            if v.is_null() {
                continue;
            }
            let Some(v) = kind.value(v) else {
                return TableProviderFilterPushDown::Unsupported;
            };
            list.push(v);
        }
        kind.taken(q.any_of(field, &list), false)
    }

    /// `record_type = 'Name'`.
    fn record(&self, q: &mut DynQuery<K>, value: &ScalarValue) -> TableProviderFilterPushDown {
        let name = match value {
            ScalarValue::Dictionary(_, inner) => inner.as_ref(),
            other => other,
        };
        match name {
            ScalarValue::Utf8(Some(n))
            | ScalarValue::LargeUtf8(Some(n))
            | ScalarValue::Utf8View(Some(n))
                if q.record(n) =>
            {
                TableProviderFilterPushDown::Exact
            }
            _ => TableProviderFilterPushDown::Unsupported,
        }
    }

    /// A leading key field's number and column, by the column's name.
    fn field(&self, name: &str) -> Option<(usize, Kind)> {
        let field = DynQuery::<K>::field(name)?;
        let column = self.schema.field_with_name(name).ok()?;
        let rust = K::SCHEMA
            .fields
            .iter()
            .find(|f| f.name == name)
            .map_or("", |f| f.rust_type);
        Some((
            field,
            Kind {
                data_type: column.data_type().clone(),
                nullable: column.is_nullable(),
                unsigned: rust.contains("u64"),
            },
        ))
    }
}

/// What a column's Arrow type says of the predicates on it.
#[derive(Debug)]
struct Kind {
    data_type: DataType,
    nullable: bool,
    /// The field is a `u64` (a timestamp column holds it as `i64`).
    unsigned: bool,
}

impl Kind {
    /// A literal as the run-time value the key's field is constrained to: only a literal of
    /// the column's own type (DataFusion casts literals to the column's type first), so that
    /// SQL's comparison and the key's are the same one.
    fn value(&self, v: &ScalarValue) -> Option<DynValue<'static>> {
        if !same_type(&v.data_type(), &self.data_type) {
            return None;
        }
        Some(match v {
            ScalarValue::Boolean(Some(b)) => DynValue::Bool(*b),
            ScalarValue::Int8(Some(x)) => DynValue::I8(*x),
            ScalarValue::Int16(Some(x)) => DynValue::I16(*x),
            ScalarValue::Int32(Some(x)) => DynValue::I32(*x),
            ScalarValue::Int64(Some(x)) => DynValue::I64(*x),
            ScalarValue::UInt8(Some(x)) => DynValue::U8(*x),
            ScalarValue::UInt16(Some(x)) => DynValue::U16(*x),
            ScalarValue::UInt32(Some(x)) => DynValue::U32(*x),
            ScalarValue::UInt64(Some(x)) => DynValue::U64(*x),
            ScalarValue::Float32(Some(x)) => DynValue::F32(*x),
            ScalarValue::Float64(Some(x)) => DynValue::F64(*x),
            ScalarValue::Utf8(Some(s))
            | ScalarValue::LargeUtf8(Some(s))
            | ScalarValue::Utf8View(Some(s)) => DynValue::Str(s.clone().into()),
            ScalarValue::Binary(Some(b))
            | ScalarValue::LargeBinary(Some(b))
            | ScalarValue::BinaryView(Some(b))
            | ScalarValue::FixedSizeBinary(_, Some(b)) => DynValue::Bytes(b.clone().into()),
            ScalarValue::TimestampMillisecond(Some(ms), _) => DynValue::I64(*ms),
            _ => return None,
        })
    }

    /// How a predicate on this column was taken: exact where the key's order and SQL's
    /// agree on every value the predicate admits.
    fn taken(&self, taken: bool, range: bool) -> TableProviderFilterPushDown {
        let floats = matches!(self.data_type, DataType::Float32 | DataType::Float64);
        // A range over an `Option` field admits `None` in the key's order (it sorts first);
        // SQL's comparison never holds for NULL. A `u64` timestamp is an `i64` column.
        let timestamp = matches!(self.data_type, DataType::Timestamp(..));
        if !taken {
            TableProviderFilterPushDown::Unsupported
        } else if floats || (range && (self.nullable || (timestamp && self.unsigned))) {
            TableProviderFilterPushDown::Inexact
        } else {
            TableProviderFilterPushDown::Exact
        }
    }
}

/// Whether a literal of type `lit` compares with a column of type `col` as the key does.
fn same_type(lit: &DataType, col: &DataType) -> bool {
    use DataType::*;
    match (lit, col) {
        (Utf8 | LargeUtf8 | Utf8View, Utf8 | LargeUtf8 | Utf8View) => true,
        (Binary | LargeBinary | BinaryView, Binary | LargeBinary | BinaryView) => true,
        (FixedSizeBinary(a), FixedSizeBinary(b)) => a == b,
        (Timestamp(TimeUnit::Millisecond, _), Timestamp(TimeUnit::Millisecond, _)) => true,
        (a, b) => a == b,
    }
}

/// The column and the literals of `x = a OR x = b OR x IN (c, d) ...` (one column), pushed
/// onto `leaves`.
fn or_values<'e>(e: &'e Expr, leaves: &mut Vec<&'e ScalarValue>) -> Option<&'e str> {
    match e {
        Expr::BinaryExpr(BinaryExpr {
            left,
            op: Operator::Or,
            right,
        }) => {
            let a = or_values(left, leaves)?;
            let b = or_values(right, leaves)?;
            (a == b).then_some(a)
        }
        Expr::BinaryExpr(BinaryExpr {
            left,
            op: Operator::Eq,
            right,
        }) => match (column(left), literal(right), literal(left), column(right)) {
            (Some(c), Some(v), _, _) | (_, _, Some(v), Some(c)) => {
                leaves.push(v);
                Some(c)
            }
            _ => None,
        },
        Expr::InList(InList {
            expr,
            list,
            negated: false,
        }) => {
            let c = column(expr)?;
            for v in list {
                leaves.push(literal(v)?);
            }
            Some(c)
        }
        _ => None,
    }
}

fn column(e: &Expr) -> Option<&str> {
    match e {
        Expr::Column(c) => Some(c.name.as_str()),
        _ => None,
    }
}

fn literal(e: &Expr) -> Option<&ScalarValue> {
    match e {
        Expr::Literal(v, _) => Some(v),
        _ => None,
    }
}

#[async_trait]
impl<S, K> TableProvider for KeyTable<S, K>
where
    S: Store + Send + Sync + 'static,
    K: QueryKey + 'static,
{
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    fn supports_filters_pushdown(
        &self,
        filters: &[&Expr],
    ) -> DfResult<Vec<TableProviderFilterPushDown>> {
        // Each filter is tried on its own: whether one is taken does not depend on the others.
        Ok(filters
            .iter()
            .map(|f| self.push(&mut DynQuery::<K>::new(), f))
            .collect())
    }

    async fn scan(
        &self,
        _state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        let (query, _) = self.plan(filters);
        let shape = shape(
            &self.schema,
            &self.options,
            projection,
            limit,
            self.batch_rows,
        )?;
        let walks = query.walks();
        let parts = pieces(&walks, &self.splits)
            .into_iter()
            .map(
                |(walk, within)| match plain_ranges(&walk, within.as_ref()) {
                    Some(ranges) => Part::Ranges(ranges),
                    None => Part::Walk(walk, within),
                },
            )
            .collect();
        let asked = Asked::Query(query.into_query(), walks.len());
        Ok(Arc::new(key_scan(
            self.store.clone(),
            K::SCHEMA,
            None,
            asked,
            parts,
            shape,
        )))
    }

    /// `INSERT INTO` (and `REPLACE INTO`: a key is one row, so both replace the row a key
    /// already has, as Phoenix's `UPSERT` does): each row's key columns become its key through
    /// the key's typed codec, the value column (when the table has one) its value, written
    /// with the store's `write_batch` one input batch at a time. `INSERT OVERWRITE` is refused.
    async fn insert_into(
        &self,
        _state: &dyn Session,
        input: Arc<dyn ExecutionPlan>,
        insert_op: InsertOp,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        if insert_op == InsertOp::Overwrite {
            return Err(DataFusionError::NotImplemented(format!(
                "INSERT OVERWRITE into a table of `{}` keys: it would delete every row first; \
                 delete them with the store, then INSERT INTO",
                K::SCHEMA.name
            )));
        }
        self.schema
            .logically_equivalent_names_and_types(&input.schema())?;
        let sink = insert::KeySink::new(self)?;
        Ok(Arc::new(DataSinkExec::new(input, Arc::new(sink), None)))
    }
}

/// The batches a scan of a table with columns `schema` (as `options` made them) builds for
/// `projection`: columns are built in the key's order, and a projection in another order is a
/// permutation of the built batch.
fn shape(
    schema: &SchemaRef,
    options: &Options,
    projection: Option<&Vec<usize>>,
    limit: Option<usize>,
    batch_rows: usize,
) -> DfResult<Shape> {
    let asked: Vec<usize> = match projection {
        Some(p) => p.clone(),
        None => (0..schema.fields().len()).collect(),
    };
    let mut built = asked.clone();
    built.sort_unstable();
    built.dedup();
    let mut built_options = options.clone();
    built_options.value_column = options
        .value_column
        .clone()
        .filter(|v| built.iter().any(|&i| schema.field(i).name() == v.as_str()));
    built_options.projection = Some(
        built
            .iter()
            .map(|&i| schema.field(i).name().clone())
            .filter(|n| Some(n) != options.value_column.as_ref())
            .collect(),
    );
    let built_schema = Arc::new(schema.project(&built)?);
    let reorder = (asked != built).then(|| {
        asked
            .iter()
            .map(|i| built.iter().position(|b| b == i).unwrap_or(0))
            .collect::<Vec<_>>()
    });
    let schema = match &reorder {
        Some(perm) => Arc::new(built_schema.project(perm)?),
        None => built_schema,
    };
    Ok(Shape {
        options: built_options,
        reorder,
        schema,
        limit,
        batch_rows,
    })
}

/// What one partition of a scan reads.
#[derive(Clone, Debug)]
enum Part {
    /// Key ranges read as they lie, every row in them a row of the result (a walk that never
    /// seeks, or a table without a query).
    Ranges(Vec<KeyRange>),
    /// A walk of the query, over the part of the table it reads (`None`: all of it).
    Walk(Query, Option<KeyRange>),
    /// Key ranges read as rows of cells (a `RowValue`'s columns), every row in them a row of
    /// the scan (DataFusion filters what the ranges do not).
    Cells(Vec<KeyRange>),
}

/// What `EXPLAIN` shows of the rows a scan asks for.
#[derive(Clone, Debug)]
enum Asked {
    /// A typed table's query, and its number of walks.
    Query(Query, usize),
    /// A layout read as data: no query, every row read and DataFusion filters.
    Everything,
}

/// The scan of a [`KeyTable`], a [`RowTable`] or a [`SchemaTable`]: one partition per walk
/// of its query (or per salt bucket), or per piece of one between the table's split keys.
type KeyScanExec<S> = exec::ScanExec<KeyScan<S>>;

/// What a [`KeyScanExec`]'s partitions read.
struct KeyScan<S> {
    store: Arc<S>,
    key: &'static rowkey::Schema,
    /// The value type's layout, for a scan of rows of cells ([`Part::Cells`]).
    value: Option<&'static rowkey::ValueSchema>,
    asked: Asked,
    parts: Vec<Part>,
    options: Options,
    reorder: Option<Vec<usize>>,
    batch_rows: usize,
}

/// How a scan's batches are made: the key's columns as `options` say, in `reorder`'s order
/// when the projection is not the key's, `batch_rows` at a time.
struct Shape {
    options: Options,
    reorder: Option<Vec<usize>>,
    schema: SchemaRef,
    limit: Option<usize>,
    batch_rows: usize,
}

/// The plan of a scan of `key`'s rows (of cells, with `value`'s layout) that reads `parts`.
fn key_scan<S: Store + Send + Sync + 'static>(
    store: Arc<S>,
    key: &'static rowkey::Schema,
    value: Option<&'static rowkey::ValueSchema>,
    asked: Asked,
    parts: Vec<Part>,
    shape: Shape,
) -> KeyScanExec<S> {
    let ordering = key_order(key, &shape.schema);
    let scan = KeyScan {
        store,
        key,
        value,
        asked,
        parts,
        options: shape.options,
        reorder: shape.reorder,
        batch_rows: shape.batch_rows,
    };
    exec::ScanExec::new(scan, shape.schema, ordering, shape.limit)
}

impl<S> fmt::Debug for KeyScan<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyScan")
            .field("key", &self.key.name)
            .field("partitions", &self.parts.len())
            .finish_non_exhaustive()
    }
}

impl<S: Store + Send + Sync + 'static> exec::PartitionedScan for KeyScan<S> {
    const NAME: &'static str = "KeyScanExec";

    fn partitions(&self) -> usize {
        self.parts.len()
    }

    fn describe(
        &self,
        t: DisplayFormatType,
        limit: Option<usize>,
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
        write!(f, "key={}", self.key.name)?;
        let plan = match &self.asked {
            Asked::Query(query, walks) => {
                write!(f, ", walks={walks}")?;
                if self.parts.len() != *walks {
                    write!(f, ", partitions={}", self.parts.len())?;
                }
                if let Some(value) = self.value {
                    // A scan of cells reads the walks' key ranges whole.
                    write!(
                        f,
                        ", value={} (the query's key ranges read whole)",
                        value.name
                    )?;
                }
                let plan = query.to_string();
                plan.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join("; ")
            }
            Asked::Everything => {
                write!(f, ", partitions={}", self.parts.len())?;
                "every row (a layout without its Rust type: DataFusion filters)".to_string()
            }
        };
        if let Some(n) = limit {
            write!(f, ", limit={n}")?;
        }
        match t {
            DisplayFormatType::TreeRender => write!(f, "\nquery={plan}"),
            _ => write!(f, ", query=[{plan}]"),
        }
    }

    fn read(
        &self,
        partition: usize,
        limit: usize,
        meters: &exec::Meters,
        hand_on: &exec::HandOn<'_>,
    ) -> DfResult<()> {
        let Some(part) = self.parts.get(partition).cloned() else {
            return Ok(());
        };
        let (store, key, value) = (&*self.store, self.key, self.value);
        let (options, reorder, batch_rows) = (&self.options, &self.reorder, self.batch_rows);
        let exec::Meters {
            read,
            seeks,
            output,
        } = meters;
        // `false`: the channel is closed, the query wants no more rows (a LIMIT met above,
        // a cancel).
        let send = |batch: RecordBatch| -> DfResult<bool> {
            let batch = match &reorder {
                Some(perm) => batch.project(perm)?,
                None => batch,
            };
            hand_on(batch)
        };
        // A plain read's rows are counted as read as they are sent.
        let plain = |rows: usize| {
            read.add(rows);
            output.add(rows);
        };
        if let (Part::Cells(ranges), Some(value)) = (&part, value) {
            let mut batch = rowkey_arrow::RowBatchBuilder::with_options(key, value, options)
                .map_err(external)?;
            let columns = rowkey::store::Columns::exact(
                value
                    .columns
                    .iter()
                    .map(|c| rowkey::store::Column::new(c.family, c.qualifier.as_bytes())),
            );
            let mut left = limit;
            for range in ranges {
                for row in store.scan_rows(range, &columns) {
                    if left == 0 {
                        break;
                    }
                    batch.push(&row.map_err(external)?).map_err(external)?;
                    left -= 1;
                    if !flush(&mut batch, batch_rows, &plain, &send)? {
                        return Ok(());
                    }
                }
            }
            flush(&mut batch, 1, &plain, &send)?;
            return Ok(());
        }
        let mut batch = KeyBatchBuilder::with_options(key, options).map_err(external)?;
        let (walk, within) = match part {
            Part::Walk(walk, within) => (walk, within),
            Part::Cells(_) => {
                return Err(DataFusionError::Internal(
                    "a scan of cells without the value's layout".into(),
                ))
            }
            Part::Ranges(ranges) => {
                // Nothing to seek past: the ranges' rows are the result's, read as they lie
                // in the store's buffers (lent, not copied).
                let mut left = limit;
                for range in ranges {
                    let mut scan = store.scan(&range);
                    while left > 0 {
                        let Some(row) = S::lend_next(&mut scan) else {
                            break;
                        };
                        let row = row.map_err(external)?;
                        let (key, value) = row.parts();
                        batch.push(key, Some(value)).map_err(external)?;
                        left -= 1;
                        if !flush(&mut batch, batch_rows, &plain, &send)? {
                            return Ok(());
                        }
                    }
                }
                flush(&mut batch, 1, &plain, &send)?;
                return Ok(());
            }
        };
        let mut scan = match &within {
            Some(range) => SkipScan::within(store, &walk, range),
            None => SkipScan::new(store, &walk),
        };
        let mut left = limit;
        let counted = std::cell::Cell::new(rowkey::store::SkipStats::default());
        // The walk's counters as DataFusion's metrics (`EXPLAIN ANALYZE`), as they grow.
        let count = |scan: &SkipScan<'_, S>, rows: usize| {
            let (now, before) = (scan.stats(), counted.get());
            read.add(usize::try_from(now.read - before.read).unwrap_or(usize::MAX));
            seeks.add(usize::try_from(now.seeks - before.seeks).unwrap_or(usize::MAX));
            output.add(rows);
            counted.set(now);
        };
        while left > 0 {
            let Some(row) = scan.next() else { break };
            let (key, value) = row.map_err(external)?;
            batch.push(&key, Some(&value)).map_err(external)?;
            left -= 1;
            if !flush(&mut batch, batch_rows, &|rows| count(&scan, rows), &send)? {
                return Ok(());
            }
        }
        // The walk's last reads are counted even when they matched nothing.
        let rows = batch.len();
        count(&scan, rows);
        if rows > 0 {
            send(batch.finish())?;
        }
        Ok(())
    }
}

/// A batch a partition fills: [`KeyBatchBuilder`] or [`rowkey_arrow::RowBatchBuilder`].
trait Filling {
    fn rows(&self) -> usize;
    fn take(&mut self) -> RecordBatch;
}

impl Filling for KeyBatchBuilder {
    fn rows(&self) -> usize {
        self.len()
    }
    fn take(&mut self) -> RecordBatch {
        self.finish()
    }
}

impl Filling for rowkey_arrow::RowBatchBuilder {
    fn rows(&self) -> usize {
        self.len()
    }
    fn take(&mut self) -> RecordBatch {
        self.finish()
    }
}

/// Sends `batch` on once it holds `at_least` rows (and at least one), its rows counted first
/// by `count`; `false` when the query wants no more rows (the receiver is gone).
fn flush(
    batch: &mut impl Filling,
    at_least: usize,
    count: &dyn Fn(usize),
    send: &dyn Fn(RecordBatch) -> DfResult<bool>,
) -> DfResult<bool> {
    let rows = batch.rows();
    if rows < at_least.max(1) {
        return Ok(true);
    }
    count(rows);
    send(batch.take())
}

/// The key ranges a walk reads when it never seeks (its only constraints are leading value
/// lists the ranges spell out, the rest of the key open: every key in them matches), narrowed
/// to `within`; `None` when the walk must be walked.
fn plain_ranges(walk: &Query, within: Option<&KeyRange>) -> Option<Vec<KeyRange>> {
    let mut combinations = 1usize;
    let mut open = false;
    for (_, c) in walk.segments() {
        match c {
            _ if c.is_any() => open = true,
            Constraint::In(values) if !open => {
                combinations = combinations.saturating_mul(values.len());
                if combinations > Query::MAX_RANGES {
                    return None;
                }
            }
            _ => return None,
        }
    }
    let ranges = walk
        .key_ranges(Query::MAX_RANGES)
        .into_iter()
        .map(|(start, end)| KeyRange::new(&start, end.as_deref()))
        .filter_map(|r| match within {
            Some(w) => r.intersection(w),
            None => Some(r),
        })
        .collect();
    Some(ranges)
}

/// Each walk cut at `splits` into the pieces between consecutive split keys it reaches: one
/// partition each (a walk the splits do not cut is one partition, reading all it reads).
fn pieces(walks: &[Query], splits: &[Vec<u8>]) -> Vec<(Query, Option<KeyRange>)> {
    let mut parts = Vec::new();
    for walk in walks {
        let (start, end) = (walk.start(), walk.end());
        // The splits strictly inside the walk's span.
        let inside: Vec<&Vec<u8>> = splits
            .iter()
            .filter(|k| **k > start && end.as_ref().is_none_or(|e| *k < e))
            .collect();
        if inside.is_empty() {
            parts.push((walk.clone(), None));
            continue;
        }
        let mut from: Vec<u8> = Vec::new();
        for k in inside {
            parts.push((walk.clone(), Some(KeyRange::new(&from, Some(k)))));
            from = k.clone();
        }
        parts.push((walk.clone(), Some(KeyRange::new(&from, None))));
    }
    parts
}

/// The order each partition's rows come in, as sort expressions over `schema`'s columns: the
/// key's leading fields while their bytes sort as their values and their columns are in
/// `schema` (empty when the first is not).
fn key_order(key: &'static rowkey::Schema, schema: &SchemaRef) -> Option<Vec<PhysicalSortExpr>> {
    use rowkey::Order;
    let mut order = Vec::new();
    for field in key.fields {
        let descending = match field.order {
            Order::Ascending => false,
            Order::Descending => true,
            Order::Unordered => break,
        };
        if field.nested.is_some() {
            break;
        }
        let Ok(at) = schema.index_of(field.name) else {
            break;
        };
        let column = schema.field(at);
        let sorts_as_sql = matches!(
            column.data_type(),
            DataType::Boolean
                | DataType::Int8
                | DataType::Int16
                | DataType::Int32
                | DataType::Int64
                | DataType::UInt8
                | DataType::UInt16
                | DataType::UInt32
                | DataType::UInt64
                | DataType::Utf8
                | DataType::Binary
                | DataType::FixedSizeBinary(_)
                | DataType::Timestamp(_, _)
        );
        if !sorts_as_sql {
            break;
        }
        // `None` is `00` before every `Some` (`01 ..`), inverted under `#[desc]`; a column
        // without nulls takes SQL's default for its direction.
        let nulls_first = if column.is_nullable() {
            !descending
        } else {
            descending
        };
        order.push(PhysicalSortExpr::new(
            Arc::new(Column::new(field.name, at)),
            SortOptions {
                descending,
                nulls_first,
            },
        ));
    }
    (!order.is_empty()).then_some(order)
}

fn external(e: impl std::error::Error + Send + Sync + 'static) -> DataFusionError {
    DataFusionError::External(Box::new(e))
}
