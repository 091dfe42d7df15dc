//! The native HBase store (HBase's own RPC, no gateway) against a real HBase: the mini cluster
//! of `hbase-local/` (3 region servers), found through its master's connection registry.
//!
//! - the store conformance suite, rows of cells, counters and conditional writes, a lookup
//!   table with several clients, rows as columns;
//! - tables written by the Thrift2 store read back natively and the other way round;
//! - a pre-split table's regions as `hbase:meta` lists them;
//! - a salted table of `ROWKEY_HBASE_ROWS` rows (300,000 by default) in one batch, read back
//!   merged forward and reverse against the brute-force list;
//! - the async store inside a tokio service;
//! - errors: a missing table or family, a key over 32,767 bytes, no registry at the address;
//! - scanners idle past their lease, regions split and moved under scans and batches;
//! - every connection through proxies ([`HbaseRpcConfig::address_map`]) cut mid-batch (with
//!   and without retries), cut mid-scan, and stalled (servers that stop answering).
//!
//! A region server aborted mid-batch is in `tests/hbase_crash.rs`.
//!
//! Uses the master at `ROWKEY_HBASE_MASTER` as `.ci/run` sets it, or starts `hbase-local/run`.
#![cfg(feature = "hbase-rpc")]

mod store_suite;

#[path = "../../hbase-local/gateways.rs"]
mod gateways;

use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use gateways::Gateways;
use rowkey::store::{
    AsyncHbaseRpcStore, HbaseRpcConfig, HbaseRpcStore, NetError, RetryPolicy, Store,
};
use rowkey::RowKey;
use store_suite::metered::{counters, recorder, sum};
use store_suite::net::*;

fn cluster() -> Option<&'static Gateways> {
    static G: OnceLock<Option<Gateways>> = OnceLock::new();
    let g = G.get_or_init(Gateways::from_env_or_start).as_ref();
    let master = g.and_then(|g| g.master.as_ref());
    if master.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no HBase master: `hbase-local/run` did not start, or ROWKEY_HBASE_MASTER is not set"
        );
        eprintln!("SKIPPED: no HBase (set ROWKEY_HBASE_MASTER or install Java 17 and Maven)");
        return None;
    }
    g
}

/// Held by the tests that move or split regions (hbase:meta among them) and by the one that
/// times an error against a wall-clock bound, so that they never overlap: a region of
/// hbase:meta moving under that batch is not the stall it measures. A failed test's poisoned
/// lock is taken over.
fn meta_moves() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|p| p.into_inner())
}

fn master() -> Option<String> {
    cluster().and_then(|g| g.master.clone())
}

fn config(master: &str, table: &str) -> HbaseRpcConfig {
    HbaseRpcConfig::new(master, table, "d")
}

fn new_table(master: &str, name: &str, splits: &[rowkey::bytes::Bytes]) -> HbaseRpcStore {
    let store = HbaseRpcStore::with_config(config(master, &unique(name))).unwrap();
    store.create_table(splits).unwrap();
    store
}

#[test]
fn scans_outwait_the_scanner_lease_on_hbase_rpc() {
    let Some(g) = cluster() else { return };
    let master = g.master.as_deref().unwrap_or_default();
    let mut cfg = config(master, &unique("lease"));
    cfg.options.page_rows = 200;
    let store = HbaseRpcStore::with_config(cfg).unwrap();
    store.create_table(&Event::split_points(4)).unwrap();
    scans_outwait_the_scanner_lease(&store, g.scanner_lease);
}

#[test]
fn conformance_suite_on_hbase_rpc() {
    let Some(m) = master() else { return };
    store_suite::exercise(new_table(
        &m,
        "rpc_suite",
        &store_suite::Reading::split_points(4),
    ));
}

#[test]
fn rows_of_cells_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let families = store_suite::cells::families();
    let store =
        HbaseRpcStore::with_config(config(&m, &unique("rpc_cells")).families(families)).unwrap();
    store
        .create_table(&store_suite::Reading::split_points(4))
        .unwrap();
    store_suite::cells::exercise_cells(store);
}

#[test]
fn counters_and_conditional_writes_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let cfg = config(&m, &unique("rpc_atomic")).families([store_suite::atomic::FAMILY]);
    let store = HbaseRpcStore::with_config(cfg).unwrap();
    store.create_table(&[]).unwrap();
    store_suite::atomic::exercise_atomic(store, 8, 50);
}

/// Several clients (each its own connections and region cache).
#[test]
fn a_lookup_table_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let cfg = config(&m, &unique("rpc_uids")).families(store_suite::uid::families());
    let first = HbaseRpcStore::with_config(cfg.clone()).unwrap();
    first.create_table(&[]).unwrap();
    store_suite::uid::exercise_uids(|| HbaseRpcStore::with_config(cfg.clone()).unwrap(), 6, 120);
}

#[test]
fn rows_as_columns_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let cfg = config(&m, &unique("rpc_wide")).families([store_suite::wide::FAMILY]);
    let store = HbaseRpcStore::with_config(cfg).unwrap();
    store
        .create_table(&store_suite::wide::Point::split_points(4))
        .unwrap();
    store_suite::wide::exercise_wide(store, 64);
}

/// The two HBase stores keep rows alike: what one writes, the other reads.
#[cfg(feature = "hbase")]
#[test]
fn the_thrift2_store_and_the_native_store_read_each_other() {
    use rowkey::store::{Columns, HbaseConfig, HbaseStore, RowWrite};
    let Some(g) = cluster().filter(|g| g.has_gateway()) else {
        return;
    };
    let m = g.master.clone().unwrap();
    let name = unique("rpc_interop");
    let thrift =
        HbaseStore::with_config(HbaseConfig::new(&g.plain, &name, "d").families(["e"])).unwrap();
    thrift
        .create_table(&[rowkey::bytes::Bytes::from_static(b"m")])
        .unwrap();
    let native = HbaseRpcStore::with_config(config(&m, &name).families(["e"])).unwrap();

    let rows = numbered_rows(2_000, 7);
    thrift.write_batch(&rows).unwrap();
    let read: Vec<_> = native
        .scan(&rowkey::KeyRange::new(b"", None))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        read, rows,
        "the native store reads the Thrift2 store's rows"
    );

    native
        .write_rows(&[RowWrite::new(
            b"cells".to_vec(),
            vec![
                rowkey::store::Cell::new("d", b"a".to_vec(), &b"1"[..]),
                rowkey::store::Cell::new("e", b"b".to_vec(), &b"2"[..]),
            ],
        )])
        .unwrap();
    native.delete(&rows[5].0).unwrap();
    let row = thrift.read_row(b"cells", &Columns::all()).unwrap().unwrap();
    assert_eq!(row.value("d", b"a"), Some(&b"1"[..]));
    assert_eq!(row.value("e", b"b"), Some(&b"2"[..]));
    assert_eq!(
        thrift.get(&rows[5].0).unwrap(),
        None,
        "a native delete hides the row"
    );
    assert_eq!(
        thrift.get(&rows[6].0).unwrap().as_deref(),
        Some(&rows[6].1[..])
    );
}

/// A pre-split table has exactly the split points' regions, each on a server.
#[test]
fn a_pre_split_table_has_its_regions() {
    let Some(m) = master() else { return };
    let splits = Event::split_points(8);
    let store = new_table(&m, "rpc_regions", &splits);
    let regions = store.regions().unwrap();
    assert_eq!(regions.len(), splits.len() + 1);
    assert!(regions[0].start.is_empty() && regions.last().unwrap().end.is_empty());
    for (r, s) in regions.iter().skip(1).zip(&splits) {
        assert_eq!(&r.start[..], &s[..]);
    }
    for w in regions.windows(2) {
        assert_eq!(w[0].end, w[1].start, "regions tile the table");
    }
    assert!(regions.iter().all(|r| !r.server.is_empty()));
}

#[test]
fn a_large_salted_table_merged_forward_and_reverse() {
    let Some(m) = master() else { return };
    let n: usize = std::env::var("ROWKEY_HBASE_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300_000);
    let store = new_table(&m, "rpc_large", &Event::split_points(16));
    let table = rowkey::store::Table::<_, Event>::new(store);
    large_salted_scan(
        &table,
        &events(n),
        &[7u8; 16],
        "hbase (mini cluster, native RPC)",
    );
}

/// Skip scans are exact on the native store, and filtered by the region servers: a
/// `FuzzyRowFilter` for fixed-width keys (only matching rows cross), a `RowFilter` with a
/// regular expression where widths vary (store_suite/skip.rs); and through the async store
/// inside a tokio runtime.
#[test]
fn skip_scans_are_filtered_by_the_region_servers_on_hbase_rpc() {
    let Some(m) = master() else { return };
    store_suite::skip::skip_scans_filtered_by_the_store(
        |name, splits| new_table(&m, name, splits),
        1_000,
        "hbase (native RPC)",
    );
    use futures_util::StreamExt;
    use store_suite::skip::Install;
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = AsyncHbaseRpcStore::connect(config(&m, &unique("skip_async")))
            .await
            .unwrap();
        store.create_table(&[]).await.unwrap();
        let table = rowkey::store::AsyncTable::<_, Install>::new(store);
        let rows: Vec<Install> = (0..200)
            .flat_map(|user| (0..10).map(move |app| Install { user, app, day: 0 }))
            .collect();
        table
            .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
            .await
            .unwrap();
        let query = Install::query().app(4u16).build();
        let mut stream = table.query(&query);
        let mut got = Vec::new();
        while let Some(row) = stream.next().await {
            got.push(row.unwrap().0);
        }
        let want: Vec<Install> = rows.into_iter().filter(|k| k.app == 4).collect();
        assert_eq!(got, want);
        let stats = stream.stats();
        assert_eq!(
            (stats.read, stats.filtered, stats.seeks),
            (200, 1, 0),
            "{stats:?}"
        );
    });
}

