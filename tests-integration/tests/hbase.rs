//! The HBase store against a real HBase (the mini cluster of `hbase-local/`, 3 region servers,
//! with its Thrift2 gateway on loopback), at the sizes users have.
//!
//! - the store conformance suite (`tests/store_suite`) through the unframed gateway (as
//!   `hbase thrift2 start` serves), through a framed one and through one in HTTP mode (with
//!   `hbase-http`; its connections cut and restored mid-batch), and over HTTPS;
//! - a table pre-split at the key type's split points has exactly those regions, as HBase
//!   itself reports them;
//! - a salted table of `ROWKEY_HBASE_ROWS` rows (300,000 by default) written in one
//!   `put_batch`, read back by a merged scan with a slow consumer, a merged reverse scan and an
//!   unordered scan, each compared with the brute-force list, with peak memory bounded;
//! - the async store inside a tokio service, the blocking store inside a runtime;
//! - with `hbase-http`, the HTTP gateways through an HTTP proxy (tinyproxy: `CONNECT` tunnels
//!   counted in its log, Basic credentials, a refused port) and the HTTPS gateway behind a TLS
//!   front that requires client certificates (nginx);
//! - errors: a missing family or table on reads as on writes, a key over 32,767 bytes, a server
//!   that never answers, and connections cut through a TCP proxy mid-batch and mid-scan.
//!
//! Uses the gateway at `ROWKEY_HBASE_THRIFT` (`host:port`, unframed) and, when set,
//! `ROWKEY_HBASE_THRIFT_FRAMED`, as `.ci/run` starts them; otherwise starts `hbase-local/run`
//! itself (the first time, Maven downloads HBase). Without Java it fails under CI and says so
//! elsewhere.
#![cfg(feature = "hbase")]

mod store_suite;

#[path = "../../hbase-local/gateways.rs"]
mod gateways;

use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use gateways::Gateways;
use rowkey::bytes::Bytes;
use rowkey::store::{
    AsyncHbaseStore, AsyncTable, HbaseConfig, HbaseError, HbaseStore, RetryPolicy, Store, Table,
};
use rowkey::RowKey;
use store_suite::metered::{a_batch_through_cuts_was_counted, recorder};
use store_suite::net::*;

fn gateways() -> Option<&'static Gateways> {
    static G: OnceLock<Option<Gateways>> = OnceLock::new();
    G.get_or_init(Gateways::from_env_or_start).as_ref()
}

fn hbase() -> Option<&'static Gateways> {
    let g = gateways();
    if g.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no HBase: `hbase-local/run` did not start (Java 17 and Maven needed), and \
             ROWKEY_HBASE_THRIFT is not set"
        );
        eprintln!("SKIPPED: no HBase (set ROWKEY_HBASE_THRIFT or install Java 17 and Maven)");
    }
    g.filter(|g| g.has_gateway())
}

fn config(addr: &str, table: &str) -> HbaseConfig {
    HbaseConfig::new(addr, table, "d")
}

fn new_table(addr: &str, name: &str, splits: &[rowkey::bytes::Bytes]) -> HbaseStore {
    let store = HbaseStore::with_config(config(addr, &unique(name))).unwrap();
    store.create_table(splits).unwrap();
    store
}

/// Skip scans are exact through the Thrift2 gateway, and filtered by the region servers (a
/// `RowFilter` with a regular expression in HBase's filter language).
#[test]
fn skip_scans_are_filtered_by_the_region_servers_on_hbase() {
    let Some(g) = hbase() else { return };
    store_suite::skip::skip_scans_filtered_by_the_store(
        |name, splits| new_table(&g.plain, name, splits),
        500,
        "hbase (Thrift2)",
    );
}

#[test]
fn conformance_suite_on_hbase() {
    let Some(g) = hbase() else { return };
    store_suite::exercise(new_table(
        &g.plain,
        "suite",
        &store_suite::Reading::split_points(4),
    ));
}

#[test]
fn rows_of_cells_on_hbase() {
    let Some(g) = hbase() else { return };
    let families = store_suite::cells::families();
    let store =
        HbaseStore::with_config(config(&g.plain, &unique("cells")).families(families)).unwrap();
    store
        .create_table(&store_suite::Reading::split_points(4))
        .unwrap();
    store_suite::cells::exercise_cells(store);
}

#[test]
fn counters_and_conditional_writes_on_hbase() {
    let Some(g) = hbase() else { return };
    let cfg = config(&g.plain, &unique("atomic")).families([store_suite::atomic::FAMILY]);
    let store = HbaseStore::with_config(cfg).unwrap();
    store.create_table(&[]).unwrap();
    store_suite::atomic::exercise_atomic(store, 8, 50);
}

/// Several clients (each its own connections and cache), as several services would be.
#[test]
fn a_lookup_table_on_hbase() {
    let Some(g) = hbase() else { return };
    let cfg = config(&g.plain, &unique("uids")).families(store_suite::uid::families());
    let first = HbaseStore::with_config(cfg.clone()).unwrap();
    first.create_table(&[]).unwrap();
    store_suite::uid::exercise_uids(|| HbaseStore::with_config(cfg.clone()).unwrap(), 6, 120);
}

#[test]
fn a_lookup_table_through_cut_connections_on_hbase() {
    let Some(g) = hbase() else { return };
    let name = unique("uids_cut");
    let cfg = config(&g.plain, &name).families(store_suite::uid::families());
    let direct = HbaseStore::with_config(cfg).unwrap();
    direct.create_table(&[]).unwrap();
    let p = proxy(&g.plain);
    let through = || {
        let cfg = config(&p.addr, &name)
            .families(store_suite::uid::families())
            .retry(RetryPolicy::no_retries(std::time::Duration::from_secs(2)));
        HbaseStore::with_config(cfg).unwrap()
    };
    uids_through_cuts(through, direct, &p, 4, 150);
}

/// rowkey's counters are HBase's: a counter HBase's Java client incremented (`Increment`)
/// counts on under rowkey's `increment`, and Java reads what rowkey wrote as the long it is.
#[test]
fn counters_agree_with_hbase_java_increment() {
    use rowkey::store::AtomicStore;
    let Some(g) = hbase() else { return };
    let Some(zk) = g.zk.as_deref() else { return };
    let store = new_table(&g.plain, "java_counters", &[]);
    let name = store.inner().config().table.clone();
    java(
        &["write-java-cells", "--zk", zk, "--table", &name],
        "",
        "WROTE ",
    );
    // Java: three Increments of 5. rowkey reads 15 and counts on.
    assert_eq!(store.counter(b"java-counter", "d", b"v").unwrap(), Some(15));
    assert_eq!(store.increment(b"java-counter", "d", b"v", 27).unwrap(), 42);
    // rowkey: a counter of its own, down below zero.
    assert_eq!(
        store.increment(b"rowkey-counter", "d", b"v", -7).unwrap(),
        -7
    );
    let long = |row: &[u8]| -> String {
        let cells = java(
            &["cells", "--zk", zk, "--table", &name, "--row", &hex(row)],
            "",
            "CELL ",
        );
        let [cell] = cells.as_slice() else {
            panic!("one cell expected: {cells:?}")
        };
        cell.iter()
            .find_map(|f| f.strip_prefix("long="))
            .unwrap_or_else(|| panic!("no long in {cell:?}"))
            .to_string()
    };
    assert_eq!(
        long(b"java-counter"),
        "42",
        "Java reads rowkey's increment of its counter"
    );
    assert_eq!(
        long(b"rowkey-counter"),
        "-7",
        "Java's Bytes.toLong of rowkey's counter"
    );
    // A Java long written with Put is a counter too; a string is not.
    assert_eq!(store.increment(b"java-long", "d", b"v", 1).unwrap(), 43);
    let err = store.increment(b"java-string", "d", b"v", 1).unwrap_err();
    assert!(
        matches!(
            err,
            rowkey::store::AtomicError::NotACounter { found: Some(13) }
        ),
        "{err:?}"
    );
}

