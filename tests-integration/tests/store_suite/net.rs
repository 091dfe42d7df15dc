//! What the networked stores' tests share: the README's salted key and its rows, a server
//! that never answers, a TCP proxy whose connections can be cut, and peak-memory readings.
#![allow(dead_code)] // each test binary uses part of it

use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rowkey::RowKey;

pub fn unique(name: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    format!(
        "{name}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// The README's key: 16 salt buckets.
#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Event {
    #[salt(buckets = 16)]
    pub user_id: u64,
    #[fixed(8)]
    pub kind: String,
    #[reverse_ts]
    pub ts: u64,
}

pub fn logical(e: &Event) -> (u64, Vec<u8>, std::cmp::Reverse<u64>) {
    (
        e.user_id,
        e.kind.as_bytes().to_vec(),
        std::cmp::Reverse(e.ts),
    )
}

pub fn events(n: usize) -> Vec<Event> {
    (0..n as u64)
        .map(|i| Event {
            user_id: i % 5_003,
            kind: ["click", "view", "buy"][(i % 3) as usize].into(),
            ts: 1_700_000_000_000 + i * 7,
        })
        .collect()
}

pub fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

/// A server that accepts connections and never answers.
pub fn black_hole() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for conn in listener.incoming() {
            held.push(conn);
        }
    });
    addr
}

/// A store pointed at [`black_hole`] with a deadline of 500 ms an attempt and two attempts:
/// creating its table, a get and a 16-bucket scan each fail within 4 s with an error
/// `transient` calls so (each store's error has its own `is_transient`).
pub fn unresponsive<S: rowkey::store::Store>(
    store: S,
    create_table: impl FnOnce(&S) -> Result<(), S::Error>,
    transient: impl Fn(&S::Error) -> bool,
) where
    S::Error: std::fmt::Debug,
{
    let bound = Duration::from_secs(4);
    let t = std::time::Instant::now();
    let err = create_table(&store).unwrap_err();
    assert!(t.elapsed() < bound, "create_table took {:?}", t.elapsed());
    assert!(transient(&err), "{err}");
    let t = std::time::Instant::now();
    let err = store.get(b"k").unwrap_err();
    assert!(t.elapsed() < bound, "get took {:?}", t.elapsed());
    eprintln!("an unresponsive server: {err}");
    let t = std::time::Instant::now();
    let table = rowkey::store::Table::<_, Event>::new(store);
    let first = table.scan(&Event::scan().ranges()).next();
    assert!(
        matches!(first, Some(Err(rowkey::store::TableError::Store(ref e))) if transient(e)),
        "{first:?}"
    );
    assert!(
        t.elapsed() < bound,
        "a 16-bucket scan took {:?} to fail",
        t.elapsed()
    );
}

/// The retry policy [`unresponsive`] expects: two attempts of at most 500 ms.
#[cfg(any(feature = "bigtable", feature = "hbase", feature = "hbase-rpc"))]
pub fn unresponsive_policy() -> rowkey::store::RetryPolicy {
    rowkey::store::RetryPolicy {
        max_attempts: 2,
        attempt_timeout: Duration::from_millis(500),
        ..rowkey::store::RetryPolicy::default()
    }
}

/// A TCP proxy to `target` whose connections can be cut: each connection forwards until `cut`
/// is set, then both directions close; while `stall` is set nothing passes and nothing closes
/// (a server that stopped answering). While `record` is set, the bytes it forwards either way
/// are kept in `seen` (the first 64 MiB), to check what crosses the wire.
pub struct Proxy {
    pub addr: String,
    pub cut: Arc<AtomicBool>,
    pub stall: Arc<AtomicBool>,
    pub forwarded: Arc<AtomicUsize>,
    pub record: Arc<AtomicBool>,
    pub seen: Arc<std::sync::Mutex<Vec<u8>>>,
    /// Milliseconds each chunk from the server waits before it is forwarded (0: none): a
    /// server that answers late, every reply.
    pub slow: Arc<AtomicU64>,
}

pub fn proxy(target: &str) -> Proxy {
    proxy_with(target, &Proxy::switches())
}

