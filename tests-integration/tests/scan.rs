//! Prefix-scan ranges are exact: for random keys and random prefixes and bounds, the keys the
//! ranges contain are exactly the keys whose fields match, checked against a brute-force filter
//! on the decoded values; pagination continues strictly after the last key. The classic
//! row-key scan bugs, each as a named test, are in `scan_cases.rs`.

use std::collections::BTreeSet;
use std::ops::Bound::{self, Excluded, Included, Unbounded};

use proptest::prelude::*;
use rowkey::{KeyRanges, RowKey};

mod scan_keys;

use scan_keys::{Plain, SaltFirst, SaltSecond};

fn within<T: Ord>(v: &T, lo: &Bound<T>, hi: &Bound<T>) -> bool {
    (match lo {
        Included(l) => v >= l,
        Excluded(l) => v > l,
        Unbounded => true,
    }) && (match hi {
        Included(h) => v <= h,
        Excluded(h) => v < h,
        Unbounded => true,
    })
}

fn bound<T: std::fmt::Debug + Clone + 'static>(
    v: impl Strategy<Value = T> + 'static,
) -> impl Strategy<Value = Bound<T>> {
    let v = v.boxed();
    prop_oneof![
        1 => Just(Unbounded),
        2 => v.clone().prop_map(Included),
        2 => v.prop_map(Excluded),
    ]
}

/// Every key at most 62 bytes, so scans are built in the inline buffers, with text long enough
/// that scan values and bounds overflow them (a bound is then rewritten onto the keys that can
/// exist; a value, matching nothing, empties the scan).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(key_limit = 62)]
struct Capped {
    a: u8,
    b: String,
    c: u8,
}

/// Texts around the longest a `Capped` key holds (58 bytes), in both orders of `x` and `y`.
fn capped_texts() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![0usize, 1, 30, 56, 57, 58, 59, 60, 61, 62, 70]),
        prop::sample::select(vec!["x", "y", "\0", "\u{ff}"]),
        any::<bool>(),
    )
        .prop_map(|(n, tail, before)| {
            let body = "x".repeat(n);
            if before {
                format!("{tail}{body}")
            } else {
                format!("{body}{tail}")
            }
        })
}

fn capped() -> impl Strategy<Value = Capped> {
    (
        any::<u8>().prop_map(|a| a % 3),
        capped_texts(),
        prop_oneof![Just(0u8), Just(7), Just(255)],
    )
        .prop_map(|(a, b, c)| Capped { a, b, c })
        .prop_filter("fits max_len", |k| k.to_bytes().is_ok())
}

fn i8s() -> impl Strategy<Value = i8> {
    prop_oneof![Just(i8::MIN), Just(-1), Just(0), Just(1), Just(i8::MAX)]
}
fn texts() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "", "a", "a\0", "a\0b", "ab", "b", "\u{7f}", "\u{ff}", "10", "100",
    ])
    .prop_map(String::from)
}
fn stamps() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(5),
        Just(i64::MAX as u64 - 1),
        Just(i64::MAX as u64)
    ]
}
fn stamp_bounds() -> impl Strategy<Value = u64> {
    prop_oneof![stamps(), Just(u64::MAX), Just(i64::MAX as u64 + 1)]
}
fn u16s() -> impl Strategy<Value = u16> {
    prop_oneof![Just(0u16), Just(1), Just(0xFF), Just(0x100), Just(u16::MAX)]
}
/// Values a `fixed(3)` text can hold (at most 3 bytes, no trailing NUL).
fn fixed3() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["", "a", "a\0b", "ab", "abc", "b", "\u{ff}"]).prop_map(String::from)
}
/// Bounds for it, including values it cannot hold: too long, or ending in NUL.
fn fixed3_bounds() -> impl Strategy<Value = String> {
    prop_oneof![
        fixed3(),
        prop::sample::select(vec!["a\0", "abcd", "ab\0", "abc\0", "\0", "b\0\0\0\0"])
            .prop_map(String::from)
    ]
}
fn bytes2() -> impl Strategy<Value = Vec<u8>> {
    prop::sample::select(vec![
        vec![],
        vec![0, 1],
        vec![1],
        vec![0xFF],
        vec![0xFF, 0xFF],
        vec![0x20, 0xFF],
    ])
}
fn bytes2_bounds() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        bytes2(),
        prop::sample::select(vec![
            vec![0],
            vec![0xFF, 0xFF, 0xFF],
            vec![1, 0],
            vec![0xFF, 0]
        ])
    ]
}
fn i64_stamps() -> impl Strategy<Value = i64> {
    prop_oneof![Just(0i64), Just(3), Just(i64::MAX)]
}
fn i64_stamp_bounds() -> impl Strategy<Value = i64> {
    prop_oneof![i64_stamps(), Just(-1), Just(i64::MIN)]
}

