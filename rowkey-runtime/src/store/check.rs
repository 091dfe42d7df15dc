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

/// [`check_schema`], telling `progress` the keys read so far after every 1,000 and at the end
/// (a command line's progress bar: a sample of millions of keys takes minutes on a network
/// store).
pub fn check_schema_with_progress<S: Store>(
    store: &S,
    schema: &'static crate::schema::Schema,
    sample: usize,
    mut progress: impl FnMut(usize),
) -> Result<LayoutCheck, S::Error> {
    let mut check = LayoutCheck::new(schema);
    let splits = crate::split::split_points(schema, PIECES);
    let mut read = 0usize;
    sample_keys(store, &splits, sample, |key| {
        check.add(key);
        read += 1;
        if read.is_multiple_of(1_000) {
            progress(read);
        }
    })?;
    progress(read);
    Ok(check)
}

/// Up to `sample` distinct keys of `store`: as many from the start of each piece between
/// `splits` as the sample allows, then from the start of the table until it is full.
fn sample_keys<S: Store>(
    store: &S,
    splits: &[bytes::Bytes],
    sample: usize,
    each: impl FnMut(&[u8]),
) -> Result<(), S::Error> {
    let mut sampler = Sampler::new(splits, sample, each);
    for (range, take) in sampler.pieces() {
        for key in store.scan_keys(&range).take(take) {
            sampler.offer(key?);
        }
    }
    // A table whose keys crowd a few pieces: fill the sample from the start.
    if !sampler.full() {
        for key in store.scan_keys(&KeyRange::new(&[], None)) {
            if !sampler.offer(key?) {
                break;
            }
        }
    }
    Ok(())
}

/// What the blocking and the async sample share: the pieces read, and the keys seen.
struct Sampler<'s, F> {
    splits: &'s [bytes::Bytes],
    sample: usize,
    seen: std::collections::BTreeSet<bytes::Bytes>,
    each: F,
}

impl<'s, F: FnMut(&[u8])> Sampler<'s, F> {
    fn new(splits: &'s [bytes::Bytes], sample: usize, each: F) -> Self {
        Sampler {
            splits,
            sample,
            seen: std::collections::BTreeSet::new(),
            each,
        }
    }

    /// Each piece's range and how many keys to take from its start (none when the sample is 0).
    fn pieces(&self) -> Vec<(KeyRange, usize)> {
        if self.sample == 0 {
            return Vec::new();
        }
        let per_piece = self.sample.div_ceil(self.splits.len() + 1);
        let mut starts: Vec<&[u8]> = vec![&[]];
        starts.extend(self.splits.iter().map(|s| &s[..]));
        starts
            .iter()
            .enumerate()
            .map(|(i, start)| {
                let end = self.splits.get(i).map(|e| &e[..]);
                (KeyRange::new(start, end), per_piece)
            })
            .collect()
    }

    /// Whether the sample holds `sample` keys.
    fn full(&self) -> bool {
        self.seen.len() >= self.sample
    }

    /// Takes `key` into the sample unless it is full or has it; `false` once it is full.
    fn offer(&mut self, key: bytes::Bytes) -> bool {
        if self.full() {
            return false;
        }
        if !self.seen.contains(&key) {
            (self.each)(&key);
            self.seen.insert(key);
        }
        true
    }
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
    each: impl FnMut(&[u8]),
) -> Result<(), S::Error> {
    use futures_util::StreamExt;
    let mut sampler = Sampler::new(splits, sample, each);
    for (range, take) in sampler.pieces() {
        let mut keys = store.scan_keys(&range).take(take);
        while let Some(key) = keys.next().await {
            sampler.offer(key?);
        }
    }
    if !sampler.full() {
        let mut keys = store.scan_keys(&KeyRange::new(&[], None));
        while let Some(key) = keys.next().await {
            if !sampler.offer(key?) {
                break;
            }
        }
    }
    Ok(())
}
