//! Bulk loads on HBase: rows loaded through HFiles (`Table::bulk_load` on a native store with a
//! `bulk_load_dir`: HFiles written per region, then `BulkLoadHFile`) against the same rows
//! written with `Table::put_batch` (the native store's `Multi` calls), on the same local HBase
//! (`hbase-local`, 3 region servers in one JVM), each load into a fresh table pre-split in 8
//! regions, the two methods alternating which goes first, the cluster settled before each. Rows: the README's 16-bucket salted
//! `Event` key, 16-byte values. Prints each round's rows per second and the bulk load's split
//! into writing and loading, then the medians and their ratio.
//!
//! `cargo bench -p rowkey-benches --features hbase-rpc --bench hbase_bulk -- [--rows N]
//! [--rounds R]` (defaults 2,000,000 rows, 3 rounds). Uses the HBase `ROWKEY_HBASE_MASTER`
//! names, or starts `hbase-local/run`.

#[path = "../hbase-local/gateways.rs"]
mod gateways;

use std::time::Instant;

use rowkey::store::{HbaseRpcConfig, HbaseRpcStore, Store, Table};
use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq, Eq)]
struct Event {
    #[salt(buckets = 16)]
    user_id: u64,
    #[fixed(8)]
    kind: String,
    #[reverse_ts]
    ts: u64,
}

fn arg(args: &[String], name: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = arg(&args, "--rows", 2_000_000);
    let rounds = arg(&args, "--rounds", 3);
    let Some(g) = gateways::Gateways::from_env_or_start() else {
        eprintln!("no HBase: `hbase-local/run` did not start");
        return;
    };
    let master = g.master.clone().expect("a master");
    let rows: Vec<Event> = (0..n as u64)
        .map(|i| Event {
            user_id: i % 100_003,
            kind: ["click", "view", "buy"][(i % 3) as usize].into(),
            ts: 1_700_000_000_000 + i,
        })
        .collect();
    let value = [7u8; 16];
    let staging = tempfile::tempdir().unwrap();
    let run = std::process::id();
    let table = |name: &str, bulk: bool| {
        let mut cfg = HbaseRpcConfig::new(&master, name, "d");
        if bulk {
            cfg = cfg.bulk_load_dir(staging.path());
        }
        let store = HbaseRpcStore::with_config(cfg).unwrap();
        store.create_table(&Event::split_points(8)).unwrap();
        Table::<_, Event>::new(store)
    };
    println!("{n} rows of a 16-bucket salted key, 16-byte values, tables of 8 regions");
    let (mut put, mut bulk) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let order = if round % 2 == 0 {
            ["put", "bulk"]
        } else {
            ["bulk", "put"]
        };
        for method in order {
            // Each method finds the cluster settled: the last table's compactions drained.
            g.settle();
            let t = table(
                &format!("bench_bulk_{run}_{round}_{method}"),
                method == "bulk",
            );
            let start = Instant::now();
            if method == "bulk" {
                let encoded: Vec<rowkey::store::Row> = rows
                    .iter()
                    .map(|e| {
                        (
                            e.to_bytes().unwrap().to_vec().into(),
                            rowkey::bytes::Bytes::copy_from_slice(&value),
                        )
                    })
                    .collect();
                let encoding = start.elapsed().as_secs_f64();
                let report = t.store().bulk_load(encoded, staging.path()).unwrap();
                let secs = start.elapsed().as_secs_f64();
                println!(
                    "round {round} bulk load: {:>9.0} rows/s ({secs:.2} s: keys encoded in {encoding:.2} s, sorted in {:.2} s; per file, summed: writing {:.2} s, loading {:.2} s; {} files, {} MiB)",
                    n as f64 / secs,
                    report.sorting.as_secs_f64(),
                    report.writing.as_secs_f64(),
                    report.loading.as_secs_f64(),
                    report.files,
                    report.bytes >> 20
                );
                bulk.push(n as f64 / secs);
            } else {
                for chunk in rows.chunks(100_000) {
                    t.put_batch(chunk.iter().map(|e| (e, &value[..]))).unwrap();
                }
                let secs = start.elapsed().as_secs_f64();
                println!(
                    "round {round} put_batch: {:>9.0} rows/s ({secs:.2} s)",
                    n as f64 / secs
                );
                put.push(n as f64 / secs);
            }
            // Both read back the same number of rows.
            let mut count = 0usize;
            for r in t.store().scan(&rowkey::KeyRange::new(b"", None)) {
                r.unwrap();
                count += 1;
            }
            assert_eq!(count, n, "{method}: every row is there");
            t.store().drop_table().unwrap();
        }
    }
    let ratios: Vec<f64> = bulk.iter().zip(&put).map(|(b, p)| b / p).collect();
    let (lo, hi) = ratios
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), r| (l.min(*r), h.max(*r)));
    println!(
        "median: bulk load {:.0} rows/s, put_batch {:.0} rows/s: {:.2}x ({lo:.2}..{hi:.2})",
        median(bulk.clone()),
        median(put.clone()),
        median(ratios.clone())
    );
}