fn plain() -> impl Strategy<Value = Plain> {
    (i8s(), texts(), stamps(), u16s()).prop_map(|(a, b, ts, c)| Plain { a, b, ts, c })
}
fn salt_first() -> impl Strategy<Value = SaltFirst> {
    (
        prop_oneof![Just(0u8), Just(7), Just(0xFF)],
        fixed3(),
        prop_oneof![Just(i16::MIN), Just(-2), Just(0), Just(i16::MAX)],
        bytes2(),
    )
        .prop_map(|(a, b, c, d)| SaltFirst { a, b, c, d })
}
fn salt_second() -> impl Strategy<Value = SaltSecond> {
    (
        prop_oneof![Just(0u8), Just(9)],
        prop_oneof![Just(-1i32), Just(0), Just(i32::MAX)],
        bytes2(),
        i64_stamps(),
        prop::option::of(0u8..2),
    )
        .prop_map(|(a, b, c, d, e)| SaltSecond { a, b, c, d, e })
}

/// Checks the ranges against the brute-force filter and their shape.
fn check<K: RowKey>(
    keys: &[K],
    ranges: &KeyRanges,
    matches: impl Fn(&K) -> bool,
) -> Result<(), TestCaseError> {
    let mut expected = BTreeSet::new();
    let mut got = BTreeSet::new();
    for k in keys {
        let bytes = k.to_bytes().unwrap().to_vec();
        if matches(k) {
            expected.insert(bytes.clone());
        }
        if ranges.contains(&bytes) {
            got.insert(bytes);
        }
    }
    prop_assert_eq!(got, expected, "ranges {:?}", ranges);
    // Ranges come in key order and do not overlap.
    let list: Vec<_> = ranges.iter().collect();
    for w in list.windows(2) {
        prop_assert!(
            w[0].end().is_some_and(|e| e <= w[1].start()),
            "{:?}",
            ranges
        );
    }
    Ok(())
}

#[derive(Debug, Clone)]
struct PlainQuery {
    prefix: Plain,
    k: usize,
    a: (Bound<i8>, Bound<i8>),
    b: (Bound<String>, Bound<String>),
    ts: (Bound<u64>, Bound<u64>),
    c: (Bound<u16>, Bound<u16>),
    ranged: bool,
}

fn plain_query() -> impl Strategy<Value = PlainQuery> {
    (
        plain(),
        0usize..=4,
        (bound(i8s()), bound(i8s())),
        (bound(texts()), bound(texts())),
        (bound(stamp_bounds()), bound(stamp_bounds())),
        (bound(u16s()), bound(u16s())),
        any::<bool>(),
    )
        .prop_map(|(prefix, k, a, b, ts, c, ranged)| PlainQuery {
            prefix,
            k,
            a,
            b,
            ts,
            c,
            ranged,
        })
}

