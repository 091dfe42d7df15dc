//! What the benchmarks share: reading criterion's medians back for the ratio tables they print.

/// The median (ns per iteration) criterion recorded for `group/name` in this run.
pub fn median_ns(group: &str, name: &str) -> Option<f64> {
    let dir = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
    let path = format!("{dir}/criterion/{group}/{name}/new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["median"]["point_estimate"].as_f64()
}