#[test]
fn rows_as_columns_on_hbase() {
    let Some(g) = hbase() else { return };
    let cfg = config(&g.plain, &unique("wide")).families([store_suite::wide::FAMILY]);
    let store = HbaseStore::with_config(cfg).unwrap();
    store
        .create_table(&store_suite::wide::Point::split_points(4))
        .unwrap();
    store_suite::wide::exercise_wide(store, 64);
}

#[test]
fn an_index_on_hbase() {
    let Some(g) = hbase() else { return };
    store_suite::index::exercise_index(
        new_table(&g.plain, "records", &[]),
        new_table(&g.plain, "app_users", &[]),
        200,
    );
}

#[test]
fn repair_beside_a_writer_on_hbase() {
    let Some(g) = hbase() else { return };
    let records = new_table(&g.plain, "race_records", &[]);
    let index = new_table(&g.plain, "race_index", &[]);
    store_suite::index::repair_races(&records, &index, 0, false);
    store_suite::index::repair_races(&records, &index, 1000, true);
}

#[test]
fn conformance_suite_through_a_framed_gateway() {
    let Some(g) = hbase() else { return };
    let Some(framed) = &g.framed else { return };
    let name = unique("framed");
    let store = HbaseStore::with_config(config(framed, &name).framed(true)).unwrap();
    store
        .create_table(&store_suite::Reading::split_points(2))
        .unwrap();
    store_suite::exercise(store);
    // The unframed client against a framed gateway is a clear error, not a hang.
    let mut cfg = config(framed, &name).retry(RetryPolicy::no_retries(Duration::from_secs(3)));
    cfg.framed = false;
    let wrong = HbaseStore::with_config(cfg).unwrap();
    let err = wrong.get(b"k").unwrap_err();
    eprintln!("unframed client, framed gateway: {err}");
    assert!(err.to_string().contains("HbaseConfig::framed"), "{err}");
}

/// A gateway in HTTP mode (`hbase.regionserver.thrift.http`, no TLS, no authentication): the
/// conformance suite; a batch of 30,000 rows through a proxy cut mid-batch and restored 300 ms
/// later, every row there; the socket client at it, and the HTTP client at a socket gateway,
/// are clear errors. Then one over TLS (no authentication): 20,000 rows, nothing in clear.
#[cfg(feature = "hbase-http")]
#[test]
fn conformance_suite_through_an_http_gateway() {
    let Some(g) = hbase() else { return };
    let Some(http) = &g.http else { return };
    let url = format!("http://{http}/");
    let name = unique("http");
    let store = HbaseStore::with_config(config(&url, &name)).unwrap();
    store
        .create_table(&store_suite::Reading::split_points(2))
        .unwrap();
    store_suite::exercise(store);

    let patient = RetryPolicy {
        max_attempts: 10,
        initial_backoff: Duration::from_millis(100),
        ..RetryPolicy::default()
    };
    let p = proxy(http);
    let table = unique("http_cut");
    let direct = HbaseStore::with_config(config(&url, &table)).unwrap();
    direct.create_table(&[]).unwrap();
    let through =
        HbaseStore::with_config(config(&format!("http://{}/", p.addr), &table).retry(patient))
            .unwrap();
    let rows = numbered_rows(30_000, 2);
    let cutter = cut_after(&p, 800_000, Some(Duration::from_millis(300)));
    through.write_batch(&rows).unwrap();
    cutter.join().unwrap();
    assert!(p.cut.load(Ordering::SeqCst) || p.forwarded.load(Ordering::SeqCst) > 800_000);
    let got: Vec<_> = direct
        .scan(&rowkey::KeyRange::new(&[], None))
        .map(Result::unwrap)
        .collect();
    assert!(got == rows, "{} rows back of {}", got.len(), rows.len());
    direct.drop_table().unwrap();

    let quick = || RetryPolicy::no_retries(Duration::from_secs(3));
    let socket = HbaseStore::with_config(config(http, &name).retry(quick())).unwrap();
    let err = socket.get(b"k").unwrap_err();
    eprintln!("socket client, HTTP gateway: {err}");
    assert!(err.to_string().contains("http://host:port/"), "{err}");
    let web =
        HbaseStore::with_config(config(&format!("http://{}/", g.plain), &name).retry(quick()))
            .unwrap();
    let err = web.get(b"k").unwrap_err();
    eprintln!("HTTP client, socket gateway: {err}");
    assert!(
        err.to_string().contains("is the gateway in HTTP mode"),
        "{err}"
    );

    // Over TLS (the gateway's hbase.thrift.ssl.enabled, this run's CA), no authentication:
    // 20,000 rows through a recording proxy, nothing readable on the wire.
    let Some((https, ca)) = &g.https else { return };
    let p = proxy(https);
    p.record.store(true, Ordering::SeqCst);
    let port = p.addr.rsplit_once(':').unwrap().1;
    let store = HbaseStore::with_config(
        config(&format!("https://localhost:{port}/"), &unique("https"))
            .tls(rowkey::store::Tls::ca_file(ca).unwrap()),
    )
    .unwrap();
    store.create_table(&[]).unwrap();
    let rows: Vec<_> = (0..20_000u32)
        .map(|i| {
            (
                Bytes::from(format!("row{i:08}")),
                Bytes::from(format!("clear-text-marker {i}")),
            )
        })
        .collect();
    store.write_batch(&rows).unwrap();
    let got: Vec<_> = store
        .scan(&rowkey::KeyRange::new(&[], None))
        .map(Result::unwrap)
        .collect();
    assert!(got == rows, "{} rows back of {}", got.len(), rows.len());
    store.drop_table().unwrap();
    let seen = p.seen.lock().unwrap().clone();
    eprintln!(
        "HTTPS, no authentication: 20,000 rows, {} bytes on the wire",
        seen.len()
    );
    assert!(seen.len() > 500_000, "{} bytes seen", seen.len());
    let shows = |what: &[u8]| seen.windows(what.len()).any(|w| w == what);
    assert!(!shows(b"clear-text-marker"), "values crossed in clear");
    assert!(!shows(b"POST"), "a request line crossed in clear");
    assert!(shows(&[0x16, 0x03]), "no TLS handshake on the wire");
}

#[test]
fn scans_outwait_the_scanner_lease_through_the_gateway() {
    let Some(g) = hbase() else { return };
    // Small pages, so that every bucket's scanner is open at the pause.
    let mut cfg = config(&g.plain, &unique("lease"));
    cfg.options.page_rows = 200;
    let store = HbaseStore::with_config(cfg).unwrap();
    store.create_table(&Event::split_points(4)).unwrap();
    scans_outwait_the_scanner_lease(&store, g.scanner_lease);
}

