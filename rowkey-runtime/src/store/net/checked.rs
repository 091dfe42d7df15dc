//! [`CheckedOnce`]: a check a networked store runs once (that its table and column family
//! exist), written once for every store. The first caller runs it; callers that arrive while it
//! runs wait for its outcome instead of queueing checks of their own (the 16 buckets of a scan
//! share one), and a failure is handed to everyone for a second before the check runs again.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a failed check's error is reused before the check runs again.
const REUSE_FAILURE: Duration = Duration::from_secs(1);

pub(crate) struct CheckedOnce<E> {
    ok: AtomicBool,
    /// The check in progress, and the last failure with when it happened.
    failed: tokio::sync::Mutex<Option<(Instant, E)>>,
}

impl<E: Clone> CheckedOnce<E> {
    pub(crate) fn new() -> Self {
        CheckedOnce {
            ok: AtomicBool::new(false),
            failed: tokio::sync::Mutex::new(None),
        }
    }

    /// `Ok` once `check` has passed (after that without running it again); otherwise runs it,
    /// or reuses a failure less than a second old.
    pub(crate) async fn ensure<F: Future<Output = Result<(), E>>>(
        &self,
        check: impl FnOnce() -> F,
    ) -> Result<(), E> {
        if self.ok.load(Ordering::Acquire) {
            return Ok(());
        }
        let mut failed = self.failed.lock().await;
        if self.ok.load(Ordering::Acquire) {
            return Ok(());
        }
        if let Some((at, e)) = failed.as_ref() {
            if at.elapsed() < REUSE_FAILURE {
                return Err(e.clone());
            }
        }
        match check().await {
            Ok(()) => {
                self.ok.store(true, Ordering::Release);
                *failed = None;
                Ok(())
            }
            Err(e) => {
                *failed = Some((Instant::now(), e.clone()));
                Err(e)
            }
        }
    }

    /// Forgets a passed check (the table was dropped): the next call runs it again.
    #[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
    pub(crate) fn reset(&self) {
        self.ok.store(false, Ordering::Release);
    }
}
