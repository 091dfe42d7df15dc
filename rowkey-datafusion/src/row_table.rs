//! [`RowTable`]: SQL over a `CellTable`, rows as a key and a `RowValue`'s columns.

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::Result as DfResult;
use datafusion::datasource::TableType;
use datafusion::logical_expr::{Expr, TableProviderFilterPushDown};
use datafusion::physical_plan::ExecutionPlan;
use rowkey::store::Store;
use rowkey::{KeyRange, Query, QueryKey, RowValue};

use crate::{key_scan, pieces, split_keys, Asked, KeyTable, Options, Part, Shape};

/// The rows of a `CellTable<S, K, V>` as a DataFusion table: one column per key field (as
/// [`KeyTable`] has them), then one per field of the `RowValue` `V`, read from its cell
/// (`family:qualifier`): integers, floats, booleans, text and bytes as their Arrow types, an
/// `Option` field null where its cell is absent, `Json<T>` as its JSON text.
///
/// A `WHERE` clause on the key's fields narrows the rows read to the key ranges of the
/// skip-scan query it becomes (a leading field's values and range fix them; a salted key's
/// buckets are read in parallel, one partition each); the rows in them are read whole and
/// DataFusion filters them again (every pushed filter is *inexact*), as it filters on value
/// columns. Each partition is in key order, declared as [`KeyTable`] declares it.
///
/// A row that lacks a required (non-`Option`) column's cell, or whose cell its column cannot
/// read, fails the query, naming the row's key and the column.
pub struct RowTable<S, K, V> {
    keys: KeyTable<S, K>,
    schema: SchemaRef,
    options: Options,
    value: PhantomData<fn() -> V>,
}

impl<S, K: QueryKey, V: RowValue> fmt::Debug for RowTable<S, K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RowTable")
            .field("key", &K::SCHEMA.name)
            .field("value", &V::SCHEMA.name)
            .field("columns", &self.schema.fields().len())
            .finish_non_exhaustive()
    }
}

impl<S, K, V> RowTable<S, K, V>
where
    S: Store + Send + Sync + 'static,
    K: QueryKey + 'static,
    V: RowValue + 'static,
{
    /// The rows of `K` keys and `V` values in a store shared with the rest of the program (a
    /// `CellTable` over `&*store` writes them); an error when a field has no Arrow column.
    pub fn shared(store: Arc<S>) -> Result<Self, rowkey_arrow::Error> {
        Self::with_options(store, Options::default())
    }

    /// The table, its key columns as `options` say ([`Options::value_column`] does not apply:
    /// the value is its columns; a projection in `options` is ignored).
    pub fn with_options(store: Arc<S>, mut options: Options) -> Result<Self, rowkey_arrow::Error> {
        options.value_column = None;
        options.projection = None;
        let builder =
            rowkey_arrow::RowBatchBuilder::with_options(K::SCHEMA, Self::value(), &options)?;
        Ok(RowTable {
            keys: KeyTable::with_options(store, options.clone())?,
            schema: builder.schema(),
            options,
            value: PhantomData,
        })
    }

    /// Cuts the table at `keys` (regions' or tablets' first keys) into partitions that
    /// DataFusion reads in parallel, as [`KeyTable::split_at`] does.
    pub fn split_at<B: AsRef<[u8]>>(mut self, keys: impl IntoIterator<Item = B>) -> Self {
        self.keys.splits = split_keys(keys);
        self
    }

    /// Rows per record batch (at least 1).
    pub fn batch_rows(mut self, rows: usize) -> Self {
        self.keys = self.keys.batch_rows(rows);
        self
    }

    /// The store.
    pub fn store(&self) -> &Arc<S> {
        self.keys.store()
    }

    fn value() -> &'static rowkey::ValueSchema {
        const { &V::SCHEMA }
    }
}

#[async_trait]
impl<S, K, V> TableProvider for RowTable<S, K, V>
where
    S: Store + Send + Sync + 'static,
    K: QueryKey + 'static,
    V: RowValue + 'static,
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
        // What the key's query takes narrows the ranges read; DataFusion checks every row.
        Ok(self
            .keys
            .supports_filters_pushdown(filters)?
            .into_iter()
            .map(|taken| match taken {
                TableProviderFilterPushDown::Unsupported => taken,
                _ => TableProviderFilterPushDown::Inexact,
            })
            .collect())
    }

    async fn scan(
        &self,
        _state: &dyn Session,
        projection: Option<&Vec<usize>>,
        filters: &[Expr],
        limit: Option<usize>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        let (query, _) = self.keys.plan(filters);
        let walks = query.walks();
        let parts: Vec<Part> = pieces(&walks, &self.keys.splits)
            .into_iter()
            .map(|(walk, within)| {
                let ranges = walk
                    .key_ranges(Query::MAX_RANGES)
                    .into_iter()
                    .map(|(start, end)| KeyRange::new(&start, end.as_deref()))
                    .filter_map(|r| match &within {
                        Some(w) => r.intersection(w),
                        None => Some(r),
                    })
                    .collect();
                Part::Cells(ranges)
            })
            .collect();
        // Every column is built; the projection picks from the batch.
        let all: Vec<usize> = (0..self.schema.fields().len()).collect();
        let asked = projection.cloned().unwrap_or_else(|| all.clone());
        let schema = Arc::new(self.schema.project(&asked)?);
        let shape = Shape {
            options: self.options.clone(),
            reorder: (asked != all).then_some(asked),
            schema,
            // Filters are inexact: DataFusion passes a limit only where there are none.
            limit,
            batch_rows: self.keys.batch_rows,
        };
        let asked = Asked::Query(query.into_query(), walks.len());
        Ok(Arc::new(key_scan(
            self.keys.store().clone(),
            K::SCHEMA,
            Some(Self::value()),
            asked,
            parts,
            shape,
        )))
    }
}
