//! [`PhoenixRows`]: rows of a Phoenix table ([`PhoenixRow`]) on any store, written and read
//! in Phoenix's encodings (key, cells under the column names, the empty marker cell), so
//! Phoenix's SQL and rowkey read and write the same table.

use std::fmt;
use std::marker::PhantomData;

use super::merge::MergeIter;
use crate::cell::{Cell, CellRow, Column, Columns, RowWrite};
use crate::phoenix::{
    decode_value, encode_value, Datum, PhoenixError, PhoenixRow, PhoenixTable, EMPTY_COLUMN,
    EMPTY_VALUE,
};
use crate::store::{BatchError, CellError, CellScan, Store};

/// Rows of `T` (a `#[derive(PhoenixRow)]` struct) in store `S`, in the table `T::table()`
/// declares. On HBase, create the table through Phoenix (`T::table().create_table()`), or
/// map one rowkey made with `create_view()`; the store's families must be the table's
/// (`PhoenixTable::families`).
pub struct PhoenixRows<S, T> {
    store: S,
    table: PhoenixTable,
    _row: PhantomData<fn() -> T>,
}

/// A failed [`PhoenixRows`] operation.
#[derive(Debug)]
pub enum PhoenixRowsError<E> {
    /// A row that Phoenix's encodings cannot hold (nothing was written), or a stored row that
    /// is not one of the table's.
    Phoenix {
        /// The row's place in a batch, for a write.
        index: Option<usize>,
        /// The stored key, for a read.
        key: Option<Vec<u8>>,
        /// Why.
        error: PhoenixError,
    },
    /// A write failed; the keys not written.
    Batch(BatchError<E>),
    /// A read failed.
    Read(CellError<E>),
}

impl<E: fmt::Display> fmt::Display for PhoenixRowsError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PhoenixRowsError::Phoenix {
                index: Some(i),
                error,
                ..
            } => write!(f, "row {i} of the batch: {error}"),
            PhoenixRowsError::Phoenix {
                key: Some(k),
                error,
                ..
            } => write!(f, "stored row {}: {error}", crate::fmt::binary(k)),
            PhoenixRowsError::Phoenix { error, .. } => write!(f, "{error}"),
            PhoenixRowsError::Batch(e) => write!(f, "{e}"),
            PhoenixRowsError::Read(e) => write!(f, "{e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for PhoenixRowsError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PhoenixRowsError::Phoenix { error, .. } => Some(error),
            PhoenixRowsError::Batch(e) => Some(e),
            PhoenixRowsError::Read(e) => Some(e),
        }
    }
}

impl<S: Store, T: PhoenixRow> PhoenixRows<S, T> {
    /// The rows of `T`'s table in `store`.
    pub fn new(store: S) -> Self {
        PhoenixRows {
            store,
            table: T::table(),
            _row: PhantomData,
        }
    }

    /// The rows of `T` in the table named `name` instead of the one `T` declares: the same
    /// columns and key, created under another name ([`PhoenixTable::renamed`]).
    pub fn named(store: S, name: &str) -> Result<Self, PhoenixError> {
        Ok(PhoenixRows {
            store,
            table: T::table().renamed(name.to_string())?,
            _row: PhantomData,
        })
    }

