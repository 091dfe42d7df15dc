//! A region server crashes in the middle of a batch: every row the HBase store reported written
//! is there once HBase has recovered the server's regions from its write-ahead log, and writing
//! again exactly the rows it reported unwritten completes the table. Through the Thrift2
//! gateway (no retries: the failure list is the point) and natively (feature `hbase-rpc`, with
//! the default retries: the batch rides over the crash as the regions reopen elsewhere).
//!
//! And the active master crashes under native stores that found the cluster through ZooKeeper,
//! through the masters' addresses, and through the first master alone (which learned the
//! region servers from the registry, `GetBootstrapNodes`): a backup master takes over while a
//! writer and merged scans run, regions move under them, and every store goes on; nothing
//! acknowledged is lost, and the writer's longest pause is reported (on a cluster of its own,
//! so that the shared one keeps the master its READY line names).
//!
//! In a test binary of its own, so that the crash cannot disturb the other HBase tests (cargo
//! runs test binaries one after another). Uses the local HBase's control port
//! (`ROWKEY_HBASE_CONTROL`, set by `.ci/run`) or a local HBase it starts itself; a new region
//! server is started afterwards so the cluster is whole again.
#![cfg(feature = "hbase")]

#[path = "store_suite/net.rs"]
mod net;

#[path = "../../hbase-local/gateways.rs"]
mod gateways;

use std::collections::BTreeSet;
#[cfg(feature = "hbase-rpc")]
use std::sync::atomic::Ordering;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use net::{numbered_rows, unique, Event};
use rowkey::store::{HbaseConfig, HbaseStore, RetryPolicy, Store};
use rowkey::RowKey;

/// One crash at a time: each test aborts a region server and starts a new one.
static CRASH: Mutex<()> = Mutex::new(());

fn cluster() -> Option<(gateways::Gateways, String)> {
    let Some(g) = gateways::Gateways::from_env_or_start() else {
        assert!(std::env::var_os("CI").is_none(), "no HBase");
        eprintln!("SKIPPED: no HBase");
        return None;
    };
    let Some(control) = g.control.clone() else {
        eprintln!("SKIPPED: no control port (ROWKEY_HBASE_CONTROL)");
        return None;
    };
    Some((g, control))
}

/// 40,000 rows whose keys spread over all 16 regions (a salt-like first byte).
fn spread_rows() -> Vec<rowkey::store::Row> {
    numbered_rows(40_000, 3)
        .into_iter()
        .enumerate()
        .map(|(i, (k, v))| {
            let mut key = vec![(i % 16) as u8];
            key.extend_from_slice(&k);
            (key.into(), v)
        })
        .collect()
}

/// Every row of `rows` not in `failed` is stored (read through `reader`, patient enough for
/// HBase to have reopened the dead server's regions); writing the failed ones again completes
/// the table. Returns how many of the failed rows were in fact stored.
fn nothing_confirmed_is_lost<S: Store>(
    reader: &S,
    rows: &[rowkey::store::Row],
    failed: &BTreeSet<Vec<u8>>,
) -> usize
where
    S::Error: std::fmt::Debug,
{
    let stored: BTreeSet<Vec<u8>> = reader
        .scan(&rowkey::KeyRange::new(&[], None))
        .map(|r| r.unwrap().0.to_vec())
        .collect();
    let lost: Vec<&[u8]> = rows
        .iter()
        .map(|(k, _)| &k[..])
        .filter(|k| !failed.contains(*k) && !stored.contains(*k))
        .collect();
    assert!(
        lost.is_empty(),
        "{} confirmed rows lost, first {:?}",
        lost.len(),
        lost.first()
    );
    let retry: Vec<_> = rows
        .iter()
        .filter(|(k, _)| failed.contains(&k[..]))
        .cloned()
        .collect();
    reader.write_batch(&retry).unwrap();
    assert_eq!(
        reader.scan(&rowkey::KeyRange::new(&[], None)).count(),
        rows.len()
    );
    failed.iter().filter(|k| stored.contains(*k)).count()
}