#[test]
fn a_pre_split_table_has_exactly_the_computed_regions() {
    let Some(g) = hbase() else { return };
    for count in [16, 64, 5] {
        let splits = Event::split_points(count);
        let store = new_table(&g.plain, "regions", &splits);
        let regions = store.regions().unwrap();
        let starts: Vec<Vec<u8>> = regions.iter().map(|r| r.start.clone()).collect();
        let ends: Vec<Vec<u8>> = regions.iter().map(|r| r.end.clone()).collect();
        let mut want_starts = vec![Vec::new()];
        want_starts.extend(splits.iter().map(|s| s.to_vec()));
        let mut want_ends: Vec<Vec<u8>> = splits.iter().map(|s| s.to_vec()).collect();
        want_ends.push(Vec::new());
        assert_eq!(starts, want_starts, "{count} regions");
        assert_eq!(ends, want_ends);
        assert_eq!(regions.len(), count);
        // Three region servers share them.
        let servers: BTreeSet<&str> = regions.iter().map(|r| r.server.as_str()).collect();
        assert!(servers.len() > 1, "all regions on {servers:?}");
    }
}

#[test]
fn a_large_salted_table_scans_exactly_with_a_slow_consumer() {
    let Some(g) = hbase() else { return };
    let n: usize = std::env::var("ROWKEY_HBASE_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300_000);
    let store = new_table(&g.plain, "events", &Event::split_points(16));
    let table = Table::<_, Event>::new(store);
    let rows = events(n);
    let value = [7u8; 16];
    large_salted_scan(&table, &rows, &value, "hbase (mini cluster, thrift2)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counters_and_conditional_writes_through_the_async_store() {
    let Some(g) = hbase() else { return };
    let cfg = config(&g.plain, &unique("atomic_async")).families([store_suite::atomic::FAMILY]);
    let store = AsyncHbaseStore::connect(cfg).await.unwrap();
    store.create_table(&[]).await.unwrap();
    store_suite::atomic::exercise_atomic_async(store, 8, 50).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_async_store_serves_a_tokio_service() {
    let Some(g) = hbase() else { return };
    let store = AsyncHbaseStore::connect(config(&g.plain, &unique("async")))
        .await
        .unwrap();
    store.create_table(&Event::split_points(16)).await.unwrap();
    exercise_async_table(store.clone(), 20_000).await;
    let table = AsyncTable::<_, Event>::new(store.clone());
    let rows = events(20_100);
    // deleteMultiple: half the rows go, the rest stay.
    let gone: Vec<Vec<u8>> = rows
        .iter()
        .step_by(2)
        .map(|e| e.to_bytes().unwrap().to_vec())
        .collect();
    store.delete_batch(&gone).await.unwrap();
    assert_eq!(table.scan(&Event::scan().ranges()).count().await, 10_050);
}

#[tokio::test]
async fn the_blocking_store_never_panics_inside_a_runtime() {
    let Some(g) = hbase() else { return };
    let store = new_table(&g.plain, "inside", &[]);
    let table = Table::<_, Event>::new(store);
    let e = &events(1)[0];
    table.put(e, b"v").unwrap();
    assert_eq!(table.get(e).unwrap().as_deref(), Some(&b"v"[..]));
    assert_eq!(table.scan(&Event::scan().ranges()).count(), 1);
    drop(table);
    let addr = g.plain.clone();
    let store = tokio::task::spawn_blocking(move || new_table(&addr, "spawned", &[]))
        .await
        .unwrap();
    store.put(b"k", b"v").unwrap();
    drop(store);
}

#[test]
fn missing_families_and_tables_are_errors_on_reads_too() {
    let Some(g) = hbase() else { return };
    let name = unique("family");
    HbaseStore::with_config(config(&g.plain, &name))
        .unwrap()
        .create_table(&[])
        .unwrap();
    let typo = HbaseStore::with_config(HbaseConfig::new(&g.plain, &name, "dd")).unwrap();
    let err = typo.get(b"k").unwrap_err();
    assert!(
        matches!(err, HbaseError::MissingFamily { ref family, .. } if family == "dd"),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("has no column family `dd` (it has: d)"),
        "{err}"
    );
    let scan: Vec<_> = typo.scan(&rowkey::KeyRange::new(&[], None)).collect();
    assert!(
        matches!(scan.as_slice(), [Err(HbaseError::MissingFamily { .. })]),
        "{scan:?}"
    );
    assert!(typo.put(b"k", b"v").is_err());
    assert!(typo.write_batch(&[("k".into(), Bytes::new())]).is_err());

    let nowhere = HbaseStore::with_config(config(&g.plain, "no_such_table")).unwrap();
    assert!(matches!(
        nowhere.get(b"k"),
        Err(HbaseError::MissingTable { .. })
    ));
    assert!(matches!(
        nowhere.put(b"k", b"v"),
        Err(HbaseError::MissingTable { .. })
    ));
    let scan: Vec<_> = nowhere.scan(&rowkey::KeyRange::new(&[], None)).collect();
    assert!(matches!(
        scan.as_slice(),
        [Err(HbaseError::MissingTable { .. })]
    ));

    // With the check off, HBase itself refuses the missing family (no empty result).
    let mut unchecked = HbaseConfig::new(&g.plain, &name, "dd");
    unchecked.options.check_schema = false;
    let unchecked = HbaseStore::with_config(unchecked).unwrap();
    let err = unchecked.get(b"k").unwrap_err();
    assert!(err.to_string().contains("NoSuchColumnFamily"), "{err}");
}

#[test]
fn keys_over_hbase_limit_are_refused_before_sending() {
    let Some(g) = hbase() else { return };
    let store = new_table(&g.plain, "long", &[]);
    let long = vec![b'x'; 32_768];
    assert!(matches!(
        store.put(&long, b"v"),
        Err(HbaseError::InvalidKey { len: 32_768, .. })
    ));
    assert!(matches!(
        store.get(&long),
        Err(HbaseError::InvalidKey { .. })
    ));
    assert!(matches!(
        store.put(b"", b"v"),
        Err(HbaseError::InvalidKey { len: 0, .. })
    ));
    let err = store
        .write_batch(&[
            ("ok".into(), Bytes::new()),
            (long.clone().into(), Bytes::new()),
        ])
        .unwrap_err();
    assert_eq!(
        err.failed.len(),
        2,
        "nothing of a batch with a bad key is written"
    );
    assert_eq!(store.get(b"ok").unwrap(), None);
    // The longest key HBase takes round-trips.
    store.put(&long[..32_767], b"v").unwrap();
    assert_eq!(
        store.get(&long[..32_767]).unwrap().as_deref(),
        Some(&b"v"[..])
    );
}

#[test]
fn an_unresponsive_server_gives_an_error_within_the_deadline() {
    let addr = black_hole();
    let store = HbaseStore::with_config(config(&addr, "t").retry(unresponsive_policy())).unwrap();
    unresponsive(store, |s| s.create_table(&[]), |e| e.is_transient());
}

/// A fresh table reached two ways: directly, and through a proxy that can be cut, with small
/// batch calls (500 rows, one at a time) so that a cut lands inside a batch.
fn cut_setup(addr: &str, name: &str, retry: RetryPolicy) -> (HbaseStore, Proxy, HbaseStore) {
    let name = unique(name);
    let direct = HbaseStore::with_config(config(addr, &name)).unwrap();
    direct.create_table(&[]).unwrap();
    let p = proxy(addr);
    let mut cfg = config(&p.addr, &name).retry(retry);
    cfg.options.batch_rows = 500;
    cfg.options.batch_concurrency = 1;
    let through = HbaseStore::with_config(cfg).unwrap();
    (direct, p, through)
}

#[test]
fn a_large_table_of_cells_scans_exactly() {
    let Some(g) = hbase() else { return };
    let store = new_table(
        &g.plain,
        "cells_large",
        &store_suite::Reading::split_points(8),
    );
    store_suite::large::large_cell_scan(store, 200_000);
}

#[test]
fn rows_of_cells_cut_mid_batch_are_whole_or_reported() {
    let Some(g) = hbase() else { return };
    let (direct, p, through) = cut_setup(
        &g.plain,
        "cells_cut",
        RetryPolicy::no_retries(Duration::from_secs(5)),
    );
    cells_cut_mid_batch(&direct, &through, &p, 1_000_000);
}

/// A table whose rows hold columns of their own (no `d:v`): the key-only scan finds every row
/// and no value crosses the proxy; the declaration check reads them.
#[test]
fn the_keys_of_rows_with_other_columns_are_read_without_their_values() {
    let Some(g) = hbase() else { return };
    let (direct, p, through) = cut_setup(
        &g.plain,
        "keys_only",
        RetryPolicy {
            max_attempts: 10,
            initial_backoff: Duration::from_millis(100),
            ..RetryPolicy::default()
        },
    );
    keys_of_rows_with_other_columns(&direct, &through, &p, 2_000);
}

#[test]
fn a_connection_cut_mid_batch_loses_nothing_and_reports_exactly_the_unconfirmed_rows() {
    let Some(g) = hbase() else { return };
    let (direct, p, through) = cut_setup(
        &g.plain,
        "cut",
        RetryPolicy::no_retries(Duration::from_secs(5)),
    );
    let rows = numbered_rows(30_000, 1);
    let cutter = cut_after(&p, 1_000_000, None);
    let err = through.write_batch(&rows).unwrap_err();
    cutter.join().unwrap();
    let failed: BTreeSet<Vec<u8>> = err.failed.iter().cloned().collect();
    assert!(
        !failed.is_empty() && failed.len() < rows.len(),
        "{} failed",
        failed.len()
    );
    let stored: BTreeSet<Vec<u8>> = direct
        .scan(&rowkey::KeyRange::new(&[], None))
        .map(|r| r.unwrap().0.to_vec())
        .collect();
    for (k, _) in &rows {
        assert!(
            failed.contains(&k[..]) || stored.contains(&k[..]),
            "confirmed row {k:?} is missing"
        );
    }
    let retry: Vec<_> = rows
        .iter()
        .filter(|(k, _)| failed.contains(&k[..]))
        .cloned()
        .collect();
    direct.write_batch(&retry).unwrap();
    assert_eq!(
        direct.scan(&rowkey::KeyRange::new(&[], None)).count(),
        rows.len()
    );
    eprintln!(
        "cut mid-batch: {} of {} rows reported unwritten ({} of them were in fact stored)",
        failed.len(),
        rows.len(),
        failed.iter().filter(|k| stored.contains(*k)).count()
    );
}

#[test]
fn a_connection_cut_and_restored_is_retried_to_completion() {
    let Some(g) = hbase() else { return };
    recorder();
    let patient = RetryPolicy {
        max_attempts: 10,
        initial_backoff: Duration::from_millis(100),
        ..RetryPolicy::default()
    };
    let (direct, p, through) = cut_setup(&g.plain, "retry", patient.clone());
    let rows = numbered_rows(30_000, 2);
    let cutter = cut_after(&p, 800_000, Some(Duration::from_millis(300)));
    through.write_batch(&rows).unwrap();
    cutter.join().unwrap();
    assert_eq!(
        direct.scan(&rowkey::KeyRange::new(&[], None)).count(),
        rows.len()
    );
    // The client metrics saw it: the connections cut and opened again, the retries, the
    // batch's rows and their bytes.
    a_batch_through_cuts_was_counted(&through.inner().config().table, &rows);
    // Reads resume after a cut too, forward and in reverse.
    let p2 = proxy(&g.plain);
    let mut cfg = config(&p2.addr, &through.inner().config().table).retry(patient);
    cfg.options.page_rows = 2_000;
    let reader = HbaseStore::with_config(cfg).unwrap();
    let want: Vec<Vec<u8>> = rows.iter().map(|(k, _)| k.to_vec()).collect();
    for reversed in [false, true] {
        let all = rowkey::KeyRange::new(&[], None);
        let scan = if reversed {
            reader.scan_rev(&all).unwrap()
        } else {
            reader.scan(&all)
        };
        let mut keys = Vec::new();
        for (i, row) in scan.enumerate() {
            if i == 10_000 {
                p2.cut.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(200));
                p2.cut.store(false, Ordering::SeqCst);
            }
            keys.push(row.unwrap().0);
        }
        let mut want = want.clone();
        if reversed {
            want.reverse();
        }
        assert_eq!(
            keys, want,
            "a scan (reversed: {reversed}) resumes after the last key delivered, no row lost or repeated"
        );
    }
}

fn java(args: &[&str], stdin: &str, tag: &str) -> Vec<Vec<String>> {
    gateways::java(args, stdin, tag).unwrap()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[test]
fn hbase_java_client_reads_what_rowkey_wrote_and_rowkey_reads_what_java_wrote() {
    let Some(g) = hbase() else { return };
    let Some(zk) = g.zk.as_deref() else {
        eprintln!("SKIPPED: no ZooKeeper address for the Java client (ROWKEY_HBASE_ZK)");
        return;
    };
    // rowkey writes typed keys; HBase's client scans them back in the same order, with the same
    // bytes, and prints them (Bytes.toStringBinary) as rowkey does.
    let store = new_table(&g.plain, "interop", &Event::split_points(16));
    let name = store.inner().config().table.clone();
    let table = Table::<_, Event>::new(store.clone());
    let rows = events(3_000);
    let values: Vec<Vec<u8>> = (0..rows.len())
        .map(|i| format!("v{i}").into_bytes())
        .collect();
    table
        .put_batch(rows.iter().zip(&values).map(|(e, v)| (e, &v[..])))
        .unwrap();
    let mut want: Vec<(Vec<u8>, Vec<u8>)> = rows
        .iter()
        .zip(&values)
        .map(|(e, v)| (e.to_bytes().unwrap().to_vec(), v.clone()))
        .collect();
    want.sort();
    let dump = java(&["dump", "--zk", zk, "--table", &name], "", "ROW ");
    assert_eq!(dump.len(), want.len(), "the Java client sees every row");
    for (line, (k, v)) in dump.iter().zip(&want) {
        assert_eq!(line[0], hex(k), "same key bytes, same order");
        assert_eq!(line[1], hex(v));
        assert_eq!(
            line[2..].join(" "),
            rowkey::fmt::binary(k),
            "Bytes.toStringBinary"
        );
        // And the key decodes back to the typed value rowkey wrote.
        assert!(rows.contains(&Event::decode(k).unwrap()));
    }

    // HBase's client writes cells with Bytes.toBytes and Increment; rowkey reads them back.
    let cells = new_table(&g.plain, "java_cells", &[]);
    let name = cells.inner().config().table.clone();
    assert_eq!(
        java(
            &["write-java-cells", "--zk", zk, "--table", &name],
            "",
            "WROTE "
        ),
        [["3"]]
    );
    assert_eq!(
        cells.get(b"java-long").unwrap().as_deref(),
        Some(&42i64.to_be_bytes()[..])
    );
    assert_eq!(
        cells.get(b"java-string").unwrap().as_deref(),
        Some("héllo, hbase".as_bytes())
    );
    assert_eq!(
        cells.get(b"java-counter").unwrap().as_deref(),
        Some(&15i64.to_be_bytes()[..]),
        "a counter HBase incremented three times by 5"
    );

    // Bytes.toStringBinary of every byte value and of real keys equals rowkey's printing.
    let mut samples: Vec<Vec<u8>> = vec![(0..=255u8).collect(), b"row\\x".to_vec()];
    samples.extend(want.iter().take(50).map(|(k, _)| k.clone()));
    let input: String = samples.iter().map(|s| hex(s) + "\n").collect();
    let printed = java(&["binary"], &input, "BIN ");
    assert_eq!(printed.len(), samples.len());
    for (line, s) in printed.iter().zip(&samples) {
        assert_eq!(
            line[1..].join(" "),
            rowkey::fmt::binary(s),
            "toStringBinary of {}",
            hex(s)
        );
    }

    // Bytes.toBytes(Long.MAX_VALUE - ts) is #[reverse_ts]'s encoding.
    #[derive(RowKey)]
    #[rowkey(allow_hotspot)]
    struct Newest {
        #[reverse_ts]
        ts: u64,
    }
    let stamps = [
        0u64,
        1,
        1_700_000_000_000,
        1_799_999_999_999,
        i64::MAX as u64,
    ];
    let input: String = stamps.iter().map(|t| format!("{t}\n")).collect();
    let java_rev = java(&["reverse-ts"], &input, "REV ");
    for (line, &ts) in java_rev.iter().zip(&stamps) {
        assert_eq!(line[0], ts.to_string());
        assert_eq!(line[1], hex(&Newest { ts }.to_bytes().unwrap()), "ts {ts}");
    }
    assert_eq!(java_rev.len(), stamps.len());
}

/// Sums the write counters HBase reports per region of `table`, waiting (up to 20 s) until they
/// account for `expected` writes: the region servers report to the master every second.
fn region_writes(zk: &str, table: &str, expected: i64) -> Vec<(String, String, i64)> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let regions: Vec<(String, String, i64)> = java(
            &["region-writes", "--zk", zk, "--table", table],
            "",
            "REGION ",
        )
        .into_iter()
        .map(|l| (l[1].clone(), l[3].clone(), l[4].parse().unwrap_or(-1)))
        .collect();
        let total: i64 = regions.iter().map(|r| r.2.max(0)).sum();
        if total >= expected || Instant::now() > deadline {
            return regions;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

#[test]
fn hbase_own_counters_show_the_timestamp_hotspot_and_the_salted_spread() {
    let Some(g) = hbase() else { return };
    let Some(zk) = g.zk.as_deref() else { return };
    #[derive(RowKey)]
    #[rowkey(allow_hotspot)]
    struct TsLead {
        #[timestamp]
        ts: u64,
        host: u32,
    }
    #[derive(RowKey)]
    struct Salted {
        #[salt(buckets = 16)]
        #[timestamp]
        ts: u64,
        host: u32,
    }
    let n = 16_000u64;
    let t0 = 1_700_000_000_000u64;
    // The time-led table is split evenly over the timestamp's whole domain, as the schema
    // suggests; the data's hour lands in one region.
    let ts_store = new_table(&g.plain, "ts_lead", &TsLead::split_points(16));
    let ts_keys: Vec<TsLead> = (0..n)
        .map(|i| TsLead {
            ts: t0 + i,
            host: (i % 50) as u32,
        })
        .collect();
    Table::<_, TsLead>::new(ts_store.clone())
        .put_batch(ts_keys.iter().map(|k| (k, &b"x"[..])))
        .unwrap();
    let salted_store = new_table(&g.plain, "salted", &Salted::split_points(16));
    let salted_keys: Vec<Salted> = (0..n)
        .map(|i| Salted {
            ts: t0 + i,
            host: (i % 50) as u32,
        })
        .collect();
    Table::<_, Salted>::new(salted_store.clone())
        .put_batch(salted_keys.iter().map(|k| (k, &b"x"[..])))
        .unwrap();

    let hot = region_writes(zk, &ts_store.inner().config().table, n as i64);
    let spread = region_writes(zk, &salted_store.inner().config().table, n as i64);
    let share = |r: &[(String, String, i64)]| {
        let total: i64 = r.iter().map(|x| x.2.max(0)).sum();
        let max = r.iter().map(|x| x.2).max().unwrap_or(0);
        (total, max as f64 / total.max(1) as f64)
    };
    let (hot_total, hot_max) = share(&hot);
    let (spread_total, spread_max) = share(&spread);
    eprintln!(
        "HBase's counters: timestamp-led {hot_total} writes, busiest region {:.0}%; salted          {spread_total} writes, busiest region {:.1}%",
        hot_max * 100.0,
        spread_max * 100.0
    );
    assert!(hot_total >= n as i64 && spread_total >= n as i64);
    assert_eq!(hot.len(), 16);
    assert!(hot_max > 0.99, "one region takes every timestamp-led write");
    assert!(
        spread_max < 2.0 / 16.0,
        "the salt spreads writes: busiest {spread_max}"
    );

    // A short read costs the region servers a short read: the first page of a range is 128
    // rows, not the configured 5,000 (HBase counts every row its scanners read ahead).
    let name = ts_store.inner().config().table.clone();
    let reads = |zk: &str| -> i64 {
        java(
            &["region-writes", "--zk", zk, "--table", &name],
            "",
            "REGION ",
        )
        .iter()
        .map(|l| l[5].parse::<i64>().unwrap_or(0).max(0))
        .sum()
    };
    // The counts reach the master with the region servers' reports: read until two agree,
    // for two minutes at most (a count that never settles fails here, not CI's time limit).
    let settled = |zk: &str| {
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut seen = vec![reads(zk)];
        loop {
            std::thread::sleep(Duration::from_millis(1200));
            let now = reads(zk);
            if Some(&now) == seen.last() {
                return now;
            }
            seen.push(now);
            assert!(
                Instant::now() < deadline,
                "the region servers' read counts did not settle in 120 s: {seen:?}"
            );
        }
    };
    let before = settled(zk);
    let first: Vec<TsLead> = Table::<_, TsLead>::new(ts_store)
        .scan(&TsLead::scan().ranges())
        .take(10)
        .map(|r| r.unwrap().0)
        .collect();
    assert_eq!(first.len(), 10);
    let read = settled(zk) - before;
    eprintln!("the first 10 rows of a {n}-row range: HBase counted {read} row reads");
    assert!(read <= 128 + 512, "{read} rows read for 10");
}

#[test]
fn java_and_phoenix_salts_equal_the_jvm_and_phoenix_own_code() {
    // Needs only the JVM (hbase-local's Tool), not the cluster.
    if hbase().is_none() {
        return;
    }
    #[derive(RowKey)]
    struct Tsdb {
        metric: u32,
        #[salt(buckets = 20, hash = "java")]
        tag: String,
        #[timestamp]
        ts: u64,
    }
    #[derive(RowKey)]
    struct Phoenix {
        #[salt(buckets = 16, hash = "phoenix")]
        tenant: u32,
        id: String,
    }
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let tsdb: Vec<Vec<u8>> = (0..300)
        .map(|i| {
            let tag: String = (0..(next() % 12))
                .map(|_| char::from(b'a' + (next() % 26) as u8))
                .collect();
            Tsdb {
                metric: next() as u32,
                tag: if i % 7 == 0 { "é\u{0}ß".into() } else { tag },
                ts: next() >> 1,
            }
            .to_bytes()
            .unwrap()
            .to_vec()
        })
        .collect();
    // The salted bytes: everything between the salt byte and the 8-byte timestamp.
    let input: String = tsdb
        .iter()
        .map(|k| hex(&k[1..k.len() - 8]) + "\n")
        .collect();
    let jvm = java(&["java-hash", "--buckets", "20"], &input, "JH ");
    assert_eq!(jvm.len(), tsdb.len());
    for (line, k) in jvm.iter().zip(&tsdb) {
        assert_eq!(line[2], k[0].to_string(), "OpenTSDB's salt of {}", hex(k));
    }
    let phoenix: Vec<Vec<u8>> = (0..300)
        .map(|_| {
            let id: String = (0..(next() % 20))
                .map(|_| char::from((next() % 0x7f) as u8 + 1))
                .collect();
            Phoenix {
                tenant: next() as u32,
                id,
            }
            .to_bytes()
            .unwrap()
            .to_vec()
        })
        .collect();
    let input: String = phoenix.iter().map(|k| hex(&k[1..]) + "\n").collect();
    let real = java(&["phoenix-salt", "--buckets", "16"], &input, "PHX ");
    assert_eq!(real.len(), phoenix.len());
    for (line, k) in real.iter().zip(&phoenix) {
        assert_eq!(
            line[1],
            k[0].to_string(),
            "SaltingUtil.getSaltingByte of {}",
            hex(k)
        );
    }
}

/// Typed values through HBase's own `Bytes`: what rowkey's `RowValue` writes, Java reads with
/// `Bytes.toLong`, `toInt`, `toShort`, `toDouble`, `toFloat`, `toBoolean` and `toString`; and
/// a counter HBase's client incremented reads back as an `i64` column.
#[test]
fn typed_columns_are_hbase_bytes_both_ways() {
    use rowkey::store::{CellTable, Columns, Store};
    use rowkey::RowValue;

    let Some(g) = hbase() else { return };
    let Some(zk) = g.zk.as_deref() else {
        eprintln!("SKIPPED: no ZooKeeper address for the Java client (ROWKEY_HBASE_ZK)");
        return;
    };
    #[derive(RowValue, Debug, PartialEq)]
    #[column(family = "d")]
    struct Typed {
        #[column(name = "l")]
        long: i64,
        #[column(name = "i")]
        int: i32,
        #[column(name = "s")]
        short: i16,
        #[column(name = "f")]
        double: f64,
        #[column(name = "g")]
        float: f32,
        #[column(name = "b")]
        yes: bool,
        #[column(name = "t")]
        text: String,
        #[column(name = "u")]
        unsigned: u64,
    }
    #[derive(RowKey, Debug, PartialEq)]
    struct Id {
        id: u32,
    }
    let store = new_table(&g.plain, "typed", &[]);
    let name = store.inner().config().table.clone();
    let table: CellTable<_, Id, Typed> = CellTable::new(store.clone());
    let value = Typed {
        long: -1_234_567_890_123,
        int: -42,
        short: 300,
        double: -2.5e-3,
        float: 1.25,
        yes: true,
        text: "héllo, hbase".into(),
        unsigned: u64::MAX,
    };
    let key = Id { id: 7 };
    table.put(&key, &value).unwrap();
    assert_eq!(table.get(&key).unwrap().as_ref(), Some(&value));
    let row = hex(&key.to_bytes().unwrap());
    let cells = java(
        &["cells", "--zk", zk, "--table", &name, "--row", &row],
        "",
        "CELL ",
    );
    let reading = |qualifier: &str, what: &str| -> String {
        let line = cells
            .iter()
            .find(|c| c[0] == "d" && c[1] == hex(qualifier.as_bytes()))
            .unwrap_or_else(|| panic!("no cell d:{qualifier} in {cells:?}"));
        line.iter()
            .find_map(|f| f.strip_prefix(&format!("{what}=")))
            .unwrap_or_else(|| panic!("no {what} reading in {line:?}"))
            .to_string()
    };
    assert_eq!(cells.len(), 8, "{cells:?}");
    assert_eq!(reading("l", "long"), value.long.to_string());
    assert_eq!(reading("i", "int"), value.int.to_string());
    assert_eq!(reading("s", "short"), value.short.to_string());
    assert_eq!(reading("f", "double"), "-0.0025");
    assert_eq!(reading("g", "float"), "1.25");
    assert_eq!(reading("b", "boolean"), "true");
    assert_eq!(reading("t", "string"), hex(value.text.as_bytes()));
    assert_eq!(
        reading("u", "long"),
        "-1",
        "u64::MAX is the long -1, same bits"
    );

    // Java's Increment writes an 8-byte long counter: a `RowValue` reads it as an i64.
    #[derive(RowValue)]
    #[column(family = "d")]
    struct Counter {
        #[column(name = "v")]
        n: i64,
    }
    #[derive(RowValue)]
    #[column(family = "d")]
    struct Text {
        #[column(name = "v")]
        s: String,
    }
    java(
        &["write-java-cells", "--zk", zk, "--table", &name],
        "",
        "WROTE ",
    );
    let read = |k: &[u8]| store.read_row(k, &Columns::all()).unwrap().unwrap();
    assert_eq!(Counter::from_row(&read(b"java-counter")).unwrap().n, 15);
    assert_eq!(Counter::from_row(&read(b"java-long")).unwrap().n, 42);
    assert_eq!(
        Text::from_row(&read(b"java-string")).unwrap().s,
        "héllo, hbase"
    );
}

#[test]
fn families_are_created_with_every_option_read_back_and_altered_until_the_diff_is_empty() {
    use rowkey::family::{
        diff, BlockEncoding, Bloom, Compression, Family, FamilyChange, KeepDeleted,
    };
    let Some(g) = hbase() else { return };
    let name = unique("families");
    let store = HbaseStore::with_config(config(&g.plain, &name)).unwrap();
    let declared = [
        Family::new("d")
            .versions(3)
            .min_versions(1)
            .ttl_secs(7 * 86_400)
            .keep_deleted(KeepDeleted::True)
            .bloom(Bloom::RowCol)
            .compression(Compression::Gz)
            .block_size(16 * 1024)
            .in_memory(true)
            .encoding(BlockEncoding::FastDiff),
        Family::new("x"),
    ];
    let splits = [Bytes::from_static(b"\x40"), Bytes::from_static(b"\x80")];
    store.create_table_with(&declared, &splits).unwrap();
    let mut live = store.families().unwrap();
    live.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(live, declared, "every option reads back as declared");
    assert!(diff(&declared, &live).is_empty());
    assert_eq!(
        store.regions().unwrap().len(),
        3,
        "the split points were applied"
    );

    // A changed declaration: exactly the changed options, and a family to add.
    let changed = [
        declared[0].clone().ttl_secs(86_400).versions(5),
        Family::new("x"),
        Family::new("y").ttl_secs(3600),
    ];
    let changes = diff(&changed, &live);
    assert_eq!(
        changes,
        [
            FamilyChange::Modify {
                live: live[0].clone(),
                declared: changed[0].clone(),
                options: vec!["VERSIONS", "TTL"],
            },
            FamilyChange::Add(changed[2].clone()),
        ]
    );
    for change in &changes {
        match change {
            FamilyChange::Add(f) | FamilyChange::Modify { declared: f, .. } => {
                store.alter_family(f).unwrap()
            }
            other => panic!("unexpected {other}"),
        }
    }
    let mut after = store.families().unwrap();
    after.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(after, changed);
    assert!(
        diff(&changed, &after).is_empty(),
        "applied, the diff is empty"
    );

    // Bad declarations are refused before anything is sent.
    let err = store
        .alter_family(&Family::new("z").versions(1).min_versions(2).ttl_secs(60))
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("MIN_VERSIONS (2) is above VERSIONS (1)"),
        "{err}"
    );
    store.drop_table().unwrap();
}

#[test]
fn versions_ttl_min_versions_and_keep_deleted_cells_behave_as_hbase_documents() {
    let Some(g) = hbase() else { return };
    let name = unique("versions");
    let store = HbaseStore::with_config(config(&g.plain, &name)).unwrap();
    let compact = gateways::compactor(g.control.as_deref(), &name);
    store_suite::versions::behave_as_hbase_documents(&store, compact);
}

/// The Thrift2 store configured from the gateway's own `hbase-site.xml` (its address and
/// port, unframed): rows round-trip.
#[test]
fn the_thrift2_store_is_configured_from_hbase_site_xml() {
    let Some(g) = hbase() else { return };
    let (host, port) = g.plain.rsplit_once(':').unwrap();
    let dir = store_suite::net::hbase_site_dir(
        "thrift",
        &[
            ("hbase.regionserver.thrift.ipaddress", host.to_string()),
            ("hbase.regionserver.thrift.port", port.to_string()),
            ("hbase.regionserver.thrift.framed", "false".to_string()),
        ],
    );
    let site = rowkey::store::HbaseSite::load(&dir).unwrap();
    let cfg = site.thrift_config(&unique("thrift_site"), "d").unwrap();
    assert_eq!(cfg.address, g.plain);
    let store = HbaseStore::with_config(cfg).unwrap();
    store.create_table(&[]).unwrap();
    store.put(b"k", b"v").unwrap();
    assert_eq!(store.get(b"k").unwrap().as_deref(), Some(&b"v"[..]));
    store.drop_table().unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_table_records_its_key_layout_and_refuses_a_changed_one() {
    use rowkey::family::Family;
    #[derive(RowKey)]
    struct Before {
        user: u64,
        ts: u64,
    }
    /// The same fields, one of them now reversed: other bytes for the same values.
    #[derive(RowKey)]
    struct After {
        user: u64,
        #[reverse_ts]
        ts: u64,
    }
    let Some(g) = hbase() else { return };
    let name = unique("fingerprint");
    let store = HbaseStore::with_config(config(&g.plain, &name)).unwrap();
    store
        .create_table_for::<Before>(&[Family::new("d")], &[])
        .unwrap();
    assert_eq!(store.key_fingerprint().unwrap(), Some(Before::FINGERPRINT));
    store.check_key_layout::<Before>().unwrap();
    let err = store.check_key_layout::<After>().unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains(&format!("{:#018x}", Before::FINGERPRINT)),
        "{text}"
    );
    assert!(text.contains("re-key"), "{text}");
    store.drop_table().unwrap();

    // A table created without the record passes: nothing to compare.
    let plain = new_table(&g.plain, "fingerprint_none", &[]);
    assert_eq!(plain.key_fingerprint().unwrap(), None);
    plain.check_key_layout::<After>().unwrap();
}

/// Creates the store's table, writes `n` numbered rows (`fill`) and checks a full scan reads
/// exactly them back; returns them.
#[cfg(feature = "hbase-http")]
fn written_and_read_back(store: &HbaseStore, n: u32, fill: u8) -> Vec<rowkey::store::Row> {
    store.create_table(&[]).unwrap();
    let rows = numbered_rows(n, fill);
    store.write_batch(&rows).unwrap();
    let got: Vec<_> = store
        .scan(&rowkey::KeyRange::new(&[], None))
        .map(Result::unwrap)
        .collect();
    assert!(got == rows, "{} rows back of {}", got.len(), rows.len());
    rows
}

/// The cluster and its HTTP and HTTPS gateways (`host:port`) with the HTTPS one's CA file,
/// where both run.
#[cfg(feature = "hbase-http")]
fn http_gateways() -> Option<(&'static Gateways, &'static str, &'static str, &'static str)> {
    let g = hbase()?;
    match (&g.http, &g.https) {
        (Some(http), Some((https, ca))) => Some((g, http, https, ca)),
        _ => None,
    }
}

/// A server process the test started (tinyproxy, nginx), killed when dropped, and the
/// scratch directory it was configured in, removed then.
#[cfg(feature = "hbase-http")]
struct Front(std::process::Child, Option<tempfile::TempDir>);

#[cfg(feature = "hbase-http")]
impl Drop for Front {
    fn drop(&mut self) {
        // SIGTERM, not SIGKILL: nginx's master stops its workers on TERM, and a killed master
        // would leave them holding the port.
        let stopped = std::process::Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        if !stopped {
            let _ = self.0.kill();
        }
        let _ = self.0.wait();
    }
}

/// Starts `program` with `args` (it stays in the foreground) and waits until `port` accepts
/// connections; `None` (a skip, refused under CI) when the program is not installed.
#[cfg(feature = "hbase-http")]
fn front(program: &str, args: &[&str], port: u16) -> Option<Front> {
    let child = match std::process::Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .spawn()
    {
        Ok(c) => Front(c, None),
        Err(e) => {
            assert!(
                std::env::var_os("CI").is_none(),
                "{program} is not installed ({e}): .ci/run installs it"
            );
            eprintln!("SKIPPED: {program} is not installed ({e})");
            return None;
        }
    };
    for _ in 0..100 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Some(child);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{program} did not listen on {port}");
}

/// A tinyproxy on loopback with `extra` configuration lines; its log file beside.
#[cfg(feature = "hbase-http")]
fn tinyproxy(tag: &str, extra: &str) -> Option<(Front, String, std::path::PathBuf)> {
    // Removed with the proxy (the directory is held by its Front).
    let dir = tempfile::Builder::new()
        .prefix(&format!("rowkey-tinyproxy-{tag}-"))
        .tempdir()
        .unwrap();
    let port = gateways::free_port();
    let log = dir.path().join("tinyproxy.log");
    let conf = dir.path().join("tinyproxy.conf");
    std::fs::write(
        &conf,
        format!(
            "Port {port}\nListen 127.0.0.1\nTimeout 600\nMaxClients 64\nLogFile \"{}\"\n\
             LogLevel Connect\nAllow 127.0.0.1\n{extra}\n",
            log.display()
        ),
    )
    .unwrap();
    let mut child = front("tinyproxy", &["-d", "-c", conf.to_str().unwrap()], port)?;
    child.1 = Some(dir);
    Some((child, format!("127.0.0.1:{port}"), log))
}

/// The HTTP gateways through an HTTP proxy (tinyproxy, a real one): every connection a
/// `CONNECT` tunnel (counted in the proxy's own log), to the `http://` gateway (30,000 rows
/// written and scanned back exactly) and the `https://` one (TLS end to end inside the tunnel,
/// the gateway's certificate checked); a proxy that asks for Basic credentials, given none,
/// given wrong ones (each named, not retried, the password never in the message) and given
/// the right ones; a proxy that allows `CONNECT` to port 443 only (its 403 named); a proxy that
/// is not there (retried, then named).
#[cfg(feature = "hbase-http")]
#[test]
fn http_gateways_through_an_http_proxy() {
    use rowkey::store::HttpProxy;
    let Some((g, http, https, ca)) = http_gateways() else {
        return;
    };
    let Some((_open, open, open_log)) = tinyproxy("open", "") else {
        return;
    };
    let table = unique("through_proxy");
    let http_port = http.rsplit_once(':').unwrap().1;
    let url = format!("http://localhost:{http_port}/");
    let store = HbaseStore::with_config(
        config(&url, &table).proxy(HttpProxy::new(&format!("http://{open}"))),
    )
    .unwrap();
    let rows = written_and_read_back(&store, 30_000, 2);
    let tunnels = |log: &std::path::Path, to: &str| {
        std::fs::read_to_string(log)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains("CONNECT") && l.contains(to))
            .count()
    };
    let through = tunnels(&open_log, &format!(":{http_port}"));
    eprintln!("http:// through the proxy: {through} CONNECT tunnel(s) for 30,000 rows");
    assert!((1..=16).contains(&through), "{through} tunnels");

    // https:// inside the tunnel: the gateway's certificate is checked against `localhost`.
    let https_port = https.rsplit_once(':').unwrap().1;
    let secure = HbaseStore::with_config(
        config(&format!("https://localhost:{https_port}/"), &table)
            .tls(rowkey::store::Tls::ca_file(ca).unwrap())
            .proxy(HttpProxy::new(&format!("http://{open}"))),
    )
    .unwrap();
    for (k, v) in rows.iter().step_by(997) {
        assert_eq!(secure.get(k).unwrap().as_ref(), Some(v));
    }
    assert!(tunnels(&open_log, &format!(":{https_port}")) >= 1);

    // Basic credentials.
    let Some((_guarded, guarded, _)) = tinyproxy("auth", "BasicAuth etl s3cret-pw") else {
        return;
    };
    let quick = RetryPolicy::no_retries(Duration::from_secs(5));
    let refused = |proxy: HttpProxy| {
        let t = Instant::now();
        let e = HbaseStore::with_config(config(&url, &table).proxy(proxy).retry(quick.clone()))
            .and_then(|s| s.get(b"k"))
            .unwrap_err();
        assert!(
            t.elapsed() < Duration::from_secs(3),
            "{:?}: {e}",
            t.elapsed()
        );
        e.to_string()
    };
    let e = refused(HttpProxy::new(&format!("http://{guarded}")));
    // tinyproxy answers a CONNECT without credentials 401, where RFC 9110 says 407.
    assert!(e.contains("asks for credentials (HTTP 40"), "{e}");
    let e = refused(HttpProxy::new(&format!("http://etl:wrong-pw@{guarded}")));
    assert!(e.contains("refused the credentials"), "{e}");
    assert!(
        !e.contains("wrong-pw"),
        "the password is in the message: {e}"
    );
    let with_credentials = HbaseStore::with_config(
        config(&url, &table).proxy(HttpProxy::new(&format!("http://etl:s3cret-pw@{guarded}"))),
    )
    .unwrap();
    assert_eq!(
        with_credentials.get(&rows[7].0).unwrap().as_ref(),
        Some(&rows[7].1)
    );

    // CONNECT to 443 only.
    let Some((_strict, strict, _)) = tinyproxy("strict", "ConnectPort 443") else {
        return;
    };
    let e = refused(HttpProxy::new(&format!("http://{strict}")));
    assert!(
        e.contains("refused a tunnel") && e.contains("HTTP 403"),
        "{e}"
    );

    // No proxy there: a transport failure, retried, naming the proxy.
    let gone = format!("127.0.0.1:{}", gateways::free_port());
    let e = HbaseStore::with_config(
        config(&url, &table)
            .proxy(HttpProxy::new(&format!("http://{gone}")))
            .retry(RetryPolicy {
                max_attempts: 2,
                initial_backoff: Duration::from_millis(10),
                ..RetryPolicy::no_retries(Duration::from_secs(2))
            }),
    )
    .and_then(|s| s.get(b"k"))
    .unwrap_err()
    .to_string();
    assert!(e.contains(&format!("the proxy {gone}")), "{e}");

    // A socket gateway has no proxy.
    let Err(e) = HbaseStore::with_config(
        config(&g.plain, &table).proxy(HttpProxy::new(&format!("http://{open}"))),
    ) else {
        panic!("a proxy was taken for a socket gateway")
    };
    assert!(e.to_string().contains("need an HTTP gateway"), "{e}");
    store.drop_table().unwrap();
}

/// The HTTPS gateway behind a TLS front that requires client certificates (nginx with
/// `ssl_verify_client on`, as companies put in front of HBase's gateways, whose Jetty has no
/// setting for it), with this run's CA and client certificate: 20,000 rows written and scanned
/// back presenting the certificate; refused, and said so, presenting none and presenting a
/// self-signed one.
#[cfg(feature = "hbase-http")]
#[test]
fn the_https_gateway_behind_a_front_that_requires_client_certificates() {
    use rowkey::store::{ClientIdentity, Tls};
    let Some((_, http, _, ca)) = http_gateways() else {
        return;
    };
    // hbase-local makes the server, client and stranger certificates beside the CA.
    let tls_dir = std::path::Path::new(ca).parent().unwrap();
    let file = |name: &str| tls_dir.join(name).display().to_string();
    let dir = std::env::temp_dir().join(unique("rowkey-nginx"));
    std::fs::create_dir_all(&dir).unwrap();
    let port = gateways::free_port();
    let d = dir.display();
    std::fs::write(
        dir.join("nginx.conf"),
        format!(
            "daemon off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
             events {{}}\nhttp {{\n  access_log {d}/access.log;\n\
               client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
               fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n\
               scgi_temp_path {d}/scgi;\n\
               server {{\n    listen 127.0.0.1:{port} ssl;\n\
                 ssl_certificate {};\n    ssl_certificate_key {};\n\
                 ssl_client_certificate {ca};\n    ssl_verify_client on;\n\
                 client_max_body_size 0;\n\
                 location / {{\n      proxy_pass http://{http};\n\
                   proxy_http_version 1.1;\n      proxy_set_header Connection \"\";\n\
                   proxy_request_buffering off;\n      proxy_buffering off;\n    }}\n  }}\n}}\n",
            file("server.crt"),
            file("server.key"),
        ),
    )
    .unwrap();
    let conf = dir.join("nginx.conf");
    let Some(_nginx) = front(
        "nginx",
        &[
            "-c",
            conf.to_str().unwrap(),
            "-e",
            &format!("{d}/error.log"),
        ],
        port,
    ) else {
        return;
    };
    let url = format!("https://localhost:{port}/");
    let trust = Tls::ca_file(ca).unwrap();
    let client = ClientIdentity::from_files(file("client.crt"), file("client.key")).unwrap();
    let table = unique("mutual_tls");
    let store =
        HbaseStore::with_config(config(&url, &table).tls(trust.clone().identity(client))).unwrap();
    written_and_read_back(&store, 20_000, 3);
    let verified = std::fs::read_to_string(dir.join("access.log")).unwrap();
    let posts = verified
        .lines()
        .filter(|l| l.contains("\"POST / HTTP/1.1\" 200"))
        .count();
    eprintln!("mutual TLS through nginx: {posts} POSTs answered 200");
    assert!(posts > 10, "{posts} POSTs");

    let quick = RetryPolicy::no_retries(Duration::from_secs(5));
    let refused = |tls: Tls| {
        HbaseStore::with_config(config(&url, &table).tls(tls).retry(quick.clone()))
            .and_then(|s| s.get(b"k"))
            .unwrap_err()
            .to_string()
    };
    let e = refused(trust.clone());
    assert!(
        e.contains("requires a client certificate") && e.contains("configure Tls::identity"),
        "{e}"
    );
    let stranger = ClientIdentity::from_files(file("stranger.crt"), file("stranger.key")).unwrap();
    let e = refused(trust.identity(stranger));
    assert!(e.contains("refused this client's"), "{e}");
    store.drop_table().unwrap();
    std::fs::remove_dir_all(&dir).ok();
}
