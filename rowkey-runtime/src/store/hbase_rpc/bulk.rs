//! Bulk loads: rows written as HFiles ([`HFileWriter`]), one per region, into a staging
//! directory the region servers can read, then handed to the regions with HBase's own calls
//! (`PrepareBulkLoad`, `BulkLoadHFile` per region, `CleanupBulkLoad`), as HBase's
//! `BulkLoadHFiles` tool does: no WAL, no memstore, no compaction of small files.
//!
//! A region's file is loaded atomically (all or none of its rows become visible); a region
//! that split or moved since its file was written refuses it, and its rows are written again
//! for the regions that hold them now. Rows of regions not loaded when the retry budget runs
//! out are listed in the error: loading them again is safe.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use prost::Message;

use super::cluster::{Locate, RegionLoc};
use super::error::{self, Failure};
use super::hfile::{HFileCell, HFileCellType, HFileCompression, HFileOptions, HFileWriter};
use super::staging::{Stage, Staging};
use super::{ops, pb, AsyncHbaseRpcStore, Budget};
use crate::store::{BatchError, Blocking, NetError, Row};

/// What a bulk load did, and how long each part took.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BulkLoadReport {
    /// Rows loaded (after keeping the last of rows with the same key).
    pub rows: u64,
    /// HFiles written (one per region and [`HbaseRpcConfig::bulk_file_bytes`] of its rows,
    /// more when regions split during the load).
    ///
    /// [`HbaseRpcConfig::bulk_file_bytes`]: super::HbaseRpcConfig::bulk_file_bytes
    pub files: usize,
    /// Their total size in bytes.
    pub bytes: u64,
    /// Sorting the rows by key (a bulk load takes them in any order).
    pub sorting: Duration,
    /// Writing the HFiles, summed over the files (several are written at once).
    pub writing: Duration,
    /// Copying them to the staging directory on HDFS, summed over the files (zero for a local
    /// staging directory, which they are written to directly).
    pub staging: Duration,
    /// Handing them to the regions (`BulkLoadHFile` calls, summed over the files; region
    /// lookups included).
    pub loading: Duration,
    /// How the files' blocks were compressed: the family's `COMPRESSION` when rowkey writes
    /// that codec (`GZ`, `SNAPPY`), otherwise none (HBase compresses them when it next
    /// compacts the region).
    pub compression: HFileCompression,
    /// Whether the files carry a row Bloom filter (the family's `BLOOMFILTER` is `ROW`).
    pub row_bloom: bool,
}

impl AsyncHbaseRpcStore {
    /// Loads `rows` (raw rows, as [`AsyncStore::write_batch`](crate::store::AsyncStore::write_batch)
    /// writes them: the value in `family:v`, one timestamp for the whole load) through HFiles
    /// staged in `staging` ([`Staging`]): a directory on HDFS (`hdfs://namenode:port/path`,
    /// with the `hdfs` feature: the files are written locally, then copied up), or a local
    /// directory the region servers read at the same path (one machine, a shared mount). The
    /// region servers move each file into the table, so they must be able to write there too
    /// (rowkey opens the directory to everyone, as HBase's own tool does without Kerberos). The files are written
    /// as the live family declares (its block size, `GZ` or `SNAPPY` compression, a row Bloom
    /// filter) and cut at [`HbaseRpcConfig::bulk_file_bytes`](super::HbaseRpcConfig::bulk_file_bytes).
    /// Of rows with the same key the last wins. On failure the error lists every row no region confirmed loading; the
    /// rest are visible, and loading the listed ones again is safe.
    pub async fn bulk_load(
        &self,
        rows: Vec<Row>,
        staging: impl Into<Staging>,
    ) -> Result<BulkLoadReport, BatchError<NetError>> {
        self.bulk_load_with_progress(rows, staging, |_| {}).await
    }

