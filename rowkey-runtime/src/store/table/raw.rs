//! [`Table`]: typed keys over a [`Store`], and [`Merged`], the scan that merges a salted key's
//! per-bucket ranges back into logical key order as it streams.

use std::marker::PhantomData;

use super::merge::MergeIter;
use super::{decode_checked, decode_row, encode_batch, single, Check, TableError};
use crate::field::Decode;
use crate::key::RowKey;
use crate::scan::KeyRanges;
use crate::store::{LentRow, Row, Store};
use bytes::Bytes;

/// Rows keyed by `K` in a store `S`; values are raw bytes (serialize them as you like).
pub struct Table<S, K> {
    store: S,
    _key: PhantomData<fn() -> K>,
}

impl<S: Store, K: RowKey> Table<S, K> {
    /// A table of `K` keys over `store`.
    pub fn new(store: S) -> Self {
        Table {
            store,
            _key: PhantomData,
        }
    }

    /// The underlying store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// Writes one row.
    pub fn put(&self, key: &K, value: &[u8]) -> Result<(), TableError<S::Error>> {
        let k = key.to_bytes().map_err(single)?;
        self.store.put(&k, value).map_err(TableError::Store)
    }

    /// Reads one row.
    pub fn get(&self, key: &K) -> Result<Option<Bytes>, TableError<S::Error>> {
        let k = key.to_bytes().map_err(single)?;
        self.store.get(&k).map_err(TableError::Store)
    }

    /// Deletes one row.
    pub fn delete(&self, key: &K) -> Result<(), TableError<S::Error>> {
        let k = key.to_bytes().map_err(single)?;
        self.store.delete(&k).map_err(TableError::Store)
    }

