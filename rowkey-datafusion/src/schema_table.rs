//! [`SchemaTable`]: a table whose key layout is known as data only (`K::SCHEMA` exported as
//! JSON and read back, as the `rowkey sql` command does), without the Rust type.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use async_trait::async_trait;
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::Result as DfResult;
use datafusion::datasource::TableType;
use datafusion::logical_expr::Expr;
use datafusion::physical_plan::ExecutionPlan;
use rowkey::store::Store;
use rowkey::KeyRange;

use crate::{key_scan, shape, split_keys, Asked, Options, Part};

/// The keys of one layout in a store, as a DataFusion table, when the layout is known as data
/// only: a [`rowkey::Schema`] read back from its JSON export (the program that wrote the table
/// exports `K::SCHEMA`; an operator's tool reads it), not the key's Rust type.
///
/// The columns are [`KeyTable`](crate::KeyTable)'s for the same layout and options, and each
/// row is decoded by the same schema-driven decoder. Without the Rust type there is no query
/// to push a `WHERE` clause into: every row of the table is read (one partition per salt
/// bucket, and per piece between [`SchemaTable::split_at`]'s keys), and DataFusion filters.
/// Each partition is in key order, declared as [`KeyTable`](crate::KeyTable) declares it. A
/// key the layout does not read (a row some other program wrote) fails the query, naming the
/// key and the field.
pub struct SchemaTable<S> {
    store: Arc<S>,
    key: &'static rowkey::Schema,
    schema: SchemaRef,
    options: Options,
    batch_rows: usize,
    splits: Arc<[Vec<u8>]>,
}

impl<S> fmt::Debug for SchemaTable<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SchemaTable")
            .field("key", &self.key.name)
            .field("columns", &self.schema.fields().len())
            .field("batch_rows", &self.batch_rows)
            .field("splits", &self.splits.len())
            .finish_non_exhaustive()
    }
}

impl<S: Store + Send + Sync + 'static> SchemaTable<S> {
    /// The keys of layout `key` in `store`, their columns as `options` say (a projection in
    /// `options` is ignored: each query projects its own); an error when a field of the
    /// layout has no Arrow column.
    pub fn new(
        store: Arc<S>,
        key: &'static rowkey::Schema,
        mut options: Options,
    ) -> Result<Self, rowkey_arrow::Error> {
        options.projection = None;
        let schema = Arc::new(rowkey_arrow::arrow_schema(key, &options)?);
        Ok(SchemaTable {
            store,
            key,
            schema,
            options,
            batch_rows: crate::BATCH_ROWS,
            splits: Arc::from(Vec::new()),
        })
    }

    /// Cuts the table at `keys` (regions' or tablets' first keys) into partitions that
    /// DataFusion reads in parallel, as [`KeyTable::split_at`](crate::KeyTable::split_at)
    /// does.
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

    /// The key layout.
    pub fn key(&self) -> &'static rowkey::Schema {
        self.key
    }

    /// The ranges each partition reads: one per salt bucket (the whole table for a key that
    /// is not salted), each cut at the split keys inside it.
    fn parts(&self) -> Vec<Part> {
        let whole = match self.key.salt {
            Some(salt) => (0..salt.buckets)
                .map(|b| {
                    let start = [b as u8];
                    let end = u8::try_from(b + 1).ok().map(|e| [e]);
                    KeyRange::new(&start, end.as_ref().map(|e| &e[..]))
                })
                .collect(),
            None => vec![KeyRange::new(b"", None)],
        };
        let mut parts = Vec::new();
        for range in whole {
            let mut from = range.start().to_vec();
            for k in self.splits.iter().filter(|k| {
                k.as_slice() > range.start() && range.end().is_none_or(|e| k.as_slice() < e)
            }) {
                parts.push(Part::Ranges(vec![KeyRange::new(&from, Some(k))]));
                from = k.clone();
            }
            parts.push(Part::Ranges(vec![KeyRange::new(&from, range.end())]));
        }
        parts
    }
}

#[async_trait]
impl<S: Store + Send + Sync + 'static> TableProvider for SchemaTable<S> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    async fn scan(
        &self,
        _state: &dyn Session,
        projection: Option<&Vec<usize>>,
        _filters: &[Expr],
        limit: Option<usize>,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        let shape = shape(
            &self.schema,
            &self.options,
            projection,
            limit,
            self.batch_rows,
        )?;
        Ok(Arc::new(key_scan(
            self.store.clone(),
            self.key,
            None,
            Asked::Everything,
            self.parts(),
            shape,
        )))
    }
}