    /// [`bulk_load`](Self::bulk_load), telling `progress` the rows loaded so far each time a
    /// region confirms its files ([`BulkProgress`]: a bar's rows, rate and time left), and
    /// once with every row when the load ends well. The library prints nothing; the same
    /// count is the client metrics' `rowkey_client_rows_total{op="bulk_load"}`.
    pub async fn bulk_load_with_progress(
        &self,
        rows: Vec<Row>,
        staging: impl Into<Staging>,
        progress: impl Fn(BulkProgress) + Send + Sync,
    ) -> Result<BulkLoadReport, BatchError<NetError>> {
        let staging = staging.into();
        let all_failed = |rows: &[Row], source| BatchError {
            failed: rows.iter().map(|(k, _)| k.to_vec()).collect(),
            source,
        };
        // Shared with the writer threads, not copied per region.
        // Sorted off the runtime's threads: seconds at millions of rows.
        let t = Instant::now();
        let rows = match tokio::task::spawn_blocking(move || sorted_last_of_each(rows)).await {
            Ok(rows) => rows,
            Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
            // Only while the runtime shuts down, which ends the caller's task too: nothing
            // was loaded, and the rows went with the sort that never ran.
            Err(_) => {
                return Err(BatchError {
                    failed: Vec::new(),
                    source: error::local(
                        "the runtime stopped before the rows were sorted: no row was loaded",
                    ),
                })
            }
        };
        let rows = Arc::new(rows);
        let sorting = t.elapsed();
        for (key, _) in rows.iter() {
            super::check_key(key).map_err(|e| all_failed(&rows, e))?;
        }
        self.ensure_schema()
            .await
            .map_err(|e| all_failed(&rows, e))?;
        // The family's options, as the table has them now.
        let families = self.families().await.map_err(|e| all_failed(&rows, e))?;
        let Some(family) = families
            .iter()
            .find(|f| f.name == self.inner.config.family)
            .cloned()
        else {
            return Err(all_failed(
                &rows,
                NetError::MissingFamily {
                    store: super::STORE,
                    table: self.inner.config.table.clone(),
                    family: self.inner.config.family.clone(),
                    families: families.into_iter().map(|f| f.name.into_owned()).collect(),
                },
            ));
        };
        let timestamp = self.inner.clock.put();
        let options = HFileOptions {
            create_time_ms: timestamp,
            ..HFileOptions::for_family(&family)
        };
        let mut report = BulkLoadReport {
            rows: rows.len() as u64,
            compression: options.compression,
            row_bloom: options.row_bloom,
            sorting,
            ..BulkLoadReport::default()
        };
        if rows.is_empty() {
            return Ok(report);
        }
        // On a cluster without Kerberos, HBase acts as the user the store names: the staged
        // files must be that user's.
        #[cfg(feature = "kerberos")]
        let user = self
            .inner
            .config
            .kerberos
            .is_none()
            .then_some(self.inner.config.user.as_str());
        #[cfg(not(feature = "kerberos"))]
        let user = Some(self.inner.config.user.as_str());
        #[cfg(feature = "kerberos")]
        let secured = self.inner.cluster.pool.login().cloned();
        #[cfg(not(feature = "kerberos"))]
        let secured = None;
        let stage = Stage::open(
            &staging,
            user,
            &self.inner.config.options.retry,
            secured.as_ref(),
        )
        .await
        .map_err(|e| all_failed(&rows, e))?;
        let token = match self.prepare_bulk_load(&rows[0].0).await {
            Ok(token) => token,
            Err(e) => {
                stage.close().await;
                return Err(all_failed(&rows, e));
            }
        };
        let tell = |loaded: u64| {
            progress(BulkProgress {
                loaded,
                rows: rows.len() as u64,
            })
        };
        tell(0);
        let mut confirmed = Confirmed {
            ranges: Vec::new(),
            progress: &tell,
        };
        let result = self
            .load_regions(&rows, &stage, &options, &token, &mut report, &mut confirmed)
            .await;
        // Best effort: a token not cleaned up leaves an empty staging directory behind.
        let _ = self.cleanup_bulk_load(&rows[0].0, &token).await;
        stage.close().await;
        match result {
            Ok(()) => Ok(report),
            Err(source) => Err(BatchError {
                failed: not_confirmed(rows.len(), confirmed.ranges)
                    .flat_map(|range| rows[range].iter().map(|(k, _)| k.to_vec()))
                    .collect(),
                source,
            }),
        }
    }

