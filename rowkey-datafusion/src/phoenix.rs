//! [`PhoenixRowTable`]: a Phoenix table ([`PhoenixTable`], what `#[derive(PhoenixRow)]`
//! declares) as a DataFusion table, read in Phoenix's own encodings on any store.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::array::{
    ArrayRef, BinaryBuilder, BooleanBuilder, Float32Builder, Float64Builder, Int16Builder,
    Int32Builder, Int64Builder, Int8Builder, RecordBatchOptions, StringBuilder,
    TimestampMillisecondBuilder, TimestampNanosecondBuilder, UInt16Builder, UInt32Builder,
    UInt64Builder, UInt8Builder,
};
use datafusion::arrow::compute::SortOptions;
use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef, TimeUnit};
use datafusion::arrow::record_batch::RecordBatch;
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::{DataFusionError, Result as DfResult, ScalarValue};
use datafusion::datasource::TableType;
use datafusion::logical_expr::{BinaryExpr, Expr, Operator, TableProviderFilterPushDown};
use datafusion::physical_expr::expressions::Column as ColumnExpr;
use datafusion::physical_expr::PhysicalSortExpr;
use datafusion::physical_plan::{DisplayFormatType, ExecutionPlan};
use rowkey::phoenix::{
    decode_value, Datum, PhoenixError, PhoenixRow, PhoenixTable, PhoenixType, SortOrder,
};
use rowkey::store::{CellRow, Columns, Store};
use rowkey::KeyRange;

use crate::exec::{HandOn, Meters, PartitionedScan, ScanExec};
use crate::{column, external, literal, or_values, split_keys};

/// The most key prefixes a `WHERE` clause's equalities and `IN` lists become before the scan
/// reads the whole table instead (each prefix is a range per salt bucket).
const MAX_PREFIXES: usize = 1_024;

/// The rows of a Phoenix table ([`PhoenixTable`]: what `#[derive(PhoenixRow)]` declares, or
/// one built as data) in a store, as a DataFusion table, decoded as Phoenix encodes them: the
/// same rows [`rowkey::store::PhoenixRows`] reads and writes and Phoenix's own SQL sees.
///
/// **Columns**: the key columns, then the value columns, named as the table names them (case
/// kept, as the DDL quotes them), with Phoenix's types as Arrow's:
///
/// | Phoenix | Arrow |
/// |---|---|
/// | `TINYINT` .. `BIGINT` | `Int8` .. `Int64` |
/// | `UNSIGNED_TINYINT` .. `UNSIGNED_LONG` | `UInt8` .. `UInt64` |
/// | `FLOAT`, `DOUBLE` | `Float32`, `Float64` |
/// | `BOOLEAN` | `Boolean` |
/// | `VARCHAR`, `CHAR(n)` | `Utf8` (`CHAR`'s padding removed, as Phoenix returns it) |
/// | `BINARY(n)`, `VARBINARY` | `Binary` |
/// | `DATE` | `Timestamp(Millisecond)` |
/// | `TIMESTAMP` | `Timestamp(Nanosecond)` |
///
/// Value columns, and nullable key columns, are nullable (a missing cell is `NULL`); the salt
/// byte and Phoenix's empty marker cell are not columns.
///
/// **Pushdown**: equalities and `IN` lists on the leading key columns (`host = 'db-1'`,
/// `host IN (...) AND ts = 7`) become key prefixes, each read as a range per salt bucket, as
/// Phoenix's point and range scans read them; every filter is also checked by DataFusion
/// (reported inexact), so the answer is exact whatever the store returns. Other predicates
/// are DataFusion's.
///
/// **Partitions**: one per salt bucket, cut at [`PhoenixRowTable::split_at`]'s keys. Each
/// partition's rows come in the key's order (each column ascending, or descending under
/// `DESC`), declared to DataFusion for the leading key columns that are `NOT NULL` and whose
/// bytes sort as SQL compares their values (integers, `VARCHAR`, `BOOLEAN`, `DATE`,
/// `TIMESTAMP`), so an `ORDER BY` on them merges the buckets instead of sorting.
///
/// A stored row the table does not read (a key Phoenix would not write, a cell of the wrong
/// width) fails the query, naming its key and column.
pub struct PhoenixRowTable<S> {
    store: Arc<S>,
    table: Arc<PhoenixTable>,
    schema: SchemaRef,
    batch_rows: usize,
    splits: Arc<[Vec<u8>]>,
}

