//! `rowkey diff` and `rowkey regions` against the local HBase (`ROWKEY_HBASE_THRIFT`) and the
//! Bigtable emulator (`BIGTABLE_EMULATOR_HOST`), which `.ci/run` starts: a table created with
//! other families than declared differs (exit 1, each difference and its fix printed), `--apply`
//! makes it match (exit 0), and a pre-split table's regions are listed with their keys
//! explained.
#![cfg(all(feature = "hbase", feature = "bigtable"))]

use std::process::Command;

use rowkey::family::Family;
use rowkey::{RowKey, RowValue};

#[derive(RowKey)]
#[allow(dead_code)]
struct LogKey {
    #[salt(buckets = 4)]
    host: u32,
    #[reverse_ts]
    ts: u64,
}

#[derive(RowValue)]
#[column(family = "d")]
#[family(name = "d", versions = 3, ttl = "30d")]
#[allow(dead_code)]
struct LogRow {
    message: String,
    #[column(family = "c")]
    hits: i64,
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The server's address, or `None` (a skip outside CI, a failure in it).
fn server(var: &str) -> Option<String> {
    let v = std::env::var(var).ok();
    if v.is_none() {
        assert!(std::env::var_os("CI").is_none(), "{var} is not set");
        eprintln!("SKIPPED: {var} is not set");
    }
    v
}

fn layouts(tag: &str) -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = scratch(format!("rowkey-live-{tag}-"));
    let (value, key) = (dir.path().join("value.json"), dir.path().join("key.json"));
    std::fs::write(&value, serde_json::to_string(&LogRow::SCHEMA).unwrap()).unwrap();
    std::fs::write(&key, serde_json::to_string(LogKey::SCHEMA).unwrap()).unwrap();
    (dir, value, key)
}

#[test]
fn diff_and_regions_on_hbase() {
    let Some(addr) = server("ROWKEY_HBASE_THRIFT") else {
        return;
    };
    let (dir, value, key) = layouts("hbase");
    let table = format!("cli_diff_{}", std::process::id());
    let store = rowkey::store::HbaseStore::connect(&addr, &table, "d").unwrap();
    store
        .create_table_with(&[Family::new("d")], &LogKey::split_points(4))
        .unwrap();
    let diff = |apply: bool| {
        let mut a = vec![
            "diff",
            "--value",
            value.to_str().unwrap(),
            "--table",
            &table,
            "--hbase",
            &addr,
        ];
        if apply {
            a.push("--apply");
        }
        run(&a)
    };
    let (code, out, err) = diff(false);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("family `d` differs: VERSIONS 1 -> 3 TTL 'FOREVER' -> 2592000"),
        "{out}"
    );
    assert!(out.contains("alter 'cli_diff_"), "{out}");
    assert!(out.contains("family `c` is missing"), "{out}");
    let (code, out, err) = diff(true);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("applied; table cli_diff_"), "{out}");
    let (code, out, _) = diff(false);
    assert_eq!(
        (code, out.trim_end().ends_with("families as declared")),
        (Some(0), true),
        "{out}"
    );
    let mut live = store.families().unwrap();
    live.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(
        live,
        [
            Family::new("c"),
            Family::new("d").versions(3).ttl_secs(30 * 86_400)
        ]
    );

    let (code, out, err) = run(&[
        "regions",
        "--table",
        &table,
        "--hbase",
        &addr,
        "--key",
        key.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with(&format!("table {table}: 4 region(s)")),
        "{out}"
    );
    assert!(out.contains("(start) .. \\x01"), "{out}");
    assert!(out.contains("salt"), "the start keys are explained: {out}");

    // Rows in every region, then `--count`: each region's rows, as the keys say.
    use rowkey::store::Store;
    let keys: Vec<Vec<u8>> = (0..3000u64)
        .map(|i| {
            LogKey {
                host: (i % 97) as u32,
                ts: 1_700_000_000_000 + i,
            }
            .to_bytes()
            .unwrap()
            .to_vec()
        })
        .collect();
    let rows: Vec<rowkey::store::Row> = keys
        .iter()
        .map(|k| (k.clone().into(), rowkey::bytes::Bytes::from_static(b"x")))
        .collect();
    store.write_batch(&rows).unwrap();
    let (code, out, err) = run(&["regions", "--table", &table, "--hbase", &addr, "--count"]);
    assert_eq!(code, Some(0), "{err}");
    let counted: Vec<u64> = out
        .lines()
        .filter_map(|l| l.trim().split_once("  ").map(|(_, rest)| rest.to_string()))
        .filter_map(|rest| rest.strip_suffix(" row(s)").and_then(|n| n.parse().ok()))
        .collect();
    let mut want = [0u64; 4];
    for k in &keys {
        want[usize::from(k[0])] += 1; // the salt byte: one bucket per region
    }
    assert_eq!(counted, want, "{out}");
    assert_eq!(counted.iter().sum::<u64>(), 3000);
    store.drop_table().unwrap();
    drop(dir);
}

