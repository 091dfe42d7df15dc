//! The Bigtable store against the emulator on loopback, at the sizes users have.
//!
//! - the store conformance suite (`tests/store_suite`) through the blocking store;
//! - a salted table of `ROWKEY_BT_ROWS` rows (300,000 by default; the README's figures use
//!   1,000,000) written in one `put_batch` (more than Bigtable's 100,000 mutations per request,
//!   so the batch must be split), then read back by a merged scan with a slow, uneven consumer,
//!   a merged reverse scan and an unordered scan, each compared with the brute-force set, with
//!   the process's peak memory reported;
//! - the async store and table inside a tokio runtime, and the blocking store created, used and
//!   dropped inside one;
//! - errors: a missing family or table on reads as on writes, a key over 4 KiB, a server that
//!   accepts connections and never answers (an error within the deadline, also for table
//!   creation), and connections cut mid-batch through a TCP proxy (nothing reported written is
//!   missing; what is reported unwritten is retried and then present).
//!
//! Uses `BIGTABLE_EMULATOR_HOST` when set (`.ci/run` starts one); otherwise starts its own
//! `cbtemulator` on a free port. Without an emulator it fails under CI and says so elsewhere.
#![cfg(feature = "bigtable")]

mod store_suite;

use store_suite::emulator::host;
use store_suite::metered::{a_batch_through_cuts_was_counted, recorder};
use store_suite::net::*;

use std::collections::BTreeSet;
use std::sync::atomic::Ordering;
use std::time::Duration;

use rowkey::bytes::Bytes;
use rowkey::store::{
    AsyncBigtableStore, BigtableConfig, BigtableError, BigtableStore, RetryPolicy, Store, Table,
};
use rowkey::RowKey;

fn config(host: &str, table: &str) -> BigtableConfig {
    BigtableConfig::new("p", "i", table, "d").emulator(host)
}

fn blocking_table(host: &str, name: &str, splits: &[rowkey::bytes::Bytes]) -> BigtableStore {
    let store = BigtableStore::with_config(config(host, &unique(name))).unwrap();
    store.create_table(splits).unwrap();
    store
}

/// Skip scans are exact on the emulator, and filtered by it (a row-key regular expression).
#[test]
fn skip_scans_are_filtered_by_the_emulator() {
    let Some(host) = host() else { return };
    store_suite::skip::skip_scans_filtered_by_the_store(
        |name, splits| blocking_table(host, name, splits),
        1_000,
        "bigtable (emulator)",
    );
}

#[test]
fn rows_of_cells_on_the_emulator() {
    let Some(host) = host() else { return };
    let families = store_suite::cells::families();
    let store =
        BigtableStore::with_config(config(host, &unique("cells")).families(families)).unwrap();
    store
        .create_table(&store_suite::Reading::split_points(4))
        .unwrap();
    store_suite::cells::exercise_cells(store);
    // A table without the value type's families is an error on first use, naming the family.
    let store = blocking_table(host, "cells_missing", &[]);
    let store = BigtableStore::with_config(
        config(host, &store.inner().config().table).families(["d", "m"]),
    )
    .unwrap();
    let err = store
        .read_row(b"k", &rowkey::store::Columns::all())
        .unwrap_err()
        .to_string();
    assert!(err.contains("no column family `m`"), "{err}");
}

#[test]
fn counters_and_conditional_writes_on_the_emulator() {
    let Some(host) = host() else { return };
    let cfg = config(host, &unique("atomic")).families([store_suite::atomic::FAMILY]);
    let store = BigtableStore::with_config(cfg).unwrap();
    store.create_table(&[]).unwrap();
    store_suite::atomic::exercise_atomic(store, 8, 50);
}

/// Several clients (each its own connection and cache), as several services would be.
#[test]
fn a_lookup_table_on_the_emulator() {
    let Some(host) = host() else { return };
    let cfg = config(host, &unique("uids")).families(store_suite::uid::families());
    let first = BigtableStore::with_config(cfg.clone()).unwrap();
    first.create_table(&[]).unwrap();
    store_suite::uid::exercise_uids(|| BigtableStore::with_config(cfg.clone()).unwrap(), 6, 120);
}

