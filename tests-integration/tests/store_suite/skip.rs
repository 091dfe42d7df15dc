//! What the skip-scan tests share: keys with every kind of field, random queries on them, a
//! brute-force check of a query against a full scan (`tests/skip_scan.rs` on the embedded
//! stores), and the same checks at size on a store that filters rows itself (the network
//! stores' tests).

#![allow(dead_code)] // each test binary uses part of it

use std::ops::Bound;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use rowkey::store::{Store, Table};
use rowkey::RowKey;

/// Every ordered encoding of a field, unsalted.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
pub struct Wide {
    pub a: i16,
    #[desc]
    pub b: String,
    pub c: Option<u8>,
    #[reverse_ts]
    pub ts: u64,
    #[fixed(3)]
    pub f: String,
}

/// A salted key, variable-width text after the salted field, and an unordered field.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
pub struct Salted {
    #[salt(buckets = 4)]
    pub user: u16,
    pub app: String,
    #[reverse]
    pub seq: u32,
}

/// What a query asks of one field.
#[derive(Clone, Debug)]
pub enum Q<T> {
    Open,
    Eq(T),
    In(Vec<T>),
    Range(Bound<T>, Bound<T>),
}

impl<T: PartialOrd + PartialEq> Q<T> {
    pub fn holds(&self, v: &T) -> bool {
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

pub fn bound<T: Clone + std::fmt::Debug>(
    v: impl Strategy<Value = T> + Clone,
) -> impl Strategy<Value = Bound<T>> {
    prop_oneof![
        v.clone().prop_map(Bound::Included),
        v.prop_map(Bound::Excluded),
        Just(Bound::Unbounded),
    ]
}

pub fn q<T: Clone + std::fmt::Debug + 'static>(
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

pub fn text() -> impl Strategy<Value = String> + Clone {
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

pub fn short() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        Just(String::new()),
        Just("a".to_string()),
        Just("ab".to_string()),
        Just("abc".to_string()),
        Just("abcd".to_string()),
        Just("b".to_string()),
    ]
}

pub fn wide() -> impl Strategy<Value = Wide> {
    (
        -3i16..3,
        text(),
        prop_oneof![Just(None), Just(Some(0u8)), Just(Some(7)), Just(Some(255))],
        prop_oneof![Just(0u64), Just(1), Just(5), Just(i64::MAX as u64)],
        short().prop_filter("fits", |s| s.len() <= 3),
    )
        .prop_map(|(a, b, c, ts, f)| Wide { a, b, c, ts, f })
}

pub fn salted() -> impl Strategy<Value = Salted> {
    (0u16..6, text(), 0u32..4).prop_map(|(user, app, seq)| Salted { user, app, seq })
}

pub type WideQ = (Q<i16>, Q<String>, Q<Option<u8>>, Q<u64>, Q<String>);

pub fn wide_query() -> impl Strategy<Value = WideQ> {
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

pub fn as_str(v: &String) -> &str {
    v
}

pub fn wide_build(q: &WideQ) -> rowkey::TypedQuery<Wide> {
    let b = Wide::query();
    let b = apply!(b, &q.0, a, a_in, |v: &i16| *v);
    let b = apply!(b, &q.1, b, b_in, as_str);
    let b = apply!(b, &q.2, c, c_in, |v: &Option<u8>| *v);
    let b = apply!(b, &q.3, ts, ts_in, |v: &u64| *v);
    let b = apply!(b, &q.4, f, f_in, as_str);
    b.build()
}

pub fn wide_holds(q: &WideQ, k: &Wide) -> bool {
    q.0.holds(&k.a) && q.1.holds(&k.b) && q.2.holds(&k.c) && q.3.holds(&k.ts) && q.4.holds(&k.f)
}

/// The query's rows equal the full scan's rows that satisfy it, forward and reverse.
pub fn check<S: Store, K>(
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

pub type SaltedQ = (Q<u16>, Q<String>, Q<u32>);

pub fn salted_query() -> impl Strategy<Value = SaltedQ> {
    (q(0u16..7, true), q(text(), true), q(0u32..5, false))
}

pub fn salted_build(q: &SaltedQ) -> rowkey::TypedQuery<Salted> {
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

/// An app installed by a user on a day: every field fixed width, so a query's key filter is
/// `FuzzyRowFilter` rules on HBase (the region servers seek past gaps).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
pub struct Install {
    pub user: u32,
    pub app: u16,
    pub day: u16,
}

/// The README's key: a salt, a fixed-width text and a reverse timestamp.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
pub struct Event {
    #[salt(buckets = 16)]
    pub user_id: u64,
    #[fixed(16)]
    pub event_type: String,
    #[reverse_ts]
    pub ts: u64,
}

/// The rows that cross the network for a query are exactly those its [`KeyFilter`] passes,
/// whichever form the store sends it in: on HBase a `FuzzyRowFilter` of listed values, one of a
/// range's next byte enumerated, a regular expression where a range's next byte spans more
/// values than the rules may; on Bigtable RE2. A fuzzy rule that left a range's byte open let
/// a salted walk's whole bucket cross (the rule then fixed only the bucket byte the range
/// already fixes): `read` was every row.
///
/// [`KeyFilter`]: rowkey::KeyFilter
fn rows_crossing_are_what_the_key_filter_passes<S: Store>(
    make: &impl Fn(&str, &[rowkey::bytes::Bytes]) -> S,
    label: &str,
) where
    S::Error: std::fmt::Debug,
{
    let types = [
        "aa", "alpha", "click", "cz", "login", "view", "search", "purchase", "logout", "share",
    ];
    let top = i64::MAX as u64;
    let rows: Vec<Event> = (0..20_000u64)
        .map(|i| Event {
            user_id: i % 1_000,
            event_type: types[(i / 1_000 % 10) as usize].to_string(),
            ts: top - (i * 7_919 % 5_003),
        })
        .collect();
    let table = Table::<_, Event>::new(make("skip_events", &Event::split_points(4)));
    for chunk in rows.chunks(10_000) {
        table
            .put_batch(chunk.iter().map(|k| (k, b"".as_slice())))
            .unwrap();
    }
    type Case = (
        &'static str,
        rowkey::TypedQuery<Event>,
        Box<dyn Fn(&Event) -> bool>,
    );
    let cases: Vec<Case> = vec![
        (
            "event_type = login (fuzzy: listed values)",
            Event::query().event_type("login").build(),
            Box::new(|e: &Event| e.event_type == "login"),
        ),
        (
            "event_type in aa..click (fuzzy: the next byte's three values)",
            Event::query().event_type("aa".."click").build(),
            Box::new(|e: &Event| ("aa".."click").contains(&e.event_type.as_str())),
        ),
        (
            "ts >= i64::MAX - 1 (fuzzy: the reverse timestamp's last byte 0 or 1)",
            Event::query().ts(top - 1..).build(),
            Box::new(move |e: &Event| e.ts >= top - 1),
        ),
        (
            "event_type = login, ts >= i64::MAX - 300",
            Event::query().event_type("login").ts(top - 300..).build(),
            Box::new(move |e: &Event| e.event_type == "login" && e.ts > top - 301),
        ),
        (
            "event_type in !..s (regex: 83 values of the next byte, past the rules' cap)",
            Event::query().event_type("!".."s").build(),
            Box::new(|e: &Event| ("!".."s").contains(&e.event_type.as_str())),
        ),
    ];
    for (name, query, holds) in cases {
        let filter = query.key_filter().expect("a key filter");
        let passes = rows
            .iter()
            .filter(|e| filter.matches(&e.to_bytes().unwrap()))
            .count() as u64;
        let want: Vec<&Event> = rows.iter().filter(|e| holds(e)).collect();
        // Logical order: the typed walk merges the buckets back.
        let mut sorted: Vec<Event> = want.iter().map(|e| (*e).clone()).collect();
        sorted.sort_by(|a, b| {
            (a.user_id, &a.event_type, std::cmp::Reverse(a.ts)).cmp(&(
                b.user_id,
                &b.event_type,
                std::cmp::Reverse(b.ts),
            ))
        });
        let mut got: Vec<Event> = table.query(&query).map(|r| r.unwrap().0).collect();
        got.sort_by(|a, b| {
            (a.user_id, &a.event_type, std::cmp::Reverse(a.ts)).cmp(&(
                b.user_id,
                &b.event_type,
                std::cmp::Reverse(b.ts),
            ))
        });
        assert_eq!(got.len(), sorted.len(), "{label}: {name}: rows returned");
        if let Some(i) = (0..got.len()).find(|&i| got[i] != sorted[i]) {
            panic!(
                "{label}: {name}: row {i} is {:?}, not {:?}",
                got[i], sorted[i]
            );
        }
        let mut walk = table.query(&query);
        for r in walk.by_ref() {
            r.unwrap();
        }
        let stats = walk.stats();
        eprintln!(
            "{label}: {name}: {} rows crossed for {} matches ({passes} pass the key filter): {stats:?}",
            stats.read,
            want.len()
        );
        assert!(stats.filtered > 0, "{label}: {name}: {stats:?}");
        assert_eq!(
            stats.read, passes,
            "{label}: {name}: the rows that crossed are those the key filter passes\n{query}"
        );
    }
}

/// The rows of a query read through `table`, forward and reverse, checked against `want`
/// (in key order); the forward walk's stats.
fn exact<S: Store, K>(
    table: &Table<S, K>,
    query: &rowkey::Query,
    want: &[&K],
) -> rowkey::store::SkipStats
where
    K: RowKey + for<'de> rowkey::Decode<'de> + PartialEq + std::fmt::Debug,
    S::Error: std::fmt::Debug,
{
    let mut rows = table.query(query);
    let got: Vec<K> = rows.by_ref().map(|r| r.unwrap().0).collect();
    assert_eq!(got.iter().collect::<Vec<_>>(), want, "forward\n{query}");
    let stats = rows.stats();
    let mut back: Vec<K> = table
        .query_rev(query)
        .unwrap()
        .map(|r| r.unwrap().0)
        .collect();
    back.reverse();
    assert_eq!(back.iter().collect::<Vec<_>>(), want, "reverse\n{query}");
    stats
}

/// Skip scans on a store that filters rows itself (HBase, Bigtable), `make(name, splits)`
/// creating each table: exact, forward and reverse, and filtered on the server.
///
/// - `users` x 20 apps x 5 days of [`Install`] rows in four regions; `app = 7` returns exactly
///   its rows, and every row the store hands over is one (the key filter is exact there: no
///   row read but not returned, no seek);
/// - `day in 1..3` with the app open (a range: the filter checks its common bytes only, the
///   walk the rest);
/// - a variable-width field in a list of values of two lengths (a regular expression on HBase:
///   no fuzzy rule fits), per salt bucket;
/// - random queries of every kind on random rows of [`Wide`], [`Salted`] and [`Record`].
pub fn skip_scans_filtered_by_the_store<S: Store>(
    make: impl Fn(&str, &[rowkey::bytes::Bytes]) -> S,
    users: u32,
    label: &str,
) where
    S::Error: std::fmt::Debug,
{
    use std::time::Instant;
    let splits: Vec<rowkey::bytes::Bytes> = (1..4)
        .map(|i| {
            Install {
                user: users * i / 4,
                app: 0,
                day: 0,
            }
            .to_bytes()
            .unwrap()
            .to_vec()
            .into()
        })
        .collect();
    let table = Table::<_, Install>::new(make("skip_installs", &splits));
    let rows: Vec<Install> = (0..users)
        .flat_map(|user| {
            (0..20).flat_map(move |app| (0..5).map(move |day| Install { user, app, day }))
        })
        .collect();
    let t = Instant::now();
    for chunk in rows.chunks(20_000) {
        table
            .put_batch(chunk.iter().map(|k| (k, b"".as_slice())))
            .unwrap();
    }
    let put = t.elapsed();

    let t = Instant::now();
    let query = Install::query().app(7u16).build();
    let want: Vec<&Install> = rows.iter().filter(|k| k.app == 7).collect();
    let stats = exact(&table, &query, &want);
    let app = t.elapsed();
    assert_eq!(
        stats.filtered, 1,
        "the store filtered the rows itself: {stats:?}"
    );
    assert_eq!(
        stats.read,
        want.len() as u64,
        "only matching rows crossed: {stats:?}"
    );
    assert_eq!(stats.seeks, 0, "{stats:?}");

    let query = Install::query().day(1u16..3).build();
    let want: Vec<&Install> = rows.iter().filter(|k| (1..3).contains(&k.day)).collect();
    let stats = exact(&table, &query, &want);
    assert_eq!(stats.filtered, 1, "{stats:?}");
    assert_eq!(stats.seeks, 0, "{stats:?}");
    eprintln!(
        "{label}: {} rows written in {put:.2?}; app = 7 ({} rows, both directions) in {app:.2?}",
        rows.len(),
        users * 5
    );

    // Two lengths of one variable-width field: a regular expression, per salt bucket.
    let by_app = Table::<_, Salted>::new(make("skip_salted", &[]));
    let apps = ["a", "ab", "b", "a\0b"];
    let rows: Vec<Salted> = (0..200u16)
        .flat_map(|user| {
            apps.iter().flat_map(move |app| {
                (0..4).map(move |seq| Salted {
                    user,
                    app: app.to_string(),
                    seq,
                })
            })
        })
        .collect();
    by_app
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let query = Salted::query().app_in(["a", "ab"]).build();
    let mut all: Vec<Salted> = by_app
        .scan(&Salted::scan().ranges())
        .map(|r| r.unwrap().0)
        .collect();
    all.retain(|k| k.app == "a" || k.app == "ab");
    let stats = exact(&by_app, &query, &all.iter().collect::<Vec<_>>());
    assert_eq!(stats.filtered, 4, "one filtered walk per bucket: {stats:?}");
    assert_eq!(stats.read, 1_600, "{stats:?}");

    rows_crossing_are_what_the_key_filter_passes(&make, label);

    // Random queries on random rows: one table of each, many queries.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let wide_rows = proptest::collection::vec(wide(), 1_500)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let wide_table = Table::<_, Wide>::new(make("skip_wide", &[]));
    wide_table
        .put_batch(wide_rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let salted_rows = proptest::collection::vec(salted(), 1_500)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let salted_table = Table::<_, Salted>::new(make("skip_salted_random", &[]));
    salted_table
        .put_batch(salted_rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let record_rows = proptest::collection::vec(record(), 1_000)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    let record_table = Table::<_, Record>::new(make("skip_records", &[]));
    record_table
        .put_batch(record_rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    for _ in 0..24 {
        let rq = record_query().new_tree(&mut runner).unwrap().current();
        check(
            &record_table,
            &Record::scan().ranges(),
            &record_build(&rq),
            |k| record_holds(&rq, k),
        )
        .unwrap();
        let wq = wide_query().new_tree(&mut runner).unwrap().current();
        check(&wide_table, &Wide::scan().ranges(), &wide_build(&wq), |k| {
            wide_holds(&wq, k)
        })
        .unwrap();
        let sq = salted_query().new_tree(&mut runner).unwrap().current();
        let holds = |k: &Salted| sq.0.holds(&k.user) && sq.1.holds(&k.app) && sq.2.holds(&k.seq);
        check(
            &salted_table,
            &Salted::scan().ranges(),
            &salted_build(&sq),
            holds,
        )
        .unwrap();
    }
}

/// A record-type table (the HBase guide's customer/order case study): a salted shared prefix,
/// the tag, each record type's own fields.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query, prefix(customer_id))]
pub enum Record {
    #[tag(1)]
    Customer {
        #[salt(buckets = 4)]
        customer_id: u16,
    },
    #[tag(2)]
    Order {
        #[salt(buckets = 4)]
        customer_id: u16,
        order: u32,
    },
    #[tag(3)]
    Line {
        #[salt(buckets = 4)]
        customer_id: u16,
        order: u32,
        #[desc]
        item: String,
    },
}

impl Record {
    pub fn customer(&self) -> u16 {
        match self {
            Record::Customer { customer_id }
            | Record::Order { customer_id, .. }
            | Record::Line { customer_id, .. } => *customer_id,
        }
    }
}

pub fn record() -> impl Strategy<Value = Record> {
    prop_oneof![
        (0u16..5).prop_map(|customer_id| Record::Customer { customer_id }),
        (0u16..5, 0u32..4).prop_map(|(customer_id, order)| Record::Order { customer_id, order }),
        (0u16..5, 0u32..4, text()).prop_map(|(customer_id, order, item)| Record::Line {
            customer_id,
            order,
            item
        }),
    ]
}

/// A query on records: the customer, then one of: every record type, a tag list, orders by
/// number, lines by order and item.
#[derive(Clone, Debug)]
pub enum RecordQ {
    Any(Q<u16>),
    Tags(Q<u16>, Vec<u8>),
    Orders(Q<u16>, Q<u32>),
    Lines(Q<u16>, Q<u32>, Q<String>),
}

pub fn record_query() -> impl Strategy<Value = RecordQ> {
    let c = || q(0u16..6, true);
    prop_oneof![
        c().prop_map(RecordQ::Any),
        (c(), proptest::collection::vec(0u8..5, 0..3)).prop_map(|(c, t)| RecordQ::Tags(c, t)),
        (c(), q(0u32..5, true)).prop_map(|(c, o)| RecordQ::Orders(c, o)),
        (c(), q(0u32..5, true), q(text(), true)).prop_map(|(c, o, i)| RecordQ::Lines(c, o, i)),
    ]
}

pub fn record_build(q: &RecordQ) -> rowkey::TypedQuery<Record> {
    match q {
        RecordQ::Any(c) => apply!(
            Record::query(),
            c,
            customer_id,
            customer_id_in,
            |v: &u16| *v
        )
        .build(),
        RecordQ::Tags(c, tags) => apply!(
            Record::query(),
            c,
            customer_id,
            customer_id_in,
            |v: &u16| *v
        )
        .tag_in(tags.iter().copied())
        .build(),
        RecordQ::Orders(c, o) => {
            let b = Record::query().order();
            let b = apply!(b, c, customer_id, customer_id_in, |v: &u16| *v);
            apply!(b, o, order, order_in, |v: &u32| *v).build()
        }
        RecordQ::Lines(c, o, i) => {
            let b = apply!(
                Record::query(),
                c,
                customer_id,
                customer_id_in,
                |v: &u16| *v
            )
            .line();
            let b = apply!(b, o, order, order_in, |v: &u32| *v);
            apply!(b, i, item, item_in, as_str).build()
        }
    }
}

pub fn record_holds(q: &RecordQ, r: &Record) -> bool {
    let tag = match r {
        Record::Customer { .. } => 1u8,
        Record::Order { .. } => 2,
        Record::Line { .. } => 3,
    };
    match (q, r) {
        (RecordQ::Any(c), _) => c.holds(&r.customer()),
        (RecordQ::Tags(c, tags), _) => c.holds(&r.customer()) && tags.contains(&tag),
        (RecordQ::Orders(c, o), Record::Order { order, .. }) => {
            c.holds(&r.customer()) && o.holds(order)
        }
        (RecordQ::Lines(c, o, i), Record::Line { order, item, .. }) => {
            c.holds(&r.customer()) && o.holds(order) && i.holds(item)
        }
        _ => false,
    }
}
