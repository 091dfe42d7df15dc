//! Hotspots read through a key's layout: two samples of a live table's per-region request
//! counters ([`RegionLoad`], from the store: HBase's region servers count each region's reads
//! and writes) become each region's share of the interval's load, its skew, the salt bucket and
//! leading values its start key decodes to, and the share the layout predicts for it
//! ([`HotspotReport`]). Store-independent: the native HBase store supplies the samples
//! (`HbaseRpcStore::region_loads`).

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::time::Duration;

use crate::dynamic::{decode_schema_trusted, flat_fields, DynField, FieldVisitor};
use crate::schema::Schema;

/// One region's request counters at one moment, as its region server reports them: counts
/// since the region opened on that server (a region that split, merged or moved starts again,
/// under a new id or server).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionLoad {
    /// The region's first key (empty: the start of the table).
    pub start: Vec<u8>,
    /// The key the region stops before (empty: the end of the table).
    pub end: Vec<u8>,
    /// The region server holding it, `host:port`.
    pub server: String,
    /// The region's id (its creation time).
    pub id: i64,
    /// Read requests served (gets, and each row a scan returned), since the region opened.
    pub read_requests: u64,
    /// Write requests served (each mutated row), since the region opened.
    pub write_requests: u64,
}

/// One region's part of the load over a [`HotspotReport`]'s interval.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionHeat {
    /// The region's first key (empty: the start of the table).
    pub start: Vec<u8>,
    /// The key the region stops before (empty: the end of the table).
    pub end: Vec<u8>,
    /// Its region server.
    pub server: String,
    /// Read requests during the interval.
    pub reads: u64,
    /// Write requests during the interval.
    pub writes: u64,
    /// Its share of the table's reads during the interval (0 to 1; 0 when there were none).
    pub read_share: f64,
    /// Its share of the table's writes.
    pub write_share: f64,
    /// The share of writes the layout predicts for it (`None`: the layout predicts nothing per
    /// region, such as for an unsalted key led by a user id): for a salted key, the salt
    /// buckets the region spans over all of them (the hash spreads keys evenly over buckets).
    /// A key led by a monotonically increasing field predicts one region for every write, but
    /// not which one ([`HotspotReport::monotonic_lead`]).
    pub predicted_share: Option<f64>,
    /// The salt bucket the region starts in (a salted key).
    pub bucket: Option<u8>,
    /// The key fields the start key decodes to, `(name, value)` in key order, as far as it
    /// holds whole fields.
    pub lead: Vec<(String, String)>,
    /// With a sample ([`HotspotReport::sample`]): the most frequent values of the first key
    /// field after the salt in the sampled rows, with their counts, most frequent first.
    pub top: Vec<(String, u64)>,
    /// With a sample: the first and last sampled rows' values of that field.
    pub sampled_range: Option<(String, String)>,
    /// With a sample: the rows read.
    pub sampled: u64,
}

/// A table's load over an interval, region by region, read through its key layout: see the
/// module's documentation.
#[derive(Clone, Debug, PartialEq)]
pub struct HotspotReport {
    /// The key layout's type name.
    pub key: &'static str,
    /// The time between the two samples.
    pub interval: Duration,
    /// The regions present in both samples under the same id and server, in key order.
    pub regions: Vec<RegionHeat>,
    /// Regions left out: present in one sample only, or reopened between them (split, merged,
    /// moved), whose counters restarted.
    pub changed: usize,
    /// Read requests over the interval, all regions.
    pub reads: u64,
    /// Write requests over the interval, all regions.
    pub writes: u64,
    /// The leading field, when the layout accepts a monotonically increasing lead
    /// (`#[rowkey(allow_hotspot)]`: a timestamp): every new key sorts after the last, so the
    /// layout predicts that one region (the one holding the newest keys) takes every write.
    pub monotonic_lead: Option<&'static str>,
}

