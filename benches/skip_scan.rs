//! Skip scans on fjall: the Flurry article's composite key `(user, app)`, with a day after it,
//! and the query it says needs a full scan. 1,000,000 rows: 1,000 users (the leading field)
//! x 100 apps x 10 days, the tree flushed and major-compacted. In one run:
//!
//! - **app = 42** (the second field alone; 10,000 rows match): `Table::query` against a full
//!   scan filtered on the decoded key, and against a hand-written seek loop over raw fjall
//!   (per user: a range over that user's app 42, then a seek to the next user);
//! - **day = 3, app open** (the third field with the second open; 100,000 rows match):
//!   `Table::query` against the full scan filtered.
//!
//! For each query it prints the plan and what the walk did (rows read from fjall, seeks), then
//! each pair's medians over 11 rounds alternating which side goes first, with the median ratio
//! and its range (`common::paired`). Run: `cargo bench -p rowkey-benches --bench skip_scan`.

#[path = "common/mod.rs"]
mod common;

use common::paired;
use rowkey::store::{FjallStore, Table};
use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
struct Install {
    user: u32,
    app: u32,
    day: u16,
}

const USERS: u32 = 1_000;
const APPS: u32 = 100;
const DAYS: u16 = 10;
const ROUNDS: usize = 11;

/// The hand-written skip scan for one app: the key is `user | app | day`, big-endian.
fn raw_app(ks: &fjall::Keyspace, app: u32) -> usize {
    let mut n = 0;
    let mut from: Vec<u8> = Vec::new();
    loop {
        let Some(first) = ks.range(from.clone()..).next() else {
            return n;
        };
        let (key, _) = first.into_inner().unwrap();
        let user = u32::from_be_bytes(key[..4].try_into().unwrap());
        let at = |a: u32| [user.to_be_bytes(), a.to_be_bytes()].concat();
        n += ks.range(at(app)..at(app + 1)).count();
        match user.checked_add(1) {
            Some(next) => from = next.to_be_bytes().to_vec(),
            None => return n,
        }
    }
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let store = FjallStore::open(dir.path(), "installs").unwrap();
    let table = Table::<_, Install>::new(store.clone());
    let rows: Vec<Install> = (0..USERS)
        .flat_map(|user| {
            (0..APPS).flat_map(move |app| (0..DAYS).map(move |day| Install { user, app, day }))
        })
        .collect();
    for chunk in rows.chunks(100_000) {
        table
            .bulk_load(chunk.iter().map(|k| (k, &b"v"[..])))
            .unwrap();
    }
    let ks = store.keyspace().clone();
    ks.rotate_memtable_and_wait().unwrap();
    ks.major_compact().unwrap();
    let all = Install::scan().ranges();
    println!(
        "{} rows: {USERS} users x {APPS} apps x {DAYS} days",
        rows.len()
    );

    let full = |keep: &dyn Fn(&Install) -> bool| {
        table
            .scan(&all)
            .filter(|r| keep(&r.as_ref().unwrap().0))
            .count()
    };

    let app = Install::query().app(42u32).build();
    let day = Install::query().day(3u16).build();
    for (name, q) in [("app = 42", &app), ("day = 3, app open", &day)] {
        let mut rows = table.query(q);
        let matched = rows.by_ref().count();
        let s = rows.stats();
        println!(
            "\n{name}: {matched} rows match; the walk read {} rows ({:.2} per match) with {} seeks\n{q}",
            s.read,
            s.read as f64 / matched as f64,
            s.seeks
        );
    }

    println!(
        "\n{:<28} {:>16} {:>16} {:>20}",
        "operation (median)", "query", "other side", "ratio (min..max)"
    );
    paired(
        "app = 42 / full scan",
        "ms",
        1e6,
        ROUNDS,
        || table.query(&app).count(),
        || full(&|k| k.app == 42),
    );
    paired(
        "app = 42 / hand-written",
        "ms",
        1e6,
        ROUNDS,
        || table.query(&app).count(),
        || raw_app(&ks, 42),
    );
    paired(
        "day = 3 / full scan",
        "ms",
        1e6,
        ROUNDS,
        || table.query(&day).count(),
        || full(&|k| k.day == 3),
    );
}
