//! A capacity plan: from what a table is expected to take (records a day, their size from the
//! size budget, how long they are kept, growth), its size, the number of regions that keeps
//! each within the HBase guide's 10-50 GB, and warnings where the guide's rules of thumb are
//! broken (more than about 100 regions for a table, too many per region server, cells over
//! 10 MB, more than three families).
//!
//! ```
//! use rowkey::capacity::{plan, Workload};
//!
//! // 50 million events a day of 180 bytes, kept 30 days, growing 50 % a year.
//! let p = plan(&Workload {
//!     records_per_day: 50_000_000,
//!     bytes_per_record: 180,
//!     retention_days: Some(30),
//!     growth_per_year: 0.5,
//!     ..Workload::default()
//! });
//! // A year from now: about 2.2 billion records alive, 398 GB, in 20 regions of 20 GB.
//! assert_eq!(p.regions, 20);
//! assert!(p.warnings.is_empty());
//! ```

use std::fmt::Write;

use crate::budget::human_bytes;

/// The guide's smallest region worth having, and the size a region is planned at.
pub const REGION_TARGET_BYTES: u64 = 20 * GB;
/// The guide's largest region: above it, splits and compactions get expensive.
pub const REGION_MAX_BYTES: u64 = 50 * GB;
/// The guide's "50-100 regions per table": above this, a table wants larger regions.
pub const REGIONS_PER_TABLE_MAX: usize = 100;
/// The guide's largest cell (HBase's default `hbase.client.keyvalue.maxsize` is 10 MB).
pub const CELL_MAX_BYTES: u64 = 10 * 1024 * 1024;
/// Regions a region server carries comfortably (the guide: "20-200").
pub const REGIONS_PER_SERVER_MAX: usize = 200;

const GB: u64 = 1_000_000_000;

/// What a table is expected to take.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// Records written a day, today.
    pub records_per_day: u64,
    /// Bytes one record stores (its cells' coordinates, from the size budget's
    /// `per_record`, plus the values), before compression.
    pub bytes_per_record: u64,
    /// How long a record is kept (the family's TTL); `None`: forever.
    pub retention_days: Option<u64>,
    /// Growth of the daily rate a year: 0.5 is +50 % a year.
    pub growth_per_year: f64,
    /// The day the plan is for, counted from now (365: the table in a year).
    pub horizon_days: u64,
    /// The largest cell a record writes, in bytes.
    pub largest_cell_bytes: u64,
    /// Column families the table has.
    pub families: usize,
    /// Region servers in the cluster.
    pub region_servers: usize,
}

impl Default for Workload {
    /// A year ahead, no growth, one family, one small cell, ten region servers.
    fn default() -> Self {
        Workload {
            records_per_day: 0,
            bytes_per_record: 0,
            retention_days: None,
            growth_per_year: 0.0,
            horizon_days: 365,
            largest_cell_bytes: 0,
            families: 1,
            region_servers: 10,
        }
    }
}

/// The plan for a [`Workload`].
#[derive(Clone, Debug, PartialEq)]
pub struct CapacityPlan {
    /// Records stored on the horizon day.
    pub records: u64,
    /// Bytes stored on the horizon day, before compression and replication.
    pub total_bytes: u64,
    /// Regions that keep each near [`REGION_TARGET_BYTES`] (at least one); pre-split the table
    /// into them with `split_points(K::SCHEMA, regions)`.
    pub regions: usize,
    /// Bytes per region.
    pub bytes_per_region: u64,
    /// The guide's rules of thumb this workload breaks, one sentence each.
    pub warnings: Vec<String>,
}

