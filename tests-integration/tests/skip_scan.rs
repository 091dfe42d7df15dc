//! Skip-scan queries (`T::query()`, `Table::query`) are exact: on random rows of keys with
//! every kind of field (signed, descending text with 0x00 and 0xFF bytes, `Option`,
//! `reverse_ts`, fixed-width text, a salt, an unordered `#[reverse]` field) and random queries
//! (each field open, equal to a value, in a list, or in a range with any kind of bounds), the
//! rows a query returns are exactly a full scan's rows that satisfy it, in the same order, and
//! reversed by `query_rev`: on the memory store and on fjall.

#[path = "store_suite/skip.rs"]
mod skip;

use proptest::prelude::*;
use rowkey::store::{MemStore, Store, Table};
use rowkey::RowKey;
use skip::*;

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

/// A store that filters rows itself, as HBase's and Bigtable's servers do, by every form of a
/// key filter at once: its own check, HBase's `FuzzyRowFilter` rules as a region server applies
/// them (a key shorter than a rule is checked on its own bytes), the Java regular expression
/// as `RegexStringComparator` runs it (`find`, bytes read as ISO-8859-1) and the RE2 one as
/// Bigtable does (the whole key; `\C` any byte). A row that any form rejects is not handed
/// over, so a form that rejects a key the query matches fails the exactness tests.
struct Filtering {
    rows: MemStore,
    /// Keys the filters passed, over all scans.
    passed: std::sync::atomic::AtomicU64,
}

impl Filtering {
    fn new() -> Self {
        Filtering {
            rows: MemStore::new(),
            passed: Default::default(),
        }
    }
}

/// Whether `key` passes a `FuzzyRowFilter` rule as HBase checks it.
fn fuzzy_passes(rules: &[(Vec<u8>, Vec<u8>)], key: &[u8]) -> bool {
    rules.iter().any(|(template, mask)| {
        key.iter()
            .zip(template.iter().zip(mask))
            .all(|(k, (t, m))| *m == 1 || k == t)
    })
}

impl Store for Filtering {
    type Error = <MemStore as Store>::Error;
    type Scan<'a> = Box<dyn Iterator<Item = Result<rowkey::store::Row, Self::Error>> + 'a>;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Self::Error> {
        self.rows.put(key, value)
    }
    fn get(&self, key: &[u8]) -> Result<Option<rowkey::bytes::Bytes>, Self::Error> {
        self.rows.get(key)
    }
    fn delete(&self, key: &[u8]) -> Result<(), Self::Error> {
        self.rows.delete(key)
    }
    fn write_batch(
        &self,
        rows: &[rowkey::store::Row],
    ) -> Result<(), rowkey::store::BatchError<Self::Error>> {
        self.rows.write_batch(rows)
    }
    fn scan(&self, range: &rowkey::KeyRange) -> Self::Scan<'_> {
        Box::new(self.rows.scan(range))
    }
    fn scan_rev(&self, range: &rowkey::KeyRange) -> Option<Self::Scan<'_>> {
        Some(Box::new(self.rows.scan_rev(range)?))
    }
    fn scan_filtered(
        &self,
        range: &rowkey::KeyRange,
        filter: &rowkey::KeyFilter,
        reverse: bool,
    ) -> Option<Self::Scan<'_>> {
        let java = regex::bytes::Regex::new(&format!("(?-u){}", filter.java_regex())).unwrap();
        let re2 = format!("(?s-u)^(?:{})$", filter.re2_regex().replace("\\C", "."));
        let re2 = regex::bytes::Regex::new(&re2).unwrap();
        let fuzzy = filter.fuzzy(64);
        let filter = filter.clone();
        let rows = if reverse {
            self.rows.scan_rev(range)?
        } else {
            self.rows.scan(range)
        };
        Some(Box::new(rows.filter(move |row| {
            let Ok((key, _)) = row else { return true };
            let pass = filter.matches(key)
                && java.is_match(key)
                && re2.is_match(key)
                && fuzzy.as_ref().is_none_or(|rules| fuzzy_passes(rules, key));
            if pass {
                self.passed
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            pass
        })))
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// The key filters are supersets of their queries, in every form a server takes them.
    #[test]
    fn key_filters_pass_every_match(
        wide_rows in proptest::collection::vec(wide(), 0..60),
        salted_rows in proptest::collection::vec(salted(), 0..60),
        wqs in proptest::collection::vec(wide_query(), 1..4),
        sqs in proptest::collection::vec(salted_query(), 1..4),
    ) {
        let wide = Table::<_, Wide>::new(Filtering::new());
        for k in &wide_rows {
            wide.put(k, b"").unwrap();
        }
        for wq in &wqs {
            check(&wide, &Wide::scan().ranges(), &wide_build(wq), |k| wide_holds(wq, k))?;
        }
        let salted = Table::<_, Salted>::new(Filtering::new());
        for k in &salted_rows {
            salted.put(k, b"").unwrap();
        }
        for sq in &sqs {
            let holds = |k: &Salted| sq.0.holds(&k.user) && sq.1.holds(&k.app) && sq.2.holds(&k.seq);
            check(&salted, &Salted::scan().ranges(), &salted_build(sq), holds)?;
        }
    }
}