#[test]
fn diff_on_the_bigtable_emulator() {
    let Some(host) = server("BIGTABLE_EMULATOR_HOST") else {
        return;
    };
    let (dir, value, _) = layouts("bigtable");
    let table = format!("cli_diff_{}", std::process::id());
    let store =
        rowkey::store::BigtableStore::connect_emulator(&host, "p", "i", &table, "d").unwrap();
    store.create_table_with(&[Family::new("d")], &[]).unwrap();
    let diff = |apply: bool| {
        let mut a = vec![
            "diff",
            "--value",
            value.to_str().unwrap(),
            "--table",
            &table,
            "--bigtable",
            "p/i",
            "--emulator",
            &host,
        ];
        if apply {
            a.push("--apply");
        }
        run(&a)
    };
    let (code, out, err) = diff(false);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("family `d`: GC rule 'maxversions=1' -> 'maxage=30d or maxversions=3'"),
        "{out}"
    );
    assert!(
        out.contains("family `c`: GC rule missing -> 'maxversions=1'"),
        "{out}"
    );
    let (code, out, err) = diff(true);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, _) = diff(false);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("GC rules as declared"), "{out}");
    drop(dir);
}

/// Another key for the same rows: the host is no longer salted, so the bytes differ.
#[derive(RowKey)]
#[allow(dead_code)]
struct LogKeyUnsalted {
    host: u32,
    #[reverse_ts]
    ts: u64,
}

/// `diff --layout`: the whole table from one file. `--apply` creates a missing table with its
/// families, split points and key layout recorded; a layout whose key changed is refused
/// (exit 2, pointing to re-keying) before anything is compared or altered.
fn layout_driven_diff(tag: &str, place: &[&str], regions: impl Fn(&str) -> Option<usize>) {
    use rowkey::family::TableLayout;
    let dir = scratch(format!("rowkey-live-layout-{tag}-"));
    let table = format!("cli_layout_{tag}_{}", std::process::id());
    let (good, changed) = (
        dir.path().join("table.json"),
        dir.path().join("changed.json"),
    );
    let layout = TableLayout::of::<LogKey, LogRow>(&table, 4);
    std::fs::write(&good, serde_json::to_string(&layout).unwrap()).unwrap();
    let other = TableLayout::of::<LogKeyUnsalted, LogRow>(&table, 4);
    std::fs::write(&changed, serde_json::to_string(&other).unwrap()).unwrap();
    let diff = |file: &std::path::Path, apply: bool| {
        let mut a = vec!["diff", "--layout", file.to_str().unwrap()];
        a.extend_from_slice(place);
        if apply {
            a.push("--apply");
        }
        run(&a)
    };
    let (code, out, err) = diff(&good, false);
    assert_eq!(
        code,
        Some(2),
        "a missing table is an error without --apply: {out}{err}"
    );
    let (code, out, err) = diff(&good, true);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("as declared"), "{out}");
    if let Some(n) = regions(&table) {
        assert_eq!(n, 4, "created with the layout's split points");
    }
    let (code, out, err) = diff(&good, false);
    assert_eq!(code, Some(0), "{out}{err}");
    let (code, out, err) = diff(&changed, true);
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(out.is_empty(), "nothing compared or applied: {out}");
    assert!(
        err.contains(&format!("{:#018x}", LogKey::FINGERPRINT)) && err.contains("re-key"),
        "{err}"
    );
    drop(dir);
}