fn plain_ranges(q: &PlainQuery) -> KeyRanges {
    let p = &q.prefix;
    let bs = (
        q.b.0.as_ref().map(String::as_str),
        q.b.1.as_ref().map(String::as_str),
    );
    let s = Plain::scan();
    match (q.k, q.ranged) {
        (0, false) => s.ranges(),
        (0, true) => s.a(q.a).ranges(),
        (1, false) => s.a(p.a).ranges(),
        (1, true) => s.a(p.a).b(bs).ranges(),
        (2, false) => s.a(p.a).b(&p.b).ranges(),
        (2, true) => s.a(p.a).b(&p.b).ts(q.ts).ranges(),
        (3, false) => s.a(p.a).b(&p.b).ts(p.ts).ranges(),
        (3, true) => s.a(p.a).b(&p.b).ts(p.ts).c(q.c).ranges(),
        _ => s.a(p.a).b(&p.b).ts(p.ts).c(p.c).ranges(),
    }
}

fn plain_matches(q: &PlainQuery, k: &Plain) -> bool {
    let p = &q.prefix;
    let eq = [k.a == p.a, k.b == p.b, k.ts == p.ts, k.c == p.c];
    if !eq[..q.k.min(4)].iter().all(|&e| e) {
        return false;
    }
    if !q.ranged || q.k >= 4 {
        return true;
    }
    match q.k {
        0 => within(&k.a, &q.a.0, &q.a.1),
        1 => within(&k.b, &q.b.0, &q.b.1),
        2 => within(&k.ts, &q.ts.0, &q.ts.1),
        _ => within(&k.c, &q.c.0, &q.c.1),
    }
}

#[derive(Debug, Clone)]
struct SaltFirstQuery {
    prefix: SaltFirst,
    k: usize,
    a: (Bound<u8>, Bound<u8>),
    b: (Bound<String>, Bound<String>),
    c: (Bound<i16>, Bound<i16>),
    d: (Bound<Vec<u8>>, Bound<Vec<u8>>),
    ranged: bool,
}

fn salt_first_query() -> impl Strategy<Value = SaltFirstQuery> {
    (
        salt_first(),
        0usize..=4,
        (bound(any::<u8>()), bound(any::<u8>())),
        (bound(fixed3_bounds()), bound(fixed3_bounds())),
        (
            bound(any::<i16>()),
            bound(prop_oneof![Just(i16::MAX), Just(-2i16)]),
        ),
        (bound(bytes2_bounds()), bound(bytes2_bounds())),
        any::<bool>(),
    )
        .prop_map(|(prefix, k, a, b, c, d, ranged)| SaltFirstQuery {
            prefix,
            k,
            a,
            b,
            c,
            d,
            ranged,
        })
}

fn salt_first_ranges(q: &SaltFirstQuery) -> KeyRanges {
    let p = &q.prefix;
    let bs = (
        q.b.0.as_ref().map(String::as_str),
        q.b.1.as_ref().map(String::as_str),
    );
    let ds = (
        q.d.0.as_ref().map(Vec::as_slice),
        q.d.1.as_ref().map(Vec::as_slice),
    );
    let s = SaltFirst::scan();
    match (q.k, q.ranged) {
        (0, false) => s.ranges(),
        (0, true) => s.a(q.a).ranges(),
        (1, false) => s.a(p.a).ranges(),
        (1, true) => s.a(p.a).b(bs).ranges(),
        (2, false) => s.a(p.a).b(&p.b).ranges(),
        (2, true) => s.a(p.a).b(&p.b).c(q.c).ranges(),
        (3, false) => s.a(p.a).b(&p.b).c(p.c).ranges(),
        (3, true) => s.a(p.a).b(&p.b).c(p.c).d(ds).ranges(),
        _ => s.a(p.a).b(&p.b).c(p.c).d(&p.d).ranges(),
    }
}