    /// Writes many rows. Every key is encoded first: a key that cannot be encoded fails the
    /// batch before anything is written. A store failure reports the keys not written.
    pub fn put_batch<'r, V: AsRef<[u8]> + 'r>(
        &self,
        rows: impl IntoIterator<Item = (&'r K, V)>,
    ) -> Result<(), TableError<S::Error>>
    where
        K: 'r,
    {
        let encoded = encode_batch(rows)?;
        self.store.write_batch(&encoded).map_err(TableError::Batch)
    }

    /// The rows of `ranges` (from `K::scan()`), decoded, in `K`'s logical order: a salted key's
    /// per-bucket ranges are read together and merged on the unsalted key bytes, lazily, one
    /// row per range in memory at a time.
    ///
    /// **What a scan checks.** Every row is decoded with every check of [`RowKey::decode`]
    /// (canonical fields, the salt byte below the bucket count, no trailing bytes) except one:
    /// the salt byte is not re-hashed from the salted fields, since each row comes from the
    /// bucket range its salt byte names. A row written with a wrong salt byte by another writer
    /// decodes to the fields it holds; [`Table::scan_verified`] reports it instead. (HBase's
    /// own clients and Phoenix do not re-hash on read either; the hash is most of a decode.)
    pub fn scan(&self, ranges: &KeyRanges) -> Merged<'_, S, K>
    where
        K: for<'de> Decode<'de>,
    {
        self.merged(ranges, Check::Trusted)
    }

    /// [`Table::scan`] with the salt byte of every row re-hashed and checked: a row stored
    /// under the wrong bucket is a [`TableError::Decode`] (`WrongSalt`), not a value. For
    /// tables that other writers fill, and for audits; it costs one MD5 per row.
    pub fn scan_verified(&self, ranges: &KeyRanges) -> Merged<'_, S, K>
    where
        K: for<'de> Decode<'de>,
    {
        self.merged(ranges, Check::Verified)
    }

    fn merged(&self, ranges: &KeyRanges, check: Check) -> Merged<'_, S, K>
    where
        K: for<'de> Decode<'de>,
    {
        if let Some(one) = self.single(ranges, false, check) {
            return one;
        }
        Merged::new(
            ranges.iter().map(|r| self.store.scan(r)).collect(),
            false,
            check,
        )
    }

    /// One range (a prefix that decides the salt bucket, an unsalted key) needs no merge: its
    /// rows are decoded as the store lends them ([`Store::lend_next`]). `None` for several
    /// ranges, or a reverse scan the store does not have.
    fn single(&self, ranges: &KeyRanges, reverse: bool, check: Check) -> Option<Merged<'_, S, K>>
    where
        K: for<'de> Decode<'de>,
    {
        let mut all = ranges.iter();
        let (Some(only), None) = (all.next(), all.next()) else {
            return None;
        };
        let rows = if reverse {
            self.store.scan_rev(only)?
        } else {
            self.store.scan(only)
        };
        Some(Merged {
            rows: Rows::One(Some(rows)),
            check,
            _key: PhantomData,
        })
    }

    /// The rows of `ranges` in reverse logical order (newest first for a timestamp-led key,
    /// the guide's "latest N" read), merged across salt buckets like [`Table::scan`], with the
    /// same checks. `None` when the store has no reverse scans.
    pub fn scan_rev(&self, ranges: &KeyRanges) -> Option<Merged<'_, S, K>>
    where
        K: for<'de> Decode<'de>,
    {
        if let Some(one) = self.single(ranges, true, Check::Trusted) {
            return Some(one);
        }
        let scans = ranges
            .iter()
            .map(|r| self.store.scan_rev(r))
            .collect::<Option<Vec<_>>>()?;
        Some(Merged::new(scans, true, Check::Trusted))
    }

    /// The stored rows of `ranges`, merged into `K`'s logical order like [`Table::scan`], not
    /// decoded: each key and value as the store hands it out ([`Row`]; its own buffer where it
    /// can share one), and a borrowed key type decodes from it without allocating. For the
    /// hottest scans, where an owned `String` field's allocation per row matters:
    ///
    /// ```
    /// # use rowkey::store::{MemStore, Table};
    /// # use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Event {
    ///     #[salt(buckets = 4)]
    ///     user: u64,
    ///     #[fixed(8)]
    ///     kind: String,
    /// }
    /// /// `Event`'s layout with the text borrowed (the same attributes, the same bytes).
    /// #[derive(RowKey)]
    /// struct EventRef<'a> {
    ///     #[salt(buckets = 4)]
    ///     user: u64,
    ///     #[fixed(8)]
    ///     kind: &'a str,
    /// }
    ///
    /// let table = Table::<_, Event>::new(MemStore::new());
    /// table.put(&Event { user: 7, kind: "click".into() }, b"v").unwrap();
    /// for row in table.scan_raw(&Event::scan().user(7).ranges()) {
    ///     let (key, value) = row.unwrap();
    ///     let event = EventRef::decode_trusted(&key).unwrap(); // borrows from `key`
    ///     assert_eq!((event.user, event.kind, &value[..]), (7, "click", &b"v"[..]));
    /// }
    /// ```
    ///
    /// Decode with the checks you need (`decode_trusted` skips only the salt's re-hash, as
    /// [`Table::scan`] does; `decode` re-hashes it). The borrowed type must have `K`'s layout:
    /// the same fields, attributes and salt.
    pub fn scan_raw(
        &self,
        ranges: &KeyRanges,
    ) -> impl Iterator<Item = Result<Row, TableError<S::Error>>> + '_ {
        let scans = ranges.iter().map(|r| self.store.scan(r)).collect();
        MergeIter::new(scans, usize::from(K::SCHEMA.salt.is_some()), false)
            .map(|row| row.map_err(TableError::Store))
    }

    /// The rows of `ranges` range after range, without merging: for a salted key, bucket
    /// order rather than key order, but each range streams on its own (the cheaper choice when
    /// order does not matter). The same checks as [`Table::scan`].
    pub fn scan_unordered(
        &self,
        ranges: &KeyRanges,
    ) -> impl Iterator<Item = Result<(K, Bytes), TableError<S::Error>>> + '_
    where
        K: for<'de> Decode<'de>,
    {
        let scans: Vec<S::Scan<'_>> = ranges.iter().map(|r| self.store.scan(r)).collect();
        scans
            .into_iter()
            .flatten()
            .map(|row| decode_row::<K, S::Error>(row.map_err(TableError::Store)?, Check::Trusted))
    }
}

