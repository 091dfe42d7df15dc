//! [`UidTable`]: short fixed-width ids for names (hosts, event types, metric names), kept in a
//! lookup table as the HBase guide's log-data case study keeps `LOG_TYPES` and OpenTSDB its
//! `tsdb-uid`: a key then carries a 2-4 byte id where it would carry a whole string.
//!
//! **Layout** (OpenTSDB's, one table for every kind of name, each kind a qualifier):
//!
//! | row | family | qualifier | value |
//! |---|---|---|---|
//! | the name's UTF-8 bytes | `id` | the kind (`host`) | the id, `width` bytes big-endian (forward) |
//! | the id, `width` bytes big-endian | `name` | the kind | the name (reverse) |
//! | `00` | `id` | the kind | the kind's counter, a Java long (the last id handed out) |
//!
//! **Assignment.** A new name takes the next id from the kind's counter
//! ([`AtomicStore::increment`]), then claims its forward row with put-if-absent: of assigners
//! racing for one name exactly one claim succeeds, and the others adopt the winner's id (theirs
//! is lost: a gap in the ids, never a duplicate). Only the winner writes the reverse row, after
//! the claim, so the reverse direction never names an id the forward one does not hold. Ids
//! start at 1; one kind holds at most `256^width - 1` ids, and the next is
//! [`UidError::Exhausted`].
//!
//! **Failures.** The forward row is the truth. A claim whose answer was lost is settled by
//! reading the forward row back (ours, another's, or nothing: claimed again with the same id,
//! which no one else holds). A reverse row lost to a failure after the claim is written again
//! by the next [`UidTable::get_or_assign`] of that name in any process (each process checks the
//! reverse row once per name it reads from the store), or by [`UidTable::verify`] with repair.
//!
//! **Caching.** Both directions are cached per `UidTable` for its lifetime, without bound: ids
//! never change once assigned, and the sets lookup tables hold (hosts, event types) are small.

use std::collections::HashMap;
use std::fmt;
use std::sync::RwLock;

use crate::cell::{Cell, CellRow, Column, Columns, RowWrite};
use crate::scan::KeyRange;
use crate::store::{AtomicError, AtomicStore, CellError};

/// The family of forward rows (and the counter).
pub const UID_ID_FAMILY: &str = "id";
/// The family of reverse rows.
pub const UID_NAME_FAMILY: &str = "name";
/// The row of the counters.
pub(super) const COUNTER_ROW: &[u8] = &[0];

/// A failed lookup or assignment.
#[derive(Debug)]
#[non_exhaustive]
pub enum UidError<E> {
    /// The store failed.
    Store(E),
    /// Every id of the width is taken.
    Exhausted {
        /// The kind of name.
        kind: String,
        /// The ids' width in bytes.
        width: usize,
    },
    /// A name the table cannot hold: empty, or `\0` alone (the counters' row).
    InvalidName(String),
    /// The table holds something that is not this layout (an id of another width, a counter
    /// that is not 8 bytes, a name that is not UTF-8).
    Corrupt(String),
}

impl<E: fmt::Display> fmt::Display for UidError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UidError::Store(e) => write!(f, "store error: {e}"),
            UidError::Exhausted { kind, width } => write!(
                f,
                "every id of `{kind}` is taken: {width}-byte ids hold {} names; a wider table needs a new key layout (re-key)",
                max_id(*width)
            ),
            UidError::InvalidName(why) => write!(f, "invalid name: {why}"),
            UidError::Corrupt(what) => write!(f, "the lookup table is not in UidTable's layout: {what}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for UidError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UidError::Store(e) => Some(e),
            _ => None,
        }
    }
}

impl<E> From<AtomicError<E>> for UidError<E> {
    fn from(e: AtomicError<E>) -> Self {
        match e {
            AtomicError::Store(e) => UidError::Store(e),
            other => UidError::Corrupt(match other {
                AtomicError::NotACounter { found } => {
                    format!("the counter cell is not a counter ({found:?} bytes)")
                }
                _ => "the counter is at i64::MAX".to_string(),
            }),
        }
    }
}

impl<E> From<CellError<E>> for UidError<E> {
    fn from(e: CellError<E>) -> Self {
        match e {
            CellError::Store(e) => UidError::Store(e),
            CellError::Malformed(m) => UidError::Corrupt(m.to_string()),
        }
    }
}

/// The largest id of `width` bytes.
fn max_id(width: usize) -> u64 {
    if width >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * width)) - 1
    }
}