    /// Writes and loads one HFile per region, every region's at once (at most
    /// `batch_concurrency` files written and loaded together); rows of a region that refused
    /// its file are located and written again, as the retry budget allows. Each range of rows
    /// a region confirmed loaded goes to `confirmed`, failure or not: the error's rows are the
    /// others.
    async fn load_regions(
        &self,
        rows: &Arc<Vec<Row>>,
        stage: &Stage,
        options: &HFileOptions,
        token: &str,
        report: &mut BulkLoadReport,
        confirmed: &mut Confirmed<'_>,
    ) -> Result<(), NetError> {
        use futures_util::StreamExt;
        let family = Bytes::copy_from_slice(self.inner.config.family.as_bytes());
        let concurrency = self.inner.config.options.batch_concurrency.max(1);
        let max_bytes = self.inner.config.bulk_file_bytes.max(1);
        // One timestamp for the whole load: the files' creation time.
        let timestamp = options.create_time_ms;
        // The ranges of rows still to load, in key order.
        let mut pending: Vec<std::ops::Range<usize>> = Vec::with_capacity(1);
        pending.push(0..rows.len());
        let mut budget = Budget::new(&self.inner.config.options.retry);
        let mut round = 0usize;
        while !pending.is_empty() {
            // Each pending range cut at the regions that hold its rows now.
            let t = Instant::now();
            let mut groups: Vec<(std::ops::Range<usize>, Arc<RegionLoc>)> = Vec::new();
            for range in &pending {
                let mut at = range.start;
                while at < range.end {
                    let loc = match self
                        .inner
                        .cluster
                        .locate(&self.inner.regions, self.table(), &rows[at].0, Locate::At)
                        .await
                    {
                        Ok(loc) => loc,
                        Err(f) => {
                            if budget.again(&f).await {
                                continue;
                            }
                            return Err(f.into_error());
                        }
                    };
                    let end = at + rows[at..range.end].partition_point(|(k, _)| loc.contains(k));
                    groups.push((at..end, loc));
                    at = end;
                }
            }
            report.loading += t.elapsed();
            // Every group's file written and loaded, `concurrency` at a time.
            let outcomes: Vec<_> =
                futures_util::stream::iter(groups.into_iter().map(|(range, loc)| {
                    let base = stage.local_dir().join(format!(
                        "{}-{timestamp}-{round}-{}",
                        std::process::id(),
                        range.start
                    ));
                    let family = family.clone();
                    let options = options.clone();
                    async move {
                        let t = Instant::now();
                        let written = write_hfiles(
                            rows.clone(),
                            range.clone(),
                            &family,
                            timestamp,
                            base,
                            options,
                            max_bytes,
                        )
                        .await;
                        let writing = t.elapsed();
                        // Staged: the paths the region servers are given, in order.
                        let t = Instant::now();
                        let mut staged = Vec::new();
                        let written = match written {
                            Ok(files) => match stage.stage_all(&files, &mut staged).await {
                                Ok(()) => Ok(files),
                                Err(e) => Err((files, e)),
                            },
                            Err(e) => Err((Vec::new(), e)),
                        };
                        let staging = t.elapsed();
                        let t = Instant::now();
                        let outcome = match &written {
                            Ok(_) => {
                                self.load_files(&loc, &family, &staged, token, stage.fs_token())
                                    .await
                            }
                            Err(_) => Ok(()),
                        };
                        let times = (writing, staging, t.elapsed());
                        (range, loc, written, staged, outcome, times)
                    }
                }))
                .buffered(concurrency)
                .collect()
                .await;
            let mut failed: Option<Failure> = None;
            let mut unwritable: Option<NetError> = None;
            pending.clear();
            for (range, loc, written, staged, outcome, (writing, staging, loading)) in outcomes {
                report.writing += writing;
                report.staging += staging;
                report.loading += loading;
                let files = match written {
                    Ok(files) => files,
                    // A file that could not be written or staged: no retry helps.
                    Err((files, e)) => {
                        for (i, (path, _)) in files.iter().enumerate() {
                            stage.remove(path, staged.get(i).map(String::as_str)).await;
                        }
                        unwritable = Some(e);
                        continue;
                    }
                };
                for (i, (path, bytes)) in files.iter().enumerate() {
                    report.files += 1;
                    report.bytes += bytes;
                    // Loaded, the region servers moved the file in or copied it (a file
                    // system other than the table's); refused, it is still ours: gone either
                    // way.
                    stage.remove(path, staged.get(i).map(String::as_str)).await;
                }
                match outcome {
                    Ok(()) => {
                        // Progress, as the client metrics count it (rows loaded so far).
                        self.inner.meter.rows("bulk_load", range.len() as u64);
                        confirmed.push(range);
                    }
                    Err(f) => {
                        // The region may have split or moved: its rows go again.
                        self.inner.regions.forget(&loc);
                        pending.push(range);
                        failed = Some(f);
                    }
                }
            }
            if let Some(e) = unwritable {
                return Err(e);
            }
            if let Some(f) = failed {
                if !budget.again(&f).await {
                    return Err(f.into_error());
                }
            } else {
                budget = Budget::new(&self.inner.config.options.retry);
            }
            round += 1;
        }
        Ok(())
    }

