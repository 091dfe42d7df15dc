//! Rows of cells at the sizes users have, on the networked stores (not beside the large raw
//! scan, whose peak-memory check measures the whole process: `net::LARGE`).

use rowkey::store::{CellTable, Store};
use rowkey::RowValue;

use super::Reading;

/// Two columns in the default family `d`.
#[derive(RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
pub struct Small {
    #[column(name = "n")]
    pub n: i64,
    #[column(name = "t")]
    pub t: String,
}

/// `n` typed rows of two cells over 8 salt buckets, at the sizes users have: written in one
/// batch, read back by a merged scan (every row, in logical order, values intact), a merged
/// reverse scan, and one sensor's rows.
pub fn large_cell_scan<S: Store>(store: S, n: u32) {
    // Not beside the large raw scan, whose peak-memory check measures the whole process.
    let _alone = super::net::LARGE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let table: CellTable<S, Reading, Small> = CellTable::new(store);
    let key = |i: u32| Reading {
        sensor: i % 1_000,
        ts: u64::from(i),
        kind: "k".into(),
    };
    let value = |i: u32| Small {
        n: -i64::from(i),
        t: format!("row {i}"),
    };
    let keys: Vec<Reading> = (0..n).map(key).collect();
    let values: Vec<Small> = (0..n).map(value).collect();
    let start = std::time::Instant::now();
    table.put_batch(keys.iter().zip(&values)).unwrap();
    let wrote = start.elapsed();
    let logical = |r: &Reading| (r.sensor, std::cmp::Reverse(r.ts));
    let start = std::time::Instant::now();
    let mut count = 0u32;
    let mut last: Option<(u32, std::cmp::Reverse<u64>)> = None;
    for row in table.scan(&Reading::scan().ranges()) {
        let (k, v) = row.unwrap();
        let i = u32::try_from(k.ts).unwrap();
        assert_eq!(v, value(i), "row {i}");
        assert!(
            last < Some(logical(&k)),
            "merged scan out of order at {k:?}"
        );
        last = Some(logical(&k));
        count += 1;
    }
    let read = start.elapsed();
    assert_eq!(count, n, "every row comes back");
    if let Some(rev) = table.scan_rev(&Reading::scan().ranges()) {
        let mut back = 0usize;
        for row in rev {
            row.unwrap();
            back += 1;
        }
        assert_eq!(back, n as usize);
    }
    let one: Vec<u64> = table
        .scan(&Reading::scan().sensor(7).ranges())
        .map(|r| r.unwrap().0.ts)
        .collect();
    let want: Vec<u64> = (0..n)
        .rev()
        .filter(|i| i % 1_000 == 7)
        .map(u64::from)
        .collect();
    assert_eq!(one, want);
    eprintln!(
        "{n} rows of cells: written in {:.1} s, merged scan {:.0} rows/s",
        wrote.as_secs_f64(),
        f64::from(n) / read.as_secs_f64()
    );
}