fn salt_first_matches(q: &SaltFirstQuery, k: &SaltFirst) -> bool {
    let p = &q.prefix;
    let eq = [k.a == p.a, k.b == p.b, k.c == p.c, k.d == p.d];
    if !eq[..q.k.min(4)].iter().all(|&e| e) {
        return false;
    }
    if !q.ranged || q.k >= 4 {
        return true;
    }
    match q.k {
        0 => within(&k.a, &q.a.0, &q.a.1),
        1 => within(&k.b, &q.b.0, &q.b.1),
        2 => within(&k.c, &q.c.0, &q.c.1),
        _ => within(&k.d, &q.d.0, &q.d.1),
    }
}

#[derive(Debug, Clone)]
struct SaltSecondQuery {
    prefix: SaltSecond,
    k: usize,
    b: (Bound<i32>, Bound<i32>),
    c: (Bound<Vec<u8>>, Bound<Vec<u8>>),
    d: (Bound<i64>, Bound<i64>),
    e: (Bound<Option<u8>>, Bound<Option<u8>>),
    ranged: bool,
}

fn salt_second_query() -> impl Strategy<Value = SaltSecondQuery> {
    (
        salt_second(),
        0usize..=5,
        (
            bound(prop_oneof![Just(-1i32), Just(0), Just(i32::MAX)]),
            bound(prop_oneof![Just(-1i32), Just(0), Just(i32::MAX)]),
        ),
        (bound(bytes2_bounds()), bound(bytes2_bounds())),
        (bound(i64_stamp_bounds()), bound(i64_stamp_bounds())),
        (
            bound(prop::option::of(0u8..2)),
            bound(prop::option::of(0u8..2)),
        ),
        any::<bool>(),
    )
        .prop_map(|(prefix, k, b, c, d, e, ranged)| SaltSecondQuery {
            prefix,
            k,
            b,
            c,
            d,
            e,
            ranged,
        })
}

fn salt_second_ranges(q: &SaltSecondQuery) -> KeyRanges {
    let p = &q.prefix;
    let cs = (
        q.c.0.as_ref().map(Vec::as_slice),
        q.c.1.as_ref().map(Vec::as_slice),
    );
    let s = SaltSecond::scan();
    match (q.k, q.ranged) {
        (0, _) => s.ranges(),
        (1, false) => s.a(p.a).ranges(),
        (1, true) => s.a(p.a).b(q.b).ranges(),
        (2, false) => s.a(p.a).b(p.b).ranges(),
        (2, true) => s.a(p.a).b(p.b).c(cs).ranges(),
        (3, false) => s.a(p.a).b(p.b).c(&p.c).ranges(),
        (3, true) => s.a(p.a).b(p.b).c(&p.c).d(q.d).ranges(),
        (4, false) => s.a(p.a).b(p.b).c(&p.c).d(p.d).ranges(),
        (4, true) => s.a(p.a).b(p.b).c(&p.c).d(p.d).e(q.e).ranges(),
        _ => s.a(p.a).b(p.b).c(&p.c).d(p.d).e(p.e).ranges(),
    }
}

