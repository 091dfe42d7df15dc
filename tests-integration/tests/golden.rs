//! Golden vectors: one or more per encoding of the byte format (FORMAT.md §2 and §3), plus the
//! seed documents' examples. The expected bytes were computed independently (by hand and with
//! Python's hashlib/struct), not by this library. The format is permanent: a failure here means
//! stored keys would stop reading back.

mod common;

use std::borrow::Cow;

use common::{h, hex, one_field, Event};
use rowkey::{Hashed, RowKey};

fn enc<K: RowKey>(k: &K) -> String {
    hex(&k.to_bytes().expect("encodes"))
}

one_field!(U8, u8);
one_field!(U16, u16);
one_field!(U32, u32);
one_field!(U64, u64);
one_field!(U128, u128);
one_field!(I8, i8);
one_field!(I16, i16);
one_field!(I32, i32);
one_field!(I64, i64);
one_field!(I128, i128);
one_field!(Bool, bool);
one_field!(F32, f32);
one_field!(F64, f64);
one_field!(Text, String);
one_field!(TextRef<'a>, &'a str);
one_field!(TextCow<'a>, Cow<'a, str>);
one_field!(ByteVec, Vec<u8>);
one_field!(BytesRef<'a>, &'a [u8]);
one_field!(Arr, [u8; 3]);
one_field!(
    Fixed4,
    #[fixed(4)]
    String
);
one_field!(OptU8, Option<u8>);
one_field!(OptText, Option<String>);
one_field!(
    RevTsU,
    #[reverse_ts]
    u64
);
one_field!(
    RevTsI,
    #[reverse_ts]
    i64
);
one_field!(
    DescU16,
    #[desc]
    u16
);
one_field!(
    DescText,
    #[desc]
    String
);
one_field!(
    DescFixed,
    #[desc]
    #[fixed(3)]
    String
);
one_field!(
    Rev,
    #[reverse]
    u32
);
one_field!(Md5Full, #[hash(md5)] Hashed<String>);
one_field!(Md5Four, #[hash(md5, len = 4)] Hashed<String, 4>);
one_field!(Md5Int, #[hash(md5)] Hashed<i64>);
one_field!(
    Ts,
    #[timestamp]
    u64
);

#[test]
fn unsigned_integers_are_big_endian() {
    assert_eq!(enc(&U8 { v: 0xAB }), "ab");
    assert_eq!(enc(&U16 { v: 0x0102 }), "0102");
    assert_eq!(enc(&U32 { v: 1 }), "00000001");
    assert_eq!(
        enc(&U64 {
            v: 0x0102030405060708
        }),
        "0102030405060708"
    );
    assert_eq!(enc(&U128 { v: 1 }), h("00000000000000000000000000000001"));
    assert_eq!(
        enc(&Ts {
            v: 1_700_000_000_000
        }),
        "0000018bcfe56800"
    );
}

#[test]
fn signed_integers_flip_the_sign_bit() {
    assert_eq!(enc(&I8 { v: -1 }), "7f");
    assert_eq!(enc(&I8 { v: 0 }), "80");
    assert_eq!(enc(&I16 { v: i16::MIN }), "0000");
    assert_eq!(enc(&I32 { v: -1 }), "7fffffff");
    assert_eq!(enc(&I32 { v: 1 }), "80000001");
    assert_eq!(enc(&I64 { v: i64::MAX }), "ffffffffffffffff");
    assert_eq!(
        enc(&I128 { v: -2 }),
        h("7fffffff ffffffff ffffffff fffffffe")
    );
}

#[test]
fn bool_is_one_byte() {
    assert_eq!(enc(&Bool { v: false }), "00");
    assert_eq!(enc(&Bool { v: true }), "01");
}

#[test]
fn floats_use_the_total_order_transform() {
    assert_eq!(enc(&F64 { v: 1.0 }), "bff0000000000000");
    assert_eq!(enc(&F64 { v: -1.0 }), "400fffffffffffff");
    assert_eq!(enc(&F64 { v: 0.0 }), "8000000000000000");
    assert_eq!(enc(&F64 { v: -0.0 }), "7fffffffffffffff");
    assert_eq!(enc(&F32 { v: 1.0 }), "bf800000");
    assert_eq!(
        enc(&F32 {
            v: f32::NEG_INFINITY
        }),
        "007fffff"
    );
}

/// Where NaNs sort (FORMAT.md §2.4): a NaN's sign bit decides its end, below -inf or above
/// inf; payloads order as the bits do; every pattern decodes to the same bits.
#[test]
fn nans_sort_at_the_end_their_sign_bit_says() {
    assert_eq!(enc(&F64 { v: f64::NAN }), "fff8000000000000");
    assert_eq!(enc(&F64 { v: -f64::NAN }), "0007ffffffffffff");
    assert_eq!(enc(&F64 { v: f64::INFINITY }), "fff0000000000000");
    assert_eq!(
        enc(&F64 {
            v: f64::NEG_INFINITY
        }),
        "000fffffffffffff"
    );
    let payload = |bits: u64| f64::from_bits(bits);
    let ordered = [
        payload(0xfff8_0000_0000_0001), // a negative NaN with a larger payload: first
        -f64::NAN,
        f64::NEG_INFINITY,
        -1.0,
        -0.0,
        0.0,
        1.0,
        f64::INFINITY,
        f64::NAN,
        payload(0x7ff8_0000_0000_0001), // a positive NaN with a larger payload: last
    ];
    let keys: Vec<Vec<u8>> = ordered
        .iter()
        .map(|&v| F64 { v }.to_bytes().unwrap().to_vec())
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "{keys:02x?}");
    for (v, k) in ordered.iter().zip(&keys) {
        assert_eq!(F64::decode(k).unwrap().v.to_bits(), v.to_bits());
    }
}

#[test]
fn strings_escape_zero_and_terminate() {
    assert_eq!(enc(&Text { v: String::new() }), "0001");
    assert_eq!(enc(&Text { v: "10".into() }), "31300001");
    assert_eq!(enc(&Text { v: "100".into() }), "3130300001");
    assert_eq!(enc(&Text { v: "a\0b".into() }), "6100ff620001");
    assert_eq!(enc(&TextRef { v: "a\0" }), "6100ff0001");
    assert_eq!(
        enc(&TextCow {
            v: Cow::Borrowed("ab")
        }),
        "61620001"
    );
    assert_eq!(enc(&ByteVec { v: vec![0, 0] }), "00ff00ff0001");
    assert_eq!(enc(&BytesRef { v: &[0xFF, 0x01] }), "ff010001");
}

#[test]
fn byte_arrays_are_raw() {
    assert_eq!(enc(&Arr { v: [1, 0, 0xFF] }), "0100ff");
}

#[test]
fn fixed_pads_with_zeros() {
    assert_eq!(enc(&Fixed4 { v: "ab".into() }), "61620000");
    assert_eq!(enc(&Fixed4 { v: "abcd".into() }), "61626364");
    assert_eq!(enc(&Fixed4 { v: String::new() }), "00000000");
    assert_eq!(enc(&Fixed4 { v: "a\0b".into() }), "61006200");
}

#[test]
fn option_has_a_marker_byte() {
    assert_eq!(enc(&OptU8 { v: None }), "00");
    assert_eq!(enc(&OptU8 { v: Some(5) }), "0105");
    assert_eq!(
        enc(&OptText {
            v: Some(String::new())
        }),
        "010001"
    );
}

#[test]
fn reverse_ts_matches_hbase_long_max_minus_ts() {
    // Bytes.toBytes(Long.MAX_VALUE - 1700000000000L)
    assert_eq!(
        enc(&RevTsU {
            v: 1_700_000_000_000
        }),
        "7ffffe74301a97ff"
    );
    assert_eq!(
        enc(&RevTsI {
            v: 1_700_000_000_000
        }),
        "7ffffe74301a97ff"
    );
    assert_eq!(enc(&RevTsU { v: 0 }), "7fffffffffffffff");
    assert_eq!(enc(&RevTsU { v: i64::MAX as u64 }), "0000000000000000");
}

#[test]
fn desc_inverts_every_byte() {
    assert_eq!(enc(&DescU16 { v: 5 }), "fffa");
    assert_eq!(enc(&DescText { v: "ab".into() }), "9e9dfffe");
    assert_eq!(enc(&DescText { v: "\0".into() }), "ff00fffe");
    assert_eq!(enc(&DescFixed { v: "a".into() }), "9effff");
}

#[test]
fn reverse_reverses_the_bytes() {
    assert_eq!(enc(&Rev { v: 0x01020304 }), "04030201");
}

#[test]
fn hash_stores_the_md5_digest() {
    // md5("foo") = acbd18db4cc2f85cedef654fccc4a4d8
    assert_eq!(
        enc(&Md5Full {
            v: Hashed::new("foo".into())
        }),
        "acbd18db4cc2f85cedef654fccc4a4d8"
    );
    assert_eq!(
        enc(&Md5Four {
            v: Hashed::new("foo".into())
        }),
        "acbd18db"
    );
    // Integers hash as Java's Bytes.toBytes(long): md5(ff ff ff ff ff ff ff ff)
    assert_eq!(
        enc(&Md5Int { v: Hashed::new(-1) }),
        "c2cb56f4c5bf656faca0986e7eba0308"
    );
}

#[test]
fn hashed_fields_decode_to_the_digest_only() {
    let k = Md5Four {
        v: Hashed::new("foo".into()),
    };
    let back = Md5Four::decode(&k.to_bytes().unwrap()).unwrap();
    assert_eq!(back.v.digest(), &[0xac, 0xbd, 0x18, 0xdb]);
    assert_eq!(back.v.value(), None);
    assert_eq!(back, k);
}

/// The HBase guide's salting example: `foo0001`..`foo0004` spread over four buckets by a hash
/// of the row, so a reader can rebuild the full key. Bucket = md5(row)[0..8] big-endian % 4.
#[derive(RowKey, Debug, PartialEq)]
struct GuideRow {
    #[salt(buckets = 4)]
    #[fixed(7)]
    row: String,
}

#[test]
fn guide_salting_example() {
    let keys: Vec<String> = ["foo0001", "foo0002", "foo0003", "foo0004"]
        .iter()
        .map(|r| enc(&GuideRow { row: r.to_string() }))
        .collect();
    assert_eq!(keys[0], h("03 666f6f30303031"));
    assert_eq!(keys[1], h("00 666f6f30303032"));
    assert_eq!(keys[2], h("00 666f6f30303033"));
    assert_eq!(keys[3], h("00 666f6f30303034"));
    assert_eq!(
        GuideRow {
            row: "foo0003".into()
        }
        .salt_bucket(),
        Some(0)
    );
}

#[test]
fn event_key_layout() {
    let ev = Event {
        user_id: 7,
        event_type: "click".into(),
        ts: 1_700_000_000_000,
    };
    // salt: md5(00 00 00 00 00 00 00 07)[0..8] % 16 = 9
    assert_eq!(
        enc(&ev),
        h("09 0000000000000007 636c69636b0000000000000000000000 7ffffe74301a97ff")
    );
    assert_eq!(Event::FIXED_LEN, Some(33));
    assert_eq!(Event::MAX_LEN, 33);
}

/// A salt over a variable-length field hashes its escaped, terminated encoding.
#[derive(RowKey, Debug, PartialEq)]
struct HostEvent {
    #[salt(buckets = 8)]
    host: String,
    #[reverse_ts]
    ts: u64,
}

#[test]
fn salt_hashes_the_encoded_fields() {
    // md5("host1" 00 01)[0..8] % 8 = 0
    assert_eq!(
        enc(&HostEvent {
            host: "host1".into(),
            ts: 0
        }),
        h("00 686f737431 0001 7fffffffffffffff")
    );
}

/// Deliberately not `Clone`: a key nesting it must still compile (its scan builder is then
/// not `Clone`).
#[derive(RowKey, Debug, PartialEq)]
struct Inner {
    a: u8,
    b: String,
}

#[derive(RowKey, Debug, PartialEq)]
struct Outer {
    #[salt(buckets = 16)]
    id: u16,
    inner: Inner,
    #[desc]
    inner_desc: Inner,
}

#[test]
fn nested_keys_are_inlined_without_salt() {
    let k = Outer {
        id: 1,
        inner: Inner {
            a: 2,
            b: "x".into(),
        },
        inner_desc: Inner {
            a: 2,
            b: "x".into(),
        },
    };
    let bytes = enc(&k);
    assert_eq!(&bytes[2..], h("0001 02 780001 fd 87fffe"));
}