/// A store that filters rows itself is given the filter once and never sought on: the app
/// query over fixed-width keys reads only its matches.
#[test]
fn a_filtering_store_is_read_once_without_seeks() {
    let table = Table::<_, Install>::new(Filtering::new());
    for user in 0..300 {
        for app in 0..20 {
            table.put(&Install { user, app, day: 1 }, b"").unwrap();
        }
    }
    let query = Install::query().app(3u16).build();
    let plan = query.to_string();
    assert!(
        plan.contains(
            "filtered by the servers: (?s)^(?:.){4}(?:\\x00\\x03) (HBase: 1 FuzzyRowFilter rule(s), seeking)"
        ),
        "{plan}"
    );
    let mut rows = table.query(&query);
    assert_eq!(rows.by_ref().count(), 300);
    let stats = rows.stats();
    assert_eq!(
        (stats.read, stats.matched, stats.seeks, stats.filtered),
        (300, 300, 0, 1)
    );
    // Leading lists are ranges of their own: the store reads each user's app 3, nothing
    // between the users.
    let query = Install::query().user_in([5u32, 250, 299]).app(3u16).build();
    assert_eq!(query.key_ranges(1_024).len(), 3);
    let mut rows = table.query(&query);
    assert_eq!(rows.by_ref().count(), 3);
    let stats = rows.stats();
    assert_eq!(
        (stats.read, stats.matched, stats.seeks),
        (3, 3, 0),
        "{stats:?}"
    );
    let mut rows = table.query_rev(&query).unwrap();
    let users: Vec<u32> = rows.by_ref().map(|r| r.unwrap().0.user).collect();
    assert_eq!(users, [299, 250, 5]);
    // No key filter can tell a key apart here (an open variable-width field first): the walk
    // seeks on the plain scan.
    let table = Table::<_, Salted>::new(Filtering::new());
    let query = Salted::query().seq(1u32).build();
    assert_eq!(query.key_filter(), None);
    assert!(query.to_string().contains("no key filter"), "{query}");
    let _ = table.query(&query).count();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Record-type keys: the prefix, the tag (a list of tags, or a record type chosen) and a
    /// record type's own fields, exact forward and reverse, on a store that seeks and on one
    /// that filters.
    #[test]
    fn record_types_on_memory_and_filtering(
        rows in proptest::collection::vec(record(), 0..60),
        queries in proptest::collection::vec(record_query(), 1..5),
    ) {
        let mem = Table::<_, Record>::new(MemStore::new());
        let filtering = Table::<_, Record>::new(Filtering::new());
        for k in &rows {
            mem.put(k, b"").unwrap();
            filtering.put(k, b"").unwrap();
        }
        for q in &queries {
            let query = record_build(q);
            check(&mem, &Record::scan().ranges(), &query, |k| record_holds(q, k))?;
            check(&filtering, &Record::scan().ranges(), &query, |k| record_holds(q, k))?;
        }
    }
}