#[test]
fn a_layout_creates_the_table_on_hbase_and_a_changed_key_is_refused() {
    let Some(addr) = server("ROWKEY_HBASE_THRIFT") else {
        return;
    };
    let place = ["--hbase", addr.as_str()];
    layout_driven_diff("hbase", &place, |table| {
        let store = rowkey::store::HbaseStore::connect(&addr, table, "d").unwrap();
        assert_eq!(store.key_fingerprint().unwrap(), Some(LogKey::FINGERPRINT));
        Some(store.regions().unwrap().len())
    });
}

#[test]
fn a_layout_creates_the_table_on_the_emulator_and_a_changed_key_is_refused() {
    let Some(host) = server("BIGTABLE_EMULATOR_HOST") else {
        return;
    };
    let place = ["--bigtable", "p/i", "--emulator", host.as_str()];
    layout_driven_diff("bigtable", &place, |table| {
        let store =
            rowkey::store::BigtableStore::connect_emulator(&host, "p", "i", table, "d").unwrap();
        assert_eq!(store.key_fingerprint().unwrap(), Some(LogKey::FINGERPRINT));
        None // tablets are not listed to clients
    });
}

/// Events keyed by lookup-table ids.
#[derive(RowKey)]
#[allow(dead_code)]
struct IdKey {
    #[uid(kind = "host")]
    host: u16,
    #[uid(kind = "event")]
    event: u8,
    #[reverse_ts]
    ts: u64,
}

/// `explain --uids`: ids shown with their names from a live lookup table; an id the table does
/// not hold is said to be missing.
fn explain_with_uids<S: rowkey::store::AtomicStore>(
    tag: &str,
    store: S,
    table: &str,
    place: &[&str],
) {
    use rowkey::store::UidTable;
    let hosts = UidTable::new(&store, "host", 2).unwrap();
    let events = UidTable::new(&store, "event", 1).unwrap();
    assert_eq!(hosts.get_or_assign("web-01.dc1").unwrap(), 1);
    assert_eq!(hosts.get_or_assign("db-07.dc2").unwrap(), 2);
    assert_eq!(events.get_or_assign("login").unwrap(), 1);
    let dir = scratch(format!("rowkey-live-uids-{tag}-"));
    let schema = dir.path().join("key.json");
    std::fs::write(&schema, serde_json::to_string(IdKey::SCHEMA).unwrap()).unwrap();
    let hex = |k: &[u8]| k.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let known = IdKey {
        host: 2,
        event: 1,
        ts: 1_700_000_000_000,
    }
    .to_bytes()
    .unwrap();
    let unknown = IdKey {
        host: 9,
        event: 1,
        ts: 1_700_000_000_000,
    }
    .to_bytes()
    .unwrap();
    let mut args = vec![
        "explain",
        "--schema",
        schema.to_str().unwrap(),
        "--hex",
        "--uids",
        table,
    ];
    args.extend_from_slice(place);
    let (k, u) = (hex(&known), hex(&unknown));
    args.extend([k.as_str(), u.as_str()]);
    let (code, out, err) = run(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("2 = \"db-07.dc2\""), "{out}");
    assert!(out.contains("1 = \"login\""), "{out}");
    assert!(
        out.contains("9 (no `host` of this id in the lookup table)"),
        "{out}"
    );
    // Without --uids, the ids alone.
    let (code, out, _) = run(&["explain", "--schema", schema.to_str().unwrap(), "--hex", &k]);
    assert_eq!(code, Some(0));
    assert!(!out.contains("db-07"), "{out}");
    drop(dir);
}

#[test]
fn explain_shows_lookup_table_names_on_hbase() {
    let Some(addr) = server("ROWKEY_HBASE_THRIFT") else {
        return;
    };
    use rowkey::store::{HbaseConfig, HbaseStore, UID_ID_FAMILY, UID_NAME_FAMILY};
    let table = format!("cli_uids_{}", std::process::id());
    let config = HbaseConfig::new(&addr, &table, UID_ID_FAMILY).families([UID_NAME_FAMILY]);
    let store = HbaseStore::with_config(config).unwrap();
    store
        .create_table_with(
            &[Family::new(UID_ID_FAMILY), Family::new(UID_NAME_FAMILY)],
            &[],
        )
        .unwrap();
    explain_with_uids("hbase", &store, &table, &["--hbase", addr.as_str()]);
    store.drop_table().unwrap();
}

