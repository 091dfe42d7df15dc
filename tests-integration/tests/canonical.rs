//! Only canonical keys decode: every key `decode` accepts is a key the type can encode, and it
//! encodes back to exactly its own bytes; so every stored key that decodes can also be fetched
//! and scanned for. A value over its `#[max_len]` bound, or a key over the key limit, is refused
//! with the field and offset, by `decode`, `decode_trusted` and `explain` alike.

use proptest::prelude::*;
use rowkey::store::{MemStore, Store, Table};
use rowkey::{DecodeErrorKind, RowKey};

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot)]
struct Bounded {
    id: u8,
    #[max_len(4)]
    tag: String,
    n: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(allow_hotspot, key_limit = 16)]
struct Limited {
    name: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salted {
    #[salt(buckets = 4)]
    user: u32,
    #[max_len(3)]
    tag: Vec<u8>,
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn a_value_over_its_bound_is_refused_at_the_field() {
    // The example: tag "abcdefgh" under max_len(4).
    let bytes = hex("016162636465666768000103");
    for err in [
        Bounded::decode(&bytes).unwrap_err(),
        Bounded::decode_trusted(&bytes).unwrap_err(),
    ] {
        assert_eq!(err.field(), "tag");
        assert_eq!(err.offset(), 1);
        assert_eq!(
            err.kind(),
            DecodeErrorKind::TooLongForField { len: 8, max: 4 }
        );
    }
    let text = Bounded::explain(&bytes);
    assert!(text.contains("longer than max_len(4)"), "{text}");
    // At the bound it decodes and re-encodes to the same bytes.
    let ok = hex("0161626364000103");
    let k = Bounded::decode(&ok).unwrap();
    assert_eq!(k.tag, "abcd");
    assert_eq!(&k.to_bytes().unwrap()[..], &ok[..]);
}

#[test]
fn a_key_over_the_limit_is_refused() {
    let mut bytes = vec![b'a'; 30];
    bytes.extend([0x00, 0x01]);
    let err = Limited::decode(&bytes).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::KeyTooLong { len: 32, max: 16 });
    assert_eq!(err.offset(), 16);
    assert!(Limited::explain(&bytes).contains("longer than the key limit of 16"));
    assert!(Limited {
        name: "a".repeat(30)
    }
    .to_bytes()
    .is_err());
}

#[test]
fn a_stored_key_the_type_cannot_address_is_reported_by_a_scan_not_misread() {
    let store = MemStore::new();
    store.put(&hex("016162636465666768000103"), b"v").unwrap();
    let table = Table::<_, Bounded>::new(store);
    let rows: Vec<_> = table.scan(&Bounded::scan().ranges()).collect();
    assert_eq!(rows.len(), 1);
    assert!(
        rows[0].is_err(),
        "a key this type cannot encode is an error, not a value"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn every_decoded_key_encodes_back_to_its_own_bytes(bytes in proptest::collection::vec(
        prop_oneof![Just(0u8), Just(1u8), Just(0xFFu8), any::<u8>()], 0..20)) {
        if let Ok(k) = Bounded::decode(&bytes) {
            prop_assert_eq!(&k.to_bytes().unwrap()[..], &bytes[..]);
        }
        if let Ok(k) = Limited::decode(&bytes) {
            prop_assert_eq!(&k.to_bytes().unwrap()[..], &bytes[..]);
        }
        if let Ok(k) = Salted::decode(&bytes) {
            prop_assert_eq!(&k.to_bytes().unwrap()[..], &bytes[..]);
        }
    }

    #[test]
    fn encodable_values_round_trip(id: u8, tag in "[a-c\u{0}]{0,4}", n: u8, user: u32,
                                   raw in proptest::collection::vec(any::<u8>(), 0..=3)) {
        let k = Bounded { id, tag, n };
        prop_assert_eq!(Bounded::decode(&k.to_bytes().unwrap()).unwrap(), k);
        let s = Salted { user, tag: raw };
        prop_assert_eq!(Salted::decode(&s.to_bytes().unwrap()).unwrap(), s);
    }
}