/// A record type's query seeks past the other record types: the orders of one customer among
/// thousands of lines read the orders, not the lines.
#[test]
fn a_record_type_is_sought_not_read() {
    let table = Table::<_, Record>::new(MemStore::new());
    for customer in 0..20u16 {
        table
            .put(
                &Record::Customer {
                    customer_id: customer,
                },
                b"",
            )
            .unwrap();
        for order in 0..5u32 {
            table
                .put(
                    &Record::Order {
                        customer_id: customer,
                        order,
                    },
                    b"",
                )
                .unwrap();
            for item in 0..100 {
                let item = format!("i{item:03}");
                let line = Record::Line {
                    customer_id: customer,
                    order,
                    item,
                };
                table.put(&line, b"").unwrap();
            }
        }
    }
    let query = Record::query().order().order(3u32).build();
    let mut rows = table.query(&query);
    let got: Vec<Record> = rows.by_ref().map(|r| r.unwrap().0).collect();
    assert_eq!(got.len(), 20, "{query}");
    assert!(got
        .iter()
        .all(|r| matches!(r, Record::Order { order: 3, .. })));
    let stats = rows.stats();
    assert!(stats.read < 600, "of 10,120 rows: {stats:?}\n{query}");
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

/// Rows read per match, as Phoenix's skip scan reads them: from a match the walk seeks straight
/// to (the open field's next value, the least allowed values of the constrained fields after
/// it). The guide's `(user, app)` with `app = 42` over 1,000 users x 100 apps read 5.0 rows per
/// match and sought 2,000 times; `(user, app, day)` with `app = 42 AND day = 3` read 9.0 and
/// sought 4 times per match. Now 2 rows per match on both (the match and the key after it),
/// one seek per match, and the adaptive read-on's tries at reading a gap through: the first
/// (12 rows) before it learns the gaps are long, and one of 12 rows each time the number of
/// gaps sought past doubles (so that a walk whose gaps turn short reads through them again:
/// `benches/skip_scan`'s `day = 3`), 12 x log2(matches) at the most.
#[test]
fn a_skip_scan_reads_at_most_two_rows_per_match() {
    use rowkey::store::{MemStore, Table};

    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(query)]
    struct Install {
        user_id: u32,
        app_id: u32,
    }
    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(query)]
    struct Daily {
        user: u32,
        app: u16,
        day: u16,
    }

    let installs = Table::<_, Install>::new(MemStore::new());
    let rows: Vec<Install> = (0..1_000u32)
        .flat_map(|u| {
            (0..100u32).map(move |a| Install {
                user_id: u,
                app_id: a,
            })
        })
        .collect();
    installs
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let mut walk = installs.query(&Install::query().app_id(42u32).build());
    let found = walk.by_ref().filter(|r| r.is_ok()).count();
    let stats = walk.stats();
    assert_eq!(found, 1_000);
    let tries = 16 * (1 + u64::from(stats.matched.max(1).ilog2()));
    assert!(
        stats.read <= 2 * stats.matched + tries,
        "{:.2} rows read per match: {stats:?}",
        stats.read as f64 / stats.matched as f64
    );
    assert!(stats.seeks <= stats.matched + 4, "{stats:?}");
    eprintln!("(user, app): {stats:?}");

    let daily = Table::<_, Daily>::new(MemStore::new());
    let rows: Vec<Daily> = (0..300u32)
        .flat_map(|u| {
            (0..60u16).flat_map(move |a| {
                (0..10u16).map(move |d| Daily {
                    user: u,
                    app: a,
                    day: d,
                })
            })
        })
        .collect();
    daily
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let mut walk = daily.query(&Daily::query().app(42u16).day(3u16).build());
    let found = walk.by_ref().filter(|r| r.is_ok()).count();
    let stats = walk.stats();
    assert_eq!(found, 300);
    let tries = 16 * (1 + u64::from(stats.matched.max(1).ilog2()));
    assert!(
        stats.read <= 2 * stats.matched + tries,
        "{:.2} rows read per match: {stats:?}",
        stats.read as f64 / stats.matched as f64
    );
    assert!(stats.seeks <= stats.matched + 4, "{stats:?}");
    eprintln!("(user, app, day): {stats:?}");

    // `day = 3` with `app` open: a gap of 9 keys after each match, which a seek costs more
    // than reading through (on fjall, a seek is about 12 rows' reads). The walk's first gaps
    // halve its read-on budget to nothing; its tries at the full budget find the gaps short,
    // and it reads through them from then on: a few seeks, not one per match.
    let mut walk = daily.query(&Daily::query().day(3u16).build());
    let found = walk.by_ref().filter(|r| r.is_ok()).count();
    let stats = walk.stats();
    assert_eq!(found, 300 * 60);
    assert!(stats.seeks <= 64, "{stats:?}");
    assert!(stats.read <= rows.len() as u64, "{stats:?}");
    eprintln!("(user, app, day), day alone: {stats:?}");
}

