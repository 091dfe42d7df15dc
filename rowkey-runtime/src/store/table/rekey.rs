//! [`rekey`]: copying a table to a new key layout with nothing lost, for when a layout must
//! change after all (the Flurry article: while both tables exist, read from both and write to
//! the new one; this is the copy in between).
//!
//! The copy streams the source in key order in batches, converts each row with the caller's
//! function, and writes each batch to the target. After every batch it hands the caller the
//! copy's report so far ([`RekeyReport`]: the last source key done, the counts, every row not
//! converted), so that a copy cut short resumes where it stopped ([`RekeyOptions::resume`]) and
//! its final report still accounts for the whole copy, across every run. A run that fails
//! returns the same report with its error ([`RekeyFailure`]). A row that does not decode as the
//! source key type, or that the conversion refuses, is reported with its source key and the
//! reason, never dropped silently; at the end the target is counted, so two source rows
//! converted to one target key (a collision that would lose a row) show as a shortfall, in a
//! resumed copy as in an uninterrupted one.
//!
//! **Concurrent writers.** The copy reads the source as a stream in key order, not as one
//! snapshot: a source row written or deleted while it runs is copied if the stream has not
//! passed its key yet, and not otherwise (the Flurry article's dual writes cover those rows:
//! write to both tables before the copy starts). The target count assumes the target holds
//! only the copy's rows; turn [`RekeyOptions::verify`] off when others write there.

use std::fmt;

use bytes::Bytes;

use super::{Table, TableError};
use crate::scan::KeyRange;
use crate::store::{Row, Store};
use crate::{Decode, RowKey};

/// How [`rekey`] runs.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct RekeyOptions {
    /// Rows per target batch.
    pub batch: usize,
    /// Resume a copy from this report (the last one an earlier run handed out, or the one in
    /// its [`RekeyFailure`]); `None` starts at the beginning.
    pub resume: Option<RekeyReport>,
    /// Count the target's rows at the end (a full scan of the target; turn off when it holds
    /// other rows).
    pub verify: bool,
    /// Write each batch with [`Table::bulk_load`] ([`Store::load`], the store's fastest
    /// path) instead of [`Table::put_batch`]: HFiles handed to the region servers on an HBase
    /// store with a `bulk_load_dir` (`HbaseRpcConfig`; one set of files per batch: make
    /// batches large, a million rows), fjall's ingestion on fjall. The same guarantees; a copy
    /// cut short resumes the same way.
    pub load: bool,
}

impl Default for RekeyOptions {
    fn default() -> Self {
        RekeyOptions {
            batch: 10_000,
            resume: None,
            verify: true,
            load: false,
        }
    }
}

impl RekeyOptions {
    /// Rows per target batch.
    pub fn batch(mut self, rows: usize) -> Self {
        self.batch = rows;
        self
    }

    /// Resume the copy `report` describes: after its checkpoint, with its counts and its rows
    /// not converted carried into this run's report.
    pub fn resume(mut self, report: RekeyReport) -> Self {
        self.resume = Some(report);
        self
    }

    /// Whether to write batches with the store's bulk path ([`RekeyOptions::load`]).
    pub fn load(mut self, load: bool) -> Self {
        self.load = load;
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

/// What a [`rekey`] copy has done, up to its checkpoint: every run of it, when it was resumed.
/// Every field is public, so a caller can persist it beside the checkpoint and build it again
/// to resume.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RekeyReport {
    /// Source rows read, up to the checkpoint.
    pub read: usize,
    /// Rows written to the target, up to the checkpoint.
    pub copied: usize,
    /// Rows not copied, each with its reason, up to the checkpoint.
    pub unconverted: Vec<Unconverted>,
    /// The last source key done: where a resumed run starts (after it).
    pub checkpoint: Option<Vec<u8>>,
    /// The target's rows at the end, when counted ([`RekeyOptions::verify`]); `None` in the
    /// reports handed out before the end.
    pub target_rows: Option<usize>,
    /// The runs this copy took so far (1 for a copy never cut short).
    pub runs: usize,
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
        if self.runs > 1 {
            write!(f, ", in {} runs", self.runs)?;
        }
        Ok(())
    }
}

