//! Skip-scan queries (`T::query()`, `Table::query`) are exact: on random rows of keys with
//! every kind of field (signed, descending text with 0x00 and 0xFF bytes, `Option`,
//! `reverse_ts`, fixed-width text, a salt, an unordered `#[reverse]` field) and random queries
//! (each field open, equal to a value, in a list, or in a range with any kind of bounds), the
//! rows a query returns are exactly a full scan's rows that satisfy it, in the same order, and
//! reversed by `query_rev`: on the memory store and on fjall.

use std::ops::Bound;

use proptest::prelude::*;
use rowkey::store::{MemStore, Store, Table};
use rowkey::RowKey;

/// Every ordered encoding of a field, unsalted.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
struct Wide {
    a: i16,
    #[desc]
    b: String,
    c: Option<u8>,
    #[reverse_ts]
    ts: u64,
    #[fixed(3)]
    f: String,
}

/// A salted key, variable-width text after the salted field, and an unordered field.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
struct Salted {
    #[salt(buckets = 4)]
    user: u16,
    app: String,
    #[reverse]
    seq: u32,
}

/// What a query asks of one field.
#[derive(Clone, Debug)]
enum Q<T> {
    Open,
    Eq(T),
    In(Vec<T>),
    Range(Bound<T>, Bound<T>),
}

impl<T: PartialOrd + PartialEq> Q<T> {
    fn holds(&self, v: &T) -> bool {
        match self {
            Q::Open => true,
            Q::Eq(x) => v == x,
            Q::In(xs) => xs.contains(v),
            Q::Range(lo, hi) => {
                (match lo {
                    Bound::Included(l) => v >= l,
                    Bound::Excluded(l) => v > l,
                    Bound::Unbounded => true,
                }) && (match hi {
                    Bound::Included(h) => v <= h,
                    Bound::Excluded(h) => v < h,
                    Bound::Unbounded => true,
                })
            }
        }
    }
}

fn bound<T: Clone + std::fmt::Debug>(
    v: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Bound<T>> {
    prop_oneof![
        v.clone().prop_map(Bound::Included),
        v.prop_map(Bound::Excluded),
        Just(Bound::Unbounded),
    ]
}

fn q<T: Clone + std::fmt::Debug + 'static>(
    v: impl Strategy<Value = T> + Clone + 'static,
    ordered: bool,
) -> BoxedStrategy<Q<T>> {
    let mut options = vec![
        Just(Q::Open).boxed(),
        Just(Q::Open).boxed(),
        v.clone().prop_map(Q::Eq).boxed(),
        proptest::collection::vec(v.clone(), 0..4)
            .prop_map(Q::In)
            .boxed(),
    ];
    if ordered {
        options.push(
            (bound(v.clone()), bound(v))
                .prop_map(|(lo, hi)| Q::Range(lo, hi))
                .boxed(),
        );
    }
    proptest::strategy::Union::new(options).boxed()
}

fn text() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        Just(String::new()),
        Just("\0".to_string()),
        Just("a\0b".to_string()),
        Just("a".to_string()),
        Just("ab".to_string()),
        Just("\u{ff}".to_string()),
        Just("\u{10ffff}".to_string()),
        Just("zz".to_string()),
    ]
}

fn short() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        Just(String::new()),
        Just("a".to_string()),
        Just("ab".to_string()),
        Just("abc".to_string()),
        Just("abcd".to_string()),
        Just("b".to_string()),
    ]
}

fn wide() -> impl Strategy<Value = Wide> {
    (
        -3i16..3,
        text(),
        prop_oneof![Just(None), Just(Some(0u8)), Just(Some(7)), Just(Some(255))],
        prop_oneof![Just(0u64), Just(1), Just(5), Just(i64::MAX as u64)],
        short().prop_filter("fits", |s| s.len() <= 3),
    )
        .prop_map(|(a, b, c, ts, f)| Wide { a, b, c, ts, f })
}

fn salted() -> impl Strategy<Value = Salted> {
    (0u16..6, text(), 0u32..4).prop_map(|(user, app, seq)| Salted { user, app, seq })
}

type WideQ = (Q<i16>, Q<String>, Q<Option<u8>>, Q<u64>, Q<String>);

fn wide_query() -> impl Strategy<Value = WideQ> {
    (
        q(-4i16..4, true),
        q(text(), true),
        q(
            prop_oneof![Just(None), Just(Some(0u8)), Just(Some(7)), Just(Some(200))],
            true,
        ),
        q(prop_oneof![Just(0u64), Just(1), Just(3), Just(5)], true),
        q(short(), true),
    )
}

/// Applies one field's query to a builder through the field's method (`eq`, a range) or its
/// `_in` method.
macro_rules! apply {
    ($b:expr, $q:expr, $m:ident, $m_in:ident, $conv:expr) => {{
        let conv = $conv;
        match $q {
            Q::Open => $b,
            Q::Eq(v) => $b.$m(conv(v)),
            Q::In(vs) => $b.$m_in(vs.iter().map(|v| conv(v))),
            Q::Range(lo, hi) => $b.$m((lo.as_ref().map(|v| conv(v)), hi.as_ref().map(|v| conv(v)))),
        }
    }};
}

