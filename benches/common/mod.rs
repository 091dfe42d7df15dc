//! What the benchmarks share: the README's `Event` key (borrowed), the raw side's merge of
//! fjall iterators, and reading criterion's medians back for the ratio tables they print.

#![allow(dead_code)] // each bench uses part of it

use rowkey::RowKey;

/// The 33-byte `Event` key of the README with its event type borrowed:
/// `[salt][u64 user][16-byte padded type][reverse ts]`.
#[derive(RowKey, Debug, PartialEq)]
pub struct EventRef<'a> {
    #[salt(buckets = 16)]
    pub user_id: u64,
    #[fixed(16)]
    pub event_type: &'a str,
    #[reverse_ts]
    pub ts: u64,
}

/// The number after `name` among the command line's `args` (`_` allowed as a thousands
/// separator), or `default`.
pub fn arg(args: &[String], name: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

/// The median (ns per iteration) criterion recorded for `group/name` in this run.
pub fn median_ns(group: &str, name: &str) -> Option<f64> {
    // Cargo runs a bench in its package's directory (`benches/`); criterion writes under the
    // workspace's target directory.
    let dirs = match std::env::var("CARGO_TARGET_DIR") {
        Ok(d) => vec![d],
        Err(_) => vec!["target".into(), "../target".into()],
    };
    let text = dirs.iter().find_map(|dir| {
        std::fs::read_to_string(format!("{dir}/criterion/{group}/{name}/new/estimates.json")).ok()
    })?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["median"]["point_estimate"].as_f64()
}

/// A waiting row of the raw side's merge: fjall's own key and value buffers, ordered (for a
/// min-heap) by the key after its salt byte, without copying it.
struct RawHead {
    key: fjall::Slice,
    value: fjall::Slice,
    range: usize,
}

impl PartialEq for RawHead {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for RawHead {}
impl PartialOrd for RawHead {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for RawHead {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Reversed: `BinaryHeap` pops the largest.
        other.key[1..].cmp(&self.key[1..])
    }
}

/// The raw side's salted merge, by hand: one fjall iterator per bucket range, a binary heap on
/// the unsalted key (compared in place in fjall's buffers); `row` gets each key and value in
/// logical order. Returns the rows merged.
pub fn raw_merge(mut iters: Vec<fjall::Iter>, mut row: impl FnMut(&[u8], &[u8])) -> usize {
    let mut heap = std::collections::BinaryHeap::new();
    for (range, it) in iters.iter_mut().enumerate() {
        if let Some(g) = it.next() {
            let (key, value) = g.into_inner().unwrap();
            heap.push(RawHead { key, value, range });
        }
    }
    let mut n = 0;
    while let Some(RawHead { key, value, range }) = heap.pop() {
        row(&key, &value);
        n += 1;
        if let Some(g) = iters[range].next() {
            let (key, value) = g.into_inner().unwrap();
            heap.push(RawHead { key, value, range });
        }
    }
    n
}

/// Times rowkey's side and the raw side of the same work, `rounds` times each, alternating
/// which goes first (so cache warmth and clock changes fall on both), checks that both read
/// the same rows, and prints each side's median per unit (`per` units a round) with the
/// median ratio of the rounds and its range: what a run says and how much it moves.
pub fn paired(
    label: &str,
    unit: &str,
    per: f64,
    rounds: usize,
    mut table: impl FnMut() -> usize,
    mut raw: impl FnMut() -> usize,
) {
    if std::env::var("ROWKEY_BENCH_ONLY").is_ok_and(|only| !label.contains(&only)) {
        return;
    }
    let time = |f: &mut dyn FnMut() -> usize| {
        let start = std::time::Instant::now();
        let rows = std::hint::black_box(f());
        (start.elapsed().as_nanos() as f64, rows)
    };
    let (mut t, mut r, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    // One untimed round first: neither side pays for warming the cache.
    assert_eq!(table(), raw(), "{label}: both sides read the same rows");
    for round in 0..rounds {
        let ((tn, tr), (rn, rr)) = if round % 2 == 0 {
            let a = time(&mut table);
            (a, time(&mut raw))
        } else {
            let b = time(&mut raw);
            (time(&mut table), b)
        };
        assert_eq!(tr, rr, "{label}: both sides read the same rows");
        t.push(tn);
        r.push(rn);
        ratios.push(tn / rn);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (tm, rm, qm) = (median(&mut t), median(&mut r), median(&mut ratios));
    println!(
        "{label:<28} {:>7.1} {unit:<8} {:>7.1} {unit:<8} {qm:>6.2} ({:.2}..{:.2})",
        tm / per,
        rm / per,
        ratios[0],
        ratios[ratios.len() - 1]
    );
}
