//! The main job: the HBase guide's log-data case study on the embedded store.
//!
//! A million log events (host, event type, timestamp) are written three times, under the
//! guide's three row-key designs, into tables pre-split into regions:
//!
//! - `[timestamp][host][event]`: the timestamp leads (what the guide warns against);
//! - `[bucket][timestamp][host][event]`: salted over 16 buckets;
//! - `[host][Long.MAX_VALUE - timestamp][event]`: the host leads, newest first;
//! - `[host][event][hour]` rows with one column per event (the offset within the hour as the
//!   qualifier): rows as columns, the OpenTSDB way.
//!
//! It counts the writes each region receives (the hotspot, as a bar chart, with the max/mean
//! skew and the write rate), then runs the typical reads (the latest events of one host, a time
//! window across all hosts) and shows how many ranges, rows and cells each design had to
//! touch, and what each design's cell coordinates cost.
//!
//! Run: `cargo run --release --example log_data [-- --events N --regions N]`; with
//! `--features metrics` and `--metrics 127.0.0.1:9000`, the network stores' client metrics are
//! served for Prometheus while it runs.
//!
//! Every table's one column family, `d`, is declared with the guide's log-data retention (a
//! 30-day TTL, `EVENTS_FAMILY`): on HBase and Bigtable the tables are created from that
//! declaration, with each design's key layout recorded (a table written with another key layout
//! is refused), and read back to show that nothing differs (the diff is empty); the job ends
//! with a capacity plan for a year of its event rate.
//!
//! On HBase (`--features hbase -- --store hbase` through the Thrift2 gateway, or
//! `--features hbase-rpc -- --store hbase-rpc` over HBase's own RPC) the tables are real
//! pre-split HBase tables and the writes per region are also shown as HBase itself counts them
//! (each region's write request counter, read through HBase's Java client), with each region
//! server's share.

use std::error::Error;
use std::io::{IsTerminal, Write as _};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rowkey::store::{
    AtomicStore, BatchError, CellError, CellRow, CellScan, Columns, FjallStore, Row, RowWrite,
    Store, Table, UidTable, WideTable,
};
use rowkey::{
    human_bytes, split, CellFormat, KeyRange, KeyRanges, RowKey, RowsAsColumns, SizeBudget,
};

/// The guide's first warning: the timestamp leads, so every new row sorts after the last one.
#[derive(RowKey, Debug, Clone)]
#[rowkey(allow_hotspot)]
struct TsLead {
    #[timestamp]
    ts: u64,
    host: String,
    event: String,
}

/// `[bucket][timestamp]...`: a salt byte over the timestamp spreads writes over 16 buckets.
#[derive(RowKey, Debug, Clone)]
struct Salted {
    #[salt(buckets = 16)]
    #[timestamp]
    ts: u64,
    host: String,
    event: String,
}

/// The host leads and the timestamp is reversed: one host's latest events come first.
#[derive(RowKey, Debug, Clone)]
struct HostLead {
    host: String,
    #[reverse_ts]
    ts: u64,
    event: String,
}

/// Rows as columns: one row per host, event type and hour; each event is one column whose
/// qualifier is its millisecond within the hour.
#[derive(RowKey, Debug, Clone)]
struct HostHour {
    host: String,
    event: String,
    #[row_span(3_600_000)]
    ts: u64,
}

/// The guide's lookup-table design (its `LOG_TYPES`): host and event type as short ids from
/// lookup tables (`UidTable`: 2 bytes for hosts, 1 for event types), then the reversed
/// timestamp: `[host id][event type id][reverse timestamp]`, 11 bytes where the host-led key
/// carries the names.
#[derive(RowKey, Debug, Clone)]
struct HostIdLead {
    #[uid(kind = "host")]
    host: u16,
    #[uid(kind = "event")]
    event: u8,
    #[reverse_ts]
    ts: u64,
}

/// The value every design stores per event.
const VALUE: &[u8] = b"{\"msg\":\"...\"}";

const EVENTS: [&str; 5] = ["login", "click", "error", "purchase", "logout"];
const T0: u64 = 1_700_000_000_000;

/// The events' column family: the guide's log data is kept a month (the TTL counts from each
/// cell's write time), one version per cell.
const EVENTS_FAMILY: rowkey::family::Family =
    rowkey::family::Family::new("d").ttl_secs(30 * 86_400);
/// Milliseconds between events: a million events span about 17 hours.
const STEP: u64 = 60;

/// One generated log event.
struct Event {
    ts: u64,
    host: usize,
    event: usize,
}

/// Host names as real fleets have them: different prefixes, not `host-000..host-099`.
fn host_name(i: usize) -> String {
    const PREFIX: [&str; 10] = [
        "api", "batch", "cache", "db", "edge", "front", "gw", "log", "mq", "web",
    ];
    format!("{}-{:02}.dc{}", PREFIX[i % 10], i / 10, i % 3)
}

/// A deterministic stream of events in arrival (time) order.
fn events(n: usize, hosts: usize) -> impl Iterator<Item = Event> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..n as u64).map(move |i| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        Event {
            ts: T0 + i * STEP,
            host: (x % hosts as u64) as usize,
            event: ((x >> 32) % 5) as usize,
        }
    })
}

/// A store that counts the rows (and cells) its scans return: what each read "touched".
struct Counted<S> {
    inner: S,
    rows: AtomicUsize,
    cells: AtomicUsize,
}

impl<S: Store> Counted<S> {
    /// Rows and cells touched since the last call (a raw row is one cell).
    fn take(&self) -> (usize, usize) {
        let rows = self.rows.swap(0, Ordering::Relaxed);
        let cells = self.cells.swap(0, Ordering::Relaxed);
        (rows, rows.max(cells))
    }

    fn count_cells<'a>(&'a self, scan: CellScan<'a, S::Error>) -> CellScan<'a, S::Error> {
        Box::new(scan.inspect(move |row| {
            if let Ok(row) = row {
                self.rows.fetch_add(1, Ordering::Relaxed);
                self.cells.fetch_add(row.cells.len(), Ordering::Relaxed);
            }
        }))
    }
}

