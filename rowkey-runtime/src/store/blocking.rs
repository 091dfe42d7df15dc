//! [`Blocking`]: the blocking face of an [`AsyncStore`], in the manner of `reqwest::blocking`.
//!
//! The async store runs on a tokio runtime that lives on a thread of its own; a blocking call
//! hands its work to that runtime and parks the calling thread until the answer comes. The
//! caller's thread never enters, blocks on or drops a runtime, so a `Blocking` store can be
//! created, used and dropped anywhere: in `main`, inside `#[tokio::main]`, inside
//! `spawn_blocking`. (Called from an async task it still blocks that task's thread, as any
//! blocking call does; async code should use the async store directly.)

use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::Thread;

use bytes::Bytes;
use futures_util::StreamExt;
use tokio::runtime::Handle;

use super::{
    AsyncStore, BatchError, CellError, CellRow, CellScan, Columns, Row, RowStream, RowWrite, Store,
};
use crate::scan::pushdown::KeyFilter;
use crate::scan::KeyRange;

/// A blocking [`Store`] over an [`AsyncStore`] running on a runtime thread of its own.
pub struct Blocking<S> {
    store: Arc<S>,
    runtime: Arc<RuntimeThread>,
}

impl<S> Clone for Blocking<S> {
    fn clone(&self) -> Self {
        Blocking {
            store: Arc::clone(&self.store),
            runtime: Arc::clone(&self.runtime),
        }
    }
}

/// The runtime thread: it owns the runtime, and drops it (on itself) when the last handle goes.
struct RuntimeThread {
    handle: Handle,
    // Dropping the sender ends the thread's wait; the runtime is then dropped there.
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl RuntimeThread {
    fn start() -> std::io::Result<RuntimeThread> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("rowkey-store".into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .thread_name("rowkey-store-worker")
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
                if tx.send(Ok((rt.handle().clone(), stop))).is_err() {
                    return;
                }
                rt.block_on(async {
                    let _ = stopped.await;
                });
                // Tasks still running (a scan nobody reads) are cancelled, not awaited.
                rt.shutdown_background();
            })?;
        let (handle, stop) = rx
            .recv()
            .map_err(|_| std::io::Error::other("the store's runtime thread did not start"))??;
        Ok(RuntimeThread {
            handle,
            _stop: stop,
        })
    }
}

impl<S: AsyncStore> Blocking<S> {
    /// Starts a runtime thread and opens the store on it with `open` (an async constructor such
    /// as `AsyncBigtableStore::connect`).
    pub fn open<F, Fut>(open: F) -> Result<Self, S::Error>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<S, S::Error>> + Send + 'static,
        S::Error: From<std::io::Error>,
    {
        let runtime = Arc::new(RuntimeThread::start()?);
        let store = run(&runtime.handle, open())??;
        Ok(Blocking {
            store: Arc::new(store),
            runtime,
        })
    }

    /// The async store underneath, for calls the blocking face does not have.
    pub fn inner(&self) -> &Arc<S> {
        &self.store
    }

    /// Runs `f(store)` on the store's runtime and waits for it.
    pub fn call<T, F, Fut>(&self, f: F) -> Result<T, S::Error>
    where
        F: FnOnce(Arc<S>) -> Fut,
        Fut: Future<Output = Result<T, S::Error>> + Send + 'static,
        T: Send + 'static,
        S::Error: From<std::io::Error>,
    {
        run(&self.runtime.handle, f(Arc::clone(&self.store)))?
    }
}

/// Spawns `fut` on `handle` and parks this thread until it is done.
fn run<T: Send + 'static>(
    handle: &Handle,
    fut: impl Future<Output = T> + Send + 'static,
) -> std::io::Result<T> {
    match block_on(handle.spawn(fut)) {
        Ok(v) => Ok(v),
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(_) => Err(std::io::Error::other("the store's runtime stopped")),
    }
}

/// Wakes a parked thread.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Polls `fut` to completion on this thread, parking between polls. Unlike a runtime's
/// `block_on`, it works (and does not panic) inside another runtime's context: the work it
/// waits for runs elsewhere.
pub(crate) fn block_on<F: Future>(fut: F) -> F::Output {
    let mut fut = std::pin::pin!(fut);
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(v) = fut.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::park();
    }
}

/// A blocking scan: the async store's row stream, polled from the caller's thread.
pub struct BlockingScan<E> {
    stream: RowStream<E>,
    handle: Handle,
}

impl<E> Iterator for BlockingScan<E> {
    type Item = Result<Row, E>;

    fn next(&mut self) -> Option<Self::Item> {
        // Entering the store's runtime lets a stream use its timers; entering never blocks.
        let _guard = self.handle.enter();
        block_on(self.stream.next())
    }
}

impl<E> BlockingScan<E> {
    fn pinned(stream: RowStream<E>, handle: &Handle) -> Self {
        BlockingScan {
            stream,
            handle: handle.clone(),
        }
    }
}

