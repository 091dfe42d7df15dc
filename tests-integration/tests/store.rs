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

#[test]
fn an_index_in_memory() {
    store_suite::index::exercise_index(MemStore::new(), MemStore::new(), 400);
}

#[cfg(feature = "async")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_index_in_memory_async() {
    store_suite::index::exercise_index_async(MemStore::new(), MemStore::new(), 400).await;
}

#[test]
fn repair_beside_a_writer_in_memory() {
    let (records, index) = (MemStore::new(), MemStore::new());
    store_suite::index::repair_races(&records, &index, 0, false);
    store_suite::index::repair_races(&records, &index, 1000, true);
}

#[cfg(feature = "fjall")]
#[test]
fn repair_beside_a_writer_on_fjall() {
    let dir = tempfile::tempdir().unwrap();
    let db = fjall::Database::builder(dir.path()).open().unwrap();
    let records = FjallStore::with_database(db.clone(), "records").unwrap();
    let index = FjallStore::with_database(db, "app_users").unwrap();
    store_suite::index::repair_races(&records, &index, 0, false);
    store_suite::index::repair_races(&records, &index, 1000, true);
}

#[cfg(feature = "fjall")]
#[test]
fn an_index_on_fjall() {
    let dir = tempfile::tempdir().unwrap();
    let db = fjall::Database::builder(dir.path()).open().unwrap();
    store_suite::index::exercise_index(
        FjallStore::with_database(db.clone(), "records").unwrap(),
        FjallStore::with_database(db, "app_users").unwrap(),
        400,
    );
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
    fn get(&self, _: &[u8]) -> Result<Option<rowkey::bytes::Bytes>, Refused> {
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
                failed: bad.into_iter().map(|(k, _)| k.to_vec()).collect(),
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

#[test]
fn a_row_with_a_wrong_salt_byte_is_reported_by_the_verifying_scan() {
    let table = Table::<_, Reading>::new(MemStore::new());
    let r = Reading {
        sensor: 5,
        ts: 1_000,
        kind: "a".into(),
    };
    let mut key = r.to_bytes().unwrap().to_vec();
    // Another writer put the row under the wrong bucket.
    key[0] = (key[0] + 1) % 8;
    table.store().put(&key, b"x").unwrap();
    let trusted: Vec<_> = table.scan(&Reading::scan().ranges()).collect();
    assert_eq!(trusted.len(), 1);
    assert_eq!(
        trusted[0].as_ref().unwrap().0,
        r,
        "the default scan decodes what is there"
    );
    let verified: Vec<_> = table.scan_verified(&Reading::scan().ranges()).collect();
    match &verified[..] {
        [Err(rowkey::store::TableError::Decode { error, .. })] => {
            assert!(matches!(
                error.kind(),
                rowkey::DecodeErrorKind::WrongSalt { .. }
            ));
        }
        other => panic!("the verifying scan must report the row: {other:?}"),
    }
    let mut lent = table.scan_verified(&Reading::scan().ranges()).lending();
    assert!(matches!(
        lent.next(),
        Some(Err(rowkey::store::TableError::Decode { .. }))
    ));
    assert!(lent.next().is_none());
}

#[cfg(feature = "fjall")]
#[test]
fn bulk_load_sorts_keeps_the_last_duplicate_and_merges_with_existing_rows() {
    let dir = tempfile::tempdir().unwrap();
    let table = Table::<_, Reading>::new(FjallStore::open(dir.path(), "bulk").unwrap());
    let early = Reading {
        sensor: 1,
        ts: 1,
        kind: "z".into(),
    };
    table.put(&early, b"existing").unwrap();
    let mut rows: Vec<(Reading, Vec<u8>)> = (0..5_000u32)
        .rev()
        .map(|i| {
            let r = Reading {
                sensor: i % 50,
                ts: u64::from(i),
                kind: "k".into(),
            };
            (r, format!("v{i}").into_bytes())
        })
        .collect();
    rows.push((rows[10].0.clone(), b"second".to_vec()));
    table
        .bulk_load(rows.iter().map(|(k, v)| (k, v.as_slice())))
        .unwrap();
    assert_eq!(
        table.get(&rows[10].0).unwrap().as_deref(),
        Some(&b"second"[..])
    );
    assert_eq!(
        table.get(&early).unwrap().as_deref(),
        Some(&b"existing"[..])
    );
    let all: Vec<Reading> = table
        .scan(&Reading::scan().ranges())
        .map(|r| r.unwrap().0)
        .collect();
    assert_eq!(all.len(), 5_001);
    let mut want: Vec<Reading> = rows[..5_000].iter().map(|(k, _)| k.clone()).collect();
    want.push(early);
    want.sort_by(|a, b| {
        a.sensor
            .cmp(&b.sensor)
            .then(b.ts.cmp(&a.ts))
            .then(a.kind.cmp(&b.kind))
    });
    assert_eq!(all, want);
}

/// A batch is encoded into shared 64 KiB buffers (no allocation per row): rows that cross
/// buffer boundaries, values larger than a buffer and empty values all go into fjall (which
/// keeps the shared buffers in its memtable) and come back byte for byte, by `get` and by scan,
/// before and after the memtable is flushed to disk; and by `bulk_load` as well.
#[cfg(feature = "fjall")]
#[test]
fn batches_across_encode_buffers_round_trip_on_fjall() {
    let dir = tempfile::tempdir().unwrap();
    let rows: Vec<Reading> = (0..6_000u32)
        .map(|i| Reading {
            sensor: i % 97,
            ts: 1_000_000 + u64::from(i),
            kind: "k".repeat((i % 50) as usize),
        })
        .collect();
    // Value sizes: 0..300 bytes, with a 200 KiB value every 1,000 rows.
    let values: Vec<Vec<u8>> = (0..rows.len())
        .map(|i| {
            let len = if i % 1_000 == 999 {
                200 * 1024
            } else {
                i % 300
            };
            (0..len).map(|j| (i * 31 + j) as u8).collect()
        })
        .collect();
    for load in [false, true] {
        let store = FjallStore::open(dir.path(), if load { "loaded" } else { "batched" }).unwrap();
        let table = Table::<_, Reading>::new(store.clone());
        let batch = rows.iter().zip(values.iter().map(Vec::as_slice));
        if load {
            table.bulk_load(batch).unwrap();
        } else {
            table.put_batch(batch).unwrap();
        }
        for flushed in [false, true] {
            if flushed {
                store.keyspace().rotate_memtable_and_wait().unwrap();
            }
            for (i, (k, v)) in rows.iter().zip(&values).enumerate().step_by(7) {
                assert_eq!(table.get(k).unwrap().as_deref(), Some(&v[..]), "row {i}");
            }
            let mut want: Vec<(Vec<u8>, &[u8])> = rows
                .iter()
                .zip(&values)
                .map(|(k, v)| (k.to_bytes().unwrap().to_vec(), &v[..]))
                .collect();
            want.sort();
            let got: Vec<(Vec<u8>, Vec<u8>)> = store
                .scan(&rowkey::KeyRange::new(&[], None))
                .map(|r| r.map(|(k, v)| (k.to_vec(), v.to_vec())).unwrap())
                .collect();
            assert_eq!(got.len(), want.len());
            for ((gk, gv), (wk, wv)) in got.iter().zip(&want) {
                assert_eq!((gk, &gv[..]), (wk, *wv));
            }
        }
    }
}

/// The async typed table on the async memory store: the suite the emulator and HBase run.
#[cfg(feature = "async")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_async_table_in_memory() {
    store_suite::net::exercise_async_table(std::sync::Arc::new(MemStore::new()), 20_000).await;
}

/// A memory store whose scans fail after their second row (and would go on after it).
struct FailsMidScan(MemStore);

impl Store for FailsMidScan {
    type Error = Refused;
    type Scan<'a> = Box<dyn Iterator<Item = Result<rowkey::store::Row, Refused>> + 'a>;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Refused> {
        let Ok(()) = self.0.put(key, value);
        Ok(())
    }
    fn get(&self, _: &[u8]) -> Result<Option<rowkey::bytes::Bytes>, Refused> {
        Err(Refused)
    }
    fn delete(&self, _: &[u8]) -> Result<(), Refused> {
        Err(Refused)
    }
    fn write_batch(
        &self,
        _: &[rowkey::store::Row],
    ) -> Result<(), rowkey::store::BatchError<Refused>> {
        Err(rowkey::store::BatchError {
            failed: Vec::new(),
            source: Refused,
        })
    }
    fn scan(&self, range: &rowkey::KeyRange) -> Self::Scan<'_> {
        let rows: Vec<_> = self
            .0
            .scan(range)
            .map(|r| r.unwrap_or_else(|e| match e {}))
            .collect();
        let mut out: Vec<Result<rowkey::store::Row, Refused>> = Vec::new();
        for (i, row) in rows.into_iter().enumerate() {
            if i == 2 {
                out.push(Err(Refused));
            }
            out.push(Ok(row));
        }
        Box::new(out.into_iter())
    }
    fn scan_rev(&self, _: &rowkey::KeyRange) -> Option<Self::Scan<'_>> {
        None
    }
}