impl<S: Store> Store for Counted<S> {
    type Error = S::Error;
    type Scan<'a>
        = std::iter::Inspect<S::Scan<'a>, Box<dyn FnMut(&Result<Row, S::Error>) + 'a>>
    where
        Self: 'a;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), S::Error> {
        self.inner.put(key, value)
    }
    fn get(&self, key: &[u8]) -> Result<Option<rowkey::bytes::Bytes>, S::Error> {
        self.inner.get(key)
    }
    fn delete(&self, key: &[u8]) -> Result<(), S::Error> {
        self.inner.delete(key)
    }
    fn write_batch(&self, rows: &[Row]) -> Result<(), rowkey::store::BatchError<S::Error>> {
        self.inner.write_batch(rows)
    }
    fn load(&self, rows: Vec<Row>) -> Result<(), rowkey::store::BatchError<S::Error>> {
        self.inner.load(rows)
    }
    fn scan(&self, range: &KeyRange) -> Self::Scan<'_> {
        let counter = &self.rows;
        self.inner.scan(range).inspect(Box::new(move |_| {
            counter.fetch_add(1, Ordering::Relaxed);
        }))
    }
    fn scan_rev(&self, range: &KeyRange) -> Option<Self::Scan<'_>> {
        let counter = &self.rows;
        Some(self.inner.scan_rev(range)?.inspect(Box::new(move |_| {
            counter.fetch_add(1, Ordering::Relaxed);
        })))
    }
    // Rows of cells go to the store's own cell methods (native on Bigtable and HBase).
    fn write_rows(&self, rows: &[RowWrite]) -> Result<(), BatchError<S::Error>> {
        self.inner.write_rows(rows)
    }
    fn read_row(
        &self,
        key: &[u8],
        columns: &Columns,
    ) -> Result<Option<CellRow>, CellError<S::Error>> {
        self.inner.read_row(key, columns)
    }
    fn delete_row(&self, key: &[u8]) -> Result<(), CellError<S::Error>> {
        self.inner.delete_row(key)
    }
    fn scan_rows(&self, range: &KeyRange, columns: &Columns) -> CellScan<'_, S::Error> {
        self.count_cells(self.inner.scan_rows(range, columns))
    }
    fn scan_rows_rev(&self, range: &KeyRange, columns: &Columns) -> Option<CellScan<'_, S::Error>> {
        Some(self.count_cells(self.inner.scan_rows_rev(range, columns)?))
    }
}

/// The 10 newest timestamps among the rows of `ranges` that `pick` accepts: a reverse scan of
/// each range, stopping at 10 matches, where the store has reverse scans; otherwise a forward
/// scan of everything, keeping the newest.
fn latest<S: Store>(
    store: &S,
    ranges: &KeyRanges,
    pick: impl Fn(&[u8]) -> Option<u64>,
) -> Result<Vec<u64>, Box<dyn Error>>
where
    S::Error: 'static,
{
    let mut found = Vec::new();
    for range in ranges {
        match store.scan_rev(range) {
            Some(rows) => {
                let mut here = 0;
                for row in rows {
                    if let Some(ts) = pick(&row?.0) {
                        found.push(ts);
                        here += 1;
                        if here == 10 {
                            break;
                        }
                    }
                }
            }
            None => {
                for row in store.scan(range) {
                    if let Some(ts) = pick(&row?.0) {
                        found.push(ts);
                    }
                }
            }
        }
    }
    found.sort_unstable_by(|a, b| b.cmp(a));
    found.truncate(10);
    Ok(found)
}

/// Progress on one line of a terminal; a few milestones otherwise.
fn progress(label: &str, done: usize, total: usize) {
    let tty = std::io::stderr().is_terminal();
    if tty {
        let width = 30;
        let filled = done * width / total.max(1);
        eprint!(
            "\r  {label:<10} [{}{}] {done}/{total}",
            "#".repeat(filled),
            ".".repeat(width - filled)
        );
        if done == total {
            eprintln!();
        }
    } else if done == total {
        eprintln!("  {label:<10} {done}/{total} written");
    }
    let _ = std::io::stderr().flush();
}

/// Writes every event under one design, counting writes per pre-split region.
fn ingest<S: Store, K: RowKey>(
    label: &str,
    table: &Table<S, K>,
    n: usize,
    hosts: usize,
    splits: &[rowkey::bytes::Bytes],
    key: impl Fn(&Event) -> Result<K, Box<dyn Error>>,
) -> Result<(Vec<usize>, f64), Box<dyn Error>>
where
    S::Error: 'static,
{
    let mut per_region = vec![0usize; splits.len() + 1];
    let start = Instant::now();
    // The first load of each table goes through the store's bulk path (`Table::bulk_load`:
    // fjall's ingestion, sorted tables straight to disk; a batch write elsewhere), in chunks
    // that keep memory bounded.
    let mut batch: Vec<K> = Vec::with_capacity(250_000);
    let mut done = 0;
    for ev in events(n, hosts) {
        batch.push(key(&ev)?);
        if batch.len() == batch.capacity() || done + batch.len() == n {
            for k in &batch {
                let bytes = k.to_bytes()?;
                per_region[splits.partition_point(|s| s.as_ref() <= &bytes[..])] += 1;
            }
            table.bulk_load(batch.iter().map(|k| (k, VALUE)))?;
            done += batch.len();
            batch.clear();
            progress(label, done, n);
        }
    }
    Ok((per_region, n as f64 / start.elapsed().as_secs_f64()))
}

/// Writes every event as one cell of its `[host][event][hour]` row, counting the row writes
/// per pre-split region (a chunk's cells of one row go in one row write).
fn ingest_wide<S: Store>(
    table: &WideTable<S, HostHour, Vec<u8>>,
    n: usize,
    hosts: usize,
    splits: &[rowkey::bytes::Bytes],
) -> Result<(Vec<usize>, f64), Box<dyn Error>>
where
    S::Error: 'static,
{
    let mut per_region = vec![0usize; splits.len() + 1];
    let start = Instant::now();
    let value = VALUE.to_vec();
    let mut batch: Vec<HostHour> = Vec::with_capacity(250_000);
    let mut done = 0;
    for ev in events(n, hosts) {
        batch.push(HostHour {
            host: host_name(ev.host),
            event: EVENTS[ev.event].to_string(),
            ts: ev.ts,
        });
        if batch.len() == batch.capacity() || done + batch.len() == n {
            let mut rows: Vec<Vec<u8>> = Vec::with_capacity(batch.len());
            for k in &batch {
                let bytes = k.to_bytes()?;
                let (row, _) = HostHour::split_key(&bytes).ok_or("a key without a row part")?;
                rows.push(row.to_vec());
            }
            rows.sort_unstable();
            rows.dedup();
            for row in &rows {
                per_region[splits.partition_point(|s| s.as_ref() <= &row[..])] += 1;
            }
            table.put_batch(batch.iter().map(|k| (k, &value)))?;
            done += batch.len();
            batch.clear();
            progress("host-hour", done, n);
        }
    }
    Ok((per_region, n as f64 / start.elapsed().as_secs_f64()))
}

