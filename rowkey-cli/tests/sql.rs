//! `rowkey sql` as an operator runs it: a table a program wrote (the README's salted `Event`
//! key, on a local fjall database), read through its key layout exported as JSON; the result
//! printed as a table, as CSV, and as an Arrow IPC file that reads back; bad statements and
//! missing arguments refused with exit 2 and the reason.
#![cfg(feature = "sql")]

#[path = "../../rowkey/src/example.rs"]
mod example;

use std::process::Command;

use example::Event;
use rowkey::store::{FjallStore, Table};
use rowkey::RowKey;

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let (code, out, err) = run_bytes(args);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

/// [`run`], standard output as bytes.
fn run_bytes(args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rowkey"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

const TYPES: [&str; 3] = ["click", "login", "view"];

#[test]
fn sql_over_a_fjall_table_from_its_layout() {
    let dir = std::env::temp_dir().join(format!("rowkey-cli-sql-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.join("db");
    {
        let store = FjallStore::open(&db, "events").unwrap();
        let table = Table::<_, Event>::new(&store);
        let rows: Vec<(Event, Vec<u8>)> = (0..2_000u64)
            .map(|i| {
                let key = Event {
                    user_id: i % 50,
                    event_type: TYPES[(i % 3) as usize].into(),
                    ts: 1_700_000_000_000 + i,
                };
                (key, i.to_be_bytes().to_vec())
            })
            .collect();
        table
            .put_batch(rows.iter().map(|(k, v)| (k, v.as_slice())))
            .unwrap();
    }
    let key = dir.join("key.json");
    std::fs::write(&key, serde_json::to_string(Event::SCHEMA).unwrap()).unwrap();
    let (db, key) = (db.to_str().unwrap(), key.to_str().unwrap());
    let base = ["sql", "--fjall", db, "--table", "events", "--key", key];

    // Each user has 2,000 / 50 = 40 events, a third of them clicks (13 or 14).
    let statement = "SELECT user_id, count(*) AS n, max(ts) AS latest FROM events \
                     WHERE event_type = 'click' GROUP BY user_id ORDER BY user_id LIMIT 3";
    let (code, out, err) = run(&[&base[..], &[statement]].concat());
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("| user_id | n  | latest"), "{out}");
    // user 0's clicks: i = 0, 150, 300, ... (i % 50 == 0 and i % 3 == 0), the last i = 1950.
    assert!(
        out.contains("| 0       | 14 | 2023-11-14T22:13:21.950 |"),
        "{out}"
    );
    assert!(out.ends_with("3 rows\n"), "{out}");

    // CSV, with the value column.
    let (code, out, err) = run(&[
        &base[..],
        &["--value", "v", "--format", "csv", "--raw-timestamps"],
        &["SELECT user_id, event_type, ts, v FROM events WHERE user_id = 7 ORDER BY ts"],
    ]
    .concat());
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "user_id,event_type,ts,v");
    assert_eq!(lines.len(), 41, "{out}");
    // i = 7: a login (7 % 3 == 1), its value the bytes of 7.
    assert_eq!(lines[1], "7,login,1700000000007,0000000000000007");

    // An Arrow IPC file that reads back, every row of the table.
    let file = dir.join("all.arrow");
    let (code, _, err) = run(&[
        &base[..],
        &["--format", "arrow", "-o", file.to_str().unwrap()],
        &["SELECT * FROM events"],
    ]
    .concat());
    assert_eq!(code, Some(0), "{err}");
    let reader = rowkey_datafusion::datafusion::arrow::ipc::reader::FileReader::try_new(
        std::fs::File::open(&file).unwrap(),
        None,
    )
    .unwrap();
    let names: Vec<String> = reader
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, ["user_id", "event_type", "ts"]);
    let rows: usize = reader.map(|b| b.unwrap().num_rows()).sum();
    assert_eq!(rows, 2_000);

    // A Parquet file (Snappy) that reads back: its columns, types and rows, to standard
    // output as to a file.
    let file = dir.join("some.parquet");
    let statement = "SELECT user_id, ts FROM events WHERE user_id < 10 ORDER BY user_id, ts";
    let (code, _, err) = run(&[
        &base[..],
        &["--format", "parquet", "-o", file.to_str().unwrap()],
        &[statement],
    ]
    .concat());
    assert_eq!(code, Some(0), "{err}");
    let (code, piped, err) =
        run_bytes(&[&base[..], &["--format", "parquet"], &[statement]].concat());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        piped,
        std::fs::read(&file).unwrap(),
        "the same file either way"
    );
    let reader = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(
        std::fs::File::open(&file).unwrap(),
    )
    .unwrap();
    let codec = reader.metadata().row_group(0).column(0).compression();
    assert_eq!(codec, parquet::basic::Compression::SNAPPY);
    let batches: Vec<_> = reader.build().unwrap().map(|b| b.unwrap()).collect();
    let fields: Vec<String> = batches[0]
        .schema()
        .fields()
        .iter()
        .map(|f| format!("{}: {}", f.name(), f.data_type()))
        .collect();
    assert_eq!(fields[0], "user_id: UInt64");
    assert!(fields[1].starts_with("ts: Timestamp(ms"), "{fields:?}");
    let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
    assert_eq!(rows, 2_000 / 50 * 10);

    // Refusals: exit 2, the reason on standard error.
    let (code, _, err) = run(&[&base[..], &["SELECT nope FROM events"]].concat());
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("rowkey sql: ") && err.contains("nope"),
        "{err}"
    );
    let (code, _, err) = run(&["sql", "--table", "events", "--key", key, "SELECT 1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("say where the table is"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
