//! HBase figures, one run: rowkey's native store (`HbaseRpcStore`, HBase's own RPC), its Thrift2
//! store (`HbaseStore`, through the gateway) and HBase's own Java client, side by side on the
//! same local HBase (`hbase-local`, 3 region servers in one JVM), the same keys (the README's
//! 16-bucket salted `Event`, 16-byte values) and the same split points.
//!
//! Per client and round: one batch put of every row (rowkey: `Table::put_batch`; Java: a
//! `BufferedMutator` with a 4 MiB buffer), a full scan (rowkey: one plain scan of the table, as
//! the Java client's one `Scan` with caching 5,000, and the merged scan of the 16 buckets in
//! key order), and single-row gets one after another. First the region servers are warmed up
//! by both rowkey stores (a fifth of the rows, at most 200,000; not reported); then each round
//! runs the clients, each on a fresh table, the Java client in a JVM of its own that warms up
//! on the same number of rows before it is measured.
//!
//! Fairness: a client that went first once measured 2x below its rate when it went last
//! (the cluster's state, not the client). So each round starts with another client and the
//! rounds are a multiple of the clients (each goes first equally often), and between two
//! clients the cluster settles: the last table dropped, compactions drained, the region
//! servers' JVM collected (`settle` on hbase-local's control port). The table printed at the
//! end gives every round's figure, the median, the spread (lowest..highest), and each rowkey
//! store's median as a share of the Java client's.
//!
//! `cargo bench --features hbase,hbase-rpc --bench hbase -- [--rows N] [--gets N] [--rounds R]
//! [--clients native,thrift2,java]` (defaults 1,000,000 rows, 10,000 gets, 3 rounds, all three
//! clients). Uses the HBase that `ROWKEY_HBASE_THRIFT`,
//! `ROWKEY_HBASE_MASTER` and `ROWKEY_HBASE_ZK` name, or starts `hbase-local/run`.

#[path = "../../hbase-local/gateways.rs"]
mod gateways;

use std::collections::BTreeMap;
use std::time::Instant;

use rowkey::store::{HbaseRpcStore, HbaseStore, Store, Table};
use rowkey::{KeyRange, RowKey};

/// The README's key: 16 salt buckets.
#[derive(RowKey, Debug, Clone, PartialEq, Eq)]
struct Event {
    #[salt(buckets = 16)]
    user_id: u64,
    #[fixed(8)]
    kind: String,
    #[reverse_ts]
    ts: u64,
}

fn events(n: usize) -> Vec<Event> {
    (0..n as u64)
        .map(|i| Event {
            user_id: i % 5_003,
            kind: ["click", "view", "buy"][(i % 3) as usize].into(),
            ts: 1_700_000_000_000 + i * 7,
        })
        .collect()
}

/// One client's rates in one round (rows, or gets, per second).
#[derive(Clone, Copy, Default)]
struct Rates {
    put: f64,
    scan: f64,
    merged: f64,
    gets: f64,
}

/// One measure of [`Rates`].
type Measure = fn(&Rates) -> f64;

