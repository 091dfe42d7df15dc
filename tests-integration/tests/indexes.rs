//! Dual-write secondary indexes (`#[rowkey(index_of = ...)]`, `IndexedTable`): the Flurry
//! article's `(applicationId, userId)` table beside `(userId, applicationId)`, the guide's
//! user/time table read by time, and the promise that matters without transactions: whatever
//! write fails between the record and its entry, a reader through the index sees exactly the
//! records stored, never a wrong or deleted one (a store that fails chosen writes, driven by a
//! property test), and `check`/`repair`/`rebuild_index` find and fix the residue.

#[path = "../../rowkey/src/conformance/index.rs"]
mod index;

use std::collections::BTreeMap;

use proptest::prelude::*;
use rowkey::store::{IndexedTable, MemStore, Store};
use rowkey::{IndexOf, KeyRange, RowKey};

/// The Flurry article's first table: a user's applications.
#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct UserApp {
    #[salt(buckets = 8)]
    user_id: u64,
    app_id: u32,
}

/// Its second table: an application's users.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(index_of = UserApp)]
struct AppUser {
    #[salt(buckets = 8)]
    app_id: u32,
    user_id: u64,
}

#[test]
fn the_flurry_second_table_reads_an_applications_users() {
    let t = IndexedTable::<_, UserApp, AppUser>::new(MemStore::new(), MemStore::new());
    let mut all = Vec::new();
    for user_id in 0..300u64 {
        for app_id in 0..(user_id % 7) as u32 {
            all.push(UserApp { user_id, app_id });
        }
    }
    t.put_batch(
        all.iter()
            .map(|r| (r, format!("{}:{}", r.user_id, r.app_id).into_bytes())),
    )
    .unwrap();
    for app_id in 0..7 {
        let got: Vec<(UserApp, rowkey::bytes::Bytes)> = t
            .scan_by_index(&AppUser::scan().app_id(app_id).ranges())
            .map(Result::unwrap)
            .collect();
        let mut want: Vec<UserApp> = all.iter().filter(|r| r.app_id == app_id).cloned().collect();
        want.sort();
        assert_eq!(got.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(), want);
        for (k, v) in &got {
            assert_eq!(v, &format!("{}:{}", k.user_id, k.app_id).into_bytes());
        }
    }
    assert!(t.check().unwrap().is_clean());
}

/// The guide's table keyed by user and time, and an index by time whose salt is the guide's
/// own `timestamp % numBuckets`.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct UserTime {
    user: u64,
    #[reverse_ts]
    ts: u64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(index_of = UserTime)]
struct TimeUser {
    #[salt(buckets = 8, hash = "mod")]
    #[timestamp]
    ts: u64,
    user: u64,
}

#[test]
fn a_user_time_table_is_read_by_time_through_its_index() {
    let t = IndexedTable::<_, UserTime, TimeUser>::new(MemStore::new(), MemStore::new());
    let rows: Vec<UserTime> = (0..2_000u64)
        .map(|i| UserTime {
            user: i % 37,
            ts: 1_700_000_000_000 + i * 13,
        })
        .collect();
    t.put_batch(rows.iter().map(|r| (r, b"x"))).unwrap();
    let (t0, t1) = (1_700_000_000_000 + 5_000, 1_700_000_000_000 + 9_000);
    let got: Vec<UserTime> = t
        .scan_by_index(&TimeUser::scan().ts(t0..t1).ranges())
        .map(|r| r.unwrap().0)
        .collect();
    let want: Vec<UserTime> = rows
        .iter()
        .filter(|r| (t0..t1).contains(&r.ts))
        .cloned()
        .collect();
    assert_eq!(got, want, "in time order, exactly the window");
}

/// A memory store whose next write fails when told to: the failure lands between the two
/// writes of a put or a delete.
type Flaky = index::Flaky<MemStore>;

#[derive(Debug, Clone)]
enum Op {
    Put { user: u64, app: u32, v: u8 },
    Delete { user: u64, app: u32 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..6u64, 0..4u32, any::<u8>()).prop_map(|(user, app, v)| Op::Put { user, app, v }),
        (0..6u64, 0..4u32).prop_map(|(user, app)| Op::Delete { user, app }),
    ]
}

fn read_all_through_index(
    t: &IndexedTable<Flaky, UserApp, AppUser>,
) -> BTreeMap<UserApp, rowkey::bytes::Bytes> {
    let mut out = BTreeMap::new();
    for app_id in 0..4 {
        for row in t.scan_by_index(&AppUser::scan().app_id(app_id).ranges()) {
            let (k, v) = row.unwrap();
            assert!(out.insert(k, v).is_none(), "a record read twice");
        }
    }
    out
}

