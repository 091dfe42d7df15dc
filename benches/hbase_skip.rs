//! Skip scans on HBase: the Flurry article's composite key `(user, app)`, with a day after it,
//! and the queries it says need a full scan, on a local HBase with Apache Phoenix
//! (`hbase-local/run --phoenix`, two region servers in one JVM). 1,000,000 rows by default:
//! 1,000 users (the leading field) x 100 apps x 10 days, written twice with the same key bytes
//! (Phoenix's `UNSIGNED_INT`s and `UNSIGNED_SMALLINT` are rowkey's `u32`s and `u16`): once by
//! rowkey's native store as a `Table<_, Install>`, once as a Phoenix table (declared with
//! `#[derive(PhoenixRow)]`, created through Phoenix's JDBC driver, written by rowkey); both
//! tables flushed and major-compacted. In one run, for
//!
//! - **app = 42** (the second field alone; 10,000 rows match) and
//! - **day = 3, app open** (the third field with the second open; 100,000 rows match):
//!
//! rowkey's `Table::query` (the region servers apply a `FuzzyRowFilter` and seek past gaps;
//! the rows that cross the network are counted) against a full scan of the table filtered on
//! the decoded key (what a prefix-only builder leaves), and against Phoenix on the same data
//! through its JDBC driver: with the `SKIP_SCAN` hint (Phoenix's skip scan, which it does not
//! pick by itself for a leading column left open) and without it (its plan: a full scan with a
//! server filter). Phoenix's times are measured from here, through the SQL line server
//! (`hbase-local/phoenix_sql.rs`): they include the text protocol, a few milliseconds per
//! 10,000 rows.
//!
//! Each pair is timed `--rounds` times alternating which side goes first, with an untimed
//! round before (`common::paired`: medians, the median ratio and its range).
//!
//! `cargo bench -p rowkey-benches --bench hbase_skip -- [--users N] [--rounds R]` (defaults
//! 1,000 users, 7 rounds). Uses the cluster `ROWKEY_PHOENIX_READY` names, or starts one.

#[path = "common/mod.rs"]
mod common;
#[path = "../hbase-local/gateways.rs"]
mod gateways;
#[path = "../hbase-local/phoenix_sql.rs"]
mod phoenix_sql;

use std::time::Instant;

use common::{arg, paired};
use phoenix_sql::{Phoenix, Value};
use rowkey::phoenix::PhoenixRow;
use rowkey::store::{HbaseRpcConfig, HbaseRpcStore, PhoenixRows, Table};
use rowkey::RowKey;

/// The key rowkey's table is read by.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
struct Install {
    user: u32,
    app: u32,
    day: u16,
}

/// The same rows as a Phoenix table: the same key bytes, one value column.
#[derive(rowkey::PhoenixRow, Debug, Clone, PartialEq)]
#[phoenix(table = "INSTALLS_BENCH", family = "d")]
struct PhoenixInstall {
    #[phoenix(key)]
    user_id: u32,
    #[phoenix(key)]
    app: u32,
    #[phoenix(key)]
    day: u16,
    hits: u32,
}