fn report(label: &str, per_region: &[usize], rate: f64) {
    let total: usize = per_region.iter().sum();
    let max = per_region.iter().copied().max().unwrap_or(0);
    let mean = total as f64 / per_region.len() as f64;
    println!(
        "\n{label}: {rate:.0} rows/s, busiest region {:.1}x the mean",
        max as f64 / mean
    );
    for (i, &c) in per_region.iter().enumerate() {
        let bar = (c * 40).div_ceil(max.max(1));
        println!(
            "  region {i:>2} {:<40} {c:>9} ({:>5.1}%)",
            "█".repeat(bar),
            100.0 * c as f64 / total.max(1) as f64
        );
    }
}

/// One design's line in a read report: ranges scanned, rows and cells the scans returned,
/// results.
struct ReadLine {
    design: &'static str,
    /// The design's index in the counters (ts-led, salted, host-led, host-hour).
    table: usize,
    ranges: usize,
    /// Rows and cells touched.
    touched: (usize, usize),
    results: usize,
}

impl ReadLine {
    fn new(
        design: &'static str,
        table: usize,
        ranges: usize,
        touched: (usize, usize),
        results: usize,
    ) -> Self {
        ReadLine {
            design,
            table,
            ranges,
            touched,
            results,
        }
    }
}

/// Each table's total read requests as HBase counts them.
fn read_totals(observed: &[Vec<Observed>]) -> Vec<i64> {
    observed
        .iter()
        .map(|t| t.iter().map(|r| r.reads.max(0)).sum())
        .collect()
}

/// Prints a read report; with HBase's counters, the read requests each design's table counted
/// during these reads (the last two readings of `counters`).
fn print_reads(title: &str, lines: &[ReadLine], counters: &[Vec<i64>]) {
    println!("\n== Read: {title}");
    let hbase = match counters {
        [.., before, after] => Some((before, after)),
        _ => None,
    };
    print!(
        "  {:<34} {:>7} {:>13} {:>13} {:>8}",
        "design", "ranges", "rows touched", "cells touched", "results"
    );
    if hbase.is_some() {
        print!(" {:>16}", "HBase row reads");
    }
    println!();
    for l in lines {
        print!(
            "  {:<34} {:>7} {:>13} {:>13} {:>8}",
            l.design, l.ranges, l.touched.0, l.touched.1, l.results
        );
        if let Some((before, after)) = hbase {
            print!(" {:>16}", after[l.table] - before[l.table]);
        }
        println!();
    }
}

/// HBase's counts per region beside rowkey's prediction, then each region server's share.
fn report_observed(label: &str, predicted: &[usize], observed: &[Observed]) {
    let total: i64 = observed.iter().map(|r| r.writes.max(0)).sum();
    let max = observed.iter().map(|r| r.writes).max().unwrap_or(0).max(1);
    println!(
        "\n{label}: HBase counted {total} writes in {} regions, busiest {:.1}x the mean",
        observed.len(),
        max as f64 * observed.len() as f64 / total.max(1) as f64
    );
    println!(
        "  {:<10} {:<40} {:>9} {:>9}",
        "", "HBase's counter", "HBase", "rowkey"
    );
    for (i, r) in observed.iter().enumerate() {
        let bar = (r.writes.max(0) as usize * 40).div_ceil(max as usize);
        println!(
            "  region {i:>2} {:<40} {:>9} {:>9}",
            "█".repeat(bar),
            r.writes,
            predicted.get(i).map_or("-".into(), |p| p.to_string())
        );
    }
    let same = observed.len() == predicted.len()
        && observed
            .iter()
            .zip(predicted)
            .all(|(o, &p)| usize::try_from(o.writes) == Ok(p));
    println!(
        "  {}",
        if same {
            "HBase's counts equal rowkey's prediction, region for region."
        } else {
            "HBase's counts differ from rowkey's prediction (counters may lag, or other writers)."
        }
    );
    let mut servers: Vec<(String, i64)> = Vec::new();
    for r in observed {
        match servers.iter_mut().find(|(s, _)| *s == r.server) {
            Some((_, w)) => *w += r.writes.max(0),
            None => servers.push((r.server.clone(), r.writes.max(0))),
        }
    }
    servers.sort();
    for (s, w) in servers {
        println!(
            "  server {s:<24} {w:>9} writes ({:>5.1}%)",
            100.0 * w as f64 / total.max(1) as f64
        );
    }
}

/// `--metrics ADDR`: the network stores' client metrics (`rowkey::store::metrics`) served for
/// Prometheus at `http://ADDR/metrics` while the job runs.
#[cfg(feature = "metrics")]
fn serve_metrics(addr: &str) -> Result<(), Box<dyn Error>> {
    let at: std::net::SocketAddr = addr
        .parse()
        .map_err(|e| format!("--metrics {addr}: {e} (give an address such as 127.0.0.1:9000)"))?;
    metrics_exporter_prometheus::PrometheusBuilder::new()
        .with_http_listener(at)
        .install()?;
    println!("Client metrics: http://{at}/metrics (rowkey_client_*), while the job runs");
    Ok(())
}

#[cfg(not(feature = "metrics"))]
fn serve_metrics(_: &str) -> Result<(), Box<dyn Error>> {
    Err("--metrics needs the `metrics` feature: cargo run --release --features hbase-rpc,metrics --example log_data -- --store hbase-rpc --metrics 127.0.0.1:9000".into())
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let store = value("--store").unwrap_or_else(|| "fjall".into());
    let default_events = if matches!(store.as_str(), "bigtable" | "hbase" | "hbase-rpc") {
        100_000
    } else {
        1_000_000
    };
    let n: usize = value("--events")
        .and_then(|v| v.parse().ok())
        .unwrap_or(default_events);
    let regions: usize = value("--regions")
        .and_then(|v| v.parse().ok())
        .unwrap_or(16);
    if let Some(addr) = value("--metrics") {
        serve_metrics(&addr)?;
    }
    match store.as_str() {
        "fjall" => {
            let dir = tempfile::tempdir()?;
            let db = fjall::Database::builder(dir.path()).open()?;
            println!("Store: fjall (embedded LSM) at {}", dir.path().display());
            println!(
                "  (the embedded store keeps one version per cell and no TTL: family d's declaration, {}, applies on HBase and Bigtable)",
                EVENTS_FAMILY.hbase_shell()
            );
            run(
                n,
                regions,
                |name, _splits, _key| Ok(FjallStore::with_database(db.clone(), name)?),
                || Ok(FjallStore::with_database(db.clone(), "uids")?),
                None,
            )
        }
        "bigtable" => bigtable(n, regions),
        "hbase" => hbase(n, regions),
        "hbase-rpc" => hbase_rpc(n, regions),
        other => Err(format!(
            "unknown store `{other}`: use `--store fjall`, `--store bigtable`, `--store hbase` \
             or `--store hbase-rpc`"
        )
        .into()),
    }
}