/// Rows bulk loaded through HFiles (one per region of a four-region table, written to a
/// staging directory the local cluster reads) are every one readable, with their values, by a
/// scan and by gets; the staging directory is left empty; a
/// second load of the same keys replaces the values.
#[test]
fn rows_bulk_loaded_through_hfiles_are_all_read_back_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let n: u32 = 200_000;
    let key = |i: u32| rowkey::bytes::Bytes::from(format!("bulk{i:08}").into_bytes());
    let store = new_table(&m, "rpc_bulk", &[key(n / 4), key(n / 2), key(n / 4 * 3)]);
    let rows: Vec<rowkey::store::Row> = (0..n)
        .rev() // any order: the load sorts
        .map(|i| (key(i), rowkey::bytes::Bytes::from(i.to_be_bytes().to_vec())))
        .collect();
    let staging = tempfile::tempdir().unwrap();
    let t = Instant::now();
    let report = store.bulk_load(rows, staging.path()).unwrap();
    eprintln!("bulk load of {n} rows: {report:?} in {:.2?}", t.elapsed());
    assert_eq!(report.rows, u64::from(n));
    assert_eq!(report.files, 4, "one file per region");
    let mut seen = 0u32;
    for (i, row) in store.scan(&rowkey::KeyRange::new(b"", None)).enumerate() {
        let (k, v) = row.unwrap();
        assert_eq!(k, key(i as u32));
        assert_eq!(v[..], (i as u32).to_be_bytes());
        seen += 1;
    }
    assert_eq!(seen, n, "every row is read back");
    // Gets pass the region servers' row Bloom filters (the family's default, written by
    // rowkey): a wrong filter would hide rows from them, not from the scan.
    assert!(report.row_bloom, "{report:?}");
    for i in (0..n).step_by(401).chain([1, n / 4 - 1, n / 4, n - 1]) {
        assert_eq!(store.get(&key(i)).unwrap().unwrap()[..], i.to_be_bytes());
    }
    assert_eq!(store.get(b"bulk").unwrap(), None);
    let name = store.inner().config().table.clone();
    java_reads_exactly(
        &name,
        &(0..n)
            .map(|i| (key(i).to_vec(), i.to_be_bytes().to_vec()))
            .collect::<Vec<_>>(),
    );
    assert_eq!(
        std::fs::read_dir(staging.path()).unwrap().count(),
        0,
        "the staged files are gone (moved in by the region servers, or removed once loaded)"
    );
    // `Table::bulk_load` on a store configured with a `bulk_load_dir` goes through HFiles
    // there (the directory is made by the load).
    let dir = staging.path().join("through_table");
    let typed = rowkey::store::Table::<_, Event>::new(
        HbaseRpcStore::with_config(config(&m, &store.inner().config().table).bulk_load_dir(&dir))
            .unwrap(),
    );
    let events = events(5_000);
    typed
        .bulk_load(events.iter().map(|e| (e, b"e".as_slice())))
        .unwrap();
    assert!(dir.is_dir(), "the typed load went through HFiles");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    for e in events.iter().step_by(997) {
        assert_eq!(typed.get(e).unwrap().unwrap()[..], b"e"[..]);
    }

    // Loaded again with other values, after the first region split behind the store's
    // cache: the file written for the old region is refused, and its rows go again to the
    // regions that hold them now. The newer load wins.
    if let Some(control) = cluster().and_then(|g| g.control.clone()) {
        let _alone = meta_moves();
        let name = store.inner().config().table.clone();
        change_region(&control, "split", &name, &key(n / 8));
        let again: Vec<rowkey::store::Row> = (0..n / 4)
            .step_by(7)
            .map(|i| (key(i), rowkey::bytes::Bytes::from_static(b"new")))
            .collect();
        let report = store.bulk_load(again, staging.path()).unwrap();
        eprintln!("after a split: {report:?}");
        assert!(
            report.files >= 2,
            "the split region's rows went to both halves"
        );
        assert_eq!(store.get(&key(7)).unwrap().unwrap()[..], b"new"[..]);
        let past = (n / 8 / 7 + 1) * 7; // the first reloaded key after the split
        assert_eq!(store.get(&key(past)).unwrap().unwrap()[..], b"new"[..]);
        assert_eq!(store.get(&key(8)).unwrap().unwrap()[..], 8u32.to_be_bytes());
    }
}

/// Every row of the store's table, in order, owned.
fn whole_table(store: &HbaseRpcStore) -> Vec<(Vec<u8>, Vec<u8>)> {
    store
        .scan(&rowkey::KeyRange::new(b"", None))
        .map(|r| {
            let (k, v) = r.unwrap();
            (k.to_vec(), v.to_vec())
        })
        .collect()
}

/// HBase's Java client scans table `name` of the shared cluster and finds exactly `rows`
/// (key, value in `d:v`), cell for cell (a SHA-256 over every cell's parts, computed on both
/// sides). Skipped without a ZooKeeper address for the client.
fn java_reads_exactly(name: &str, rows: &[(Vec<u8>, Vec<u8>)]) {
    java_reads_exactly_on(cluster().and_then(|g| g.zk.as_deref()), name, rows);
}

/// [`java_reads_exactly`] on the cluster whose ZooKeeper is `zk`.
fn java_reads_exactly_on(zk: Option<&str>, name: &str, rows: &[(Vec<u8>, Vec<u8>)]) {
    let Some(zk) = zk else {
        eprintln!("SKIPPED: no ZooKeeper address for the Java client");
        return;
    };
    let mut ctx = ring::digest::Context::new(&ring::digest::SHA256);
    for (k, v) in rows {
        for part in [&k[..], b"d", b"v", &v[..]] {
            ctx.update(&(part.len() as i32).to_be_bytes());
            ctx.update(part);
        }
    }
    let sum = hex(ctx.finish().as_ref());
    let lines = gateways::java(&["checksum", "--zk", zk, "--table", name], "", "SUM ")
        .unwrap_or_else(|e| panic!("HBase's Java client: {e}"));
    assert_eq!(
        lines,
        [vec![rows.len().to_string(), rows.len().to_string(), sum]],
        "HBase's Java client reads every row of {name} back, and nothing else"
    );
}

/// A bulk load into a family declared with `SNAPPY` compression (`GZ` where the cluster has no
/// Snappy), its rows cut into many files per region: the files are compressed so, every region loads its files at once, and the
/// loaded table reads back exactly (rowkey's scan and gets, HBase's Java client) before and
/// after a major compaction rewrites the files and a region splits.
#[test]
fn a_bulk_load_follows_the_familys_options_and_survives_compaction_and_splits() {
    let Some(m) = master() else { return };
    let n: u32 = 120_000;
    let key = |i: u32| rowkey::bytes::Bytes::from(format!("fam{i:08}").into_bytes());
    let value = |i: u32| format!("value {i:>30}").into_bytes();
    let name = unique("rpc_bulk_snappy");
    let store = HbaseRpcStore::with_config(config(&m, &name).bulk_file_bytes(128 * 1024)).unwrap();
    // SNAPPY where the cluster has it; HBase 2.4 on Hadoop 2.10 needs Hadoop's native library
    // for it (its table check refuses the family here), and takes GZ in pure Java.
    let splits = [key(n / 4), key(n / 2), key(n / 4 * 3)];
    let family = |c| rowkey::family::Family::new("d").compression(c);
    let codec =
        match store.create_table_with(&[family(rowkey::family::Compression::Snappy)], &splits) {
            Ok(()) => rowkey::store::HFileCompression::Snappy,
            Err(e) if e.to_string().contains("Snappy") => {
                eprintln!("no SNAPPY on this cluster ({e}): GZ instead");
                store
                    .create_table_with(&[family(rowkey::family::Compression::Gz)], &splits)
                    .unwrap();
                rowkey::store::HFileCompression::Gz
            }
            Err(e) => panic!("{e}"),
        };
    let rows: Vec<rowkey::store::Row> = (0..n)
        .map(|i| (key(i), rowkey::bytes::Bytes::from(value(i))))
        .collect();
    let staging = tempfile::tempdir().unwrap();
    let report = store.bulk_load(rows, staging.path()).unwrap();
    eprintln!(
        "bulk load into a {} family, 128 KiB files: {report:?}",
        codec.name()
    );
    assert_eq!(report.compression, codec);
    assert!(report.row_bloom);
    assert!(
        report.files >= 12,
        "a region's rows are cut into several files: {report:?}"
    );
    let expected: Vec<(Vec<u8>, Vec<u8>)> = (0..n).map(|i| (key(i).to_vec(), value(i))).collect();
    let read_back = |when: &str| {
        assert!(
            whole_table(&store) == expected,
            "{when}: the scan reads every row back"
        );
        for i in (0..n).step_by(997).chain([n - 1]) {
            assert_eq!(store.get(&key(i)).unwrap().unwrap()[..], value(i), "{when}");
        }
        java_reads_exactly(&name, &expected);
    };
    read_back("loaded");
    if let Some(control) = cluster().and_then(|g| g.control.clone()) {
        let _alone = meta_moves();
        gateways::control(&control, &format!("major-compact {name}")).unwrap();
        read_back("major-compacted");
        change_region(&control, "split", &name, &key(n / 8));
        read_back("split");
    }
}

/// A bulk load staged on HDFS, on a cluster whose root directory is on HDFS (the shared one
/// when `ROWKEY_HBASE_HDFS` names its HDFS, otherwise a local HBase started here with
/// `--hdfs`): the files are written locally, copied to the staging directory through
/// hdfs-native, moved into the table by the region servers, and every row reads back, through
/// rowkey and through HBase's Java client. A staging directory on a name node that does not
/// answer fails the load with every row listed, and nothing loaded.
#[cfg(feature = "hdfs")]
#[test]
fn a_bulk_load_staged_on_hdfs_reads_back_on_hbase_rpc() {
    let own;
    let g = match cluster().filter(|g| g.hdfs.is_some()) {
        Some(g) => g,
        None => {
            own = gateways::Gateways::start_on_hdfs(2);
            match own.as_ref() {
                Some(g) => g,
                None => {
                    assert!(std::env::var_os("CI").is_none(), "no HBase on HDFS started");
                    eprintln!("SKIPPED: no local HBase on HDFS");
                    return;
                }
            }
        }
    };
    let (Some(m), Some(hdfs)) = (g.master.clone(), g.hdfs.clone()) else {
        panic!(
            "a cluster on HDFS names its master and its HDFS: {:?}",
            g.ready
        );
    };
    let n: u32 = 100_000;
    let key = |i: u32| rowkey::bytes::Bytes::from(format!("hdfs{i:08}").into_bytes());
    let value = |i: u32| i.to_be_bytes().to_vec();
    let name = unique("rpc_bulk_hdfs");
    let store = HbaseRpcStore::with_config(config(&m, &name)).unwrap();
    store
        .create_table(&[key(n / 4), key(n / 2), key(n / 4 * 3)])
        .unwrap();
    let rows: Vec<rowkey::store::Row> = (0..n)
        .map(|i| (key(i), rowkey::bytes::Bytes::from(value(i))))
        .collect();
    let staging = format!("{hdfs}/rowkey-staging/{name}");
    let report = store.bulk_load(rows.clone(), staging.as_str()).unwrap();
    eprintln!("bulk load staged on {staging}: {report:?}");
    assert_eq!((report.rows, report.files), (u64::from(n), 4));
    assert!(
        report.staging > Duration::ZERO,
        "the files were copied to HDFS"
    );
    let expected: Vec<(Vec<u8>, Vec<u8>)> = (0..n).map(|i| (key(i).to_vec(), value(i))).collect();
    assert!(whole_table(&store) == expected, "every row reads back");
    for i in (0..n).step_by(1_013) {
        assert_eq!(store.get(&key(i)).unwrap().unwrap()[..], value(i));
    }
    java_reads_exactly_on(g.zk.as_deref(), &name, &expected);

    // A name node nobody answers at: the load fails before anything is written, every row
    // listed.
    let dead = format!("hdfs://127.0.0.1:{}/rowkey-staging", free_port());
    let err = store.bulk_load(rows, dead.as_str()).unwrap_err();
    assert_eq!(err.failed.len(), n as usize, "{err}");
    assert!(err.to_string().contains("HDFS"), "{err}");
}

/// A loopback port nothing listens on (bound, then released).
#[cfg(feature = "hdfs")]
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The key `rekey_through_hfiles` moves `Event` rows to: by kind, then time (no salt).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct ByKind {
    kind: String,
    ts: u64,
    user_id: u64,
}