fn as_str(v: &String) -> &str {
    v
}

fn wide_build(q: &WideQ) -> rowkey::Query {
    let b = Wide::query();
    let b = apply!(b, &q.0, a, a_in, |v: &i16| *v);
    let b = apply!(b, &q.1, b, b_in, as_str);
    let b = apply!(b, &q.2, c, c_in, |v: &Option<u8>| *v);
    let b = apply!(b, &q.3, ts, ts_in, |v: &u64| *v);
    let b = apply!(b, &q.4, f, f_in, as_str);
    b.build()
}

fn wide_holds(q: &WideQ, k: &Wide) -> bool {
    q.0.holds(&k.a) && q.1.holds(&k.b) && q.2.holds(&k.c) && q.3.holds(&k.ts) && q.4.holds(&k.f)
}

/// The query's rows equal the full scan's rows that satisfy it, forward and reverse.
fn check<S: Store, K>(
    table: &Table<S, K>,
    full: &rowkey::KeyRanges,
    query: &rowkey::Query,
    holds: impl Fn(&K) -> bool,
) -> Result<(), TestCaseError>
where
    K: RowKey + for<'de> rowkey::Decode<'de> + PartialEq + std::fmt::Debug,
    S::Error: std::fmt::Debug,
{
    let all: Vec<K> = table.scan(full).map(|r| r.unwrap().0).collect();
    let want: Vec<&K> = all.iter().filter(|k| holds(k)).collect();
    let got: Vec<K> = table.query(query).map(|r| r.unwrap().0).collect();
    prop_assert_eq!(
        got.iter().collect::<Vec<_>>(),
        want.clone(),
        "forward\n{}",
        query
    );
    let mut back: Vec<K> = table
        .query_rev(query)
        .unwrap()
        .map(|r| r.unwrap().0)
        .collect();
    back.reverse();
    prop_assert_eq!(back.iter().collect::<Vec<_>>(), want, "reverse\n{}", query);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn wide_keys_on_memory(rows in proptest::collection::vec(wide(), 0..60), queries in proptest::collection::vec(wide_query(), 1..6)) {
        let table = Table::<_, Wide>::new(MemStore::new());
        for k in &rows {
            table.put(k, b"").unwrap();
        }
        for q in &queries {
            check(&table, &Wide::scan().ranges(), &wide_build(q), |k| wide_holds(q, k))?;
        }
    }
}

type SaltedQ = (Q<u16>, Q<String>, Q<u32>);

fn salted_query() -> impl Strategy<Value = SaltedQ> {
    (q(0u16..7, true), q(text(), true), q(0u32..5, false))
}

