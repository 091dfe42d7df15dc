//! Keys Java code wrote (FORMAT.md §2.16-§2.18), declared byte for byte: Flurry's
//! `writeLong(userId)` + `writeUTF(applicationId)`, the HBase guide's `Bytes.toBytes`
//! concatenations with a string last. The golden bytes are Java's, worked by hand from the JDK's
//! `DataOutputStream` and HBase's `Bytes` (the suite against HBase's Java client is
//! `tests/hbase_rpc.rs`); the properties pin what the derive claims about order, and that
//! decoding never panics and never accepts a key it would not write.

mod common;

use std::cmp::Ordering;

use common::{h, hex};
use proptest::prelude::*;
use rowkey::store::{MemStore, Table};
use rowkey::{DecodeErrorKind, RowKey};

/// Flurry's key with the id declared as Java writes it: any `long` (equality only).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
struct FlurryAny {
    #[java]
    user_id: i64,
    #[java(utf)]
    application_id: String,
}

/// Flurry's key with the article's own assumption made a type: ids are never negative, so the
/// bytes sort as the ids and ranges are exact.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
struct Flurry {
    #[java]
    user_id: u64,
    #[java(utf)]
    application_id: String,
}

/// `Bytes.toBytes(int) + Bytes.toBytes(long) + Bytes.toBytes(String)`, the string last.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
struct Concat {
    #[java]
    shard: u32,
    #[java]
    seq: i64,
    #[rest]
    name: String,
}

/// Every `#[java]` number, and raw bytes last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Numbers {
    #[java]
    a: i8,
    #[java]
    b: i16,
    #[java]
    c: f32,
    #[java]
    d: f64,
    #[java]
    e: u16,
    #[rest]
    tail: Vec<u8>,
}

/// A borrowed last part: read straight from the key's bytes.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Borrowed<'a> {
    #[java]
    id: i32,
    #[rest]
    name: &'a str,
}

fn enc<K: RowKey>(k: &K) -> String {
    hex(&k.to_bytes().expect("encodes"))
}

#[test]
fn golden_bytes_are_javas() {
    // new DataOutputStream(out).writeLong(1); writeUTF("abc")
    let k = Flurry {
        user_id: 1,
        application_id: "abc".into(),
    };
    assert_eq!(enc(&k), h("0000000000000001 0003 616263"));
    // writeLong(-2); writeUTF("a\u0000😀"): NUL as C0 80, U+1F600 as its two surrogates.
    let k = FlurryAny {
        user_id: -2,
        application_id: "a\0😀".into(),
    };
    assert_eq!(enc(&k), h("fffffffffffffffe 0009 61 c080 eda0bd edb880"));
    // Bytes.toBytes(7) + Bytes.toBytes(-1L) + Bytes.toBytes("user_10")
    let k = Concat {
        shard: 7,
        seq: -1,
        name: "user_10".into(),
    };
    assert_eq!(enc(&k), h("00000007 ffffffffffffffff 757365725f3130"));
    // writeByte(-1), writeShort(-300), writeFloat(1.5f), writeDouble(-0.0), writeShort(513),
    // then raw bytes.
    let k = Numbers {
        a: -1,
        b: -300,
        c: 1.5,
        d: -0.0,
        e: 513,
        tail: vec![0, 1, 0],
    };
    assert_eq!(enc(&k), h("ff fed4 3fc00000 8000000000000000 0201 000100"));
    let b = Borrowed { id: 5, name: "x" };
    let bytes = b.to_bytes().unwrap();
    assert_eq!(hex(&bytes), h("00000005 78"));
    assert_eq!(Borrowed::decode(&bytes).unwrap(), b);
}

#[test]
fn decoding_names_the_field_and_refuses_what_java_never_wrote() {
    // A negative long in a field declared unsigned.
    let bytes = hex_bytes("ffffffffffffffff 0000");
    let err = Flurry::decode(&bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::JavaNegative);
    assert_eq!(err.field(), "user_id");
    assert!(FlurryAny::decode(&bytes).is_ok());
    // A writeUTF length past the key.
    let err = Flurry::decode(&hex_bytes("0000000000000001 0005 6162")).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::Truncated { .. }),
        "{err}"
    );
    assert_eq!(err.field(), "application_id");
    // A raw NUL, which writeUTF writes as C0 80.
    let err = Flurry::decode(&hex_bytes("0000000000000001 0002 6100")).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::BadModifiedUtf8 { .. }),
        "{err}"
    );
    assert_eq!(err.offset(), 10);
    assert!(err.to_string().contains("application_id"), "{err}");
    // Bytes after the last field.
    let err = Flurry::decode(&hex_bytes("0000000000000001 0000 ff")).unwrap_err();
    assert!(
        matches!(err.kind(), DecodeErrorKind::TrailingBytes { count: 1 }),
        "{err}"
    );
    // Invalid UTF-8 in a `rest` string.
    let err = Concat::decode(&hex_bytes("00000007 0000000000000001 ff")).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::BadUtf8);
    assert_eq!(err.field(), "name");
    // Encoding refuses what Java could not have written: an unsigned value above long's max.
    let err = Flurry {
        user_id: u64::MAX,
        application_id: String::new(),
    }
    .to_bytes()
    .unwrap_err();
    assert!(err.to_string().contains("negative"), "{err}");
    let err = Flurry {
        user_id: 1,
        application_id: "é".repeat(40_000),
    }
    .to_bytes()
    .unwrap_err();
    assert!(err.to_string().contains("65535"), "{err}");
}

