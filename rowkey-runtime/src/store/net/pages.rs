//! Paged scans, shared by the networked stores: a task reads a range page by page and hands
//! each page over whole through a one-slot channel, so a range holds at most three pages in
//! memory (the one being read, the one in the channel, the one being consumed) whatever the
//! consumer's pace; dropping the stream stops the task at once.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::Stream;
use tokio::sync::mpsc;

/// Rows in the first page of a range. Servers read a page ahead of the consumer (a scanner's
/// caching, a ReadRows `rows_limit`), and the next page is requested while the consumer works
/// through one, so a read that wants the first few rows (the latest 10 events) would cost the
/// servers two whole pages; pages start small and grow (see [`grow`]) as a range proves long.
pub(crate) const FIRST_PAGE_ROWS: usize = 128;

/// Waits until the consumer has worked through the pages sent so far and asks for more; `false`
/// when the stream is gone. An empty page marks the point (the stream skips it): it enters the
/// slot once the consumer has taken the last page, and leaves it once the consumer has read
/// that page to its end. The HBase stores wait so after a range's first page, so that a read
/// wanting only the first rows (the latest 10 events) costs the region servers one small page
/// rather than two; a long scan loses one round trip per range.
#[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
pub(crate) async fn demand<T, E>(tx: &mpsc::Sender<Page<T, E>>) -> bool {
    tx.send(Ok(Vec::new())).await.is_ok() && tx.reserve().await.is_ok()
}

/// The size of the page after one of `rows`: four times larger, up to `full`.
pub(crate) fn grow(rows: usize, full: usize) -> usize {
    rows.saturating_mul(4).min(full.max(1))
}

/// One page of a scan (rows, or rows of cells), or the error that ended it.
pub(crate) type Page<T, E> = Result<Vec<T>, E>;

/// The stream of a paged scan's rows.
pub(crate) type PagedStream<T, E> = Pin<Box<dyn Stream<Item = Result<T, E>> + Send + 'static>>;

/// Runs `read` on `handle` with the sending side of a one-slot page channel; the stream hands
/// out the pages' rows in order, then the error that ended them, if any.
pub(crate) fn spawn<T, E, F, Fut>(handle: &tokio::runtime::Handle, read: F) -> PagedStream<T, E>
where
    T: Send + 'static,
    E: Send + 'static,
    F: FnOnce(mpsc::Sender<Page<T, E>>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<Page<T, E>>(1);
    let task = handle.spawn(read(tx));
    Box::pin(PageStream {
        rx,
        page: Vec::new().into_iter(),
        task,
    })
}

/// The consumer's side: the page in hand, and the channel the next one comes through.
struct PageStream<T, E> {
    rx: mpsc::Receiver<Page<T, E>>,
    page: std::vec::IntoIter<T>,
    task: tokio::task::JoinHandle<()>,
}

// Nothing in it is pinned: the rows are owned values moved out of a vector.
impl<T, E> Unpin for PageStream<T, E> {}

impl<T, E> Drop for PageStream<T, E> {
    fn drop(&mut self) {
        // A scan dropped half way stops reading at once.
        self.task.abort();
    }
}

impl<T, E> Stream for PageStream<T, E> {
    type Item = Result<T, E>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(row) = this.page.next() {
                return Poll::Ready(Some(Ok(row)));
            }
            match this.rx.poll_recv(cx) {
                Poll::Ready(Some(Ok(page))) => this.page = page.into_iter(),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}
