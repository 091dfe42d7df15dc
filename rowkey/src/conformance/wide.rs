//! Rows as columns on every store (memory and fjall in `tests/rows_as_columns.rs`, the
//! emulator and HBase in their files): an hour of one series per row, the offset in the
//! qualifier, and random logical ranges (on the span field, on a field inside the qualifier,
//! prefixes) answered exactly, forward and reverse, against a brute-force filter.

#![allow(dead_code)] // each test binary uses part of it

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rowkey::store::{Store, WideTable};
use rowkey::RowKey;

/// OpenTSDB's shape: `[salt][metric][host][hour]` rows, `[offset][seq]` qualifiers.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Point {
    #[salt(buckets = 4)]
    pub metric: String,
    pub host: String,
    #[row_span(3_600_000)]
    pub ts: u64,
    pub seq: u8,
}

/// The column family the points live in.
pub const FAMILY: &str = "t";

pub const METRICS: [&str; 3] = ["cpu", "disk", "mem"];
pub const HOSTS: [&str; 3] = ["a", "b", "web-1"];
/// The first hour of the data; points span five hours after it.
pub const T0: u64 = 1_700_000_000_000 - 1_700_000_000_000 % 3_600_000;
pub const HOUR: u64 = 3_600_000;

/// Points at pseudo-random times over five hours, several per row, some on bucket edges.
pub fn points() -> Vec<(Point, i64)> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::new();
    for m in METRICS {
        for h in HOSTS {
            for i in 0..120 {
                let ts = match i % 10 {
                    0 => T0 + (next() % 5) * HOUR,         // a bucket's first value
                    1 => T0 + (next() % 5 + 1) * HOUR - 1, // a bucket's last value
                    _ => T0 + next() % (5 * HOUR),
                };
                let p = Point {
                    metric: m.into(),
                    host: h.into(),
                    ts,
                    seq: (next() % 3) as u8,
                };
                out.push((p, (next() % 1000) as i64 - 500));
            }
        }
    }
    // Of two points with one key, the last written wins: keep that one.
    let mut unique: Vec<(Point, i64)> = Vec::new();
    for (p, v) in out {
        unique.retain(|(q, _)| q != &p);
        unique.push((p, v));
    }
    unique
}

/// Logical order: metric, host, ts, seq.
fn logical(p: &Point) -> (String, String, u64, u8) {
    (p.metric.clone(), p.host.clone(), p.ts, p.seq)
}

/// A read of the points.
#[derive(Clone, Debug)]
pub enum Query {
    Metric(usize),
    Host(usize, usize),
    /// A time range within one series.
    Ts(usize, usize, u64, u64),
    /// From a time on, within one series.
    TsFrom(usize, usize, u64),
    /// One time, a range of sequence numbers (a range on a qualifier field).
    Seq(usize, usize, u64, u8, u8),
}

fn time() -> impl Strategy<Value = u64> {
    // Near bucket edges as often as anywhere.
    prop_oneof![
        (0..6u64).prop_map(|h| T0 + h * HOUR),
        (0..6u64, 0..3u64).prop_map(|(h, d)| (T0 + h * HOUR).saturating_sub(d)),
        (0..5 * HOUR).prop_map(|t| T0 + t),
    ]
}

pub fn query() -> impl Strategy<Value = Query> {
    let m = 0..METRICS.len();
    let h = 0..HOSTS.len();
    prop_oneof![
        m.clone().prop_map(Query::Metric),
        (m.clone(), h.clone()).prop_map(|(m, h)| Query::Host(m, h)),
        (m.clone(), h.clone(), time(), time()).prop_map(|(m, h, a, b)| Query::Ts(m, h, a, b)),
        (m.clone(), h.clone(), time()).prop_map(|(m, h, a)| Query::TsFrom(m, h, a)),
        (m, h, time(), 0..4u8, 0..4u8).prop_map(|(m, h, t, a, b)| Query::Seq(m, h, t, a, b)),
    ]
}

/// The brute-force filter of a query.
pub type Filter = Box<dyn Fn(&Point) -> bool>;

