//! The client metrics as a test reads them: the `metrics` facade's debugging recorder,
//! installed once per test binary, and each table's counters totalled across snapshots.

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The process's metrics recorder (the facade's debugging one), installed once for this test
/// binary; each test reads its own table's metrics (the `table` label).
pub fn recorder() -> &'static metrics_util::debugging::Snapshotter {
    static SNAP: OnceLock<metrics_util::debugging::Snapshotter> = OnceLock::new();
    SNAP.get_or_init(|| {
        let recorder = metrics_util::debugging::DebuggingRecorder::new();
        let snapshotter = recorder.snapshotter();
        recorder
            .install()
            .expect("no other metrics recorder in this test binary");
        snapshotter
    })
}

/// Table `table`'s counters so far, by name and the labels other than `store` and `table`.
/// The debugging recorder's snapshots hand each counter's increase since the last one: the
/// totals are kept here, for every table (tests running at once read each other's).
pub fn counters(table: &str) -> BTreeMap<String, u64> {
    static TOTALS: std::sync::Mutex<BTreeMap<(String, String), u64>> =
        std::sync::Mutex::new(BTreeMap::new());
    let mut totals = TOTALS.lock().unwrap_or_else(|p| p.into_inner());
    for (key, _, _, value) in recorder().snapshot().into_vec() {
        let key = key.key();
        let Some(of) = key.labels().find(|l| l.key() == "table") else {
            continue;
        };
        if let metrics_util::debugging::DebugValue::Counter(n) = value {
            let labels: Vec<String> = key
                .labels()
                .filter(|l| l.key() != "table" && l.key() != "store")
                .map(|l| format!("{}={}", l.key(), l.value()))
                .collect();
            let name = format!("{}{{{}}}", key.name(), labels.join(","));
            *totals.entry((of.value().to_string(), name)).or_default() += n;
        }
    }
    totals
        .iter()
        .filter(|((t, _), _)| t == table)
        .map(|((_, name), n)| (name.clone(), *n))
        .collect()
}

pub fn sum(counters: &BTreeMap<String, u64>, name: &str) -> u64 {
    counters
        .iter()
        .filter(|(k, _)| k.starts_with(&format!("{name}{{")))
        .map(|(_, v)| *v)
        .sum()
}

/// Table `table`'s metrics after one write batch of `rows` went through connections cut
/// mid-way and restored: connections lost and opened again, retries, the batch's rows (all
/// confirmed) and one `ok` batch, at least the rows' bytes sent, and bytes received. Only the
/// network stores have metrics: the default (fjall) build has no `rowkey::store::metrics`.
#[cfg(any(feature = "bigtable", feature = "hbase", feature = "hbase-rpc"))]
pub fn a_batch_through_cuts_was_counted(table: &str, rows: &[rowkey::store::Row]) {
    use rowkey::store::metrics as m;
    let c = counters(table);
    assert!(sum(&c, m::CONNECTIONS_LOST) >= 1, "{c:?}");
    assert!(sum(&c, m::CONNECTIONS_OPENED) >= 2, "{c:?}");
    assert!(sum(&c, m::RETRIES) >= 1, "{c:?}");
    assert_eq!(
        c[&format!("{}{{op=write_batch}}", m::ROWS)],
        rows.len() as u64
    );
    assert_eq!(
        c[&format!("{}{{op=write_batch,outcome=ok}}", m::OPERATIONS)],
        1,
        "{c:?}"
    );
    let payload: usize = rows.iter().map(|(k, v)| k.len() + v.len()).sum();
    assert!(
        c[&format!("{}{{direction=sent}}", m::BYTES)] >= payload as u64,
        "{c:?}"
    );
    assert!(
        c[&format!("{}{{direction=received}}", m::BYTES)] > 0,
        "{c:?}"
    );
}