fn hex_bytes(s: &str) -> Vec<u8> {
    let s = h(s);
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn a_scan_for_user_10_never_returns_user_100() {
    let table = Table::<_, Concat>::new(MemStore::new());
    let names = [
        "user_1",
        "user_10",
        "user_100",
        "user_10_x",
        "user_11",
        "user_2",
    ];
    let rows: Vec<Concat> = names
        .iter()
        .map(|n| Concat {
            shard: 1,
            seq: 5,
            name: n.to_string(),
        })
        .collect();
    table
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let got = |ranges: rowkey::KeyRanges| -> Vec<String> {
        table
            .scan(&ranges)
            .map(|r| r.unwrap().0.name)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        got(Concat::scan()
            .shard(1u32)
            .seq(5i64)
            .name("user_10")
            .ranges()),
        ["user_10"]
    );
    assert_eq!(
        got(Concat::scan()
            .shard(1u32)
            .seq(5i64)
            .name("user_10"..="user_100")
            .ranges()),
        ["user_10", "user_100"]
    );
    assert_eq!(
        got(Concat::scan()
            .shard(1u32)
            .seq(5i64)
            .name("user_10".."user_100")
            .ranges()),
        ["user_10"]
    );
    assert_eq!(
        got(Concat::scan()
            .shard(1u32)
            .seq(5i64)
            .name("user_10"..)
            .ranges()),
        ["user_10", "user_100", "user_10_x", "user_11", "user_2"]
    );
    // The query builder too (a skip scan over any field).
    let found: Vec<String> = table
        .query(&Concat::query().name("user_10").build())
        .map(|r| r.unwrap().0.name)
        .collect();
    assert_eq!(found, ["user_10"]);
}

#[test]
fn flurrys_ranges_are_exact_where_ids_are_never_negative() {
    let table = Table::<_, Flurry>::new(MemStore::new());
    let mut rows = Vec::new();
    for user in [0u64, 1, 2, 255, 256, 65_536, i64::MAX as u64] {
        for app in ["", "a", "ab", "b", "z\0"] {
            rows.push(Flurry {
                user_id: user,
                application_id: app.into(),
            });
        }
    }
    table
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let users = |ranges: rowkey::KeyRanges| -> Vec<u64> {
        let mut v: Vec<u64> = table.scan(&ranges).map(|r| r.unwrap().0.user_id).collect();
        v.dedup();
        v
    };
    assert_eq!(
        users(Flurry::scan().user_id(2u64..=65_536).ranges()),
        [2, 255, 256, 65_536]
    );
    assert_eq!(
        users(Flurry::scan().user_id(256u64..).ranges()),
        [256, 65_536, i64::MAX as u64]
    );
    // Above long's max: no key can hold it, so the range ends there.
    assert_eq!(
        users(Flurry::scan().user_id(1u64..u64::MAX).ranges()).len(),
        6
    );
    assert!(users(Flurry::scan().user_id(u64::MAX..).ranges()).is_empty());
    // A user's apps, in writeUTF's order: by length first, as the article warns (`z\0` is
    // three bytes of modified UTF-8: `7A C0 80`).
    let apps: Vec<String> = table
        .scan(&Flurry::scan().user_id(256u64).ranges())
        .map(|r| r.unwrap().0.application_id)
        .collect();
    assert_eq!(apps, ["", "a", "b", "ab", "z\0"]);
    // The skip scan by application across users.
    let found: Vec<u64> = table
        .query(&Flurry::query().application_id("ab").build())
        .map(|r| r.unwrap().0.user_id)
        .collect();
    assert_eq!(found, [0, 1, 2, 255, 256, 65_536, i64::MAX as u64]);
}

#[test]
fn the_layout_says_what_is_ordered() {
    let docs = Flurry::SCHEMA;
    assert_eq!(docs.fields[0].order, rowkey::Order::Ascending);
    assert_eq!(docs.fields[1].order, rowkey::Order::Unordered);
    assert_eq!(FlurryAny::SCHEMA.fields[0].order, rowkey::Order::Unordered);
    assert_eq!(Concat::SCHEMA.fields[2].order, rowkey::Order::Ascending);
    let k = FlurryAny {
        user_id: -2,
        application_id: "a\0b".into(),
    };
    let shown = FlurryAny::explain(&k.to_bytes().unwrap()).to_string();
    assert!(
        shown.contains("-2") && shown.contains("application_id"),
        "{shown}"
    );
    // The schema-driven explain (the CLI's) reads the same fields.
    let dynamic = rowkey::explain_schema(FlurryAny::SCHEMA, &k.to_bytes().unwrap());
    assert!(
        dynamic.contains("-2") && !dynamic.contains("error"),
        "{dynamic}"
    );
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-c]{0,4}",
        proptest::collection::vec(
            prop_oneof![
                Just('\0'),
                Just('a'),
                Just('é'),
                Just('\u{FFFF}'),
                Just('😀'),
                any::<char>()
            ],
            0..6
        )
        .prop_map(|v| v.into_iter().collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn round_trips_byte_exact(user in any::<i64>(), app in text(), bits in any::<u64>(), tail in proptest::collection::vec(any::<u8>(), 0..5)) {
        let k = FlurryAny { user_id: user, application_id: app.clone() };
        let b = k.to_bytes().unwrap();
        prop_assert_eq!(FlurryAny::decode(&b).unwrap(), k);
        let n = Numbers { a: user as i8, b: user as i16, c: f32::from_bits(bits as u32), d: f64::from_bits(bits), e: (user as u16) & 0x7FFF, tail };
        let b = n.to_bytes().unwrap();
        let back = Numbers::decode(&b).unwrap();
        prop_assert_eq!(back.to_bytes().unwrap(), b);
        prop_assert_eq!(back.d.to_bits(), bits);
    }

    #[test]
    fn order_is_exact_where_the_derive_claims_it(a in 0..=i64::MAX as u64, b in 0..=i64::MAX as u64, x in text(), y in text()) {
        // Ascending unsigned `#[java]`: bytes order == value order.
        let ka = Flurry { user_id: a, application_id: String::new() }.to_bytes().unwrap();
        let kb = Flurry { user_id: b, application_id: String::new() }.to_bytes().unwrap();
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
        // `#[rest]`: bytes order == the strings' byte order.
        let ca = Concat { shard: 0, seq: 0, name: x.clone() }.to_bytes().unwrap();
        let cb = Concat { shard: 0, seq: 0, name: y.clone() }.to_bytes().unwrap();
        prop_assert_eq!(ca.cmp(&cb), x.as_bytes().cmp(y.as_bytes()));
    }

    #[test]
    fn decode_never_panics_and_accepts_only_canonical_keys(bytes in proptest::collection::vec(any::<u8>(), 0..24)) {
        if let Ok(k) = FlurryAny::decode(&bytes) {
            prop_assert_eq!(k.to_bytes().unwrap().to_vec(), bytes.clone());
        }
        if let Ok(k) = Flurry::decode(&bytes) {
            prop_assert_eq!(k.to_bytes().unwrap().to_vec(), bytes.clone());
        }
        if let Ok(k) = Concat::decode(&bytes) {
            prop_assert_eq!(k.to_bytes().unwrap().to_vec(), bytes.clone());
        }
        if let Ok(k) = Numbers::decode(&bytes) {
            prop_assert_eq!(k.to_bytes().unwrap().to_vec(), bytes.clone());
        }
    }

    #[test]
    fn modified_utf8_keys_decode_canonically(prefix in proptest::collection::vec(prop_oneof![Just(0xC0u8), Just(0x80), Just(0xED), Just(0xA0), Just(0xB0), Just(0x00), Just(0x61), any::<u8>()], 0..9)) {
        // writeUTF-shaped bytes: a right length, then bytes drawn from modified UTF-8's.
        let mut bytes = vec![0, 0, 0, 0, 0, 0, 0, 1];
        bytes.extend_from_slice(&(prefix.len() as u16).to_be_bytes());
        bytes.extend_from_slice(&prefix);
        if let Ok(k) = FlurryAny::decode(&bytes) {
            prop_assert_eq!(k.to_bytes().unwrap().to_vec(), bytes.clone());
        }
    }
}

#[test]
fn logical_order_of_signed_java_ids_is_not_byte_order() {
    // Why `#[java] i64` is equality only: -1 sorts after 1.
    let neg = FlurryAny {
        user_id: -1,
        application_id: String::new(),
    }
    .to_bytes()
    .unwrap();
    let pos = FlurryAny {
        user_id: 1,
        application_id: String::new(),
    }
    .to_bytes()
    .unwrap();
    assert_eq!(neg.cmp(&pos), Ordering::Greater);
}
