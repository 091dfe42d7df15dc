//! The store conformance suite (feature `conformance`): the behaviours every [`Store`] must
//! have, stated once, as `object_store` ships its `integration.rs`. rowkey runs it on every store
//! it has (memory and fjall in `tests/store.rs`, the Bigtable emulator and a local HBase in
//! theirs); run it on yours from a test, against a fresh, empty store:
//!
//! ```
//! # #[cfg(feature = "conformance")] {
//! use rowkey::store::MemStore;
//!
//! rowkey::conformance::exercise(MemStore::new());                    // rows, batches, scans
//! rowkey::conformance::cells::exercise_cells(MemStore::new());       // rows of cells
//! rowkey::conformance::index::exercise_index(MemStore::new(), MemStore::new(), 100);
//! rowkey::conformance::wide::exercise_wide(MemStore::new(), 20);     // rows as columns
//! rowkey::conformance::atomic::exercise_atomic(MemStore::new(), 4, 50); // counters, conditions
//! let uids = MemStore::new();
//! rowkey::conformance::uid::exercise_uids(|| &uids, 4, 50);          // a lookup table
//! # }
//! ```
//!
//! Each function panics with a message naming the behaviour that failed: typed put, get and
//! delete; batches that write a key twice (the last wins); merged salted scans in logical
//! order, exact ranges, `scan_raw`, reverse scans where the store has them; rows of cells with
//! every column selection and batches applied in order; the dual-write index under injected
//! failures, and `repair` beside a writer in every interleaving; rows as columns against a
//! brute-force model; counters and conditional writes alone and under contention; a lookup table's ids under
//! concurrent assigners. The async typed tables have `*_async` twins (feature `async`).
//!
//! A store for cells needs the families of [`cells::families`] (Bigtable and HBase tables are
//! created with them); a store of raw rows needs nothing.

// The same files are the test suite's (`tests/store_suite/` includes them by path), so they
// name the crate as its users do.
#![allow(missing_docs)] // the suite's record types are described where they are declared

pub mod atomic;
pub mod cells;
pub mod index;
pub mod uid;
pub mod wide;

use rowkey::store::{Store, Table};
use rowkey::RowKey;

/// Eight salt buckets, newest first within a sensor.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Reading {
    #[salt(buckets = 8)]
    pub sensor: u32,
    #[reverse_ts]
    pub ts: u64,
    pub kind: String,
}

/// `Reading`'s layout with the text borrowed: what `Table::scan_raw` rows decode into without
/// allocating.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct ReadingRef<'a> {
    #[salt(buckets = 8)]
    pub sensor: u32,
    #[reverse_ts]
    pub ts: u64,
    pub kind: &'a str,
}

