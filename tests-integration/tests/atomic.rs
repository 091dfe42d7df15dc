//! Counters and conditional writes on the embedded stores: the conformance suite's atomic
//! behaviours on memory and fjall (threads racing on one cell), and fjall's atomicity across
//! two handles of one keyspace. The network stores run the same suite in their own tests.

mod store_suite;

use rowkey::store::{AtomicStore, MemStore};

#[test]
fn counters_and_conditional_writes_in_memory() {
    store_suite::atomic::exercise_atomic(MemStore::new(), 8, 300);
}

#[cfg(feature = "fjall")]
#[test]
fn counters_and_conditional_writes_on_fjall() {
    let dir = tempfile::tempdir().unwrap();
    let store = rowkey::store::FjallStore::open(dir.path(), "atomic").unwrap();
    store_suite::atomic::exercise_atomic(store, 8, 300);
}

/// Two handles of one keyspace are two stores to their users: their increments of one cell
/// still exclude each other.
#[cfg(feature = "fjall")]
#[test]
fn fjall_handles_of_one_keyspace_exclude_each_other() {
    use rowkey::store::FjallStore;
    let dir = tempfile::tempdir().unwrap();
    let db = fjall::Database::builder(dir.path()).open().unwrap();
    let a = FjallStore::with_database(db.clone(), "t").unwrap();
    let b = FjallStore::with_database(db, "t").unwrap();
    std::thread::scope(|scope| {
        for store in [&a, &b, &a, &b] {
            scope.spawn(move || {
                for _ in 0..2_000 {
                    store.increment(b"row", "d", b"n", 1).unwrap();
                }
            });
        }
    });
    assert_eq!(a.counter(b"row", "d", b"n").unwrap(), Some(8_000));
    assert_eq!(b.counter(b"row", "d", b"n").unwrap(), Some(8_000));
}

/// An increment past `i64::MAX` is refused with nothing written, on the embedded stores
/// (HBase and Bigtable wrap around as their servers do).
#[test]
fn an_overflowing_increment_is_refused() {
    let store = MemStore::new();
    store.increment(b"r", "d", b"n", i64::MAX - 1).unwrap();
    let err = store.increment(b"r", "d", b"n", 2).unwrap_err();
    assert!(err.to_string().contains("leaves the i64 range"), "{err}");
    assert_eq!(store.counter(b"r", "d", b"n").unwrap(), Some(i64::MAX - 1));
}

#[test]
fn a_lookup_table_in_memory() {
    let store = MemStore::new();
    store_suite::uid::exercise_uids(|| &store, 8, 500);
}

#[cfg(feature = "fjall")]
#[test]
fn a_lookup_table_on_fjall() {
    let dir = tempfile::tempdir().unwrap();
    let db = fjall::Database::builder(dir.path()).open().unwrap();
    // A handle per assigner, as the threads of one service would have.
    store_suite::uid::exercise_uids(
        || rowkey::store::FjallStore::with_database(db.clone(), "uids").unwrap(),
        8,
        500,
    );
}

/// A memory store whose lookup-table writes fail on demand: a claim that is applied but whose
/// answer is lost, and a reverse-row write that fails. The faults a cut connection causes, at
/// the exact moments that matter.
#[derive(Default)]
struct Faulty {
    inner: MemStore,
    /// The next claim (put-if-absent) is applied, then reported as failed.
    lose_claim_answer: std::sync::atomic::AtomicBool,
    /// The next reverse-row write fails, nothing written.
    fail_reverse: std::sync::atomic::AtomicBool,
}

type Failed = std::io::Error;

fn lost() -> Failed {
    std::io::Error::other("connection cut")
}

fn ok<T>(r: Result<T, std::convert::Infallible>) -> T {
    match r {
        Ok(v) => v,
        Err(never) => match never {},
    }
}