impl HotspotReport {
    /// The report between two samples of the same table taken `interval` apart.
    pub fn between(
        schema: &'static Schema,
        before: &[RegionLoad],
        after: &[RegionLoad],
        interval: Duration,
    ) -> Self {
        let earlier: HashMap<(&[u8], i64, &str), &RegionLoad> = before
            .iter()
            .map(|r| ((&r.start[..], r.id, r.server.as_str()), r))
            .collect();
        let mut regions = Vec::with_capacity(after.len());
        let mut changed = before.len().saturating_sub(after.len());
        for r in after {
            let Some(b) = earlier.get(&(&r.start[..], r.id, r.server.as_str())) else {
                changed += 1;
                continue;
            };
            // A counter that went down belongs to a region reopened under the same id.
            let (Some(reads), Some(writes)) = (
                r.read_requests.checked_sub(b.read_requests),
                r.write_requests.checked_sub(b.write_requests),
            ) else {
                changed += 1;
                continue;
            };
            let (bucket, lead) = lead_of(schema, &r.start);
            regions.push(RegionHeat {
                start: r.start.clone(),
                end: r.end.clone(),
                server: r.server.clone(),
                reads,
                writes,
                read_share: 0.0,
                write_share: 0.0,
                predicted_share: predicted(schema, &r.start, &r.end),
                bucket,
                lead,
                top: Vec::new(),
                sampled_range: None,
                sampled: 0,
            });
        }
        regions.sort_by(|a, b| a.start.cmp(&b.start));
        let reads: u64 = regions.iter().map(|r| r.reads).sum();
        let writes: u64 = regions.iter().map(|r| r.writes).sum();
        for r in &mut regions {
            r.read_share = share(r.reads, reads);
            r.write_share = share(r.writes, writes);
        }
        HotspotReport {
            key: schema.name,
            interval,
            regions,
            changed,
            reads,
            writes,
            monotonic_lead: schema
                .allow_hotspot
                .then(|| schema.fields.first().map(|f| f.name))
                .flatten(),
        }
    }

    /// Read requests a second over the interval.
    pub fn reads_per_sec(&self) -> f64 {
        per_sec(self.reads, self.interval)
    }

    /// Write requests a second over the interval.
    pub fn writes_per_sec(&self) -> f64 {
        per_sec(self.writes, self.interval)
    }

    /// The reads' skew: the busiest region's reads over the mean region's (1: even; the
    /// region count: all on one region; 0 without reads).
    pub fn read_skew(&self) -> f64 {
        skew(self.regions.iter().map(|r| r.reads))
    }

    /// The writes' skew, as [`read_skew`](Self::read_skew).
    pub fn write_skew(&self) -> f64 {
        skew(self.regions.iter().map(|r| r.writes))
    }

    /// The index of the busiest region: by writes when there were any, else by reads.
    pub fn hottest(&self) -> Option<usize> {
        let by = |r: &RegionHeat| if self.writes > 0 { r.writes } else { r.reads };
        (0..self.regions.len()).max_by_key(|&i| by(&self.regions[i]))
    }

    /// Counts the sampled rows of region `region` (their keys, in key order, as the store
    /// returns them from the region's range): the most frequent values of the first key field
    /// after the salt, the first and last. Keys that do not decode as the layout's are skipped.
    pub fn sample<'k>(
        &mut self,
        schema: &'static Schema,
        region: usize,
        keys: impl IntoIterator<Item = &'k [u8]>,
    ) {
        let Some(r) = self.regions.get_mut(region) else {
            return;
        };
        let mut counts: HashMap<String, u64> = HashMap::new();
        let (mut first, mut last) = (None, None);
        for key in keys {
            r.sampled += 1;
            let mut lead = FirstField(None);
            if decode_schema_trusted(schema, key, &mut lead).is_err() {
                continue;
            }
            let Some(value) = lead.0 else { continue };
            if first.is_none() {
                first = Some(value.clone());
            }
            last = Some(value.clone());
            *counts.entry(value).or_default() += 1;
        }
        let mut top: Vec<(String, u64)> = counts.into_iter().collect();
        top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        top.truncate(5);
        r.top = top;
        r.sampled_range = first.zip(last);
    }
}

/// The first decoded field's value, shown.
struct FirstField(Option<String>);

impl<'de> FieldVisitor<'de> for FirstField {
    fn field(&mut self, _index: usize, value: DynField<'de>) {
        if self.0.is_none() {
            self.0 = Some(value.to_string());
        }
    }
}

/// The salt bucket a key starts in and the whole fields it holds.
fn lead_of(schema: &'static Schema, start: &[u8]) -> (Option<u8>, Vec<(String, String)>) {
    // The first region of a salted table starts at the empty key: bucket 0.
    let bucket = schema.salt.map(|_| start.first().copied().unwrap_or(0));
    struct Lead(Vec<(usize, String)>);
    impl<'de> FieldVisitor<'de> for Lead {
        fn field(&mut self, index: usize, value: DynField<'de>) {
            self.0.push((index, value.to_string()));
        }
    }
    let mut lead = Lead(Vec::new());
    // A start key is a prefix: the decoder stops at the first field it cuts, and what it read
    // before stands.
    let _ = decode_schema_trusted(schema, start, &mut lead);
    let names = flat_fields(schema);
    let lead = lead
        .0
        .into_iter()
        .map(|(i, v)| (names.get(i).map_or_else(String::new, |f| f.path.clone()), v))
        .collect();
    (bucket, lead)
}