/// One field's query through `DynQuery` (run-time values, as SQL's literals arrive).
fn apply_dyn<K: rowkey::QueryKey, T: std::fmt::Debug>(
    b: &mut rowkey::DynQuery<K>,
    name: &str,
    q: &Q<T>,
    conv: impl Fn(&T) -> rowkey::DynValue<'static>,
) {
    let field = rowkey::DynQuery::<K>::field(name).expect("a field of the key");
    let taken = match q {
        Q::Open => true,
        Q::Eq(v) => b.eq(field, &conv(v)),
        Q::In(vs) => b.any_of(field, &vs.iter().map(&conv).collect::<Vec<_>>()),
        Q::Range(lo, hi) => {
            let (lo, hi) = (lo.as_ref().map(&conv), hi.as_ref().map(&conv));
            b.between(field, lo.as_ref(), hi.as_ref())
        }
    };
    assert!(taken, "{name}: {q:?} refused");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// A query built from run-time values (`DynQuery`, what SQL's filters become) is the
    /// typed builder's, segment for segment: signed, descending text, `Option`, `reverse_ts`,
    /// fixed-width text, a salt fixed from its field's values, an unordered field's values.
    #[test]
    fn dynamic_queries_are_the_typed_ones(w in wide_query(), s in salted_query()) {
        use rowkey::DynValue as V;
        let mut d = rowkey::DynQuery::<Wide>::new();
        apply_dyn(&mut d, "a", &w.0, |v: &i16| V::I64(i64::from(*v)));
        apply_dyn(&mut d, "b", &w.1, |v: &String| V::Str(v.clone().into()));
        apply_dyn(&mut d, "c", &w.2, |v: &Option<u8>| v.map_or(V::Null, V::U8));
        apply_dyn(&mut d, "ts", &w.3, |v: &u64| V::U64(*v));
        apply_dyn(&mut d, "f", &w.4, |v: &String| V::Str(v.clone().into()));
        let (got, want) = (d.build(), wide_build(&w));
        prop_assert_eq!(got.segments(), want.segments());

        let mut d = rowkey::DynQuery::<Salted>::new();
        apply_dyn(&mut d, "user", &s.0, |v: &u16| V::U32(u32::from(*v)));
        apply_dyn(&mut d, "app", &s.1, |v: &String| V::Str(v.clone().into()));
        let mut typed = s.clone();
        // The unordered field has no run-time form: refused, and left to the caller.
        let seq = rowkey::DynQuery::<Salted>::field("seq").unwrap();
        prop_assert!(!d.eq(seq, &V::U32(1)));
        typed.2 = Q::Open;
        let (got, want) = (d.build(), salted_build(&typed));
        prop_assert_eq!(got.segments(), want.segments());
    }
}

/// What a run-time value cannot be exactly is refused, and the query is left as it was.
#[test]
fn dynamic_queries_refuse_what_the_field_cannot_hold() {
    use rowkey::DynValue as V;
    use std::ops::Bound;
    let a = rowkey::DynQuery::<Wide>::field("a").unwrap();
    let b = rowkey::DynQuery::<Wide>::field("b").unwrap();
    let mut d = rowkey::DynQuery::<Wide>::new();
    assert!(!d.eq(a, &V::I64(40_000)), "out of i16's range");
    assert!(!d.eq(a, &V::Str("1".into())), "text for a number");
    assert!(
        !d.any_of(a, &[V::I16(1), V::F64(2.0)]),
        "one bad value refuses the list"
    );
    assert!(!d.between(b, Bound::Included(&V::I16(1)), Bound::Unbounded));
    assert!(!d.eq(99, &V::I16(1)), "no such field");
    assert_eq!(rowkey::DynQuery::<Wide>::field("nope"), None);
    let open = Wide::query().build();
    assert_eq!(d.build().segments(), open.segments());
}

