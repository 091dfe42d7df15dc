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
