//! Each verb of the `rowkey` program, run as a user runs it, on the layouts export the
//! repository ships (`examples/layouts.json`, what `cargo run --example layouts` writes):
//! `explain` (exit 1 on a key that does not decode, the known types listed for an unknown
//! one), `schema` and `diff` (a table chosen from the export, a key-only file refused saying
//! why), `regions --type`. No server: the live verbs stop where they would connect.

#[path = "../../rowkey/src/example.rs"]
mod example;

use std::process::Command;

use example::{CustomerOrder, Event, HostLog, Leaderboard, MetricPoint, Visit};
use rowkey::{RowKey, RowValue};

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

/// The export the repository ships, beside the examples.
fn export() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/layouts.json").to_string()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The shipped export is what the example writes today: the same key layouts and tables.
#[test]
fn the_shipped_export_is_the_examples() {
    let shipped: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(export()).unwrap()).unwrap();
    let keys = serde_json::to_value([
        Event::SCHEMA,
        HostLog::SCHEMA,
        CustomerOrder::SCHEMA,
        Leaderboard::SCHEMA,
        MetricPoint::SCHEMA,
    ])
    .unwrap();
    assert_eq!(
        shipped["keys"], keys,
        "examples/layouts.json drifted: `cargo run --example layouts -- examples/layouts.md`"
    );
    let tables = serde_json::to_value([
        rowkey::family::TableLayout::of::<Event, Visit>("visits", 16),
        rowkey::family::TableLayout::of::<CustomerOrder, Visit>("orders", 4),
    ])
    .unwrap();
    assert_eq!(shipped["tables"], tables, "examples/layouts.json drifted");
    assert_eq!(Visit::SCHEMA.name, "Visit");
}

#[test]
fn explain_exits_nonzero_on_a_key_that_does_not_decode() {
    let key = Event {
        user_id: 7,
        event_type: "click".into(),
        ts: 1_700_000_000_000,
    }
    .to_bytes()
    .unwrap();
    let good = format!("0x{}", hex(&key));
    let (code, out, err) = run(&["explain", "--schema", &export(), "--type", "Event", &good]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("\"click\""), "{out}");
    // Cut short, and with a wrong salt byte: both shown, and the exit status says so.
    let short = format!("0x{}", hex(&key[..20]));
    let mut salted = key.to_vec();
    salted[0] = (salted[0] + 1) % 16;
    let wrong_salt = format!("0x{}", hex(&salted));
    let (code, out, err) = run(&[
        "explain",
        "--schema",
        &export(),
        "--type",
        "Event",
        &good,
        &short,
        &wrong_salt,
    ]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert_eq!(out.matches("Event key").count(), 3, "{out}");
    assert!(out.contains("error:"), "{out}");
    assert!(out.contains("WRONG"), "{out}");
    assert!(err.contains("2 of 3 keys are not `Event` keys"), "{err}");
}

#[test]
fn explain_lists_the_known_types() {
    let (code, _, err) = run(&["explain", "--schema", &export(), "--type", "Evnt", "0x00"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no key schema `Evnt`"), "{err}");
    assert!(
        err.contains("Event, HostLog, CustomerOrder, Leaderboard, MetricPoint"),
        "{err}"
    );
    let (code, _, err) = run(&["explain", "--schema", &export(), "0x00"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("choose one with --type (Event, HostLog"),
        "{err}"
    );
}

#[test]
fn schema_reads_a_table_of_the_export() {
    let (code, _, err) = run(&["schema", "--layout", &export()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("several table layouts; choose one with --table (visits, orders)"),
        "{err}"
    );
    let (code, out, err) = run(&["schema", "--layout", &export(), "--table", "orders"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("create 'orders', {NAME => 'd'"), "{out}");
    // The layout's split points: 4 regions.
    assert!(out.contains(r#"SPLITS => ["@\x00"#), "{out}");
    assert!(out.contains("cbt createtable orders"), "{out}");
    // A file of key layouts only: refused, saying what it holds and what a table needs.
    let dir = std::env::temp_dir().join(format!("rowkey-verbs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let keys = dir.join("keys.json");
    std::fs::write(&keys, serde_json::to_string(&[Event::SCHEMA]).unwrap()).unwrap();
    let (code, _, err) = run(&["schema", "--layout", keys.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("key layouts only (Event)"), "{err}");
    assert!(err.contains("TableLayout::of::<K, V>"), "{err}");
    // A key for split points, chosen from the export by --key-type.
    let value = dir.join("value.json");
    std::fs::write(&value, serde_json::to_string(&Visit::SCHEMA).unwrap()).unwrap();
    let (code, out, err) = run(&[
        "schema",
        "--value",
        value.to_str().unwrap(),
        "--table",
        "t",
        "--key",
        &export(),
        "--key-type",
        "CustomerOrder",
        "--regions",
        "2",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(r#"SPLITS => ["\x80"#), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// The live verbs read the export before they connect: a table of it is taken (and the verb
/// stops where it needs a store).
#[test]
fn diff_and_regions_read_the_export() {
    let (code, _, err) = run(&["diff", "--layout", &export(), "--table", "visits"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("say where the table is"), "{err}");
    let (code, _, err) = run(&[
        "regions",
        "--key",
        &export(),
        "--type",
        "Event",
        "--table",
        "visits",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("say where the table is"), "{err}");
    let (code, _, err) = run(&["regions", "--key", &export(), "--table", "visits"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("choose one with --type"), "{err}");
}