impl Proxy {
    /// Switches not yet attached to a listener: proxies made `proxy_with` them are cut,
    /// stalled and counted together.
    pub fn switches() -> Proxy {
        Proxy {
            addr: String::new(),
            cut: Arc::new(AtomicBool::new(false)),
            stall: Arc::new(AtomicBool::new(false)),
            forwarded: Arc::new(AtomicUsize::new(0)),
            record: Arc::new(AtomicBool::new(false)),
            seen: Arc::default(),
            slow: Arc::default(),
        }
    }

    /// The same switches, counter and record, again (for a second owner).
    pub fn share(&self) -> Proxy {
        Proxy {
            addr: self.addr.clone(),
            cut: Arc::clone(&self.cut),
            stall: Arc::clone(&self.stall),
            forwarded: Arc::clone(&self.forwarded),
            record: Arc::clone(&self.record),
            seen: Arc::clone(&self.seen),
            slow: Arc::clone(&self.slow),
        }
    }
}

/// An address map (for `HbaseRpcConfig::address_map`) that sends each advertised server
/// through a proxy of its own, made at its first use, all driven by `switches`.
pub fn proxy_map(switches: Proxy) -> impl Fn(&str) -> String + Send + Sync + 'static {
    let made: std::sync::Mutex<std::collections::HashMap<String, String>> = Default::default();
    move |advertised| {
        let mut made = made.lock().unwrap();
        made.entry(advertised.to_string())
            .or_insert_with(|| proxy_with(advertised, &switches).addr)
            .clone()
    }
}

/// A proxy to `target` driven by `switches`' flags and counter.
pub fn proxy_with(target: &str, switches: &Proxy) -> Proxy {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let cut = Arc::clone(&switches.cut);
    let stall = Arc::clone(&switches.stall);
    let forwarded = Arc::clone(&switches.forwarded);
    let (record, seen) = (Arc::clone(&switches.record), Arc::clone(&switches.seen));
    let target = target.to_string();
    let (c, st, f) = (Arc::clone(&cut), Arc::clone(&stall), Arc::clone(&forwarded));
    let (rec, sn) = (Arc::clone(&record), Arc::clone(&seen));
    let slow = Arc::clone(&switches.slow);
    let sl = Arc::clone(&slow);
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(client) = conn else { continue };
            if c.load(Ordering::SeqCst) {
                continue; // refused while cut: dropped at once
            }
            let Ok(server) = std::net::TcpStream::connect(&target) else {
                continue;
            };
            for (from_server, (mut from, mut to)) in [
                (client.try_clone().unwrap(), server.try_clone().unwrap()),
                (server, client),
            ]
            .into_iter()
            .enumerate()
            .map(|(i, pair)| (i == 1, pair))
            {
                let (c, st, f) = (Arc::clone(&c), Arc::clone(&st), Arc::clone(&f));
                let (rec, sn) = (Arc::clone(&rec), Arc::clone(&sn));
                let sl = Arc::clone(&sl);
                std::thread::spawn(move || {
                    use std::io::{Read, Write};
                    from.set_read_timeout(Some(Duration::from_millis(20)))
                        .unwrap();
                    let mut buf = [0u8; 16 * 1024];
                    loop {
                        if c.load(Ordering::SeqCst) {
                            break;
                        }
                        if st.load(Ordering::SeqCst) {
                            std::thread::sleep(Duration::from_millis(10));
                            continue;
                        }
                        match from.read(&mut buf) {
                            Ok(0) => break,
                            Ok(k) => {
                                let late = sl.load(Ordering::SeqCst);
                                if from_server && late > 0 {
                                    std::thread::sleep(Duration::from_millis(late));
                                }
                                f.fetch_add(k, Ordering::SeqCst);
                                if rec.load(Ordering::SeqCst) {
                                    let mut seen = sn.lock().unwrap();
                                    if seen.len() < 64 << 20 {
                                        seen.extend_from_slice(&buf[..k]);
                                    }
                                }
                                if to.write_all(&buf[..k]).is_err() {
                                    break;
                                }
                            }
                            Err(e)
                                if e.kind() == std::io::ErrorKind::WouldBlock
                                    || e.kind() == std::io::ErrorKind::TimedOut => {}
                            Err(_) => break,
                        }
                    }
                    let _ = from.shutdown(std::net::Shutdown::Both);
                    let _ = to.shutdown(std::net::Shutdown::Both);
                });
            }
        }
    });
    Proxy {
        addr,
        cut,
        stall,
        forwarded,
        record,
        seen,
        slow,
    }
}

