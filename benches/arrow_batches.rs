//! Arrow record batches (`rowkey-arrow`) against a hand-written loop, in one run, on the same
//! data: 1,000,000 rows of the README's `Event` key (16 salt buckets, a 16-byte value) on fjall,
//! settled. Each side sums `user_id` over the whole table:
//!
//! - `typed_loop`: `Table::scan` (the salted buckets merged back into key order, each key
//!   decoded into `Event`), summing the field row by row: what a user writes without Arrow;
//! - `typed_unmerged`: the store's scan in stored order, each key decoded with `Event::decode`;
//! - `arrow`: `rowkey_arrow::batches` over the store's scan (batches of 8,192 rows, every field
//!   a column, the value a `Binary` column), then the `user_id` column summed per batch;
//! - `arrow_projected`: the same with `user_id` alone built (an engine's projection; every
//!   field still read and checked).
//!
//! Issue 59 asks the Arrow side to stay within 1.5x of the typed loop. Run:
//! `cargo bench -p rowkey-benches --bench arrow_batches` (ROWKEY_BENCH_ROWS to resize); prints the
//! ratios at the end.

#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use common::median_ns;
use criterion::{Criterion, Throughput};
use rowkey::store::{FjallStore, Store, Table};
use rowkey::{KeyRange, RowKey};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    #[salt(buckets = 16)]
    user_id: u64,
    event_type: String,
    #[reverse_ts]
    ts: u64,
}

const TYPES: [&str; 4] = ["click", "view", "purchase", "search"];

fn main() {
    let n: u64 = std::env::var("ROWKEY_BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let dir = tempfile::tempdir().unwrap();
    let store = FjallStore::open(dir.path(), "events").unwrap();
    let table = Table::<_, Event>::new(store.clone());
    let value = [7u8; 16];
    let rows: Vec<Event> = (0..n)
        .map(|i| Event {
            user_id: i % 2_000,
            event_type: TYPES[((i / 2_000) % 4) as usize].into(),
            ts: 1_700_000_000_000 + i,
        })
        .collect();
    for chunk in rows.chunks(10_000) {
        table
            .put_batch(chunk.iter().map(|e| (e, &value[..])))
            .unwrap();
    }
    let ks = store.keyspace().clone();
    ks.rotate_memtable_and_wait().unwrap();
    ks.major_compact().unwrap();
    let want: u64 = rows.iter().map(|e| e.user_id).sum();
    drop(rows);

    let all = Event::scan().ranges();
    let whole = KeyRange::new(b"", None);
    let typed_loop = || {
        let mut sum = 0u64;
        for row in table.scan(&all) {
            let (key, value) = row.unwrap();
            black_box(&value);
            sum += key.user_id;
        }
        sum
    };
    let typed_unmerged = || {
        let mut sum = 0u64;
        for row in store.scan(&whole) {
            let (key, value) = row.unwrap();
            black_box(&value);
            sum += Event::decode(&key).unwrap().user_id;
        }
        sum
    };
    // The sum of the first column over every batch of the whole table, built with `options`.
    let arrow_sum = |options: &rowkey_arrow::Options| {
        let mut sum = 0u64;
        for batch in
            rowkey_arrow::batches(store.scan(&whole), Event::SCHEMA, options, 8_192).unwrap()
        {
            let batch = batch.unwrap();
            sum += batch
                .column(0)
                .as_primitive::<UInt64Type>()
                .values()
                .iter()
                .sum::<u64>();
        }
        sum
    };
    let options = rowkey_arrow::Options::default().value_column("value");
    let projected = rowkey_arrow::Options::default().project(["user_id"]);
    let arrow = || arrow_sum(&options);
    let arrow_projected = || arrow_sum(&projected);
    // One untimed pass of each first (the block cache warmed for all), and the sums checked.
    assert_eq!(typed_loop(), want);
    assert_eq!(typed_unmerged(), want);
    assert_eq!(arrow(), want);
    assert_eq!(arrow_projected(), want);

    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5))
        .sample_size(10)
        .configure_from_args();
    let mut g = c.benchmark_group("sum_user_id");
    g.throughput(Throughput::Elements(n));
    g.bench_function("typed_loop", |b| b.iter(|| black_box(typed_loop())));
    g.bench_function("typed_unmerged", |b| b.iter(|| black_box(typed_unmerged())));
    g.bench_function("arrow", |b| b.iter(|| black_box(arrow())));
    g.bench_function("arrow_projected", |b| {
        b.iter(|| black_box(arrow_projected()))
    });
    g.finish();
    c.final_summary();

    println!(
        "\n{:<32} {:>12} {:>8}",
        "sum of user_id (median)", "ns/row", "ratio"
    );
    let base = median_ns("sum_user_id", "typed_loop");
    for name in ["typed_loop", "typed_unmerged", "arrow", "arrow_projected"] {
        if let (Some(t), Some(b)) = (median_ns("sum_user_id", name), base) {
            println!("{name:<32} {:>12.1} {:>8.2}", t / n as f64, t / b);
        }
    }
}
