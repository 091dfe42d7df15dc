//! Retries and deadlines, written once for every networked store: how many attempts, how long
//! each may take, and the backoff between them.

use std::time::Duration;

/// How a networked store retries transient failures, and how long each attempt may take.
///
/// An operation against a server that never answers fails after at most
/// `max_attempts * (attempt_timeout + max_backoff)`: with the defaults, 3 attempts of 10 s
/// and at most 1 s between them, 32 s. Only failures that are safe to repeat are retried:
/// reads (they resume after the last row delivered) and idempotent writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (at least 1).
    pub max_attempts: u32,
    /// The pause before the first retry; it doubles after each one.
    pub initial_backoff: Duration,
    /// The longest pause between attempts.
    pub max_backoff: Duration,
    /// The deadline of one attempt (one request, a batch's round of requests, or one page of a
    /// scan). On the native HBase store every step of an attempt shares it: the lookup in
    /// `hbase:meta`, a new connection (its own `connect_timeout` too) and the call end by then.
    pub attempt_timeout: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_secs(1),
            attempt_timeout: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    /// One attempt only, with the given deadline.
    pub fn no_retries(attempt_timeout: Duration) -> Self {
        RetryPolicy {
            max_attempts: 1,
            attempt_timeout,
            ..RetryPolicy::default()
        }
    }

    /// The pause before retry number `retry` (1 for the first retry): exponential, capped,
    /// with up to half of it taken off at random so that clients cut off together do not come
    /// back together.
    pub fn backoff(&self, retry: u32) -> Duration {
        let exp = self
            .initial_backoff
            .saturating_mul(1u32 << retry.saturating_sub(1).min(20));
        let capped = exp.min(self.max_backoff);
        let nanos = u64::try_from(capped.as_nanos()).unwrap_or(u64::MAX);
        let jitter = if nanos < 2 { 0 } else { noise() % (nanos / 2) };
        Duration::from_nanos(nanos - jitter)
    }

    /// Whether another attempt follows attempt number `attempt` (1-based).
    pub(crate) fn retries_after(&self, attempt: u32) -> bool {
        attempt < self.max_attempts.max(1)
    }
}

/// Runs `attempt` under `policy`: each try within its deadline (`timeout` makes the error of
/// one that passes it), transient failures (`transient`) tried again after a backoff while
/// attempts remain. Written once for every networked store.
///
/// Traced (target `rowkey::store`): each retry is a `warn` event with the operation `op`, the
/// attempt that failed, the backoff and the cause; a transient failure that exhausts the
/// attempts is a `warn` event too, and any other failure a `debug` one (the caller gets the
/// error either way).
#[cfg_attr(not(any(feature = "bigtable", feature = "hbase")), allow(dead_code))]
pub(crate) async fn run<T, E, F, Fut>(
    meter: &super::metrics::Meter,
    op: &'static str,
    policy: &RetryPolicy,
    transient: impl Fn(&E) -> bool,
    timeout: impl Fn(Duration) -> E,
    mut attempt: F,
) -> Result<T, E>
where
    E: std::fmt::Display,
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, E>>,
{
    let started = std::time::Instant::now();
    let result = retried(meter, op, policy, transient, timeout, &mut attempt).await;
    meter.finished(op, started, result.is_ok());
    result
}

async fn retried<T, E, F, Fut>(
    meter: &super::metrics::Meter,
    op: &'static str,
    policy: &RetryPolicy,
    transient: impl Fn(&E) -> bool,
    timeout: impl Fn(Duration) -> E,
    attempt: &mut F,
) -> Result<T, E>
where
    E: std::fmt::Display,
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, E>>,
{
    let mut n = 1;
    loop {
        let (result, timed_out) =
            match tokio::time::timeout(policy.attempt_timeout, attempt()).await {
                Ok(r) => (r, false),
                Err(_) => (Err(timeout(policy.attempt_timeout)), true),
            };
        match result {
            Err(e) if transient(&e) && policy.retries_after(n) => {
                meter.retry(if timed_out { "timeout" } else { "transient" });
                let backoff = policy.backoff(n);
                tracing::warn!(
                    target: "rowkey::store",
                    op,
                    attempt = n,
                    backoff_ms = u64::try_from(backoff.as_millis()).unwrap_or(u64::MAX),
                    error = %e,
                    "transient failure, retrying"
                );
                tokio::time::sleep(backoff).await;
                n += 1;
            }
            Err(e) => {
                if transient(&e) {
                    tracing::warn!(target: "rowkey::store", op, attempts = n, error = %e, "giving up");
                } else {
                    tracing::debug!(target: "rowkey::store", op, attempt = n, error = %e, "failed");
                }
                return Err(e);
            }
            ok => return ok,
        }
    }
}

