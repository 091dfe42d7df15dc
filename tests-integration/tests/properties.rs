//! Property tests of the byte format, over keys that mix every type and attribute:
//! (a) `decode(encode(x)) == x`; (b) the order of encodings is the logical order of the values,
//! with `desc` and `reverse_ts` fields reversed; (c) no encoding is a proper prefix of another;
//! (d) any bytes given to `decode` give `Ok` or `Err`, never a panic, and whatever decodes
//! re-encodes to exactly the same bytes (the decoder accepts only canonical keys).

use std::borrow::Cow;
use std::cmp::Ordering;

use proptest::prelude::*;
mod common;

use common::Event;
use rowkey::{Decode, Hashed, RowKey};

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Inner {
    a: i16,
    b: String,
}

/// Every ordered type and attribute, unsalted so byte order is the whole key's order.
#[derive(RowKey, Debug, Clone)]
struct Mixed {
    a: i32,
    #[desc]
    b: String,
    c: Option<u16>,
    #[reverse_ts]
    ts: u64,
    d: f64,
    e: Vec<u8>,
    f: bool,
    #[fixed(6)]
    g: String,
    #[desc]
    h: i64,
    i: Inner,
    #[desc]
    j: Inner,
    k: [u8; 2],
    #[desc]
    l: Option<Vec<u8>>,
    m: u128,
    #[desc]
    n: f32,
    #[reverse_ts]
    o: i64,
    #[desc]
    #[fixed(3)]
    p: Vec<u8>,
}

fn cmp_inner(x: &Inner, y: &Inner) -> Ordering {
    x.a.cmp(&y.a).then_with(|| x.b.cmp(&y.b))
}

/// The logical order the key promises, written independently of the encoder.
fn logical(x: &Mixed, y: &Mixed) -> Ordering {
    x.a.cmp(&y.a)
        .then_with(|| y.b.cmp(&x.b))
        .then_with(|| x.c.cmp(&y.c))
        .then_with(|| y.ts.cmp(&x.ts))
        .then_with(|| x.d.total_cmp(&y.d))
        .then_with(|| x.e.cmp(&y.e))
        .then_with(|| x.f.cmp(&y.f))
        .then_with(|| x.g.cmp(&y.g))
        .then_with(|| y.h.cmp(&x.h))
        .then_with(|| cmp_inner(&x.i, &y.i))
        .then_with(|| cmp_inner(&y.j, &x.j))
        .then_with(|| x.k.cmp(&y.k))
        .then_with(|| y.l.cmp(&x.l))
        .then_with(|| x.m.cmp(&y.m))
        .then_with(|| y.n.total_cmp(&x.n))
        .then_with(|| y.o.cmp(&x.o))
        .then_with(|| y.p.cmp(&x.p))
}

/// Strings rich in the bytes that matter to escaping: 0x00, 0x01 and 0xFF-ish characters.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a\u{0}\u{1}b\u{ff}]{0,5}",
        any::<String>().prop_map(|s| s.chars().take(6).collect()),
    ]
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![Just(0u8), Just(1), Just(0xFF), Just(0xFE), any::<u8>()],
        0..6,
    )
}

/// A value for a `fixed(n)` field: at most `n` bytes, not ending in 0x00.
fn fixed_text(n: usize) -> impl Strategy<Value = String> {
    "[a\u{0}z]{0,6}".prop_filter_map("fits", move |s: String| {
        let s = s.trim_end_matches('\0').to_string();
        (s.len() <= n).then_some(s)
    })
}

fn fixed_bytes(n: usize) -> impl Strategy<Value = Vec<u8>> {
    bytes().prop_map(move |mut v| {
        v.truncate(n);
        while v.last() == Some(&0) {
            v.pop();
        }
        v
    })
}

fn inner() -> impl Strategy<Value = Inner> {
    (any::<i16>(), text()).prop_map(|(a, b)| Inner { a, b })
}

fn float64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        Just(0.0),
        Just(-0.0),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(f64::NAN),
        Just(-f64::NAN),
        (-3i8..3).prop_map(f64::from),
    ]
}

fn mixed() -> impl Strategy<Value = Mixed> {
    // Small domains for some fields so that ties happen and later fields get compared.
    (
        (
            -2i32..2,
            text(),
            prop::option::of(0u16..3),
            0u64..=i64::MAX as u64,
            float64(),
            bytes(),
        ),
        (
            any::<bool>(),
            fixed_text(6),
            -2i64..2,
            inner(),
            inner(),
            any::<[u8; 2]>(),
        ),
        (
            prop::option::of(bytes()),
            0u128..3,
            any::<f32>(),
            0i64..=i64::MAX,
            fixed_bytes(3),
        ),
    )
        .prop_map(
            |((a, b, c, ts, d, e), (f, g, h, i, j, k), (l, m, n, o, p))| Mixed {
                a,
                b,
                c,
                ts,
                d,
                e,
                f,
                g,
                h,
                i,
                j,
                k,
                l,
                m,
                n,
                o,
                p,
            },
        )
}

fn enc<K: RowKey>(k: &K) -> Vec<u8> {
    k.to_bytes()
        .expect("generated values are encodable")
        .to_vec()
}