impl<S> fmt::Debug for PhoenixRowTable<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PhoenixRowTable")
            .field("table", &self.table.name())
            .field("columns", &self.schema.fields().len())
            .field("batch_rows", &self.batch_rows)
            .field("splits", &self.splits.len())
            .finish_non_exhaustive()
    }
}

/// The Arrow type a Phoenix type's values become in a [`PhoenixRowTable`].
pub fn phoenix_data_type(ty: PhoenixType) -> DataType {
    use PhoenixType::*;
    match ty {
        TinyInt => DataType::Int8,
        SmallInt => DataType::Int16,
        Integer => DataType::Int32,
        BigInt => DataType::Int64,
        UnsignedTinyInt => DataType::UInt8,
        UnsignedSmallInt => DataType::UInt16,
        UnsignedInt => DataType::UInt32,
        UnsignedLong => DataType::UInt64,
        Float => DataType::Float32,
        Double => DataType::Float64,
        Boolean => DataType::Boolean,
        Varchar | Char(_) => DataType::Utf8,
        Binary(_) | Varbinary => DataType::Binary,
        Date => DataType::Timestamp(TimeUnit::Millisecond, None),
        Timestamp => DataType::Timestamp(TimeUnit::Nanosecond, None),
    }
}

/// One column of a Phoenix table as the scan sees it: its type, and where its value is.
#[derive(Clone, Debug)]
enum Source {
    /// The key column at this place.
    Key(usize),
    /// The value column at this place of [`PhoenixTable::columns`].
    Value(usize),
}