/// `rekey` with `RekeyOptions::load` into a store with a `bulk_load_dir` writes every batch
/// through HFiles: every row arrives under its new key, the copy checkpoints after each batch,
/// and a copy resumed from its first checkpoint ends with the same table.
#[test]
fn a_rekey_through_hfiles_copies_every_row_on_hbase_rpc() {
    use rowkey::store::{rekey, RekeyOptions, Table};
    let Some(m) = master() else { return };
    let from = Table::<_, Event>::new(new_table(&m, "rpc_rekey_from", &Event::split_points(4)));
    let events = events(60_000);
    from.put_batch(events.iter().map(|e| (e, e.ts.to_be_bytes())))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let staging = dir.path().join("hfiles"); // made by the first load
    let name = unique("rpc_rekey_to");
    let to_store = HbaseRpcStore::with_config(config(&m, &name).bulk_load_dir(&staging)).unwrap();
    to_store
        .create_table(&["click", "view"].map(|kind| {
            ByKind {
                kind: kind.into(),
                ts: 0,
                user_id: 0,
            }
            .to_bytes()
            .unwrap()
        }))
        .unwrap();
    let to = Table::<_, ByKind>::new(to_store);
    let convert = |e: Event, v: rowkey::bytes::Bytes| {
        Ok((
            ByKind {
                kind: e.kind,
                ts: e.ts,
                user_id: e.user_id,
            },
            v,
        ))
    };
    let options = RekeyOptions::default().batch(25_000).load(true);
    let mut checkpoints = Vec::new();
    let report = rekey(&from, &to, convert, &options, |r| {
        checkpoints.push(r.clone())
    })
    .unwrap();
    assert_eq!((report.read, report.copied), (60_000, 60_000));
    assert_eq!(report.target_rows, Some(60_000));
    assert!(report.is_complete());
    assert_eq!(checkpoints.len(), 3, "a checkpoint per batch");
    assert!(staging.is_dir(), "the batches went through HFiles");
    assert_eq!(
        std::fs::read_dir(&staging).unwrap().count(),
        0,
        "every staged HFile was loaded"
    );
    for e in events.iter().step_by(1_009) {
        let k = ByKind {
            kind: e.kind.clone(),
            ts: e.ts,
            user_id: e.user_id,
        };
        assert_eq!(to.get(&k).unwrap().unwrap()[..], e.ts.to_be_bytes());
    }
    // Resumed from the first checkpoint: the rest is loaded again (a bulk load of the same
    // rows replaces them), and the target still holds each row once.
    let resumed = RekeyOptions::default()
        .batch(25_000)
        .load(true)
        .resume(checkpoints[0].clone());
    let again = rekey(&from, &to, convert, &resumed, |_| {}).unwrap();
    assert_eq!(again.read, 60_000);
    assert_eq!(again.target_rows, Some(60_000));
    assert_eq!(again.runs, 2);
}

/// A bulk load whose connections are all cut half-way through (by bytes: an earlier load
/// through the same proxies, with the connections open, measures how many a load sends) and
/// restored 300 ms later: the refused or
/// unanswered regions' rows are written and loaded again, and every row is there.
#[test]
fn a_bulk_load_through_cut_connections_loads_every_row_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let (direct, name) = cut_table(&m, "rpc_bulk_cut");
    let patient = RetryPolicy {
        max_attempts: 10,
        initial_backoff: Duration::from_millis(100),
        ..RetryPolicy::default()
    };
    let (through, p) = through_proxies(&m, &name, patient);
    let staging = tempfile::tempdir().unwrap();
    // The first load opens the connections and caches the regions; the second is measured.
    through
        .bulk_load(numbered_rows(30_000, 1), staging.path())
        .unwrap();
    let before = p.forwarded.load(Ordering::SeqCst);
    through
        .bulk_load(numbered_rows(30_000, 1), staging.path())
        .unwrap();
    let per_load = p.forwarded.load(Ordering::SeqCst) - before;
    let rows = numbered_rows(30_000, 2);
    let target = p.forwarded.load(Ordering::SeqCst) + per_load / 2;
    let cutter = cut_within(
        &p,
        target,
        Some(Duration::from_millis(300)),
        Some(Duration::from_secs(20)),
    );
    let report = through.bulk_load(rows.clone(), staging.path()).unwrap();
    assert!(cutter.join().unwrap(), "the cut came during the load");
    eprintln!("bulk load cut half-way ({per_load} bytes a load): {report:?}");
    let stored: Vec<_> = direct
        .scan(&rowkey::KeyRange::new(b"", None))
        .map(|r| r.unwrap())
        .collect();
    assert!(stored == rows, "every row, with the second load's values");
}

/// A bulk load whose connections are cut for good half-way through, with no retries: the error
/// lists the rows to load again, each region shows all of the load's rows or none of them (a
/// region's files go in one call), no file is left in the staging directory, and loading the
/// listed rows again completes the table.
#[test]
fn a_bulk_load_cut_for_good_leaves_whole_regions_and_lists_the_rest_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let (direct, name) = cut_table(&m, "rpc_bulk_cut_for_good");
    let (through, p) = through_proxies(&m, &name, RetryPolicy::no_retries(Duration::from_secs(5)));
    let staging = tempfile::tempdir().unwrap();
    // The first load opens the connections and caches the regions; the second measures how
    // many bytes a load sends (paths and calls: the files stay on this machine).
    through
        .bulk_load(numbered_rows(30_000, 1), staging.path())
        .unwrap();
    let before = p.forwarded.load(Ordering::SeqCst);
    through
        .bulk_load(numbered_rows(30_000, 1), staging.path())
        .unwrap();
    let per_load = p.forwarded.load(Ordering::SeqCst) - before;
    // Where in a load's bytes a cut falls between two regions' calls is not known: cuts at
    // several points, until one leaves some regions loaded and others not. Every outcome must
    // show whole regions and list the rest.
    let mut partial = 0;
    for attempt in 0..14 {
        let fraction = 0.3 + 0.05 * attempt as f64;
        let fill = 2 + attempt as u8;
        let rows = numbered_rows(30_000, fill);
        let target = p.forwarded.load(Ordering::SeqCst) + (per_load as f64 * fraction) as usize;
        // Cut for good (or, past the deadline, after the load): restored below.
        let cutter = cut_within(&p, target, None, Some(Duration::from_secs(20)));
        let outcome = through.bulk_load(rows.clone(), staging.path());
        if !cutter.join().unwrap() {
            p.cut.store(true, Ordering::SeqCst);
        }
        let failed: BTreeSet<Vec<u8>> = match &outcome {
            Ok(_) => BTreeSet::new(),
            Err(e) => e.failed.iter().cloned().collect(),
        };
        // The rows that show this load's values.
        let loaded: BTreeSet<Vec<u8>> = direct
            .scan(&rowkey::KeyRange::new(b"", None))
            .map(|r| r.unwrap())
            .filter(|(_, v)| v[0] == fill)
            .map(|(k, _)| k.to_vec())
            .collect();
        for (k, _) in &rows {
            assert!(
                failed.contains(&k[..]) || loaded.contains(&k[..]),
                "row {k:?} neither loaded nor listed"
            );
        }
        // Each region (cut at row00010000 and row00020000) all new or all old.
        for region in rows.chunk_by(|a, b| a.0[..8] == b.0[..8]) {
            let new = region
                .iter()
                .filter(|(k, _)| loaded.contains(&k[..]))
                .count();
            assert!(
                new == 0 || new == region.len(),
                "a region shows {new} of its {} rows",
                region.len()
            );
        }
        let left: Vec<_> = std::fs::read_dir(staging.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "files left in staging: {left:?}");
        // The listed rows loaded again: every row has this load's value.
        let again: Vec<_> = rows
            .iter()
            .filter(|(k, _)| failed.contains(&k[..]))
            .cloned()
            .collect();
        if !again.is_empty() {
            direct.bulk_load(again, staging.path()).unwrap();
        }
        let stored: Vec<_> = direct
            .scan(&rowkey::KeyRange::new(b"", None))
            .map(|r| r.unwrap())
            .collect();
        assert!(stored == rows, "every row, with the load's values");
        // Restored; the connections the cut closed are found dead and opened again.
        p.cut.store(false, Ordering::SeqCst);
        for _ in 0..10 {
            if through
                .scan(&rowkey::KeyRange::new(b"", None))
                .all(|r| r.is_ok())
            {
                break;
            }
        }
        eprintln!(
            "bulk load cut for good at {fraction:.2} of its bytes: {} of {} rows listed ({} of them \
             loaded in fact){}",
            failed.len(),
            rows.len(),
            failed.iter().filter(|k| loaded.contains(*k)).count(),
            outcome.err().map_or(String::new(), |e| format!(": {}", e.source))
        );
        if !failed.is_empty() && failed.len() < rows.len() {
            partial += 1;
            break;
        }
    }
    assert!(
        partial > 0,
        "no cut left some regions loaded and others not"
    );
}

#[test]
fn the_async_store_inside_a_service() {
    let Some(m) = master() else { return };
    let name = unique("rpc_async");
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = AsyncHbaseRpcStore::connect(config(&m, &name))
            .await
            .unwrap();
        store.create_table(&Event::split_points(4)).await.unwrap();
        exercise_async_table(store, 5_000).await;
        // A bulk load awaited on the service's own runtime: the sort and the files run on
        // its blocking threads, the load's calls on its workers, and every row reads back.
        use futures_util::StreamExt;
        let store = AsyncHbaseRpcStore::connect(config(&m, &unique("rpc_async_bulk")))
            .await
            .unwrap();
        let split: rowkey::bytes::Bytes = "row00010000".into();
        store.create_table(&[split]).await.unwrap();
        let staging = tempfile::tempdir().unwrap();
        let rows = numbered_rows(20_000, 5);
        let report = store.bulk_load(rows.clone(), staging.path()).await.unwrap();
        assert_eq!((report.rows, report.files), (20_000, 2), "{report:?}");
        let mut scan = rowkey::store::AsyncStore::scan(&store, &rowkey::KeyRange::new(b"", None));
        let mut read = Vec::new();
        while let Some(row) = scan.next().await {
            read.push(row.unwrap());
        }
        assert_eq!(read, rows, "every row, in order, with its value");
    });
}

/// The dual-write index through the async native store, from a tokio runtime: records and
/// entries in two tables of four regions each, failures injected between the writes, every
/// read through the index model-checked (its gets in flight across regions), then `check`,
/// `repair` and `rebuild_index`.
#[test]
fn an_index_through_the_async_store_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let records = AsyncHbaseRpcStore::connect(config(&m, &unique("records_async")))
            .await
            .unwrap();
        records
            .create_table(&store_suite::index::UserApp::split_points(4))
            .await
            .unwrap();
        let index = AsyncHbaseRpcStore::connect(config(&m, &unique("app_users_async")))
            .await
            .unwrap();
        index
            .create_table(&store_suite::index::AppUser::split_points(4))
            .await
            .unwrap();
        store_suite::index::exercise_index_async(records, index, 200).await;
    });
}

/// The lookup table through the async native store: six tables with their own caches (one
/// client's connections) assigning overlapping names, interleaved at every call.
#[test]
fn a_lookup_table_through_the_async_store_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let cfg = config(&m, &unique("rpc_uids_async")).families(store_suite::uid::families());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = AsyncHbaseRpcStore::connect(cfg).await.unwrap();
        store.create_table(&[]).await.unwrap();
        store_suite::uid::exercise_uids_async(|| store.clone(), 6, 120).await;
    });
}