fn salted_build(q: &SaltedQ) -> rowkey::Query {
    let b = Salted::query();
    let b = apply!(b, &q.0, user, user_in, |v: &u16| *v);
    let b = apply!(b, &q.1, app, app_in, as_str);
    let b = match &q.2 {
        Q::Open => b,
        Q::Eq(v) => b.seq(*v),
        Q::In(vs) => b.seq_in(vs.iter().copied()),
        Q::Range(..) => unreachable!("an unordered field takes no range"),
    };
    b.build()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn salted_keys_on_memory(rows in proptest::collection::vec(salted(), 0..60), queries in proptest::collection::vec(salted_query(), 1..6)) {
        let table = Table::<_, Salted>::new(MemStore::new());
        for k in &rows {
            table.put(k, b"").unwrap();
        }
        for q in &queries {
            let holds = |k: &Salted| q.0.holds(&k.user) && q.1.holds(&k.app) && q.2.holds(&k.seq);
            check(&table, &Salted::scan().ranges(), &salted_build(q), holds)?;
        }
    }

    #[cfg(feature = "fjall")]
    #[test]
    fn both_keys_on_fjall(
        wide_rows in proptest::collection::vec(wide(), 0..40),
        salted_rows in proptest::collection::vec(salted(), 0..40),
        wq in wide_query(),
        sq in salted_query(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let wide = Table::<_, Wide>::new(rowkey::store::FjallStore::open(dir.path(), "wide").unwrap());
        for k in &wide_rows {
            wide.put(k, b"").unwrap();
        }
        check(&wide, &Wide::scan().ranges(), &wide_build(&wq), |k| wide_holds(&wq, k))?;
        let other = tempfile::tempdir().unwrap();
        let salted = Table::<_, Salted>::new(rowkey::store::FjallStore::open(other.path(), "salted").unwrap());
        for k in &salted_rows {
            salted.put(k, b"").unwrap();
        }
        let holds = |k: &Salted| sq.0.holds(&k.user) && sq.1.holds(&k.app) && sq.2.holds(&k.seq);
        check(&salted, &Salted::scan().ranges(), &salted_build(&sq), holds)?;
    }
}

/// Long gaps are sought past, not read: 1,000 users with 50 apps each, the query on the second
/// field alone reads a few rows per user (the match, the row after it, a short read-on before
/// each seek), not fifty; a short gap is read through instead of sought (a dense query costs
/// a scan, not a seek per row); a salted fixed user reads its own rows only.
#[test]
fn a_gap_costs_seeks_not_reads() {
    #[derive(RowKey, Debug, PartialEq)]
    #[rowkey(query)]
    struct Install {
        user: u32,
        app: u16,
    }
    let table = Table::<_, Install>::new(MemStore::new());
    for user in 0..1_000 {
        for app in 0..50 {
            table.put(&Install { user, app }, b"").unwrap();
        }
    }
    let mut rows = table.query(&Install::query().app(3u16).build());
    let n = rows.by_ref().count();
    let stats = rows.stats();
    assert_eq!((n, stats.matched), (1_000, 1_000));
    assert!(stats.read <= 10_000, "{stats:?}");
    assert!(stats.seeks >= 1_000, "{stats:?}");
    eprintln!("app = 3 over 50,000 rows: {stats:?}");

    // Dense: the gaps are one or two rows, read through, never sought.
    let mut rows = table.query(&Install::query().app(1u16..49).build());
    assert_eq!(rows.by_ref().count(), 48_000);
    let stats = rows.stats();
    assert!(stats.seeks <= 10, "{stats:?}");
    eprintln!("app in 1..49 over 50,000 rows: {stats:?}");

    // Salted: the user picks its bucket; the query reads that user's rows only.
    let salted = Table::<_, Salted>::new(MemStore::new());
    for user in 0..100 {
        for seq in 0..4 {
            salted
                .put(
                    &Salted {
                        user,
                        app: "x".into(),
                        seq,
                    },
                    b"",
                )
                .unwrap();
        }
    }
    let query = Salted::query().user(42u16).seq(2u32).build();
    let plan = query.to_string();
    assert!(plan.contains("salt: = "), "{plan}");
    let mut rows = salted.query(&query);
    let got: Vec<Salted> = rows.by_ref().map(|r| r.unwrap().0).collect();
    assert_eq!(
        got,
        [Salted {
            user: 42,
            app: "x".into(),
            seq: 2
        }]
    );
    assert!(rows.stats().read <= 4, "{:?}\n{plan}", rows.stats());
}

/// The async twin returns what the blocking query returns, forward and reverse, inside a tokio
/// runtime (and so what a full scan filtered returns: checked above).
#[cfg(feature = "async")]
#[test]
fn the_async_query_is_the_blocking_one() {
    use futures_util::StreamExt;
    use rowkey::store::AsyncTable;
    let runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    });
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut runner = runner;
    runner
        .run(
            &(proptest::collection::vec(salted(), 0..60), salted_query()),
            |(rows, q)| {
                let blocking = Table::<_, Salted>::new(MemStore::new());
                let nonblocking = AsyncTable::<_, Salted>::new(MemStore::new());
                rt.block_on(async {
                    for k in &rows {
                        blocking.put(k, b"").unwrap();
                        nonblocking.put(k, b"").await.unwrap();
                    }
                    let query = salted_build(&q);
                    let want: Vec<Salted> = blocking.query(&query).map(|r| r.unwrap().0).collect();
                    let got: Vec<Salted> = nonblocking
                        .query(&query)
                        .map(|r| r.unwrap().0)
                        .collect()
                        .await;
                    assert_eq!(got, want, "forward\n{query}");
                    let want: Vec<Salted> = blocking
                        .query_rev(&query)
                        .unwrap()
                        .map(|r| r.unwrap().0)
                        .collect();
                    let got: Vec<Salted> = nonblocking
                        .query_rev(&query)
                        .unwrap()
                        .map(|r| r.unwrap().0)
                        .collect()
                        .await;
                    assert_eq!(got, want, "reverse\n{query}");
                });
                Ok(())
            },
        )
        .unwrap();
}

/// `#[rowkey(query)]` changes nothing of the key: the same bytes and the same fingerprint as
/// the key without it.
#[test]
fn the_query_attribute_leaves_the_layout_alone() {
    #[derive(RowKey)]
    #[rowkey(query)]
    struct With {
        #[salt(buckets = 4)]
        user: u16,
        app: String,
    }
    #[derive(RowKey)]
    struct Without {
        #[salt(buckets = 4)]
        user: u16,
        app: String,
    }
    assert_eq!(With::FINGERPRINT, Without::FINGERPRINT);
    assert_eq!(
        With {
            user: 7,
            app: "x".into()
        }
        .to_bytes()
        .unwrap(),
        Without {
            user: 7,
            app: "x".into()
        }
        .to_bytes()
        .unwrap()
    );
}