/// The suite's rows: 100 readings over 20 sensors.
pub fn readings() -> Vec<Reading> {
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

/// The rows of a lending scan, each value copied out before the next row.
fn lent<S: Store>(mut rows: rowkey::store::LentRows<'_, S, Reading>) -> Vec<(Reading, Vec<u8>)> {
    let mut out = Vec::new();
    while let Some(row) = rows.next() {
        let (key, value) = row.unwrap();
        out.push((key, value.to_vec()));
    }
    out
}

/// Runs every store behaviour against `store`, which must start empty.
pub fn exercise<S: Store>(store: S) {
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
        table.get(k).unwrap().as_deref(),
        Some(format!("v{}", k.ts).as_bytes())
    );
    table.put(k, b"new").unwrap();
    assert_eq!(table.get(k).unwrap().as_deref(), Some(&b"new"[..]));
    table.delete(k).unwrap();
    assert_eq!(table.get(k).unwrap(), None);
    // A batch that writes one key twice keeps the later value.
    table
        .put_batch([(k, &b"first"[..]), (&rows[8], b"other"), (k, b"back")])
        .unwrap();
    assert_eq!(table.get(k).unwrap().as_deref(), Some(&b"back"[..]));
    table
        .put(&rows[8], format!("v{}", rows[8].ts).as_bytes())
        .unwrap();
    // A bulk load (the store's load path; through `Blocking`, the async store's) keeps the last
    // of a repeated key too.
    let loaded = Reading {
        sensor: 500,
        ts: 1,
        kind: "load".into(),
    };
    table
        .bulk_load([(&loaded, &b"first"[..]), (&loaded, b"last")])
        .unwrap();
    assert_eq!(table.get(&loaded).unwrap().as_deref(), Some(&b"last"[..]));
    table.delete(&loaded).unwrap();

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

    // The same merge undecoded: the stored rows in the same order, whose keys decode
    // (borrowed) to the same readings and whose values are the stored ones.
    let raw: Vec<(Reading, Vec<u8>)> = table
        .scan_raw(&ranges)
        .map(|r| {
            let (key, value) = r.unwrap();
            let borrowed = ReadingRef::decode_trusted(&key).unwrap();
            assert_eq!(Reading::decode(&key).unwrap().kind, borrowed.kind);
            let owned = Reading {
                sensor: borrowed.sensor,
                ts: borrowed.ts,
                kind: borrowed.kind.to_owned(),
            };
            (owned, value.to_vec())
        })
        .collect();
    let stored: Vec<(Reading, Vec<u8>)> = table
        .scan(&ranges)
        .map(|r| r.map(|(k, v)| (k, v.to_vec())).unwrap())
        .collect();
    assert_eq!(raw, stored, "scan_raw is scan's rows, undecoded");
    assert_eq!(
        ReadingRef::FINGERPRINT,
        Reading::FINGERPRINT,
        "the borrowed twin has the owned key's layout"
    );

    // One sensor: the bucket is known, one range, newest first.
    let ranges = Reading::scan().sensor(4).ts(10_000..=20_004).ranges();
    assert_eq!(ranges.len(), 1);
    let got: Vec<u64> = table.scan(&ranges).map(|r| r.unwrap().0.ts).collect();
    assert_eq!(got, [20_004, 15_004, 10_004]);

    // The lending scan hands out the same rows, values lent: merged across buckets, one range,
    // and verified; its raw rows are scan_raw's.
    for ranges in [
        Reading::scan().ranges(),
        Reading::scan().sensor(3..7).ranges(),
        Reading::scan().sensor(4).ranges(),
    ] {
        let owned: Vec<(Reading, Vec<u8>)> = table
            .scan(&ranges)
            .map(|r| r.map(|(k, v)| (k, v.to_vec())).unwrap())
            .collect();
        assert!(!owned.is_empty());
        assert_eq!(lent(table.scan(&ranges).lending()), owned, "lending scan");
        assert_eq!(
            lent(table.scan_verified(&ranges).lending()),
            owned,
            "lending verified scan"
        );
        let mut rows = table.scan(&ranges).lending();
        let mut raw = Vec::new();
        while let Some(row) = rows.next_raw() {
            let (key, value) = row.unwrap();
            raw.push((key.to_vec(), value.to_vec()));
        }
        let stored: Vec<(Vec<u8>, Vec<u8>)> = table
            .scan_raw(&ranges)
            .map(|r| r.map(|(k, v)| (k.to_vec(), v.to_vec())).unwrap())
            .collect();
        assert_eq!(raw, stored, "lent raw rows are scan_raw's");
        if let Some(back) = table.scan_rev(&ranges) {
            let mut want = owned;
            want.reverse();
            assert_eq!(lent(back.lending()), want, "lending reverse scan");
        }
    }

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

    // Reverse scans where the store has them: one range, and the merged reverse of the salted
    // table (exactly the forward order, backwards).
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
        let back: Vec<Reading> = table
            .scan_rev(&Reading::scan().ranges())
            .expect("a store with reverse scans has merged reverse scans")
            .map(|r| r.unwrap().0)
            .collect();
        let mut want = expected.clone();
        want.reverse();
        assert_eq!(
            back, want,
            "merged reverse scan is the forward order backwards"
        );
        let ranges = Reading::scan().sensor(3..7).ranges();
        let back: Vec<Reading> = table
            .scan_rev(&ranges)
            .unwrap()
            .map(|r| r.unwrap().0)
            .collect();
        let mut want: Vec<Reading> = expected
            .iter()
            .filter(|r| (3..7).contains(&r.sensor))
            .cloned()
            .collect();
        want.reverse();
        assert_eq!(back, want);
        // A range that starts at a stored key includes it, also read backwards (HBase's
        // reversed scanners stop before their stop row).
        let first = expected[3].to_bytes().unwrap();
        let mut past = first.to_vec();
        past.push(0);
        let exact = rowkey::KeyRange::new(&first, Some(&past));
        let back: Vec<Vec<u8>> = table
            .store()
            .scan_rev(&exact)
            .unwrap()
            .map(|r| r.unwrap().0.to_vec())
            .collect();
        assert_eq!(back, [first.to_vec()]);
    } else {
        assert!(table.scan_rev(&Reading::scan().ranges()).is_none());
    }

    // The key-only scan: the same keys as the rows', in order, for the whole table and a
    // range.
    for range in [
        rowkey::KeyRange::new(&[], None),
        rowkey::KeyRange::new(&[2], Some(&[5])),
    ] {
        let rows: Vec<Vec<u8>> = table
            .store()
            .scan(&range)
            .map(|r| r.unwrap().0.to_vec())
            .collect();
        let keys: Vec<Vec<u8>> = table
            .store()
            .scan_keys(&range)
            .map(|k| k.unwrap().to_vec())
            .collect();
        assert!(!rows.is_empty());
        assert_eq!(keys, rows, "scan_keys lists the keys scan reads, in order");
    }
}