fn stored(t: &IndexedTable<Flaky, UserApp, AppUser>) -> BTreeMap<UserApp, rowkey::bytes::Bytes> {
    t.records()
        .store()
        .scan(&KeyRange::new(&[], None))
        .map(|r| {
            let (k, v) = r.unwrap();
            (UserApp::decode(&k).unwrap(), v)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any sequence of puts and deletes, with failures injected into the record's or the
    /// entry's write at random: after every step, a reader through the index sees exactly the
    /// records stored, with their values, never one that is not there.
    #[test]
    fn a_failure_between_the_two_writes_never_shows_a_wrong_record(
        steps in proptest::collection::vec((op(), 0..3u8), 1..40)
    ) {
        let t = IndexedTable::<_, UserApp, AppUser>::new(
            Flaky::new(MemStore::new()),
            Flaky::new(MemStore::new()),
        );
        for (op, fail) in steps {
            // 0: no failure; 1: the first write fails; 2: the second. A put writes the
            // entry, then the record; a delete removes the record, then the entry.
            let (first, second) = match op {
                Op::Put { .. } => (t.index().store(), t.records().store()),
                Op::Delete { .. } => (t.records().store(), t.index().store()),
            };
            match fail {
                1 => first.fail_next.set(true),
                2 => second.fail_next.set(true),
                _ => {}
            }
            let result = match &op {
                Op::Put { user, app, v } => t.put(&UserApp { user_id: *user, app_id: *app }, &[*v]),
                Op::Delete { user, app } => t.delete(&UserApp { user_id: *user, app_id: *app }),
            };
            prop_assert_eq!(result.is_err(), fail != 0, "{:?} with failure {}", op, fail);
            prop_assert_eq!(read_all_through_index(&t), stored(&t));
            let report = t.check().unwrap();
            prop_assert!(report.missing.is_empty(), "a record without its entry: {:?}", report.missing);
        }
        let report = t.check().unwrap();
        t.repair(&report).unwrap();
        let after = t.check().unwrap();
        prop_assert!(after.is_clean(), "{:?}", after);
        prop_assert_eq!(after.entries, stored(&t).len());
    }
}

/// `n` records (five apps per user) written to the records table alone: no index entry yet.
fn records_without_index(n: u64) -> IndexedTable<MemStore, UserApp, AppUser> {
    let t = IndexedTable::<_, UserApp, AppUser>::new(MemStore::new(), MemStore::new());
    let records: Vec<UserApp> = (0..n)
        .map(|i| UserApp {
            user_id: i / 5,
            app_id: (i % 5) as u32,
        })
        .collect();
    t.records()
        .put_batch(records.iter().map(|r| (r, b"v")))
        .unwrap();
    t
}

#[test]
fn an_index_is_rebuilt_from_the_records() {
    // Records written without the index (an index added to an existing table).
    let t = records_without_index(5_000);
    let report = t.check().unwrap();
    assert_eq!(report.missing.len(), 5_000);
    assert_eq!(t.scan_by_index(&AppUser::scan().ranges()).count(), 0);
    assert_eq!(t.rebuild_index(1_000).unwrap(), 5_000);
    assert!(t.check().unwrap().is_clean());
    assert_eq!(
        t.scan_by_index(&AppUser::scan().app_id(3).ranges()).count(),
        1_000
    );
    // An entry with no record (a failed put) is reported and removed.
    t.index()
        .put(
            &AppUser::from_record(&UserApp {
                user_id: 99_999,
                app_id: 1,
            }),
            b"",
        )
        .unwrap();
    let report = t.check().unwrap();
    assert_eq!(
        report.orphans,
        [UserApp {
            user_id: 99_999,
            app_id: 1
        }]
    );
    t.repair(&report).unwrap();
    assert!(t.check().unwrap().is_clean());
}

/// Check, rebuild and repair tell their progress (a bar's rows, rate and time left): every
/// 1,000 rows of each step and once at its end, the counts rising to the step's rows, a
/// repair's of a known total; the report is the same as without a callback.
#[test]
fn index_upkeep_tells_its_progress() {
    use rowkey::store::{IndexProgress, IndexStep};
    let t = records_without_index(2_500);
    // 300 orphans: entries without records.
    for user_id in 10_000..10_300u64 {
        t.index()
            .put(&AppUser::from_record(&UserApp { user_id, app_id: 0 }), b"")
            .unwrap();
    }
    let mut told: Vec<IndexProgress> = Vec::new();
    let report = t.check_with_progress(|p| told.push(p)).unwrap();
    assert_eq!(report, t.check().unwrap());
    let steps: Vec<(IndexStep, u64, Option<u64>)> =
        told.iter().map(|p| (p.step, p.done, p.total)).collect();
    assert_eq!(
        steps,
        [
            (IndexStep::CheckEntries, 300, None),
            (IndexStep::CheckRecords, 1_000, None),
            (IndexStep::CheckRecords, 2_000, None),
            (IndexStep::CheckRecords, 2_500, None),
        ]
    );

    told.clear();
    t.repair_with_progress(&report, |p| told.push(p)).unwrap();
    let steps: Vec<(IndexStep, u64, Option<u64>)> =
        told.iter().map(|p| (p.step, p.done, p.total)).collect();
    assert_eq!(
        steps,
        [
            // 300 orphans one by one, then the missing entries 1,000 to a batch.
            (IndexStep::Repair, 1_300, Some(2_800)),
            (IndexStep::Repair, 2_300, Some(2_800)),
            (IndexStep::Repair, 2_800, Some(2_800)),
        ]
    );
    assert!(t.check().unwrap().is_clean());

    told.clear();
    assert_eq!(
        t.rebuild_index_with_progress(1_000, |p| told.push(p))
            .unwrap(),
        2_500
    );
    let done: Vec<u64> = told.iter().map(|p| p.done).collect();
    assert_eq!(done, [1_000, 2_000, 2_500]);
    assert!(told.iter().all(|p| p.step == IndexStep::Rebuild));
}
