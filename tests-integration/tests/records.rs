//! Record-type tagged multi-entity tables: `#[derive(RowKey)]` on enums, as in the HBase
//! guide's customer/order case study. Layout `[salt][shared prefix][tag][record fields]`.

mod common;

use std::collections::BTreeSet;

use common::h;
use proptest::prelude::*;
use rowkey::{DecodeErrorKind, RowKey};

/// A line item keyed by its order, nested.
#[derive(RowKey, Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct OrderKey {
    order_id: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix(customer_id))]
enum CustomerRow {
    #[tag(1)]
    Customer {
        #[salt(buckets = 8)]
        customer_id: u64,
    },
    #[tag(2)]
    Order {
        #[salt(buckets = 8)]
        customer_id: u64,
        order: OrderKey,
        #[reverse_ts]
        placed: u64,
    },
    #[tag(3)]
    Line {
        #[salt(buckets = 8)]
        customer_id: u64,
        order: OrderKey,
        line: u16,
        #[desc]
        sku: String,
    },
}

impl CustomerRow {
    fn customer_id(&self) -> u64 {
        match self {
            CustomerRow::Customer { customer_id }
            | CustomerRow::Order { customer_id, .. }
            | CustomerRow::Line { customer_id, .. } => *customer_id,
        }
    }
}

/// Unsalted, no prefix: `[tag][fields]`.
#[derive(RowKey, Debug, Clone, PartialEq)]
enum Event {
    #[tag(0)]
    Login { user: String },
    #[tag(9)]
    Logout,
}

#[test]
fn golden_vectors() {
    let c = CustomerRow::Customer { customer_id: 42 };
    let bucket = c.salt_bucket().unwrap();
    assert_eq!(hex(&c), format!("{bucket:02x}") + &h("000000000000002a 01"));
    let o = CustomerRow::Order {
        customer_id: 42,
        order: OrderKey { order_id: 7 },
        placed: 0,
    };
    assert_eq!(
        o.salt_bucket(),
        Some(bucket),
        "every record of an entity lands in one bucket"
    );
    assert_eq!(
        hex(&o),
        format!("{bucket:02x}") + &h("000000000000002a 02 00000007 7fffffffffffffff")
    );
    let l = CustomerRow::Line {
        customer_id: 42,
        order: OrderKey { order_id: 7 },
        line: 1,
        sku: "a".into(),
    };
    assert_eq!(
        hex(&l),
        format!("{bucket:02x}") + &h("000000000000002a 03 00000007 0001 9efffe")
    );
    assert_eq!(hex(&Event::Login { user: "u".into() }), h("00 750001"));
    assert_eq!(hex(&Event::Logout), "09");
    assert_eq!(Event::FIXED_LEN, None);
    assert_eq!(CustomerRow::FIXED_LEN, None);
}

fn hex<K: RowKey>(k: &K) -> String {
    common::hex(&k.to_bytes().unwrap())
}

#[test]
fn decode_picks_the_variant_by_tag() {
    for k in [
        CustomerRow::Customer { customer_id: 1 },
        CustomerRow::Order {
            customer_id: 1,
            order: OrderKey { order_id: 2 },
            placed: 3,
        },
        CustomerRow::Line {
            customer_id: 1,
            order: OrderKey { order_id: 2 },
            line: 4,
            sku: "x\0y".into(),
        },
    ] {
        assert_eq!(CustomerRow::decode(&k.to_bytes().unwrap()).unwrap(), k);
    }
    assert_eq!(Event::decode(&[9]).unwrap(), Event::Logout);
}

#[test]
fn unknown_tag_is_named_not_misread() {
    // A newer writer's record type (tag 4) meets this reader.
    let mut bytes = CustomerRow::Customer { customer_id: 5 }
        .to_bytes()
        .unwrap()
        .to_vec();
    bytes[9] = 4;
    bytes[0] = CustomerRow::Customer { customer_id: 5 }
        .salt_bucket()
        .unwrap();
    let e = CustomerRow::decode_trusted(&bytes).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::UnknownTag { tag: 4 });
    assert_eq!((e.field(), e.offset()), ("(tag)", 9));
    assert!(e.to_string().contains("unknown record tag 4"), "{e}");
    let e = Event::decode(&[7]).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::UnknownTag { tag: 7 });
    assert!(CustomerRow::explain(&bytes).contains("unknown record tag 4"));
}

