//! [`rekey`]: copying a table to a new key layout with nothing lost, for when a layout must
//! change after all (the Flurry article: while both tables exist, read from both and write to
//! the new one; this is the copy in between).
//!
//! The copy streams the source in key order in batches, converts each row with the caller's
//! function, and writes each batch to the target; after every batch it hands the caller a
//! checkpoint (the last source key done) so that a copy cut short resumes where it stopped
//! ([`RekeyOptions::resume_after`]). A row that does not decode as the source key type, or that
//! the conversion refuses, is reported with its source key and the reason, never dropped
//! silently; at the end the target is counted, so two source rows converted to one target key
//! (a collision that would lose a row) show as a shortfall.

use std::fmt;

use bytes::Bytes;

use super::{Row, Store, Table, TableError};
use crate::scan::KeyRange;
use crate::{Decode, RowKey};

/// How [`rekey`] runs.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RekeyOptions {
    /// Rows per target batch.
    pub batch: usize,
    /// Resume after this source key (a checkpoint from an earlier run); `None` starts at the
    /// beginning.
    pub resume_after: Option<Vec<u8>>,
    /// Count the target's rows at the end (a full scan of the target; turn off when it holds
    /// other rows).
    pub verify: bool,
}

impl Default for RekeyOptions {
    fn default() -> Self {
        RekeyOptions {
            batch: 10_000,
            resume_after: None,
            verify: true,
        }
    }
}

impl RekeyOptions {
    /// Rows per target batch.
    pub fn batch(mut self, rows: usize) -> Self {
        self.batch = rows;
        self
    }

    /// Resume after `checkpoint`, the last source key an earlier run reported done.
    pub fn resume_after(mut self, checkpoint: Vec<u8>) -> Self {
        self.resume_after = Some(checkpoint);
        self
    }

    /// Whether to count the target at the end.
    pub fn verify(mut self, verify: bool) -> Self {
        self.verify = verify;
        self
    }
}

/// A source row [`rekey`] could not copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unconverted {
    /// The source row's key bytes.
    pub key: Vec<u8>,
    /// Why: the decode error, or the conversion's own message.
    pub reason: String,
}

/// What a [`rekey`] run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RekeyReport {
    /// Source rows read in this run.
    pub read: usize,
    /// Rows written to the target in this run.
    pub copied: usize,
    /// Rows not copied, each with its reason.
    pub unconverted: Vec<Unconverted>,
    /// The last source key done: the checkpoint to resume after.
    pub checkpoint: Option<Vec<u8>>,
    /// The target's rows at the end, when counted ([`RekeyOptions::verify`]).
    pub target_rows: Option<usize>,
}

impl RekeyReport {
    /// Whether every row read was copied and, when counted, the target holds them all (fewer
    /// target rows than copied ones means two source rows became one target key).
    pub fn is_complete(&self) -> bool {
        self.unconverted.is_empty()
            && self.read == self.copied
            && self.target_rows.is_none_or(|n| n >= self.copied)
    }
}

impl fmt::Display for RekeyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} read, {} copied, {} not converted",
            self.read,
            self.copied,
            self.unconverted.len()
        )?;
        if let Some(n) = self.target_rows {
            write!(f, ", {n} rows in the target")?;
        }
        Ok(())
    }
}

