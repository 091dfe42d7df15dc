//! The dual-write index behaviours, run on every store (memory and fjall in `tests/store.rs`,
//! Bigtable and HBase in theirs): a pseudo-random run of puts and deletes through an
//! `IndexedTable`, with failures injected into the first or the second of each pair of writes,
//! checked against a brute-force model after every few steps (every query through the index
//! returns exactly the model's records for that application, in index order), then `check`,
//! `repair` and `rebuild_index`.
#![allow(dead_code)] // each test binary uses part of it

use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;

use rowkey::store::{BatchError, IndexReport, IndexedTable, Row, Store};
use rowkey::{IndexOf, KeyRange, RowKey};

/// The Flurry article's tables: a user's applications...
#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct UserApp {
    #[salt(buckets = 4)]
    pub user_id: u64,
    pub app_id: u32,
}

/// ...and an application's users.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(index_of = UserApp)]
pub struct AppUser {
    #[salt(buckets = 4)]
    pub app_id: u32,
    pub user_id: u64,
}

/// Any store whose next write fails when told to.
pub struct Flaky<S> {
    pub inner: S,
    pub fail_next: Cell<bool>,
}

/// A failure: injected, or the store's own.
#[derive(Debug)]
pub enum FlakyError<E> {
    Injected,
    Store(E),
}

impl<E: fmt::Display> fmt::Display for FlakyError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlakyError::Injected => f.write_str("injected failure"),
            FlakyError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl<E: std::error::Error> std::error::Error for FlakyError<E> {}

impl<S: Store> Flaky<S> {
    pub fn new(inner: S) -> Self {
        Flaky {
            inner,
            fail_next: Cell::new(false),
        }
    }
}

impl<S: Store> Store for Flaky<S> {
    type Error = FlakyError<S::Error>;
    type Scan<'a>
        = std::iter::Map<S::Scan<'a>, fn(Result<Row, S::Error>) -> Result<Row, Self::Error>>
    where
        S: 'a;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Self::Error> {
        if self.fail_next.replace(false) {
            return Err(FlakyError::Injected);
        }
        self.inner.put(key, value).map_err(FlakyError::Store)
    }
    fn get(&self, key: &[u8]) -> Result<Option<rowkey::bytes::Bytes>, Self::Error> {
        self.inner.get(key).map_err(FlakyError::Store)
    }
    fn delete(&self, key: &[u8]) -> Result<(), Self::Error> {
        if self.fail_next.replace(false) {
            return Err(FlakyError::Injected);
        }
        self.inner.delete(key).map_err(FlakyError::Store)
    }
    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<Self::Error>> {
        if self.fail_next.replace(false) {
            return Err(BatchError {
                failed: rows.iter().map(|(k, _)| k.to_vec()).collect(),
                source: FlakyError::Injected,
            });
        }
        self.inner.write_batch(rows).map_err(|e| BatchError {
            failed: e.failed,
            source: FlakyError::Store(e.source),
        })
    }
    fn scan(&self, range: &KeyRange) -> Self::Scan<'_> {
        self.inner.scan(range).map(|r| r.map_err(FlakyError::Store))
    }
    fn scan_rev(&self, range: &KeyRange) -> Option<Self::Scan<'_>> {
        Some(
            self.inner
                .scan_rev(range)?
                .map(|r| r.map_err(FlakyError::Store)),
        )
    }
}

/// The records a run of the index behaviours has stored, and its pseudo-random steps: what
/// both [`exercise_index`] and its async twin check every read through the index against.
struct Model {
    stored: BTreeMap<UserApp, Vec<u8>>,
    x: u64,
    users: u64,
    apps: u32,
}

/// One step of a run: a put or a delete of `key`, and which of its two writes fails.
struct Step {
    key: UserApp,
    delete: bool,
    /// 0: the first write fails, 1: the second, else none.
    fail: u64,
    value: Vec<u8>,
}

impl Step {
    /// The stores of the step's first and second writes: a put writes the entry, then the
    /// record; a delete removes the record, then the entry.
    fn writes<'a, S>(&self, records: &'a S, index: &'a S) -> (&'a S, &'a S) {
        if self.delete {
            (records, index)
        } else {
            (index, records)
        }
    }

    /// The store whose next write is to fail, if any.
    fn failing<'a, S>(&self, records: &'a S, index: &'a S) -> Option<&'a S> {
        let (first, second) = self.writes(records, index);
        match self.fail {
            0 => Some(first),
            1 => Some(second),
            _ => None,
        }
    }
}