#[test]
fn errors_are_clear() {
    let Some(m) = master() else { return };
    // A missing table: an error on the first read and write, not an empty table.
    let missing = HbaseRpcStore::with_config(config(&m, &unique("rpc_missing"))).unwrap();
    assert!(matches!(
        missing.get(b"k").unwrap_err(),
        NetError::MissingTable { .. }
    ));
    assert!(matches!(
        missing.put(b"k", b"v").unwrap_err(),
        NetError::MissingTable { .. }
    ));
    // A missing family.
    let name = unique("rpc_family");
    HbaseRpcStore::with_config(config(&m, &name))
        .unwrap()
        .create_table(&[])
        .unwrap();
    let wrong = HbaseRpcStore::with_config(HbaseRpcConfig::new(&m, &name, "nope")).unwrap();
    let e = wrong.put(b"k", b"v").unwrap_err();
    assert!(matches!(e, NetError::MissingFamily { .. }), "{e}");
    // A key HBase cannot hold: refused before anything is sent.
    let store = new_table(&m, "rpc_keys", &[]);
    let e = store.put(&vec![7u8; 32_768], b"v").unwrap_err();
    assert!(matches!(e, NetError::InvalidKey { len: 32_768, .. }), "{e}");
    // No registry at the address: connecting fails within the policy, and says where.
    let cfg = config(&black_hole(), "t")
        .retry(RetryPolicy::no_retries(std::time::Duration::from_secs(1)));
    let e = HbaseRpcStore::with_config(cfg)
        .err()
        .expect("no cluster there");
    assert!(e.to_string().contains("hbase-rpc"), "{e}");
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Splits (`split`) or moves (`move`) the region holding `row` through the local HBase's
/// control port, and waits until HBase has done it.
fn change_region(control: &str, what: &str, table: &str, row: &[u8]) {
    if let Err(e) = gateways::control(control, &format!("{what} {table} {}", hex(row))) {
        panic!("{what}: {e}");
    }
}

/// Scans in flight, forward and reverse, and a batch in flight meet regions that split and
/// move under them: every row comes once, in order, and every row written is there.
#[test]
fn scans_and_batches_survive_splits_and_moves() {
    let Some(g) = cluster() else { return };
    let _alone = meta_moves();
    let (Some(m), Some(control)) = (g.master.clone(), g.control.clone()) else {
        return;
    };
    let name = unique("rpc_moving");
    let store = HbaseRpcStore::with_config(config(&m, &name)).unwrap();
    let rows = numbered_rows(60_000, 3);
    // Pre-split regions, each split once below (a split's daughters cannot split again until
    // compactions have rewritten their parent's files).
    let at = |i: usize| rowkey::bytes::Bytes::from(rows[i].0.to_vec());
    store.create_table(&[at(20_000), at(40_000)]).unwrap();
    store.write_batch(&rows).unwrap();
    let whole = rowkey::KeyRange::new(b"", None);

    let mut seen = Vec::with_capacity(rows.len());
    for (i, row) in store.scan(&whole).enumerate() {
        seen.push(row.unwrap());
        match i {
            // Each change hits the region the scan's open scanner is reading.
            10_000 => change_region(&control, "move", &name, &rows[12_000].0),
            25_000 => change_region(&control, "split", &name, &rows[30_000].0),
            45_000 => change_region(&control, "split", &name, &rows[50_000].0),
            _ => {}
        }
    }
    assert_eq!(
        seen.len(),
        rows.len(),
        "a forward scan lost or repeated rows"
    );
    assert!(seen == rows, "a forward scan's rows differ");

    let mut seen = Vec::with_capacity(rows.len());
    for (i, row) in store.scan_rev(&whole).unwrap().enumerate() {
        seen.push(row.unwrap());
        match i {
            10_000 => change_region(&control, "move", &name, &rows[48_000].0),
            30_000 => change_region(&control, "move", &name, &rows[28_000].0),
            45_000 => change_region(&control, "split", &name, &rows[10_000].0),
            _ => {}
        }
    }
    seen.reverse();
    assert_eq!(
        seen.len(),
        rows.len(),
        "a reverse scan lost or repeated rows"
    );
    assert!(seen == rows, "a reverse scan's rows differ");

    // A batch written while regions move and split beside it.
    let more: Vec<_> = numbered_rows(60_000, 9);
    let changer = {
        let (control, name) = (control.clone(), name.clone());
        let moved = more[45_000].0.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            change_region(&control, "move", &name, &moved);
            change_region(&control, "split", &name, &moved);
            change_region(&control, "move", &name, &moved);
        })
    };
    for chunk in more.chunks(6_000) {
        store.write_batch(chunk).unwrap();
    }
    changer.join().unwrap();
    let after: Vec<_> = store.scan(&whole).collect::<Result<_, _>>().unwrap();
    assert!(
        after == more,
        "every row of the batch is there, once, with its new value"
    );
    assert!(store.regions().unwrap().len() >= 5);
}

/// Found through ZooKeeper, as HBase's Java client finds a cluster by default: the active
/// master and `hbase:meta`'s server read from the znodes under `/hbase` of the local HBase's
/// own ZooKeeper; rows written and read back; then `hbase:meta` moves to another region server
/// and a new table (whose regions are looked up in meta again) still works, the store having
/// read meta's new server from ZooKeeper.
#[test]
fn the_native_store_finds_the_cluster_through_zookeeper() {
    let Some(g) = cluster() else { return };
    // Moving hbase:meta sends every store of the cluster back to its registry.
    let _alone = meta_moves();
    let (Some(zk), Some(control)) = (g.zk.clone(), g.control.clone()) else {
        return;
    };
    let name = unique("rpc_zk");
    let store =
        HbaseRpcStore::with_config(HbaseRpcConfig::from_zookeeper(&zk, &name, "d")).unwrap();
    store.create_table(&Event::split_points(4)).unwrap();
    let rows = numbered_rows(20_000, 4);
    store.write_batch(&rows).unwrap();
    let whole = rowkey::KeyRange::new(b"", None);
    let back: Vec<_> = store.scan(&whole).collect::<Result<_, _>>().unwrap();
    assert!(
        back == rows,
        "every row, in order, through a ZooKeeper-found cluster"
    );
    assert_eq!(store.regions().unwrap().len(), 4);

    // hbase:meta moves; the next lookups find it again through ZooKeeper.
    change_region(&control, "move", "hbase:meta", b"\0");
    let other = unique("rpc_zk_after_move");
    let moved =
        HbaseRpcStore::with_config(HbaseRpcConfig::from_zookeeper(&zk, &other, "d")).unwrap();
    moved.create_table(&[]).unwrap();
    moved.put(b"k", b"v").unwrap();
    assert_eq!(moved.get(b"k").unwrap().as_deref(), Some(&b"v"[..]));
    // The first store, whose meta location went stale, carries on too.
    store.put(b"row-after-move", b"v").unwrap();
    assert_eq!(
        store.get(b"row-after-move").unwrap().as_deref(),
        Some(&b"v"[..])
    );
    assert_eq!(
        store.get(&rows[7_777].0).unwrap().as_ref(),
        Some(&rows[7_777].1)
    );
    moved.drop_table().unwrap();
    store.drop_table().unwrap();
}

