//! Re-keying a table with nothing lost (`rowkey::store::rekey`): the guide's timestamp-led log
//! table copied into the salted layout, with rows that do not decode and rows the conversion
//! refuses reported one by one, a copy cut short by a failing target resumed from its last
//! checkpoint, and a conversion that maps two rows to one key caught by the final count.

use std::cell::Cell;

use rowkey::bytes::Bytes;
use rowkey::store::{rekey, BatchError, MemStore, RekeyOptions, Row, Store, Table, TableError};
use rowkey::{KeyRange, RowKey};

/// The layout the guide warns against: the timestamp leads.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct Old {
    #[timestamp]
    ts: u64,
    host: String,
}

/// The layout it moves to: salted, host first within a bucket.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct New {
    #[salt(buckets = 16)]
    host: String,
    #[reverse_ts]
    ts: u64,
}

fn old_rows(n: u64) -> Vec<Old> {
    (0..n)
        .map(|i| Old {
            ts: 1_700_000_000_000 + i,
            host: format!("web-{:02}", i % 40),
        })
        .collect()
}

fn convert(k: Old, v: Bytes) -> Result<(New, Bytes), String> {
    if v == b"corrupt"[..] {
        return Err("the value is not a log line".into());
    }
    Ok((
        New {
            host: k.host,
            ts: k.ts,
        },
        v,
    ))
}

#[test]
fn a_table_moves_to_a_new_layout_and_every_row_is_accounted_for() {
    let from = Table::<_, Old>::new(MemStore::new());
    let rows = old_rows(25_000);
    from.put_batch(rows.iter().map(|r| (r, b"line".as_slice())))
        .unwrap();
    // Another writer's row that is not an `Old` key, and a row the conversion refuses.
    from.store().put(b"\xffgarbage", b"?").unwrap();
    from.put(&old_rows(25_001)[25_000], b"corrupt").unwrap();

    let to = Table::<_, New>::new(MemStore::new());
    let mut checkpoints = Vec::new();
    let report = rekey(&from, &to, convert, &RekeyOptions::default(), |k| {
        checkpoints.push(k.to_vec())
    })
    .unwrap();
    assert_eq!(report.read, 25_002);
    assert_eq!(report.copied, 25_000);
    assert_eq!(report.unconverted.len(), 2);
    assert_eq!(report.unconverted[1].key, b"\xffgarbage");
    assert!(report.unconverted[1].reason.contains("not a source key"));
    assert!(report.unconverted[0].reason.contains("not a log line"));
    assert_eq!(report.target_rows, Some(25_000));
    assert!(!report.is_complete(), "two rows were not copied");
    assert_eq!(
        checkpoints.len(),
        3,
        "a checkpoint per batch of 10,000 and the last"
    );
    // Every old row is in the new table, readable by its new key.
    for r in rows.iter().step_by(997) {
        let new = New {
            host: r.host.clone(),
            ts: r.ts,
        };
        assert_eq!(to.get(&new).unwrap().as_deref(), Some(&b"line"[..]));
    }
    // And a host's latest events are now one short scan.
    let latest: Vec<New> = to
        .scan(&New::scan().host("web-07").ranges())
        .take(3)
        .map(|r| r.unwrap().0)
        .collect();
    assert_eq!(
        latest[0].ts,
        rows.iter().rev().find(|r| r.host == "web-07").unwrap().ts
    );
}

/// A memory store whose batch writes fail from the `fail_at`-th on.
struct FailingTarget {
    inner: MemStore,
    batches: Cell<usize>,
    fail_at: usize,
}

#[derive(Debug)]
struct Down;

impl std::fmt::Display for Down {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("target down")
    }
}

impl std::error::Error for Down {}

