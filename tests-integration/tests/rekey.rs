//! Re-keying a table with nothing lost (`rowkey::store::rekey`): the guide's timestamp-led log
//! table copied into the salted layout, with rows that do not decode and rows the conversion
//! refuses reported one by one, a copy cut short by a failing target resumed from its last
//! checkpoint, and a conversion that maps two rows to one key caught by the final count.

use std::cell::Cell;

#[cfg(feature = "async")]
#[path = "../../rowkey/src/conformance/index.rs"]
mod index;

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
    let report = rekey(&from, &to, convert, &RekeyOptions::default(), |r| {
        checkpoints.push(r.checkpoint.clone().unwrap())
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

/// A store whose batch writes fail from the `fail_at`-th on.
struct FailingTarget<S> {
    inner: S,
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

impl<S: Store> Store for FailingTarget<S> {
    type Error = Down;
    type Scan<'a>
        = std::iter::Map<S::Scan<'a>, fn(Result<Row, S::Error>) -> Result<Row, Down>>
    where
        S: 'a;
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
        self.inner.write_batch(rows).map_err(|e| BatchError {
            failed: e.failed,
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

/// A target that fails its `fail_at`-th batch (and every later one) until it is restarted.
fn failing<S: Store>(inner: S, fail_at: usize) -> Table<FailingTarget<S>, New> {
    Table::new(FailingTarget {
        inner,
        batches: Cell::new(0),
        fail_at,
    })
}

/// Source rows with every 137th value refused by the conversion.
fn source_with_refusals<S: Store>(store: S, n: u64) -> (Table<S, Old>, usize) {
    let from = Table::<_, Old>::new(store);
    let rows = old_rows(n);
    let values: Vec<&[u8]> = (0..rows.len())
        .map(|i| {
            if i % 137 == 5 {
                &b"corrupt"[..]
            } else {
                b"line"
            }
        })
        .collect();
    from.put_batch(rows.iter().zip(values.iter().copied()))
        .unwrap();
    (from, values.iter().filter(|v| **v == b"corrupt").count())
}

#[test]
fn a_copy_cut_short_resumes_from_its_checkpoint_and_accounts_for_every_run() {
    cut_and_resumed(MemStore::new(), &MemStore::new(), &MemStore::new());
}

#[cfg(feature = "fjall")]
#[test]
fn a_copy_cut_short_on_fjall_resumes_and_accounts_for_every_run() {
    let dir = tempfile::tempdir().unwrap();
    let db = fjall::Database::builder(dir.path()).open().unwrap();
    let open = |name| rowkey::store::FjallStore::with_database(db.clone(), name).unwrap();
    cut_and_resumed(open("old"), &open("new"), &open("again"));
}

/// A copy of 12,345 rows (every 137th refused) cut after three batches and resumed from the
/// failure's report into the same `target`, then the same copy uninterrupted into `fresh`.
fn cut_and_resumed<S: Store, T: Store>(source: S, target: &T, fresh: &T) {
    let (from, refused) = source_with_refusals(source, 12_345);
    let to = failing(target, 4);
    let options = RekeyOptions::default().batch(1_000);
    let mut handed = Vec::new();
    let err = rekey(&from, &to, convert, &options, |r| handed.push(r.clone())).unwrap_err();
    assert!(
        matches!(err.error, TableError::Batch(ref b) if b.failed.len() == 1_000),
        "{err}"
    );
    // The failure carries the report of the last checkpoint: what the callback last saw.
    assert_eq!(handed.len(), 3);
    assert_eq!(Some(&*err.report), handed.last());
    assert_eq!(err.report.copied, 3_000);
    assert!(
        !err.report.unconverted.is_empty(),
        "refusals before the cut"
    );
    assert_eq!(err.report.read, 3_000 + err.report.unconverted.len());

    // The machine comes back: resume from the failure's report, into the same target.
    let to = failing(target, usize::MAX);
    let resumed = options.clone().resume(*err.report);
    let mut later = Vec::new();
    let report = rekey(&from, &to, convert, &resumed, |r| later.push(r.clone())).unwrap();
    assert!(
        later[0].checkpoint > handed[2].checkpoint,
        "continues after it"
    );
    assert_eq!(report.runs, 2);
    assert_eq!(report.read, 12_345, "every source row, across both runs");
    assert_eq!(
        report.unconverted.len(),
        refused,
        "every refusal, across both runs"
    );
    assert_eq!(report.copied, 12_345 - refused);
    assert_eq!(
        report.target_rows,
        Some(12_345 - refused),
        "nothing lost, nothing twice"
    );
    assert!(!report.is_complete(), "refused rows were not copied");
    // The same copy uninterrupted reports the same.
    let once = rekey(
        &from,
        &Table::<_, New>::new(fresh),
        convert,
        &options,
        |_| {},
    )
    .unwrap();
    assert_eq!((once.read, once.copied), (report.read, report.copied));
    assert_eq!(once.unconverted, report.unconverted);
}

#[test]
fn a_copy_resumed_from_the_last_report_handed_out_loses_no_refusal() {
    // A caller that persisted only the reports handed out (not the failure) loses nothing
    // either: the last report handed out is the failure's.
    let (from, refused) = source_with_refusals(MemStore::new(), 5_000);
    let target = MemStore::new();
    let to = failing(&target, 3);
    let options = RekeyOptions::default().batch(700);
    let mut persisted = None;
    rekey(&from, &to, convert, &options, |r| {
        persisted = Some(r.clone())
    })
    .unwrap_err();
    let to = failing(&target, usize::MAX);
    let report = rekey(
        &from,
        &to,
        convert,
        &options.resume(persisted.unwrap()),
        |_| {},
    )
    .unwrap();
    assert_eq!(report.unconverted.len(), refused);
    assert_eq!(report.read, 5_000);
}

#[test]
fn a_collision_in_a_resumed_copy_is_caught() {
    let from = Table::<_, Old>::new(MemStore::new());
    let rows = old_rows(3_000);
    from.put_batch(rows.iter().map(|r| (r, b"x".as_slice())))
        .unwrap();
    // Rows 10 and 2,500 map to one target key: one before the cut, one after.
    let merge = |k: Old, v: Bytes| {
        let ts = if k.ts == rows[2_500].ts && k.host == rows[2_500].host {
            rows[10].ts
        } else {
            k.ts
        };
        let host = if ts == rows[10].ts {
            rows[10].host.clone()
        } else {
            k.host
        };
        Ok((New { host, ts }, v))
    };
    let target = MemStore::new();
    let to = failing(&target, 2);
    let options = RekeyOptions::default().batch(1_000);
    let err = rekey(&from, &to, merge, &options, |_| {}).unwrap_err();
    assert_eq!(err.report.copied, 1_000);
    let to = failing(&target, usize::MAX);
    let report = rekey(
        &from,
        &to,
        merge,
        &options.clone().resume(*err.report),
        |_| {},
    )
    .unwrap();
    assert_eq!(report.copied, 3_000);
    assert_eq!(report.target_rows, Some(2_999));
    assert!(
        !report.is_complete(),
        "a row was lost to a collision: {report}"
    );
    // Uninterrupted, the same.
    let once = rekey(
        &from,
        &Table::<_, New>::new(MemStore::new()),
        merge,
        &options,
        |_| {},
    )
    .unwrap();
    assert_eq!(once.target_rows, Some(2_999));
    assert!(!once.is_complete());
}

#[test]
fn each_checkpoint_is_handed_out_once() {
    let from = Table::<_, Old>::new(MemStore::new());
    let rows = old_rows(2_000);
    from.put_batch(rows.iter().map(|r| (r, b"x".as_slice())))
        .unwrap();
    let to = Table::<_, New>::new(MemStore::new());
    let mut seen = Vec::new();
    let options = RekeyOptions::default().batch(1_000);
    rekey(&from, &to, convert, &options, |r| {
        seen.push(r.checkpoint.clone())
    })
    .unwrap();
    assert_eq!(seen.len(), 2, "two full batches, and no repeat of the last");
    assert_ne!(seen[0], seen[1]);
    // Rows after the last full batch that are all refused still reach a checkpoint.
    from.put(&old_rows(2_001)[2_000], b"corrupt").unwrap();
    let mut last = Vec::new();
    let report = rekey(&from, &to, convert, &options, |r| last.push(r.clone())).unwrap();
    assert_eq!(last.len(), 3);
    assert_eq!(last[2].unconverted.len(), 1);
    assert_eq!(report.read, 2_001);
}

/// `rekey_async` from a tokio task: the blocking copy's batches, checkpoints, failure report
/// and resumption, over async stores. The target fails its fourth batch (the checkpoint
/// callback arms the failure after the third); the copy resumed from the failure's report
/// accounts for every row across both runs, as the blocking copy of the same source does.
#[cfg(feature = "async")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_async_copy_cut_short_resumes_and_reports_as_the_blocking_one() {
    use rowkey::store::{rekey_async, AsyncTable};

    let source = MemStore::new();
    let (_, refused) = source_with_refusals(&source, 12_345);
    let from = AsyncTable::<_, Old>::new(source);
    let to = AsyncTable::<_, New>::new(index::AsyncFlaky::new(MemStore::new()));
    let options = RekeyOptions::default().batch(1_000);
    let mut handed = Vec::new();
    let err = rekey_async(&from, &to, convert, &options, |r| {
        handed.push(r.clone());
        if handed.len() == 3 {
            to.store().fail_next();
        }
    })
    .await
    .unwrap_err();
    assert!(
        matches!(err.error, TableError::Batch(ref b) if b.failed.len() == 1_000),
        "{err}"
    );
    assert_eq!(handed.len(), 3);
    assert_eq!(Some(&*err.report), handed.last());
    assert_eq!(err.report.copied, 3_000);
    assert_eq!(err.report.read, 3_000 + err.report.unconverted.len());

    let resumed = options.clone().resume(*err.report);
    let mut later = Vec::new();
    let report = rekey_async(&from, &to, convert, &resumed, |r| later.push(r.clone()))
        .await
        .unwrap();
    assert!(
        later[0].checkpoint > handed[2].checkpoint,
        "continues after it"
    );
    assert_eq!(report.runs, 2);
    assert_eq!(report.read, 12_345, "every source row, across both runs");
    assert_eq!(
        report.unconverted.len(),
        refused,
        "every refusal, across both runs"
    );
    assert_eq!(
        report.target_rows,
        Some(12_345 - refused),
        "nothing lost, nothing twice"
    );

    // The blocking copy of the same source reports the same rows and refusals.
    let once = rekey(
        &Table::<_, Old>::new(from.store()),
        &Table::<_, New>::new(MemStore::new()),
        convert,
        &options,
        |_| {},
    )
    .unwrap();
    assert_eq!((once.read, once.copied), (report.read, report.copied));
    assert_eq!(once.unconverted, report.unconverted);
    assert_eq!(once.target_rows, report.target_rows);
}

/// Flurry's key as Java wrote it: writeLong(userId), writeUTF(applicationId).
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Legacy {
    #[java]
    user_id: u64,
    #[java(utf)]
    application_id: String,
}

/// rowkey's own layout for it.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Native {
    #[salt(buckets = 8)]
    application_id: String,
    user_id: u64,
}

fn to_native(k: &Legacy, v: &[u8]) -> Result<(Native, Bytes), String> {
    Ok((
        Native {
            application_id: k.application_id.clone(),
            user_id: k.user_id,
        },
        Bytes::copy_from_slice(v),
    ))
}

const APPS: [&str; 4] = ["mail", "maps", "news", "a\0b"];

/// 20,000 legacy keys, 4 applications per user.
fn legacy_rows() -> Vec<Legacy> {
    (0..20_000u64)
        .map(|i| Legacy {
            user_id: i / 4,
            application_id: APPS[(i % 4) as usize].into(),
        })
        .collect()
}

/// The dual writes of the moves below: new users, and rewrites of existing rows.
fn dual_write_key(i: u64) -> Legacy {
    Legacy {
        user_id: if i.is_multiple_of(2) {
            100_000 + i
        } else {
            i * 3
        },
        application_id: APPS[(i % 4) as usize].into(),
    }
}

/// Flurry's key as Java wrote it, moved to rowkey's own layout while the application keeps
/// writing: dual writes (new table first, then old) run on another thread through the whole
/// copy (`DualWriter::rekey`, which leaves the rows the writer wrote as it wrote them: the bare
/// `rekey` wrote 833 older values over them here), then `verify_rekey` finds the two tables
/// identical; a crash between the two writes of a dual write, and a write that reached only the
/// old table, are each reported.
#[test]
fn a_legacy_table_moves_to_a_native_layout_while_writes_go_on() {
    use rowkey::store::{verify_rekey, DualWriter};
    let convert = to_native;
    let old = Table::<_, Legacy>::new(MemStore::new());
    let new = Table::<_, Native>::new(MemStore::new());
    let rows = legacy_rows();
    old.put_batch(rows.iter().map(|k| (k, b"v0".as_slice())))
        .unwrap();

    // 1. Dual writes start before the copy and run through it: new users, and rewrites of
    //    existing rows with a new value.
    let dual = DualWriter::new(&old, &new, convert);
    let report = std::thread::scope(|s| {
        let writer = s.spawn(|| {
            for i in 0..2_000u64 {
                dual.put(&dual_write_key(i), format!("v{i}").as_bytes())
                    .unwrap();
            }
        });
        // 2. The copy, in small batches so that it interleaves with the writer.
        let options = RekeyOptions::default().batch(500);
        let report = dual.rekey(&options, |_| std::thread::yield_now()).unwrap();
        writer.join().unwrap();
        report
    });
    assert!(report.unconverted.is_empty(), "{report:?}");
    // 3. Verify, then switch: identical.
    let diff = verify_rekey(&old, &new, convert).unwrap();
    assert!(diff.is_identical(), "{diff}");
    // 1,000 new users, and 167 rewrites that are new rows too (users past the first 5,000).
    assert_eq!(diff.old_rows, 21_167);
    assert_eq!(diff.new_rows, 21_167);

    // A crash between the two writes of a dual write: the new table has a row the old lacks.
    let lost = Legacy {
        user_id: 999_999,
        application_id: "news".into(),
    };
    let (k2, v2) = convert(&lost, b"x").unwrap();
    new.put(&k2, &v2).unwrap();
    // A write that reached the old table only (a writer that was not dual-writing).
    let stray = Legacy {
        user_id: 888_888,
        application_id: "mail".into(),
    };
    old.put(&stray, b"y").unwrap();
    // A value changed in the old table only.
    old.put(&rows[0], b"changed").unwrap();
    let diff = verify_rekey(&old, &new, convert).unwrap();
    assert!(!diff.is_identical());
    assert_eq!(
        (diff.missing_count, diff.extra_count, diff.changed_count),
        (1, 1, 1),
        "{diff}"
    );
    assert_eq!(diff.extra, [k2.to_bytes().unwrap().to_vec()]);
    let (stray_new, _) = convert(&stray, b"").unwrap();
    assert_eq!(diff.missing, [stray_new.to_bytes().unwrap().to_vec()]);
}

/// A store whose first `put` after [`Gated::arm`] stops between two barriers: the test knows
/// a dual write has reached the new table and not yet this (old) one, and lets it go on when
/// it wants.
struct Gated {
    inner: MemStore,
    armed: std::sync::atomic::AtomicBool,
    entered: std::sync::Barrier,
    release: std::sync::Barrier,
}

impl Gated {
    fn new() -> Self {
        Gated {
            inner: MemStore::new(),
            armed: std::sync::atomic::AtomicBool::new(false),
            entered: std::sync::Barrier::new(2),
            release: std::sync::Barrier::new(2),
        }
    }

    fn arm(&self) {
        self.armed.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Store for Gated {
    type Error = <MemStore as Store>::Error;
    type Scan<'a> = <MemStore as Store>::Scan<'a>;
    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Self::Error> {
        if self.armed.swap(false, std::sync::atomic::Ordering::SeqCst) {
            self.entered.wait();
            self.release.wait();
        }
        self.inner.put(key, value)
    }
    fn get(&self, key: &[u8]) -> Result<Option<Bytes>, Self::Error> {
        self.inner.get(key)
    }
    fn delete(&self, key: &[u8]) -> Result<(), Self::Error> {
        self.inner.delete(key)
    }
    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<Self::Error>> {
        self.inner.write_batch(rows)
    }
    fn scan(&self, range: &KeyRange) -> Self::Scan<'_> {
        self.inner.scan(range)
    }
    fn scan_rev(&self, range: &KeyRange) -> Option<Self::Scan<'_>> {
        self.inner.scan_rev(range)
    }
}

/// A dual write in flight when the copy begins (written to the new table, not yet to the old
/// one, whose old value the copy reads): the copy leaves the new table's row as the writer
/// wrote it. Before the writes in flight were counted, the copy wrote the old value over it
/// (CI saw it once in the async move below: `1 changed`).
#[test]
fn a_dual_write_in_flight_when_the_copy_begins_is_not_overwritten() {
    use rowkey::store::{verify_rekey, DualWriter};
    let old = Table::<_, Legacy>::new(Gated::new());
    let new = Table::<_, Native>::new(MemStore::new());
    let rows = &legacy_rows()[..1_000];
    old.put_batch(rows.iter().map(|k| (k, b"v0".as_slice())))
        .unwrap();
    let dual = DualWriter::new(&old, &new, to_native);
    let rewritten = rows[10].clone();
    old.store().arm();
    std::thread::scope(|s| {
        let writer = s.spawn(|| dual.put(&rewritten, b"v1").unwrap());
        // The writer has written the new table and waits before the old one.
        old.store().entered.wait();
        dual.rekey(&RekeyOptions::default(), |_| {}).unwrap();
        old.store().release.wait();
        writer.join().unwrap();
    });
    let (key, _) = to_native(&rewritten, b"").unwrap();
    assert_eq!(new.get(&key).unwrap().as_deref(), Some(&b"v1"[..]));
    let diff = verify_rekey(&old, &new, to_native).unwrap();
    assert!(diff.is_identical(), "{diff}");
}

/// The same move from tokio tasks (`AsyncDualWriter`, `verify_rekey_async`): the writer on one
/// worker thread, the copy on another, in small batches; the tables end identical, the same
/// 21,167 rows as the blocking move, and a crash between the two writes of a dual write is
/// found.
#[cfg(feature = "async")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_legacy_table_moves_from_tokio_tasks_while_writes_go_on() {
    use rowkey::store::{verify_rekey_async, AsyncDualWriter, AsyncTable};
    use std::sync::Arc;

    let old: &'static AsyncTable<MemStore, Legacy> =
        Box::leak(Box::new(AsyncTable::new(MemStore::new())));
    let new: &'static AsyncTable<MemStore, Native> =
        Box::leak(Box::new(AsyncTable::new(MemStore::new())));
    let rows = legacy_rows();
    old.put_batch(rows.iter().map(|k| (k, b"v0".as_slice())))
        .await
        .unwrap();
    let dual = Arc::new(AsyncDualWriter::new(old, new, to_native));
    let writer = {
        let dual = Arc::clone(&dual);
        tokio::spawn(async move {
            for i in 0..2_000u64 {
                dual.put(&dual_write_key(i), format!("v{i}").as_bytes())
                    .await
                    .unwrap();
                if i.is_multiple_of(16) {
                    tokio::task::yield_now().await;
                }
            }
        })
    };
    let options = RekeyOptions::default().batch(500);
    let report = dual.rekey(&options, |_| {}).await.unwrap();
    writer.await.unwrap();
    assert!(report.unconverted.is_empty(), "{report:?}");
    let diff = verify_rekey_async(old, new, to_native).await.unwrap();
    assert!(diff.is_identical(), "{diff}");
    assert_eq!((diff.old_rows, diff.new_rows), (21_167, 21_167));

    // A crash between the two writes: the new table holds a row the old one lacks.
    let lost = Legacy {
        user_id: 999_999,
        application_id: "news".into(),
    };
    let (k2, v2) = to_native(&lost, b"x").unwrap();
    new.put(&k2, &v2).await.unwrap();
    let diff = verify_rekey_async(old, new, to_native).await.unwrap();
    assert_eq!((diff.extra_count, diff.missing_count), (1, 0), "{diff}");
    assert_eq!(diff.extra, [k2.to_bytes().unwrap().to_vec()]);
}
