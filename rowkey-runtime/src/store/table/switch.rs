//! Moving a live table to a new layout: the writes the application makes while [`rekey`]
//! copies ([`DualWriter`]), and the check before reads switch to the new table
//! ([`verify_rekey`]).
//!
//! The order is the Flurry article's: start writing every change to both tables, then copy,
//! then verify, then switch reads and stop writing the old table. A [`DualWriter`] writes the
//! new table first and the old one second, as an index is written before its record: the old
//! table stays the source of truth, and a crash between the two writes leaves a row in the new
//! table that the old one lacks, which [`verify_rekey`] reports (never a row the old one has and
//! the new one lacks, which the copy would have had to find).
//!
//! [`rekey`]: super::rekey

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, MutexGuard};

use bytes::Bytes;

use super::{Table, TableError};
use crate::scan::KeyRange;
use crate::store::Store;
use crate::{Decode, RowKey};

/// Writes every change to the old table and the new one while the copy runs: the new table
/// first (with the row converted as the copy converts it), then the old.
///
/// Run the copy with [`DualWriter::rekey`], not the bare [`rekey`](super::rekey): the copy
/// reads a row, and a dual write of the same row may land in the new table before the copy's
/// batch does; the bare copy would then write the older value over it. `DualWriter::rekey`
/// leaves every row this writer wrote since the copy began (or was writing when it began) as the writer wrote it (deleted rows
/// too: the copy does not bring them back), and writes each batch with the writer's writes to
/// the new table held off for that batch.
pub struct DualWriter<'t, S1, K1, S2, K2, F> {
    old: &'t Table<S1, K1>,
    new: &'t Table<S2, K2>,
    convert: F,
    live: Live,
}

/// What a copy and a dual writer share: the new keys written during the copy.
#[derive(Default)]
pub(super) struct Live {
    inner: Mutex<LiveInner>,
}

#[derive(Default)]
pub(super) struct LiveInner {
    copying: bool,
    pub(super) written: HashSet<Vec<u8>>,
    /// The keys of dual writes that reached the new table and not yet the old one, each with
    /// how many such writes are in flight. A copy that begins meanwhile takes them as written:
    /// it may read the value they replace from the old table, and must not copy it over the
    /// new one.
    in_flight: HashMap<Vec<u8>, usize>,
}

impl LiveInner {
    /// Notes `keys` as written by the dual writer to the new table (when a copy runs) and in
    /// flight to the old one; hands back their bytes for [`LiveInner::done`].
    pub(super) fn note<'k, K: RowKey + 'k>(
        &mut self,
        keys: impl IntoIterator<Item = &'k K>,
    ) -> Vec<Vec<u8>> {
        let mut noted = Vec::new();
        for k in keys {
            if let Ok(b) = k.to_bytes() {
                if self.copying {
                    self.written.insert(b.to_vec());
                }
                *self.in_flight.entry(b.to_vec()).or_default() += 1;
                noted.push(b.to_vec());
            }
        }
        noted
    }

    /// The dual writes of `noted` reached the old table (or failed there).
    pub(super) fn done(&mut self, noted: Vec<Vec<u8>>) {
        for b in noted {
            match self.in_flight.get_mut(&b) {
                Some(n) if *n > 1 => *n -= 1,
                _ => {
                    self.in_flight.remove(&b);
                }
            }
        }
    }

    /// A copy begins (`true`) or ends: the keys written so far are forgotten, but for those of
    /// the writes in flight when a copy begins.
    pub(super) fn copying(&mut self, copying: bool) {
        self.copying = copying;
        self.written.clear();
        if copying {
            self.written.extend(self.in_flight.keys().cloned());
        }
    }
}

impl Live {
    pub(super) fn lock(&self) -> MutexGuard<'_, LiveInner> {
        // A panic while holding it leaves the set as it was: still right to read.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Why a [`DualWriter`] write failed: which table refused it. When the new table refused, the
/// old one was not written (the change is lost to neither: retry it); when the old one refused,
/// the new one holds the change, and [`verify_rekey`] reports it until a retry succeeds.
#[derive(Debug)]
pub enum DualWriteError<E1, E2> {
    /// The conversion refused the row: nothing was written.
    Convert(String),
    /// The new table's write failed: nothing was written.
    New(TableError<E2>),
    /// The old table's write failed after the new one's succeeded.
    Old(TableError<E1>),
}

impl<E1: std::fmt::Display, E2: std::fmt::Display> std::fmt::Display for DualWriteError<E1, E2> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DualWriteError::Convert(why) => {
                write!(f, "the row does not convert to the new layout: {why}")
            }
            DualWriteError::New(e) => {
                write!(f, "the new table refused the write (nothing written): {e}")
            }
            DualWriteError::Old(e) => write!(
                f,
                "the old table refused the write after the new one took it (retry it): {e}"
            ),
        }
    }
}

