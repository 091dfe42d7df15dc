//! Pre-split points: `n - 1` keys that divide a key space into `n` regions holding equal shares
//! of it, every region reachable (the HBase guide's hex-split lesson).
//!
//! Each field type knows its [`Domain`]: the leading bytes of its encoding and the interval they
//! actually range over. A `u64` spans all 8 bytes; a `reverse_ts` only `[0, 2^63)` (timestamps
//! are never negative, so the upper half of the byte space is never used); text is assumed to
//! start with printable ASCII. Splits are spaced evenly over that interval, never over byte
//! values the field cannot produce.

use bytes::Bytes;

mod region_splitter;
pub use region_splitter::{
    decimal_string_split, decimal_string_split_between, hex_string_split, hex_string_split_between,
    uniform_split, uniform_split_between, SplitError,
};

pub use crate::schema::Domain;
use crate::schema::Schema;

/// The most regions [`split_points`] divides a table into; a larger request is clamped to it
/// (HBase and Bigtable tables run to thousands of regions, not millions).
pub const MAX_REGIONS: usize = 1 << 16;

/// `regions - 1` ascending split keys for a table of `schema` keys (fewer when the leading
/// field has fewer distinct prefixes than regions, e.g. a `bool`; `regions` is clamped to
/// [`MAX_REGIONS`]). A salted key is split at bucket boundaries, buckets subdivided over the
/// next field's domain when there are more regions than buckets; an unsalted key over its
/// leading field's domain; a record-type enum whose tag leads, over the tags that exist.
pub fn split_points(schema: &Schema, regions: usize) -> Vec<Bytes> {
    let regions = regions.clamp(1, MAX_REGIONS);
    let n = regions as u128;
    let tags = leading_tags(schema);
    if let (None, Some(tags)) = (schema.salt, &tags) {
        return tag_splits(tags, regions);
    }
    let lead = match &tags {
        Some(tags) => Domain::interval(1, u64::from(tags[0]), u128::from(tags[tags.len() - 1]) + 1),
        None => leading_domain(schema),
    };
    let mut out: Vec<Vec<u8>> = Vec::with_capacity(regions - 1);
    for i in 1..n {
        let key = match schema.salt {
            Some(salt) => {
                // Position i/n through the key space in bucket units: bucket, then the
                // remaining fraction of that bucket.
                let b = u128::from(salt.buckets);
                let bucket = (i * b / n) as u8;
                let rem = (i * b) % n;
                let mut k = vec![bucket];
                if rem != 0 {
                    k.extend(lead.point(rem, n));
                }
                k
            }
            None => lead.point(i, n),
        };
        if out.last().is_none_or(|last| *last < key)
            && !key.is_empty()
            && key.iter().any(|&x| x != 0)
        {
            out.push(key);
        }
    }
    out.into_iter().map(Bytes::from).collect()
}

/// The tags of a record-type enum with no entity prefix (its tag byte leads), ascending.
fn leading_tags(schema: &Schema) -> Option<Vec<u8>> {
    if !schema.fields.is_empty() || schema.variants.is_empty() {
        return None;
    }
    let mut tags: Vec<u8> = schema.variants.iter().map(|v| v.tag).collect();
    tags.sort_unstable();
    tags.dedup();
    Some(tags)
}

/// Splits at the tags themselves, as evenly as the record types allow: every region starts at
/// a tag that exists, so every region can hold keys.
fn tag_splits(tags: &[u8], regions: usize) -> Vec<Bytes> {
    let mut out: Vec<Bytes> = Vec::new();
    for i in 1..regions.min(tags.len()) {
        let tag = tags[i * tags.len() / regions.min(tags.len())];
        if tag != tags[0] && out.last().is_none_or(|last| last[0] < tag) {
            out.push(Bytes::copy_from_slice(&[tag]));
        }
    }
    out
}

/// `regions - 1` split keys at the quantiles of a sample of real keys: for leading fields whose
/// distribution only the data knows (host names, user names), the HBase practice of pre-splitting
/// from a sample. Duplicates collapse, so a sample with few distinct keys gives fewer splits.
pub fn from_sample(sample: &mut [Vec<u8>], regions: usize) -> Vec<Bytes> {
    sample.sort_unstable();
    let n = sample.len();
    let mut out: Vec<Bytes> = Vec::new();
    if n == 0 {
        return out;
    }
    for i in 1..regions.max(1) {
        let key = &sample[(i * n / regions).min(n - 1)];
        if out.last().is_none_or(|last| last.as_ref() < key.as_slice()) {
            out.push(Bytes::copy_from_slice(key));
        }
    }
    out
}

/// The domain of the first field, looking through nested keys.
fn leading_domain(schema: &Schema) -> Domain {
    match schema.fields.first() {
        Some(f) => f.domain,
        None => Domain::full(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverted_domain_mirrors_the_interval() {
        let d = Domain::interval(1, 0x20, 0x7F).inverted();
        assert_eq!((d.lo, d.hi), (0x81, 0xE0));
    }

    #[test]
    fn sample_splits_are_quantiles() {
        let mut sample: Vec<Vec<u8>> = (0..100u8).rev().map(|i| vec![i]).collect();
        let splits = from_sample(&mut sample, 4);
        assert_eq!(splits, [vec![25u8], vec![50], vec![75]]);
        let mut few = vec![vec![1u8]; 10];
        assert_eq!(from_sample(&mut few, 4), [vec![1u8]]);
        assert!(from_sample(&mut [], 4).is_empty());
    }

    #[test]
    fn points_are_spaced_evenly() {
        let d = Domain::full(2);
        assert_eq!(d.point(1, 4), [0x40, 0x00]);
        assert_eq!(d.point(3, 4), [0xC0, 0x00]);
        let ts = Domain::interval(8, 0, 1 << 63);
        assert_eq!(ts.point(1, 2), [0x40, 0, 0, 0, 0, 0, 0, 0]);
    }
}