    /// The table.
    pub fn table(&self) -> &PhoenixTable {
        &self.table
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The write of one row, as Phoenix's `UPSERT` makes it: the empty marker cell, a cell per
    /// non-null column, and a null column's cell cleared.
    fn write(&self, row: &T) -> Result<RowWrite, PhoenixError> {
        let key = self.table.key().encode(&row.key())?;
        let mut write = RowWrite::new(
            key,
            vec![Cell::new(
                self.table.default_family().to_string(),
                EMPTY_COLUMN.as_bytes(),
                EMPTY_VALUE,
            )],
        );
        for (c, v) in self.table.columns().iter().zip(row.values()) {
            match v {
                Some(v) => {
                    let mut bytes = Vec::new();
                    encode_value(c.ty, &v, &mut bytes).map_err(|e| e.at(&c.name))?;
                    write
                        .set
                        .push(Cell::new(c.family.clone(), c.name.as_bytes(), bytes));
                }
                None => write
                    .clear
                    .push(Column::new(c.family.clone(), c.name.as_bytes())),
            }
        }
        Ok(write)
    }

    /// Writes rows (every row encoded first: one Phoenix cannot hold fails the batch before
    /// anything is written).
    pub fn put_batch<'r>(
        &self,
        rows: impl IntoIterator<Item = &'r T>,
    ) -> Result<(), PhoenixRowsError<S::Error>>
    where
        T: 'r,
    {
        let writes = rows
            .into_iter()
            .enumerate()
            .map(|(i, row)| {
                self.write(row).map_err(|error| PhoenixRowsError::Phoenix {
                    index: Some(i),
                    key: None,
                    error,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.store
            .write_rows(&writes)
            .map_err(PhoenixRowsError::Batch)
    }

    /// Writes one row.
    pub fn put(&self, row: &T) -> Result<(), PhoenixRowsError<S::Error>> {
        self.put_batch([row])
    }

    /// The row with key values `key` (one per key column, `None` for a null), if stored: a
    /// single-row read (the salt bucket follows from the key).
    pub fn get(&self, key: &[Option<Datum<'_>>]) -> Result<Option<T>, PhoenixRowsError<S::Error>> {
        let bytes = self.encode_key(key)?;
        let row = self
            .store
            .read_row(&bytes, &self.columns())
            .map_err(PhoenixRowsError::Read)?;
        row.map(|row| decode(&self.table, row)).transpose()
    }

    /// Deletes the row with key values `key` (every cell of it, as Phoenix's `DELETE`).
    pub fn delete(&self, key: &[Option<Datum<'_>>]) -> Result<(), PhoenixRowsError<S::Error>> {
        let bytes = self.encode_key(key)?;
        self.store
            .delete_row(&bytes)
            .map_err(PhoenixRowsError::Read)
    }

    fn encode_key(&self, key: &[Option<Datum<'_>>]) -> Result<Vec<u8>, PhoenixRowsError<S::Error>> {
        self.table
            .key()
            .encode(key)
            .map_err(|error| PhoenixRowsError::Phoenix {
                index: None,
                key: None,
                error,
            })
    }

    /// Every family of the table: what a read selects.
    fn columns(&self) -> Columns {
        Columns::families(
            self.table
                .families()
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>(),
        )
    }

    /// The rows whose leading key columns hold `prefix` (every row for an empty prefix), in
    /// Phoenix's key order (`ORDER BY` the key columns with their sort orders): a salted
    /// table's buckets are read together and merged.
    pub fn scan(
        &self,
        prefix: &[Datum<'_>],
    ) -> Result<PhoenixScan<'_, S::Error, T>, PhoenixRowsError<S::Error>> {
        self.scan_in(prefix, false)
    }

    /// [`PhoenixRows::scan`] in reverse: the rows whose leading key columns hold `prefix`, in
    /// the reverse of Phoenix's key order (`ORDER BY` each key column in the opposite of its
    /// sort order: the newest first for an ascending time column), the buckets of a salted
    /// table merged.
    pub fn scan_rev(
        &self,
        prefix: &[Datum<'_>],
    ) -> Result<PhoenixScan<'_, S::Error, T>, PhoenixRowsError<S::Error>> {
        self.scan_in(prefix, true)
    }

    /// The scan of `prefix`'s ranges (one per bucket of a salted table), merged in key order
    /// or its reverse.
    fn scan_in(
        &self,
        prefix: &[Datum<'_>],
        reverse: bool,
    ) -> Result<PhoenixScan<'_, S::Error, T>, PhoenixRowsError<S::Error>> {
        let refused = |error| PhoenixRowsError::Phoenix {
            index: None,
            key: None,
            error,
        };
        let ranges = self.table.key().prefix_ranges(prefix).map_err(refused)?;
        let columns = self.columns();
        let scans = ranges
            .iter()
            .map(|r| {
                if reverse {
                    self.store.scan_rows_rev(r, &columns)
                } else {
                    Some(self.store.scan_rows(r, &columns))
                }
            })
            .collect::<Option<Vec<CellScan<'_, S::Error>>>>()
            .ok_or_else(|| refused(PhoenixError::new("this store cannot scan in reverse")))?;
        let skip = usize::from(self.table.key().salt_buckets().is_some());
        Ok(PhoenixScan {
            table: &self.table,
            rows: MergeIter::new(scans, skip, reverse),
            _row: PhantomData,
        })
    }

    /// A stored row of the table read as a `T` (its key decoded and checked as Phoenix would
    /// write it, each column's cell decoded, a missing cell a null): for rows read from the
    /// store directly (`Store::read_row`, `scan_rows`, a row Phoenix `UPSERT`s).
    pub fn decode(&self, row: CellRow) -> Result<T, PhoenixRowsError<S::Error>> {
        decode(&self.table, row)
    }
}

/// The rows of a [`PhoenixRows::scan`], decoded, in key order.
pub struct PhoenixScan<'a, E, T> {
    table: &'a PhoenixTable,
    rows: MergeIter<CellScan<'a, E>, CellRow>,
    _row: PhantomData<fn() -> T>,
}

/// A stored row as a `T`: its key decoded, each column's cell (absent: null) decoded.
fn decode<T: PhoenixRow, E>(table: &PhoenixTable, row: CellRow) -> Result<T, PhoenixRowsError<E>> {
    let parts = || -> Result<T, PhoenixError> {
        let key = table.key().decode(&row.key)?;
        let values = table
            .columns()
            .iter()
            .map(|c| {
                row.value(&c.family, c.name.as_bytes())
                    .map(|bytes| decode_value(c.ty, bytes).map_err(|e| e.at(&c.name)))
                    .transpose()
            })
            .collect::<Result<Vec<Option<Datum<'static>>>, _>>()?;
        T::from_parts(key, values)
    };
    parts().map_err(|error| PhoenixRowsError::Phoenix {
        index: None,
        key: Some(row.key.clone()),
        error,
    })
}

impl<E, T: PhoenixRow> Iterator for PhoenixScan<'_, E, T> {
    type Item = Result<T, PhoenixRowsError<E>>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(match self.rows.next()? {
            Ok(row) => decode(self.table, row),
            Err(e) => Err(PhoenixRowsError::Read(e)),
        })
    }
}