/// Rows `row00000000`.. with 64-byte values.
pub fn numbered_rows(n: u32, fill: u8) -> Vec<rowkey::store::Row> {
    (0..n)
        .map(|i| (format!("row{i:08}").into(), vec![fill; 64].into()))
        .collect()
}

/// Cuts the proxy's connections once `bytes` have gone through, and restores it after
/// `restore` when given. Joining the thread fails the test when that many bytes did not go
/// through within five minutes (a test waiting on a cut that never comes would hang).
pub fn cut_after(
    p: &Proxy,
    bytes: usize,
    restore: Option<Duration>,
) -> std::thread::JoinHandle<()> {
    let forwarded = Arc::clone(&p.forwarded);
    let cutter = cut_within(p, bytes, restore, Some(Duration::from_secs(300)));
    std::thread::spawn(move || {
        assert!(
            cutter.join().unwrap(),
            "the proxy was never cut: {} of the {bytes} bytes it waited for went through in 300 s",
            forwarded.load(Ordering::SeqCst)
        );
    })
}

/// [`cut_after`], giving up when `bytes` have not gone through by `deadline` (from now); the
/// thread's result says whether it cut.
pub fn cut_within(
    p: &Proxy,
    bytes: usize,
    restore: Option<Duration>,
    deadline: Option<Duration>,
) -> std::thread::JoinHandle<bool> {
    let (cut, forwarded) = (Arc::clone(&p.cut), Arc::clone(&p.forwarded));
    std::thread::spawn(move || {
        let deadline = deadline.map(|d| std::time::Instant::now() + d);
        while forwarded.load(Ordering::SeqCst) < bytes {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        cut.store(true, Ordering::SeqCst);
        if let Some(after) = restore {
            std::thread::sleep(after);
            cut.store(false, Ordering::SeqCst);
        }
        true
    })
}

/// Writes `rows` to a salted table in one `put_batch`, then checks a merged scan with a consumer
/// that pauses every 5,000 rows, a merged reverse scan, an unordered scan with a slow first
/// stretch, a fanned-out window and one user's rows in reverse, each against the brute-force
/// list, and that the scans leave peak memory bounded; prints the rates under `label`.
/// Held by the tests that move hundreds of thousands of rows: the peak-memory check measures the
/// whole process, so no other large test may run beside it.
pub static LARGE: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub fn large_salted_scan<S: rowkey::store::Store>(
    table: &rowkey::store::Table<S, Event>,
    rows: &[Event],
    value: &[u8],
    label: &str,
) where
    S::Error: 'static,
{
    use std::collections::BTreeSet;
    use std::time::Instant;
    let _alone = LARGE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let n = rows.len();
    let t = Instant::now();
    table.put_batch(rows.iter().map(|e| (e, value))).unwrap();
    let put_secs = t.elapsed().as_secs_f64();

    let mut want = rows.to_vec();
    want.sort_by_key(logical);
    let rss_before = peak_rss_mib();

    // Merged, with a consumer that pauses every 5,000 rows (the buckets' readers must wait for
    // it without the connection failing) and checks order and values as it goes.
    let t = Instant::now();
    let mut got = 0usize;
    for (i, row) in table.scan(&Event::scan().ranges()).enumerate() {
        let (key, v) = row.unwrap();
        assert_eq!(key, want[i], "row {i} of the merged scan");
        assert_eq!(v, value);
        if i % 5_000 == 0 {
            std::thread::sleep(Duration::from_millis(20));
        }
        got += 1;
    }
    let scan_secs = t.elapsed().as_secs_f64();
    assert_eq!(got, n, "the merged scan returns every row");

    let t = Instant::now();
    let mut back = 0usize;
    for (i, row) in table.scan_rev(&Event::scan().ranges()).unwrap().enumerate() {
        assert_eq!(
            row.unwrap().0,
            want[n - 1 - i],
            "row {i} of the reverse scan"
        );
        back += 1;
    }
    let rev_secs = t.elapsed().as_secs_f64();
    assert_eq!(back, n);

    // Unordered, with a consumer that spends time on every row of the first buckets (the
    // other buckets' readers wait, holding at most a few pages each).
    let mut seen = BTreeSet::new();
    for (i, row) in table.scan_unordered(&Event::scan().ranges()).enumerate() {
        if i < 20_000 {
            std::thread::sleep(Duration::from_micros(20));
        }
        assert!(seen.insert(row.unwrap().0));
    }
    assert_eq!(seen.len(), n);

    // A narrower window fanned out over the buckets: exactly the brute-force set.
    let ranges = Event::scan().user_id(100..200).ranges();
    let got: Vec<Event> = table.scan(&ranges).map(|r| r.unwrap().0).collect();
    let expect: Vec<Event> = want
        .iter()
        .filter(|e| (100..200).contains(&e.user_id))
        .cloned()
        .collect();
    assert_eq!(got, expect);
    // One user's rows in reverse.
    let one = Event::scan().user_id(42).ranges();
    let back: Vec<Event> = table
        .scan_rev(&one)
        .unwrap()
        .map(|r| r.unwrap().0)
        .collect();
    let mut expect: Vec<Event> = want.iter().filter(|e| e.user_id == 42).cloned().collect();
    expect.reverse();
    assert_eq!(back, expect);

    eprintln!(
        "{label}, {n} rows: put {:.0} rows/s; merged scan {:.0} rows/s (slow consumer), \
         reverse {:.0} rows/s; peak RSS {:.0} MiB before the scans, {:.0} after",
        n as f64 / put_secs,
        n as f64 / scan_secs,
        n as f64 / rev_secs,
        rss_before,
        peak_rss_mib()
    );
    // The scans hold a few pages per bucket, not the table.
    assert!(
        peak_rss_mib() - rss_before < 150.0,
        "scans grew peak memory from {rss_before:.0} to {:.0} MiB",
        peak_rss_mib()
    );
}

/// Rows of cells through a proxy cut mid-batch: the error lists rows, never a confirmed one;
/// no row is left half-written (each row's cells go in one atomic row mutation); the reported
/// rows, written again, complete the table.
pub fn cells_cut_mid_batch<S: rowkey::store::Store>(direct: &S, through: &S, p: &Proxy, at: usize) {
    use rowkey::store::{Cell, Columns, RowWrite};
    let writes: Vec<RowWrite> = numbered_rows(20_000, 0)
        .into_iter()
        .map(|(k, _)| {
            let cells = ["a", "b", "c"]
                .iter()
                .map(|q| Cell::new("d", *q, vec![7u8; 40]))
                .collect();
            RowWrite::new(k, cells)
        })
        .collect();
    let cutter = cut_after(p, at, None);
    let err = through.write_rows(&writes).unwrap_err();
    cutter.join().unwrap();
    let failed: std::collections::BTreeSet<Vec<u8>> = err.failed.iter().cloned().collect();
    assert!(
        !failed.is_empty() && failed.len() < writes.len(),
        "{} failed",
        failed.len()
    );
    let all = rowkey::KeyRange::new(&[], None);
    let stored: std::collections::BTreeMap<Vec<u8>, usize> = direct
        .scan_rows(&all, &Columns::all())
        .map(|r| {
            let r = r.unwrap();
            (r.key, r.cells.len())
        })
        .collect();
    for w in &writes {
        match stored.get(&w.key) {
            Some(&n) => assert_eq!(n, 3, "row {:?} is half written", w.key),
            None => assert!(
                failed.contains(&w.key),
                "confirmed row {:?} is missing",
                w.key
            ),
        }
    }
    let retry: Vec<RowWrite> = writes
        .iter()
        .filter(|w| failed.contains(&w.key))
        .cloned()
        .collect();
    direct.write_rows(&retry).unwrap();
    assert_eq!(
        direct.scan_rows(&all, &Columns::all()).count(),
        writes.len()
    );
    eprintln!(
        "cells cut mid-batch: {} of {} rows reported unwritten ({} of them were in fact stored)",
        failed.len(),
        writes.len(),
        failed.iter().filter(|k| stored.contains_key(*k)).count()
    );
}

/// An `AsyncTable` over `store` (empty, 16 buckets of `Event` or any split) as a tokio service
/// uses it: `n` rows in one batch, get, delete, put, merged forward and reverse scans equal to
/// the brute-force order, a one-user scan of one range, `scan_raw` equal to `scan` undecoded,
/// `bulk_load` of more rows, and scans spawned as `Send + 'static` streams.
#[cfg(any(feature = "async", feature = "bigtable", feature = "hbase"))]
pub async fn exercise_async_table<S: rowkey::store::AsyncStore + Clone>(store: S, n: usize) {
    use futures_util::StreamExt;
    use rowkey::store::AsyncTable;

    let table = AsyncTable::<_, Event>::new(store.clone());
    let rows = events(n);
    table
        .put_batch(rows.iter().map(|e| (e, &b"x"[..])))
        .await
        .unwrap();
    assert_eq!(
        table.get(&rows[5]).await.unwrap().as_deref(),
        Some(&b"x"[..])
    );
    table.delete(&rows[5]).await.unwrap();
    assert_eq!(table.get(&rows[5]).await.unwrap(), None);
    table.put(&rows[5], b"y").await.unwrap();

    let mut want = rows.clone();
    want.sort_by_key(logical);
    let got: Vec<Event> = table
        .scan(&Event::scan().ranges())
        .map(|r| r.unwrap().0)
        .collect()
        .await;
    assert_eq!(got, want);
    if let Some(rev) = table.scan_rev(&Event::scan().ranges()) {
        let back: Vec<Event> = rev.map(|r| r.unwrap().0).collect().await;
        let mut reversed = want.clone();
        reversed.reverse();
        assert_eq!(back, reversed);
    }
    // One user's events of one kind, newest first: one range, exactly the brute-force rows.
    let user = Event::scan().user_id(42).kind("click").ranges();
    assert_eq!(user.len(), 1);
    let latest: Vec<Event> = table.scan(&user).map(|r| r.unwrap().0).collect().await;
    let expect: Vec<Event> = want
        .iter()
        .filter(|e| e.user_id == 42 && e.kind == "click")
        .cloned()
        .collect();
    assert!(!expect.is_empty());
    assert_eq!(latest, expect);

    // The lending stream: the same rows, merged and on one range, decoded and raw.
    for ranges in [Event::scan().ranges(), user.clone()] {
        let owned: Vec<(Event, Vec<u8>)> = table
            .scan(&ranges)
            .map(|r| r.map(|(k, v)| (k, v.to_vec())).unwrap())
            .collect()
            .await;
        let mut rows = table.scan(&ranges).lending();
        let mut lent = Vec::new();
        while let Some(row) = rows.next().await {
            let (key, value) = row.unwrap();
            lent.push((key, value.to_vec()));
        }
        assert_eq!(lent, owned, "lending stream");
        let mut rows = table.scan(&ranges).lending();
        let mut raw = Vec::new();
        while let Some(row) = rows.next_raw().await {
            let (key, value) = row.unwrap();
            raw.push((Event::decode(key).unwrap(), value.to_vec()));
        }
        assert_eq!(raw, owned, "lending stream, raw");
    }

    // The same merge undecoded: the stored rows in the same order.
    let raw: Vec<(Event, Vec<u8>)> = table
        .scan_raw(&Event::scan().ranges())
        .map(|r| {
            let (k, v) = r.unwrap();
            (Event::decode(&k).unwrap(), v.to_vec())
        })
        .collect()
        .await;
    let decoded: Vec<(Event, Vec<u8>)> = table
        .scan(&Event::scan().ranges())
        .map(|r| r.map(|(k, v)| (k, v.to_vec())).unwrap())
        .collect()
        .await;
    assert_eq!(raw, decoded, "scan_raw is scan's rows, undecoded");

    // A bulk load of new rows (and one that repeats a key: the last wins).
    let more: Vec<Event> = events(n + 100).split_off(n);
    let mut load: Vec<(&Event, &[u8])> = more.iter().map(|e| (e, &b"loaded"[..])).collect();
    load.push((&more[0], b"last"));
    table.bulk_load(load).await.unwrap();
    assert_eq!(
        table.get(&more[0]).await.unwrap().as_deref(),
        Some(&b"last"[..])
    );
    assert_eq!(
        table.get(&more[99]).await.unwrap().as_deref(),
        Some(&b"loaded"[..])
    );

    // Scans are Send + 'static: they can be spawned, and several run at once.
    let a = tokio::spawn(table.scan_unordered(&Event::scan().ranges()).count());
    let b = tokio::spawn(store.scan(&rowkey::KeyRange::new(&[], None)).count());
    assert_eq!((a.await.unwrap(), b.await.unwrap()), (n + 100, n + 100));
}

/// Lookup-table assigners whose connections are cut and restored over and over (`p` flickers
/// every 150 ms for 20 ms): each assigner retries a name until it has an id. Then every
/// assigner saw one id per name, no id names another name, and the reverse rows a cut lost are
/// repaired by `verify(true)` until both directions are one bijection.
pub fn uids_through_cuts<S, F>(through: F, direct: S, p: &Proxy, assigners: usize, names: usize)
where
    F: Fn() -> S + Sync,
    S: rowkey::store::AtomicStore + Send,
    S::Error: std::fmt::Debug,
{
    use rowkey::store::UidTable;
    use std::collections::BTreeMap;
    let done = AtomicBool::new(false);
    let (failures, cuts) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let all: Vec<String> = (0..names).map(|i| format!("cut-{i:04}")).collect();
    let seen: Vec<Vec<(String, u64)>> = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(150));
                p.cut.store(true, Ordering::SeqCst);
                cuts.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(20));
                p.cut.store(false, Ordering::SeqCst);
            }
        });
        let handles: Vec<_> = (0..assigners)
            .map(|t| {
                let (all, through, failures) = (&all, &through, &failures);
                scope.spawn(move || {
                    let table = UidTable::new(through(), "host", 3).unwrap();
                    (0..names)
                        .map(|i| {
                            let name = &all[(i + t * names / assigners) % names];
                            for _ in 0..1_000 {
                                match table.get_or_assign(name) {
                                    Ok(id) => return (name.clone(), id),
                                    Err(_) => {
                                        failures.fetch_add(1, Ordering::SeqCst);
                                        std::thread::sleep(Duration::from_millis(5));
                                    }
                                }
                            }
                            panic!("`{name}` got no id in 1,000 tries");
                        })
                        .collect()
                })
            })
            .collect();
        let seen = handles.into_iter().map(|h| h.join().unwrap()).collect();
        done.store(true, Ordering::SeqCst);
        seen
    });
    let mut agreed: BTreeMap<&str, u64> = BTreeMap::new();
    for pairs in &seen {
        for (name, id) in pairs {
            assert_eq!(
                *agreed.entry(name).or_insert(*id),
                *id,
                "`{name}` has two ids"
            );
        }
    }
    let table = UidTable::new(direct, "host", 3).unwrap();
    let before = table.verify(true).unwrap();
    assert!(before.conflicts.is_empty(), "{before:?}");
    assert_eq!(before.names, names);
    let after = table.verify(false).unwrap();
    assert!(
        after.missing_reverse.is_empty() && after.conflicts.is_empty(),
        "{after:?}"
    );
    assert_eq!(after.ids, names);
    for (name, id) in &agreed {
        assert_eq!(table.id(name).unwrap(), Some(*id));
        assert_eq!(table.name(*id).unwrap().as_deref(), Some(*name));
    }
    let failures = failures.load(Ordering::SeqCst);
    println!(
        "{names} names, {assigners} assigners, {} cuts: {failures} failed calls retried, {} reverse row(s) repaired, {} id(s) lost to races or cuts",
        cuts.load(Ordering::SeqCst),
        before.missing_reverse.len(),
        after.counter - names as u64
    );
    assert!(failures > 0, "the cuts reached the assigners");
}

