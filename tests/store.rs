//! Stores: typed keys written, read and scanned on the embedded fjall store (on disk) and the
//! in-memory store; a salted table's merged scan returns exactly the keys a brute-force filter
//! selects, in logical key order.

mod store_suite;

#[cfg(feature = "fjall")]
use rowkey::store::FjallStore;
use rowkey::store::{MemStore, Store, Table};
use rowkey::RowKey;
use store_suite::{exercise, Reading};

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct Plain {
    #[timestamp]
    ts: u64,
    host: String,
}

#[test]
fn memory_store() {
    exercise(MemStore::new());
}

#[cfg(feature = "fjall")]
#[test]
fn fjall_store_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    exercise(FjallStore::open(dir.path(), "readings").unwrap());
}

#[cfg(feature = "fjall")]
#[test]
fn fjall_persists_across_reopen() {
    let dir = tempfile::tempdir().unwrap();
    {
        let table = Table::<_, Plain>::new(FjallStore::open(dir.path(), "t").unwrap());
        table
            .put(
                &Plain {
                    ts: 1,
                    host: "h".into(),
                },
                b"x",
            )
            .unwrap();
        table
            .store()
            .database()
            .persist(fjall::PersistMode::SyncAll)
            .unwrap();
    }
    let table = Table::<_, Plain>::new(FjallStore::open(dir.path(), "t").unwrap());
    assert_eq!(
        table
            .get(&Plain {
                ts: 1,
                host: "h".into()
            })
            .unwrap()
            .as_deref(),
        Some(&b"x"[..])
    );
}

#[test]
fn a_key_that_cannot_be_encoded_fails_the_batch_before_writing() {
    #[derive(RowKey, Debug)]
    struct Code {
        #[fixed(2)]
        code: String,
    }
    let table = Table::<_, Code>::new(MemStore::new());
    let keys = [
        Code { code: "ab".into() },
        Code {
            code: "too long".into(),
        },
    ];
    let err = table.put_batch(keys.iter().map(|k| (k, b"v"))).unwrap_err();
    assert!(
        matches!(
            err,
            rowkey::store::TableError::Encode { index: Some(1), .. }
        ),
        "{err}"
    );
    assert!(err
        .to_string()
        .starts_with("key 1 of the batch cannot be encoded: field `code`"));
    assert!(table.store().is_empty(), "nothing was written");
    // A single key's error does not pretend to be a batch's.
    let err = table.put(&keys[1], b"v").unwrap_err();
    assert!(
        matches!(err, rowkey::store::TableError::Encode { index: None, .. }),
        "{err}"
    );
    assert_eq!(
        err.to_string(),
        "the key cannot be encoded: field `code` at byte 0: value of 8 bytes does not fit `fixed(2)`; it is refused, never truncated"
    );
}

#[test]
fn foreign_rows_are_reported_not_misread() {
    let store = MemStore::new();
    store.put(b"\x03not a reading key", b"x").unwrap();
    let table = Table::<_, Reading>::new(store);
    let first = table.scan(&Reading::scan().ranges()).next().unwrap();
    assert!(matches!(
        first,
        Err(rowkey::store::TableError::Decode { .. })
    ));
}

/// A store whose batch writes fail for keys starting with an odd byte, as a store that writes
/// row by row can: the table must report exactly those keys.
struct Flaky(MemStore);

#[derive(Debug)]
struct Refused;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("refused")
    }
}

impl std::error::Error for Refused {}

impl Store for Flaky {
    type Error = Refused;
    type Scan<'a> = std::iter::Empty<Result<rowkey::store::Row, Refused>>;

    fn put(&self, _: &[u8], _: &[u8]) -> Result<(), Refused> {
        Err(Refused)
    }
    fn get(&self, _: &[u8]) -> Result<Option<Vec<u8>>, Refused> {
        Ok(None)
    }
    fn delete(&self, _: &[u8]) -> Result<(), Refused> {
        Ok(())
    }
    fn write_batch(
        &self,
        rows: &[rowkey::store::Row],
    ) -> Result<(), rowkey::store::BatchError<Refused>> {
        let (bad, good): (Vec<_>, Vec<_>) = rows.iter().cloned().partition(|(k, _)| k[1] % 2 == 1);
        self.0.write_batch(&good).unwrap();
        if bad.is_empty() {
            Ok(())
        } else {
            Err(rowkey::store::BatchError {
                failed: bad.into_iter().map(|(k, _)| k).collect(),
                source: Refused,
            })
        }
    }
    fn scan(&self, _: &rowkey::KeyRange) -> Self::Scan<'_> {
        std::iter::empty()
    }
    fn scan_rev(&self, _: &rowkey::KeyRange) -> Option<Self::Scan<'_>> {
        None
    }
}

#[test]
fn failed_batch_rows_are_reported_by_key() {
    #[derive(RowKey, Debug, PartialEq)]
    struct Id {
        #[salt(buckets = 2)]
        id: u8,
    }
    let table = Table::<_, Id>::new(Flaky(MemStore::new()));
    let keys: Vec<Id> = (0..6).map(|id| Id { id }).collect();
    let err = table.put_batch(keys.iter().map(|k| (k, b"v"))).unwrap_err();
    let rowkey::store::TableError::Batch(batch) = err else {
        panic!("expected a batch error")
    };
    let failed: Vec<Id> = batch
        .failed
        .iter()
        .map(|k| Id::decode(k).unwrap())
        .collect();
    assert_eq!(failed, [Id { id: 1 }, Id { id: 3 }, Id { id: 5 }]);
    assert_eq!(table.store().0.len(), 3, "the others were written");
    assert_eq!(batch.to_string(), "3 row(s) not written: refused");
}