/// Configured from an `hbase-site.xml` only, as an operator hands it to HBase's shell: once
/// with the ZooKeeper quorum and its client port (the Java client's default registry), once
/// with the RPC registry and the masters' addresses; rows round-trip through each.
#[test]
fn the_native_store_is_configured_from_hbase_site_xml() {
    let Some(g) = cluster() else { return };
    let (Some(zk), Some(master)) = (g.zk.clone(), g.master.clone()) else {
        return;
    };
    let (zk_host, zk_port) = zk.rsplit_once(':').unwrap();
    let by_zookeeper = hbase_site_dir(
        "zk",
        &[
            ("hbase.zookeeper.quorum", zk_host.to_string()),
            ("hbase.zookeeper.property.clientPort", zk_port.to_string()),
            ("zookeeper.znode.parent", "/hbase".to_string()),
            ("hbase.cluster.distributed", "true".to_string()),
        ],
    );
    let by_masters = hbase_site_dir(
        "masters",
        &[
            (
                "hbase.client.registry.impl",
                "org.apache.hadoop.hbase.client.RpcConnectionRegistry".to_string(),
            ),
            ("hbase.masters", master.clone()),
            // A quorum the RPC registry must not use: a closed port.
            ("hbase.zookeeper.quorum", "127.0.0.1".to_string()),
            ("hbase.zookeeper.property.clientPort", "1".to_string()),
        ],
    );
    for (label, dir) in [("zookeeper", &by_zookeeper), ("masters", &by_masters)] {
        let site = rowkey::store::HbaseSite::load(dir).unwrap();
        let cfg = site
            .rpc_config(&unique(&format!("rpc_site_{label}")), "d")
            .unwrap();
        assert_eq!(cfg.zookeeper.is_some(), label == "zookeeper", "{label}");
        let store = HbaseRpcStore::with_config(cfg).unwrap_or_else(|e| panic!("{label}: {e}"));
        store.create_table(&[]).unwrap();
        let rows = numbered_rows(2_000, 7);
        store.write_batch(&rows).unwrap();
        let back: Vec<_> = store
            .scan(&rowkey::KeyRange::new(b"", None))
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(back == rows, "{label}: the rows differ");
        store.drop_table().unwrap();
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// ZooKeeper refusals, each named within a bound: a quorum that refuses connections, one that
/// never answers, a parent znode no HBase writes under, and znodes a secured ZooKeeper lets
/// only an authenticated identity read (made on the cluster's quorum with a digest ACL by the
/// control port's `protect-znode`).
#[test]
fn zookeeper_refusals_are_named_within_a_bound() {
    let Some(g) = cluster() else { return };
    let Some(zk) = g.zk.clone() else { return };
    let protected = format!("/{}", unique("hbase_secure"));
    if let Some(control) = &g.control {
        gateways::control(control, &format!("protect-znode {protected}")).unwrap();
    }
    let quick = |quorum: &str| {
        let mut cfg = HbaseRpcConfig::from_zookeeper(quorum, "anything", "d");
        cfg.options.connect_timeout = Duration::from_secs(2);
        cfg.retry(RetryPolicy::no_retries(Duration::from_secs(2)))
    };
    let refused = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().to_string()
    };
    for (label, cfg, expect) in [
        ("a closed port", quick(&refused), refused.clone()),
        (
            "a server that never answers",
            quick(&black_hole()),
            "within".to_string(),
        ),
        (
            "another parent",
            quick(&zk).zookeeper(rowkey::store::ZooKeeper::new(&zk).parent("/hbase-unsecure")),
            "no znode /hbase-unsecure".to_string(),
        ),
        (
            "ACL-protected znodes",
            quick(&zk).zookeeper(rowkey::store::ZooKeeper::new(&zk).parent(&protected)),
            "ACL-protected".to_string(),
        ),
    ] {
        if label == "ACL-protected znodes" && g.control.is_none() {
            continue;
        }
        let started = Instant::now();
        let e = HbaseRpcStore::with_config(cfg).err().expect("connected");
        eprintln!("{label}: refused after {:?}: {e}", started.elapsed());
        assert!(started.elapsed() < Duration::from_secs(12), "{label}: {e}");
        let text = e.to_string();
        assert!(text.contains("ZooKeeper"), "{label}: {text}");
        assert!(text.contains(&expect), "{label}: {text}");
    }
}

/// Versions as data natively: the Thrift2 store's suite (`store_suite::versions`), and a
/// negative timestamp refused before anything is sent.
#[test]
fn versions_ttl_min_versions_and_keep_deleted_cells_on_hbase_rpc() {
    let Some(g) = cluster() else { return };
    let Some(m) = g.master.clone() else { return };
    let name = unique("rpc_versions");
    let store = HbaseRpcStore::with_config(config(&m, &name)).unwrap();
    let e = store
        .write_version(b"r", "d", b"q", b"v", -1)
        .expect_err("a negative timestamp");
    assert!(e.to_string().contains("negative"), "{e}");
    let compact = gateways::compactor(g.control.as_deref(), &name);
    store_suite::versions::behave_as_hbase_documents(&store, compact);
}

/// A consumer that holds the scan for a while, then the region it reads moves and splits:
/// the scan carries on with every row once, in order, whatever the pause (none, under half
/// the scanner's lease, past the retry policy's whole budget, past the lease), forward and
/// reverse. The retry budget is short (3 attempts of 2 s) so that a pause outlasts it without
/// making the test long: a budget that counted the consumer's pause failed here with
/// `RegionMovedException` after the third pause.
#[test]
fn a_paused_consumer_then_a_move_and_a_split_lose_nothing() {
    let Some(g) = cluster() else { return };
    let _alone = meta_moves();
    let (Some(m), Some(control)) = (g.master.clone(), g.control.clone()) else {
        return;
    };
    let retry = RetryPolicy {
        attempt_timeout: Duration::from_secs(2),
        ..RetryPolicy::default()
    };
    let budget = retry.attempt_timeout * retry.max_attempts;
    let lease = g.scanner_lease;
    let pauses = [
        Duration::ZERO,
        lease / 4,
        budget + Duration::from_secs(2),
        lease + Duration::from_secs(2),
    ];
    let rows = numbered_rows(20_000, 5);
    let run = |reversed: bool| {
        let name = unique(if reversed {
            "rpc_pause_rev"
        } else {
            "rpc_pause"
        });
        let mut cfg = config(&m, &name).retry(retry.clone());
        cfg.options.page_rows = 1_000;
        let store = HbaseRpcStore::with_config(cfg).unwrap();
        let at = |i: usize| rowkey::bytes::Bytes::from(rows[i].0.to_vec());
        // Four regions: each pause lands in one, which then moves and splits once.
        store
            .create_table(&[at(5_000), at(10_000), at(15_000)])
            .unwrap();
        store.write_batch(&rows).unwrap();
        let whole = rowkey::KeyRange::new(b"", None);
        let scan: Box<dyn Iterator<Item = _>> = if reversed {
            Box::new(store.scan_rev(&whole).unwrap())
        } else {
            Box::new(store.scan(&whole))
        };
        let mut seen = Vec::with_capacity(rows.len());
        for (i, row) in scan.enumerate() {
            let row = row.unwrap_or_else(|e| {
                panic!("reversed={reversed}: the scan failed after {i} rows: {e}")
            });
            seen.push(row);
            if i % 5_000 == 1_000 {
                let pause = pauses[i / 5_000];
                std::thread::sleep(pause);
                // The rows the scan reads next, and the region's middle ahead of them.
                let (next, middle) = if reversed {
                    (rows.len() - 1 - i - 500, rows.len() - 1 - i - 2_500)
                } else {
                    (i + 500, i + 2_500)
                };
                change_region(&control, "move", &name, &rows[next].0);
                change_region(&control, "split", &name, &rows[middle].0);
                eprintln!(
                    "reversed={reversed}: paused {pause:?} at row {i}, then a move and a split"
                );
            }
        }
        if reversed {
            seen.reverse();
        }
        assert_eq!(
            seen.len(),
            rows.len(),
            "reversed={reversed}: rows lost or repeated"
        );
        assert!(seen == rows, "reversed={reversed}: the rows differ");
        assert!(store.regions().unwrap().len() >= 8, "every region split");
        store.drop_table().unwrap();
    };
    std::thread::scope(|s| {
        let forward = s.spawn(|| run(false));
        run(true);
        forward.join().unwrap();
    });
}

/// A store on table `table` whose every connection (registry, master, region servers) goes
/// through a proxy of its own, made when the store first dials the server; the proxies are cut,
/// stalled and counted together through the returned switches. Batch calls of 500 rows, one
/// at a time per server, so that a cut lands inside a batch.
fn through_proxies(master: &str, table: &str, retry: RetryPolicy) -> (HbaseRpcStore, Proxy) {
    let switches = Proxy::switches();
    let shared = switches.share();
    let mut cfg = config(master, table)
        .retry(retry)
        .address_map(proxy_map(switches));
    cfg.options.batch_rows = 500;
    cfg.options.batch_concurrency = 1;
    cfg.options.page_rows = 2_000;
    (HbaseRpcStore::with_config(cfg).unwrap(), shared)
}

/// A table over three regions for `numbered_rows(30_000, _)`.
fn cut_table(master: &str, name: &str) -> (HbaseRpcStore, String) {
    let name = unique(name);
    let direct = HbaseRpcStore::with_config(config(master, &name)).unwrap();
    direct
        .create_table(&[
            rowkey::bytes::Bytes::from_static(b"row00010000"),
            rowkey::bytes::Bytes::from_static(b"row00020000"),
        ])
        .unwrap();
    (direct, name)
}

fn all_keys(store: &HbaseRpcStore) -> BTreeSet<Vec<u8>> {
    store
        .scan(&rowkey::KeyRange::new(b"", None))
        .map(|r| r.unwrap().0.to_vec())
        .collect()
}

#[test]
fn a_connection_cut_mid_batch_loses_nothing_and_reports_exactly_the_unconfirmed_rows_on_hbase_rpc()
{
    let Some(m) = master() else { return };
    let (direct, name) = cut_table(&m, "rpc_cut");
    let (through, p) = through_proxies(&m, &name, RetryPolicy::no_retries(Duration::from_secs(5)));
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
    let stored = all_keys(&direct);
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
    assert_eq!(all_keys(&direct).len(), rows.len());
    eprintln!(
        "cut mid-batch: {} of {} rows reported unwritten ({} of them were in fact stored): {}",
        failed.len(),
        rows.len(),
        failed.iter().filter(|k| stored.contains(*k)).count(),
        err.source
    );
}

/// A table whose rows hold columns of their own (no `d:v`): the key-only scan finds every row
/// and no value crosses the proxies; the declaration check reads them.
#[test]
fn the_keys_of_rows_with_other_columns_are_read_without_their_values_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let (direct, name) = cut_table(&m, "rpc_keys_only");
    let (through, p) = through_proxies(
        &m,
        &name,
        RetryPolicy {
            max_attempts: 10,
            initial_backoff: Duration::from_millis(100),
            ..RetryPolicy::default()
        },
    );
    keys_of_rows_with_other_columns(&direct, &through, &p, 2_000);
}

#[test]
fn connections_cut_and_restored_are_retried_to_completion_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let (direct, name) = cut_table(&m, "rpc_retry");
    let patient = RetryPolicy {
        max_attempts: 10,
        initial_backoff: Duration::from_millis(100),
        ..RetryPolicy::default()
    };
    let (through, p) = through_proxies(&m, &name, patient);
    let rows = numbered_rows(30_000, 2);
    let cutter = cut_after(&p, 800_000, Some(Duration::from_millis(300)));
    through.write_batch(&rows).unwrap();
    cutter.join().unwrap();
    assert_eq!(all_keys(&direct).len(), rows.len());
    // Scans resume after a cut, forward and reverse, without a lost or repeated row.
    let want: Vec<Vec<u8>> = rows.iter().map(|(k, _)| k.to_vec()).collect();
    for reversed in [false, true] {
        let all = rowkey::KeyRange::new(b"", None);
        let scan = if reversed {
            through.scan_rev(&all).unwrap()
        } else {
            through.scan(&all)
        };
        let mut keys = Vec::new();
        for (i, row) in scan.enumerate() {
            if i == 10_000 || i == 25_000 {
                p.cut.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(200));
                p.cut.store(false, Ordering::SeqCst);
            }
            keys.push(row.unwrap().0.to_vec());
        }
        if reversed {
            keys.reverse();
        }
        assert!(keys == want, "a scan cut twice (reversed: {reversed})");
    }
}

/// A skip scan filtered by the region servers, its connections cut twice and its region moved
/// and split under it: the query resumes where it was, with the same filter, and returns each
/// match once, in order, forward and reverse.
#[test]
fn a_filtered_query_survives_cuts_a_move_and_a_split_on_hbase_rpc() {
    use store_suite::skip::Install;
    let Some(g) = cluster() else { return };
    let _alone = meta_moves();
    let (Some(m), Some(control)) = (g.master.clone(), g.control.clone()) else {
        return;
    };
    let name = unique("rpc_skip_cut");
    let at = |user: u32| {
        Install {
            user,
            app: 0,
            day: 0,
        }
        .to_bytes()
        .unwrap()
        .to_vec()
        .into()
    };
    let direct = HbaseRpcStore::with_config(config(&m, &name)).unwrap();
    direct.create_table(&[at(200), at(400)]).unwrap();
    let patient = RetryPolicy {
        max_attempts: 10,
        initial_backoff: Duration::from_millis(100),
        ..RetryPolicy::default()
    };
    let (through, p) = through_proxies(&m, &name, patient);
    let table = rowkey::store::Table::<_, Install>::new(through);
    let rows: Vec<Install> = (0..600)
        .flat_map(|user| {
            (0..20).flat_map(move |app| (0..5).map(move |day| Install { user, app, day }))
        })
        .collect();
    rowkey::store::Table::<_, Install>::new(&direct)
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let want: Vec<&Install> = rows.iter().filter(|k| k.app == 3 || k.app == 11).collect();
    let query = Install::query().app_in([3u16, 11]).build();
    for reversed in [false, true] {
        let mut got = Vec::new();
        let mut rows = if reversed {
            table.query_rev(&query).unwrap()
        } else {
            table.query(&query)
        };
        for i in 0.. {
            if i == 1_000 || i == 4_000 {
                p.cut.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(200));
                p.cut.store(false, Ordering::SeqCst);
            }
            if i == 2_500 {
                // The region ahead of the scan moves, and splits in the middle of what is left.
                let k = &want[if reversed {
                    want.len() - 1 - i - 100
                } else {
                    i + 100
                }];
                let mid = &want[if reversed {
                    want.len() / 8
                } else {
                    want.len() * 7 / 8
                }];
                change_region(&control, "move", &name, &k.to_bytes().unwrap());
                change_region(&control, "split", &name, &mid.to_bytes().unwrap());
            }
            match rows.next() {
                Some(row) => got.push(row.unwrap().0),
                None => break,
            }
        }
        if reversed {
            got.reverse();
        }
        assert_eq!(
            got.len(),
            want.len(),
            "reversed={reversed}: rows lost or repeated"
        );
        assert!(got.iter().eq(want.iter().copied()), "reversed={reversed}");
        let stats = rows.stats();
        assert_eq!(stats.filtered, 1, "{stats:?}");
    }
    assert!(direct.regions().unwrap().len() >= 4, "the regions split");
}