#[test]
fn one_scan_returns_every_record_of_an_entity() {
    let all = CustomerRow::scan().customer_id(42).ranges();
    assert_eq!(all.len(), 1);
    let orders = CustomerRow::scan().customer_id(42).order().ranges();
    let one_order = CustomerRow::scan()
        .customer_id(42)
        .line()
        .order(OrderKey { order_id: 7 })
        .ranges();
    let by_number = CustomerRow::scan().customer_id(42).tag(2).ranges();
    assert_eq!(
        orders, by_number,
        "selecting by variant or by tag number is the same range"
    );
    let keys = [
        (
            CustomerRow::Customer { customer_id: 42 },
            [true, false, false],
        ),
        (
            CustomerRow::Order {
                customer_id: 42,
                order: OrderKey { order_id: 7 },
                placed: 1,
            },
            [true, true, false],
        ),
        (
            CustomerRow::Line {
                customer_id: 42,
                order: OrderKey { order_id: 7 },
                line: 1,
                sku: "s".into(),
            },
            [true, false, true],
        ),
        (
            CustomerRow::Line {
                customer_id: 42,
                order: OrderKey { order_id: 8 },
                line: 1,
                sku: "s".into(),
            },
            [true, false, false],
        ),
        (
            CustomerRow::Customer { customer_id: 43 },
            [false, false, false],
        ),
        (
            CustomerRow::Line {
                customer_id: 4200,
                order: OrderKey { order_id: 7 },
                line: 1,
                sku: "s".into(),
            },
            [false, false, false],
        ),
    ];
    for (k, [in_all, in_orders, in_lines]) in &keys {
        let b = k.to_bytes().unwrap();
        assert_eq!(all.contains(&b), *in_all, "{k:?}");
        assert_eq!(orders.contains(&b), *in_orders, "{k:?}");
        assert_eq!(one_order.contains(&b), *in_lines, "{k:?}");
    }
    assert_eq!(
        CustomerRow::scan().ranges().len(),
        8,
        "whole table: one range per bucket"
    );
}

fn row() -> impl Strategy<Value = CustomerRow> {
    let cid = prop_oneof![Just(0u64), Just(1), Just(u64::MAX)];
    let oid = prop_oneof![Just(0u32), Just(7), Just(u32::MAX)];
    let placed = prop_oneof![Just(0u64), Just(5), Just(i64::MAX as u64)];
    let sku = prop::sample::select(vec!["", "a", "a\0", "b"]).prop_map(String::from);
    prop_oneof![
        cid.clone()
            .prop_map(|customer_id| CustomerRow::Customer { customer_id }),
        (cid.clone(), oid.clone(), placed).prop_map(|(customer_id, o, placed)| {
            CustomerRow::Order {
                customer_id,
                order: OrderKey { order_id: o },
                placed,
            }
        }),
        (cid, oid, 0u16..3, sku).prop_map(|(customer_id, o, line, sku)| CustomerRow::Line {
            customer_id,
            order: OrderKey { order_id: o },
            line,
            sku
        }),
    ]
}

