//! Rows as columns: a `#[row_span(N)]` key's bytes are a row key and a column qualifier, and
//! a range of logical keys becomes exact rows plus qualifier ranges on the edge rows. The
//! shared suite (`store_suite::wide`) runs here on memory and fjall: random logical ranges
//! against a brute-force filter, forward and reverse.

mod store_suite;

use rowkey::store::{Columns, MemStore, Store};
use rowkey::{RowKey, RowsAsColumns};
use store_suite::wide::{Point, HOUR, T0};

#[test]
fn the_row_key_ends_after_the_bucket_start() {
    let p = Point {
        metric: "cpu".into(),
        host: "h1".into(),
        ts: T0 + 123,
        seq: 9,
    };
    let bytes = p.to_bytes().unwrap();
    let (row, qualifier) = Point::split_key(&bytes).unwrap();
    // salt, "cpu" 00 01, "h1" 00 01, the hour's start (u64); the offset (4 bytes for an hour
    // of milliseconds) and seq in the qualifier.
    assert_eq!(row.len(), 1 + 5 + 4 + 8);
    assert_eq!(&row[10..], &T0.to_be_bytes());
    assert_eq!(qualifier, [&123u32.to_be_bytes()[..], &[9]].concat());
    assert_eq!(Point::decode(&bytes).unwrap(), p);
    // A bound on the row key alone has no qualifier part.
    assert_eq!(Point::row_key_len(&bytes[..12]), None);
    // Bytes no value encodes to are refused: an offset past the span, a bucket off its grid.
    let mut bad = bytes.to_vec();
    bad[18..22].copy_from_slice(&(HOUR as u32).to_be_bytes());
    assert!(Point::decode_trusted(&bad).is_err());
    let mut bad = bytes.to_vec();
    bad[17] ^= 1;
    assert!(Point::decode_trusted(&bad).is_err());
}

#[test]
fn one_row_holds_an_hour_of_a_series() {
    let (table, data) = store_suite::wide::load(MemStore::new());
    let rows: Vec<_> = table
        .store()
        .scan_rows(&rowkey::KeyRange::new(&[], None), &Columns::all())
        .map(Result::unwrap)
        .collect();
    // 3 metrics x 3 hosts x 5 hours, every point a cell of its row.
    assert_eq!(rows.len(), 45);
    let cells: usize = rows.iter().map(|r| r.cells.len()).sum();
    assert_eq!(cells, data.len());
    // A ten-minute read plans one row and one qualifier range.
    let ranges = Point::scan()
        .metric("cpu")
        .host("a")
        .ts(T0 + HOUR + 60_000..T0 + HOUR + 660_000)
        .ranges();
    let plan = table.plan(&ranges);
    assert_eq!(plan.len(), 1);
    assert_eq!(plan[0].len(), 1);
    assert!(plan[0][0].qualifiers.is_some());
}

#[test]
fn random_ranges_in_memory() {
    store_suite::wide::exercise_wide(MemStore::new(), 300);
}

#[cfg(feature = "fjall")]
#[test]
fn random_ranges_on_fjall() {
    let dir = tempfile::tempdir().unwrap();
    let store = rowkey::store::FjallStore::open(dir.path(), "points").unwrap();
    store_suite::wide::exercise_wide(store, 150);
}

#[cfg(feature = "async")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_ranges_in_memory_async() {
    store_suite::wide::exercise_wide_async(MemStore::new(), 200).await;
}