impl<S: Store + Send + Sync + 'static> PhoenixRowTable<S> {
    /// The rows of `table` in `store`.
    pub fn new(store: Arc<S>, table: PhoenixTable) -> Self {
        let key = table
            .key()
            .columns()
            .iter()
            .map(|c| Field::new(c.name.as_ref(), phoenix_data_type(c.ty), c.nullable));
        let values = table
            .columns()
            .iter()
            .map(|c| Field::new(c.name.as_ref(), phoenix_data_type(c.ty), true));
        let schema = Arc::new(Schema::new(key.chain(values).collect::<Vec<_>>()));
        PhoenixRowTable {
            store,
            table: Arc::new(table),
            schema,
            batch_rows: crate::BATCH_ROWS,
            splits: Arc::from(Vec::new()),
        }
    }

    /// The rows of `T`'s table (`T::table()`) in `store`.
    pub fn of<T: PhoenixRow>(store: Arc<S>) -> Self {
        Self::new(store, T::table())
    }

    /// Cuts each partition at `keys` (regions' or tablets' first keys, salt byte included)
    /// into partitions that DataFusion reads in parallel.
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

    /// The table.
    pub fn table(&self) -> &PhoenixTable {
        &self.table
    }

    /// The key prefixes `filters` fix (the values of the leading key columns each equality or
    /// `IN` list allows, combined), or `None` when they fix none (or too many).
    fn prefixes(&self, filters: &[Expr]) -> Option<Vec<Vec<Datum<'static>>>> {
        let key = self.table.key().columns();
        let mut allowed: Vec<Option<Vec<Datum<'static>>>> = vec![None; key.len()];
        for f in filters {
            let Some((name, values)) = equalities(f) else {
                continue;
            };
            let Some(i) = key.iter().position(|c| c.name == name) else {
                continue;
            };
            let Some(listed) = values
                .into_iter()
                .map(|v| datum(key[i].ty, v))
                .collect::<Option<Vec<_>>>()
            else {
                continue;
            };
            // A value listed twice is one prefix (read once).
            let mut values: Vec<Datum<'static>> = Vec::with_capacity(listed.len());
            for v in listed {
                if !values.contains(&v) {
                    values.push(v);
                }
            }
            // Two conjuncts on one column: the values both allow.
            allowed[i] = Some(match allowed[i].take() {
                None => values,
                Some(before) => before.into_iter().filter(|v| values.contains(v)).collect(),
            });
        }
        let mut prefixes: Vec<Vec<Datum<'static>>> = vec![Vec::new()];
        for values in allowed.into_iter().map_while(|a| a) {
            if prefixes.len().saturating_mul(values.len()) > MAX_PREFIXES {
                break;
            }
            prefixes = prefixes
                .iter()
                .flat_map(|p| {
                    values.iter().map(move |v| {
                        let mut p = p.clone();
                        p.push(v.clone());
                        p
                    })
                })
                .collect();
        }
        (prefixes.first().is_some_and(|p| !p.is_empty()) || prefixes.is_empty()).then_some(prefixes)
    }

    /// What each partition reads: the prefixes' ranges (the whole table without one), per
    /// salt bucket, in key order, cut at the split keys. A prefix no key can hold (a value out
    /// of its column's range) reads nothing.
    fn parts(&self, prefixes: Option<&[Vec<Datum<'static>>]>) -> Vec<Vec<KeyRange>> {
        let key = self.table.key();
        let mut ranges: Vec<KeyRange> = match prefixes {
            None => key.prefix_ranges(&[]).unwrap_or_default(),
            Some(prefixes) => prefixes
                .iter()
                .filter_map(|p| key.prefix_ranges(p).ok())
                .flatten()
                .collect(),
        };
        ranges.sort_by(|a, b| a.start().cmp(b.start()));
        // One group per salt bucket (the first byte of a salted range), or one.
        let salted = key.salt_buckets().is_some();
        let mut groups: Vec<Vec<KeyRange>> = Vec::new();
        for r in ranges {
            match groups.last_mut() {
                Some(g) if !salted || g[0].start().first() == r.start().first() => g.push(r),
                _ => groups.push(vec![r]),
            }
        }
        let mut parts = Vec::new();
        for group in groups {
            let mut from: Vec<u8> = Vec::new();
            for k in self.splits.iter() {
                let piece = KeyRange::new(&from, Some(k));
                let inside: Vec<KeyRange> = group
                    .iter()
                    .filter_map(|r| r.intersection(&piece))
                    .collect();
                if !inside.is_empty() {
                    parts.push(inside);
                }
                from = k.clone();
            }
            let last = KeyRange::new(&from, None);
            let inside: Vec<KeyRange> =
                group.iter().filter_map(|r| r.intersection(&last)).collect();
            if !inside.is_empty() {
                parts.push(inside);
            }
        }
        parts
    }

    /// The order each partition's rows come in, over `schema`'s columns (see the type's
    /// documentation).
    fn order(&self, schema: &SchemaRef) -> Option<Vec<PhysicalSortExpr>> {
        let mut order = Vec::new();
        for c in self.table.key().columns() {
            let sorts = !c.nullable
                && matches!(
                    c.ty,
                    PhoenixType::TinyInt
                        | PhoenixType::SmallInt
                        | PhoenixType::Integer
                        | PhoenixType::BigInt
                        | PhoenixType::UnsignedTinyInt
                        | PhoenixType::UnsignedSmallInt
                        | PhoenixType::UnsignedInt
                        | PhoenixType::UnsignedLong
                        | PhoenixType::Varchar
                        | PhoenixType::Boolean
                        | PhoenixType::Date
                        | PhoenixType::Timestamp
                );
            let Ok(at) = schema.index_of(&c.name) else {
                break;
            };
            if !sorts {
                break;
            }
            let descending = c.order == SortOrder::Desc;
            order.push(PhysicalSortExpr::new(
                Arc::new(ColumnExpr::new(&c.name, at)),
                SortOptions {
                    descending,
                    nulls_first: descending,
                },
            ));
        }
        (!order.is_empty()).then_some(order)
    }
}

/// `column = literal`, `column IN (literals)` or an `OR` of equalities on one column: the
/// column and the values it allows.
fn equalities(e: &Expr) -> Option<(&str, Vec<&ScalarValue>)> {
    match e {
        Expr::BinaryExpr(BinaryExpr {
            left,
            op: Operator::Eq,
            right,
        }) => match (column(left), literal(right), column(right), literal(left)) {
            (Some(c), Some(v), _, _) | (_, _, Some(c), Some(v)) => Some((c, vec![v])),
            _ => None,
        },
        Expr::InList(list) if !list.negated => {
            let c = column(&list.expr)?;
            let values = list.list.iter().map(literal).collect::<Option<Vec<_>>>()?;
            Some((c, values))
        }
        Expr::BinaryExpr(BinaryExpr {
            op: Operator::Or, ..
        }) => {
            let mut values = Vec::new();
            let c = or_values(e, &mut values)?;
            Some((c, values))
        }
        _ => None,
    }
}

