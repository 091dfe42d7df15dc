//! `rowkey schema`: a value layout's families and a key layout's split points rendered as the
//! HBase shell and cbt commands, with a capacity plan, from the JSON rowkey exports.

use std::process::Command;

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
#[family(
    name = "d",
    versions = 3,
    min_versions = 2,
    ttl = "30d",
    compression = "gz"
)]
#[allow(dead_code)]
struct LogRow {
    message: String,
    #[column(family = "c")]
    hits: i64,
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn schema_renders_the_shell_cbt_and_a_capacity_plan() {
    let dir = std::env::temp_dir().join(format!("rowkey-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let value = dir.join("value.json");
    let key = dir.join("key.json");
    std::fs::write(&value, serde_json::to_string(&LogRow::SCHEMA).unwrap()).unwrap();
    std::fs::write(&key, serde_json::to_string(LogKey::SCHEMA).unwrap()).unwrap();
    let (ok, out, err) = run(&[
        "schema",
        "--value",
        value.to_str().unwrap(),
        "--table",
        "logs",
        "--key",
        key.to_str().unwrap(),
        "--records-per-day",
        "2000000000",
        "--bytes-per-record",
        "200",
    ]);
    assert!(ok, "{err}");
    // 2e9 a day x 200 B x 30 days = 12 TB: 600 regions of 20 GB, split as the key's salt and
    // fields allow, and the guide's per-table limit broken.
    assert!(
        out.contains(
            "create 'logs', {NAME => 'd', VERSIONS => 3, MIN_VERSIONS => 2, TTL => 2592000,"
        ),
        "{out}"
    );
    assert!(out.contains("COMPRESSION => 'GZ'"), "{out}");
    assert!(out.contains("{NAME => 'c', VERSIONS => 1,"), "{out}");
    assert!(out.contains(", SPLITS => [\"\\x00"), "{out}");
    assert!(out.contains("cbt createtable logs\n"), "{out}");
    assert!(out.contains("# 599 split points are binary"), "{out}");
    assert!(
        out.contains("cbt setgcpolicy logs d '(maxage=30d and maxversions=2) or maxversions=3'"),
        "{out}"
    );
    assert!(
        out.contains("cbt setgcpolicy logs c 'maxversions=1'"),
        "{out}"
    );
    assert!(
        out.contains("# family `d`: no Bigtable equivalent for COMPRESSION"),
        "{out}"
    );
    assert!(
        out.contains("| 2000000000 | 30 days | 0 % | 60000000000 | "),
        "{out}"
    );
    assert!(out.contains("| 600 |"), "{out}");
    assert!(out.contains("> warning: 600 regions"), "{out}");

    // Bad input is a clear error, not a panic.
    std::fs::write(&value, "{\"name\": \"X\"}").unwrap();
    let (ok, _, err) = run(&["schema", "--value", value.to_str().unwrap(), "--table", "t"]);
    assert!(!ok);
    assert!(err.starts_with("rowkey schema: "), "{err}");
    assert!(err.contains("family_options"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_whole_table_layout_renders_as_its_parts_do() {
    let dir = std::env::temp_dir().join(format!("rowkey-schema-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (value, key, table) = (
        dir.join("value.json"),
        dir.join("key.json"),
        dir.join("table.json"),
    );
    std::fs::write(&value, serde_json::to_string(&LogRow::SCHEMA).unwrap()).unwrap();
    std::fs::write(&key, serde_json::to_string(LogKey::SCHEMA).unwrap()).unwrap();
    let layout = rowkey::family::TableLayout::of::<LogKey, LogRow>("logs", 8);
    std::fs::write(&table, serde_json::to_string(&layout).unwrap()).unwrap();
    let (ok, from_layout, err) = run(&["schema", "--layout", table.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (ok, from_parts, err) = run(&[
        "schema",
        "--value",
        value.to_str().unwrap(),
        "--key",
        key.to_str().unwrap(),
        "--regions",
        "8",
        "--table",
        "logs",
    ]);
    assert!(ok, "{err}");
    assert_eq!(from_layout, from_parts);
    assert!(
        from_layout.contains(&layout.hbase_create()),
        "{from_layout}"
    );
    // --table renames; --regions re-splits from the layout's key.
    let (ok, out, err) = run(&[
        "schema",
        "--layout",
        table.to_str().unwrap(),
        "--table",
        "logs2",
        "--regions",
        "2",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("create 'logs2'"), "{out}");
    assert_eq!(out.matches("\\x").count(), 1, "one split point: {out}");

    // A layout with a broken fingerprint or split point is a clear error.
    let json = serde_json::to_string(&layout).unwrap();
    for (bad, says) in [
        (
            json.replace("\"key_fingerprint\":\"0x", "\"key_fingerprint\":\"1x"),
            "key_fingerprint",
        ),
        (
            json.replacen("\"splits\":[\"", "\"splits\":[\"z", 1),
            "split point",
        ),
        ("{}".to_string(), "not a table layout"),
    ] {
        std::fs::write(&table, bad).unwrap();
        let (ok, _, err) = run(&["schema", "--layout", table.to_str().unwrap()]);
        assert!(!ok);
        assert!(
            err.starts_with("rowkey schema: ") && err.contains(says),
            "{err}"
        );
    }
    // The declaration comes from one place: a layout and a value layout together are refused.
    let (ok, _, err) = run(&[
        "schema",
        "--layout",
        table.to_str().unwrap(),
        "--value",
        value.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