/// Copies every row of `from` (keys `K1`) into `to` (keys `K2`), converting each with
/// `convert`; see the module docs. `checkpoint` is called once after every batch written with
/// the copy's report so far (persist it, or at least its
/// [`checkpoint`](RekeyReport::checkpoint) key, to resume after a crash). The target's writes
/// carry [`Table::put_batch`]'s guarantees; when a run fails, the [`RekeyFailure`] holds the
/// error and the report as of the last checkpoint, correct to resume from.
pub fn rekey<S1, K1, S2, K2>(
    from: &Table<S1, K1>,
    to: &Table<S2, K2>,
    convert: impl FnMut(K1, Bytes) -> Result<(K2, Bytes), String>,
    options: &RekeyOptions,
    checkpoint: impl FnMut(&RekeyReport),
) -> Result<RekeyReport, RekeyFailure<S1::Error, S2::Error>>
where
    S1: Store,
    S2: Store,
    K1: RowKey + for<'de> Decode<'de>,
    K2: RowKey,
{
    copy(from, to, convert, options, checkpoint, None)
}

/// [`rekey`], with the rows a dual writer wrote to the target since the copy began left as
/// they are (see [`DualWriter::rekey`](super::DualWriter::rekey)).
pub(super) fn copy<S1, K1, S2, K2>(
    from: &Table<S1, K1>,
    to: &Table<S2, K2>,
    mut convert: impl FnMut(K1, Bytes) -> Result<(K2, Bytes), String>,
    options: &RekeyOptions,
    mut checkpoint: impl FnMut(&RekeyReport),
    live: Option<&super::switch::Live>,
) -> Result<RekeyReport, RekeyFailure<S1::Error, S2::Error>>
where
    S1: Store,
    S2: Store,
    K1: RowKey + for<'de> Decode<'de>,
    K2: RowKey,
{
    let (mut report, start) = begin(options);
    let mut pending = Pending::new(options);
    for row in from.store().scan(&KeyRange::new(&start, None)) {
        let (key, value): Row = match row {
            Ok(row) => row,
            Err(e) => return Err(fail(TableError::Store(RekeyError::Source(e)), &report)),
        };
        pending.take::<K1>(key, value, &mut convert);
        if pending.full(options) {
            pending
                .flush(to, &mut report, &mut checkpoint, options.load, live)
                .map_err(|e| fail(e, &report))?;
        }
    }
    pending
        .flush(to, &mut report, &mut checkpoint, options.load, live)
        .map_err(|e| fail(e, &report))?;
    if options.verify {
        let mut n = 0;
        for row in to.store().scan(&KeyRange::new(&[], None)) {
            if let Err(e) = row {
                return Err(fail(TableError::Store(RekeyError::Target(e)), &report));
            }
            n += 1;
        }
        report.target_rows = Some(n);
    }
    Ok(done(report))
}

/// A run's report to start from (the resumed one's, or a new one) and the first source key to
/// read: the key right after the checkpoint (keys are byte strings, so `k + 0x00`).
pub(super) fn begin(options: &RekeyOptions) -> (RekeyReport, Vec<u8>) {
    let mut report = options.resume.clone().unwrap_or_default();
    report.target_rows = None;
    report.runs += 1;
    tracing::info!(
        target: "rowkey::rekey",
        run = report.runs,
        resumed_after = report.read,
        batch = options.batch,
        "re-keying starts"
    );
    let start = match &report.checkpoint {
        Some(k) => {
            let mut s = k.clone();
            s.push(0);
            s
        }
        None => Vec::new(),
    };
    (report, start)
}

/// The report of a finished run, logged.
pub(super) fn done(report: RekeyReport) -> RekeyReport {
    tracing::info!(
        target: "rowkey::rekey",
        read = report.read,
        copied = report.copied,
        unconverted = report.unconverted.len(),
        target_rows = report.target_rows,
        complete = report.is_complete(),
        "re-keying done"
    );
    report
}

/// A failed run: its error and the report as of its last checkpoint.
pub(super) fn fail<E1, E2>(
    error: TableError<RekeyError<E1, E2>>,
    report: &RekeyReport,
) -> RekeyFailure<E1, E2> {
    RekeyFailure {
        error,
        report: Box::new(report.clone()),
    }
}

/// A run's progress since its last checkpoint: what it has read, converted and refused. It
/// joins the report when its batch is written.
pub(super) struct Pending<K2> {
    pub(super) batch: Vec<(K2, Bytes)>,
    pub(super) read: usize,
    unconverted: Vec<Unconverted>,
    /// The last source key read.
    last: Option<Vec<u8>>,
}

impl<K2: RowKey> Pending<K2> {
    pub(super) fn new(options: &RekeyOptions) -> Self {
        Pending {
            batch: Vec::with_capacity(options.batch.max(1)),
            read: 0,
            unconverted: Vec::new(),
            last: None,
        }
    }