/// A few bits of noise for jitter (no random-number crate for this).
fn noise() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::{Arc, Mutex};

    /// A subscriber that keeps every event's fields as text.
    #[derive(Clone, Default)]
    struct Collect(Arc<Mutex<Vec<String>>>);

    struct Fields(String);

    impl tracing::field::Visit for Fields {
        fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
            self.0.push_str(&format!("{}={:?} ", field.name(), value));
        }
    }

    impl tracing::Subscriber for Collect {
        fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
            tracing::span::Id::from_u64(1)
        }
        fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
        fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
        fn event(&self, event: &tracing::Event<'_>) {
            let mut f = Fields(format!(
                "{} {} ",
                event.metadata().level(),
                event.metadata().target()
            ));
            event.record(&mut f);
            self.0.lock().unwrap().push(f.0);
        }
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
    }

    #[tokio::test(flavor = "current_thread")]
    async fn retries_are_traced_with_their_cause() {
        let events = Collect::default();
        let _guard = tracing::subscriber::set_default(events.clone());
        let policy = RetryPolicy {
            max_attempts: 3,
            initial_backoff: Duration::from_millis(1),
            ..RetryPolicy::default()
        };
        let mut tries = 0;
        let out: Result<u32, String> = run(
            &crate::store::net::metrics::Meter::new("test", "t"),
            "test op",
            &policy,
            |_| true,
            |_| "timeout".to_string(),
            || {
                tries += 1;
                let n = tries;
                async move {
                    if n < 3 {
                        Err(format!("boom {n}"))
                    } else {
                        Ok(n)
                    }
                }
            },
        )
        .await;
        assert_eq!(out, Ok(3));
        let seen = events.0.lock().unwrap().clone();
        assert_eq!(seen.len(), 2, "{seen:?}");
        for (i, e) in seen.iter().enumerate() {
            assert!(e.starts_with("WARN rowkey::store"), "{e}");
            assert!(e.contains("op=\"test op\""), "{e}");
            assert!(e.contains(&format!("attempt={}", i + 1)), "{e}");
            assert!(e.contains(&format!("error=boom {}", i + 1)), "{e}");
        }
        // Exhausted: a last event says so.
        events.0.lock().unwrap().clear();
        let out: Result<u32, String> = run(
            &crate::store::net::metrics::Meter::new("test", "t"),
            "test op",
            &policy,
            |_| true,
            |_| "timeout".to_string(),
            || async { Err("down".to_string()) },
        )
        .await;
        assert!(out.is_err());
        let seen = events.0.lock().unwrap().clone();
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert!(
            seen[2].contains("giving up") && seen[2].contains("attempts=3"),
            "{seen:?}"
        );
    }

    #[test]
    fn backoff_grows_and_is_capped() {
        let p = RetryPolicy {
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(300),
            ..RetryPolicy::default()
        };
        for _ in 0..50 {
            let b1 = p.backoff(1);
            assert!(b1 > Duration::from_millis(50) && b1 <= Duration::from_millis(100));
            let b2 = p.backoff(2);
            assert!(b2 > Duration::from_millis(100) && b2 <= Duration::from_millis(200));
            assert!(p.backoff(30) <= Duration::from_millis(300));
        }
        assert!(p.retries_after(2) && !p.retries_after(3));
        assert!(!RetryPolicy::no_retries(Duration::from_secs(1)).retries_after(1));
    }
}