impl<S> Store for Blocking<S>
where
    S: AsyncStore,
    S::Error: From<std::io::Error>,
{
    type Error = S::Error;
    type Scan<'a> = BlockingScan<S::Error>;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), S::Error> {
        let (key, value) = (key.to_vec(), value.to_vec());
        self.call(|s| async move { s.put(&key, &value).await })
    }

    fn get(&self, key: &[u8]) -> Result<Option<Bytes>, S::Error> {
        let key = key.to_vec();
        self.call(|s| async move { s.get(&key).await })
    }

    fn delete(&self, key: &[u8]) -> Result<(), S::Error> {
        let key = key.to_vec();
        self.call(|s| async move { s.delete(&key).await })
    }

    fn write_batch(&self, rows: &[Row]) -> Result<(), BatchError<S::Error>> {
        let owned = rows.to_vec();
        let store = Arc::clone(&self.store);
        match run(&self.runtime.handle, async move {
            store.write_batch(&owned).await
        }) {
            Ok(result) => result,
            // The runtime is gone: nothing is known to be written.
            Err(e) => Err(BatchError {
                failed: rows.iter().map(|(k, _)| k.to_vec()).collect(),
                source: e.into(),
            }),
        }
    }

    /// The async store's own load path ([`AsyncStore::load`](super::AsyncStore::load)), not a
    /// plain batch write.
    fn load(&self, rows: Vec<Row>) -> Result<(), BatchError<S::Error>> {
        let keys: Vec<Vec<u8>> = rows.iter().map(|(k, _)| k.to_vec()).collect();
        let store = Arc::clone(&self.store);
        match run(&self.runtime.handle, async move { store.load(rows).await }) {
            Ok(result) => result,
            // The runtime is gone: nothing is known to be written.
            Err(e) => Err(BatchError {
                failed: keys,
                source: e.into(),
            }),
        }
    }

    fn scan(&self, range: &KeyRange) -> BlockingScan<S::Error> {
        let _guard = self.runtime.handle.enter();
        BlockingScan::pinned(self.store.scan(range), &self.runtime.handle)
    }

    fn scan_rev(&self, range: &KeyRange) -> Option<BlockingScan<S::Error>> {
        let _guard = self.runtime.handle.enter();
        let stream = self.store.scan_rev(range)?;
        Some(BlockingScan::pinned(stream, &self.runtime.handle))
    }

    fn scan_filtered(
        &self,
        range: &KeyRange,
        filter: &KeyFilter,
        reverse: bool,
    ) -> Option<BlockingScan<S::Error>> {
        let _guard = self.runtime.handle.enter();
        let stream = self.store.scan_filtered(range, filter, reverse)?;
        Some(BlockingScan::pinned(stream, &self.runtime.handle))
    }

    fn write_rows(&self, rows: &[RowWrite]) -> Result<(), BatchError<S::Error>> {
        let owned = rows.to_vec();
        let store = Arc::clone(&self.store);
        match run(&self.runtime.handle, async move {
            store.write_rows(&owned).await
        }) {
            Ok(result) => result,
            Err(e) => Err(BatchError {
                failed: rows.iter().map(|r| r.key.clone()).collect(),
                source: e.into(),
            }),
        }
    }

    fn read_row(
        &self,
        key: &[u8],
        columns: &Columns,
    ) -> Result<Option<CellRow>, CellError<S::Error>> {
        let (key, columns) = (key.to_vec(), columns.clone());
        let store = Arc::clone(&self.store);
        run(&self.runtime.handle, async move {
            store.read_row(&key, &columns).await
        })
        .unwrap_or_else(|e| Err(CellError::Store(e.into())))
    }

    fn delete_row(&self, key: &[u8]) -> Result<(), CellError<S::Error>> {
        let key = key.to_vec();
        let store = Arc::clone(&self.store);
        run(
            &self.runtime.handle,
            async move { store.delete_row(&key).await },
        )
        .unwrap_or_else(|e| Err(CellError::Store(e.into())))
    }

    fn scan_keys(&self, range: &KeyRange) -> super::KeyScan<'_, S::Error> {
        let _guard = self.runtime.handle.enter();
        Box::new(BlockingStream {
            stream: self.store.scan_keys(range),
            handle: self.runtime.handle.clone(),
        })
    }

    fn scan_rows(&self, range: &KeyRange, columns: &Columns) -> CellScan<'_, S::Error> {
        let _guard = self.runtime.handle.enter();
        Box::new(BlockingStream {
            stream: self.store.scan_rows(range, columns),
            handle: self.runtime.handle.clone(),
        })
    }

    fn scan_rows_rev(&self, range: &KeyRange, columns: &Columns) -> Option<CellScan<'_, S::Error>> {
        let _guard = self.runtime.handle.enter();
        Some(Box::new(BlockingStream {
            stream: self.store.scan_rows_rev(range, columns)?,
            handle: self.runtime.handle.clone(),
        }))
    }
}

/// Any boxed stream polled from the caller's thread (cell scans).
struct BlockingStream<T> {
    stream: std::pin::Pin<Box<dyn futures_util::Stream<Item = T> + Send>>,
    handle: Handle,
}

impl<T> Iterator for BlockingStream<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let _guard = self.handle.enter();
        block_on(self.stream.next())
    }
}