impl<S: Store, K: RowKey> Table<S, K> {
    /// Loads rows the fastest way the store has ([`Store::load`]: on fjall, its ingestion
    /// path, [`FjallStore::bulk_load`]; elsewhere a batch write): the first load of a table,
    /// or a migration. Every key is encoded before anything is written, as in
    /// [`Table::put_batch`].
    ///
    #[cfg_attr(
        feature = "fjall",
        doc = "[`FjallStore::bulk_load`]: crate::store::FjallStore::bulk_load"
    )]
    #[cfg_attr(
        not(feature = "fjall"),
        doc = "[`FjallStore::bulk_load`]: https://docs.rs/rowkey/latest/rowkey/store/struct.FjallStore.html#method.bulk_load"
    )]
    pub fn bulk_load<'r, V: AsRef<[u8]> + 'r>(
        &self,
        rows: impl IntoIterator<Item = (&'r K, V)>,
    ) -> Result<(), TableError<S::Error>>
    where
        K: 'r,
    {
        let encoded = encode_batch(rows)?;
        self.store.load(encoded).map_err(TableError::Batch)
    }
}

/// The merged, decoded rows of a scan; see [`Table::scan`] and [`Table::scan_rev`].
pub struct Merged<'a, S: Store + 'a, K> {
    check: Check,
    rows: Rows<'a, S>,
    _key: PhantomData<fn() -> K>,
}

/// A scan's rows: one range decoded as the store lends them, or several merged.
enum Rows<'a, S: Store + 'a> {
    /// `None` once the store failed: the error ends the range.
    One(Option<S::Scan<'a>>),
    Many(MergeIter<S::Scan<'a>, Row>),
}

/// A row decoded from a lent key.
type Decoded<K, E> = Result<(K, Bytes), TableError<E>>;

impl<'a, S: Store + 'a, K: RowKey + for<'de> Decode<'de>> Merged<'a, S, K> {
    /// This scan as one that lends each row's value instead of handing out a `Bytes` of its
    /// own: see [`LentRows`].
    pub fn lending(self) -> LentRows<'a, S, K> {
        LentRows {
            merged: self,
            held: None,
            failed: false,
        }
    }

    fn new(scans: Vec<S::Scan<'a>>, reverse: bool, check: Check) -> Self {
        Merged {
            check,
            rows: Rows::Many(MergeIter::new(
                scans,
                usize::from(K::SCHEMA.salt.is_some()),
                reverse,
            )),
            _key: PhantomData,
        }
    }
}

impl<'a, S: Store + 'a, K: RowKey + for<'de> Decode<'de>> Iterator for Merged<'a, S, K> {
    type Item = Result<(K, Bytes), TableError<S::Error>>;

    // The single range's path is small and inlined into the caller's loop; the merge is not.
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.rows {
            // A store error ends the range, as it does in the merge.
            Rows::One(slot) => {
                let check = self.check;
                Some(match S::lend_next(slot.as_mut()?)? {
                    Ok(LentRow::Lent(key, value)) => {
                        decode_checked(key, check).map(|k| (k, Bytes::copy_from_slice(value)))
                    }
                    Ok(LentRow::Owned((key, value))) => {
                        decode_checked(&key, check).map(|k| (k, value))
                    }
                    Err(e) => {
                        *slot = None;
                        Err(TableError::Store(e))
                    }
                })
            }
            Rows::Many(_) => self.next_merged(),
        }
    }
}

impl<'a, S: Store + 'a, K: RowKey + for<'de> Decode<'de>> Merged<'a, S, K> {
    /// The next row of several ranges merged.
    #[inline(never)]
    fn next_merged(&mut self) -> Option<Decoded<K, S::Error>> {
        let Rows::Many(rows) = &mut self.rows else {
            return None;
        };
        match rows.next()? {
            Ok(row) => Some(decode_row(row, self.check)),
            Err(e) => Some(Err(TableError::Store(e))),
        }
    }
}