#[test]
fn explain_shows_lookup_table_names_on_the_emulator() {
    let Some(host) = server("BIGTABLE_EMULATOR_HOST") else {
        return;
    };
    use rowkey::store::{BigtableConfig, BigtableStore, UID_ID_FAMILY, UID_NAME_FAMILY};
    let table = format!("cli_uids_{}", std::process::id());
    let config = BigtableConfig::new("p", "i", &table, UID_ID_FAMILY)
        .families([UID_NAME_FAMILY])
        .emulator(&host);
    let store = BigtableStore::with_config(config).unwrap();
    store
        .create_table_with(
            &[Family::new(UID_ID_FAMILY), Family::new(UID_NAME_FAMILY)],
            &[],
        )
        .unwrap();
    explain_with_uids(
        "bigtable",
        &store,
        &table,
        &["--bigtable", "p/i", "--emulator", host.as_str()],
    );
}

/// `regions --bigtable`: Bigtable lists no tablets to clients; `SampleRowKeys` gives keys near
/// their boundaries with the bytes before each, shown as pieces with their sizes.
#[test]
fn regions_on_the_emulator_are_sampled_row_keys() {
    let Some(host) = server("BIGTABLE_EMULATOR_HOST") else {
        return;
    };
    use rowkey::store::Store;
    let (dir, _, key) = layouts("bigtable-regions");
    let table = format!("cli_regions_{}", std::process::id());
    let store =
        rowkey::store::BigtableStore::connect_emulator(&host, "p", "i", &table, "d").unwrap();
    store.create_table_with(&[Family::new("d")], &[]).unwrap();
    let rows: Vec<rowkey::store::Row> = (0..3000u64)
        .map(|i| {
            let k = LogKey {
                host: (i % 97) as u32,
                ts: 1_700_000_000_000 + i,
            };
            (
                k.to_bytes().unwrap(),
                rowkey::bytes::Bytes::from(vec![b'x'; 100]),
            )
        })
        .collect();
    store.write_batch(&rows).unwrap();
    let samples = store.sample_row_keys().unwrap();
    let (last_key, total) = samples.last().unwrap();
    assert!(last_key.is_empty(), "the last sample ends the table");
    assert!(*total >= 3000 * 100, "{total} bytes before the end");
    assert!(samples.windows(2).all(|w| w[0].1 <= w[1].1), "offsets grow");
    let (code, out, err) = run(&[
        "regions",
        "--table",
        &table,
        "--bigtable",
        "p/i",
        "--emulator",
        &host,
        "--key",
        key.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    // The emulator samples at random on every call: the count is its own each time.
    assert!(out.starts_with(&format!("table {table}: ")), "{out}");
    assert!(out.contains(" piece(s) from SampleRowKeys"), "{out}");
    assert!(out.contains("(start) .. "), "{out}");
    if out.lines().count() > 2 {
        assert!(out.contains("salt"), "the boundaries are explained: {out}");
    }
    let (code, _, err) = run(&[
        "regions",
        "--table",
        &table,
        "--bigtable",
        "p/i",
        "--emulator",
        &host,
        "--count",
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--count reads HBase tables"), "{err}");
    drop(dir);
}

/// A text key as another program wrote it, with keys the declaration does not read among
/// them.
#[derive(RowKey)]
#[rowkey(delimiter = ':')]
#[allow(dead_code)]
struct Message {
    #[decimal(width = 6)]
    date: u32,
    #[decimal]
    message_id: u64,
}

/// `rowkey check` against a live HBase table (Thrift2) and a Bigtable one, each holding its rows
/// in a family of its own (`cf`, as a Java service's table would; the check reads keys only):
/// every key fits (exit 0, the counts and each field's range printed), then two keys that do
/// not (exit 1, each explained with the field that fails).
#[test]
fn check_reads_a_live_tables_keys_against_a_layout() {
    use rowkey::store::Store;
    let dir = scratch("rowkey-live-check-");
    let key = dir.path().join("message.json");
    std::fs::write(&key, serde_json::to_string(Message::SCHEMA).unwrap()).unwrap();
    let keys: Vec<Vec<u8>> = (0..2_000u32)
        .map(|i| format!("{:06}:{}", 230_601 + i % 30, i).into_bytes())
        .collect();
    let check = |place: &[&str], table: &str| {
        let mut args = vec!["check", "--table", table, "--key", key.to_str().unwrap()];
        args.extend_from_slice(place);
        run(&args)
    };
    let mut tried = 0;
    if let Some(addr) = server("ROWKEY_HBASE_THRIFT") {
        let table = format!("cli_check_{}", std::process::id());
        let store = rowkey::store::HbaseStore::with_config(rowkey::store::HbaseConfig::new(
            &addr, &table, "cf",
        ))
        .unwrap();
        store.create_table(&[]).unwrap();
        for k in &keys {
            store.put(k, b"").unwrap();
        }
        let (code, out, err) = check(&["--hbase", &addr], &table);
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(out.contains("2000 key(s) sampled, 2000 read"), "{out}");
        assert!(out.contains("date: 230601 .. 230630"), "{out}");
        store.put(b"230601:0123", b"").unwrap();
        store.put(b"2306:17", b"").unwrap();
        let (code, out, _) = check(&["--hbase", &addr], &table);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains("2 not"), "{out}");
        assert!(out.contains("message_id") && out.contains("date"), "{out}");
        tried += 1;
    }
    if let Some(emulator) = server("BIGTABLE_EMULATOR_HOST") {
        let table = format!("cli_check_{}", std::process::id());
        let config = rowkey::store::BigtableConfig::new("p", "i", &table, "cf").emulator(&emulator);
        let store = rowkey::store::BigtableStore::with_config(config).unwrap();
        store.create_table(&[]).unwrap();
        for k in keys.iter().take(500) {
            store.put(k, b"").unwrap();
        }
        let (code, out, err) = check(&["--bigtable", "p/i", "--emulator", &emulator], &table);
        assert_eq!(code, Some(0), "{out}{err}");
        assert!(out.contains("500 key(s) sampled, 500 read"), "{out}");
        tried += 1;
    }
    eprintln!("rowkey check on {tried} store(s)");
}

/// `rowkey hotspots` on the local HBase: a user written hard while the command samples the
/// region servers' counters is named, with its region's salt bucket, in the JSON report.
#[cfg(feature = "hbase-rpc")]
#[test]
fn hotspots_name_a_hammered_user_on_hbase() {
    let Some(master) = server("ROWKEY_HBASE_MASTER") else {
        return;
    };
    let (dir, _, key) = layouts("hotspots");
    let table = format!("cli_hot_{}", std::process::id());
    let store = rowkey::store::HbaseRpcStore::with_config(rowkey::store::HbaseRpcConfig::new(
        &master, &table, "d",
    ))
    .unwrap();
    store.create_table(&LogKey::split_points(4)).unwrap();
    let hot_host = 4_242u32;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let stop = stop.clone();
        let store = store.clone();
        std::thread::spawn(move || {
            let table = rowkey::store::Table::<_, LogKey>::new(store);
            let mut ts = 1_700_000_000_000u64;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let base = ts;
                ts += 500;
                let rows: Vec<LogKey> = (0..500)
                    .map(|i| LogKey {
                        host: hot_host,
                        ts: base + i,
                    })
                    .chain((0..20).map(|h| LogKey { host: h, ts: base }))
                    .collect();
                table.put_batch(rows.iter().map(|k| (k, b"v"))).unwrap();
            }
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(500));
    let (code, out, err) = run(&[
        "hotspots",
        "--table",
        &table,
        "--master",
        &master,
        "--key",
        key.to_str().unwrap(),
        "--interval",
        "2",
        "--sample",
        "2000",
        "--json",
    ]);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().unwrap();
    assert_eq!(code, Some(0), "{out}\n{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let hot = report["hottest"].as_u64().unwrap() as usize;
    let region = &report["regions"][hot];
    let bucket = LogKey {
        host: hot_host,
        ts: 0,
    }
    .to_bytes()
    .unwrap()[0];
    assert_eq!(region["bucket"].as_u64(), Some(u64::from(bucket)), "{out}");
    assert!(region["write_share"].as_f64().unwrap() > 0.8, "{out}");
    assert_eq!(region["top"][0]["value"], hot_host.to_string(), "{out}");
    assert!(report["write_skew"].as_f64().unwrap() > 3.0, "{out}");
    drop(dir);
}

/// `rowkey sql` on a live table: the rows a typed table wrote to HBase (pre-split: one
/// partition per region; read through Thrift2 and through the native RPC) and to the emulator,
/// read back through the key layout with their values; a store without `--family` is refused.
#[cfg(feature = "sql")]
#[test]
fn sql_reads_a_live_table_through_its_layout() {
    use rowkey::store::{BigtableConfig, BigtableStore, HbaseConfig, HbaseStore, Table};
    let dir = scratch("rowkey-live-sql-");
    let key = dir.path().join("log.json");
    std::fs::write(&key, serde_json::to_string(LogKey::SCHEMA).unwrap()).unwrap();
    let rows: Vec<(LogKey, Vec<u8>)> = (0..3_000u64)
        .map(|i| {
            let k = LogKey {
                host: (i % 30) as u32,
                ts: 1_700_000_000_000 + i,
            };
            (k, format!("{i}").into_bytes())
        })
        .collect();
    // Host 7's rows, newest first (a reverse timestamp), their values and the total.
    let statement =
        "SELECT count(*) AS n, min(ts) AS first, sum(CAST(CAST(v AS VARCHAR) AS BIGINT)) AS total \
                     FROM logs WHERE host = 7";
    let want_total: u64 = (0..3_000u64).filter(|i| i % 30 == 7).sum();
    let sql = |place: &[&str], table: &str, family: Option<&str>| {
        let mut args = vec![
            "sql",
            "--table",
            table,
            "--key",
            key.to_str().unwrap(),
            "--value",
            "v",
        ];
        args.extend_from_slice(place);
        if let Some(f) = family {
            args.extend_from_slice(&["--family", f]);
        }
        args.extend_from_slice(&["--raw-timestamps", "--format", "csv"]);
        let statement = statement.replace("logs", &format!("\"{table}\""));
        args.push(&statement);
        run(&args)
    };
    let want = format!("n,first,total\n100,1700000000007,{want_total}\n");
    let mut tried = 0;
    if let Some(addr) = server("ROWKEY_HBASE_THRIFT") {
        let table = format!("cli_sql_{}", std::process::id());
        let store = HbaseStore::with_config(HbaseConfig::new(&addr, &table, "cf")).unwrap();
        store.create_table(&LogKey::split_points(4)).unwrap();
        Table::<_, LogKey>::new(&store)
            .put_batch(rows.iter().map(|(k, v)| (k, v.as_slice())))
            .unwrap();
        let (code, out, err) = sql(&["--hbase", &addr], &table, Some("cf"));
        assert_eq!(code, Some(0), "{out}{err}");
        assert_eq!(out, want);
        let (code, _, err) = sql(&["--hbase", &addr], &table, None);
        assert_eq!(code, Some(2));
        assert!(err.contains("--family"), "{err}");
        tried += 1;
        // The same table through HBase's native RPC.
        #[cfg(feature = "hbase-rpc")]
        if let Some(master) = server("ROWKEY_HBASE_MASTER") {
            let (code, out, err) = sql(&["--master", &master], &table, Some("cf"));
            assert_eq!(code, Some(0), "{out}{err}");
            assert_eq!(out, want);
            tried += 1;
        }
    }
    if let Some(emulator) = server("BIGTABLE_EMULATOR_HOST") {
        let table = format!("cli_sql_{}", std::process::id());
        let config = BigtableConfig::new("p", "i", &table, "cf").emulator(&emulator);
        let store = BigtableStore::with_config(config).unwrap();
        store.create_table(&LogKey::split_points(4)).unwrap();
        Table::<_, LogKey>::new(&store)
            .put_batch(rows.iter().map(|(k, v)| (k, v.as_slice())))
            .unwrap();
        let (code, out, err) = sql(
            &["--bigtable", "p/i", "--emulator", &emulator],
            &table,
            Some("cf"),
        );
        assert_eq!(code, Some(0), "{out}{err}");
        assert_eq!(out, want);
        tried += 1;
    }
    eprintln!("rowkey sql on {tried} live store(s)");
}

/// A scratch directory of this test's own (`prefix` and a random suffix, under the system's
/// temporary directory), removed when dropped, whether the test passed or not.
fn scratch(prefix: impl AsRef<str>) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(prefix.as_ref())
        .tempdir()
        .unwrap()
}