/// Bigtable: the emulator named by `BIGTABLE_EMULATOR_HOST` (tables are created there, split at
/// the same points), or a real instance from `BIGTABLE_PROJECT` / `BIGTABLE_INSTANCE` whose
/// tables `ts_lead`, `salted` and `host_lead` (family `d`) exist.
#[cfg(feature = "bigtable")]
fn bigtable(n: usize, regions: usize) -> Result<(), Box<dyn Error>> {
    use rowkey::store::BigtableStore;
    let project = std::env::var("BIGTABLE_PROJECT").unwrap_or_else(|_| "rowkey".into());
    let instance = std::env::var("BIGTABLE_INSTANCE").unwrap_or_else(|_| "demo".into());
    let emulator = std::env::var("BIGTABLE_EMULATOR_HOST").ok();
    let place = emulator.as_deref().map_or_else(
        || format!("projects/{project}/instances/{instance}"),
        |h| format!("emulator at {h}"),
    );
    println!("Store: Cloud Bigtable, {place}");
    let suffix = if emulator.is_some() {
        format!("_{}", std::process::id())
    } else {
        String::new()
    };
    run(
        n,
        regions,
        |name, splits, key| {
            let table = format!("{name}{suffix}");
            let store = BigtableStore::connect(&project, &instance, &table, "d")?;
            if emulator.is_some() {
                store.create_table_keyed(&[EVENTS_FAMILY], splits, key)?;
            }
            // A table written with another key layout is refused: its rows need re-keying.
            store.check_key_fingerprint(name, key)?;
            // Created from the declaration: the live GC rules are the declared ones.
            let want = vec![(EVENTS_FAMILY.name.to_string(), EVENTS_FAMILY.gc_rule())];
            let live = store.gc_rules()?;
            if live != want {
                let msg = format!("table {table}: GC rules {live:?}, declared {want:?}");
                if emulator.is_some() {
                    return Err(msg.into());
                }
                // A real instance's tables are not created here: say how they differ.
                println!("  warning: {msg} (set it with BigtableStore::set_gc_rule)");
                return Ok(store);
            }
            println!(
                "  table {table}: family d's GC rule is the declared one ('{}'): nothing to change",
                EVENTS_FAMILY
                    .gc_rule()
                    .map_or("never".into(), |r| r.to_string())
            );
            Ok(store)
        },
        || {
            use rowkey::family::Family;
            use rowkey::store::{BigtableConfig, UID_ID_FAMILY, UID_NAME_FAMILY};
            let table = format!("uids{suffix}");
            let config = BigtableConfig::new(&project, &instance, &table, UID_ID_FAMILY)
                .families([UID_NAME_FAMILY]);
            let store = BigtableStore::with_config(config)?;
            if emulator.is_some() {
                store.create_table_with(
                    &[Family::new(UID_ID_FAMILY), Family::new(UID_NAME_FAMILY)],
                    &[],
                )?;
            }
            Ok(store)
        },
        None,
    )
}

#[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
#[path = "../hbase-local/gateways.rs"]
mod gateways;

/// The HBase named by the environment (`ROWKEY_HBASE_THRIFT`, `ROWKEY_HBASE_MASTER`,
/// `ROWKEY_HBASE_ZK`), or a local HBase started here with `hbase-local/run`; says which.
#[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
fn hbase_cluster(how: &str) -> Result<gateways::Gateways, Box<dyn Error>> {
    let started = Instant::now();
    let g = gateways::Gateways::from_env_or_start().ok_or(
        "no HBase: set ROWKEY_HBASE_THRIFT (and ROWKEY_HBASE_MASTER), or install Java 17 and \
         Maven for hbase-local/run",
    )?;
    match &g.ready {
        Some(ready) => println!(
            "Store: HBase {how}, a local mini cluster started by hbase-local/run in {:.1} s ({ready})",
            started.elapsed().as_secs_f64()
        ),
        None => println!("Store: HBase {how}"),
    }
    Ok(g)
}

/// HBase's own per-region request counters for the designs' tables (named with `suffix`), read
/// through HBase's Java client from ZooKeeper at `zk`.
#[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
fn hbase_counters(
    zk: Option<String>,
    suffix: String,
) -> impl Fn(&[&str]) -> Result<Vec<Vec<Observed>>, Box<dyn Error>> {
    move |names: &[&str]| -> Result<Vec<Vec<Observed>>, Box<dyn Error>> {
        let Some(zk) = zk.as_deref() else {
            return Err("HBase's counters need ROWKEY_HBASE_ZK (ZooKeeper's host:port)".into());
        };
        let tables: Vec<String> = names.iter().map(|n| format!("{n}{suffix}")).collect();
        let mut args = vec!["region-writes", "--zk", zk];
        for t in &tables {
            args.extend(["--table", t.as_str()]);
        }
        // Region servers report their counters to the master every second (the local HBase's
        // setting): read until two readings agree.
        let mut last = None;
        let deadline = Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let rows = gateways::java(&args, "", "REGION ")?;
            let per_table: Vec<Vec<Observed>> = tables
                .iter()
                .map(|t| {
                    rows.iter()
                        .filter(|f| f.first() == Some(t))
                        .map(|f| {
                            let count =
                                |i: usize| f.get(i).and_then(|w| w.parse().ok()).unwrap_or(-1);
                            Observed {
                                server: f.get(3).cloned().unwrap_or_default(),
                                writes: count(4),
                                reads: count(5),
                            }
                        })
                        .collect()
                })
                .collect();
            let totals: Vec<(i64, i64)> = per_table
                .iter()
                .map(|t| {
                    (
                        t.iter().map(|r| r.writes).sum(),
                        t.iter().map(|r| r.reads).sum(),
                    )
                })
                .collect();
            if last.as_ref() == Some(&totals) || Instant::now() > deadline {
                return Ok(per_table);
            }
            last = Some(totals);
            std::thread::sleep(std::time::Duration::from_millis(1200));
        }
    }
}