impl Model {
    /// A model of `users` users and `apps` applications, its steps drawn from `seed`.
    fn new(seed: u64, users: u64, apps: u32) -> Self {
        Model {
            stored: BTreeMap::new(),
            x: seed,
            users,
            apps,
        }
    }

    fn next(&mut self) -> u64 {
        self.x ^= self.x << 13;
        self.x ^= self.x >> 7;
        self.x ^= self.x << 17;
        self.x
    }

    /// A first batch of `n` records (value `v0`), as stored.
    fn first(&mut self, n: u64, users: u64, apps: u32) -> Vec<UserApp> {
        let keys: Vec<UserApp> = (0..n)
            .map(|i| UserApp {
                user_id: i % users,
                app_id: (i % u64::from(apps)) as u32,
            })
            .collect();
        for k in &keys {
            self.stored.insert(k.clone(), b"v0".to_vec());
        }
        keys
    }

    fn step(&mut self, step: usize) -> Step {
        let key = UserApp {
            user_id: self.next() % self.users,
            app_id: (self.next() % u64::from(self.apps)) as u32,
        };
        let delete = self.next().is_multiple_of(3);
        let fail = self.next() % 5;
        Step {
            key,
            delete,
            fail,
            value: format!("v{step}").into_bytes(),
        }
    }

    /// Checks a step's result and applies it: a put stores the record unless a write failed;
    /// a delete removes it unless its first write (the record's) failed.
    fn apply<E: fmt::Debug>(&mut self, n: usize, step: Step, result: Result<(), E>) {
        assert_eq!(result.is_err(), step.fail < 2, "step {n}: {result:?}");
        match (step.delete, step.fail) {
            (false, 2..) => {
                self.stored.insert(step.key, step.value);
            }
            (true, 1..) => {
                self.stored.remove(&step.key);
            }
            _ => {}
        }
    }

    /// Whether the reads through the index are checked after step `n` of `steps`.
    fn checks_after(n: usize, steps: usize) -> bool {
        n % 10 == 9 || n + 1 == steps
    }

    /// The stored records of one application, in the index's order.
    fn want(&self, app_id: u32) -> Vec<(UserApp, Vec<u8>)> {
        self.stored
            .iter()
            .filter(|(k, _)| k.app_id == app_id)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// Checks a `check` report taken after the run: no record without its entry.
    fn checked(&self, report: &IndexReport<UserApp>) {
        assert!(report.missing.is_empty(), "{:?}", report.missing);
        assert_eq!(report.records, self.stored.len());
    }

    /// Checks the report of a `check` after `repair`: clean, an entry per record.
    fn repaired(&self, report: &IndexReport<UserApp>) {
        assert!(report.is_clean(), "{report:?}");
        assert_eq!(report.entries, self.stored.len());
    }
}

/// Runs the index behaviours on two fresh, empty stores of one kind.
pub fn exercise_index<S: Store>(records: S, index: S, steps: usize) {
    let t = IndexedTable::<_, UserApp, AppUser>::new(Flaky::new(records), Flaky::new(index));
    let mut model = Model::new(0x9E37_79B9_7F4A_7C15, 60, 8);
    // A first batch, through put_batch.
    let first = model.first(200, 50, 7);
    t.put_batch(first.iter().map(|k| (k, b"v0".as_slice())))
        .unwrap();
    for n in 0..steps {
        let step = model.step(n);
        if let Some(store) = step.failing(t.records().store(), t.index().store()) {
            store.fail_next.set(true);
        }
        let result = if step.delete {
            t.delete(&step.key)
        } else {
            t.put(&step.key, &step.value)
        };
        model.apply(n, step, result);
        if Model::checks_after(n, steps) {
            for app_id in 0..model.apps {
                let got: Vec<(UserApp, Vec<u8>)> = t
                    .scan_by_index(&AppUser::scan().app_id(app_id).ranges())
                    .map(|r| r.map(|(k, v)| (k, v.to_vec())).unwrap())
                    .collect();
                assert_eq!(got, model.want(app_id), "app {app_id} after step {n}");
            }
        }
    }
    let report = t.check().unwrap();
    model.checked(&report);
    t.repair(&report).unwrap();
    model.repaired(&t.check().unwrap());
    assert_eq!(t.rebuild_index(64).unwrap(), model.stored.len());
    assert!(t.check().unwrap().is_clean());
}

/// A deterministic scheduler for two actors (0 and 1) sharing stores: each store operation of
/// an actor waits until the script names that actor, so a test can run every interleaving of
/// two sequences of operations. A script position whose actor has finished is skipped; past
/// the script's end both run freely.
pub struct Script {
    state: std::sync::Mutex<(Vec<usize>, usize, [bool; 2])>,
    turn: std::sync::Condvar,
}

impl Script {
    pub fn new(order: Vec<usize>) -> Self {
        Script {
            state: std::sync::Mutex::new((order, 0, [false; 2])),
            turn: std::sync::Condvar::new(),
        }
    }