/// What [`UidTable::verify`] found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct UidReport {
    /// Names with an id (forward rows).
    pub names: usize,
    /// Ids with a name (reverse rows).
    pub ids: usize,
    /// Names whose id has no reverse row (a failure after the claim); written when repairing.
    pub missing_reverse: Vec<(String, u64)>,
    /// Reverse rows that disagree with the forward ones (an id naming a name whose id is
    /// another, or no name at all). Never written by `UidTable`; reported, never changed.
    pub conflicts: Vec<(u64, String)>,
    /// The kind's counter: the last id handed out.
    pub counter: u64,
}

/// What [`UidTable`] and its async twin hold and decide without the store: the kind, the
/// width, the caches, the ids' encoding and the checks. Each twin only reads and writes.
pub(super) struct UidCore {
    kind: String,
    width: usize,
    ids: RwLock<HashMap<String, u64>>,
    names: RwLock<HashMap<u64, String>>,
}

impl UidCore {
    pub(super) fn new<E>(kind: &str, width: usize) -> Result<Self, UidError<E>> {
        if !(1..=8).contains(&width) {
            return Err(UidError::InvalidName(format!(
                "ids are 1 to 8 bytes wide, not {width}"
            )));
        }
        if kind.is_empty() {
            return Err(UidError::InvalidName("the kind is empty".into()));
        }
        Ok(UidCore {
            kind: kind.to_string(),
            width,
            ids: RwLock::default(),
            names: RwLock::default(),
        })
    }

    pub(super) fn kind(&self) -> &str {
        &self.kind
    }

    pub(super) fn width(&self) -> usize {
        self.width
    }

    pub(super) fn id_bytes(&self, id: u64) -> Vec<u8> {
        id.to_be_bytes()[8 - self.width..].to_vec()
    }

    fn id_of<E>(&self, bytes: &[u8]) -> Result<u64, UidError<E>> {
        if bytes.len() != self.width {
            return Err(UidError::Corrupt(format!(
                "an id of {} byte(s) where `{}` ids are {}",
                bytes.len(),
                self.kind,
                self.width
            )));
        }
        Ok(bytes.iter().fold(0, |id, &b| id << 8 | u64::from(b)))
    }

    /// A name the table can hold, or why not; and its cached id.
    pub(super) fn check_name<E>(&self, name: &str) -> Result<Option<u64>, UidError<E>> {
        match name.as_bytes() {
            [] => Err(UidError::InvalidName("a name is not empty".into())),
            [0] => Err(UidError::InvalidName(
                "`\\0` alone is the counters' row".into(),
            )),
            _ => Ok(self
                .ids
                .read()
                .unwrap_or_else(|p| p.into_inner())
                .get(name)
                .copied()),
        }
    }

    /// The cached name of `id`; `Err(true)` to look it up, `Err(false)` when no id of this
    /// width can be `id`.
    pub(super) fn cached_name(&self, id: u64) -> Result<String, bool> {
        let names = self.names.read().unwrap_or_else(|p| p.into_inner());
        match names.get(&id) {
            Some(n) => Ok(n.clone()),
            None => Err(id != 0 && id <= max_id(self.width)),
        }
    }