fn arg(args: &[String], name: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

/// Put, scans and gets through `store` (a fresh table, dropped after).
fn run_rowkey<S: Store>(store: S, rows: &[Event], gets: usize) -> Rates
where
    S::Error: 'static,
{
    let value = [7u8; 16];
    let table = Table::<_, Event>::new(store);
    let t = Instant::now();
    table
        .put_batch(rows.iter().map(|e| (e, &value[..])))
        .unwrap();
    let put = rows.len() as f64 / t.elapsed().as_secs_f64();

    let t = Instant::now();
    let mut n = 0usize;
    for row in table.store().scan(&KeyRange::new(b"", None)) {
        let (key, v) = row.unwrap();
        assert!(!key.is_empty() && v.len() == 16);
        n += 1;
    }
    assert_eq!(n, rows.len(), "the plain scan returns every row");
    let scan = n as f64 / t.elapsed().as_secs_f64();

    let t = Instant::now();
    let mut n = 0usize;
    for row in table.scan(&Event::scan().ranges()) {
        row.unwrap();
        n += 1;
    }
    assert_eq!(n, rows.len(), "the merged scan returns every row");
    let merged = n as f64 / t.elapsed().as_secs_f64();

    let step = (rows.len() / gets.max(1)).max(1);
    let t = Instant::now();
    for i in 0..gets {
        let found = table.get(&rows[(i * step) % rows.len()]).unwrap();
        assert!(found.is_some(), "get {i} found nothing");
    }
    let gets = gets as f64 / t.elapsed().as_secs_f64();
    Rates {
        put,
        scan,
        merged,
        gets,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n = arg(&args, "--rows", 1_000_000);
    let gets = arg(&args, "--gets", 10_000);
    let rounds = arg(&args, "--rounds", 3).max(1);
    // `--clients native,thrift2,java` (the default: all three) for profiling one alone.
    let clients: Vec<String> = args
        .iter()
        .position(|a| a == "--clients")
        .and_then(|i| args.get(i + 1))
        .map_or("native,thrift2,java", String::as_str)
        .split(',')
        .map(str::to_string)
        .collect();
    let wanted = |c: &str| clients.iter().any(|w| w == c);
    let all = ["native", "thrift2", "java"];
    let order: Vec<&str> = all.into_iter().filter(|c| wanted(c)).collect();
    // Every client first equally often.
    let rounds = rounds.div_ceil(order.len().max(1)) * order.len().max(1);
    let g = gateways::Gateways::from_env_or_start().expect(
        "no HBase: set ROWKEY_HBASE_THRIFT, ROWKEY_HBASE_MASTER and ROWKEY_HBASE_ZK, or \
         install Java 17 and Maven for hbase-local/run",
    );
    let (Some(master), Some(zk)) = (g.master.clone(), g.zk.clone()) else {
        panic!("the benchmark needs ROWKEY_HBASE_MASTER and ROWKEY_HBASE_ZK");
    };
    let rows = events(n);
    let splits = Event::split_points(16);
    let hex = |b: &[u8]| -> String { b.iter().map(|x| format!("{x:02x}")).collect() };
    // The workspace's target/ (beside hbase-local/), where cargo builds.
    let dir = gateways::run_script()
        .parent()
        .and_then(|d| d.parent())
        .map(|root| root.join("target/hbase-bench"))
        .expect("the repository's root");
    std::fs::create_dir_all(&dir).unwrap();
    let keys_file = dir.join("keys.hex");
    let keys: String = rows
        .iter()
        .map(|e| hex(&e.to_bytes().unwrap()) + "\n")
        .collect();
    std::fs::write(&keys_file, keys).unwrap();
    let splits_text: String = splits.iter().map(|s| hex(s) + "\n").collect();
    eprintln!(
        "{n} rows, {gets} gets, {rounds} rounds; master {master}, gateway {}",
        g.plain
    );

    let run = std::process::id();
    let warm = (n / 5).min(200_000);
    let rust = |client: &str, name: &str, rows: &[Event], gets: usize| -> Rates {
        if client == "native" {
            let store = HbaseRpcStore::connect(&master, name, "d").unwrap();
            store.create_table(&splits).unwrap();
            let r = run_rowkey(&store, rows, gets);
            store.drop_table().unwrap();
            r
        } else {
            let store = HbaseStore::connect(&g.plain, name, "d").unwrap();
            store.create_table(&splits).unwrap();
            let r = run_rowkey(&store, rows, gets);
            store.drop_table().unwrap();
            r
        }
    };
    // The region servers (and the gateway) warm up first: their JIT and caches otherwise favour
    // whichever client comes later.
    for client in ["native", "thrift2"].into_iter().filter(|c| wanted(c)) {
        rust(
            client,
            &format!("bench_warm_{client}_{run}"),
            &rows[..warm],
            0,
        );
    }
    let java = |round: usize| -> Rates {
        let table = format!("bench_java_{run}_{round}");
        let (gets, warm) = (gets.to_string(), warm.to_string());
        let out = gateways::java(
            &[
                "bench",
                "--zk",
                &zk,
                "--table",
                &table,
                "--keys",
                keys_file.to_str().unwrap(),
                "--gets",
                &gets,
                "--rounds",
                "1",
                "--warmup",
                &warm,
            ],
            &splits_text,
            "BENCH ",
        )
        .expect("HBase's Java client (hbase-local/run --tool bench)");
        let f = out.first().expect("a BENCH line from the Java client");
        let num = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
        assert_eq!(
            num(1) as usize,
            n,
            "the Java client's scan returned every row"
        );
        Rates {
            put: num(2),
            scan: num(3),
            merged: 0.0,
            gets: num(4),
        }
    };
    let mut results: BTreeMap<(&str, usize), Rates> = BTreeMap::new();
    for round in 1..=rounds {
        // Each round starts with another client.
        for k in 0..order.len() {
            let client = order[(round - 1 + k) % order.len()];
            // The cluster as the next client should find it: nothing queued, the JVM collected.
            g.settle();
            let rates = if client == "java" {
                java(round)
            } else {
                rust(
                    client,
                    &format!("bench_{client}_{run}_{round}"),
                    &rows,
                    gets,
                )
            };
            eprintln!(
                "round {round} {client}: put {:.0}, scan {:.0}, merged scan {:.0}, gets {:.0} /s",
                rates.put, rates.scan, rates.merged, rates.gets
            );
            results.insert((client, round), rates);
        }
    }
    if !wanted("java") {
        return;
    }

    // The table: one row per client and measure, one column per round, then the median and
    // the spread.
    let per_round = |client: &str, f: Measure| -> Vec<f64> {
        (1..=rounds)
            .map(|r| results.get(&(client, r)).map(f).unwrap_or(0.0))
            .collect()
    };
    let median = |mut v: Vec<f64>| -> f64 {
        v.sort_by(f64::total_cmp);
        let mid = v.len() / 2;
        if v.len().is_multiple_of(2) {
            (v[mid - 1] + v[mid]) / 2.0
        } else {
            v[mid]
        }
    };
    let spread = |v: &[f64]| -> String {
        let lo = v.iter().copied().fold(f64::MAX, f64::min);
        let hi = v.iter().copied().fold(f64::MIN, f64::max);
        format!("{lo:.0}..{hi:.0}")
    };
    let cols: Vec<String> = (1..=rounds)
        .map(|r| format!("round {r} ({} first)", order[(r - 1) % order.len()]))
        .collect();
    println!(
        "\n| rows/s ({n} rows, {gets} gets) | {} | median | spread |",
        cols.join(" | ")
    );
    println!("|---|{}", "---|".repeat(rounds + 2));
    let measures: [(&str, Measure); 4] = [
        ("put", |r| r.put),
        ("full scan", |r| r.scan),
        ("merged scan, 16 buckets", |r| r.merged),
        ("gets, one at a time", |r| r.gets),
    ];
    let label = |c: &str| match c {
        "native" => "rowkey HbaseRpcStore (native RPC)",
        "thrift2" => "rowkey HbaseStore (Thrift2 gateway)",
        _ => "HBase Java client",
    };
    let mut shares = Vec::new();
    for (m, f) in measures {
        for client in ["native", "thrift2", "java"] {
            if !wanted(client) || (client == "java" && m.starts_with("merged")) {
                continue;
            }
            let runs = per_round(client, f);
            let v: Vec<String> = runs.iter().map(|x| format!("{x:.0}")).collect();
            println!(
                "| {m}: {} | {} | {:.0} | {} |",
                label(client),
                v.join(" | "),
                median(runs.clone()),
                spread(&runs)
            );
        }
        if m.starts_with("merged") {
            continue;
        }
        for client in ["native", "thrift2"].into_iter().filter(|c| wanted(c)) {
            let per: Vec<f64> = per_round(client, f)
                .iter()
                .zip(per_round("java", f))
                .map(|(a, b)| a / b.max(1.0))
                .collect();
            let of_medians = median(per_round(client, f)) / median(per_round("java", f)).max(1.0);
            let v: Vec<String> = per.iter().map(|x| format!("{:.0}%", 100.0 * x)).collect();
            println!(
                "| {m}: {} median / Java's median | {} | **{:.2}x** | {:.0}%..{:.0}% |",
                if client == "native" {
                    "native"
                } else {
                    "Thrift2"
                },
                v.join(" | "),
                of_medians,
                100.0 * per.iter().copied().fold(f64::MAX, f64::min),
                100.0 * per.iter().copied().fold(f64::MIN, f64::max),
            );
            shares.push((m, client, of_medians));
        }
    }
    println!();
    for (m, client, x) in shares {
        println!("median {m}: {client} {x:.2}x the Java client");
    }
}
