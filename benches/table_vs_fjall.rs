//! `Table` over `FjallStore` against raw fjall, in one run, on the same data: 1,000,000 rows of
//! the README's `Event` key (16 salt buckets, 16-byte values), the fjall database opened
//! exactly as `FjallStore::open` opens it. The raw side is what a careful user would write by
//! hand: the same key bytes, fjall's own iterators merged with a binary heap on the key after
//! the salt byte, fields decoded by hand (salt trusted, as HBase clients do).
//!
//! - full merged scan of all 16 buckets (per row);
//! - narrow scan: one user, one event type, a time window of 1,000 rows (per query);
//! - point get of random existing keys (per get);
//! - batch write of 10,000 rows into a fresh keyspace (per row), and `FjallStore::bulk_load`.
//!
//! The reads run on a settled tree (memtable flushed, tables compacted), so no background
//! flush or compaction from the load runs during either side's measurement.
//!
//! Run: `cargo bench --bench table_vs_fjall` (a few minutes; ROWKEY_BENCH_ROWS to resize), and
//! with `--features fjall-shared` for fjall's `bytes_1` build (rows shared, not copied: both
//! sides change, since they use the same fjall). Prints the ratios at the end.

#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use common::{median_ns, EventRef};
use criterion::{BatchSize, Criterion, Throughput};
use rowkey::store::{FjallStore, Table};
use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    #[salt(buckets = 16)]
    user_id: u64,
    #[fixed(16)]
    event_type: String,
    #[reverse_ts]
    ts: u64,
}

const TYPES: [&str; 4] = ["click", "view", "purchase", "search"];
const USERS: u64 = 2_000;

fn events(n: usize) -> Vec<Event> {
    (0..n as u64)
        .map(|i| Event {
            user_id: i % USERS,
            event_type: TYPES[((i / USERS) % 4) as usize].into(),
            ts: 1_700_000_000_000 + i,
        })
        .collect()
}

/// `Table::scan_raw` with keys decoded borrowed: no allocation per row on rowkey's side.
fn table_borrowed(table: &Table<FjallStore, Event>, ranges: &rowkey::KeyRanges) -> usize {
    let mut n = 0;
    for row in table.scan_raw(ranges) {
        let (key, value) = row.unwrap();
        black_box((EventRef::decode_trusted(&key).unwrap(), &value));
        n += 1;
    }
    n
}

/// The hand-written decoder of the raw side: `[salt][u64][16 bytes zero-padded][!ts]`.
fn hand_decode(k: &[u8]) -> (u64, &[u8], u64) {
    let user = u64::from_be_bytes(k[1..9].try_into().unwrap());
    let t = &k[9..25];
    let end = t.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let rev = u64::from_be_bytes(k[25..33].try_into().unwrap());
    (user, &t[..end], (i64::MAX as u64) - rev)
}

/// The raw side's merged scan: one fjall iterator per bucket range, merged by hand.
fn raw_merged(ks: &fjall::Keyspace, ranges: &rowkey::KeyRanges) -> usize {
    let iters = ranges
        .iter()
        .map(|r| match r.end() {
            Some(e) => ks.range(r.start().to_vec()..e.to_vec()),
            None => ks.range(r.start().to_vec()..),
        })
        .collect();
    common::raw_merge(iters, |key, value| {
        black_box((hand_decode(key), value));
    })
}

