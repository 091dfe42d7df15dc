//! [`check_layout`]: a declared layout checked against a sample of a live table's keys.

use crate::check::LayoutCheck;
use crate::key::RowKey;
use crate::scan::KeyRange;
use crate::Decode;

use super::Store;

/// Pieces of the key space a sample is spread over (the declared layout's split points).
const PIECES: usize = 16;

/// Samples up to `sample` keys of the table in `store` and checks them against the layout of
/// `K` ([`LayoutCheck::add_typed`]: each key read as `K` and encoded back to its own bytes),
/// spread over the key space: as many keys from the start of each of 16 pieces (cut at `K`'s
/// split points, [`RowKey::split_points`]) as the sample allows, then from the start of the
/// table until the sample is full or the table read. Values are not read.
///
/// Works on any [`Store`]: a table Java code filled on HBase, one on Bigtable, an fjall
/// directory. It reads keys only ([`Store::scan_keys`]): on HBase and Bigtable every row,
/// whatever columns it holds, and no value crosses the network. A declaration that fits every
/// key of a large sample is the proof that it is the table's layout; one that does not shows
/// the first keys it does not read, explained.
pub fn check_layout<K, S>(store: &S, sample: usize) -> Result<LayoutCheck, S::Error>
where
    K: RowKey + for<'de> Decode<'de>,
    S: Store,
{
    let mut check = LayoutCheck::new(K::SCHEMA);
    let splits = K::split_points(PIECES);
    sample_keys(store, &splits, sample, |key| check.add_typed::<K>(key))?;
    Ok(check)
}

/// [`check_layout`] from a layout as data (`K::SCHEMA`, or one read from a layouts export, as
/// the `rowkey` program reads it): each key read as the schema describes it
/// ([`LayoutCheck::add`]; no round trip, which needs the key type).
pub fn check_schema<S: Store>(
    store: &S,
    schema: &'static crate::schema::Schema,
    sample: usize,
) -> Result<LayoutCheck, S::Error> {
    let mut check = LayoutCheck::new(schema);
    let splits = crate::split::split_points(schema, PIECES);
    sample_keys(store, &splits, sample, |key| check.add(key))?;
    Ok(check)
}

/// Up to `sample` distinct keys of `store`: as many from the start of each piece between
/// `splits` as the sample allows, then from the start of the table until it is full.
fn sample_keys<S: Store>(
    store: &S,
    splits: &[bytes::Bytes],
    sample: usize,
    mut each: impl FnMut(&[u8]),
) -> Result<(), S::Error> {
    if sample == 0 {
        return Ok(());
    }
    let per_piece = sample.div_ceil(splits.len() + 1);
    let mut seen = std::collections::BTreeSet::new();
    let mut starts: Vec<&[u8]> = vec![&[]];
    starts.extend(splits.iter().map(|s| &s[..]));
    for (i, start) in starts.iter().enumerate() {
        let end = splits.get(i).map(|e| &e[..]);
        for key in store.scan_keys(&KeyRange::new(start, end)).take(per_piece) {
            let key = key?;
            if seen.len() < sample && seen.insert(key.clone()) {
                each(&key);
            }
        }
    }
    // A table whose keys crowd a few pieces: fill the sample from the start.
    if seen.len() < sample {
        for key in store.scan_keys(&KeyRange::new(&[], None)) {
            let key = key?;
            if seen.len() >= sample {
                break;
            }
            if seen.insert(key.clone()) {
                each(&key);
            }
        }
    }
    Ok(())
}

/// [`check_layout`] over an [`AsyncStore`](super::AsyncStore), from a tokio task: the same
/// sample (keys only, spread over `K`'s split points) and the same report.
#[cfg(feature = "async")]
pub async fn check_layout_async<K, S>(store: &S, sample: usize) -> Result<LayoutCheck, S::Error>
where
    K: RowKey + for<'de> Decode<'de>,
    S: super::AsyncStore,
{
    let mut check = LayoutCheck::new(K::SCHEMA);
    let splits = K::split_points(PIECES);
    sample_keys_async(store, &splits, sample, |key| check.add_typed::<K>(key)).await?;
    Ok(check)
}

/// [`check_schema`] over an [`AsyncStore`](super::AsyncStore).
#[cfg(feature = "async")]
pub async fn check_schema_async<S: super::AsyncStore>(
    store: &S,
    schema: &'static crate::schema::Schema,
    sample: usize,
) -> Result<LayoutCheck, S::Error> {
    let mut check = LayoutCheck::new(schema);
    let splits = crate::split::split_points(schema, PIECES);
    sample_keys_async(store, &splits, sample, |key| check.add(key)).await?;
    Ok(check)
}

/// [`sample_keys`], awaited.
#[cfg(feature = "async")]
async fn sample_keys_async<S: super::AsyncStore>(
    store: &S,
    splits: &[bytes::Bytes],
    sample: usize,
    mut each: impl FnMut(&[u8]),
) -> Result<(), S::Error> {
    use futures_util::StreamExt;
    if sample == 0 {
        return Ok(());
    }
    let per_piece = sample.div_ceil(splits.len() + 1);
    let mut seen = std::collections::BTreeSet::new();
    let mut starts: Vec<&[u8]> = vec![&[]];
    starts.extend(splits.iter().map(|s| &s[..]));
    for (i, start) in starts.iter().enumerate() {
        let end = splits.get(i).map(|e| &e[..]);
        let mut keys = store.scan_keys(&KeyRange::new(start, end)).take(per_piece);
        while let Some(key) = keys.next().await {
            let key = key?;
            if seen.len() < sample && seen.insert(key.clone()) {
                each(&key);
            }
        }
    }
    if seen.len() < sample {
        let mut keys = store.scan_keys(&KeyRange::new(&[], None));
        while let Some(key) = keys.next().await {
            let key = key?;
            if seen.len() >= sample {
                break;
            }
            if seen.insert(key.clone()) {
                each(&key);
            }
        }
    }
    Ok(())
}