impl<E1, E2> std::error::Error for DualWriteError<E1, E2>
where
    E1: std::error::Error + 'static,
    E2: std::error::Error + 'static,
{
}

impl<'t, S1, K1, S2, K2, F> DualWriter<'t, S1, K1, S2, K2, F>
where
    S1: Store,
    S2: Store,
    K1: RowKey,
    K2: RowKey,
    F: Fn(&K1, &[u8]) -> Result<(K2, Bytes), String>,
{
    /// Writes to `old` and `new`, converting each row with `convert` (the function the copy
    /// uses, on a borrowed row).
    pub fn new(old: &'t Table<S1, K1>, new: &'t Table<S2, K2>, convert: F) -> Self {
        DualWriter {
            old,
            new,
            convert,
            live: Live::default(),
        }
    }

    /// Writes one row: the new table, then the old.
    pub fn put(&self, key: &K1, value: &[u8]) -> Result<(), DualWriteError<S1::Error, S2::Error>> {
        let (k2, v2) = (self.convert)(key, value).map_err(DualWriteError::Convert)?;
        let noted = {
            let mut guard = self.live.lock();
            self.new.put(&k2, &v2).map_err(DualWriteError::New)?;
            guard.note([&k2])
        };
        let written = self.old.put(key, value);
        self.live.lock().done(noted);
        written.map_err(DualWriteError::Old)
    }

    /// Copies the old table into the new one ([`rekey`](super::rekey), same options and
    /// report) while this writer writes both: a row this writer wrote since the copy began is
    /// left as the writer wrote it (its value is newer than the one the copy read), and counts
    /// as copied.
    pub fn rekey(
        &self,
        options: &super::RekeyOptions,
        checkpoint: impl FnMut(&super::RekeyReport),
    ) -> Result<super::RekeyReport, super::RekeyFailure<S1::Error, S2::Error>>
    where
        K1: for<'de> Decode<'de>,
    {
        self.live.lock().copying(true);
        let convert = |k: K1, v: Bytes| (self.convert)(&k, &v);
        let result = super::rekey::copy(
            self.old,
            self.new,
            convert,
            options,
            checkpoint,
            Some(&self.live),
        );
        self.live.lock().copying(false);
        result
    }

    /// Writes many rows: all to the new table in one batch, then all to the old one.
    pub fn put_batch(
        &self,
        rows: &[(K1, Bytes)],
    ) -> Result<(), DualWriteError<S1::Error, S2::Error>> {
        let converted = rows
            .iter()
            .map(|(k, v)| (self.convert)(k, v))
            .collect::<Result<Vec<_>, _>>()
            .map_err(DualWriteError::Convert)?;
        let noted = {
            let mut guard = self.live.lock();
            self.new
                .put_batch(converted.iter().map(|(k, v)| (k, &v[..])))
                .map_err(DualWriteError::New)?;
            guard.note(converted.iter().map(|(k, _)| k))
        };
        let written = self.old.put_batch(rows.iter().map(|(k, v)| (k, &v[..])));
        self.live.lock().done(noted);
        written.map_err(DualWriteError::Old)
    }

    /// Deletes one row: from the new table, then the old.
    pub fn delete(
        &self,
        key: &K1,
        value: &[u8],
    ) -> Result<(), DualWriteError<S1::Error, S2::Error>> {
        let (k2, _) = (self.convert)(key, value).map_err(DualWriteError::Convert)?;
        let noted = {
            let mut guard = self.live.lock();
            self.new.delete(&k2).map_err(DualWriteError::New)?;
            guard.note([&k2])
        };
        let deleted = self.old.delete(key);
        self.live.lock().done(noted);
        deleted.map_err(DualWriteError::Old)
    }
}

/// What [`verify_rekey`] found: the rows of the old table and the new one compared, each old row
/// converted as the copy converts it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RekeyDiff {
    /// Rows of the old table.
    pub old_rows: usize,
    /// Rows of the new table.
    pub new_rows: usize,
    /// New keys of old rows that the new table lacks (at most [`RekeyDiff::KEPT`]).
    pub missing: Vec<Vec<u8>>,
    /// How many there are.
    pub missing_count: usize,
    /// New keys the new table holds with another value (at most [`RekeyDiff::KEPT`]).
    pub changed: Vec<Vec<u8>>,
    /// How many there are.
    pub changed_count: usize,
    /// Keys of the new table no old row converts to (at most [`RekeyDiff::KEPT`]).
    pub extra: Vec<Vec<u8>>,
    /// How many there are.
    pub extra_count: usize,
    /// Old rows that do not decode or do not convert (at most [`RekeyDiff::KEPT`]).
    pub unconverted: Vec<(Vec<u8>, String)>,
    /// How many there are.
    pub unconverted_count: usize,
}