#[test]
fn a_lookup_table_through_cut_connections_on_the_emulator() {
    let Some(host) = host() else { return };
    let name = unique("uids_cut");
    let cfg = config(host, &name).families(store_suite::uid::families());
    let direct = BigtableStore::with_config(cfg).unwrap();
    direct.create_table(&[]).unwrap();
    let p = proxy(host);
    let through = || {
        let cfg = config(&p.addr, &name)
            .families(store_suite::uid::families())
            .retry(RetryPolicy::no_retries(std::time::Duration::from_secs(2)));
        BigtableStore::with_config(cfg).unwrap()
    };
    uids_through_cuts(through, direct, &p, 4, 150);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counters_and_conditional_writes_through_the_async_store() {
    let Some(host) = host() else { return };
    let cfg = config(host, &unique("atomic_async")).families([store_suite::atomic::FAMILY]);
    let store = AsyncBigtableStore::connect(cfg).await.unwrap();
    store.create_table(&[]).await.unwrap();
    store_suite::atomic::exercise_atomic_async(store, 8, 50).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_rows_through_the_async_store() {
    let Some(host) = host() else { return };
    let cfg = config(host, &unique("cells_async")).families(store_suite::cells::families());
    let store = AsyncBigtableStore::connect(cfg).await.unwrap();
    store
        .create_table(&store_suite::Reading::split_points(4))
        .await
        .unwrap();
    store_suite::cells::exercise_cells_async(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_as_columns_through_the_async_store() {
    let Some(host) = host() else { return };
    let cfg = config(host, &unique("wide_async")).families([store_suite::wide::FAMILY]);
    let store = AsyncBigtableStore::connect(cfg).await.unwrap();
    store
        .create_table(&store_suite::wide::Point::split_points(4))
        .await
        .unwrap();
    store_suite::wide::exercise_wide_async(store, 48).await;
}

#[test]
fn rows_as_columns_on_the_emulator() {
    let Some(host) = host() else { return };
    let cfg = config(host, &unique("wide")).families([store_suite::wide::FAMILY]);
    let store = BigtableStore::with_config(cfg).unwrap();
    store
        .create_table(&store_suite::wide::Point::split_points(4))
        .unwrap();
    store_suite::wide::exercise_wide(store, 64);
}

#[test]
fn an_index_on_the_emulator() {
    let Some(host) = host() else { return };
    store_suite::index::exercise_index(
        blocking_table(host, "records", &[]),
        blocking_table(host, "app_users", &[]),
        200,
    );
}

#[test]
fn repair_beside_a_writer_on_the_emulator() {
    let Some(host) = host() else { return };
    let records = blocking_table(host, "race_records", &[]);
    let index = blocking_table(host, "race_index", &[]);
    store_suite::index::repair_races(&records, &index, 0, false);
    store_suite::index::repair_races(&records, &index, 1000, true);
}

#[test]
fn conformance_suite_on_the_emulator() {
    let Some(host) = host() else { return };
    let store = blocking_table(host, "suite", &store_suite::Reading::split_points(4));
    store_suite::exercise(store);
}

#[test]
fn a_large_salted_table_scans_exactly_with_a_slow_consumer() {
    let Some(host) = host() else { return };
    let n: usize = std::env::var("ROWKEY_BT_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300_000);
    let store = blocking_table(host, "events", &Event::split_points(4));
    let table = Table::<_, Event>::new(store);
    let rows = events(n);
    let value = [7u8; 16];

    large_salted_scan(&table, &rows, &value, "bigtable emulator");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_async_store_serves_a_tokio_service() {
    let Some(host) = host() else { return };
    let store = AsyncBigtableStore::connect(config(host, &unique("async")))
        .await
        .unwrap();
    store.create_table(&Event::split_points(4)).await.unwrap();
    exercise_async_table(store, 20_000).await;
}

#[tokio::test]
async fn the_blocking_store_never_panics_inside_a_runtime() {
    let Some(host) = host() else { return };
    // Created, used and dropped on a runtime thread (a current-thread runtime: the strictest).
    let store = blocking_table(host, "inside", &[]);
    let table = Table::<_, Event>::new(store);
    let e = &events(1)[0];
    table.put(e, b"v").unwrap();
    assert_eq!(table.get(e).unwrap().as_deref(), Some(&b"v"[..]));
    assert_eq!(table.scan(&Event::scan().ranges()).count(), 1);
    drop(table);
    // Created inside spawn_blocking and dropped in async code.
    let host = host.to_string();
    let store = tokio::task::spawn_blocking(move || blocking_table(&host, "spawned", &[]))
        .await
        .unwrap();
    store.put(b"k", b"v").unwrap();
    drop(store);
}

#[test]
fn missing_families_and_tables_are_errors_on_reads_too() {
    let Some(host) = host() else { return };
    let name = unique("family");
    BigtableStore::with_config(config(host, &name))
        .unwrap()
        .create_table(&[])
        .unwrap();
    let typo =
        BigtableStore::with_config(BigtableConfig::new("p", "i", &name, "dd").emulator(host))
            .unwrap();
    let err = typo.get(b"k").unwrap_err();
    assert!(
        matches!(err, BigtableError::MissingFamily { ref family, .. } if family == "dd"),
        "{err}"
    );
    assert!(
        err.to_string()
            .contains("has no column family `dd` (it has: d)"),
        "{err}"
    );
    let scan: Vec<_> = typo.scan(&rowkey::KeyRange::new(&[], None)).collect();
    assert!(
        matches!(scan.as_slice(), [Err(BigtableError::MissingFamily { .. })]),
        "{scan:?}"
    );
    assert!(typo.put(b"k", b"v").is_err());

    let nowhere = BigtableStore::with_config(config(host, "no_such_table")).unwrap();
    assert!(matches!(
        nowhere.get(b"k"),
        Err(BigtableError::MissingTable { .. })
    ));
    let scan: Vec<_> = nowhere.scan(&rowkey::KeyRange::new(&[], None)).collect();
    assert!(matches!(
        scan.as_slice(),
        [Err(BigtableError::MissingTable { .. })]
    ));
}

#[test]
fn keys_over_four_kib_are_refused_before_sending() {
    let Some(host) = host() else { return };
    let store = blocking_table(host, "long", &[]);
    let long = vec![b'x'; 4097];
    assert!(matches!(
        store.put(&long, b"v"),
        Err(BigtableError::InvalidKey { len: 4097, .. })
    ));
    assert!(matches!(
        store.get(&long),
        Err(BigtableError::InvalidKey { .. })
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
    store.put(&long[..4096], b"v").unwrap();
}

#[test]
fn an_unresponsive_server_gives_an_error_within_the_deadline() {
    let addr = black_hole();
    let store =
        BigtableStore::with_config(config(&addr, "t").retry(unresponsive_policy())).unwrap();
    unresponsive(store, |s| s.create_table(&[]), |e| e.is_transient());
}

/// A fresh table reached two ways: directly, and through a proxy that can be cut, with small
/// batch requests (500 rows, one at a time) so that a cut lands inside a batch.
fn cut_setup(host: &str, name: &str, retry: RetryPolicy) -> (BigtableStore, Proxy, BigtableStore) {
    let name = unique(name);
    let direct = BigtableStore::with_config(config(host, &name)).unwrap();
    direct.create_table(&[]).unwrap();
    let p = proxy(host);
    let mut cfg = config(&p.addr, &name).retry(retry);
    cfg.options.batch_rows = 500;
    cfg.options.batch_concurrency = 1;
    let through = BigtableStore::with_config(cfg).unwrap();
    (direct, p, through)
}

#[test]
fn a_large_table_of_cells_scans_exactly() {
    let Some(host) = host() else { return };
    let store = blocking_table(host, "cells_large", &store_suite::Reading::split_points(8));
    store_suite::large::large_cell_scan(store, 200_000);
}

#[test]
fn rows_of_cells_cut_mid_batch_are_whole_or_reported() {
    let Some(host) = host() else { return };
    let (direct, p, through) = cut_setup(
        host,
        "cells_cut",
        RetryPolicy::no_retries(Duration::from_secs(5)),
    );
    cells_cut_mid_batch(&direct, &through, &p, 1_500_000);
}

/// A table whose rows hold columns of their own (no `d:v`): the key-only scan finds every row
/// and no value crosses the proxy; the declaration check reads them.
#[test]
fn the_keys_of_rows_with_other_columns_are_read_without_their_values() {
    let Some(host) = host() else { return };
    let (direct, p, through) = cut_setup(
        host,
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
    let Some(host) = host() else { return };
    let (direct, p, through) =
        cut_setup(host, "cut", RetryPolicy::no_retries(Duration::from_secs(5)));
    let rows = numbered_rows(60_000, 1);
    let cutter = cut_after(&p, 1_500_000, None);
    let err = through.write_batch(&rows).unwrap_err();
    cutter.join().unwrap();
    let failed: BTreeSet<Vec<u8>> = err.failed.iter().cloned().collect();
    assert!(
        !failed.is_empty() && failed.len() < rows.len(),
        "{} failed",
        failed.len()
    );
    // Every row not reported failed is there; retrying the reported ones completes the table.
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
    let Some(host) = host() else { return };
    recorder();
    let (direct, p, through) = cut_setup(
        host,
        "retry",
        RetryPolicy {
            max_attempts: 10,
            initial_backoff: Duration::from_millis(100),
            ..RetryPolicy::default()
        },
    );
    let rows = numbered_rows(40_000, 2);
    let cutter = cut_after(&p, 1_000_000, Some(Duration::from_millis(300)));
    through.write_batch(&rows).unwrap();
    cutter.join().unwrap();
    assert_eq!(
        direct.scan(&rowkey::KeyRange::new(&[], None)).count(),
        rows.len()
    );
    // The client metrics saw it: the connections cut and opened again, the retries, the
    // batch's rows and their bytes.
    a_batch_through_cuts_was_counted(&through.inner().config().table, &rows);
    // Reads resume after a cut too.
    let p2 = proxy(host);
    let mut cfg = config(&p2.addr, &through.inner().config().table).retry(RetryPolicy {
        max_attempts: 10,
        initial_backoff: Duration::from_millis(100),
        ..RetryPolicy::default()
    });
    cfg.options.page_rows = 2_000;
    let reader = BigtableStore::with_config(cfg).unwrap();
    let mut keys = Vec::new();
    for (i, row) in reader.scan(&rowkey::KeyRange::new(&[], None)).enumerate() {
        if i == 10_000 {
            p2.cut.store(true, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(200));
            p2.cut.store(false, Ordering::SeqCst);
        }
        keys.push(row.unwrap().0);
    }
    let want: Vec<Vec<u8>> = rows.iter().map(|(k, _)| k.to_vec()).collect();
    assert_eq!(
        keys, want,
        "a scan resumes after the last key delivered, no row lost or repeated"
    );
}

#[test]
fn families_get_the_gc_rules_their_versions_and_ttl_map_to() {
    use rowkey::family::{Compression, Family, GcRule};
    let Some(host) = host() else { return };
    let name = unique("families");
    let store = BigtableStore::with_config(config(host, &name)).unwrap();
    let declared = [
        // The guide's log data: a week, then at most one version; at least two kept past it.
        Family::new("d")
            .versions(3)
            .min_versions(2)
            .ttl_secs(7 * 86_400)
            .compression(Compression::Snappy),
        Family::new("x"),
        Family::new("y").versions(u32::MAX).ttl_secs(3600),
        Family::new("z").versions(u32::MAX),
    ];
    store.create_table_with(&declared, &[]).unwrap();
    let live = store.gc_rules().unwrap();
    let want: Vec<(String, Option<GcRule>)> = declared
        .iter()
        .map(|f| (f.name.to_string(), f.gc_rule()))
        .collect();
    assert_eq!(live, want, "every family's rule lands as rendered");
    assert_eq!(
        live[0].1.as_ref().unwrap().to_string(),
        "(maxage=7d and maxversions=2) or maxversions=3"
    );
    assert_eq!(live[3].1, None, "no rule: nothing is ever collected");

    // A changed family and a new one.
    let changed = declared[1].clone().ttl_secs(60);
    store.set_gc_rule(&changed).unwrap();
    store.set_gc_rule(&Family::new("w").versions(2)).unwrap();
    let after = store.gc_rules().unwrap();
    assert_eq!(
        after,
        [
            ("d".to_string(), declared[0].gc_rule()),
            ("w".to_string(), Some(GcRule::MaxVersions(2))),
            (
                "x".to_string(),
                Some(GcRule::Union(vec![
                    GcRule::MaxAgeSecs(60),
                    GcRule::MaxVersions(1)
                ]))
            ),
            ("y".to_string(), declared[2].gc_rule()),
            ("z".to_string(), None),
        ]
    );
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
    let Some(host) = host() else { return };
    let name = unique("fingerprint");
    let store = BigtableStore::with_config(config(host, &name)).unwrap();
    store
        .create_table_for::<Before>(&[Family::new("d").versions(2)], &[])
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
    // The record is an empty family: the declared families read back alone, and rows are
    // written and read as in any table.
    assert_eq!(
        store.gc_rules().unwrap(),
        [("d".to_string(), Family::new("d").versions(2).gc_rule())]
    );
    let key = Before { user: 7, ts: 9 }.to_bytes().unwrap();
    store.put(&key, b"v").unwrap();
    assert_eq!(store.get(&key).unwrap().as_deref(), Some(&b"v"[..]));
    let rows: Vec<_> = store
        .scan(&rowkey::KeyRange::new(&[], None))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(rows.len(), 1);

    // A table created without the record passes: nothing to compare.
    let plain = BigtableStore::with_config(config(host, &unique("fingerprint_none"))).unwrap();
    plain.create_table_with(&[Family::new("d")], &[]).unwrap();
    assert_eq!(plain.key_fingerprint().unwrap(), None);
    plain.check_key_layout::<After>().unwrap();
}

#[test]
fn versions_are_read_newest_first_by_count_window_and_as_of() {
    use rowkey::family::Family;
    use rowkey::store::Versions;
    let Some(host) = host() else { return };
    let name = unique("versions");
    let store = BigtableStore::with_config(config(host, &name)).unwrap();
    store
        .create_table_with(&[Family::new("d").versions(5)], &[])
        .unwrap();
    let t0 = 1_700_000_000_000i64;
    for i in 0..4 {
        store
            .write_version(b"r", "d", b"q", format!("v{i}").as_bytes(), t0 + i * 1000)
            .unwrap();
    }
    let read = |v: &Versions| -> Vec<(i64, Vec<u8>)> {
        store
            .read_versions(b"r", "d", b"q", v)
            .unwrap()
            .into_iter()
            .map(|c| (c.timestamp_ms, c.value.to_vec()))
            .collect()
    };
    assert_eq!(
        read(&Versions::latest(10)),
        (0..4)
            .rev()
            .map(|i| (t0 + i * 1000, format!("v{i}").into_bytes()))
            .collect::<Vec<_>>()
    );
    assert_eq!(read(&Versions::latest(2)).len(), 2);
    assert_eq!(
        read(&Versions::as_of(t0 + 1500)),
        [(t0 + 1000, b"v1".to_vec())]
    );
    assert_eq!(
        read(&Versions::between(t0 + 1000, t0 + 3000, 10))
            .iter()
            .map(|(t, _)| *t)
            .collect::<Vec<_>>(),
        [t0 + 2000, t0 + 1000]
    );
    // A version written again at its timestamp is the same version, not a new one.
    store
        .write_version(b"r", "d", b"q", b"v3", t0 + 3000)
        .unwrap();
    assert_eq!(read(&Versions::latest(10)).len(), 4);
    assert!(store
        .read_versions(b"none", "d", b"q", &Versions::latest(1))
        .unwrap()
        .is_empty());
}

#[test]
fn cbt_reads_the_gc_rules_as_rowkey_renders_them() {
    use rowkey::family::Family;
    let Some(host) = host() else { return };
    // Google's cbt (Debian `google-cloud-cli-cbt`): present on the development machine, not
    // something `.ci/run` installs, so its absence skips the test.
    let cbt = |args: &[&str]| -> Option<std::process::Output> {
        std::process::Command::new("cbt")
            .args(["-project", "p", "-instance", "i"])
            .args(args)
            .env("BIGTABLE_EMULATOR_HOST", host)
            .output()
            .ok()
    };
    let table = unique("cbt");
    let Some(created) = cbt(&["createtable", &table]) else {
        eprintln!("SKIPPED: no cbt on PATH");
        return;
    };
    assert!(created.status.success(), "{created:?}");
    let declared = [
        Family::new("a")
            .versions(5)
            .min_versions(2)
            .ttl_secs(7 * 86_400),
        Family::new("b").ttl_secs(90),
        Family::new("c").versions(u32::MAX).ttl_secs(2 * 3600),
        Family::new("d").versions(3),
    ];
    for f in &declared {
        let rule = f.gc_rule().map_or("never".to_string(), |r| r.to_string());
        for args in [
            vec!["createfamily", &table, &f.name],
            vec!["setgcpolicy", &table, &f.name, &rule],
        ] {
            let out = cbt(&args).unwrap();
            assert!(out.status.success(), "cbt {args:?}: {out:?}");
        }
    }
    // The rules cbt set, read back by the store, are the ones the declarations map to.
    let store = BigtableStore::with_config(config(host, &table)).unwrap();
    let live = store.gc_rules().unwrap();
    let want: Vec<_> = declared
        .iter()
        .map(|f| (f.name.to_string(), f.gc_rule()))
        .collect();
    assert_eq!(live, want);
}