fn salt_second_matches(q: &SaltSecondQuery, k: &SaltSecond) -> bool {
    let p = &q.prefix;
    let eq = [k.a == p.a, k.b == p.b, k.c == p.c, k.d == p.d, k.e == p.e];
    if !eq[..q.k.min(5)].iter().all(|&e| e) {
        return false;
    }
    if !q.ranged || q.k == 0 || q.k >= 5 {
        return true;
    }
    match q.k {
        1 => within(&k.b, &q.b.0, &q.b.1),
        2 => within(&k.c, &q.c.0, &q.c.1),
        3 => within(&k.d, &q.d.0, &q.d.1),
        _ => within(&k.e, &q.e.0, &q.e.1),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn plain_scans_are_exact(keys in prop::collection::vec(plain(), 1..120), q in plain_query()) {
        let mut keys = keys;
        keys.push(q.prefix.clone());
        let ranges = plain_ranges(&q);
        prop_assert!(ranges.len() <= 1);
        check(&keys, &ranges, |k| plain_matches(&q, k))?;
    }

    #[test]
    fn salted_first_field_scans_are_exact(keys in prop::collection::vec(salt_first(), 1..120), q in salt_first_query()) {
        let mut keys = keys;
        keys.push(q.prefix.clone());
        let ranges = salt_first_ranges(&q);
        // The bucket is known once the salted field is fixed.
        if q.k >= 1 {
            prop_assert!(ranges.len() <= 1);
        }
        check(&keys, &ranges, |k| salt_first_matches(&q, k))?;
    }

    #[test]
    fn salted_second_field_scans_are_exact(keys in prop::collection::vec(salt_second(), 1..120), q in salt_second_query()) {
        let mut keys = keys;
        keys.push(q.prefix.clone());
        let ranges = salt_second_ranges(&q);
        if q.k >= 2 {
            prop_assert!(ranges.len() <= 1);
        } else {
            prop_assert!(ranges.len() <= 3);
        }
        check(&keys, &ranges, |k| salt_second_matches(&q, k))?;
    }

    #[test]
    fn scans_past_the_inline_buffer_are_exact(
        keys in prop::collection::vec(capped(), 1..80),
        a in any::<u8>().prop_map(|a| a % 3),
        b in capped_texts(),
        lo in bound(capped_texts()),
        hi in bound(capped_texts()),
        c in (bound(prop_oneof![Just(0u8), Just(7), Just(255)]), bound(prop_oneof![Just(0u8), Just(7), Just(255)])),
        k in 0usize..4,
    ) {
        let mut keys = keys;
        let probe = Capped { a, b: b.clone(), c: 7 };
        if probe.to_bytes().is_ok() {
            keys.push(probe);
        }
        let bs = (lo.as_ref().map(String::as_str), hi.as_ref().map(String::as_str));
        let ranges = match k {
            0 => Capped::scan().a(a).ranges(),
            1 => Capped::scan().a(a).b(bs).ranges(),
            2 => Capped::scan().a(a).b(b.as_str()).ranges(),
            _ => Capped::scan().a(a).b(b.as_str()).c(c).ranges(),
        };
        check(&keys, &ranges, |key| {
            key.a == a
                && match k {
                    0 => true,
                    1 => within(&key.b, &lo, &hi),
                    2 => key.b == b,
                    _ => key.b == b && within(&key.c, &c.0, &c.1),
                }
        })?;
    }

    #[test]
    fn pagination_continues_strictly_after(keys in prop::collection::vec(plain(), 1..60), a in i8s(), cut in any::<prop::sample::Index>()) {
        let ranges = Plain::scan().a(a).ranges();
        let mut inside: Vec<Vec<u8>> = keys.iter().map(|k| k.to_bytes().unwrap().to_vec()).filter(|b| ranges.contains(b)).collect();
        inside.sort();
        inside.dedup();
        if !inside.is_empty() {
            let last = &inside[cut.index(inside.len())];
            let next = ranges.after(last);
            for k in &inside {
                prop_assert_eq!(next.contains(k), k > last);
            }
        }
    }

    #[test]
    fn salted_pagination_continues_each_bucket(keys in prop::collection::vec(salt_first(), 1..60), cut in any::<prop::sample::Index>()) {
        let ranges = SaltFirst::scan().ranges();
        let mut all: Vec<(Vec<u8>, Vec<u8>)> = keys.iter().map(|k| {
            let b = k.to_bytes().unwrap().to_vec();
            (b[1..].to_vec(), b)
        }).collect();
        all.sort();
        all.dedup();
        let (last_tail, last) = &all[cut.index(all.len())];
        let next = ranges.after(last);
        for (tail, key) in &all {
            // Logically after: the unsalted bytes are greater.
            prop_assert_eq!(next.contains(key), tail > last_tail);
        }
    }
}