/// Copies every row of `from` (keys `K1`) into `to` (keys `K2`), converting each with
/// `convert`; see the module docs. `checkpoint` is called after every batch written with the
/// last source key done (persist it to resume after a crash). The target's writes carry
/// [`Table::put_batch`]'s guarantees: on a store failure the error lists the keys not written,
/// and the last checkpoint given is still correct to resume from.
pub fn rekey<S1, K1, S2, K2>(
    from: &Table<S1, K1>,
    to: &Table<S2, K2>,
    mut convert: impl FnMut(K1, Bytes) -> Result<(K2, Bytes), String>,
    options: &RekeyOptions,
    mut checkpoint: impl FnMut(&[u8]),
) -> Result<RekeyReport, RekeyFailure<S1::Error, S2::Error>>
where
    S1: Store,
    S2: Store,
    K1: RowKey + for<'de> Decode<'de>,
    K2: RowKey,
{
    let start = match &options.resume_after {
        // The key right after the checkpoint: keys are byte strings, so `k + 0x00`.
        Some(k) => {
            let mut s = k.clone();
            s.push(0);
            s
        }
        None => Vec::new(),
    };
    let mut report = RekeyReport {
        read: 0,
        copied: 0,
        unconverted: Vec::new(),
        checkpoint: options.resume_after.clone(),
        target_rows: None,
    };
    let mut batch: Vec<(K2, Bytes)> = Vec::with_capacity(options.batch.max(1));
    let mut last: Option<Vec<u8>> = None;
    let flush = |batch: &mut Vec<(K2, Bytes)>,
                 last: &Option<Vec<u8>>,
                 report: &mut RekeyReport,
                 checkpoint: &mut dyn FnMut(&[u8])|
     -> Result<(), RekeyFailure<S1::Error, S2::Error>> {
        to.put_batch(batch.iter().map(|(k, v)| (k, &v[..])))
            .map_err(map_target)?;
        report.copied += batch.len();
        batch.clear();
        if let Some(k) = last {
            report.checkpoint = Some(k.clone());
            checkpoint(k);
        }
        Ok(())
    };
    for row in from.store().scan(&KeyRange::new(&start, None)) {
        let (key, value): Row = row.map_err(|e| TableError::Store(RekeyError::Source(e)))?;
        report.read += 1;
        match K1::decode(&key) {
            Err(e) => report.unconverted.push(Unconverted {
                key: key.to_vec(),
                reason: format!("not a source key: {e}"),
            }),
            Ok(k1) => match convert(k1, value) {
                Ok(row) => batch.push(row),
                Err(reason) => report.unconverted.push(Unconverted {
                    key: key.to_vec(),
                    reason,
                }),
            },
        }
        last = Some(key.to_vec());
        if batch.len() >= options.batch.max(1) {
            flush(&mut batch, &last, &mut report, &mut checkpoint)?;
        }
    }
    flush(&mut batch, &last, &mut report, &mut checkpoint)?;
    if options.verify {
        let mut n = 0;
        for row in to.store().scan(&KeyRange::new(&[], None)) {
            row.map_err(|e| TableError::Store(RekeyError::Target(e)))?;
            n += 1;
        }
        report.target_rows = Some(n);
    }
    Ok(report)
}

/// A [`rekey`] that stopped: a table error whose store error says which side failed.
pub type RekeyFailure<E1, E2> = TableError<RekeyError<E1, E2>>;

/// Which side of a [`rekey`] failed.
#[derive(Debug)]
pub enum RekeyError<E1, E2> {
    /// Reading the source.
    Source(E1),
    /// Writing or counting the target.
    Target(E2),
}

impl<E1: fmt::Display, E2: fmt::Display> fmt::Display for RekeyError<E1, E2> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RekeyError::Source(e) => write!(f, "reading the source: {e}"),
            RekeyError::Target(e) => write!(f, "writing the target: {e}"),
        }
    }
}

impl<E1: std::error::Error + 'static, E2: std::error::Error + 'static> std::error::Error
    for RekeyError<E1, E2>
{
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RekeyError::Source(e) => Some(e),
            RekeyError::Target(e) => Some(e),
        }
    }
}

fn map_target<E1, E2>(e: TableError<E2>) -> TableError<RekeyError<E1, E2>> {
    match e {
        TableError::Encode { index, error } => TableError::Encode { index, error },
        TableError::Decode { key, error } => TableError::Decode { key, error },
        TableError::Store(e) => TableError::Store(RekeyError::Target(e)),
        TableError::Batch(b) => TableError::Batch(super::BatchError {
            failed: b.failed,
            source: RekeyError::Target(b.source),
        }),
        TableError::Value { key, error } => TableError::Value { key, error },
        TableError::Malformed(m) => TableError::Malformed(m),
    }
}
