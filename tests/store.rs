//! Stores: typed keys written, read and scanned on the embedded fjall store (on disk) and the
//! in-memory store; a salted table's merged scan returns exactly the keys a brute-force filter
//! selects, in logical key order.

use rowkey::store::{FjallStore, MemStore, Store, Table};
use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reading {
    #[salt(buckets = 8)]
    sensor: u32,
    #[reverse_ts]
    ts: u64,
    kind: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct Plain {
    #[timestamp]
    ts: u64,
    host: String,
}

fn readings() -> Vec<Reading> {
    let mut out = Vec::new();
    for sensor in 0..20u32 {
        for ts in [5u64, 10, 15, 20, 25] {
            out.push(Reading {
                sensor,
                ts: ts * 1000 + u64::from(sensor),
                kind: ["a", "b"][(ts % 2) as usize].into(),
            });
        }
    }
    out
}

fn exercise<S: Store>(store: S) {
    let table: Table<S, Reading> = Table::new(store);
    let rows = readings();
    let values: Vec<Vec<u8>> = rows
        .iter()
        .map(|r| format!("v{}", r.ts).into_bytes())
        .collect();
    table.put_batch(rows.iter().zip(&values)).unwrap();

    // get / put / delete with typed keys.
    let k = &rows[7];
    assert_eq!(
        table.get(k).unwrap(),
        Some(format!("v{}", k.ts).into_bytes())
    );
    table.put(k, b"new").unwrap();
    assert_eq!(table.get(k).unwrap().as_deref(), Some(&b"new"[..]));
    table.delete(k).unwrap();
    assert_eq!(table.get(k).unwrap(), None);
    table.put(k, b"back").unwrap();

    // Whole table: 8 bucket ranges merged into logical order (sensor asc, ts desc, kind asc).
    let all: Vec<Reading> = table
        .scan(&Reading::scan().ranges())
        .map(|r| r.unwrap().0)
        .collect();
    let mut expected = rows.clone();
    expected.sort_by(|a, b| {
        a.sensor
            .cmp(&b.sensor)
            .then(b.ts.cmp(&a.ts))
            .then(a.kind.cmp(&b.kind))
    });
    assert_eq!(all, expected, "merged scan is in logical key order");

    // A range on the salted field fans out; the merge still returns exactly the matches.
    let ranges = Reading::scan().sensor(3..7).ranges();
    assert_eq!(ranges.len(), 8);
    let got: Vec<Reading> = table.scan(&ranges).map(|r| r.unwrap().0).collect();
    let want: Vec<Reading> = expected
        .iter()
        .filter(|r| (3..7).contains(&r.sensor))
        .cloned()
        .collect();
    assert_eq!(got, want);

    // One sensor: the bucket is known, one range, newest first.
    let ranges = Reading::scan().sensor(4).ts(10_000..=20_004).ranges();
    assert_eq!(ranges.len(), 1);
    let got: Vec<u64> = table.scan(&ranges).map(|r| r.unwrap().0.ts).collect();
    assert_eq!(got, [20_004, 15_004, 10_004]);

    // Pages of 7 through the merged listing, each continuing strictly after the last key.
    let mut paged = Vec::new();
    let mut ranges = Reading::scan().ranges();
    loop {
        let page: Vec<Reading> = table.scan(&ranges).take(7).map(|r| r.unwrap().0).collect();
        let Some(last) = page.last() else { break };
        ranges = ranges.after(&last.to_bytes().unwrap());
        paged.extend(page);
    }
    assert_eq!(paged, expected);

    // Reverse scan where the store supports it.
    let range = Reading::scan()
        .sensor(4)
        .ranges()
        .into_iter()
        .next()
        .unwrap();
    let rev: Option<Vec<u64>> = table.store().scan_rev(&range).map(|rows| {
        rows.map(|r| Reading::decode(&r.unwrap().0).unwrap().ts)
            .collect()
    });
    if let Some(ts) = rev {
        assert_eq!(ts, [5_004, 10_004, 15_004, 20_004, 25_004]);
    }
}

#[test]
fn memory_store() {
    exercise(MemStore::new());
}

#[test]
fn fjall_store_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    exercise(FjallStore::open(dir.path(), "readings").unwrap());
}

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
        matches!(err, rowkey::store::TableError::Encode { index: 1, .. }),
        "{err}"
    );
    assert!(table.store().is_empty(), "nothing was written");
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