const APPS: u32 = 100;
const DAYS: u16 = 10;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let users = arg(&args, "--users", 1_000) as u32;
    let rounds = arg(&args, "--rounds", 7);
    let Some(p) = Phoenix::from_env_or_start() else {
        eprintln!("no HBase with Phoenix: `hbase-local/run --phoenix` did not start");
        return;
    };
    let master = p.master.clone().expect("the READY line names the master");

    // rowkey's table.
    let name = format!("installs_rowkey_{}", std::process::id());
    let store = HbaseRpcStore::with_config(HbaseRpcConfig::new(&master, &name, "d")).unwrap();
    let at = |user: u32| -> rowkey::bytes::Bytes {
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
    let splits: Vec<_> = (1..4).map(|i| at(users * i / 4)).collect();
    store.create_table(&splits).unwrap();
    let table = Table::<_, Install>::new(store);
    let rows: Vec<Install> = (0..users)
        .flat_map(|user| {
            (0..APPS).flat_map(move |app| (0..DAYS).map(move |day| Install { user, app, day }))
        })
        .collect();
    let t = Instant::now();
    for chunk in rows.chunks(50_000) {
        table
            .put_batch(chunk.iter().map(|k| (k, &b"v"[..])))
            .unwrap();
    }
    println!(
        "{} rows: {users} users x {APPS} apps x {DAYS} days; rowkey's table written in {:.1?}",
        rows.len(),
        t.elapsed()
    );

    // Phoenix's table.
    let mut sql = p.session();
    let phoenix = PhoenixInstall::table();
    let _ = sql.update(&format!("DROP TABLE IF EXISTS \"{}\"", phoenix.name()), &[]);
    // The same region boundaries: Phoenix splits on the leading column's values.
    let split_on: Vec<String> = (1..4).map(|i| (users * i / 4).to_string()).collect();
    let create = format!(
        "{} SPLIT ON ({})",
        phoenix.create_table(),
        split_on.join(", ")
    );
    sql.update(&create, &[]).unwrap();
    let pstore = HbaseRpcStore::with_config(
        HbaseRpcConfig::new(&master, phoenix.name(), phoenix.default_family())
            .families(phoenix.families()),
    )
    .unwrap();
    let prow = PhoenixRows::<_, PhoenixInstall>::new(pstore);
    let t = Instant::now();
    let as_phoenix = |k: &Install| PhoenixInstall {
        user_id: k.user,
        app: k.app,
        day: k.day,
        hits: 1,
    };
    for chunk in rows.chunks(50_000) {
        let batch: Vec<PhoenixInstall> = chunk.iter().map(as_phoenix).collect();
        prow.put_batch(&batch).unwrap();
    }
    println!("Phoenix's table written (by rowkey) in {:.1?}", t.elapsed());
    let counted = sql
        .query(&format!("SELECT COUNT(*) FROM \"{}\"", phoenix.name()), &[])
        .unwrap();
    assert_eq!(counted, vec![vec![Value::Int(rows.len() as i64)]]);
    for t in [name.as_str(), phoenix.name()] {
        if let Some(compact) = gateways::compactor(p.control.as_deref(), t) {
            compact();
        }
    }

    let all = Install::scan().ranges();
    let full = |keep: &dyn Fn(&Install) -> bool| {
        table
            .scan(&all)
            .filter(|r| keep(&r.as_ref().unwrap().0))
            .count()
    };
    let phoenix_rows = |hint: &str, column: &str, value: i64| -> usize {
        let q = format!(
            "SELECT {hint} \"user_id\", \"app\", \"day\" FROM \"{}\" WHERE \"{column}\" = ?",
            phoenix.name()
        );
        sql_rows(&p, &q, value)
    };

    for (label, query, column, value, keep) in [
        (
            "app = 42",
            Install::query().app(42u32).build(),
            "app",
            42i64,
            Box::new(|k: &Install| k.app == 42) as Box<dyn Fn(&Install) -> bool>,
        ),
        (
            "day = 3",
            Install::query().day(3u16).build(),
            "day",
            3,
            Box::new(|k: &Install| k.day == 3),
        ),
    ] {
        let mut walk = table.query(&query);
        let matched = walk.by_ref().count();
        let stats = walk.stats();
        println!("\n{label}: {matched} rows match\n{query}");
        println!(
            "rowkey: {} rows crossed the network, {} seeks, filtered on the server: {}",
            stats.read,
            stats.seeks,
            stats.filtered > 0
        );
        for hint in ["/*+ SKIP_SCAN */", ""] {
            let q = format!(
                "SELECT {hint} \"user_id\", \"app\", \"day\" FROM \"{}\" WHERE \"{column}\" = ?",
                phoenix.name()
            );
            let plan = sql.explain(&q, &[Value::Int(value)]).unwrap();
            println!(
                "Phoenix {}: {}",
                if hint.is_empty() { "plain" } else { hint },
                plan.replace('\n', " | ")
            );
        }
        println!(
            "{:<28} {:>7} {:<8} {:>7} {:<8} {:>6}",
            "pair (rowkey / other)", "rowkey", "", "other", "", "ratio (range)"
        );
        let count = || table.query(&query).count();
        paired(
            &format!("{label}: query / full scan"),
            "ms",
            1e6,
            rounds,
            count,
            || full(&keep),
        );
        paired(
            &format!("{label}: query / Phoenix skip"),
            "ms",
            1e6,
            rounds,
            count,
            || phoenix_rows("/*+ SKIP_SCAN */", column, value),
        );
        paired(
            &format!("{label}: query / Phoenix plain"),
            "ms",
            1e6,
            rounds,
            count,
            || phoenix_rows("", column, value),
        );
    }
    table.store().drop_table().unwrap();
    let _ = sql.update(&format!("DROP TABLE \"{}\"", phoenix.name()), &[]);
}

/// The rows of a Phoenix query with one integer parameter, through a session of its own.
fn sql_rows(p: &Phoenix, query: &str, value: i64) -> usize {
    let mut sql = p.session();
    sql.query(query, &[Value::Int(value)]).unwrap().len()
}