/// A scan that lends its rows, from [`Merged::lending`]: each row's key decoded (with the
/// checks of the scan it came from) and its value lent, not copied, so a row costs no
/// allocation for its value. ([`Merged`] hands each value out as a `Bytes` of its own: on
/// fjall's default build, an allocation and a copy per row.) [`LentRows::next_raw`] lends the
/// key's bytes too, for a borrowed twin of the key type to decode without allocating
/// anything.
///
/// A lent row borrows the scan until the next call, so the rows are read with `while let`
/// rather than `for`; keep what you need (`value.to_vec()`) before asking for the next:
///
/// ```
/// # use rowkey::store::{MemStore, Table};
/// # use rowkey::RowKey;
/// #[derive(RowKey)]
/// struct Event {
///     #[salt(buckets = 4)]
///     user: u64,
///     ts: u64,
/// }
///
/// let table = Table::<_, Event>::new(MemStore::new());
/// table.put(&Event { user: 7, ts: 1 }, b"one").unwrap();
/// table.put(&Event { user: 7, ts: 2 }, b"two").unwrap();
/// let mut rows = table.scan(&Event::scan().user(7).ranges()).lending();
/// let mut total = 0;
/// while let Some(row) = rows.next() {
///     let (event, value) = row.unwrap(); // value: &[u8], lent until the next row
///     total += event.ts as usize * value.len();
/// }
/// assert_eq!(total, 3 + 2 * 3);
/// ```
///
/// On fjall a single range's rows are lent from fjall's own buffers, kept by the scan until
/// the next row; elsewhere (other stores, a salted scan merged across buckets) from the row
/// the store handed out, which the scan holds until the next.
pub struct LentRows<'a, S: Store + 'a, K> {
    merged: Merged<'a, S, K>,
    /// The current row where the store handed it over rather than lending it.
    held: Option<Row>,
    /// The store failed: the scan has ended.
    failed: bool,
}

impl<'a, S: Store + 'a, K: RowKey + for<'de> Decode<'de>> LentRows<'a, S, K> {
    /// The next row: its key decoded, its value lent until the next call. A store error
    /// ends the scan, as in [`Merged`]; a key that does not decode is a
    /// [`TableError::Decode`] and the scan goes on.
    // A lending iterator (the row borrows the scan), so not `Iterator::next`; the type says
    // exactly what is lent.
    #[allow(clippy::should_implement_trait, clippy::type_complexity)]
    pub fn next(&mut self) -> Option<Result<(K, &[u8]), TableError<S::Error>>> {
        let check = self.merged.check;
        let (key, value) = match self.next_raw()? {
            Ok(row) => row,
            Err(e) => return Some(Err(e)),
        };
        Some(decode_checked(key, check).map(|k| (k, value)))
    }

    /// The next row as stored, not decoded: key and value bytes lent until the next call
    /// (decode a borrowed twin of the key type from the key, as with [`Table::scan_raw`],
    /// with the checks you need). A store error ends the scan.
    #[allow(clippy::type_complexity)] // says exactly what is lent
    #[inline]
    pub fn next_raw(&mut self) -> Option<Result<(&[u8], &[u8]), TableError<S::Error>>> {
        if self.failed {
            return None;
        }
        let row = match &mut self.merged.rows {
            Rows::One(slot) => match S::lend_next(slot.as_mut()?)? {
                Ok(LentRow::Lent(key, value)) => return Some(Ok((key, value))),
                Ok(LentRow::Owned(row)) => row,
                Err(e) => {
                    self.failed = true;
                    return Some(Err(TableError::Store(e)));
                }
            },
            Rows::Many(rows) => match rows.next()? {
                Ok(row) => row,
                Err(e) => return Some(Err(TableError::Store(e))),
            },
        };
        let (key, value) = self.held.insert(row);
        Some(Ok((&key[..], &value[..])))
    }
}
