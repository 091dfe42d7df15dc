//! What the benchmarks share: the README's `Event` key (borrowed) and reading criterion's
//! medians back for the ratio tables they print.

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

/// The median (ns per iteration) criterion recorded for `group/name` in this run.
pub fn median_ns(group: &str, name: &str) -> Option<f64> {
    let dir = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
    let path = format!("{dir}/criterion/{group}/{name}/new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["median"]["point_estimate"].as_f64()
}
