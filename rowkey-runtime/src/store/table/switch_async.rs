//! [`AsyncDualWriter`] and [`verify_rekey_async`]: the dual writes and the check before the
//! switch ([`DualWriter`](super::DualWriter), [`verify_rekey`](super::verify_rekey)) over
//! [`AsyncTable`]s, from tokio tasks. The order, the guarded copy and the comparison are the
//! blocking ones (`switch.rs` holds them); only the reads and writes are awaited, and the
//! writer's hold on the copy is an async lock, never held by a blocked thread.

use bytes::Bytes;
use futures_util::StreamExt;
use tokio::sync::Mutex;

use super::rekey::RekeyError;
use super::switch::{Compare, LiveInner};
use super::{AsyncTable, DualWriteError, RekeyDiff, RekeyFailure, RekeyOptions, RekeyReport};
use crate::scan::KeyRange;
use crate::store::AsyncStore;
use crate::{Decode, RowKey};

/// [`DualWriter`](super::DualWriter) over async tables: every change goes to the new table
/// (converted as the copy converts it) and then to the old one, and
/// [`AsyncDualWriter::rekey`] copies with the rows this writer wrote since the copy began left
/// as the writer wrote them. Share it between tasks by reference (or in an `Arc`): its methods
/// take `&self`.
pub struct AsyncDualWriter<'t, S1, K1, S2, K2, F> {
    old: &'t AsyncTable<S1, K1>,
    new: &'t AsyncTable<S2, K2>,
    convert: F,
    live: Mutex<LiveInner>,
}

impl<'t, S1, K1, S2, K2, F> AsyncDualWriter<'t, S1, K1, S2, K2, F>
where
    S1: AsyncStore,
    S2: AsyncStore,
    K1: RowKey,
    K2: RowKey,
    F: Fn(&K1, &[u8]) -> Result<(K2, Bytes), String>,
{
    /// Writes to `old` and `new`, converting each row with `convert` (the function the copy
    /// uses, on a borrowed row).
    pub fn new(old: &'t AsyncTable<S1, K1>, new: &'t AsyncTable<S2, K2>, convert: F) -> Self {
        AsyncDualWriter {
            old,
            new,
            convert,
            live: Mutex::default(),
        }
    }

    /// Writes one row: the new table, then the old.
    pub async fn put(
        &self,
        key: &K1,
        value: &[u8],
    ) -> Result<(), DualWriteError<S1::Error, S2::Error>> {
        let (k2, v2) = (self.convert)(key, value).map_err(DualWriteError::Convert)?;
        let noted = {
            let mut guard = self.live.lock().await;
            self.new.put(&k2, &v2).await.map_err(DualWriteError::New)?;
            guard.note([&k2])
        };
        let written = self.old.put(key, value).await;
        self.live.lock().await.done(noted);
        written.map_err(DualWriteError::Old)
    }

    /// Writes many rows: all to the new table in one batch, then all to the old one.
    pub async fn put_batch(
        &self,
        rows: &[(K1, Bytes)],
    ) -> Result<(), DualWriteError<S1::Error, S2::Error>> {
        let converted = rows
            .iter()
            .map(|(k, v)| (self.convert)(k, v))
            .collect::<Result<Vec<_>, _>>()
            .map_err(DualWriteError::Convert)?;
        let noted = {
            let mut guard = self.live.lock().await;
            self.new
                .put_batch(converted.iter().map(|(k, v)| (k, &v[..])))
                .await
                .map_err(DualWriteError::New)?;
            guard.note(converted.iter().map(|(k, _)| k))
        };
        let written = self
            .old
            .put_batch(rows.iter().map(|(k, v)| (k, &v[..])))
            .await;
        self.live.lock().await.done(noted);
        written.map_err(DualWriteError::Old)
    }

    /// Deletes one row: from the new table, then the old.
    pub async fn delete(
        &self,
        key: &K1,
        value: &[u8],
    ) -> Result<(), DualWriteError<S1::Error, S2::Error>> {
        let (k2, _) = (self.convert)(key, value).map_err(DualWriteError::Convert)?;
        let noted = {
            let mut guard = self.live.lock().await;
            self.new.delete(&k2).await.map_err(DualWriteError::New)?;
            guard.note([&k2])
        };
        let deleted = self.old.delete(key).await;
        self.live.lock().await.done(noted);
        deleted.map_err(DualWriteError::Old)
    }

    /// Copies the old table into the new one ([`rekey_async`](super::rekey_async), same
    /// options and report) while this writer writes both: a row this writer wrote since the
    /// copy began is left as the writer wrote it, and counts as copied. Run it on one task and
    /// the writes on others.
    pub async fn rekey(
        &self,
        options: &RekeyOptions,
        checkpoint: impl FnMut(&RekeyReport),
    ) -> Result<RekeyReport, RekeyFailure<S1::Error, S2::Error>>
    where
        K1: for<'de> Decode<'de>,
    {
        self.live.lock().await.copying(true);
        let convert = |k: K1, v: Bytes| (self.convert)(&k, &v);
        let result = super::rekey_async::copy(
            self.old,
            self.new,
            convert,
            options,
            checkpoint,
            Some(&self.live),
        )
        .await;
        self.live.lock().await.copying(false);
        result
    }
}

/// [`verify_rekey`](super::verify_rekey) over async tables: every old row, converted, must be
/// in the new table with the same value, and the new table must hold nothing else.
pub async fn verify_rekey_async<S1, K1, S2, K2>(
    old: &AsyncTable<S1, K1>,
    new: &AsyncTable<S2, K2>,
    convert: impl Fn(&K1, &[u8]) -> Result<(K2, Bytes), String>,
) -> Result<RekeyDiff, RekeyError<S1::Error, S2::Error>>
where
    S1: AsyncStore,
    S2: AsyncStore,
    K1: RowKey + for<'de> Decode<'de>,
    K2: RowKey,
{
    let mut compare = Compare::default();
    let mut rows = new.store().scan(&KeyRange::new(&[], None));
    while let Some(row) = rows.next().await {
        let (k, v) = row.map_err(RekeyError::Target)?;
        compare.new_row(k, &v);
    }
    let mut rows = old.store().scan(&KeyRange::new(&[], None));
    while let Some(row) = rows.next().await {
        let (k, v) = row.map_err(RekeyError::Source)?;
        compare.old_row::<K1, K2>(&k, &v, &convert);
    }
    Ok(compare.finish())
}