/// A key field of a user's own type, or a nested key, has no run-time form: the derive still
/// compiles the key's query hook, which refuses those fields and takes the others.
#[test]
fn dynamic_queries_refuse_fields_without_a_run_time_form() {
    use rowkey::DynValue as V;

    #[derive(RowKey, Debug, Clone, Copy, PartialEq)]
    struct Inner {
        x: u8,
        y: u8,
    }

    #[derive(RowKey, Debug, PartialEq)]
    #[rowkey(query)]
    struct Outer {
        inner: Inner,
        n: u32,
    }

    let inner = rowkey::DynQuery::<Outer>::field("inner").unwrap();
    let n = rowkey::DynQuery::<Outer>::field("n").unwrap();
    let mut d = rowkey::DynQuery::<Outer>::new();
    assert!(!d.eq(inner, &V::U8(1)));
    assert!(d.eq(n, &V::U32(5)));
    let (got, want) = (d.build(), Outer::query().n(5u32).build());
    assert_eq!(got.segments(), want.segments());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// A walk cut anywhere (`SkipScan::within` each piece between any keys: regions' first
    /// keys, which need not be keys of the table) yields, piece after piece, exactly the
    /// whole walk: on a store that is sought on and on one that filters rows itself, salted
    /// or not.
    #[test]
    fn walks_cut_at_any_keys_are_the_whole_walk(
        rows in proptest::collection::vec(wide(), 0..60),
        salted_rows in proptest::collection::vec(salted(), 0..40),
        wq in wide_query(),
        sq in salted_query(),
        cuts in proptest::collection::vec(
            prop_oneof![
                wide().prop_map(|k| k.to_bytes().unwrap().to_vec()),
                proptest::collection::vec(any::<u8>(), 1..4),
            ],
            0..6,
        ),
    ) {
        use rowkey::store::SkipScan;
        fn pieces_equal_whole<S: Store>(store: &S, query: &rowkey::Query, cuts: &[Vec<u8>]) -> Result<(), TestCaseError> {
            let whole: Vec<Vec<u8>> = SkipScan::new(store, query).map(|r| r.unwrap().0.to_vec()).collect();
            let mut cuts: Vec<Vec<u8>> = cuts.to_vec();
            cuts.sort();
            cuts.dedup();
            let mut from: Vec<u8> = Vec::new();
            let mut pieces = Vec::new();
            for c in cuts.iter().chain(std::iter::once(&Vec::new())) {
                let range = if c.is_empty() {
                    rowkey::KeyRange::new(&from, None)
                } else {
                    rowkey::KeyRange::new(&from, Some(c))
                };
                pieces.extend(SkipScan::within(store, query, &range).map(|r| r.unwrap().0.to_vec()));
                from = c.clone();
            }
            prop_assert_eq!(pieces, whole, "{}", query);
            Ok(())
        }
        for store in [Table::<_, Wide>::new(MemStore::new())] {
            for k in &rows {
                store.put(k, b"").unwrap();
            }
            pieces_equal_whole(store.store(), &wide_build(&wq), &cuts)?;
        }
        let filtering = Table::<_, Wide>::new(Filtering::new());
        for k in &rows {
            filtering.put(k, b"").unwrap();
        }
        pieces_equal_whole(filtering.store(), &wide_build(&wq), &cuts)?;
        let salted = Table::<_, Salted>::new(MemStore::new());
        for k in &salted_rows {
            salted.put(k, b"").unwrap();
        }
        let salted_cuts: Vec<Vec<u8>> = cuts.iter().map(|c| c[..1].to_vec()).collect();
        pieces_equal_whole(salted.store(), &salted_build(&sq), &salted_cuts)?;
    }
}