/// Plans a table for `w`: the records alive on the horizon day (the last `retention_days`
/// days of writes, each day's rate grown by `growth_per_year`), their size, and the regions.
pub fn plan(w: &Workload) -> CapacityPlan {
    let first = w
        .retention_days
        .map_or(0, |r| w.horizon_days.saturating_sub(r));
    let mut records = 0f64;
    for day in first..w.horizon_days.max(1) {
        records += w.records_per_day as f64 * (1.0 + w.growth_per_year).powf(day as f64 / 365.0);
    }
    let records = records.round() as u64;
    let total_bytes = records.saturating_mul(w.bytes_per_record);
    let regions = total_bytes.div_ceil(REGION_TARGET_BYTES).max(1);
    let regions = usize::try_from(regions).unwrap_or(usize::MAX);
    let bytes_per_region = total_bytes / regions as u64;
    let mut warnings = Vec::new();
    if regions > REGIONS_PER_TABLE_MAX {
        let at_max = total_bytes.div_ceil(REGION_MAX_BYTES);
        warnings.push(format!(
            "{regions} regions of {} is more than the guide's 50-100 per table: regions of up to {} (`hbase.hregion.max.filesize`) need {at_max}; past that, split the data over tables or shorten the retention",
            human_bytes(bytes_per_region),
            human_bytes(REGION_MAX_BYTES)
        ));
    }
    let per_server = regions.div_ceil(w.region_servers.max(1));
    if per_server > REGIONS_PER_SERVER_MAX {
        warnings.push(format!(
            "{per_server} regions per region server (of {}) is more than the 20-200 a server carries well: add servers or use larger regions",
            w.region_servers
        ));
    }
    if w.largest_cell_bytes > CELL_MAX_BYTES {
        warnings.push(format!(
            "a cell of {} is over the guide's 10 MB: store large values elsewhere (a blob store) and keep a reference in the cell",
            human_bytes(w.largest_cell_bytes)
        ));
    }
    if w.families > 3 {
        warnings.push(format!(
            "{} column families: HBase flushes and compacts a region's families together, and the guide advises no more than two or three",
            w.families
        ));
    }
    CapacityPlan {
        records,
        total_bytes,
        regions,
        bytes_per_region,
        warnings,
    }
}

impl CapacityPlan {
    /// The plan as Markdown: the figures, then each warning.
    pub fn to_markdown(&self, w: &Workload) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "| records a day | kept | growth a year | records stored | size | regions | per region |\n|---|---|---|---|---|---|---|"
        );
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} % | {} | {} | {} | {} |",
            w.records_per_day,
            w.retention_days
                .map_or("forever".to_string(), |d| format!("{d} days")),
            w.growth_per_year * 100.0,
            self.records,
            human_bytes(self.total_bytes),
            self.regions,
            human_bytes(self.bytes_per_region)
        );
        for warning in &self.warnings {
            let _ = writeln!(out, "\n> warning: {warning}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retention_bounds_the_size_and_regions_follow_the_guide() {
        let w = Workload {
            records_per_day: 1_000_000_000,
            bytes_per_record: 100,
            retention_days: Some(30),
            ..Workload::default()
        };
        let p = plan(&w);
        assert_eq!(p.records, 30_000_000_000);
        assert_eq!(p.total_bytes, 3_000_000_000_000);
        assert_eq!(p.regions, 150, "3 TB in regions of 20 GB");
        assert_eq!(p.warnings.len(), 1, "{:?}", p.warnings);
        assert!(p.warnings[0].contains("need 60"), "{}", p.warnings[0]);

        let forever = plan(&Workload {
            retention_days: None,
            ..w.clone()
        });
        assert_eq!(forever.records, 365_000_000_000);

        // Growth: the last 30 days of the year are written at about 1.5x the rate.
        let grown = plan(&Workload {
            growth_per_year: 0.5,
            ..w.clone()
        });
        let ratio = grown.records as f64 / p.records as f64;
        assert!((1.45..1.5).contains(&ratio), "{ratio}");
    }

    #[test]
    fn the_rules_of_thumb_warn() {
        let p = plan(&Workload {
            records_per_day: 10,
            bytes_per_record: 100,
            largest_cell_bytes: 20 << 20,
            families: 4,
            ..Workload::default()
        });
        assert_eq!(p.regions, 1);
        assert_eq!(p.warnings.len(), 2, "{:?}", p.warnings);
        let crowded = plan(&Workload {
            records_per_day: 1_000_000_000,
            bytes_per_record: 1000,
            region_servers: 1,
            ..Workload::default()
        });
        assert!(crowded
            .warnings
            .iter()
            .any(|w| w.contains("per region server")));
        assert!(crowded
            .to_markdown(&Workload::default())
            .contains("> warning:"));
    }
}
