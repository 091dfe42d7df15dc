//! [`rekey_async`]: [`rekey`](super::rekey) from a tokio task, over [`AsyncTable`]s. The copy,
//! its checkpoints, its report and its resumption are the blocking copy's (`rekey.rs` holds
//! them); only the reads and writes are awaited.

use futures_util::StreamExt;

use bytes::Bytes;

use super::rekey::{begin, done, fail, map_target, Pending};
use super::switch::LiveInner;
use super::{AsyncTable, RekeyError, RekeyFailure, RekeyOptions, RekeyReport, TableError};
use crate::scan::KeyRange;
use crate::store::AsyncStore;
use crate::{Decode, RowKey};

/// Copies every row of `from` (keys `K1`) into `to` (keys `K2`), converting each with
/// `convert`: [`rekey`](super::rekey) over async stores, with the same batches, checkpoints
/// (`checkpoint` is called once after every batch written), report, failure and resumption
/// ([`RekeyOptions::resume`]).
pub async fn rekey_async<S1, K1, S2, K2>(
    from: &AsyncTable<S1, K1>,
    to: &AsyncTable<S2, K2>,
    convert: impl FnMut(K1, Bytes) -> Result<(K2, Bytes), String>,
    options: &RekeyOptions,
    checkpoint: impl FnMut(&RekeyReport),
) -> Result<RekeyReport, RekeyFailure<S1::Error, S2::Error>>
where
    S1: AsyncStore,
    S2: AsyncStore,
    K1: RowKey + for<'de> Decode<'de>,
    K2: RowKey,
{
    copy(from, to, convert, options, checkpoint, None).await
}

/// [`rekey_async`], with the rows a dual writer wrote to the target since the copy began left
/// as they are (see [`AsyncDualWriter::rekey`](super::AsyncDualWriter::rekey)).
pub(super) async fn copy<S1, K1, S2, K2>(
    from: &AsyncTable<S1, K1>,
    to: &AsyncTable<S2, K2>,
    mut convert: impl FnMut(K1, Bytes) -> Result<(K2, Bytes), String>,
    options: &RekeyOptions,
    mut checkpoint: impl FnMut(&RekeyReport),
    live: Option<&tokio::sync::Mutex<LiveInner>>,
) -> Result<RekeyReport, RekeyFailure<S1::Error, S2::Error>>
where
    S1: AsyncStore,
    S2: AsyncStore,
    K1: RowKey + for<'de> Decode<'de>,
    K2: RowKey,
{
    let (mut report, start) = begin(options);
    let mut pending = Pending::new(options);
    let mut rows = from.store().scan(&KeyRange::new(&start, None));
    while let Some(row) = rows.next().await {
        let (key, value) = match row {
            Ok(row) => row,
            Err(e) => return Err(fail(TableError::Store(RekeyError::Source(e)), &report)),
        };
        pending.take::<K1>(key, value, &mut convert);
        if pending.full(options) {
            flush(
                &mut pending,
                to,
                &mut report,
                &mut checkpoint,
                options.load,
                live,
            )
            .await
            .map_err(|e| fail(e, &report))?;
        }
    }
    flush(
        &mut pending,
        to,
        &mut report,
        &mut checkpoint,
        options.load,
        live,
    )
    .await
    .map_err(|e| fail(e, &report))?;
    if options.verify {
        let mut n = 0;
        let mut target = to.store().scan(&KeyRange::new(&[], None));
        while let Some(row) = target.next().await {
            if let Err(e) = row {
                return Err(fail(TableError::Store(RekeyError::Target(e)), &report));
            }
            n += 1;
        }
        report.target_rows = Some(n);
    }
    Ok(done(report))
}

/// Writes the pending batch and, when anything was read since the last checkpoint, commits
/// it to the report and hands the report out.
async fn flush<S2: AsyncStore, K2: RowKey, E1>(
    pending: &mut Pending<K2>,
    to: &AsyncTable<S2, K2>,
    report: &mut RekeyReport,
    checkpoint: &mut impl FnMut(&RekeyReport),
    load: bool,
    live: Option<&tokio::sync::Mutex<LiveInner>>,
) -> Result<(), TableError<RekeyError<E1, S2::Error>>> {
    if pending.read == 0 {
        return Ok(());
    }
    if !pending.batch.is_empty() {
        // As the blocking copy: a dual writer's rows are newer than the copy's, and the batch
        // is written with the writer held off.
        let guard = match live {
            Some(l) => Some(l.lock().await),
            None => None,
        };
        let skip = |k: &K2| {
            guard
                .as_ref()
                .is_some_and(|g| k.to_bytes().is_ok_and(|b| g.written.contains(&b[..])))
        };
        let rows = pending
            .batch
            .iter()
            .filter(|(k, _)| !skip(k))
            .map(|(k, v)| (k, &v[..]));
        if load {
            to.bulk_load(rows).await
        } else {
            to.put_batch(rows).await
        }
        .map_err(map_target)?;
    }
    pending.commit(report, checkpoint);
    Ok(())
}