/// One deadline per attempt (issue 61, item 5): every reply comes 600 ms late, so a get on a
/// store that has not located the table yet takes three slow steps (meta's location from the
/// registry, the lookup in hbase:meta, the get), 1.8 s, each within a 1 s attempt_timeout.
/// With retries off the get fails at the attempt's deadline, not after the steps add up (it
/// succeeded after ~1.8 s before they shared one); a write_batch's round the same. With the
/// replies on time again, the same store reads and writes.
#[test]
fn an_attempts_steps_share_one_deadline_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let _alone = meta_moves();
    let (direct, name) = cut_table(&m, "rpc_deadline");
    direct.put(b"row00000001", b"v").unwrap();
    let open = || {
        let switches = Proxy::switches();
        let shared = switches.share();
        let mut cfg = config(&m, &name)
            .retry(RetryPolicy::no_retries(Duration::from_secs(1)))
            .address_map(proxy_map(switches));
        cfg.options.check_schema = false; // the once-per-store check is not an attempt's step
        (HbaseRpcStore::with_config(cfg).unwrap(), shared)
    };
    let (store, p) = open();
    p.slow.store(600, Ordering::SeqCst);
    let t = Instant::now();
    let got = store.get(b"row00000001");
    let took = t.elapsed();
    assert!(got.is_err(), "the get succeeded after {took:?}: {got:?}");
    assert!(
        took < Duration::from_millis(1_400),
        "the get's error took {took:?}"
    );
    let (store, p) = open();
    p.slow.store(600, Ordering::SeqCst);
    let t = Instant::now();
    let err = store.write_batch(&numbered_rows(10, 9)).unwrap_err();
    let took = t.elapsed();
    assert!(
        took < Duration::from_millis(1_400),
        "the batch's error took {took:?}"
    );
    assert_eq!(err.failed.len(), 10);
    p.slow.store(0, Ordering::SeqCst);
    assert_eq!(
        store.get(b"row00000001").unwrap().as_deref(),
        Some(&b"v"[..])
    );
    store.write_batch(&numbered_rows(10, 9)).unwrap();
    eprintln!("one deadline per attempt: the slow batch gave up after {took:?}");
}

/// Servers that stop answering (connections open, nothing comes back): each call gives up at
/// its deadline, the connection is dropped, and the batch goes on once the servers answer
/// again; without retries, the error comes within the deadline and lists exactly the rows not
/// confirmed.
#[test]
fn servers_that_stop_answering_time_out_and_lose_nothing_on_hbase_rpc() {
    let Some(m) = master() else { return };
    // Its error must come within a wall-clock bound: not while hbase:meta moves.
    let _alone = meta_moves();
    let (direct, name) = cut_table(&m, "rpc_stall");
    let patient = RetryPolicy {
        max_attempts: 10,
        initial_backoff: Duration::from_millis(100),
        attempt_timeout: Duration::from_secs(2),
        ..RetryPolicy::default()
    };
    let (through, p) = through_proxies(&m, &name, patient);
    let rows = numbered_rows(30_000, 4);
    let staller = {
        let (stall, forwarded) = (Arc::clone(&p.stall), Arc::clone(&p.forwarded));
        std::thread::spawn(move || {
            while forwarded.load(Ordering::SeqCst) < 800_000 {
                std::thread::sleep(Duration::from_millis(1));
            }
            stall.store(true, Ordering::SeqCst);
            std::thread::sleep(Duration::from_secs(3));
            stall.store(false, Ordering::SeqCst);
        })
    };
    let t = Instant::now();
    through.write_batch(&rows).unwrap();
    staller.join().unwrap();
    let patient_took = t.elapsed();
    assert_eq!(all_keys(&direct).len(), rows.len());
    assert!(
        patient_took < Duration::from_secs(30),
        "the batch took {patient_took:?}"
    );

    // No retries, and the servers never answer again: an error within the deadline.
    let (hasty, p) = through_proxies(&m, &name, RetryPolicy::no_retries(Duration::from_secs(1)));
    let more = numbered_rows(30_000, 5);
    hasty.get(b"row00000001").unwrap();
    p.stall.store(true, Ordering::SeqCst);
    let t = Instant::now();
    let err = hasty.write_batch(&more).unwrap_err();
    let took = t.elapsed();
    // RetryPolicy's bound: max_attempts * (attempt_timeout + max_backoff), 2 s here. (A round
    // waits on hbase:meta and on the region servers at once: one deadline, ~1.05 s.)
    assert!(took < Duration::from_secs(2), "the error took {took:?}");
    assert!(err.source.is_transient(), "{}", err.source);
    let t = Instant::now();
    let e = hasty.get(b"row00000001").unwrap_err();
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "a get took {:?}",
        t.elapsed()
    );
    p.stall.store(false, Ordering::SeqCst);
    let failed: BTreeSet<Vec<u8>> = err.failed.iter().cloned().collect();
    let stored: Vec<_> = direct
        .scan(&rowkey::KeyRange::new(b"", None))
        .map(|r| r.unwrap())
        .collect();
    for (k, v) in &stored {
        let fresh = v[..] == more[0].1[..];
        assert!(
            fresh || failed.contains(&k[..]),
            "row {k:?} confirmed but holds the old value"
        );
    }
    eprintln!(
        "stalled for 3 s mid-batch: written in {patient_took:?} with retries; without: {} of {} \
         rows reported unwritten in {took:?} ({}); a get: {e}",
        failed.len(),
        more.len(),
        err.source
    );
}

/// Region servers as the bootstrap servers (HBase's `hbase.client.bootstrap.servers`, the
/// `RpcConnectionRegistry` way): from HBase 2.5 they serve the connection registry, and the
/// store works through them alone; a 2.4 region server closes the connection instead, and the
/// store says what to give it. (`ROWKEY_HBASE_VERSION`, set by `hbase-local/matrix`, says which
/// HBase runs; 2.6 when unset.)
#[test]
fn region_servers_as_bootstrap_servers() {
    let Some(g) = cluster() else { return };
    let Some(control) = g.control.clone() else {
        return;
    };
    let servers = gateways::control(&control, "servers").unwrap();
    let servers: Vec<&str> = servers.split_whitespace().collect();
    assert!(!servers.is_empty(), "no live region server");
    let version = std::env::var("ROWKEY_HBASE_VERSION").unwrap_or_else(|_| "2.6".into());
    let before_2_5 = version.starts_with("2.4") || version.starts_with("2.3");
    let name = unique("rpc_rs_bootstrap");
    let cfg = config(&servers.join(","), &name);
    if before_2_5 {
        let Err(e) = HbaseRpcStore::with_config(cfg) else {
            panic!("a {version} region server served the connection registry")
        };
        let e = e.to_string();
        assert!(e.contains("before HBase 2.5"), "{e}");
        assert!(e.contains("hbase.masters"), "{e}");
        return;
    }
    let store = HbaseRpcStore::with_config(cfg).unwrap();
    store.create_table(&[]).unwrap();
    let rows = numbered_rows(2_000, 1);
    store.write_batch(&rows).unwrap();
    let read: Vec<_> = store
        .scan(&rowkey::KeyRange::new(b"", None))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(read, rows);
}