/// A literal as the value of a key column of type `ty`, when it is one (`None`: not pushed
/// down; DataFusion compares it).
fn datum(ty: PhoenixType, v: &ScalarValue) -> Option<Datum<'static>> {
    use PhoenixType::*;
    match ty {
        TinyInt | SmallInt | Integer | BigInt | UnsignedTinyInt | UnsignedSmallInt
        | UnsignedInt | UnsignedLong => {
            let v = match v {
                ScalarValue::Int8(Some(v)) => i64::from(*v),
                ScalarValue::Int16(Some(v)) => i64::from(*v),
                ScalarValue::Int32(Some(v)) => i64::from(*v),
                ScalarValue::Int64(Some(v)) => *v,
                ScalarValue::UInt8(Some(v)) => i64::from(*v),
                ScalarValue::UInt16(Some(v)) => i64::from(*v),
                ScalarValue::UInt32(Some(v)) => i64::from(*v),
                ScalarValue::UInt64(Some(v)) => i64::try_from(*v).ok()?,
                _ => return None,
            };
            Some(Datum::Int(v))
        }
        Varchar => match v {
            ScalarValue::Utf8(Some(s))
            | ScalarValue::LargeUtf8(Some(s))
            | ScalarValue::Utf8View(Some(s)) => Some(Datum::Text(s.clone().into())),
            _ => None,
        },
        Boolean => match v {
            ScalarValue::Boolean(Some(b)) => Some(Datum::Bool(*b)),
            _ => None,
        },
        // Floats (`-0.0`, NaN), `CHAR`'s padding, bytes and times: DataFusion compares them.
        _ => None,
    }
}

#[async_trait]
impl<S: Store + Send + Sync + 'static> TableProvider for PhoenixRowTable<S> {
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
        Ok(vec![TableProviderFilterPushDown::Inexact; filters.len()])
    }

    async fn scan(
        &self,
        _state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        let projection: Vec<usize> = match projection {
            Some(p) => p.clone(),
            None => (0..self.schema.fields().len()).collect(),
        };
        let schema = Arc::new(self.schema.project(&projection)?);
        let keys = self.table.key().columns().len();
        let sources = projection
            .iter()
            .map(|&i| {
                if i < keys {
                    Source::Key(i)
                } else {
                    Source::Value(i - keys)
                }
            })
            .collect();
        let prefixes = self.prefixes(filters);
        let parts = self.parts(prefixes.as_deref());
        let ordering = self.order(&schema);
        let scan = PhoenixScan {
            store: self.store.clone(),
            table: self.table.clone(),
            sources,
            prefixes: prefixes.map_or(0, |p| p.len()),
            parts,
            batch_rows: self.batch_rows,
            schema: schema.clone(),
        };
        Ok(Arc::new(ScanExec::new(scan, schema, ordering, limit)))
    }
}

/// What a [`PhoenixRowTable`]'s scan (`PhoenixScanExec`) reads: one partition per salt bucket
/// (or piece between split keys), each reading its key ranges in order.
struct PhoenixScan<S> {
    store: Arc<S>,
    table: Arc<PhoenixTable>,
    sources: Vec<Source>,
    /// The key prefixes pushed down (0: the whole table).
    prefixes: usize,
    parts: Vec<Vec<KeyRange>>,
    batch_rows: usize,
    schema: SchemaRef,
}

impl<S> fmt::Debug for PhoenixScan<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PhoenixScan")
            .field("table", &self.table.name())
            .field("partitions", &self.parts.len())
            .finish_non_exhaustive()
    }
}

impl<S: Store + Send + Sync + 'static> PartitionedScan for PhoenixScan<S> {
    const NAME: &'static str = "PhoenixScanExec";

    fn partitions(&self) -> usize {
        self.parts.len()
    }

    fn describe(
        &self,
        _t: DisplayFormatType,
        limit: Option<usize>,
        f: &mut fmt::Formatter<'_>,
    ) -> fmt::Result {
        write!(
            f,
            "table={}, partitions={}, ranges={}",
            self.table.name(),
            self.parts.len(),
            self.parts.iter().map(Vec::len).sum::<usize>()
        )?;
        match self.prefixes {
            0 => write!(f, ", every row")?,
            n => write!(f, ", key prefixes={n}")?,
        }
        if let Some(n) = limit {
            write!(f, ", limit={n}")?;
        }
        Ok(())
    }

    fn read(
        &self,
        partition: usize,
        limit: usize,
        meters: &Meters,
        hand_on: &HandOn<'_>,
    ) -> DfResult<()> {
        let Some(ranges) = self.parts.get(partition) else {
            return Ok(());
        };
        let table = &self.table;
        let columns = Columns::families(
            table
                .families()
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>(),
        );
        let mut batch = Batch::new(table, &self.sources, self.schema.clone());
        let send = |batch: &mut Batch<'_>| {
            meters.read.add(batch.rows);
            meters.output.add(batch.rows);
            hand_on(batch.take()?)
        };
        let mut left = limit;
        for range in ranges {
            for row in self.store.scan_rows(range, &columns) {
                if left == 0 {
                    break;
                }
                let row = row.map_err(external)?;
                batch.push(table, &row).map_err(|e| {
                    DataFusionError::Execution(format!(
                        "table {}: stored row {}: {e}",
                        table.name(),
                        rowkey::fmt::binary(&row.key)
                    ))
                })?;
                left -= 1;
                if batch.rows >= self.batch_rows && !send(&mut batch)? {
                    return Ok(());
                }
            }
        }
        if batch.rows > 0 {
            send(&mut batch)?;
        }
        Ok(())
    }
}