fn main() {
    let n: usize = std::env::var("ROWKEY_BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let rows = events(n);
    let value = [7u8; 16];
    let dir = tempfile::tempdir().unwrap();
    let store = FjallStore::open(dir.path(), "events").unwrap();
    let table = Table::<_, Event>::new(store.clone());
    for chunk in rows.chunks(10_000) {
        table
            .put_batch(chunk.iter().map(|e| (e, &value[..])))
            .unwrap();
    }
    let ks = store.keyspace().clone();
    // Settle the tree before measuring: the load leaves a memtable to flush and tables to
    // compact on fjall's background threads, which would compete (on 2 cores) with whichever
    // side runs first. Flushed and compacted, both sides read the same on-disk tables.
    ks.rotate_memtable_and_wait().unwrap();
    ks.major_compact().unwrap();
    let keys: Vec<Vec<u8>> = rows
        .iter()
        .map(|e| e.to_bytes().unwrap().to_vec())
        .collect();

    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(4))
        .sample_size(10)
        .configure_from_args();

    let all = Event::scan().ranges();
    // One untimed pass of each side first, so that neither pays for warming the block cache
    // (without it, whichever side ran first measured 20-50% slower, in either order).
    assert_eq!(raw_merged(&ks, &all), n);
    assert_eq!(table.scan(&all).count(), n);
    let mut g = c.benchmark_group("full_scan");
    g.throughput(Throughput::Elements(n as u64));
    g.bench_function("table", |b| {
        b.iter(|| {
            let mut count = 0usize;
            for row in table.scan(&all) {
                black_box(row.unwrap());
                count += 1;
            }
            assert_eq!(count, n);
        })
    });
    g.bench_function("table_verified", |b| {
        b.iter(|| {
            let mut count = 0usize;
            for row in table.scan_verified(&all) {
                black_box(row.unwrap());
                count += 1;
            }
            assert_eq!(count, n);
        })
    });
    g.bench_function("table_raw_borrowed", |b| {
        b.iter(|| assert_eq!(table_borrowed(&table, &all), n))
    });
    g.bench_function("raw", |b| b.iter(|| assert_eq!(raw_merged(&ks, &all), n)));
    g.finish();

    // One user's clicks in a window of 1,000 (ts are i, users i % 2000: a user's row every
    // 2,000 ts; its clicks every 8,000).
    let user = 42u64;
    let t0 = 1_700_000_000_000u64;
    let t1 = t0 + 8_000 * 1_000;
    let narrow = Event::scan()
        .user_id(user)
        .event_type("click")
        .ts(t0..t1)
        .ranges();
    let mut g = c.benchmark_group("narrow_scan");
    g.bench_function("table", |b| {
        b.iter(|| {
            let mut got = 0usize;
            for row in table.scan(&narrow) {
                black_box(row.unwrap());
                got += 1;
            }
            black_box(got)
        })
    });
    g.bench_function("table_raw_borrowed", |b| {
        b.iter(|| black_box(table_borrowed(&table, &narrow)))
    });
    g.bench_function("raw", |b| b.iter(|| black_box(raw_merged(&ks, &narrow))));
    g.finish();

    let probe: Vec<usize> = (0..10_000).map(|i| (i * 7_919) % n).collect();
    let mut g = c.benchmark_group("get");
    g.throughput(Throughput::Elements(probe.len() as u64));
    g.bench_function("table", |b| {
        b.iter(|| {
            for &i in &probe {
                black_box(table.get(&rows[i]).unwrap().unwrap());
            }
        })
    });
    g.bench_function("raw", |b| {
        b.iter(|| {
            for &i in &probe {
                black_box(ks.get(&keys[i]).unwrap().unwrap());
            }
        })
    });
    g.finish();

    let batch: Vec<Event> = rows[..10_000].to_vec();
    let fresh = || {
        let d = tempfile::tempdir().unwrap();
        let s = FjallStore::open(d.path(), "w").unwrap();
        (d, s)
    };
    let mut g = c.benchmark_group("write_10k");
    g.throughput(Throughput::Elements(batch.len() as u64));
    g.bench_function("table", |b| {
        b.iter_batched(
            fresh,
            |(d, s)| {
                Table::<_, Event>::new(s.clone())
                    .put_batch(batch.iter().map(|e| (e, &value[..])))
                    .unwrap();
                (d, s)
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("table_bulk_load", |b| {
        b.iter_batched(
            fresh,
            |(d, s)| {
                Table::<_, Event>::new(s.clone())
                    .bulk_load(batch.iter().map(|e| (e, &value[..])))
                    .unwrap();
                (d, s)
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("raw_ingest", |b| {
        b.iter_batched(
            fresh,
            |(d, s)| {
                // What `bulk_load` does, by hand: sorted keys through fjall's ingestion.
                let mut sorted: Vec<(Vec<u8>, &[u8])> = batch
                    .iter()
                    .map(|e| (Vec::from(e.to_bytes().unwrap()), &value[..]))
                    .collect();
                sorted.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                let mut ingestion = s.keyspace().start_ingestion().unwrap();
                for (k, v) in sorted {
                    ingestion.write(k, v).unwrap();
                }
                ingestion.finish().unwrap();
                (d, s)
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("raw", |b| {
        b.iter_batched(
            fresh,
            |(d, s)| {
                let mut wb = s.database().batch();
                for e in &batch {
                    let mut k = [0u8; Event::MAX_LEN];
                    let len = e.encode_to_slice(&mut k).unwrap();
                    wb.insert(s.keyspace(), &k[..len], &value[..]);
                }
                wb.commit().unwrap();
                (d, s)
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
    c.final_summary();

    println!(
        "\n{:<44} {:>14} {:>14} {:>8}",
        "operation (median)", "Table", "raw fjall", "ratio"
    );
    // Medians are per iteration; each row's divisor turns them into the unit shown.
    for (group, name, raw, unit, per) in [
        ("full_scan", "table", "raw", "ns/row", n as f64),
        ("full_scan", "table_verified", "raw", "ns/row", n as f64),
        ("full_scan", "table_raw_borrowed", "raw", "ns/row", n as f64),
        ("narrow_scan", "table", "raw", "us/query", 1_000.0),
        (
            "narrow_scan",
            "table_raw_borrowed",
            "raw",
            "us/query",
            1_000.0,
        ),
        ("get", "table", "raw", "ns/get", probe.len() as f64),
        ("write_10k", "table", "raw", "ns/row", batch.len() as f64),
        (
            "write_10k",
            "table_bulk_load",
            "raw_ingest",
            "ns/row",
            batch.len() as f64,
        ),
    ] {
        let (Some(t), Some(r)) = (median_ns(group, name), median_ns(group, raw)) else {
            continue;
        };
        println!(
            "{:<44} {:>10.1} {unit:<8} {:>10.1} {:>8.2}",
            format!("{group}/{name} vs {raw}"),
            t / per,
            r / per,
            t / r
        );
    }
}