#[test]
fn a_region_server_crash_mid_batch_loses_no_confirmed_row() {
    let _one = CRASH.lock().unwrap_or_else(|e| e.into_inner());
    let Some((g, control)) = cluster().filter(|(g, _)| g.has_gateway()) else {
        return;
    };
    let name = unique("crash");
    let direct = HbaseStore::with_config(HbaseConfig::new(&g.plain, &name, "d")).unwrap();
    // Regions on every server, so the crash lands under the batch.
    direct.create_table(&Event::split_points(16)).unwrap();
    let mut cfg = HbaseConfig::new(&g.plain, &name, "d")
        .retry(RetryPolicy::no_retries(Duration::from_secs(5)));
    cfg.options.batch_rows = 500;
    cfg.options.batch_concurrency = 1;
    let writer = HbaseStore::with_config(cfg).unwrap();
    let rows = spread_rows();

    let crash = {
        let control = control.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            gateways::control(&control, "abort-rs")
        })
    };
    let t = Instant::now();
    let outcome = writer.write_batch(&rows);
    let aborted = crash.join().unwrap().unwrap();
    eprintln!(
        "aborted region server {aborted} during a {}-row batch ({:?})",
        rows.len(),
        t.elapsed()
    );
    let failed: BTreeSet<Vec<u8>> = match &outcome {
        Ok(()) => BTreeSet::new(),
        Err(e) => e.failed.iter().cloned().collect(),
    };

    // Once HBase has reassigned the dead server's regions (replaying its WAL), every row
    // reported written is there.
    let patient = HbaseConfig::new(&g.plain, &name, "d").retry(RetryPolicy {
        max_attempts: 10,
        attempt_timeout: Duration::from_secs(30),
        ..RetryPolicy::default()
    });
    let reader = HbaseStore::with_config(patient).unwrap();
    let in_fact_stored = nothing_confirmed_is_lost(&reader, &rows, &failed);
    eprintln!(
        "after the crash: {} rows reported unwritten ({} of them in fact stored), none lost",
        failed.len(),
        in_fact_stored
    );
    let started = gateways::control(&control, "start-rs").unwrap();
    eprintln!("started region server {started}");
}

#[cfg(feature = "hbase-rpc")]
#[test]
fn a_region_server_crash_mid_batch_on_the_native_store() {
    use rowkey::store::{HbaseRpcConfig, HbaseRpcStore};
    let _one = CRASH.lock().unwrap_or_else(|e| e.into_inner());
    let Some((g, control)) = cluster() else {
        return;
    };
    let Some(master) = g.master.clone() else {
        eprintln!("SKIPPED: no master (ROWKEY_HBASE_MASTER)");
        return;
    };
    let name = unique("rpc_crash");
    let mut cfg = HbaseRpcConfig::new(&master, &name, "d");
    cfg.options.batch_rows = 500;
    cfg.options.batch_concurrency = 1;
    let writer = HbaseRpcStore::with_config(cfg).unwrap();
    writer.create_table(&Event::split_points(16)).unwrap();
    let rows = spread_rows();
    // Regions located first, so the crash finds the batch mid-way rather than in meta.
    writer.get(&rows[0].0).unwrap();
    let crash = {
        let control = control.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            gateways::control(&control, "abort-rs")
        })
    };
    let t = Instant::now();
    let outcome = writer.write_batch(&rows);
    let aborted = crash.join().unwrap().unwrap();
    let took = t.elapsed();
    let failed: BTreeSet<Vec<u8>> = match &outcome {
        Ok(()) => BTreeSet::new(),
        Err(e) => e.failed.iter().cloned().collect(),
    };
    eprintln!(
        "aborted region server {aborted} during a {}-row native batch: {} rows reported \
         unwritten, {took:?}{}",
        rows.len(),
        failed.len(),
        match &outcome {
            Ok(()) => String::new(),
            Err(e) => format!(" ({})", e.source),
        }
    );
    let patient = HbaseRpcConfig::new(&master, &name, "d").retry(RetryPolicy {
        max_attempts: 10,
        attempt_timeout: Duration::from_secs(30),
        ..RetryPolicy::default()
    });
    let reader = HbaseRpcStore::with_config(patient).unwrap();
    nothing_confirmed_is_lost(&reader, &rows, &failed);
    // With the default retries the batch rides over the crash: unreachable servers are waited
    // for while the master reopens their regions elsewhere.
    assert!(outcome.is_ok(), "the batch did not ride over the crash");
    let started = gateways::control(&control, "start-rs").unwrap();
    eprintln!("started region server {started}");
}