    fn wait_for(&self, actor: usize) {
        let mut s = self.state.lock().unwrap();
        loop {
            let (order, pos, finished) = &mut *s;
            match order.get(*pos) {
                None => return,
                Some(&a) if a == actor => return,
                Some(&a) if finished[a] => *pos += 1,
                Some(_) => s = self.turn.wait(s).unwrap(),
            }
        }
    }

    fn done(&self, actor: usize) {
        let mut s = self.state.lock().unwrap();
        let (order, pos, _) = &mut *s;
        if order.get(*pos) == Some(&actor) {
            *pos += 1;
        }
        self.turn.notify_all();
    }

    /// Marks `actor` finished: its remaining turns are skipped.
    pub fn finish(&self, actor: usize) {
        self.state.lock().unwrap().2[actor] = true;
        self.turn.notify_all();
    }

    fn step<T>(&self, actor: usize, op: impl FnOnce() -> T) -> T {
        self.wait_for(actor);
        let out = op();
        self.done(actor);
        out
    }
}

/// A store whose every single-row operation and batch is one turn of `actor` in a [`Script`].
pub struct Scripted<'a, S> {
    pub inner: &'a S,
    pub actor: usize,
    pub script: &'a Script,
}

impl<S: Store> Store for Scripted<'_, S> {
    type Error = S::Error;
    type Scan<'b>
        = S::Scan<'b>
    where
        Self: 'b;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), S::Error> {
        self.script.step(self.actor, || self.inner.put(key, value))
    }
    fn get(&self, key: &[u8]) -> Result<Option<rowkey::bytes::Bytes>, S::Error> {
        self.script.step(self.actor, || self.inner.get(key))
    }
    fn delete(&self, key: &[u8]) -> Result<(), S::Error> {
        self.script.step(self.actor, || self.inner.delete(key))
    }
    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<S::Error>> {
        self.script
            .step(self.actor, || self.inner.write_batch(rows))
    }
    fn scan(&self, range: &KeyRange) -> Self::Scan<'_> {
        self.inner.scan(range)
    }
    fn scan_rev(&self, range: &KeyRange) -> Option<Self::Scan<'_>> {
        self.inner.scan_rev(range)
    }
}

/// What `check` reports of an entry without its record.
fn orphan(key: &UserApp) -> IndexReport<UserApp> {
    IndexReport {
        orphans: vec![key.clone()],
        missing: Vec::new(),
        entries: 1,
        records: 0,
    }
}