impl rowkey::store::Store for Faulty {
    type Error = Failed;
    type Scan<'a> = Box<dyn Iterator<Item = Result<rowkey::store::Row, Failed>> + 'a>;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Failed> {
        ok(self.inner.put(key, value));
        Ok(())
    }
    fn get(&self, key: &[u8]) -> Result<Option<rowkey::bytes::Bytes>, Failed> {
        Ok(ok(self.inner.get(key)))
    }
    fn delete(&self, key: &[u8]) -> Result<(), Failed> {
        ok(self.inner.delete(key));
        Ok(())
    }
    fn write_batch(
        &self,
        rows: &[rowkey::store::Row],
    ) -> Result<(), rowkey::store::BatchError<Failed>> {
        self.inner.write_batch(rows).map_err(|e| match e.source {})
    }
    fn scan(&self, range: &rowkey::KeyRange) -> Self::Scan<'_> {
        Box::new(self.inner.scan(range).map(|r| Ok(ok(r))))
    }
    fn scan_rev(&self, range: &rowkey::KeyRange) -> Option<Self::Scan<'_>> {
        Some(Box::new(self.inner.scan_rev(range)?.map(|r| Ok(ok(r)))))
    }
    fn write_rows(
        &self,
        rows: &[rowkey::store::RowWrite],
    ) -> Result<(), rowkey::store::BatchError<Failed>> {
        let reverse = rows.iter().any(|r| {
            r.set
                .iter()
                .any(|c| c.family == rowkey::store::UID_NAME_FAMILY)
        });
        if reverse
            && self
                .fail_reverse
                .swap(false, std::sync::atomic::Ordering::SeqCst)
        {
            return Err(rowkey::store::BatchError {
                failed: rows.iter().map(|r| r.key.clone()).collect(),
                source: lost(),
            });
        }
        self.inner.write_rows(rows).map_err(|e| match e.source {})
    }
}

impl AtomicStore for Faulty {
    fn increment(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        delta: i64,
    ) -> Result<i64, rowkey::store::AtomicError<Failed>> {
        Ok(ok(self
            .inner
            .increment(key, family, qualifier, delta)
            .map_err(|e| match e {
                rowkey::store::AtomicError::Store(never) => match never {},
                _ => unreachable!("the suite's counters are counters"),
            })))
    }
    fn check_and_set(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        expected: Option<&[u8]>,
        new: Option<&[u8]>,
    ) -> Result<bool, rowkey::store::AtomicError<Failed>> {
        let done = self
            .inner
            .check_and_set(key, family, qualifier, expected, new)
            .map_err(|e| match e {
                rowkey::store::AtomicError::Store(never) => match never {},
                _ => unreachable!("conditions do not count"),
            })?;
        if self
            .lose_claim_answer
            .swap(false, std::sync::atomic::Ordering::SeqCst)
        {
            return Err(rowkey::store::AtomicError::Store(lost()));
        }
        Ok(done)
    }
}

#[test]
fn a_lookup_table_settles_a_lost_claim_answer_and_repairs_a_lost_reverse_row() {
    use rowkey::store::UidTable;
    use std::sync::atomic::Ordering;
    let store = Faulty::default();
    let uids = UidTable::new(&store, "host", 2).unwrap();

    // The claim went through, its answer did not: the forward row says it is ours.
    store.lose_claim_answer.store(true, Ordering::SeqCst);
    assert_eq!(uids.get_or_assign("a").unwrap(), 1);
    assert_eq!(uids.name(1).unwrap().as_deref(), Some("a"));

    // The reverse row is lost after the claim: the call fails, the name keeps its id.
    store.fail_reverse.store(true, Ordering::SeqCst);
    assert!(uids.get_or_assign("b").is_err());
    let report = uids.verify(false).unwrap();
    assert_eq!(report.missing_reverse, [("b".to_string(), 2)]);
    assert!(report.conflicts.is_empty());
    // Any later lookup of the name, by any client, writes it again.
    let other = UidTable::new(&store, "host", 2).unwrap();
    assert_eq!(
        other.get_or_assign("b").unwrap(),
        2,
        "the same id, not a new one"
    );
    assert_eq!(other.name(2).unwrap().as_deref(), Some("b"));
    let report = other.verify(false).unwrap();
    assert!(report.missing_reverse.is_empty(), "{report:?}");
    assert_eq!((report.names, report.ids, report.counter), (2, 2, 2));

    // verify(true) repairs what no lookup has touched yet.
    store.fail_reverse.store(true, Ordering::SeqCst);
    assert!(uids.get_or_assign("c").is_err());
    assert_eq!(
        uids.verify(true).unwrap().missing_reverse,
        [("c".to_string(), 3)]
    );
    assert!(uids.verify(false).unwrap().missing_reverse.is_empty());
}

#[cfg(feature = "async")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lookup_table_through_the_async_memory_store() {
    let store = std::sync::Arc::new(MemStore::new());
    store_suite::uid::exercise_uids_async(|| store.clone(), 8, 500).await;
}

#[cfg(feature = "async")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counters_and_conditional_writes_through_the_async_memory_store() {
    store_suite::atomic::exercise_atomic_async(MemStore::new(), 8, 200).await;
}