/// The columns of one record batch being filled.
struct Batch<'a> {
    schema: SchemaRef,
    sources: &'a [Source],
    columns: Vec<Builder>,
    rows: usize,
}

impl<'a> Batch<'a> {
    fn new(table: &PhoenixTable, sources: &'a [Source], schema: SchemaRef) -> Self {
        let columns = sources
            .iter()
            .map(|s| {
                Builder::new(match s {
                    Source::Key(i) => table.key().columns()[*i].ty,
                    Source::Value(i) => table.columns()[*i].ty,
                })
            })
            .collect();
        Batch {
            schema,
            sources,
            columns,
            rows: 0,
        }
    }

    /// Decodes `row` (its key checked whole, the projected value cells) into the columns.
    fn push(&mut self, table: &PhoenixTable, row: &CellRow) -> Result<(), PhoenixError> {
        let mut key = table.key().decode(&row.key)?;
        for (source, column) in self.sources.iter().zip(&mut self.columns) {
            match source {
                Source::Key(i) => column.push(key[*i].take()),
                Source::Value(i) => {
                    let c = &table.columns()[*i];
                    row.value(&c.family, c.name.as_bytes())
                        .map(|bytes| decode_value(c.ty, bytes))
                        .transpose()
                        .and_then(|v| column.push(v))
                        .map_err(|e| e.at(&c.name))
                }
            }?;
        }
        self.rows += 1;
        Ok(())
    }

    fn take(&mut self) -> DfResult<RecordBatch> {
        let arrays: Vec<ArrayRef> = self.columns.iter_mut().map(Builder::finish).collect();
        let options = RecordBatchOptions::new().with_row_count(Some(self.rows));
        self.rows = 0;
        Ok(RecordBatch::try_new_with_options(
            self.schema.clone(),
            arrays,
            &options,
        )?)
    }
}

/// A value a column cannot hold.
fn refused(reason: String) -> PhoenixError {
    PhoenixError {
        column: None,
        reason,
    }
}

/// One column's Arrow builder, by the Arrow type [`phoenix_data_type`] gives.
enum Builder {
    I8(Int8Builder),
    I16(Int16Builder),
    I32(Int32Builder),
    I64(Int64Builder),
    U8(UInt8Builder),
    U16(UInt16Builder),
    U32(UInt32Builder),
    U64(UInt64Builder),
    F32(Float32Builder),
    F64(Float64Builder),
    Bool(BooleanBuilder),
    Text(StringBuilder),
    Bytes(BinaryBuilder),
    Millis(TimestampMillisecondBuilder),
    Nanos(TimestampNanosecondBuilder),
}

impl Builder {
    fn new(ty: PhoenixType) -> Self {
        use PhoenixType::*;
        match ty {
            TinyInt => Builder::I8(Int8Builder::new()),
            SmallInt => Builder::I16(Int16Builder::new()),
            Integer => Builder::I32(Int32Builder::new()),
            BigInt => Builder::I64(Int64Builder::new()),
            UnsignedTinyInt => Builder::U8(UInt8Builder::new()),
            UnsignedSmallInt => Builder::U16(UInt16Builder::new()),
            UnsignedInt => Builder::U32(UInt32Builder::new()),
            UnsignedLong => Builder::U64(UInt64Builder::new()),
            Float => Builder::F32(Float32Builder::new()),
            Double => Builder::F64(Float64Builder::new()),
            Boolean => Builder::Bool(BooleanBuilder::new()),
            Varchar | Char(_) => Builder::Text(StringBuilder::new()),
            Binary(_) | Varbinary => Builder::Bytes(BinaryBuilder::new()),
            Date => Builder::Millis(TimestampMillisecondBuilder::new()),
            Timestamp => Builder::Nanos(TimestampNanosecondBuilder::new()),
        }
    }