/// A store error ends the scan of its range: on a single range (which typed tables read
/// without the merge) as on several.
#[test]
fn a_store_error_ends_a_single_range_scan() {
    let store = FailsMidScan(MemStore::new());
    let table = Table::<_, Reading>::new(&store);
    for ts in 0..5 {
        let key = Reading {
            sensor: 7,
            ts,
            kind: "t".into(),
        };
        store.put(&key.to_bytes().unwrap(), b"v").unwrap();
    }
    let one = Reading::scan().sensor(7).ranges();
    assert_eq!(one.len(), 1, "the sensor decides the bucket");
    let got: Vec<bool> = table.scan(&one).map(|r| r.is_ok()).collect();
    assert_eq!(
        got,
        [true, true, false],
        "two rows, the error, then the end"
    );
    let all = Reading::scan().ranges();
    let got: Vec<bool> = table.scan(&all).map(|r| r.is_ok()).collect();
    assert_eq!(got, [true, true, false], "the same through the merge");
    // The lending scan, decoded and raw, on one range and through the merge.
    for ranges in [&one, &all] {
        let mut rows = table.scan(ranges).lending();
        let mut got = Vec::new();
        while let Some(row) = rows.next() {
            got.push(row.is_ok());
        }
        assert_eq!(got, [true, true, false], "lending");
        let mut rows = table.scan(ranges).lending();
        let mut got = Vec::new();
        while let Some(row) = rows.next_raw() {
            got.push(row.is_ok());
        }
        assert_eq!(got, [true, true, false], "lending, raw");
    }
}