impl RekeyDiff {
    /// How many keys of each kind are kept.
    pub const KEPT: usize = 20;

    /// Whether the new table holds exactly the old one's rows, converted: safe to switch.
    pub fn is_identical(&self) -> bool {
        self.missing_count == 0
            && self.changed_count == 0
            && self.extra_count == 0
            && self.unconverted_count == 0
    }
}

impl std::fmt::Display for RekeyDiff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "old {} row(s), new {}: {} missing, {} changed, {} extra, {} unconverted",
            self.old_rows,
            self.new_rows,
            self.missing_count,
            self.changed_count,
            self.extra_count,
            self.unconverted_count
        )?;
        if self.is_identical() {
            f.write_str(": identical, safe to switch")?;
        }
        Ok(())
    }
}

/// Compares the old table with the new one after a [`rekey`](super::rekey) copy (with
/// [`DualWriter`] writes going on before and during it): every old row, converted, must be in
/// the new table with the same value, and the new table must hold nothing else. Reads both
/// tables whole; keeps a hash of each new row's value per key in memory (about 24 bytes and the
/// key per row). Run it when writes are quiet, or twice: a row written between the two scans
/// shows as a difference that the second run no longer finds.
pub fn verify_rekey<S1, K1, S2, K2>(
    old: &Table<S1, K1>,
    new: &Table<S2, K2>,
    convert: impl Fn(&K1, &[u8]) -> Result<(K2, Bytes), String>,
) -> Result<RekeyDiff, super::rekey::RekeyError<S1::Error, S2::Error>>
where
    S1: Store,
    S2: Store,
    K1: RowKey + for<'de> Decode<'de>,
    K2: RowKey,
{
    use super::rekey::RekeyError;
    let mut compare = Compare::default();
    for row in new.store().scan(&KeyRange::new(&[], None)) {
        let (k, v) = row.map_err(RekeyError::Target)?;
        compare.new_row(k, &v);
    }
    for row in old.store().scan(&KeyRange::new(&[], None)) {
        let (k, v) = row.map_err(RekeyError::Source)?;
        compare.old_row::<K1, K2>(&k, &v, &convert);
    }
    Ok(compare.finish())
}

/// What [`verify_rekey`] and its async twin keep while they read: each new row's value hash
/// by key, then the old rows compared against them.
#[derive(Default)]
pub(super) struct Compare {
    diff: RekeyDiff,
    new_rows: HashMap<Bytes, u64>,
}

impl Compare {
    fn hash(v: &[u8]) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        v.hash(&mut h);
        h.finish()
    }

    /// A row of the new table (all are read before the old one's).
    pub(super) fn new_row(&mut self, key: Bytes, value: &[u8]) {
        self.new_rows.insert(key, Self::hash(value));
        self.diff.new_rows += 1;
    }

    /// A row of the old table, converted and looked up among the new rows.
    pub(super) fn old_row<K1, K2>(
        &mut self,
        key: &[u8],
        value: &[u8],
        convert: &impl Fn(&K1, &[u8]) -> Result<(K2, Bytes), String>,
    ) where
        K1: RowKey + for<'de> Decode<'de>,
        K2: RowKey,
    {
        let diff = &mut self.diff;
        diff.old_rows += 1;
        let keep = |list: &mut Vec<Vec<u8>>, count: &mut usize, key: &[u8]| {
            *count += 1;
            if list.len() < RekeyDiff::KEPT {
                list.push(key.to_vec());
            }
        };
        let converted = K1::decode(key)
            .map_err(|e| e.to_string())
            .and_then(|k1| convert(&k1, value))
            .and_then(|(k2, v2)| k2.to_bytes().map(|b| (b, v2)).map_err(|e| e.to_string()));
        match converted {
            Err(why) => {
                diff.unconverted_count += 1;
                if diff.unconverted.len() < RekeyDiff::KEPT {
                    diff.unconverted.push((key.to_vec(), why));
                }
            }
            Ok((k2, v2)) => match self.new_rows.remove(&k2) {
                None => keep(&mut diff.missing, &mut diff.missing_count, &k2),
                Some(h) if h != Self::hash(&v2) => {
                    keep(&mut diff.changed, &mut diff.changed_count, &k2)
                }
                Some(_) => {}
            },
        }
    }

    /// The comparison: the new rows no old row converted to are extra.
    pub(super) fn finish(mut self) -> RekeyDiff {
        let mut extra: Vec<&Bytes> = self.new_rows.keys().collect();
        extra.sort();
        self.diff.extra_count = extra.len();
        self.diff.extra = extra
            .into_iter()
            .take(RekeyDiff::KEPT)
            .map(|k| k.to_vec())
            .collect();
        self.diff
    }
}