    /// Appends a value (`None`: null); a value of another type, or out of the column's
    /// range, is refused.
    fn push(&mut self, value: Option<Datum<'_>>) -> Result<(), PhoenixError> {
        fn int<T: TryFrom<i64>>(v: i64) -> Result<T, PhoenixError> {
            T::try_from(v).map_err(|_| refused(format!("{v} is out of the column's range")))
        }
        let mismatch = |v: &Datum<'_>| Err(refused(format!("{v:?} in this column")));
        match (self, value) {
            (Builder::I8(b), None) => b.append_null(),
            (Builder::I16(b), None) => b.append_null(),
            (Builder::I32(b), None) => b.append_null(),
            (Builder::I64(b), None) => b.append_null(),
            (Builder::U8(b), None) => b.append_null(),
            (Builder::U16(b), None) => b.append_null(),
            (Builder::U32(b), None) => b.append_null(),
            (Builder::U64(b), None) => b.append_null(),
            (Builder::F32(b), None) => b.append_null(),
            (Builder::F64(b), None) => b.append_null(),
            (Builder::Bool(b), None) => b.append_null(),
            (Builder::Text(b), None) => b.append_null(),
            (Builder::Bytes(b), None) => b.append_null(),
            (Builder::Millis(b), None) => b.append_null(),
            (Builder::Nanos(b), None) => b.append_null(),
            (Builder::I8(b), Some(Datum::Int(v))) => b.append_value(int(v)?),
            (Builder::I16(b), Some(Datum::Int(v))) => b.append_value(int(v)?),
            (Builder::I32(b), Some(Datum::Int(v))) => b.append_value(int(v)?),
            (Builder::I64(b), Some(Datum::Int(v))) => b.append_value(v),
            (Builder::U8(b), Some(Datum::Int(v))) => b.append_value(int(v)?),
            (Builder::U16(b), Some(Datum::Int(v))) => b.append_value(int(v)?),
            (Builder::U32(b), Some(Datum::Int(v))) => b.append_value(int(v)?),
            (Builder::U64(b), Some(Datum::Int(v))) => b.append_value(int(v)?),
            (Builder::F32(b), Some(Datum::Float(v))) => b.append_value(v as f32),
            (Builder::F64(b), Some(Datum::Float(v))) => b.append_value(v),
            (Builder::Bool(b), Some(Datum::Bool(v))) => b.append_value(v),
            (Builder::Text(b), Some(Datum::Text(v))) => b.append_value(v),
            (Builder::Bytes(b), Some(Datum::Bytes(v))) => b.append_value(v),
            (Builder::Millis(b), Some(Datum::Date(v))) => b.append_value(v),
            (Builder::Nanos(b), Some(Datum::Timestamp { millis, nanos })) => {
                let ns = millis
                    .checked_mul(1_000_000)
                    .and_then(|ns| ns.checked_add(i64::from(nanos)))
                    .ok_or_else(|| {
                        refused(format!(
                            "the timestamp {millis} ms is outside Arrow's nanosecond range \
                             (years 1677 to 2262)"
                        ))
                    })?;
                b.append_value(ns)
            }
            (_, Some(v)) => return mismatch(&v),
        }
        Ok(())
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Builder::I8(b) => Arc::new(b.finish()),
            Builder::I16(b) => Arc::new(b.finish()),
            Builder::I32(b) => Arc::new(b.finish()),
            Builder::I64(b) => Arc::new(b.finish()),
            Builder::U8(b) => Arc::new(b.finish()),
            Builder::U16(b) => Arc::new(b.finish()),
            Builder::U32(b) => Arc::new(b.finish()),
            Builder::U64(b) => Arc::new(b.finish()),
            Builder::F32(b) => Arc::new(b.finish()),
            Builder::F64(b) => Arc::new(b.finish()),
            Builder::Bool(b) => Arc::new(b.finish()),
            Builder::Text(b) => Arc::new(b.finish()),
            Builder::Bytes(b) => Arc::new(b.finish()),
            Builder::Millis(b) => Arc::new(b.finish()),
            Builder::Nanos(b) => Arc::new(b.finish()),
        }
    }
}
