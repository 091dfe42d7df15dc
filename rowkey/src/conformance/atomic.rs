//! Counters and conditional writes ([`AtomicStore`]): what they return alone, and that they
//! stay exact under contention: concurrent increments sum exactly, and of writers racing on
//! one cell's condition exactly one wins.
//!
//! The store needs family [`FAMILY`] (Bigtable and HBase tables are created with it).

use rowkey::store::{counter_bytes, AtomicError, AtomicStore, Cell, Column, Columns, RowWrite};

/// The family the suite's cells are in.
pub const FAMILY: &str = "d";

fn raw<S: AtomicStore>(store: &S, key: &[u8], qualifier: &[u8]) -> Option<Vec<u8>> {
    let columns = Columns::exact([Column::new(FAMILY, qualifier)]);
    let row = store.read_row(key, &columns).expect("read_row");
    row.and_then(|r| r.value(FAMILY, qualifier).map(<[u8]>::to_vec))
}

/// Runs the atomic behaviours on `store` (a fresh table), with `threads` concurrent writers
/// of `rounds` operations each.
pub fn exercise_atomic<S>(store: S, threads: usize, rounds: usize)
where
    S: AtomicStore + Sync,
    S::Error: std::fmt::Debug,
{
    let s = &store;
    // ---- alone ----
    assert_eq!(
        s.counter(b"c1", FAMILY, b"n").unwrap(),
        None,
        "a missing counter"
    );
    assert_eq!(
        s.increment(b"c1", FAMILY, b"n", 5).unwrap(),
        5,
        "counts from 0"
    );
    assert_eq!(s.increment(b"c1", FAMILY, b"n", -7).unwrap(), -2);
    assert_eq!(s.counter(b"c1", FAMILY, b"n").unwrap(), Some(-2));
    assert_eq!(
        raw(s, b"c1", b"n"),
        Some(counter_bytes(-2).to_vec()),
        "a counter is 8 bytes big-endian (Java's Bytes.toBytes(long))"
    );
    assert_eq!(
        s.increment(b"c1", FAMILY, b"n", 0).unwrap(),
        -2,
        "a zero increment reads"
    );
    // A cell written as a counter by a plain write counts on.
    let row = RowWrite::new(
        b"c2".to_vec(),
        vec![Cell::new(FAMILY, b"n".to_vec(), counter_bytes(40).to_vec())],
    );
    s.write_rows(&[row]).unwrap();
    assert_eq!(s.increment(b"c2", FAMILY, b"n", 2).unwrap(), 42);
    // A cell that is not a counter: refused, nothing written.
    let row = RowWrite::new(
        b"c3".to_vec(),
        vec![Cell::new(FAMILY, b"n".to_vec(), b"abc".to_vec())],
    );
    s.write_rows(&[row]).unwrap();
    match s.increment(b"c3", FAMILY, b"n", 1) {
        Err(AtomicError::NotACounter { found }) => {
            assert!(found.is_none_or(|n| n == 3), "found {found:?}")
        }
        other => panic!("an increment of a 3-byte cell: {other:?}"),
    }
    assert_eq!(raw(s, b"c3", b"n"), Some(b"abc".to_vec()), "left as it was");

    // Conditional writes: put-if-absent, compare-and-set, compare-and-delete.
    assert!(s.put_if_absent(b"k", FAMILY, b"q", b"first").unwrap());
    assert!(!s.put_if_absent(b"k", FAMILY, b"q", b"second").unwrap());
    assert_eq!(raw(s, b"k", b"q"), Some(b"first".to_vec()));
    assert!(!s
        .check_and_set(b"k", FAMILY, b"q", Some(b"other"), Some(b"x"))
        .unwrap());
    assert!(s
        .check_and_set(b"k", FAMILY, b"q", Some(b"first"), Some(b""))
        .unwrap());
    assert_eq!(raw(s, b"k", b"q"), Some(Vec::new()));
    // An empty cell counts as absent in a condition (HBase's rule, on every store).
    assert!(s
        .check_and_set(b"k", FAMILY, b"q", None, Some(b""))
        .unwrap());
    assert!(s
        .check_and_set(b"k", FAMILY, b"q", Some(b""), Some(&[0, 1, 0xff]))
        .unwrap());
    assert!(!s
        .check_and_set(b"k", FAMILY, b"q", Some(b""), Some(b"z"))
        .unwrap());
    assert!(!s.put_if_absent(b"k", FAMILY, b"q", b"y").unwrap());
    assert!(!s
        .check_and_set(b"k", FAMILY, b"q", Some(&[0, 1]), None)
        .unwrap());
    assert!(s
        .check_and_set(b"k", FAMILY, b"q", Some(&[0, 1, 0xff]), None)
        .unwrap());
    assert_eq!(raw(s, b"k", b"q"), None, "compare-and-delete deleted");
    assert!(
        s.check_and_set(b"k", FAMILY, b"q", None, None).unwrap(),
        "absent"
    );
    // Another column of the same row does not satisfy the condition.
    assert!(s.put_if_absent(b"k", FAMILY, b"other", b"v").unwrap());
    assert!(s.put_if_absent(b"k", FAMILY, b"q", b"v").unwrap());

    // ---- under contention ----
    // Increments from concurrent writers sum exactly.
    let want: i64 = (0..threads)
        .map(|t| (0..rounds).map(|i| (t * 7 + i) as i64 % 5 + 1).sum::<i64>())
        .sum();
    std::thread::scope(|scope| {
        for t in 0..threads {
            scope.spawn(move || {
                for i in 0..rounds {
                    let delta = (t * 7 + i) as i64 % 5 + 1;
                    s.increment(b"hot", FAMILY, b"n", delta).unwrap();
                }
            });
        }
    });
    assert_eq!(
        s.counter(b"hot", FAMILY, b"n").unwrap(),
        Some(want),
        "{threads} writers x {rounds} increments"
    );

    // Of writers racing to put one cell if absent, exactly one wins, and the cell is its.
    for round in 0..rounds.min(20) {
        let key = format!("race-{round}").into_bytes();
        let won: Vec<usize> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let key = &key;
                    scope.spawn(move || {
                        s.put_if_absent(key, FAMILY, b"q", format!("writer {t}").as_bytes())
                            .unwrap()
                    })
                })
                .collect();
            handles
                .into_iter()
                .enumerate()
                .filter_map(|(t, h)| h.join().unwrap().then_some(t))
                .collect()
        });
        assert_eq!(won.len(), 1, "round {round}: winners {won:?}");
        assert_eq!(
            raw(s, &key, b"q"),
            Some(format!("writer {}", won[0]).into_bytes())
        );
    }

    // Compare-and-set as a counter: each writer reads, then sets old + 1 if nothing changed,
    // until it has succeeded `rounds` times; no success is lost or doubled.
    let wins: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(move || {
                    let mut wins = 0;
                    while wins < rounds {
                        let old = raw(s, b"cas", b"q");
                        let next = old
                            .as_deref()
                            .map_or(0, |b| u64::from_be_bytes(b.try_into().unwrap()) + 1);
                        if s.check_and_set(
                            b"cas",
                            FAMILY,
                            b"q",
                            old.as_deref(),
                            Some(&next.to_be_bytes()),
                        )
                        .unwrap()
                        {
                            wins += 1;
                        }
                    }
                    wins
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let last = raw(s, b"cas", b"q").map(|b| u64::from_be_bytes(b.try_into().unwrap()));
    assert_eq!(
        last,
        Some(wins as u64 - 1),
        "{wins} successful compare-and-sets, each one step"
    );
}

/// The contention cases through an async store, as `tasks` concurrent futures of `rounds`
/// operations each (joined, so their requests interleave on the store's connections):
/// increments sum exactly, and one put-if-absent per cell wins. Run it inside a runtime.
#[cfg(feature = "async")]
pub async fn exercise_atomic_async<S>(store: S, tasks: usize, rounds: usize)
where
    S: rowkey::store::AsyncAtomicStore,
    S::Error: std::fmt::Debug,
{
    use futures_util::future::join_all;
    let s = &store;
    join_all((0..tasks).map(|t| async move {
        for i in 0..rounds {
            let delta = (t + i) as i64 % 3 + 1;
            s.increment(b"async-hot", FAMILY, b"n", delta)
                .await
                .unwrap();
        }
    }))
    .await;
    let want: i64 = (0..tasks)
        .map(|t| (0..rounds).map(|i| (t + i) as i64 % 3 + 1).sum::<i64>())
        .sum();
    assert_eq!(
        s.increment(b"async-hot", FAMILY, b"n", 0).await.unwrap(),
        want,
        "{tasks} tasks x {rounds} increments"
    );
    for round in 0..rounds.min(10) {
        let key = format!("async-race-{round}").into_bytes();
        let key = &key;
        let won = join_all((0..tasks).map(|t| async move {
            let value = format!("task {t}");
            s.check_and_set(key, FAMILY, b"q", None, Some(value.as_bytes()))
                .await
                .unwrap()
        }))
        .await;
        assert_eq!(
            won.iter().filter(|w| **w).count(),
            1,
            "round {round}: one put-if-absent wins"
        );
    }
}
