//! Typed tables over the stores, each blocking table beside its async twin: [`Table`] and
//! [`AsyncTable`] (a [`RowKey`](crate::RowKey) to raw values), [`CellTable`] and
//! [`AsyncCellTable`] (typed rows of cells), [`WideTable`] and [`AsyncWideTable`] (rows as
//! columns), the salted merge they share (`merge`), [`IndexedTable`] and [`rekey`].

mod cells;
mod indexed;
mod merge;
mod raw;
mod rekey;
mod wide;

#[cfg(feature = "async")]
mod cells_async;
#[cfg(feature = "async")]
mod raw_async;
#[cfg(feature = "async")]
mod wide_async;

pub use cells::{CellMerged, CellTable};
pub use indexed::{IndexReport, IndexedTable};
pub use raw::{Merged, Table, TableError};
pub use rekey::{rekey, RekeyError, RekeyFailure, RekeyOptions, RekeyReport, Unconverted};
pub use wide::{WideMerged, WideTable};

#[cfg(feature = "async")]
pub use cells_async::{AsyncCellTable, CellMergedStream};
#[cfg(feature = "async")]
pub use raw_async::{AsyncTable, MergedStream};
#[cfg(feature = "async")]
pub use wide_async::{AsyncWideTable, WideMergedStream};