/// The logical order within one bucket: prefix, then tag, then the record's fields.
fn logical(a: &CustomerRow, b: &CustomerRow) -> std::cmp::Ordering {
    use CustomerRow::*;
    let tag = |r: &CustomerRow| match r {
        Customer { .. } => 1,
        Order { .. } => 2,
        Line { .. } => 3,
    };
    a.customer_id()
        .cmp(&b.customer_id())
        .then(tag(a).cmp(&tag(b)))
        .then_with(|| match (a, b) {
            (
                Order {
                    order: o1,
                    placed: p1,
                    ..
                },
                Order {
                    order: o2,
                    placed: p2,
                    ..
                },
            ) => o1.cmp(o2).then(p2.cmp(p1)),
            (
                Line {
                    order: o1,
                    line: l1,
                    sku: s1,
                    ..
                },
                Line {
                    order: o2,
                    line: l2,
                    sku: s2,
                    ..
                },
            ) => o1.cmp(o2).then(l1.cmp(l2)).then(s2.cmp(s1)),
            _ => std::cmp::Ordering::Equal,
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn round_trip_and_order(a in row(), b in row()) {
        let (ea, eb) = (a.to_bytes().unwrap(), b.to_bytes().unwrap());
        prop_assert_eq!(&CustomerRow::decode(&ea).unwrap(), &a);
        prop_assert_eq!(ea.len(), a.encoded_len());
        if ea[0] == eb[0] {
            prop_assert_eq!(ea.cmp(&eb), logical(&a, &b));
        }
        if ea != eb {
            prop_assert!(!eb.starts_with(&ea) && !ea.starts_with(&eb));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..40)) {
        if let Ok(k) = CustomerRow::decode(&bytes) {
            prop_assert_eq!(k.to_bytes().unwrap().to_vec(), bytes.clone());
        }
        let _ = CustomerRow::explain(&bytes);
        if let Ok(k) = Event::decode(&bytes) {
            prop_assert_eq!(k.to_bytes().unwrap().to_vec(), bytes);
        }
    }

    #[test]
    fn scans_per_entity_and_record_type_are_exact(
        keys in prop::collection::vec(row(), 1..80),
        probe in row(),
        kind in 0u8..6,
        lo in prop_oneof![Just(0u32), Just(7), Just(u32::MAX)],
    ) {
        let c = probe.customer_id();
        let ranges = match kind {
            0 => CustomerRow::scan().customer_id(c).ranges(),
            1 => CustomerRow::scan().customer_id(c).customer().ranges(),
            2 => CustomerRow::scan().customer_id(c).order().ranges(),
            3 => CustomerRow::scan().customer_id(c).line().order(OrderKey { order_id: lo }..).ranges(),
            4 => CustomerRow::scan().customer_id(c).tag(2..=3).ranges(),
            _ => CustomerRow::scan().customer_id(c).line().order(OrderKey { order_id: lo }).line(1..).ranges(),
        };
        let matches = |k: &CustomerRow| {
            k.customer_id() == c
                && match (kind, k) {
                    (0, _) => true,
                    (1, CustomerRow::Customer { .. }) | (2, CustomerRow::Order { .. }) => true,
                    (3, CustomerRow::Line { order, .. }) => order.order_id >= lo,
                    (4, CustomerRow::Order { .. } | CustomerRow::Line { .. }) => true,
                    (5, CustomerRow::Line { order, line, .. }) => order.order_id == lo && *line >= 1,
                    _ => false,
                }
        };
        let mut expected = BTreeSet::new();
        let mut got = BTreeSet::new();
        for k in keys.iter().chain([&probe]) {
            let b = k.to_bytes().unwrap().to_vec();
            if matches(k) {
                expected.insert(b.clone());
            }
            if ranges.contains(&b) {
                got.insert(b);
            }
        }
        prop_assert!(ranges.len() <= 1, "the prefix decides the bucket");
        prop_assert_eq!(got, expected);
    }
}

#[test]
fn schema_shows_the_prefix_once_and_each_record_type() {
    let md = CustomerRow::SCHEMA.to_markdown();
    assert!(
        md.contains("| 0 | (salt) | u8 | 0 | 1 | md5(`customer_id`) % 8 | bucket |"),
        "{md}"
    );
    assert!(md.contains("| 1 | `customer_id` | `u64` | 1 | 8 |"), "{md}");
    assert!(md.contains("| 2 | (tag) | u8 | 9 | 1 | record type: 1 = `Customer`, 2 = `Order`, 3 = `Line` | by tag |"), "{md}");
    assert!(md.contains("record type `Order` (tag 2)"), "{md}");
    assert!(md.contains("| 0 | `order` | `OrderKey` | 10 | 4 |"), "{md}");
    assert_eq!(CustomerRow::SCHEMA.variants.len(), 3);
    let json = serde_json::to_value(CustomerRow::SCHEMA).unwrap();
    assert_eq!(json["variants"][2]["name"], "Line");
    assert_eq!(json["variants"][2]["tag"], 3);
}

#[test]
fn explain_and_split_points_cover_enums() {
    let k = CustomerRow::Line {
        customer_id: 42,
        order: OrderKey { order_id: 7 },
        line: 1,
        sku: "s".into(),
    };
    let text = CustomerRow::explain(&k.to_bytes().unwrap());
    assert!(
        text.contains("(tag)") && text.contains("record type `Line`"),
        "{text}"
    );
    assert!(text.contains("OrderKey { order_id: 7 }"), "{text}");
    assert!(text.contains("\"s\""), "{text}");
    let splits: Vec<Vec<u8>> = CustomerRow::split_points(4)
        .iter()
        .map(|b| b.to_vec())
        .collect();
    assert_eq!(splits, [vec![2], vec![4], vec![6]]);
}
