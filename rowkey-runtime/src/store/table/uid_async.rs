//! [`AsyncUidTable`]: the lookup table of [`UidTable`](super::UidTable) over an
//! [`AsyncAtomicStore`], for an ingestion service on tokio. The layout, the assignment (the
//! counter, then the claim by put-if-absent), the failure handling and the caches are the
//! blocking table's (`uid.rs` holds what they share); only the store calls are awaited.

use futures_util::StreamExt;

use super::uid::{Tally, UidCore, CLAIM_TRIES, COUNTER_ROW};
use super::{UidError, UidReport, UID_ID_FAMILY, UID_NAME_FAMILY};
use crate::scan::KeyRange;
use crate::store::{AsyncAtomicStore, AsyncStore};

/// Short fixed-width ids for the names of one kind, in a lookup table on an async store: the
/// async twin of [`UidTable`](super::UidTable), with the same layout and guarantees.
pub struct AsyncUidTable<S> {
    store: S,
    core: UidCore,
}

impl<S: AsyncAtomicStore> AsyncUidTable<S> {
    /// Ids of `width` bytes (1 to 8) for names of `kind`, in `store`: a table with families
    /// [`UID_ID_FAMILY`] and [`UID_NAME_FAMILY`] (shared by every kind).
    pub fn new(store: S, kind: &str, width: usize) -> Result<Self, UidError<S::Error>> {
        Ok(AsyncUidTable {
            store,
            core: UidCore::new(kind, width)?,
        })
    }

    /// The kind of names.
    pub fn kind(&self) -> &str {
        self.core.kind()
    }

    /// The ids' width in bytes.
    pub fn width(&self) -> usize {
        self.core.width()
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// `id` as the key holds it: `width` bytes, big-endian.
    pub fn id_bytes(&self, id: u64) -> Vec<u8> {
        self.core.id_bytes(id)
    }

    async fn read(
        &self,
        row: &[u8],
        family: &'static str,
    ) -> Result<Option<Vec<u8>>, UidError<S::Error>> {
        let row = self.store.read_row(row, &self.core.columns(family)).await?;
        Ok(self.core.value(row, family))
    }

    async fn forward(&self, name: &str) -> Result<Option<u64>, UidError<S::Error>> {
        self.core
            .forward(self.read(name.as_bytes(), UID_ID_FAMILY).await?)
    }

    async fn write_reverse(&self, name: &str, id: u64) -> Result<(), UidError<S::Error>> {
        self.store
            .write_rows(&[self.core.reverse_row(name, id)])
            .await
            .map_err(|e| UidError::Store(e.source))
    }

    async fn adopt(&self, name: &str, id: u64) -> Result<u64, UidError<S::Error>> {
        let reverse = self.read(&self.core.id_bytes(id), UID_NAME_FAMILY).await?;
        if self.core.adopts(name, id, reverse)? {
            self.write_reverse(name, id).await?;
        }
        self.core.remember(name, id);
        Ok(id)
    }

    /// The id of `name`, if it has one.
    pub async fn id(&self, name: &str) -> Result<Option<u64>, UidError<S::Error>> {
        if let Some(id) = self.core.check_name(name)? {
            return Ok(Some(id));
        }
        match self.forward(name).await? {
            Some(id) => self.adopt(name, id).await.map(Some),
            None => Ok(None),
        }
    }

    /// The id of `name`, assigned from the kind's counter if it has none yet; concurrent
    /// assigners of one name, in any process or task, all get the same id
    /// ([`UidTable::get_or_assign`](super::UidTable::get_or_assign)).
    pub async fn get_or_assign(&self, name: &str) -> Result<u64, UidError<S::Error>> {
        if let Some(id) = self.id(name).await? {
            return Ok(id);
        }
        let kind = self.core.kind().as_bytes();
        let next = self
            .store
            .increment(COUNTER_ROW, UID_ID_FAMILY, kind, 1)
            .await?;
        let id = self.core.assigned(next)?;
        let bytes = self.core.id_bytes(id);
        let mut last = None;
        for _ in 0..CLAIM_TRIES {
            let claim = self
                .store
                .check_and_set(name.as_bytes(), UID_ID_FAMILY, kind, None, Some(&bytes))
                .await;
            match claim {
                Ok(true) => {
                    self.write_reverse(name, id).await?;
                    self.core.remember(name, id);
                    return Ok(id);
                }
                Ok(false) => {}
                Err(e) => last = Some(e),
            }
            match self.forward(name).await? {
                Some(won) if won == id => {
                    self.write_reverse(name, id).await?;
                    self.core.remember(name, id);
                    return Ok(id);
                }
                Some(won) => return self.adopt(name, won).await,
                None => {}
            }
        }
        Err(UidCore::unsettled(name, last))
    }

    /// The name of `id`, if it has one.
    pub async fn name(&self, id: u64) -> Result<Option<String>, UidError<S::Error>> {
        match self.core.cached_name(id) {
            Ok(name) => Ok(Some(name)),
            Err(false) => Ok(None),
            Err(true) => self
                .read(&self.core.id_bytes(id), UID_NAME_FAMILY)
                .await?
                .map(|bytes| self.core.named(id, bytes))
                .transpose(),
        }
    }

    /// Reads the kind's whole mapping, both directions, and checks that they are one
    /// bijection; with `repair`, writes the reverse rows that failures lost
    /// ([`UidTable::verify`](super::UidTable::verify)).
    pub async fn verify(&self, repair: bool) -> Result<UidReport, UidError<S::Error>> {
        let all = KeyRange::new(&[], None);
        let mut tally = Tally::default();
        let mut rows = AsyncStore::scan_rows(&self.store, &all, &self.core.columns(UID_ID_FAMILY));
        while let Some(row) = rows.next().await {
            tally.forward(&self.core, row?)?;
        }
        let mut rows =
            AsyncStore::scan_rows(&self.store, &all, &self.core.columns(UID_NAME_FAMILY));
        while let Some(row) = rows.next().await {
            tally.reverse(&self.core, row?)?;
        }
        let report = tally.report();
        if repair {
            for (name, id) in &report.missing_reverse {
                self.write_reverse(name, *id).await?;
            }
        }
        Ok(report)
    }
}