    pub(super) fn remember(&self, name: &str, id: u64) {
        self.ids
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(name.to_string(), id);
        self.names
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, name.to_string());
    }

    /// The columns of one family's cell of this kind.
    pub(super) fn columns(&self, family: &'static str) -> Columns {
        Columns::exact([Column::new(family, self.kind.as_bytes())])
    }

    /// That cell's value in a row read with [`UidCore::columns`].
    pub(super) fn value(&self, row: Option<CellRow>, family: &str) -> Option<Vec<u8>> {
        row.and_then(|r| r.value(family, self.kind.as_bytes()).map(<[u8]>::to_vec))
    }

    /// A forward row's value as an id.
    pub(super) fn forward<E>(&self, value: Option<Vec<u8>>) -> Result<Option<u64>, UidError<E>> {
        value.map(|b| self.id_of(&b)).transpose()
    }

    /// The reverse row of `id`.
    pub(super) fn reverse_row(&self, name: &str, id: u64) -> RowWrite {
        let cell = Cell::new(
            UID_NAME_FAMILY,
            self.kind.as_bytes(),
            name.as_bytes().to_vec(),
        );
        RowWrite::new(self.id_bytes(id), vec![cell])
    }

    /// Whether the reverse row read for `name`'s `id` must be written (a failure lost it), or
    /// the error if it names another name.
    pub(super) fn adopts<E>(
        &self,
        name: &str,
        id: u64,
        reverse: Option<Vec<u8>>,
    ) -> Result<bool, UidError<E>> {
        match reverse {
            Some(n) if n == name.as_bytes() => Ok(false),
            Some(n) => Err(UidError::Corrupt(format!(
                "`{name}` has id {id}, whose reverse row names `{}`",
                String::from_utf8_lossy(&n)
            ))),
            None => Ok(true),
        }
    }

    /// The id the kind's counter handed out, if this width holds it.
    pub(super) fn assigned<E>(&self, next: i64) -> Result<u64, UidError<E>> {
        u64::try_from(next)
            .ok()
            .filter(|&id| id >= 1 && id <= max_id(self.width))
            .ok_or_else(|| UidError::Exhausted {
                kind: self.kind.clone(),
                width: self.width,
            })
    }

    /// A reverse row's value as a name, remembered.
    pub(super) fn named<E>(&self, id: u64, bytes: Vec<u8>) -> Result<String, UidError<E>> {
        let name = String::from_utf8(bytes)
            .map_err(|_| UidError::Corrupt(format!("the name of id {id} is not UTF-8")))?;
        self.remember(&name, id);
        Ok(name)
    }

    /// The error of a claim that neither held nor failed in its tries.
    pub(super) fn unsettled<E>(name: &str, last: Option<AtomicError<E>>) -> UidError<E> {
        last.map_or_else(
            || UidError::Corrupt(format!("`{name}`'s claim neither held nor failed")),
            UidError::from,
        )
    }
}

/// What a verify has read of the kind's two directions: fed every row of the forward scan,
/// then every row of the reverse one.
#[derive(Default)]
pub(super) struct Tally {
    forward: HashMap<String, u64>,
    reverse: HashMap<u64, String>,
    report: UidReport,
}

impl Tally {
    /// One row of the scan of the forward family.
    pub(super) fn forward<E>(&mut self, core: &UidCore, row: CellRow) -> Result<(), UidError<E>> {
        let Some(value) = row.value(UID_ID_FAMILY, core.kind.as_bytes()) else {
            return Ok(());
        };
        if row.key == COUNTER_ROW {
            self.report.counter = crate::store::counter_value(value)
                .and_then(|c| u64::try_from(c).ok())
                .ok_or_else(|| UidError::Corrupt("the counter is not a counter".into()))?;
            return Ok(());
        }
        let id = core.id_of(value)?;
        let name = String::from_utf8(row.key)
            .map_err(|_| UidError::Corrupt("a name that is not UTF-8".into()))?;
        self.forward.insert(name, id);
        Ok(())
    }

    /// One row of the scan of the reverse family.
    pub(super) fn reverse<E>(&mut self, core: &UidCore, row: CellRow) -> Result<(), UidError<E>> {
        let Some(value) = row.value(UID_NAME_FAMILY, core.kind.as_bytes()) else {
            return Ok(());
        };
        let id = core.id_of(&row.key)?;
        let name = String::from_utf8(value.to_vec())
            .map_err(|_| UidError::Corrupt(format!("the name of id {id} is not UTF-8")))?;
        self.reverse.insert(id, name);
        Ok(())
    }

    /// The report: counts, the names whose reverse row is missing, the conflicts.
    pub(super) fn report(self) -> UidReport {
        let mut report = self.report;
        report.names = self.forward.len();
        report.ids = self.reverse.len();
        for (id, name) in &self.reverse {
            if self.forward.get(name) != Some(id) {
                report.conflicts.push((*id, name.clone()));
            }
        }
        for (name, id) in &self.forward {
            if !self.reverse.contains_key(id) {
                report.missing_reverse.push((name.clone(), *id));
            }
        }
        report.conflicts.sort();
        report.missing_reverse.sort();
        report
    }
}

/// How many times a claim is tried before its error is returned.
pub(super) const CLAIM_TRIES: usize = 3;

/// Short fixed-width ids for the names of one kind, kept in a lookup table (see the module
/// documentation for the layout and the guarantees).
pub struct UidTable<S> {
    store: S,
    core: UidCore,
}