/// The query's ranges and its brute-force filter.
pub fn ranges(q: &Query) -> (rowkey::KeyRanges, Filter) {
    let s = |m: usize| METRICS[m].to_string();
    let hs = |h: usize| HOSTS[h].to_string();
    match q.clone() {
        Query::Metric(m) => (
            Point::scan().metric(METRICS[m]).ranges(),
            Box::new(move |p: &Point| p.metric == s(m)),
        ),
        Query::Host(m, h) => (
            Point::scan().metric(METRICS[m]).host(HOSTS[h]).ranges(),
            Box::new(move |p: &Point| p.metric == s(m) && p.host == hs(h)),
        ),
        Query::Ts(m, h, a, b) => (
            Point::scan()
                .metric(METRICS[m])
                .host(HOSTS[h])
                .ts(a..b)
                .ranges(),
            Box::new(move |p: &Point| {
                p.metric == s(m) && p.host == hs(h) && (a..b).contains(&p.ts)
            }),
        ),
        Query::TsFrom(m, h, a) => (
            Point::scan()
                .metric(METRICS[m])
                .host(HOSTS[h])
                .ts(a..)
                .ranges(),
            Box::new(move |p: &Point| p.metric == s(m) && p.host == hs(h) && p.ts >= a),
        ),
        Query::Seq(m, h, t, a, b) => (
            Point::scan()
                .metric(METRICS[m])
                .host(HOSTS[h])
                .ts(t)
                .seq(a..=b)
                .ranges(),
            Box::new(move |p: &Point| {
                p.metric == s(m) && p.host == hs(h) && p.ts == t && (a..=b).contains(&p.seq)
            }),
        ),
    }
}

/// Loads the points into a fresh table.
pub fn load<S: Store>(store: S) -> (WideTable<S, Point, i64>, Vec<(Point, i64)>) {
    let table = WideTable::new(store, FAMILY);
    let data = points();
    table.put_batch(data.iter().map(|(p, v)| (p, v))).unwrap();
    (table, data)
}

/// One query, forward and reverse, against the brute-force answer.
pub fn check<S: Store>(table: &WideTable<S, Point, i64>, data: &[(Point, i64)], q: &Query) {
    let (ranges, keep) = ranges(q);
    let mut want: Vec<(Point, i64)> = data.iter().filter(|(p, _)| keep(p)).cloned().collect();
    want.sort_by_key(|(p, _)| logical(p));
    let got: Vec<(Point, i64)> = table.scan(&ranges).map(Result::unwrap).collect();
    assert_eq!(got, want, "{q:?}");
    if let Some(rev) = table.scan_rev(&ranges) {
        let mut back: Vec<(Point, i64)> = rev.map(Result::unwrap).collect();
        back.reverse();
        assert_eq!(back, want, "reverse {q:?}");
    }
}

/// Point reads, a delete, and `cases` random queries.
pub fn exercise_wide<S: Store>(store: S, cases: u32) {
    let (table, mut data) = load(store);
    for (p, v) in data.iter().step_by(37) {
        assert_eq!(table.get(p).unwrap(), Some(*v));
    }
    // A record's row holds its neighbours in time: deleting one leaves the rest.
    let (gone, _) = data.remove(5);
    table.delete(&gone).unwrap();
    assert_eq!(table.get(&gone).unwrap(), None);
    // Whole series: every point of a row comes from one row read.
    check(&table, &data, &Query::Host(0, 0));
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&query(), |q| {
            check(&table, &data, &q);
            Ok(())
        })
        .unwrap();
}

/// The same behaviours through [`AsyncWideTable`](rowkey::store::AsyncWideTable), from a
/// tokio task: `cases` random queries (drawn with proptest's deterministic runner), forward and
/// reverse, against the brute-force answer.
#[cfg(feature = "async")]
pub async fn exercise_wide_async<S: rowkey::store::AsyncStore>(store: S, cases: usize) {
    use futures_util::StreamExt;
    use proptest::strategy::ValueTree;
    use rowkey::store::AsyncWideTable;

    let table: AsyncWideTable<S, Point, i64> = AsyncWideTable::new(store, FAMILY);
    let mut data = points();
    table
        .put_batch(data.iter().map(|(p, v)| (p, v)))
        .await
        .unwrap();
    for (p, v) in data.iter().step_by(41) {
        assert_eq!(table.get(p).await.unwrap(), Some(*v));
    }
    let (gone, _) = data.remove(7);
    table.delete(&gone).await.unwrap();
    assert_eq!(table.get(&gone).await.unwrap(), None);
    let mut runner = TestRunner::deterministic();
    for _ in 0..cases {
        let q = query().new_tree(&mut runner).unwrap().current();
        let (ranges, keep) = ranges(&q);
        let mut want: Vec<(Point, i64)> = data.iter().filter(|(p, _)| keep(p)).cloned().collect();
        want.sort_by_key(|(p, _)| logical(p));
        let got: Vec<(Point, i64)> = table.scan(&ranges).map(Result::unwrap).collect().await;
        assert_eq!(got, want, "{q:?}");
        if let Some(rev) = table.scan_rev(&ranges) {
            let mut back: Vec<(Point, i64)> = rev.map(Result::unwrap).collect().await;
            back.reverse();
            assert_eq!(back, want, "reverse {q:?}");
        }
    }
}