    /// Takes one source row: converted into the batch, or kept with the reason it was not.
    pub(super) fn take<K1: RowKey + for<'de> Decode<'de>>(
        &mut self,
        key: Bytes,
        value: Bytes,
        convert: &mut impl FnMut(K1, Bytes) -> Result<(K2, Bytes), String>,
    ) {
        self.read += 1;
        match K1::decode(&key) {
            Err(e) => self.unconverted.push(Unconverted {
                key: key.to_vec(),
                reason: format!("not a source key: {e}"),
            }),
            Ok(k1) => match convert(k1, value) {
                Ok(row) => self.batch.push(row),
                Err(reason) => self.unconverted.push(Unconverted {
                    key: key.to_vec(),
                    reason,
                }),
            },
        }
        self.last = Some(key.to_vec());
    }

    /// Whether the batch is due to be written.
    pub(super) fn full(&self, options: &RekeyOptions) -> bool {
        self.batch.len() >= options.batch.max(1)
    }

    /// Writes the batch and, when anything was read since the last checkpoint, moves it into
    /// the report and hands the report out (once per checkpoint).
    fn flush<S2: Store, E1>(
        &mut self,
        to: &Table<S2, K2>,
        report: &mut RekeyReport,
        checkpoint: &mut impl FnMut(&RekeyReport),
        load: bool,
        live: Option<&super::switch::Live>,
    ) -> Result<(), TableError<RekeyError<E1, S2::Error>>> {
        if self.read == 0 {
            return Ok(());
        }
        if !self.batch.is_empty() {
            // While a dual writer writes the target, its rows are newer than the copy's: the
            // batch leaves them out, and is written with the writer held off, so that no dual
            // write lands between the check and the batch.
            let guard = live.map(|l| l.lock());
            let skip = |k: &K2| {
                guard
                    .as_ref()
                    .is_some_and(|g| k.to_bytes().is_ok_and(|b| g.written.contains(&b[..])))
            };
            let rows = self
                .batch
                .iter()
                .filter(|(k, _)| !skip(k))
                .map(|(k, v)| (k, &v[..]));
            if load {
                to.bulk_load(rows)
            } else {
                to.put_batch(rows)
            }
            .map_err(map_target)?;
        }
        self.commit(report, checkpoint);
        Ok(())
    }

    /// Moves what was read since the last checkpoint into the report, once its batch is
    /// written, and hands the report out.
    pub(super) fn commit(
        &mut self,
        report: &mut RekeyReport,
        checkpoint: &mut impl FnMut(&RekeyReport),
    ) {
        report.read += std::mem::take(&mut self.read);
        report.copied += self.batch.len();
        self.batch.clear();
        report.unconverted.append(&mut self.unconverted);
        report.checkpoint.clone_from(&self.last);
        tracing::info!(
            target: "rowkey::rekey",
            read = report.read,
            copied = report.copied,
            unconverted = report.unconverted.len(),
            run = report.runs,
            "checkpoint"
        );
        checkpoint(report);
    }
}

/// A [`rekey`] run that stopped: the error, and the copy's report as of its last checkpoint
/// (counts and rows not converted included), to resume from with [`RekeyOptions::resume`].
pub struct RekeyFailure<E1, E2> {
    /// What stopped the run: a table error whose store error says which side failed.
    pub error: TableError<RekeyError<E1, E2>>,
    /// The copy's report as of the last checkpoint (boxed: the error stays small).
    pub report: Box<RekeyReport>,
}

impl<E1: fmt::Debug, E2: fmt::Debug> fmt::Debug for RekeyFailure<E1, E2> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RekeyFailure")
            .field("error", &self.error)
            .field("report", &format_args!("{}", self.report))
            .field(
                "checkpoint",
                &self.report.checkpoint.as_deref().map(crate::fmt::binary),
            )
            .finish()
    }
}

impl<E1: fmt::Display, E2: fmt::Display> fmt::Display for RekeyFailure<E1, E2> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "re-keying stopped: {} (done up to the last checkpoint: {})",
            self.error, self.report
        )
    }
}

impl<E1, E2> std::error::Error for RekeyFailure<E1, E2>
where
    E1: std::error::Error + 'static,
    E2: std::error::Error + 'static,
{
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

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

pub(super) fn map_target<E1, E2>(e: TableError<E2>) -> TableError<RekeyError<E1, E2>> {
    match e {
        TableError::Encode { index, error } => TableError::Encode { index, error },
        TableError::Decode { key, error } => TableError::Decode { key, error },
        TableError::Store(e) => TableError::Store(RekeyError::Target(e)),
        TableError::Batch(b) => TableError::Batch(crate::store::BatchError {
            failed: b.failed,
            source: RekeyError::Target(b.source),
        }),
        TableError::Value { key, error } => TableError::Value { key, error },
        TableError::Malformed(m) => TableError::Malformed(m),
    }
}