impl<S: AtomicStore> UidTable<S> {
    /// Ids of `width` bytes (1 to 8) for names of `kind`, in `store`: a table with families
    /// [`UID_ID_FAMILY`] and [`UID_NAME_FAMILY`] (shared by every kind).
    pub fn new(store: S, kind: &str, width: usize) -> Result<Self, UidError<S::Error>> {
        Ok(UidTable {
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

    /// One cell's value.
    fn read(
        &self,
        row: &[u8],
        family: &'static str,
    ) -> Result<Option<Vec<u8>>, UidError<S::Error>> {
        let row = self.store.read_row(row, &self.core.columns(family))?;
        Ok(self.core.value(row, family))
    }

    /// The forward row's id, if the name has one.
    fn forward(&self, name: &str) -> Result<Option<u64>, UidError<S::Error>> {
        self.core
            .forward(self.read(name.as_bytes(), UID_ID_FAMILY)?)
    }

    /// Writes the reverse row of `id` (idempotent: only the claim's winner, or a repair of the
    /// same mapping, writes it).
    fn write_reverse(&self, name: &str, id: u64) -> Result<(), UidError<S::Error>> {
        self.store
            .write_rows(&[self.core.reverse_row(name, id)])
            .map_err(|e| UidError::Store(e.source))
    }

    /// A name read from the store (not from this table's cache): its reverse row is checked
    /// once, and written if a failure lost it.
    fn adopt(&self, name: &str, id: u64) -> Result<u64, UidError<S::Error>> {
        let reverse = self.read(&self.core.id_bytes(id), UID_NAME_FAMILY)?;
        if self.core.adopts(name, id, reverse)? {
            self.write_reverse(name, id)?;
        }
        self.core.remember(name, id);
        Ok(id)
    }

    /// The id of `name`, if it has one.
    pub fn id(&self, name: &str) -> Result<Option<u64>, UidError<S::Error>> {
        if let Some(id) = self.core.check_name(name)? {
            return Ok(Some(id));
        }
        match self.forward(name)? {
            Some(id) => self.adopt(name, id).map(Some),
            None => Ok(None),
        }
    }

    /// The id of `name`, assigned from the kind's counter if it has none yet; concurrent
    /// assigners of one name, in any process, all get the same id.
    pub fn get_or_assign(&self, name: &str) -> Result<u64, UidError<S::Error>> {
        if let Some(id) = self.id(name)? {
            return Ok(id);
        }
        let kind = self.core.kind().as_bytes();
        let id =
            self.core
                .assigned(self.store.increment(COUNTER_ROW, UID_ID_FAMILY, kind, 1)?)?;
        let bytes = self.core.id_bytes(id);
        // The claim. Its answer may be lost (a cut connection): the forward row says who won.
        // Retrying with our id is safe, since no one else holds it.
        let mut last = None;
        for _ in 0..CLAIM_TRIES {
            match self
                .store
                .put_if_absent(name.as_bytes(), UID_ID_FAMILY, kind, &bytes)
            {
                Ok(true) => {
                    self.write_reverse(name, id)?;
                    self.core.remember(name, id);
                    return Ok(id);
                }
                Ok(false) => {}
                Err(e) => last = Some(e),
            }
            match self.forward(name)? {
                Some(won) if won == id => {
                    self.write_reverse(name, id)?;
                    self.core.remember(name, id);
                    return Ok(id);
                }
                // Another assigner won: ours is a gap.
                Some(won) => return self.adopt(name, won),
                None => {}
            }
        }
        Err(UidCore::unsettled(name, last))
    }

    /// The name of `id`, if it has one.
    pub fn name(&self, id: u64) -> Result<Option<String>, UidError<S::Error>> {
        match self.core.cached_name(id) {
            Ok(name) => Ok(Some(name)),
            Err(false) => Ok(None),
            Err(true) => self
                .read(&self.core.id_bytes(id), UID_NAME_FAMILY)?
                .map(|bytes| self.core.named(id, bytes))
                .transpose(),
        }
    }

    /// Reads the kind's whole mapping, both directions, and checks that they are one bijection;
    /// with `repair`, writes the reverse rows that failures lost. A full scan of the table.
    pub fn verify(&self, repair: bool) -> Result<UidReport, UidError<S::Error>> {
        let all = KeyRange::new(&[], None);
        let mut tally = Tally::default();
        for row in self
            .store
            .scan_rows(&all, &self.core.columns(UID_ID_FAMILY))
        {
            tally.forward(&self.core, row?)?;
        }
        for row in self
            .store
            .scan_rows(&all, &self.core.columns(UID_NAME_FAMILY))
        {
            tally.reverse(&self.core, row?)?;
        }
        let report = tally.report();
        if repair {
            for (name, id) in &report.missing_reverse {
                self.write_reverse(name, *id)?;
            }
        }
        Ok(report)
    }
}