/// Scans whose consumer pauses longer than the servers' scanner lease (`lease`): a merged scan
/// of the 16 buckets and a plain scan of the whole table, each forward and reverse, run side by
/// side; each stops for `lease` + 3 s at row 20,000 (every open scanner sits idle past its
/// lease: the region servers and gateways drop them), then reads on. Every row comes exactly
/// once and in order. 40,000 rows.
pub fn scans_outwait_the_scanner_lease<S: rowkey::store::Store + Sync>(store: &S, lease: Duration)
where
    S::Error: 'static,
{
    use rowkey::store::Table;
    use rowkey::KeyRange;
    let n = 40_000;
    let rows = events(n);
    let table = Table::<_, Event>::new(store);
    let value = [3u8; 8];
    table
        .put_batch(rows.iter().map(|e| (e, &value[..])))
        .unwrap();
    let mut want = rows.clone();
    want.sort_by_key(logical);
    let mut want_rev = want.clone();
    want_rev.reverse();
    let mut raw: Vec<Vec<u8>> = rows
        .iter()
        .map(|e| e.to_bytes().unwrap().to_vec())
        .collect();
    raw.sort();
    let mut raw_rev = raw.clone();
    raw_rev.reverse();
    let pause = lease + Duration::from_secs(3);
    let at = 20_000;
    let t = std::time::Instant::now();
    std::thread::scope(|s| {
        let check = |what: &str, got: &mut dyn Iterator<Item = Vec<u8>>, want: &[Vec<u8>]| {
            let mut i = 0;
            let t = std::time::Instant::now();
            let mut before = Duration::ZERO;
            for key in got {
                assert!(i < want.len(), "{what}: more than {} rows", want.len());
                assert_eq!(key, want[i], "{what}: row {i}");
                i += 1;
                if i == at {
                    before = t.elapsed();
                    std::thread::sleep(pause);
                }
            }
            assert_eq!(i, want.len(), "{what}: every row");
            eprintln!(
                "{what}: {at} rows in {:.1} s, the rest after the pause in {:.1} s",
                before.as_secs_f64(),
                (t.elapsed() - before - pause).as_secs_f64()
            );
        };
        let encoded = |events: &[Event]| -> Vec<Vec<u8>> {
            events
                .iter()
                .map(|e| e.to_bytes().unwrap().to_vec())
                .collect()
        };
        let (table, ranges) = (&table, Event::scan().ranges());
        let (want, want_rev) = (encoded(&want), encoded(&want_rev));
        let ranges2 = ranges.clone();
        s.spawn(move || {
            let mut it = table
                .scan(&ranges)
                .map(|r| r.unwrap().0.to_bytes().unwrap().to_vec());
            check("merged", &mut it, &want);
        });
        s.spawn(move || {
            let mut it = table
                .scan_rev(&ranges2)
                .unwrap()
                .map(|r| r.unwrap().0.to_bytes().unwrap().to_vec());
            check("merged reverse", &mut it, &want_rev);
        });
        let (raw, raw_rev) = (&raw, &raw_rev);
        s.spawn(move || {
            let mut it = store
                .scan(&KeyRange::new(b"", None))
                .map(|r| r.unwrap().0.to_vec());
            check("plain", &mut it, raw);
        });
        s.spawn(move || {
            let mut it = store
                .scan_rev(&KeyRange::new(b"", None))
                .unwrap()
                .map(|r| r.unwrap().0.to_vec());
            check("plain reverse", &mut it, raw_rev);
        });
    });
    eprintln!(
        "four scans of {n} rows, each paused {pause:?} (lease {lease:?}) at row {at}: exact, {:.1} s",
        t.elapsed().as_secs_f64()
    );
}