    /// `PrepareBulkLoad` at the region of `row`: the token naming the staging area.
    async fn prepare_bulk_load(&self, row: &[u8]) -> Result<String, NetError> {
        let table = super::admin::table_name(self.table());
        self.on_region(row, Locate::At, true, |loc| {
            let request = pb::PrepareBulkLoadRequest {
                table_name: table.clone(),
                region: Some(loc.specifier()),
            };
            async move {
                let reply = self.region_call(&loc, "PrepareBulkLoad", &request).await?;
                let resp = pb::PrepareBulkLoadResponse::decode(reply.body)
                    .map_err(|e| error::decode("PrepareBulkLoad", e))?;
                Ok(resp.bulk_token)
            }
        })
        .await
    }

    /// `CleanupBulkLoad` of `token`.
    async fn cleanup_bulk_load(&self, row: &[u8], token: &str) -> Result<(), NetError> {
        self.on_region(row, Locate::At, true, |loc| {
            let request = pb::CleanupBulkLoadRequest {
                bulk_token: token.to_string(),
                region: Some(loc.specifier()),
            };
            async move {
                self.region_call(&loc, "CleanupBulkLoad", &request).await?;
                Ok(())
            }
        })
        .await
    }

    /// `BulkLoadHFile` of a region's staged files into region `loc`: one call, so all or none
    /// of them become visible.
    async fn load_files(
        &self,
        loc: &Arc<RegionLoc>,
        family: &Bytes,
        staged: &[String],
        token: &str,
        fs_token: Option<pb::DelegationToken>,
    ) -> Result<(), Failure> {
        let request = pb::BulkLoadHFileRequest {
            region: loc.specifier(),
            family_path: staged
                .iter()
                .map(|path| pb::bulk_load_h_file_request::FamilyPath {
                    family: family.clone(),
                    path: path.clone(),
                })
                .collect(),
            assign_seq_num: Some(true),
            fs_token,
            bulk_token: Some(token.to_string()),
            copy_file: Some(false),
            cluster_ids: Vec::new(),
            replicate: None,
        };
        let reply = self.region_call(loc, "BulkLoadHFile", &request).await?;
        let resp = pb::BulkLoadHFileResponse::decode(reply.body)
            .map_err(|e| error::decode("BulkLoadHFile", e))?;
        if resp.loaded {
            Ok(())
        } else {
            // HBase says no more (the region server's log has the reason).
            Err(Failure::Other(error::local(format!(
                "region {} did not load {} file(s) from {}: the region servers must be able \
                 to read and move the staging directory's files as the store's user, and the \
                 region must still span the files' rows",
                String::from_utf8_lossy(&loc.name),
                staged.len(),
                staged
                    .first()
                    .and_then(|p| p.rsplit_once('/'))
                    .map_or("", |(dir, _)| dir)
            ))))
        }
    }
}