/// Every order of `a` turns of actor 0 and `b` turns of actor 1.
pub fn interleavings(a: usize, b: usize) -> Vec<Vec<usize>> {
    if a == 0 || b == 0 {
        return vec![[0].repeat(a).into_iter().chain([1].repeat(b)).collect()];
    }
    let mut out = Vec::new();
    for (first, (ra, rb)) in [(0, (a - 1, b)), (1, (a, b - 1))] {
        for mut rest in interleavings(ra, rb) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// `repair` racing a writer: an orphan entry is repaired while a writer puts its record,
/// the writer's operations (single or batch) placed at every point between repair's reads,
/// removal and restore. Whatever the order, a record that is stored has its entry; without a
/// writer, the orphan's entry is removed. `records` and `index` are shared and need not be
/// empty (keys from `base` up are used).
pub fn repair_races<S: Store + Sync>(records: &S, index: &S, base: u64, batch: bool) {
    let entries = rowkey::store::Table::<_, AppUser>::new(index);
    let plain = IndexedTable::<_, UserApp, AppUser>::new(records, index);
    // repair: get, delete, get, put (at most 4 turns); the writer: 3 turns (entry, record,
    // entry again).
    let orders = interleavings(4, 3);
    for (i, order) in orders.iter().enumerate() {
        let key = UserApp {
            user_id: base + i as u64,
            app_id: 3,
        };
        let entry = AppUser::from_record(&key);
        entries.put(&entry, &[]).unwrap();
        let report = orphan(&key);
        let script = Script::new(order.clone());
        let table = |actor| {
            IndexedTable::<_, UserApp, AppUser>::new(
                Scripted {
                    inner: records,
                    actor,
                    script: &script,
                },
                Scripted {
                    inner: index,
                    actor,
                    script: &script,
                },
            )
        };
        let (repairer, writer) = (table(0), table(1));
        std::thread::scope(|s| {
            s.spawn(|| {
                repairer.repair(&report).unwrap();
                script.finish(0);
            });
            s.spawn(|| {
                if batch {
                    writer.put_batch([(&key, b"w".as_slice())]).unwrap();
                } else {
                    writer.put(&key, b"w").unwrap();
                }
                script.finish(1);
            });
        });
        assert!(plain.get(&key).unwrap().is_some());
        assert!(
            entries.get(&entry).unwrap().is_some(),
            "order {order:?}: the record is stored without its index entry"
        );
    }
    // No writer: the orphan goes.
    let key = UserApp {
        user_id: base + orders.len() as u64,
        app_id: 3,
    };
    let entry = AppUser::from_record(&key);
    entries.put(&entry, &[]).unwrap();
    plain.repair(&orphan(&key)).unwrap();
    assert!(entries.get(&entry).unwrap().is_none());
}

/// Any async store whose next write fails when told to: [`Flaky`] for a tokio task.
#[cfg(feature = "async")]
pub struct AsyncFlaky<S> {
    pub inner: S,
    pub fail_next: std::sync::atomic::AtomicBool,
}

#[cfg(feature = "async")]
impl<S> AsyncFlaky<S> {
    pub fn new(inner: S) -> Self {
        AsyncFlaky {
            inner,
            fail_next: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Makes the next write fail.
    pub fn fail_next(&self) {
        self.fail_next
            .store(true, std::sync::atomic::Ordering::SeqCst);
    }

    fn failing(&self) -> bool {
        self.fail_next
            .swap(false, std::sync::atomic::Ordering::SeqCst)
    }
}

#[cfg(feature = "async")]
impl<S: rowkey::store::AsyncStore> rowkey::store::AsyncStore for AsyncFlaky<S> {
    type Error = FlakyError<S::Error>;

    async fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Self::Error> {
        if self.failing() {
            return Err(FlakyError::Injected);
        }
        self.inner.put(key, value).await.map_err(FlakyError::Store)
    }
    async fn get(&self, key: &[u8]) -> Result<Option<rowkey::bytes::Bytes>, Self::Error> {
        // Gets in flight together complete out of order, as a network store's do: each waits
        // 0 to 3 polls, by its key.
        let polls = key
            .iter()
            .fold(0u8, |h, b| h.wrapping_mul(31).wrapping_add(*b))
            % 4;
        Polls(polls).await;
        self.inner.get(key).await.map_err(FlakyError::Store)
    }
    async fn delete(&self, key: &[u8]) -> Result<(), Self::Error> {
        if self.failing() {
            return Err(FlakyError::Injected);
        }
        self.inner.delete(key).await.map_err(FlakyError::Store)
    }
    async fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<Self::Error>> {
        if self.failing() {
            return Err(BatchError {
                failed: rows.iter().map(|(k, _)| k.to_vec()).collect(),
                source: FlakyError::Injected,
            });
        }
        self.inner.write_batch(rows).await.map_err(|e| BatchError {
            failed: e.failed,
            source: FlakyError::Store(e.source),
        })
    }
    fn scan(&self, range: &KeyRange) -> rowkey::store::RowStream<Self::Error> {
        use futures_util::StreamExt;
        Box::pin(self.inner.scan(range).map(|r| r.map_err(FlakyError::Store)))
    }
    fn scan_rev(&self, range: &KeyRange) -> Option<rowkey::store::RowStream<Self::Error>> {
        use futures_util::StreamExt;
        Some(Box::pin(
            self.inner
                .scan_rev(range)?
                .map(|r| r.map_err(FlakyError::Store)),
        ))
    }
    // The index keeps no cells: these only pass the calls on.
    async fn write_rows(
        &self,
        rows: &[rowkey::store::RowWrite],
    ) -> Result<(), BatchError<Self::Error>> {
        self.inner.write_rows(rows).await.map_err(|e| BatchError {
            failed: e.failed,
            source: FlakyError::Store(e.source),
        })
    }
    async fn read_row(
        &self,
        key: &[u8],
        columns: &rowkey::store::Columns,
    ) -> Result<Option<rowkey::store::CellRow>, rowkey::store::CellError<Self::Error>> {
        self.inner.read_row(key, columns).await.map_err(cell_err)
    }
    async fn delete_row(&self, key: &[u8]) -> Result<(), rowkey::store::CellError<Self::Error>> {
        self.inner.delete_row(key).await.map_err(cell_err)
    }
    fn scan_rows(
        &self,
        range: &KeyRange,
        columns: &rowkey::store::Columns,
    ) -> rowkey::store::CellStream<Self::Error> {
        use futures_util::StreamExt;
        Box::pin(
            self.inner
                .scan_rows(range, columns)
                .map(|r| r.map_err(cell_err)),
        )
    }
    fn scan_rows_rev(
        &self,
        range: &KeyRange,
        columns: &rowkey::store::Columns,
    ) -> Option<rowkey::store::CellStream<Self::Error>> {
        use futures_util::StreamExt;
        Some(Box::pin(
            self.inner
                .scan_rows_rev(range, columns)?
                .map(|r| r.map_err(cell_err)),
        ))
    }
}

/// A future ready after its count of polls: it wakes itself each time.
#[cfg(feature = "async")]
struct Polls(u8);

#[cfg(feature = "async")]
impl std::future::Future for Polls {
    type Output = ();
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<()> {
        if self.0 == 0 {
            return std::task::Poll::Ready(());
        }
        self.0 -= 1;
        cx.waker().wake_by_ref();
        std::task::Poll::Pending
    }
}

/// A cell read's error with the store's own error wrapped.
#[cfg(feature = "async")]
fn cell_err<E>(e: rowkey::store::CellError<E>) -> rowkey::store::CellError<FlakyError<E>> {
    match e {
        rowkey::store::CellError::Store(e) => rowkey::store::CellError::Store(FlakyError::Store(e)),
        rowkey::store::CellError::Malformed(m) => rowkey::store::CellError::Malformed(m),
    }
}

/// [`exercise_index`] through [`AsyncIndexedTable`](rowkey::store::AsyncIndexedTable), from a
/// tokio task: the same model-checked run with failures injected into the first or the second
/// write of each pair, then `check`, `repair` and `rebuild_index`; and every read through the
/// index (its gets in flight together) in the index's order.
#[cfg(feature = "async")]
pub async fn exercise_index_async<S: rowkey::store::AsyncStore>(
    records: S,
    index: S,
    steps: usize,
) {
    use futures_util::StreamExt;
    use rowkey::store::AsyncIndexedTable;

    let t = AsyncIndexedTable::<_, UserApp, AppUser>::new(
        AsyncFlaky::new(records),
        AsyncFlaky::new(index),
    );
    let mut model = Model::new(0x2545_F491_4F6C_DD1D, 70, 6);
    // Enough records per application that a read keeps its 16 gets in flight.
    let first = model.first(300, 60, 5);
    t.put_batch(first.iter().map(|k| (k, b"v0".as_slice())))
        .await
        .unwrap();
    for n in 0..steps {
        let step = model.step(n);
        if let Some(store) = step.failing(t.records().store(), t.index().store()) {
            store.fail_next();
        }
        let result = if step.delete {
            t.delete(&step.key).await
        } else {
            t.put(&step.key, &step.value).await
        };
        model.apply(n, step, result);
        if Model::checks_after(n, steps) {
            for app_id in 0..model.apps {
                let got: Vec<(UserApp, Vec<u8>)> = t
                    .scan_by_index(&AppUser::scan().app_id(app_id).ranges())
                    .map(|r| r.map(|(k, v)| (k, v.to_vec())).unwrap())
                    .collect()
                    .await;
                assert_eq!(got, model.want(app_id), "app {app_id} after step {n}");
            }
        }
    }
    let report = t.check().await.unwrap();
    model.checked(&report);
    t.repair(&report).await.unwrap();
    model.repaired(&t.check().await.unwrap());
    assert_eq!(t.rebuild_index(64).await.unwrap(), model.stored.len());
    assert!(t.check().await.unwrap().is_clean());
    // The whole index in one read: every record once, in the index's order (application,
    // then user), whatever order the gets in flight complete in.
    let all: Vec<UserApp> = t
        .scan_by_index(&AppUser::scan().ranges())
        .map(|r| r.unwrap().0)
        .collect()
        .await;
    let mut want: Vec<UserApp> = model.stored.keys().cloned().collect();
    want.sort_by_key(|k| (k.app_id, k.user_id));
    assert_eq!(all, want, "a read of the whole index");
}