/// Checks that a table created from `EVENTS_FAMILY` reads back as declared.
#[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
fn as_declared(table: &str, live: &[rowkey::family::Family]) -> Result<(), Box<dyn Error>> {
    let changes = rowkey::family::diff(&[EVENTS_FAMILY], live);
    if !changes.is_empty() {
        let listed: Vec<String> = changes.iter().map(ToString::to_string).collect();
        return Err(format!("table {table} differs: {}", listed.join("; ")).into());
    }
    println!("  table {table}: families as declared (the diff is empty)");
    Ok(())
}

/// HBase through the Thrift2 gateway at `ROWKEY_HBASE_THRIFT` (with `ROWKEY_HBASE_ZK` for
/// HBase's own counters), or a local HBase started here. Tables are created pre-split, with a
/// suffix so that runs do not collide.
#[cfg(feature = "hbase")]
fn hbase(n: usize, regions: usize) -> Result<(), Box<dyn Error>> {
    use rowkey::store::HbaseStore;
    let g = hbase_cluster("through the Thrift2 gateway")?;
    println!("  gateway {}", g.plain);
    let suffix = format!("_{}", std::process::id());
    let counted = hbase_counters(g.zk.clone(), suffix.clone());
    let (plain, suffix) = (&g.plain, &suffix);
    run(
        n,
        regions,
        move |name, splits, key| {
            let table = format!("{name}{suffix}");
            let store = HbaseStore::connect(plain, &table, "d")?;
            store.create_table_keyed(&[EVENTS_FAMILY], splits, key)?;
            // A table written with another key layout is refused: its rows need re-keying.
            store.check_key_fingerprint(name, key)?;
            // Created from the declaration: reading it back, nothing differs.
            as_declared(&table, &store.families()?)?;
            Ok(store)
        },
        || {
            use rowkey::family::Family;
            use rowkey::store::{HbaseConfig, UID_ID_FAMILY, UID_NAME_FAMILY};
            let config = HbaseConfig::new(plain, &format!("uids{suffix}"), UID_ID_FAMILY)
                .families([UID_NAME_FAMILY]);
            let store = HbaseStore::with_config(config)?;
            store.create_table_with(
                &[Family::new(UID_ID_FAMILY), Family::new(UID_NAME_FAMILY)],
                &[],
            )?;
            Ok(store)
        },
        Some(&counted),
    )
}

#[cfg(not(feature = "hbase"))]
fn hbase(_: usize, _: usize) -> Result<(), Box<dyn Error>> {
    Err("this build has no HBase support: run `cargo run --release --features hbase --example log_data -- --store hbase`".into())
}

/// HBase without a gateway: HBase's own RPC to the master at `ROWKEY_HBASE_MASTER` and the
/// region servers (the same tables, counters and reports as `--store hbase`).
#[cfg(feature = "hbase-rpc")]
fn hbase_rpc(n: usize, regions: usize) -> Result<(), Box<dyn Error>> {
    use rowkey::store::HbaseRpcStore;
    let started = Instant::now();
    let g = hbase_cluster("over its own RPC (no gateway)")?;
    let master = g
        .master
        .clone()
        .ok_or("no HBase master: set ROWKEY_HBASE_MASTER (host:port of the master's RPC)")?;
    println!("  master {master}");
    let suffix = format!("_{}", std::process::id());
    let counted = hbase_counters(g.zk.clone(), suffix.clone());
    let (master, suffix) = (&master, &suffix);
    run(
        n,
        regions,
        move |name, splits, key| {
            let table = format!("{name}{suffix}");
            let store = HbaseRpcStore::connect(master, &table, "d")?;
            store.create_table_keyed(&[EVENTS_FAMILY], splits, key)?;
            store.check_key_fingerprint(name, key)?;
            as_declared(&table, &store.families()?)?;
            Ok(store)
        },
        || {
            use rowkey::family::Family;
            use rowkey::store::{HbaseRpcConfig, UID_ID_FAMILY, UID_NAME_FAMILY};
            let config = HbaseRpcConfig::new(master, &format!("uids{suffix}"), UID_ID_FAMILY)
                .families([UID_NAME_FAMILY]);
            let store = HbaseRpcStore::with_config(config)?;
            store.create_table_with(
                &[Family::new(UID_ID_FAMILY), Family::new(UID_NAME_FAMILY)],
                &[],
            )?;
            Ok(store)
        },
        Some(&counted),
    )?;
    hotspots(master, suffix, started)
}

