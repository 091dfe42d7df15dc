//! Atomic operations on one cell: counters and conditional writes, the two things the HBase
//! guide's lookup tables and OpenTSDB's UIDs are built from. [`AtomicStore`] (blocking) and
//! [`AsyncAtomicStore`] (feature `async`), their error [`AtomicError`], and a counter's encoding.
//!
//! **Where they run.** HBase applies them on the region server under the row's lock (Thrift2
//! `increment`, `checkAndPut`, `checkAndDelete`); Bigtable on the tablet server
//! (`ReadModifyWriteRow`, `CheckAndMutateRow`); [`MemStore`](super::MemStore) under its map's
//! write lock; [`FjallStore`](super::FjallStore) under a lock per cell (striped, shared by every
//! handle in the process), so atomic operations on one cell exclude each other. On fjall a
//! plain write ([`Store::put`], [`Store::write_rows`]) does not take that lock: write a counter
//! or a conditionally written cell only through these operations.
//!
//! **Conditions** compare the cell's newest value byte for byte; a cell holding the empty
//! value counts as absent (HBase's rule, kept on every store).
//!
//! **A counter** is a cell of 8 bytes, the value big-endian two's complement: Java's
//! `Bytes.toBytes(long)`, what HBase's `Increment`, the shell's `incr` and `get_counter` and
//! Bigtable's `ReadModifyWriteRow` read and write, so a counter rowkey increments is the same
//! counter there. A missing cell counts from 0.
//!
//! **Failures.** An increment is not idempotent and a conditional write's answer depends on
//! what is there: neither is retried by the network stores once sent. A transport failure
//! leaves it unknown whether the operation happened; read the cell to find out
//! ([`UidTable`](crate::store::UidTable) does). Overflow: the embedded stores refuse an increment
//! that would leave the `i64` range ([`AtomicError::Overflow`], nothing written); HBase and
//! Bigtable wrap around as their servers do.

use std::fmt;

use super::traits::Store;
use crate::cell::{Column, Columns};

/// How many bytes a counter cell holds.
pub const COUNTER_WIDTH: usize = 8;

/// A counter's cell value: `value` big-endian, as Java's `Bytes.toBytes(long)`.
pub fn counter_bytes(value: i64) -> [u8; COUNTER_WIDTH] {
    value.to_be_bytes()
}

/// A counter cell's value; `None` when the cell is not 8 bytes.
pub fn counter_value(cell: &[u8]) -> Option<i64> {
    <[u8; COUNTER_WIDTH]>::try_from(cell)
        .ok()
        .map(i64::from_be_bytes)
}

/// A failed atomic operation.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AtomicError<E> {
    /// The store failed (for a network store, the operation may or may not have happened when
    /// the failure is in the transport: read the cell).
    Store(E),
    /// An increment of a cell that does not hold a counter (8 bytes); nothing was written.
    NotACounter {
        /// How many bytes the cell holds, where the store says.
        found: Option<usize>,
    },
    /// An increment that would leave the `i64` range; nothing was written (embedded stores).
    Overflow {
        /// The counter's value.
        value: i64,
        /// The increment asked for.
        delta: i64,
    },
}

impl<E: fmt::Display> fmt::Display for AtomicError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AtomicError::Store(e) => write!(f, "store error: {e}"),
            AtomicError::NotACounter { found: Some(n) } => write!(
                f,
                "the cell holds {n} byte(s), not a counter ({COUNTER_WIDTH} bytes, big-endian): nothing was written"
            ),
            AtomicError::NotACounter { found: None } => write!(
                f,
                "the cell does not hold a counter ({COUNTER_WIDTH} bytes, big-endian): nothing was written"
            ),
            AtomicError::Overflow { value, delta } => write!(
                f,
                "incrementing the counter {value} by {delta} leaves the i64 range: nothing was written"
            ),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for AtomicError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AtomicError::Store(e) => Some(e),
            _ => None,
        }
    }
}

/// The counter after adding `delta` to a cell holding `current` (`None`: absent, counts from
/// 0), for stores that compute it themselves.
pub(crate) fn next_counter<E>(current: Option<&[u8]>, delta: i64) -> Result<i64, AtomicError<E>> {
    let value = match current {
        None => 0,
        Some(bytes) => counter_value(bytes).ok_or(AtomicError::NotACounter {
            found: Some(bytes.len()),
        })?,
    };
    value
        .checked_add(delta)
        .ok_or(AtomicError::Overflow { value, delta })
}

/// The condition as every store checks it: an empty value is no value (HBase's rule).
pub(crate) fn condition(expected: Option<&[u8]>) -> Option<&[u8]> {
    expected.filter(|v| !v.is_empty())
}

/// Whether a cell holding `current` passes a conditional write's check for `expected`
/// (`None`: the cell must be absent or empty).
pub(crate) fn holds(current: Option<&[u8]>, expected: Option<&[u8]>) -> bool {
    condition(current) == condition(expected)
}

/// A store with atomic operations on one cell (see the module documentation for where each
/// store runs them and what a failure means).
pub trait AtomicStore: Store {
    /// Adds `delta` to the counter in cell `family:qualifier` of row `key` (a missing cell
    /// counts from 0) and returns the new value.
    fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, AtomicError<Self::Error>>;