/// The layout's predicted share of writes for the region `[start, end)`.
fn predicted(schema: &Schema, start: &[u8], end: &[u8]) -> Option<f64> {
    if let Some(salt) = schema.salt {
        let n = f64::from(salt.buckets);
        let at = |k: &[u8], empty: f64| {
            if k.is_empty() {
                return empty;
            }
            // The bucket, and how far into it the region boundary lies (the bytes after the
            // salt read as a fraction): the hash spreads keys evenly over buckets only.
            k.iter()
                .take(4)
                .enumerate()
                .map(|(i, &b)| f64::from(b) / 256f64.powi(i32::try_from(i).unwrap_or(0)))
                .sum::<f64>()
                .min(n)
        };
        return Some(((at(end, n) - at(start, 0.0)) / n).clamp(0.0, 1.0));
    }
    None
}

fn share(part: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        part as f64 / total as f64
    }
}

fn per_sec(n: u64, interval: Duration) -> f64 {
    let secs = interval.as_secs_f64();
    if secs > 0.0 {
        n as f64 / secs
    } else {
        0.0
    }
}

fn skew(values: impl Iterator<Item = u64>) -> f64 {
    let (mut n, mut sum, mut max) = (0u64, 0u64, 0u64);
    for v in values {
        n += 1;
        sum += v;
        max = max.max(v);
    }
    if sum == 0 {
        0.0
    } else {
        max as f64 * n as f64 / sum as f64
    }
}

/// A key shown for a person: printable ASCII as it is, other bytes as `\xNN` (HBase's
/// `Bytes.toStringBinary`).
fn shown_key(k: &[u8], empty: &str) -> String {
    if k.is_empty() {
        return empty.into();
    }
    let mut out = String::with_capacity(k.len());
    for &b in k {
        if (0x20..0x7f).contains(&b) && b != b'\\' {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// The report as a table for a person: one line per region, busiest marked, then its
/// decoded start and sample.
impl fmt::Display for HotspotReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} over {:.1} s: {:.0} reads/s, {:.0} writes/s; skew (max over mean) reads {:.2}, writes {:.2}; {} region(s){}",
            self.key,
            self.interval.as_secs_f64(),
            self.reads_per_sec(),
            self.writes_per_sec(),
            self.read_skew(),
            self.write_skew(),
            self.regions.len(),
            if self.changed > 0 {
                format!(" ({} left out: split, merged or moved between samples)", self.changed)
            } else {
                String::new()
            }
        )?;
        if let Some(lead) = self.monotonic_lead {
            writeln!(
                f,
                "  the layout predicts one region for every write: `{lead}` leads and only grows"
            )?;
        }
        writeln!(
            f,
            "  #  reads %  writes %  predicted  bucket  start .. end  (server)"
        )?;
        let hottest = self.hottest();
        for (i, r) in self.regions.iter().enumerate() {
            let mark = if Some(i) == hottest { '*' } else { ' ' };
            let predicted = r
                .predicted_share
                .map_or_else(|| "-".to_string(), |p| format!("{:.1} %", p * 100.0));
            let bucket = r.bucket.map_or_else(|| "-".to_string(), |b| b.to_string());
            writeln!(
                f,
                "{mark}{i:>3} {:>7.1} {:>9.1} {predicted:>10} {bucket:>7}  {} .. {}  ({})",
                r.read_share * 100.0,
                r.write_share * 100.0,
                shown_key(&r.start, "(start)"),
                shown_key(&r.end, "(end)"),
                r.server
            )?;
            if !r.lead.is_empty() {
                let lead: Vec<String> = r.lead.iter().map(|(n, v)| format!("{n} = {v}")).collect();
                writeln!(f, "       starts at {}", lead.join(", "))?;
            }
            if r.sampled > 0 {
                let top: Vec<String> = r.top.iter().map(|(v, n)| format!("{v} ({n})")).collect();
                writeln!(
                    f,
                    "       sampled {} row(s): most frequent {}{}",
                    r.sampled,
                    if top.is_empty() {
                        "-".into()
                    } else {
                        top.join(", ")
                    },
                    r.sampled_range
                        .as_ref()
                        .map_or_else(String::new, |(a, b)| format!("; from {a} to {b}"))
                )?;
            }
        }
        Ok(())
    }
}