/// Each design's table as `rowkey hotspots` reads it: every region's load since the table was
/// created (its region servers' request counters), through the design's key layout.
#[cfg(feature = "hbase-rpc")]
fn hotspots(master: &str, suffix: &str, started: Instant) -> Result<(), Box<dyn Error>> {
    use rowkey::hotspot::{HotspotReport, RegionLoad};
    use rowkey::store::HbaseRpcStore;
    println!(
        "\n== Hotspots, as `rowkey hotspots` reads them: each region's load since its table was \
         created, from its region server, through the design's key layout"
    );
    let designs: [(&str, &'static rowkey::Schema); 5] = [
        ("ts_lead", TsLead::SCHEMA),
        ("salted", Salted::SCHEMA),
        ("host_lead", HostLead::SCHEMA),
        ("host_hour", HostHour::SCHEMA),
        ("host_id_lead", HostIdLead::SCHEMA),
    ];
    for (name, schema) in designs {
        let store = HbaseRpcStore::connect(master, &format!("{name}{suffix}"), "d")?;
        let now = store.region_loads()?;
        // The tables are new: their counters started at zero.
        let created: Vec<RegionLoad> = now
            .iter()
            .map(|r| RegionLoad {
                read_requests: 0,
                write_requests: 0,
                ..r.clone()
            })
            .collect();
        let report = HotspotReport::between(schema, &created, &now, started.elapsed());
        print!("{name}: {report}");
    }
    Ok(())
}

#[cfg(not(feature = "hbase-rpc"))]
fn hbase_rpc(_: usize, _: usize) -> Result<(), Box<dyn Error>> {
    Err("this build has no native HBase support: run `cargo run --release --features hbase-rpc --example log_data -- --store hbase-rpc`".into())
}

/// One region's request counters as HBase counts them, and the server holding it.
struct Observed {
    server: String,
    writes: i64,
    reads: i64,
}

/// Reads HBase's own per-region counters for the named designs' tables.
type Observe<'a> = &'a dyn Fn(&[&str]) -> Result<Vec<Vec<Observed>>, Box<dyn Error>>;

#[cfg(not(feature = "bigtable"))]
fn bigtable(_: usize, _: usize) -> Result<(), Box<dyn Error>> {
    Err("this build has no Bigtable support: run `cargo run --release --features bigtable --example log_data -- --store bigtable`".into())
}

/// The case study on any store; `open(table, split_points, key_fingerprint)` gives each
/// design's store.
fn run<S: Store, U: AtomicStore>(
    n: usize,
    regions: usize,
    open: impl Fn(&str, &[rowkey::bytes::Bytes], u64) -> Result<S, Box<dyn Error>>,
    open_uids: impl Fn() -> Result<U, Box<dyn Error>>,
    observe: Option<Observe<'_>>,
) -> Result<(), Box<dyn Error>>
where
    S::Error: 'static,
    U::Error: 'static,
{
    let hosts = 100;
    // Split points from the schema: the timestamp's domain, the salt buckets. A host name's
    // distribution is only known from the data, so the host-led table is split on a sample.
    let ts_splits = TsLead::split_points(regions);
    let salt_splits = Salted::split_points(regions);
    let mut sample: Vec<Vec<u8>> = events(20_000.min(n), hosts)
        .map(|e| {
            HostLead {
                host: host_name(e.host),
                ts: e.ts,
                event: String::new(),
            }
            .to_bytes()
            .map(|b| b.to_vec())
        })
        .collect::<Result<_, _>>()?;
    let host_splits = split::from_sample(&mut sample, regions);
    // The rows-as-columns table holds far fewer rows: split on a sample of its row keys.
    let mut sample: Vec<Vec<u8>> = events(n, hosts)
        .step_by(50)
        .map(|e| {
            let k = HostHour {
                host: host_name(e.host),
                event: EVENTS[e.event].to_string(),
                ts: e.ts,
            }
            .to_bytes()?;
            Ok(HostHour::split_key(&k).map_or(k.to_vec(), |(row, _)| row.to_vec()))
        })
        .collect::<Result<_, rowkey::EncodeError>>()?;
    sample.sort_unstable();
    sample.dedup();
    let hour_splits = split::from_sample(&mut sample, regions);
    let counted = |name: &str,
                   splits: &[rowkey::bytes::Bytes],
                   key: u64|
     -> Result<Counted<S>, Box<dyn Error>> {
        Ok(Counted {
            inner: open(name, splits, key)?,
            rows: AtomicUsize::new(0),
            cells: AtomicUsize::new(0),
        })
    };
    let ts_lead = Table::<_, TsLead>::new(counted("ts_lead", &ts_splits, TsLead::FINGERPRINT)?);
    let salted = Table::<_, Salted>::new(counted("salted", &salt_splits, Salted::FINGERPRINT)?);
    let host_lead =
        Table::<_, HostLead>::new(counted("host_lead", &host_splits, HostLead::FINGERPRINT)?);
    let host_hour: WideTable<_, HostHour, Vec<u8>> = WideTable::new(
        counted("host_hour", &hour_splits, HostHour::FINGERPRINT)?,
        "d",
    );
    // The lookup-table design: the names of a sample of events get their ids (assigned from
    // the lookup tables' counters), the table is split on the sample's real keys, then every
    // event is written with its ids looked up (from each table's cache after the first).
    let uids = open_uids()?;
    let host_ids = UidTable::new(&uids, "host", 2)?;
    let event_ids = UidTable::new(&uids, "event", 1)?;
    let id_key = |e: &Event| -> Result<HostIdLead, Box<dyn Error>> {
        Ok(HostIdLead {
            host: u16::try_from(host_ids.get_or_assign(&host_name(e.host))?)?,
            event: u8::try_from(event_ids.get_or_assign(EVENTS[e.event])?)?,
            ts: e.ts,
        })
    };
    let assigning = Instant::now();
    let mut sample: Vec<Vec<u8>> = events(20_000.min(n), hosts)
        .map(|e| Ok(id_key(&e)?.to_bytes()?.to_vec()))
        .collect::<Result<_, Box<dyn Error>>>()?;
    let id_splits = split::from_sample(&mut sample, regions);
    let assigned = assigning.elapsed();
    let host_id_lead = Table::<_, HostIdLead>::new(counted(
        "host_id_lead",
        &id_splits,
        HostIdLead::FINGERPRINT,
    )?);
    println!("Writing {n} log events ({hosts} hosts) under five designs, each table pre-split into {regions} regions.");

    let name = |i: usize| EVENTS[i].to_string();
    let (a, ra) = ingest("ts-lead", &ts_lead, n, hosts, &ts_splits, |e| {
        Ok(TsLead {
            ts: e.ts,
            host: host_name(e.host),
            event: name(e.event),
        })
    })?;
    let (b, rb) = ingest("salted", &salted, n, hosts, &salt_splits, |e| {
        Ok(Salted {
            ts: e.ts,
            host: host_name(e.host),
            event: name(e.event),
        })
    })?;
    let (c, rc) = ingest("host-lead", &host_lead, n, hosts, &host_splits, |e| {
        Ok(HostLead {
            host: host_name(e.host),
            ts: e.ts,
            event: name(e.event),
        })
    })?;

    let (d, rd) = ingest_wide(&host_hour, n, hosts, &hour_splits)?;
    let (e, re) = ingest("host-id", &host_id_lead, n, hosts, &id_splits, id_key)?;
    // The rate counts the sample's id assignment too.
    let re = n as f64 / (n as f64 / re + assigned.as_secs_f64());

    println!("\n== Writes per region");
    report("[timestamp][host][event]  (timestamp leads)", &a, ra);
    report("[salt][timestamp][host][event]  (16 buckets)", &b, rb);
    report(
        "[host][reverse timestamp][event]  (split on a sample)",
        &c,
        rc,
    );
    report(
        "[host][event][hour] + one column per event  (row writes; split on a sample)",
        &d,
        rd,
    );
    report(
        "[host id][event type id][reverse timestamp]  (lookup tables; split on a sample; ids looked up per event)",
        &e,
        re,
    );
    println!(
        "  lookup tables: {} host ids (2 bytes) and {} event type ids (1 byte), assigned in {:.1} ms; \
         the rate above includes it and a cached lookup of both names per event",
        host_ids.verify(false)?.names,
        event_ids.verify(false)?.names,
        assigned.as_secs_f64() * 1e3
    );
    // A key of this design read back as an operator would: the ids with their names.
    let first = events(1, hosts).next().ok_or("no events")?;
    let key = HostIdLead {
        host: u16::try_from(host_ids.get_or_assign(&host_name(first.host))?)?,
        event: u8::try_from(event_ids.get_or_assign(EVENTS[first.event])?)?,
        ts: first.ts,
    }
    .to_bytes()?;
    let names = |kind: &str, id: &[u8]| {
        let table = if kind == "host" {
            &host_ids
        } else {
            &event_ids
        };
        let id = id.iter().fold(0, |n, &b| n << 8 | u64::from(b));
        table.name(id).ok().flatten()
    };
    println!(
        "  its first key, explained with the lookup tables' names:\n{}",
        rowkey::explain_schema_with_names(HostIdLead::SCHEMA, &key, &names)
    );
    // HBase's own counters, read before and after each group of reads: (writes, reads) per
    // design, in TABLES order.
    const TABLES: [&str; 5] = [
        "ts_lead",
        "salted",
        "host_lead",
        "host_hour",
        "host_id_lead",
    ];
    let mut counters = Vec::new();
    if let Some(observe) = observe {
        println!(
            "\n== Writes per region as HBase counts them (each region's write request counter)"
        );
        let observed = observe(&TABLES)?;
        for ((label, predicted), regions) in [
            ("[timestamp][host][event]", &a),
            ("[salt][timestamp][host][event]", &b),
            ("[host][reverse timestamp][event]", &c),
            ("[host][event][hour] (row writes)", &d),
            ("[host id][event type id][reverse timestamp]", &e),
        ]
        .into_iter()
        .zip(&observed)
        {
            report_observed(label, predicted, regions);
        }
        counters.push(read_totals(&observed));
    }

    // Even split points taken from the data itself (ideal time ranges) only move the hotspot:
    // at any moment, new timestamps all sort into the last region.
    let mut sample: Vec<Vec<u8>> = events(n, hosts)
        .step_by(50)
        .map(|e| {
            TsLead {
                ts: e.ts,
                host: host_name(e.host),
                event: String::new(),
            }
            .to_bytes()
            .map(|b| b.to_vec())
        })
        .collect::<Result<_, _>>()?;
    let time_splits = split::from_sample(&mut sample, regions);
    let recent = n / 20;
    let mut last = vec![0usize; time_splits.len() + 1];
    for e in events(n, hosts).skip(n - recent) {
        let k = TsLead {
            ts: e.ts,
            host: host_name(e.host),
            event: name(e.event),
        }
        .to_bytes()?;
        last[time_splits.partition_point(|s| s.as_ref() <= &k[..])] += 1;
    }
    let busiest = last.iter().copied().max().unwrap_or(0);
    println!(
        "\nTimestamp-led, even when split on the data's own time ranges: of the last {recent} writes, \
         {:.0}% went to one region.",
        100.0 * busiest as f64 / recent.max(1) as f64
    );
    println!(
        "With the timestamp in the lead every write goes to the region holding the newest time:"
    );
    println!("pre-split or not, one region (one server) takes the whole write load. The salt spreads it.");
    println!(
        "{}",
        rowkey::fmt::hbase_create("logs_salted", "d", &salt_splits)
    );

    // == Reads
    let t_end = T0 + n as u64 * STEP;
    let host = host_name(42);
    let mut lines: Vec<ReadLine> = Vec::new();

    let r = HostLead::scan().host(host.as_str()).ranges();
    let got: Vec<HostLead> = host_lead
        .scan(&r)
        .take(10)
        .map(|x| x.map(|(k, _)| k))
        .collect::<Result<_, _>>()?;
    lines.push(ReadLine::new(
        "[host][reverse ts][event]",
        2,
        r.len(),
        host_lead.store().take(),
        got.len(),
    ));
    let newest = got.first().map(|k| k.ts);

    let found = latest(ts_lead.store(), &TsLead::scan().ranges(), |k| {
        TsLead::decode(k)
            .ok()
            .filter(|e| e.host == host)
            .map(|e| e.ts)
    })?;
    lines.push(ReadLine::new(
        "[timestamp][host][event]",
        0,
        1,
        ts_lead.store().take(),
        found.len(),
    ));
    assert_eq!(
        found.first().copied(),
        newest,
        "both designs find the same latest event"
    );

    let found = latest(salted.store(), &Salted::scan().ranges(), |k| {
        Salted::decode(k)
            .ok()
            .filter(|e| e.host == host)
            .map(|e| e.ts)
    })?;
    lines.push(ReadLine::new(
        "[salt][timestamp][host][event]",
        1,
        Salted::scan().ranges().len(),
        salted.store().take(),
        found.len(),
    ));
    assert_eq!(found.first().copied(), newest);

    // Rows as columns: the newest row of each event type holds up to an hour of events; a
    // reverse scan of each type's rows, newest first, stops after 10.
    let mut found: Vec<u64> = Vec::new();
    for event in EVENTS {
        let r = HostHour::scan().host(host.as_str()).event(event).ranges();
        let rev = host_hour.scan_rev(&r).ok_or("no reverse scans")?;
        for rec in rev.take(10) {
            found.push(rec?.0.ts);
        }
    }
    found.sort_unstable_by(|a, b| b.cmp(a));
    found.truncate(10);
    lines.push(ReadLine::new(
        "[host][event][hour] (columns)",
        3,
        EVENTS.len(),
        host_hour.store().take(),
        found.len(),
    ));
    assert_eq!(found.first().copied(), newest);

    // Lookup tables: the host's id (cached), then the newest 10 of each event type's rows.
    let hid = u16::try_from(host_ids.id(&host)?.ok_or("a host without an id")?)?;
    let mut found: Vec<u64> = Vec::new();
    let mut ranges = 0;
    for event in EVENTS {
        let eid = u8::try_from(event_ids.id(event)?.ok_or("an event type without an id")?)?;
        let r = HostIdLead::scan().host(hid).event(eid).ranges();
        ranges += r.len();
        // The timestamp is reversed: a forward scan reads the newest first.
        for row in host_id_lead.scan(&r).take(10) {
            found.push(row?.0.ts);
        }
    }
    found.sort_unstable_by(|a, b| b.cmp(a));
    found.truncate(10);
    lines.push(ReadLine::new(
        "[host id][event id][reverse ts]",
        4,
        ranges,
        host_id_lead.store().take(),
        found.len(),
    ));
    assert_eq!(found.first().copied(), newest);
    if let Some(observe) = observe {
        counters.push(read_totals(&observe(&TABLES)?));
    }
    print_reads(
        &format!("the latest 10 events of host {host}"),
        &lines,
        &counters,
    );

    let (w0, w1) = (t_end - 60_000, t_end);
    let mut lines: Vec<ReadLine> = Vec::new();
    let r = TsLead::scan().ts(w0..w1).ranges();
    let a_rows = ts_lead.scan(&r).count();
    lines.push(ReadLine::new(
        "[timestamp][host][event]",
        0,
        r.len(),
        ts_lead.store().take(),
        a_rows,
    ));
    let r = Salted::scan().ts(w0..w1).ranges();
    let b_rows = salted.scan(&r).count();
    lines.push(ReadLine::new(
        "[salt][timestamp][host][event]",
        1,
        r.len(),
        salted.store().take(),
        b_rows,
    ));
    let mut ranges = 0;
    let mut c_rows = 0;
    for h in 0..hosts {
        let r: KeyRanges = HostLead::scan()
            .host(host_name(h).as_str())
            .ts(w0..w1)
            .ranges();
        ranges += r.len();
        c_rows += host_lead.scan(&r).count();
    }
    lines.push(ReadLine::new(
        "[host][reverse ts][event]",
        2,
        ranges,
        host_lead.store().take(),
        c_rows,
    ));
    // Rows as columns: per host and event type, the hour rows of the window, with the
    // window's qualifier range on the edge rows: exactly the window's cells.
    let mut ranges = 0;
    let mut d_rows = 0;
    for h in 0..hosts {
        for event in EVENTS {
            let r = HostHour::scan()
                .host(host_name(h).as_str())
                .event(event)
                .ts(w0..w1)
                .ranges();
            ranges += r.len();
            d_rows += host_hour.scan(&r).count();
        }
    }
    lines.push(ReadLine::new(
        "[host][event][hour] (columns)",
        3,
        ranges,
        host_hour.store().take(),
        d_rows,
    ));
    let mut ranges = 0;
    let mut e_rows = 0;
    for h in 0..hosts {
        let Some(hid) = host_ids.id(&host_name(h))? else {
            continue; // a host with no events has no id
        };
        for event in EVENTS {
            let Some(eid) = event_ids.id(event)? else {
                continue;
            };
            let r = HostIdLead::scan()
                .host(u16::try_from(hid)?)
                .event(u8::try_from(eid)?)
                .ts(w0..w1)
                .ranges();
            ranges += r.len();
            e_rows += host_id_lead.scan(&r).count();
        }
    }
    lines.push(ReadLine::new(
        "[host id][event id][reverse ts]",
        4,
        ranges,
        host_id_lead.store().take(),
        e_rows,
    ));
    assert!(
        a_rows == b_rows && b_rows == c_rows && c_rows == d_rows && d_rows == e_rows,
        "every design returns the same events"
    );
    if let Some(observe) = observe {
        counters.push(read_totals(&observe(&TABLES)?));
    }
    print_reads(
        "every event of the last minute, all hosts",
        &lines,
        &counters,
    );

    // What the cells' coordinates cost: every cell carries its row key, family, qualifier and
    // timestamp (the guide's "try to minimize row and column sizes").
    let sample = events(1, hosts).next().ok_or("no events")?;
    let (h, e) = (host_name(sample.host), name(sample.event));
    let value = Some(VALUE.len());
    let budgets = [
        SizeBudget::of_raw(
            &TsLead {
                ts: sample.ts,
                host: h.clone(),
                event: e.clone(),
            },
            "d",
            value,
        ),
        SizeBudget::of_raw(
            &Salted {
                ts: sample.ts,
                host: h.clone(),
                event: e.clone(),
            },
            "d",
            value,
        ),
        SizeBudget::of_raw(
            &HostLead {
                host: h.clone(),
                ts: sample.ts,
                event: e.clone(),
            },
            "d",
            value,
        ),
        SizeBudget::of_wide(
            &HostHour {
                host: h,
                event: e,
                ts: sample.ts,
            },
            "d",
            value,
        ),
        SizeBudget::of_raw(
            &HostIdLead {
                host: 1,
                event: 1,
                ts: sample.ts,
            },
            "d",
            value,
        ),
    ];
    println!("\n== Coordinates per event (row key + family + qualifier + timestamp and framing)");
    println!(
        "  {:<34} {:>8} {:>10} {:>8} {:>8} {:>8}   {:>10} {:>10} {:>10}",
        "design",
        "row key",
        "qualifier",
        "HBase",
        "Bigtable",
        "fjall",
        "HBase",
        "Bigtable",
        "fjall"
    );
    let designs = [
        "[timestamp][host][event]",
        "[salt][timestamp][host][event]",
        "[host][reverse ts][event]",
        "[host][event][hour] (columns)",
        "[host id][event id][reverse ts]",
    ];
    for (design, b) in designs.iter().zip(&budgets) {
        let cell = &b.cells[0];
        let total = |f| human_bytes(b.for_records(n as u64, f));
        println!(
            "  {design:<34} {:>8} {:>10} {:>8} {:>8} {:>8}   {:>10} {:>10} {:>10}",
            cell.row_len,
            cell.qualifier_len,
            b.per_record(CellFormat::Hbase),
            b.per_record(CellFormat::Bigtable),
            b.per_record(CellFormat::Composite),
            total(CellFormat::Hbase),
            total(CellFormat::Bigtable),
            total(CellFormat::Composite),
        );
    }
    println!(
        "  (per event, then for all {n} events; fjall's raw rows carry no family or qualifier; the\n   \
         lookup tables add one forward and one reverse row per name, {} names here)",
        hosts + EVENTS.len()
    );

    // A year of this job's event rate (one event every STEP ms), kept as family d's TTL says,
    // at the host-led design's size on HBase.
    let workload = rowkey::capacity::Workload {
        records_per_day: 86_400_000 / STEP,
        bytes_per_record: (budgets[2].per_record(CellFormat::Hbase) + VALUE.len()) as u64,
        retention_days: EVENTS_FAMILY.ttl_secs.map(|s| s / 86_400),
        ..rowkey::capacity::Workload::default()
    };
    let plan = rowkey::capacity::plan(&workload);
    println!(
        "\n== Capacity plan: a year of {} events a day, kept {} days, host-led design on HBase",
        workload.records_per_day,
        workload.retention_days.unwrap_or(0)
    );
    print!("{}", plan.to_markdown(&workload));
    println!(
        "  (pre-split into {} region(s): HostLead::split_points({}) or split_points on a sample)",
        plan.regions, plan.regions
    );

    println!("\nThe salted design writes evenly and still reads a time window exactly, at the cost of one");
    println!(
        "range per bucket; the host-led design makes one host's history a single short scan; rows"
    );
    println!(
        "as columns read a window as exactly its cells from one row per host, event type and hour;"
    );
    println!("lookup tables cut the host-led key from names to 11 bytes at the cost of one cached lookup");
    println!("per name and a second table that must outlive the data.");
    Ok(())
}