/// Decodes `bytes`; if they decode, they must re-encode to themselves.
fn check_canonical<'de, K: RowKey + Decode<'de>>(bytes: &'de [u8]) -> Result<(), TestCaseError> {
    if let Ok(k) = K::decode(bytes) {
        prop_assert_eq!(enc(&k), bytes.to_vec(), "accepted a non-canonical key");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn mixed_round_trips(x in mixed()) {
        let bytes = enc(&x);
        prop_assert_eq!(bytes.len(), x.encoded_len());
        let back = Mixed::decode(&bytes).unwrap();
        prop_assert_eq!(logical(&back, &x), Ordering::Equal);
        prop_assert_eq!(enc(&back), bytes);
        prop_assert_eq!(back.d.to_bits(), x.d.to_bits());
    }

    #[test]
    fn mixed_order_is_logical_order(x in mixed(), y in mixed()) {
        prop_assert_eq!(enc(&x).cmp(&enc(&y)), logical(&x, &y));
    }

    #[test]
    fn no_encoding_is_a_prefix_of_another(x in mixed(), y in mixed()) {
        let (a, b) = (enc(&x), enc(&y));
        if a != b {
            prop_assert!(!b.starts_with(&a) && !a.starts_with(&b));
        }
    }

    #[test]
    fn string_fields_never_prefix_match(a in text(), b in text()) {
        #[derive(RowKey)]
        struct S { s: String, t: u8 }
        let (x, y) = (enc(&S { s: a.clone(), t: 0 }), enc(&S { s: b.clone(), t: 0 }));
        prop_assert_eq!(x.cmp(&y), a.cmp(&b));
        // The field's bytes without the trailing `t` must not prefix another value's.
        if a != b {
            prop_assert!(!y.starts_with(&x[..x.len() - 1]));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..80)) {
        check_canonical::<Mixed>(&bytes)?;
        check_canonical::<Event>(&bytes)?;
        check_canonical::<Borrowed>(&bytes)?;
        check_canonical::<Hashy>(&bytes)?;
    }

    #[test]
    fn mutated_keys_never_panic(x in mixed(), at in any::<prop::sample::Index>(), byte in any::<u8>(), cut in any::<prop::sample::Index>()) {
        let mut bytes = enc(&x);
        let i = at.index(bytes.len());
        bytes[i] = byte;
        check_canonical::<Mixed>(&bytes)?;
        let n = cut.index(bytes.len() + 1);
        check_canonical::<Mixed>(&bytes[..n])?;
    }

    #[test]
    fn event_round_trips_and_orders_within_a_bucket(
        (u1, t1, s1) in (0u64..4, 0u64..=i64::MAX as u64, fixed_text(16)),
        (u2, t2, s2) in (0u64..4, 0u64..=i64::MAX as u64, fixed_text(16)),
    ) {
        let a = Event { user_id: u1, event_type: s1, ts: t1 };
        let b = Event { user_id: u2, event_type: s2, ts: t2 };
        let (ea, eb) = (enc(&a), enc(&b));
        prop_assert_eq!(&Event::decode(&ea).unwrap(), &a);
        prop_assert_eq!(ea[0], a.salt_bucket().unwrap());
        prop_assert!(ea[0] < 16);
        if ea[0] == eb[0] {
            let logical = a.user_id.cmp(&b.user_id)
                .then_with(|| a.event_type.cmp(&b.event_type))
                .then_with(|| b.ts.cmp(&a.ts));
            prop_assert_eq!(ea.cmp(&eb), logical);
        }
    }

    #[test]
    fn borrowed_fields_round_trip(host in "[a-z0-9.]{0,12}", data in bytes(), ts in 0i64..=i64::MAX) {
        let k = Borrowed { host: &host, data: &data, name: Cow::Borrowed("n\0m"), ts };
        let bytes = enc(&k);
        let back = Borrowed::decode(&bytes);
        if data.contains(&0) {
            // Escaped bytes cannot be borrowed: a clear error, never a wrong value.
            let err = back.unwrap_err();
            prop_assert_eq!(err.kind(), rowkey::DecodeErrorKind::NeedsCopy);
            prop_assert_eq!(err.field(), "data");
        } else {
            let back = back.unwrap();
            prop_assert_eq!(&back, &k);
            // Zero-copy: the borrowed field points into the key bytes.
            let range = bytes.as_ptr_range();
            prop_assert!(range.contains(&back.host.as_ptr()) || back.host.is_empty());
            prop_assert!(matches!(back.name, Cow::Owned(_)), "escaped Cow is owned");
        }
    }
}

#[derive(RowKey, Debug, PartialEq)]
struct Borrowed<'a> {
    #[salt(buckets = 4)]
    host: &'a str,
    data: &'a [u8],
    name: Cow<'a, str>,
    #[reverse_ts]
    ts: i64,
}

#[derive(RowKey, Debug, PartialEq)]
struct Hashy {
    #[hash(md5, len = 4)]
    id: Hashed<u64, 4>,
    #[reverse]
    seq: u32,
    #[max_len(4)]
    tag: String,
}

#[test]
fn hashed_and_reversed_round_trip() {
    let k = Hashy {
        id: Hashed::new(42),
        seq: 0x0102_0304,
        tag: "ab".into(),
    };
    let bytes = enc(&k);
    assert_eq!(Hashy::decode(&bytes).unwrap(), k);
}