impl Blocking<AsyncHbaseRpcStore> {
    /// [`AsyncHbaseRpcStore::bulk_load`]: rows loaded through HFiles in `staging`.
    pub fn bulk_load(
        &self,
        rows: Vec<Row>,
        staging: impl Into<Staging>,
    ) -> Result<BulkLoadReport, BatchError<NetError>> {
        self.bulk_load_with_progress(rows, staging, |_| {})
    }

    /// [`AsyncHbaseRpcStore::bulk_load_with_progress`]: `progress` is called on the store's
    /// runtime, as regions confirm their files.
    pub fn bulk_load_with_progress(
        &self,
        rows: Vec<Row>,
        staging: impl Into<Staging>,
        progress: impl Fn(BulkProgress) + Send + Sync + 'static,
    ) -> Result<BulkLoadReport, BatchError<NetError>> {
        let staging = staging.into();
        // The rows wait here until the load starts, so that a runtime that stops first hands
        // them back to be listed, without a copy of every key made in case it does.
        let slot = Arc::new(std::sync::Mutex::new(Some(rows)));
        let waiting = Arc::clone(&slot);
        let result = self.call(|s| async move {
            let rows = waiting
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take()
                .unwrap_or_default();
            Ok(s.bulk_load_with_progress(rows, staging, progress).await)
        });
        match result {
            Ok(result) => result,
            // The store's runtime stopped (it runs while this handle lives, so only as the
            // process ends). Rows it never started on are listed; once started, which rows
            // were loaded is unknown, and loading them all again is safe.
            Err(source) => Err(BatchError {
                failed: slot
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .take()
                    .map(|rows| rows.into_iter().map(|(k, _)| k.to_vec()).collect())
                    .unwrap_or_default(),
                source,
            }),
        }
    }
}

/// How far a bulk load has come ([`AsyncHbaseRpcStore::bulk_load_with_progress`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct BulkProgress {
    /// Rows the regions have confirmed loaded so far.
    pub loaded: u64,
    /// The load's rows (after the last of equal keys is kept).
    pub rows: u64,
}

/// Writes `rows[range]` as HFiles `{base}-{n}.hfile`, a new file once one holds `max_bytes` (on
/// a blocking thread); their paths and sizes. A file that fails is removed with the ones before.
async fn write_hfiles(
    rows: Arc<Vec<Row>>,
    range: std::ops::Range<usize>,
    family: &Bytes,
    timestamp: i64,
    base: PathBuf,
    options: HFileOptions,
    max_bytes: u64,
) -> Result<Vec<(PathBuf, u64)>, NetError> {
    let family = family.clone();
    tokio::task::spawn_blocking(move || {
        let mut files = Vec::new();
        let result = write_cut(
            &rows[range],
            &family,
            timestamp,
            &base,
            &options,
            max_bytes,
            &mut files,
        );
        if result.is_err() {
            for (path, _) in &files {
                let _ = std::fs::remove_file(path);
            }
        }
        result.map(|()| files)
    })
    .await
    .map_err(|e| error::local(format!("writing an HFile: {e}")))?
}