/// Keys the seed documents' Java code writes (`hbase-local`'s `write-recipes`: Flurry's
/// `DataOutputStream.writeLong` + `writeUTF`, with ids that are never negative and with
/// negative ones; the HBase guide's `Bytes.toBytes` concatenation with a string last; the
/// text keys of `String.format("%06d:%06d:%d")` (the salting article's date:time:id),
/// `user + "_" + ts` and the Chinese guide's reversed phone + `Long.MAX_VALUE - ts`), written
/// by HBase's Java client and read by rowkey through the declarations of FORMAT.md §2.15: every
/// row decodes typed, re-encodes to its exact bytes and holds the value Java wrote with it;
/// typed scans and queries return what a brute-force filter of the full scan returns.
#[test]
fn rowkey_reads_the_keys_javas_recipes_wrote_on_hbase_rpc() {
    use rowkey::store::Table;
    let Some(m) = master() else { return };
    let Some(zk) = cluster().and_then(|g| g.zk.clone()) else {
        eprintln!("SKIPPED: no ZooKeeper address for the Java client");
        return;
    };

    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(query)]
    struct Flurry {
        #[java]
        user_id: u64,
        #[java(utf)]
        application_id: String,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(query)]
    struct FlurrySigned {
        #[java]
        user_id: i64,
        #[java(utf)]
        application_id: String,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(query)]
    struct Concat {
        #[java]
        shard: i32,
        #[java]
        seq: i64,
        #[rest]
        name: String,
    }

    let n: usize = std::env::var("ROWKEY_RECIPE_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let apps = ["", "mail", "a\0b", "😀maps", "news"];

    /// Writes `n` rows of `layout` with HBase's Java client into a new table; returns every row
    /// read back by rowkey: (raw key, decoded key, the value Java wrote).
    fn load<K>(m: &str, zk: &str, layout: &str, n: usize) -> (Table<HbaseRpcStore, K>, Vec<K>)
    where
        K: RowKey + for<'de> rowkey::Decode<'de> + Clone + std::fmt::Debug,
    {
        let store = new_table(m, &format!("recipe_{}", layout.replace('-', "_")), &[]);
        let name = store.inner().config().table.clone();
        let wrote = gateways::java(
            &[
                "write-recipes",
                "--zk",
                zk,
                "--table",
                &name,
                "--layout",
                layout,
                "--rows",
                &n.to_string(),
            ],
            "",
            "WROTE ",
        )
        .unwrap_or_else(|e| panic!("HBase's Java client: {e}"));
        assert_eq!(wrote, [vec![n.to_string()]]);
        let raw = whole_table(&store);
        assert_eq!(raw.len(), n, "{layout}: rows written");
        let mut keys = Vec::with_capacity(n);
        let mut seen = vec![false; n];
        for (bytes, value) in &raw {
            let k = K::decode(bytes).unwrap_or_else(|e| {
                panic!(
                    "{layout}: {} does not decode: {e}",
                    rowkey::fmt::binary(bytes)
                )
            });
            assert_eq!(
                &k.to_bytes().unwrap()[..],
                &bytes[..],
                "{layout}: re-encodes byte-exact"
            );
            let i = i64::from_be_bytes(value[..].try_into().unwrap()) as usize;
            assert!(
                !std::mem::replace(&mut seen[i], true),
                "{layout}: row {i} twice"
            );
            keys.push(k);
        }
        (Table::new(store), keys)
    }

    let t = Instant::now();
    let (table, rows) = load::<Flurry>(&m, &zk, "flurry", n);
    assert!(rows
        .iter()
        .all(|k| apps.contains(&k.application_id.as_str())));
    let users = (n as u64 / 5) / 3..(n as u64 / 5) / 3 + 50;
    let want: Vec<&Flurry> = rows.iter().filter(|k| users.contains(&k.user_id)).collect();
    let got: Vec<Flurry> = table
        .scan(&Flurry::scan().user_id(users.clone()).ranges())
        .map(|r| r.unwrap().0)
        .collect();
    assert_eq!(got.iter().collect::<Vec<_>>(), want, "a range of users");
    assert_eq!(got.len(), 250);
    let mut walk = table.query(&Flurry::query().application_id("a\0b").build());
    let mut found = 0;
    for r in walk.by_ref() {
        assert_eq!(r.unwrap().0.application_id, "a\0b");
        found += 1;
    }
    assert_eq!(found, n / 5, "one application across users");
    let stats = walk.stats();
    assert_eq!(stats.read, stats.matched, "only matches crossed: {stats:?}");
    eprintln!(
        "flurry: {n} rows written by Java, read, re-encoded and queried in {:.2?}",
        t.elapsed()
    );

    // The declaration checked against the live table before trusting it: a sample spread
    // over the key space reads whole and back to the same bytes.
    let check = rowkey::store::check_layout::<Flurry, _>(table.store(), 10_000).unwrap();
    assert!(check.fits(), "{check}");
    assert_eq!(check.sampled(), 10_000);

    // Moved to rowkey's own layout through HFiles while the application keeps writing (dual
    // writes on another thread), verified identical, and read back by HBase's Java client.
    {
        use rowkey::store::{verify_rekey, DualWriter, RekeyOptions};
        #[derive(RowKey, Debug, Clone, PartialEq)]
        struct Native {
            #[salt(buckets = 8)]
            application_id: String,
            user_id: u64,
        }
        let convert = |k: &Flurry, v: &[u8]| -> Result<(Native, rowkey::bytes::Bytes), String> {
            Ok((
                Native {
                    application_id: k.application_id.clone(),
                    user_id: k.user_id,
                },
                rowkey::bytes::Bytes::copy_from_slice(v),
            ))
        };
        let dir = tempfile::tempdir().unwrap();
        let staging = dir.path().join("hfiles");
        let name = unique("recipe_flurry_native");
        let to_store =
            HbaseRpcStore::with_config(config(&m, &name).bulk_load_dir(&staging)).unwrap();
        to_store.create_table(&Native::split_points(8)).unwrap();
        let to = Table::<_, Native>::new(to_store);
        let dual = DualWriter::new(&table, &to, convert);
        let written = std::thread::scope(|s| {
            let writer = s.spawn(|| {
                let mut n = 0u64;
                for i in 0..1_000u64 {
                    let k = Flurry {
                        user_id: 1_000_000 + i,
                        application_id: apps[(i % 5) as usize].into(),
                    };
                    dual.put(&k, &(i as i64).to_be_bytes()).unwrap();
                    n += 1;
                }
                n
            });
            let report = dual
                .rekey(&RekeyOptions::default().batch(25_000).load(true), |_| {})
                .unwrap();
            assert!(report.unconverted.is_empty(), "{report:?}");
            writer.join().unwrap()
        });
        let diff = verify_rekey(&table, &to, convert).unwrap();
        assert!(diff.is_identical(), "{diff}");
        assert_eq!(diff.new_rows, n + written as usize);
        let all = whole_table(to.store());
        assert_eq!(all.len(), n + written as usize);
        java_reads_exactly(&name, &all);
        eprintln!("flurry: re-keyed through HFiles with 1,000 dual writes during the copy: {diff}");
    }

    let signed = n;
    let (table, rows) = load::<FlurrySigned>(&m, &zk, "flurry-signed", signed);
    // Declared with ids that are never negative, the table with negative ids does not fit, and
    // the check says where.
    let check = rowkey::store::check_layout::<Flurry, _>(table.store(), 5_000).unwrap();
    assert!(check.failed() > 0 && check.decoded() > 0, "{check}");
    assert!(
        check.failures()[0].error.contains("negative Java number"),
        "{check}"
    );
    let check = rowkey::store::check_layout::<FlurrySigned, _>(table.store(), 5_000).unwrap();
    assert!(check.fits(), "{check}");
    assert!(rows.iter().any(|k| k.user_id < 0) && rows.iter().any(|k| k.user_id > 0));
    // Two's complement: the negative ids come after the positive ones in the table.
    let first_negative = rows.iter().position(|k| k.user_id < 0).unwrap();
    assert!(rows[..first_negative].iter().all(|k| k.user_id >= 0));
    for id in [-7i64, 0, 3] {
        let want: Vec<&FlurrySigned> = rows.iter().filter(|k| k.user_id == id).collect();
        let got: Vec<FlurrySigned> = table
            .scan(&FlurrySigned::scan().user_id(id).ranges())
            .map(|r| r.unwrap().0)
            .collect();
        assert_eq!(got.iter().collect::<Vec<_>>(), want, "user {id}");
        assert_eq!(got.len(), 5);
    }

    let (table, rows) = load::<Concat>(&m, &zk, "concat", n);
    for name in ["user_1", "user_10", "user_100", &format!("user_{}", n - 1)] {
        let want: Vec<&Concat> = rows.iter().filter(|k| k.name == name).collect();
        assert_eq!(want.len(), 1, "{name}");
        let k = want[0];
        let got: Vec<Concat> = table
            .scan(&Concat::scan().shard(k.shard).seq(k.seq).name(name).ranges())
            .map(|r| r.unwrap().0)
            .collect();
        assert_eq!(
            got.iter().collect::<Vec<_>>(),
            want,
            "{name}: the one key, not its extensions"
        );
        let found: Vec<Concat> = table
            .query(&Concat::query().name(name).build())
            .map(|r| r.unwrap().0)
            .collect();
        assert_eq!(found.iter().collect::<Vec<_>>(), want, "{name} by query");
    }
    let shard = rows.iter().filter(|k| k.shard == -3).count();
    assert_eq!(
        table.scan(&Concat::scan().shard(-3i32).ranges()).count(),
        shard
    );

    // Text keys (FORMAT.md §2.16), as String.format and string concatenation build them.
    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(delimiter = ':', query)]
    struct Message {
        #[decimal(width = 6)]
        date: u32,
        #[decimal(width = 6)]
        time: u32,
        #[decimal]
        message_id: u64,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(delimiter = '_')]
    struct UserTs {
        user: String,
        #[decimal]
        ts: u64,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(delimiter = '|')]
    struct Call {
        #[reverse]
        phone: String,
        #[decimal(width = 19)]
        reverse_ts: u64,
    }

    let (table, rows) = load::<Message>(&m, &zk, "text", n);
    let check = rowkey::store::check_layout::<Message, _>(table.store(), 10_000).unwrap();
    assert!(check.fits(), "{check}");
    eprintln!("{check}");
    let days = 230_610u32..230_613;
    let want: Vec<&Message> = rows.iter().filter(|k| days.contains(&k.date)).collect();
    let got: Vec<Message> = table
        .scan(&Message::scan().date(days).ranges())
        .map(|r| r.unwrap().0)
        .collect();
    assert_eq!(got.iter().collect::<Vec<_>>(), want, "a range of days");
    assert!(
        got.len() >= n / 10 - 3,
        "three days of thirty: {}",
        got.len()
    );
    let by_id: Vec<Message> = table
        .query(&Message::query().message_id(777u64).build())
        .map(|r| r.unwrap().0)
        .collect();
    assert_eq!(by_id.len(), 1);
    assert_eq!(by_id[0].message_id, 777);

    // The salting article's key whole: MD5Hash.getMD5AsHex of the id, uppercased, then the rest.
    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(delimiter = ':', hash_prefix(md5, of = message_id, upper), query)]
    struct Salted {
        #[decimal(width = 6)]
        date: u32,
        #[decimal(width = 6)]
        time: u32,
        #[decimal]
        message_id: u64,
    }
    let (table, rows) = load::<Salted>(&m, &zk, "salted", n);
    let check = rowkey::store::check_layout::<Salted, _>(table.store(), 10_000).unwrap();
    assert!(check.fits(), "{check}");
    for id in [0u64, 777, n as u64 - 1] {
        let want: Vec<&Salted> = rows.iter().filter(|k| k.message_id == id).collect();
        let got: Vec<Salted> = table
            .query(&Salted::query().message_id(id).build())
            .map(|r| r.unwrap().0)
            .collect();
        assert_eq!(got.iter().collect::<Vec<_>>(), want, "message {id}");
        assert_eq!(got.len(), 1);
        let key = got[0].clone();
        assert_eq!(
            table.get(&key).unwrap().map(|v| v.len()),
            Some(8),
            "a point get by key"
        );
    }

    let small = n;
    let (table, rows) = load::<UserTs>(&m, &zk, "user-ts", small);
    let want: Vec<&UserTs> = rows.iter().filter(|k| k.user == "u10").collect();
    let got: Vec<UserTs> = table
        .scan(&UserTs::scan().user("u10").ranges())
        .map(|r| r.unwrap().0)
        .collect();
    assert_eq!(got.iter().collect::<Vec<_>>(), want, "user u10, not u100");
    assert_eq!(got.len(), small / 1000);

    let (table, rows) = load::<Call>(&m, &zk, "reversed", small);
    let phone = "13800000042";
    let want: Vec<&Call> = rows.iter().filter(|k| k.phone == phone).collect();
    let got: Vec<Call> = table
        .scan(&Call::scan().phone(phone).ranges())
        .map(|r| r.unwrap().0)
        .collect();
    assert_eq!(
        got.iter().collect::<Vec<_>>(),
        want,
        "one phone, newest first"
    );
    assert!(got.windows(2).all(|w| w[0].reverse_ts < w[1].reverse_ts));
}

/// `rowkey::split`'s `RegionSplitter` algorithms give HBase's own split points, byte for byte:
/// each algorithm and region count asked of HBase's class (`RegionSplitter.newSplitAlgoInstance`
/// through `hbase-local`'s tool), with and without first and last rows.
#[test]
fn region_splitter_points_are_hbases() {
    if master().is_none() {
        return;
    }
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    let hexes = |points: Vec<rowkey::bytes::Bytes>| points.iter().map(|b| hex(b)).collect();
    // Each case: its line for the Java tool (ALGO REGIONS [FIRST LAST]) and rowkey's points.
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for regions in [2usize, 3, 7, 16, 100, 255] {
        cases.push((
            format!("HexStringSplit {regions}"),
            hexes(rowkey::split::hex_string_split(regions)),
        ));
        cases.push((
            format!("DecimalStringSplit {regions}"),
            hexes(rowkey::split::decimal_string_split(regions)),
        ));
        cases.push((
            format!("UniformSplit {regions}"),
            hexes(rowkey::split::uniform_split(regions)),
        ));
    }
    for (first, last, regions) in [
        ("0a", "ff", 5usize),
        ("0000", "ffffffffffff", 9),
        ("00", "03", 3),
    ] {
        cases.push((
            format!("HexStringSplit {regions} {first} {last}"),
            hexes(rowkey::split::hex_string_split_between(first, last, regions).unwrap()),
        ));
    }
    // UniformSplit between short rows: HBase adds a byte of precision when they are too close.
    let parse = |s: &str| -> Vec<u8> {
        let mut out = Vec::new();
        let mut rest = s;
        while !rest.is_empty() {
            if let Some(h) = rest.strip_prefix("\\x") {
                out.push(u8::from_str_radix(&h[..2], 16).unwrap());
                rest = &h[2..];
            } else {
                out.push(rest.as_bytes()[0]);
                rest = &rest[1..];
            }
        }
        out
    };
    for (first, last, regions) in [
        ("\\x00", "\\x02", 5usize),
        ("a", "b", 4),
        ("\\x10\\x00", "\\x10\\x01", 7),
    ] {
        cases.push((
            format!("UniformSplit {regions} {first} {last}"),
            hexes(
                rowkey::split::uniform_split_between(&parse(first), &parse(last), regions).unwrap(),
            ),
        ));
    }
    // One JVM for every case.
    let stdin: String = cases.iter().map(|(line, _)| format!("{line}\n")).collect();
    let mut theirs: Vec<Vec<String>> = vec![Vec::new(); cases.len()];
    for l in gateways::java(&["region-splitter"], &stdin, "SPLIT ")
        .unwrap_or_else(|e| panic!("HBase's RegionSplitter: {e}"))
    {
        theirs[l[0].parse::<usize>().unwrap()].push(l[1].clone());
    }
    for ((line, ours), theirs) in cases.iter().zip(&theirs) {
        assert_eq!(ours, theirs, "{line}");
    }
    eprintln!("{} RegionSplitter cases equal HBase's", cases.len());
}