    /// Writes `new` to cell `family:qualifier` of row `key` (`None`: deletes it) if, and only
    /// if, the cell holds `expected` (`None`: the cell is absent); returns whether it wrote.
    /// `(None, Some(v))` is put-if-absent, `(Some(old), Some(v))` compare-and-set,
    /// `(Some(old), None)` compare-and-delete.
    ///
    /// A cell holding the empty value counts as absent, and an empty `expected` as `None`:
    /// HBase's region server cannot tell the two apart in a condition, so no store does.
    fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, AtomicError<Self::Error>>;

    /// Writes `value` to the cell if it is absent; returns whether it wrote.
    fn put_if_absent(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        value: &[u8],
    ) -> Result<bool, AtomicError<Self::Error>> {
        self.check_and_set(key, family, qualifier, None, Some(value))
    }

    /// The counter in the cell (`None`: absent), read without changing it.
    fn counter(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
    ) -> Result<Option<i64>, AtomicError<Self::Error>> {
        let column = Column::new(family.to_string(), qualifier);
        let row = self
            .read_row(key, &Columns::exact([column]))
            .map_err(|e| match e {
                super::CellError::Store(e) => AtomicError::Store(e),
                super::CellError::Malformed(_) => AtomicError::NotACounter { found: None },
            })?;
        match row.as_ref().and_then(|r| r.value(family, qualifier)) {
            None => Ok(None),
            Some(bytes) => counter_value(bytes)
                .map(Some)
                .ok_or(AtomicError::NotACounter {
                    found: Some(bytes.len()),
                }),
        }
    }
}

impl<S: AtomicStore + ?Sized> AtomicStore for &S {
    fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, AtomicError<S::Error>> {
        (**self).increment(key, family, qualifier, delta)
    }

    fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, AtomicError<S::Error>> {
        (**self).check_and_set(key, family, qualifier, expected, new)
    }
}

/// [`AtomicStore`] for async stores: the same operations, with the same meaning.
#[cfg(feature = "async")]
pub trait AsyncAtomicStore: super::AsyncStore {
    /// [`AtomicStore::increment`].
    fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> impl std::future::Future<Output = Result<i64, AtomicError<Self::Error>>> + Send;

    /// [`AtomicStore::check_and_set`].
    fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> impl std::future::Future<Output = Result<bool, AtomicError<Self::Error>>> + Send;
}

#[cfg(feature = "async")]
impl<S: AsyncAtomicStore> AsyncAtomicStore for std::sync::Arc<S> {
    fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> impl std::future::Future<Output = Result<i64, AtomicError<S::Error>>> + Send {
        (**self).increment(key, family, qualifier, delta)
    }

    fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> impl std::future::Future<Output = Result<bool, AtomicError<S::Error>>> + Send {
        (**self).check_and_set(key, family, qualifier, expected, new)
    }
}

/// The blocking face runs the async store's own operation on its runtime.
#[cfg(feature = "async")]
impl<S> AtomicStore for super::Blocking<S>
where
    S: AsyncAtomicStore,
    S::Error: From<std::io::Error>,
{
    fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, AtomicError<S::Error>> {
        let (key, family, qualifier) = (key.to_vec(), family.to_string(), qualifier.to_vec());
        self.call(move |s| async move { Ok(s.increment(&key, &family, &qualifier, delta).await) })
            .map_err(AtomicError::Store)?
    }

    fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, AtomicError<S::Error>> {
        let (key, family, qualifier) = (key.to_vec(), family.to_string(), qualifier.to_vec());
        let (expected, new) = (expected.map(<[u8]>::to_vec), new.map(<[u8]>::to_vec));
        self.call(move |s| async move {
            Ok(s.check_and_set(
                &key,
                &family,
                &qualifier,
                expected.as_deref(),
                new.as_deref(),
            )
            .await)
        })
        .map_err(AtomicError::Store)?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_java_longs() {
        // Bytes.toBytes(1L), Bytes.toBytes(-1L), Bytes.toBytes(Long.MIN_VALUE).
        assert_eq!(counter_bytes(1), [0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(counter_bytes(-1), [0xff; 8]);
        assert_eq!(counter_bytes(i64::MIN), [0x80, 0, 0, 0, 0, 0, 0, 0]);
        for v in [0, 1, -1, 42, i64::MIN, i64::MAX] {
            assert_eq!(counter_value(&counter_bytes(v)), Some(v));
        }
        assert_eq!(counter_value(b"1234567"), None);
        assert_eq!(counter_value(b"123456789"), None);
    }

    #[test]
    fn next_counter_counts_from_zero_and_refuses_what_it_cannot_hold() {
        assert_eq!(next_counter::<()>(None, 5), Ok(5));
        assert_eq!(next_counter::<()>(Some(&counter_bytes(-3)), 5), Ok(2));
        assert_eq!(
            next_counter::<()>(Some(b"abc"), 1),
            Err(AtomicError::NotACounter { found: Some(3) })
        );
        assert_eq!(
            next_counter::<()>(Some(&counter_bytes(i64::MAX)), 1),
            Err(AtomicError::Overflow {
                value: i64::MAX,
                delta: 1
            })
        );
        let text = AtomicError::<std::io::Error>::NotACounter { found: Some(3) }.to_string();
        assert!(
            text.contains("3 byte(s)") && text.contains("nothing was written"),
            "{text}"
        );
    }
}