/// [`write_hfiles`]' work: every file written goes to `files` as soon as it is begun.
fn write_cut(
    rows: &[Row],
    family: &[u8],
    timestamp: i64,
    base: &Path,
    options: &HFileOptions,
    max_bytes: u64,
    files: &mut Vec<(PathBuf, u64)>,
) -> Result<(), NetError> {
    let failed = |path: &Path, e: &dyn std::fmt::Display| {
        error::local(format!("writing HFile {}: {e}", path.display()))
    };
    let mut rest = rows;
    while !rest.is_empty() {
        let path = PathBuf::from(format!("{}-{}.hfile", base.display(), files.len()));
        files.push((path.clone(), 0));
        let file = std::fs::File::create(&path).map_err(|e| failed(&path, &e))?;
        let mut w = HFileWriter::new(std::io::BufWriter::new(file), options.clone());
        let mut taken = 0;
        for (key, value) in rest {
            w.append(&HFileCell {
                row: key,
                family,
                qualifier: ops::QUALIFIER,
                timestamp,
                kind: HFileCellType::Put,
                value,
            })
            .map_err(|e| failed(&path, &e))?;
            taken += 1;
            if w.bytes_written() >= max_bytes {
                break;
            }
        }
        rest = &rest[taken..];
        let (summary, _) = w.finish().map_err(|e| failed(&path, &e))?;
        files.last_mut().expect("pushed above").1 = summary.bytes;
    }
    Ok(())
}

/// The ranges of rows the regions confirmed loaded, and the callback told the rows they hold
/// each time one is added.
struct Confirmed<'p> {
    ranges: Vec<std::ops::Range<usize>>,
    progress: &'p (dyn Fn(u64) + Send + Sync),
}

impl Confirmed<'_> {
    fn push(&mut self, range: std::ops::Range<usize>) {
        self.ranges.push(range);
        (self.progress)(self.ranges.iter().map(|r| r.len() as u64).sum());
    }
}

/// The ranges of `0..n` that `confirmed` (disjoint ranges, in any order) does not cover, in
/// order.
fn not_confirmed(
    n: usize,
    mut confirmed: Vec<std::ops::Range<usize>>,
) -> impl Iterator<Item = std::ops::Range<usize>> {
    confirmed.sort_by_key(|r| r.start);
    let mut at = 0;
    let mut gaps = Vec::new();
    for r in confirmed {
        if r.start > at {
            gaps.push(at..r.start);
        }
        at = at.max(r.end);
    }
    if at < n {
        gaps.push(at..n);
    }
    gaps.into_iter()
}

/// Rows sorted by key, of rows with the same key only the last (the one latest in the batch).
///
/// Sorting the rows themselves compared keys through their pointers, 23 cache misses a row at
/// 10,000,000 rows (9 s). This sorts each key's first 32 bytes, held inline as two big-endian
/// words, with its length and place in the batch (keys are read again only where both are
/// longer than 32 bytes and their heads tie), then moves each row kept once (2.7 s).
fn sorted_last_of_each(mut rows: Vec<Row>) -> Vec<Row> {
    if rows.windows(2).all(|w| w[0].0 < w[1].0) {
        return rows;
    }
    let mut order: Vec<SortKey> = rows
        .iter()
        .enumerate()
        .map(|(at, (key, _))| SortKey::new(at, key))
        .collect();
    // Equal keys in batch order, so the last of each run is the one kept.
    order.sort_unstable_by(|a, b| a.key_cmp(b, &rows).then(a.at.cmp(&b.at)));
    let mut sorted = Vec::with_capacity(order.len());
    for (i, key) in order.iter().enumerate() {
        if order
            .get(i + 1)
            .is_some_and(|next| next.key_cmp(key, &rows).is_eq())
        {
            continue;
        }
        sorted.push(std::mem::take(&mut rows[key.at]));
    }
    sorted
}