/// A salted key (8 buckets) whose users' visits spread over the table.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct HotVisit {
    #[salt(buckets = 8)]
    user: u64,
    seq: u32,
}

/// A key led by a timestamp (accepted with `allow_hotspot`): every new row lands on the last
/// region.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct Tick {
    #[timestamp]
    ts: u64,
    host: u16,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

/// The load of `work`, sampled from the region servers before and after it.
fn load_of(
    store: &HbaseRpcStore,
    schema: &'static rowkey::Schema,
    work: impl FnOnce(),
) -> rowkey::hotspot::HotspotReport {
    let before = store.region_loads().unwrap();
    let started = Instant::now();
    work();
    let after = store.region_loads().unwrap();
    rowkey::hotspot::HotspotReport::between(schema, &before, &after, started.elapsed())
}

/// Hotspots from the region servers' own request counters, read through the key's layout:
/// an even load on a salted table (skew under 1.5, each region near the layout's predicted
/// share), one user hammered (the report names the region, its salt bucket, and, from a
/// sample of what the region was written during the interval, the user), and a timestamp-led
/// table (the last region takes every write, one region as the layout predicts; its sample is
/// the time range written). The regions' writes add up to the rows written within 5 %.
#[test]
fn hotspots_name_the_region_its_bucket_and_the_user_on_hbase_rpc() {
    let Some(m) = master() else { return };
    let store = new_table(&m, "rpc_hot", &HotVisit::split_points(8));
    let table = rowkey::store::Table::<_, HotVisit>::new(&store);

    let even: Vec<HotVisit> = (0..4_000u64)
        .flat_map(|user| (0..5).map(move |seq| HotVisit { user, seq }))
        .collect();
    let report = load_of(&store, HotVisit::SCHEMA, || {
        table.put_batch(even.iter().map(|k| (k, b"v"))).unwrap();
    });
    eprintln!("{report}");
    assert_eq!(report.regions.len(), 8, "{report}");
    let written = even.len() as f64;
    assert!(
        (report.writes as f64 - written).abs() <= written * 0.05,
        "the regions counted {} writes for {written} rows\n{report}",
        report.writes
    );
    assert!(report.write_skew() < 1.5, "{report}");
    for r in &report.regions {
        assert_eq!(r.predicted_share, Some(0.125));
        assert!((r.write_share - 0.125).abs() < 0.05, "{report}");
    }

    // One user hammered: 20,000 new visits, and 2,000 spread over the others.
    let hot_user = 81_223u64;
    let since = now_ms();
    let hammer: Vec<HotVisit> = (0..20_000u32)
        .map(|seq| HotVisit {
            user: hot_user,
            seq,
        })
        .chain((0..2_000u64).map(|user| HotVisit { user, seq: 100 }))
        .collect();
    let mut report = load_of(&store, HotVisit::SCHEMA, || {
        table.put_batch(hammer.iter().map(|k| (k, b"v"))).unwrap();
    });
    let written = hammer.len() as f64;
    assert!(
        (report.writes as f64 - written).abs() <= written * 0.05,
        "{report}"
    );
    let hot = report.hottest().unwrap();
    let bucket = HotVisit {
        user: hot_user,
        seq: 0,
    }
    .to_bytes()
    .unwrap()[0];
    assert_eq!(report.regions[hot].bucket, Some(bucket), "{report}");
    assert!(report.regions[hot].write_share > 0.85, "{report}");
    assert!(report.write_skew() > 6.0, "{report}");
    let region = &report.regions[hot];
    let range = rowkey::KeyRange::new(
        &region.start,
        (!region.end.is_empty()).then_some(&region.end[..]),
    );
    let sample = store.scan_keys_since(&range, since, 5_000).unwrap();
    report.sample(HotVisit::SCHEMA, hot, sample.iter().map(|k| &k[..]));
    let region = &report.regions[hot];
    assert_eq!(region.top[0].0, hot_user.to_string(), "{report}");
    eprintln!("{report}");

    // A timestamp lead: pre-split on past times, every new row goes to the last region.
    let start = now_ms();
    let splits: Vec<rowkey::bytes::Bytes> = [3_600_000u64 * 3, 3_600_000 * 2, 3_600_000]
        .iter()
        .map(|ago| {
            Tick {
                ts: start - ago,
                host: 0,
            }
            .to_bytes()
            .unwrap()
            .to_vec()
            .into()
        })
        .collect();
    let ticks = new_table(&m, "rpc_hot_ts", &splits);
    let tick_table = rowkey::store::Table::<_, Tick>::new(&ticks);
    let rows: Vec<Tick> = (0..10_000u64)
        .map(|i| Tick {
            ts: start + i,
            host: (i % 7) as u16,
        })
        .collect();
    let mut report = load_of(&ticks, Tick::SCHEMA, || {
        tick_table
            .put_batch(rows.iter().map(|k| (k, b"v")))
            .unwrap();
    });
    let hot = report.hottest().unwrap();
    assert_eq!(hot, report.regions.len() - 1, "{report}");
    assert!(report.regions[hot].write_share > 0.99, "{report}");
    assert_eq!(report.monotonic_lead, Some("ts"));
    assert_eq!(report.regions[hot].predicted_share, None);
    let last = report.regions[hot].start.clone();
    let sample = ticks
        .scan_keys_since(&rowkey::KeyRange::new(&last, None), start, 100_000)
        .unwrap();
    report.sample(Tick::SCHEMA, hot, sample.iter().map(|k| &k[..]));
    let (first, latest) = report.regions[hot].sampled_range.clone().unwrap();
    assert_eq!(
        (first, latest),
        (start.to_string(), (start + 9_999).to_string()),
        "{report}"
    );
    eprintln!("{report}");
}

/// The client metrics (the `metrics` facade, read through a recorder) move as the cluster
/// does: a batch through connections cut mid-way counts the connections lost and opened again
/// and its retries by cause; a region moved under the store counts a region move followed;
/// each operation is counted by outcome, and its rows; a bulk load counts the rows each
/// region confirmed (its progress).
#[test]
fn client_metrics_count_cut_connections_retries_and_region_moves_on_hbase_rpc() {
    use rowkey::store::metrics as m;
    let Some(g) = cluster() else { return };
    let Some(master) = g.master.clone() else {
        return;
    };
    let control = g.control.clone().expect("the local HBase's control port");
    recorder();
    let (direct, name) = cut_table(&master, "rpc_metrics");
    let patient = RetryPolicy {
        max_attempts: 10,
        initial_backoff: Duration::from_millis(100),
        ..RetryPolicy::default()
    };
    let (through, p) = through_proxies(&master, &name, patient);
    through.put(b"row00000001", b"v").unwrap();
    let before = counters(&name);
    assert_eq!(
        before[&format!("{}{{op=put,outcome=ok}}", m::OPERATIONS)],
        1,
        "{before:?}"
    );
    assert!(sum(&before, m::CONNECTIONS_OPENED) >= 2, "{before:?}");
    assert_eq!(sum(&before, m::CONNECTIONS_LOST), 0, "{before:?}");

    // A batch whose connections are cut mid-way, then restored.
    let rows = numbered_rows(30_000, 3);
    let cutter = cut_after(&p, 800_000, Some(Duration::from_millis(300)));
    through.write_batch(&rows).unwrap();
    cutter.join().unwrap();
    let after = counters(&name);
    assert!(sum(&after, m::CONNECTIONS_LOST) >= 1, "{after:?}");
    assert!(
        sum(&after, m::CONNECTIONS_OPENED) > sum(&before, m::CONNECTIONS_OPENED),
        "{after:?}"
    );
    assert!(sum(&after, m::RETRIES) >= 1, "{after:?}");
    assert_eq!(
        after[&format!("{}{{op=write_batch,outcome=ok}}", m::OPERATIONS)],
        1,
        "{after:?}"
    );
    assert_eq!(after[&format!("{}{{op=write_batch}}", m::ROWS)], 30_000);
    let payload: usize = rows.iter().map(|(k, v)| k.len() + v.len()).sum();
    assert!(
        after[&format!("{}{{direction=sent}}", m::BYTES)] >= payload as u64,
        "{after:?}"
    );
    assert!(
        after[&format!("{}{{direction=received}}", m::BYTES)] > 0,
        "{after:?}"
    );

    // A region moved under the store: its next read finds it gone and follows it.
    let _alone = meta_moves();
    let moves = sum(&after, m::REGION_MOVES);
    change_region(&control, "move", &name, b"row00015000");
    let got = through.get(b"row00015000").unwrap();
    assert!(got.is_some() && got == direct.get(b"row00015000").unwrap());
    let moved = counters(&name);
    assert!(sum(&moved, m::REGION_MOVES) > moves, "{moved:?}");
    assert!(
        moved.contains_key(&format!("{}{{cause=region_moved}}", m::RETRIES)),
        "{moved:?}"
    );

    // A bulk load's progress: the rows of each region whose file it confirmed.
    let staging = tempfile::tempdir().unwrap();
    let bulk: Vec<rowkey::store::Row> = (0..5_000u32)
        .map(|i| {
            (
                format!("bulk{i:05}").into_bytes().into(),
                rowkey::bytes::Bytes::from_static(b"b"),
            )
        })
        .collect();
    // The same progress through a callback: from 0, rising as regions confirm, to every row.
    let told = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = std::sync::Arc::clone(&told);
    direct
        .bulk_load_with_progress(bulk, staging.path(), move |p| {
            seen.lock().unwrap().push((p.loaded, p.rows))
        })
        .unwrap();
    let told = told.lock().unwrap().clone();
    assert_eq!(told.first(), Some(&(0, 5_000)), "{told:?}");
    assert_eq!(told.last(), Some(&(5_000, 5_000)), "{told:?}");
    assert!(told.windows(2).all(|w| w[0].0 <= w[1].0), "{told:?}");
    let loaded = counters(&name);
    assert_eq!(
        loaded[&format!("{}{{op=bulk_load}}", m::ROWS)],
        5_000,
        "{loaded:?}"
    );
    eprintln!("{loaded:#?}");
}