impl Store for FailingTarget {
    type Error = Down;
    type Scan<'a> = std::iter::Map<
        <MemStore as Store>::Scan<'a>,
        fn(Result<Row, std::convert::Infallible>) -> Result<Row, Down>,
    >;
    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Down> {
        self.inner.put(key, value).map_err(|_| Down)
    }
    fn get(&self, key: &[u8]) -> Result<Option<Bytes>, Down> {
        self.inner.get(key).map_err(|_| Down)
    }
    fn delete(&self, key: &[u8]) -> Result<(), Down> {
        self.inner.delete(key).map_err(|_| Down)
    }
    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<Down>> {
        let n = self.batches.get() + 1;
        self.batches.set(n);
        if n >= self.fail_at {
            return Err(BatchError {
                failed: rows.iter().map(|(k, _)| k.to_vec()).collect(),
                source: Down,
            });
        }
        self.inner.write_batch(rows).map_err(|_| BatchError {
            failed: Vec::new(),
            source: Down,
        })
    }
    fn scan(&self, range: &KeyRange) -> Self::Scan<'_> {
        self.inner.scan(range).map(|r| r.map_err(|_| Down))
    }
    fn scan_rev(&self, range: &KeyRange) -> Option<Self::Scan<'_>> {
        Some(self.inner.scan_rev(range)?.map(|r| r.map_err(|_| Down)))
    }
}

#[test]
fn a_copy_cut_short_resumes_from_its_checkpoint() {
    let from = Table::<_, Old>::new(MemStore::new());
    let rows = old_rows(12_345);
    from.put_batch(rows.iter().map(|r| (r, b"line".as_slice())))
        .unwrap();
    let to = Table::<_, New>::new(FailingTarget {
        inner: MemStore::new(),
        batches: Cell::new(0),
        fail_at: 4,
    });
    let options = RekeyOptions::default().batch(1_000);
    let mut last = None;
    let err = rekey(&from, &to, convert, &options, |k| last = Some(k.to_vec())).unwrap_err();
    assert!(
        matches!(err, TableError::Batch(ref b) if b.failed.len() == 1_000),
        "{err}"
    );
    let checkpoint = last.expect("three batches were written");
    // The machine comes back: resume after the checkpoint, into the same target.
    let to = Table::<_, New>::new(FailingTarget {
        inner: to.store().inner.clone_rows(),
        batches: Cell::new(0),
        fail_at: usize::MAX,
    });
    let resumed = options.resume_after(checkpoint);
    let report = rekey(&from, &to, convert, &resumed, |_| {}).unwrap();
    assert_eq!(report.read, 12_345 - 3_000, "only the rest is read again");
    assert_eq!(
        report.target_rows,
        Some(12_345),
        "nothing lost, nothing twice"
    );
    assert!(report.is_complete());
}

#[test]
fn a_conversion_that_merges_rows_is_caught_by_the_count() {
    let from = Table::<_, Old>::new(MemStore::new());
    let rows = old_rows(100);
    from.put_batch(rows.iter().map(|r| (r, b"x".as_slice())))
        .unwrap();
    let to = Table::<_, New>::new(MemStore::new());
    // Dropping the time: every event of a host becomes one key.
    let report = rekey(
        &from,
        &to,
        |k: Old, v| {
            Ok((
                New {
                    host: k.host,
                    ts: 0,
                },
                v,
            ))
        },
        &RekeyOptions::default(),
        |_| {},
    )
    .unwrap();
    assert_eq!(report.copied, 100);
    assert_eq!(report.target_rows, Some(40));
    assert!(!report.is_complete(), "{report}");
}

/// A copy of a memory store's rows (the "restarted" target keeps what was written).
trait CloneRows {
    fn clone_rows(&self) -> MemStore;
}

impl CloneRows for MemStore {
    fn clone_rows(&self) -> MemStore {
        let copy = MemStore::new();
        let rows: Vec<Row> = self
            .scan(&KeyRange::new(&[], None))
            .map(|r| r.unwrap())
            .collect();
        copy.write_batch(&rows).unwrap();
        copy
    }
}