/// A row's key as [`sorted_last_of_each`] sorts it: its first 32 bytes (zero-padded), its
/// length, and the row's place in the batch.
#[derive(Clone, Copy)]
struct SortKey {
    head: [u128; 2],
    len: usize,
    at: usize,
}

impl SortKey {
    fn new(at: usize, key: &[u8]) -> Self {
        let word = |from: usize| {
            let part = key.get(from..).unwrap_or_default();
            let part = &part[..part.len().min(16)];
            let mut word = [0u8; 16];
            word[..part.len()].copy_from_slice(part);
            u128::from_be_bytes(word)
        };
        SortKey {
            head: [word(0), word(16)],
            len: key.len(),
            at,
        }
    }

    /// The order of the two keys, as the byte strings compare. Equal heads with one key at
    /// most 32 bytes long mean that key is a prefix of the other (its padding matched the
    /// other's bytes), so the shorter is first.
    fn key_cmp(&self, other: &Self, rows: &[Row]) -> std::cmp::Ordering {
        self.head.cmp(&other.head).then_with(|| {
            if self.len <= 32 || other.len <= 32 {
                self.len.cmp(&other.len)
            } else {
                rows[self.at].0[32..].cmp(&rows[other.at].0[32..])
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::single_range_in_vec_init)] // ranges of rows, as the load keeps them
    fn the_rows_not_confirmed_are_every_gap_between_confirmed_ranges() {
        let gaps = |n, c: Vec<std::ops::Range<usize>>| not_confirmed(n, c).collect::<Vec<_>>();
        assert_eq!(gaps(10, vec![]), [0..10]);
        assert!(gaps(10, vec![0..10]).is_empty());
        // Out of order, as concurrent loads confirm them; a failed range between two others.
        assert_eq!(gaps(10, vec![6..10, 0..2]), [2..6]);
        assert_eq!(gaps(10, vec![2..4, 7..8]), [0..2, 4..7, 8..10]);
    }

    #[test]
    fn the_last_row_of_each_key_is_kept_in_key_order() {
        let row = |k: &str, v: &str| (Bytes::from(k.to_string()), Bytes::from(v.to_string()));
        let rows = vec![
            row("b", "1"),
            row("a", "1"),
            row("b", "2"),
            row("c", "1"),
            row("a", "2"),
        ];
        assert_eq!(
            sorted_last_of_each(rows),
            [row("a", "2"), row("b", "2"), row("c", "1")]
        );
    }

    proptest::proptest! {
        /// The inline heads order keys exactly as their bytes do: keys around 16 and 32 bytes,
        /// prefixes of each other, trailing zeros (`a` before `a\0`), many equal keys.
        #[test]
        fn the_sort_keeps_byte_order_and_the_last_of_equal_keys(
            pool in proptest::collection::vec(
                proptest::collection::vec(proptest::sample::select(vec![0u8, 1, 255]), 0..40),
                1..8,
            ),
            picks in proptest::collection::vec((0usize..8, 0usize..40), 0..300),
        ) {
            // Keys cut from a few byte strings: prefixes of each other and many equal keys.
            let rows: Vec<Row> = picks
                .iter()
                .enumerate()
                .map(|(i, (which, len))| {
                    let bytes = &pool[which % pool.len()];
                    let key = bytes[..(*len).min(bytes.len())].to_vec();
                    (Bytes::from(key), Bytes::from(i.to_string()))
                })
                .collect();
            let mut expected = rows.clone();
            expected.sort_by(|a, b| a.0.cmp(&b.0));
            expected.dedup_by(|later, earlier| {
                let same = later.0 == earlier.0;
                if same {
                    std::mem::swap(later, earlier);
                }
                same
            });
            proptest::prop_assert_eq!(sorted_last_of_each(rows), expected);
        }
    }
}