/// The active master crashes and a backup takes over (HBase's mini cluster starts one on the
/// control port's `start-master`): native stores that found the cluster through ZooKeeper and
/// through both masters' addresses (HBase's `hbase.masters`) go on reading and writing, and ask
/// the new master for the table's families and a new table. On a small cluster of its own
/// (HBase `ROWKEY_HBASE_VERSION` when set).
#[cfg(feature = "hbase-rpc")]
#[test]
fn the_active_master_fails_over_under_the_native_store() {
    use rowkey::store::{HbaseRpcConfig, HbaseRpcStore};
    let Some((mut child, ready)) =
        gateways::start_hbase_local(&["--no-thrift".into(), "--region-servers".into(), "2".into()])
    else {
        assert!(
            std::env::var_os("CI").is_none(),
            "hbase-local/run did not start"
        );
        eprintln!("SKIPPED: no HBase (install Java 17 and Maven)");
        return;
    };
    let field = |name: &str| {
        ready
            .split_whitespace()
            .find_map(|w| w.strip_prefix(name))
            .unwrap_or_else(|| panic!("no {name} in {ready}"))
            .to_string()
    };
    let (zk, master) = (field("zk="), field("master="));
    // GetBootstrapNodes is HBase 2.5's.
    let version = ready
        .split_whitespace()
        .find_map(|w| w.strip_prefix("hbase_version="))
        .unwrap_or("2.6.1")
        .to_string();
    let learns = !version.starts_with("2.4");
    let control = format!("127.0.0.1:{}", field("control="));
    let backup = gateways::control(&control, "start-master").unwrap();
    let masters = format!("{master},{backup}");
    let name = unique("failover");
    let via_zk =
        HbaseRpcStore::with_config(HbaseRpcConfig::from_zookeeper(&zk, &name, "d")).unwrap();
    let via_masters =
        HbaseRpcStore::with_config(HbaseRpcConfig::new(&masters, &name, "d")).unwrap();
    // Two stores that know only the first master: one learns the registry's servers (the
    // region servers) at first contact, one is told never to ask.
    let only_first = HbaseRpcStore::with_config(HbaseRpcConfig::new(&master, &name, "d")).unwrap();
    let never_asks = HbaseRpcStore::with_config(
        HbaseRpcConfig::new(&master, &name, "d")
            .bootstrap_refresh(None)
            .retry(RetryPolicy::no_retries(Duration::from_secs(5))),
    )
    .unwrap();
    via_zk.create_table(&Event::split_points(4)).unwrap();
    let rows = numbered_rows(20_000, 1);
    via_zk.write_batch(&rows).unwrap();
    assert_eq!(count(&via_masters), rows.len());
    assert_eq!(count(&only_first), rows.len());
    assert_eq!(count(&never_asks), rows.len());

    // Under load: a writer acknowledging batches of 500 rows and merged scans of the table
    // above (by the store that knows only the first master) run through the abort and
    // through a move of a region of each table.
    let load = unique("failover_load");
    let writer = HbaseRpcStore::with_config(HbaseRpcConfig::new(&masters, &load, "d")).unwrap();
    writer.create_table(&Event::split_points(4)).unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let t = Instant::now();
    let (acked, longest_pause, scans, took_over) = std::thread::scope(|s| {
        let writing = s.spawn(|| {
            let mut acked = Vec::new();
            let mut last = Instant::now();
            let mut longest = Duration::ZERO;
            for batch in 0u32.. {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let rows: Vec<rowkey::store::Row> = (0..500u32)
                    .map(|i| {
                        (
                            format!("w{batch:06}-{i:03}").into_bytes().into(),
                            format!("value {batch} {i}").into_bytes().into(),
                        )
                    })
                    .collect();
                writer.write_batch(&rows).unwrap();
                longest = longest.max(last.elapsed());
                last = Instant::now();
                acked.extend(rows);
            }
            (acked, longest)
        });
        let scanning = s.spawn(|| {
            let mut scans = 0;
            while !stop.load(Ordering::SeqCst) {
                let mut read = Vec::with_capacity(rows.len());
                for row in only_first.scan(&rowkey::KeyRange::new(b"", None)) {
                    read.push(row.unwrap());
                    if read.len() % 2_000 == 0 {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                }
                assert!(
                    read == rows,
                    "a scan through the failover read {} rows",
                    read.len()
                );
                scans += 1;
            }
            scans
        });
        // The load stops however this ends (a failed step here must not leave it running).
        struct Stop<'a>(&'a std::sync::atomic::AtomicBool);
        impl Drop for Stop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        let stopping = Stop(&stop);
        std::thread::sleep(Duration::from_millis(300));
        // The moves first: the control port's own Java client knows only the first master
        // (HBase 3.0's registry is the masters'), and cannot move regions once it is gone.
        for (table, row) in [
            (&load, b"w000001-000".as_slice()),
            (&name, &rows[10_000].0[..]),
        ] {
            let hex: String = row.iter().map(|b| format!("{b:02x}")).collect();
            let moved = gateways::control(&control, &format!("move {table} {hex}")).unwrap();
            eprintln!("moved a region of {table} to {moved}");
        }
        let took_over = gateways::control(&control, "abort-master").unwrap();
        eprintln!("master failover ({took_over}) in {:?}", t.elapsed());
        std::thread::sleep(Duration::from_millis(1_000));
        drop(stopping);
        let (acked, longest) = writing.join().unwrap();
        (acked, longest, scanning.join().unwrap(), took_over)
    });
    eprintln!(
        "through two moves and the failover: {} rows acknowledged in {:?}, the writer's longest \
         pause {longest_pause:?}; {scans} merged scans of 20,000 rows, each exact",
        acked.len(),
        t.elapsed()
    );
    assert!(
        scans >= 1 && acked.len() >= 5_000,
        "{scans} scans, {} rows",
        acked.len()
    );
    let stored: Vec<_> = writer
        .scan(&rowkey::KeyRange::new(b"", None))
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(
        stored == acked,
        "{} rows stored of {} acknowledged",
        stored.len(),
        acked.len()
    );
    assert!(
        took_over.ends_with(backup.as_str()),
        "{took_over} (backup {backup})"
    );
    // The master is asked for the families: found anew by the store that learned the region
    // servers; the one that never asks has only the master that left.
    if learns {
        assert!(only_first.families().unwrap().iter().any(|f| f.name == "d"));
    } else {
        // HBase 2.4's registry has no GetBootstrapNodes: the store knows only the master.
        assert!(only_first.families().is_err());
    }
    match never_asks.families() {
        Ok(_) => panic!("a store that knows only the master that left found the new one"),
        Err(e) => eprintln!("the store that never asks: {e}"),
    }
    for (store, stamp) in [(&via_zk, 2), (&via_masters, 3)] {
        let again = numbered_rows(20_000, stamp);
        store.write_batch(&again).unwrap();
        let read: Vec<_> = store
            .scan(&rowkey::KeyRange::new(b"", None))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(read, again, "rows read back after the failover");
        // The families come from the master: the new one.
        assert!(store.families().unwrap().iter().any(|f| f.name == "d"));
    }
    for cfg in [
        HbaseRpcConfig::from_zookeeper(&zk, &unique("after_zk"), "d"),
        HbaseRpcConfig::new(&masters, &unique("after_masters"), "d"),
    ] {
        let store = HbaseRpcStore::with_config(cfg).unwrap();
        store.create_table(&[]).unwrap();
        store.write_batch(&rows[..100]).unwrap();
        assert_eq!(count(&store), 100);
    }
    drop(child.stdin.take());
    let _ = child.wait();
}

#[cfg(feature = "hbase-rpc")]
fn count<S: Store>(store: &S) -> usize {
    store
        .scan(&rowkey::KeyRange::new(b"", None))
        .map(|r| r.map(|_| ()))
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
        .len()
}