/// Writes an `hbase-site.xml` of `props` into a new directory (what `HBASE_CONF_DIR` names) and
/// returns the directory.
pub fn hbase_site_dir(tag: &str, props: &[(&str, String)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(unique(&format!("rowkey-site-{tag}")));
    std::fs::create_dir_all(&dir).unwrap();
    let body: String = props
        .iter()
        .map(|(k, v)| {
            format!("  <property>\n    <name>{k}</name>\n    <value>{v}</value>\n  </property>\n")
        })
        .collect();
    std::fs::write(
        dir.join("hbase-site.xml"),
        format!(
            "<?xml version=\"1.0\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"configuration.xsl\"?>\n<configuration>\n{body}</configuration>\n"
        ),
    )
    .unwrap();
    dir
}

/// `row00000000`.. as a key type: three bytes, then the digits to the end of the key.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Numbered {
    pub prefix: [u8; 3],
    #[rest]
    pub digits: String,
}

/// Rows that hold columns of their own and not the store's value column (a table a Java
/// service filled): [`Store::scan_keys`](rowkey::store::Store::scan_keys) through `through`
/// finds every key in order while no value crosses the network (the bytes through `p` stay a
/// small share of the values'), and `check_layout` fits them all; [`Store::scan`] (the value
/// column) finds none of them.
pub fn keys_of_rows_with_other_columns<S: rowkey::store::Store>(
    direct: &S,
    through: &S,
    p: &Proxy,
    n: u32,
) {
    use rowkey::store::{Cell, RowWrite};
    const VALUE: usize = 2048;
    let writes: Vec<RowWrite> = numbered_rows(n, 0)
        .into_iter()
        .map(|(k, _)| {
            let cells = ["payload", "other"]
                .iter()
                .map(|q| Cell::new("d", *q, vec![7u8; VALUE]))
                .collect();
            RowWrite::new(k, cells)
        })
        .collect();
    direct.write_rows(&writes).unwrap();
    let all = rowkey::KeyRange::new(&[], None);
    assert_eq!(
        direct.scan(&all).count(),
        0,
        "the rows hold no value column"
    );
    p.forwarded.store(0, Ordering::SeqCst);
    let keys: Vec<Vec<u8>> = through
        .scan_keys(&all)
        .map(|k| k.unwrap().to_vec())
        .collect();
    let crossed = p.forwarded.load(Ordering::SeqCst);
    let expected: Vec<Vec<u8>> = writes.iter().map(|w| w.key.clone()).collect();
    assert_eq!(keys.len(), expected.len());
    assert!(
        keys == expected,
        "scan_keys gave other keys, or out of order"
    );
    let values = n as usize * 2 * VALUE;
    assert!(
        crossed * 20 < values,
        "{crossed} bytes crossed for {n} keys (their values hold {values})"
    );
    // Cut a third of the way through a second pass, restored 200 ms later: the key-only scan
    // resumes after the last key it handed out, and the keys are the same.
    p.forwarded.store(0, Ordering::SeqCst);
    let cutter = cut_within(
        p,
        crossed / 3,
        Some(Duration::from_millis(200)),
        Some(Duration::from_secs(60)),
    );
    let again: Vec<Vec<u8>> = through
        .scan_keys(&all)
        .enumerate()
        .map(|(i, k)| {
            if i % 100 == 0 {
                std::thread::sleep(Duration::from_millis(2));
            }
            k.unwrap().to_vec()
        })
        .collect();
    assert!(cutter.join().unwrap(), "the proxy was not cut");
    assert!(again == expected, "the keys after a cut differ");
    let half = rowkey::KeyRange::new(b"row00000100", Some(b"row00000200"));
    assert_eq!(through.scan_keys(&half).count(), 100.min(n as usize - 100));
    let check = rowkey::store::check_layout::<Numbered, _>(through, n as usize).unwrap();
    assert_eq!(
        (check.decoded(), check.failed()),
        (u64::from(n), 0),
        "{check}"
    );
    eprintln!("keys only: {n} keys, {crossed} bytes crossed (values: {values} bytes)");
}
