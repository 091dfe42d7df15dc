//! Text keys (FORMAT.md §2.16): fields as text joined by a delimiter, as Java services write
//! them with string concatenation and `String.format`. Golden bytes worked by hand from Java's
//! `Long.toString`, `String.format("%06d")` and `Long.toHexString`; properties for what the
//! derive claims about order, round trips, and decoding that never panics and accepts only
//! what it would write; scans where the classic prefix bug would bite.

mod common;

use proptest::prelude::*;
use rowkey::store::{MemStore, Table};
use rowkey::{DecodeErrorKind, RowKey};

/// The salting article's key after its hash prefix: `yyMMdd:HHmmss:message_id`.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(delimiter = ':', query)]
struct Message {
    #[decimal(width = 6)]
    date: u32,
    #[decimal(width = 6)]
    time: u32,
    #[decimal]
    message_id: u64,
}

/// `user + "_" + ts`, the HBase guide's delimited text.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(delimiter = '_', query)]
struct UserTs {
    user: String,
    #[decimal]
    ts: i64,
}

/// A hex id, a reversed phone number, text last.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(delimiter = '|')]
struct Mixed {
    #[hex(width = 8, upper)]
    id: u32,
    #[reverse]
    phone: String,
    #[hex]
    seq: u16,
    note: String,
}

/// A borrowed last part.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(delimiter = b'/')]
struct Path<'a> {
    #[decimal(width = 4)]
    year: u16,
    name: &'a str,
}

fn text<K: RowKey>(k: &K) -> String {
    String::from_utf8(k.to_bytes().unwrap().to_vec()).unwrap()
}

#[test]
fn golden_text_is_javas() {
    assert_eq!(
        text(&Message {
            date: 230_611,
            time: 63_031,
            message_id: 1_231_231
        }),
        "230611:063031:1231231"
    );
    assert_eq!(
        text(&UserTs {
            user: "alice".into(),
            ts: -5
        }),
        "alice_-5"
    );
    assert_eq!(
        text(&Mixed {
            id: 0xBEEF,
            phone: "13800138000".into(),
            seq: 255,
            note: "a|b?".replace('|', "/"),
        }),
        "0000BEEF|00083100831|ff|a/b?"
    );
    let p = Path {
        year: 7,
        name: "x/y".split('/').next().unwrap(),
    };
    let bytes = p.to_bytes().unwrap();
    assert_eq!(&bytes[..], b"0007/x");
    assert_eq!(Path::decode(&bytes).unwrap(), p);
}

#[test]
fn values_the_layout_cannot_hold_are_refused_both_ways() {
    // A delimiter inside a value: it could not be read back.
    let err = UserTs {
        user: "a_b".into(),
        ts: 1,
    }
    .to_bytes()
    .unwrap_err();
    assert!(err.to_string().contains("delimiter"), "{err}");
    assert_eq!(err.field(), "user");
    // A number wider than its padded width.
    let err = Message {
        date: 1_000_000,
        time: 0,
        message_id: 0,
    }
    .to_bytes()
    .unwrap_err();
    assert!(err.to_string().contains("width of 6"), "{err}");
    // Decoding names the field and the offset.
    for (bytes, field, kind) in [
        (&b"230611:063031"[..], "time", "MissingDelimiter"),
        (b"230611:063031:12:3", "message_id", "DelimiterInValue"),
        (b"230611:63031:123", "time", "BadTextNumber"),
        (b"230611:063031:0123", "message_id", "BadTextNumber"),
        (b"230611:0630x1:123", "time", "BadTextNumber"),
        (b"230611:063031:", "message_id", "BadTextNumber"),
        (
            b"230611:063031:18446744073709551616",
            "message_id",
            "BadTextNumber",
        ),
    ] {
        let err = Message::decode(bytes).unwrap_err();
        assert_eq!(
            err.field(),
            field,
            "{}: {err}",
            String::from_utf8_lossy(bytes)
        );
        assert!(
            format!("{:?}", err.kind()).starts_with(kind),
            "{}: {err}",
            String::from_utf8_lossy(bytes)
        );
    }
    let err = Message::decode(b"230611:06303x:1").unwrap_err();
    assert_eq!(err.offset(), 12);
    assert!(matches!(
        UserTs::decode(b"bob_+5").unwrap_err().kind(),
        DecodeErrorKind::BadTextNumber { .. }
    ));
    assert!(UserTs::decode(b"bob_-0").is_err());
    assert!(
        Mixed::decode(b"0000beef|1|ff|x").is_err(),
        "lowercase in an uppercase field"
    );
    assert!(
        Mixed::decode(b"0000BEEF|1|0ff|x").is_err(),
        "a leading zero"
    );
}

#[test]
fn a_scan_for_user_10_never_returns_user_100() {
    let table = Table::<_, UserTs>::new(MemStore::new());
    let users = ["1", "10", "100", "10x", "11", "2"];
    let rows: Vec<UserTs> = users
        .iter()
        .flat_map(|u| {
            (0..3).map(move |ts| UserTs {
                user: u.to_string(),
                ts,
            })
        })
        .collect();
    table
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let found: Vec<(String, i64)> = table
        .scan(&UserTs::scan().user("10").ranges())
        .map(|r| r.map(|(k, _)| (k.user, k.ts)).unwrap())
        .collect();
    assert_eq!(found.len(), 3);
    assert!(found.iter().all(|(u, _)| u == "10"), "{found:?}");
    // The last field: one key, not a prefix.
    let one = table
        .scan(&UserTs::scan().user("1").ts(1i64).ranges())
        .count();
    assert_eq!(one, 1);
    let q = table
        .query(&UserTs::query().user("10").build())
        .map(|r| r.unwrap().0.user)
        .collect::<Vec<_>>();
    assert_eq!(q, ["10", "10", "10"]);
}

#[test]
fn padded_numbers_take_ranges() {
    let table = Table::<_, Message>::new(MemStore::new());
    let rows: Vec<Message> = (0..200u32)
        .map(|i| Message {
            date: 230_601 + i % 20,
            time: i * 37 % 240_000,
            message_id: u64::from(i) * 7,
        })
        .collect();
    table
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let days = 230_605..=230_607;
    let got: Vec<Message> = table
        .scan(&Message::scan().date(days.clone()).ranges())
        .map(|r| r.unwrap().0)
        .collect();
    let mut want: Vec<Message> = rows
        .iter()
        .filter(|m| days.contains(&m.date))
        .cloned()
        .collect();
    want.sort_by_key(|m| m.to_bytes().unwrap());
    assert_eq!(got, want);
    let within: Vec<Message> = table
        .scan(
            &Message::scan()
                .date(230_610u32)
                .time(1_000u32..5_000)
                .ranges(),
        )
        .map(|r| r.unwrap().0)
        .collect();
    let mut want: Vec<Message> = rows
        .iter()
        .filter(|m| m.date == 230_610 && (1_000..5_000).contains(&m.time))
        .cloned()
        .collect();
    want.sort_by_key(|m| m.to_bytes().unwrap());
    assert_eq!(within, want);
    // By message id, across dates: a skip scan.
    let by_id: Vec<u64> = table
        .query(&Message::query().message_id(70u64).build())
        .map(|r| r.unwrap().0.message_id)
        .collect();
    assert_eq!(by_id, [70]);
}

#[test]
fn the_layout_says_what_is_ordered() {
    use rowkey::Order;
    let orders = |s: &rowkey::Schema| s.fields.iter().map(|f| f.order).collect::<Vec<_>>();
    assert_eq!(
        orders(Message::SCHEMA),
        [Order::Ascending, Order::Ascending, Order::Unordered]
    );
    assert_eq!(orders(UserTs::SCHEMA), [Order::Unordered, Order::Unordered]);
    // The schema alone (the `rowkey` program's explain) reads a text key as the type does.
    for (schema, bytes) in [
        (Message::SCHEMA, &b"230611:063031:1231231"[..]),
        (Mixed::SCHEMA, b"0000BEEF|00083100831|ff|a/b?"),
    ] {
        let typed = if schema.name == "Message" {
            Message::explain(bytes).to_string()
        } else {
            Mixed::explain(bytes).to_string()
        };
        assert_eq!(rowkey::explain_schema(schema, bytes), typed);
    }
    // The place of a text key's field is shown as what follows it, not as an attribute the
    // user did not write.
    let shown = Message::explain(b"230611:063031:1231231").to_string();
    assert!(
        shown.contains("then :") && !shown.contains("#[delimited"),
        "{shown}"
    );
    let damaged = rowkey::explain_schema(Message::SCHEMA, b"230611:0630x1:1");
    assert_eq!(damaged, Message::explain(b"230611:0630x1:1").to_string());
    assert_eq!(
        orders(Mixed::SCHEMA),
        [
            Order::Ascending,
            Order::Unordered,
            Order::Unordered,
            Order::Ascending
        ]
    );
}

fn any_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just('_'),
            Just(':'),
            Just('|'),
            Just('0'),
            Just('a'),
            Just('é'),
            any::<char>()
        ],
        0..5,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn round_trips_or_refuses(user in any_text(), ts in any::<i64>(), id in any::<u32>(), phone in any_text(), seq in any::<u16>(), note in any_text()) {
        let k = UserTs { user: user.clone(), ts };
        match k.to_bytes() {
            Ok(b) => prop_assert_eq!(UserTs::decode(&b).unwrap(), k),
            Err(_) => prop_assert!(user.contains('_')),
        }
        let m = Mixed { id, phone: phone.clone(), seq, note: note.clone() };
        match m.to_bytes() {
            Ok(b) => prop_assert_eq!(Mixed::decode(&b).unwrap(), m),
            Err(_) => prop_assert!(phone.contains('|') || note.contains('|')),
        }
    }

    #[test]
    fn order_is_exact_where_the_derive_claims_it(a in 0..1_000_000u32, b in 0..1_000_000u32, x in 0..1_000_000u32, y in 0..1_000_000u32) {
        let ka = Message { date: a, time: x, message_id: 1 }.to_bytes().unwrap();
        let kb = Message { date: b, time: y, message_id: 1 }.to_bytes().unwrap();
        prop_assert_eq!(ka.cmp(&kb), (a, x).cmp(&(b, y)));
    }

    #[test]
    fn decode_never_panics_and_accepts_only_canonical_keys(bytes in proptest::collection::vec(prop_oneof![Just(b':'), Just(b'_'), Just(b'|'), Just(b'-'), Just(b'0'), Just(b'7'), Just(b'F'), Just(b'f'), any::<u8>()], 0..24)) {
        if let Ok(k) = Message::decode(&bytes) {
            prop_assert_eq!(k.to_bytes().unwrap().to_vec(), bytes.clone());
        }
        if let Ok(k) = UserTs::decode(&bytes) {
            prop_assert_eq!(k.to_bytes().unwrap().to_vec(), bytes.clone());
        }
        if let Ok(k) = Mixed::decode(&bytes) {
            prop_assert_eq!(k.to_bytes().unwrap().to_vec(), bytes.clone());
        }
    }
}

#[test]
fn a_declaration_is_checked_against_the_keys_a_table_holds() {
    use rowkey::store::{check_layout, check_schema, Store};
    let store = MemStore::new();
    // Keys another program wrote: most as `date:time:id`, some not.
    for i in 0..2_000u32 {
        let key = format!("{:06}:{:06}:{}", 230_601 + i % 30, i * 37 % 240_000, i);
        store.put(key.as_bytes(), b"").unwrap();
    }
    for odd in [
        &b"230601:63031:17"[..],
        b"230601:063031:0017",
        b"230601-063031-17",
        b"230601:063031:17:x",
    ] {
        store.put(odd, b"").unwrap();
    }
    let check = check_layout::<Message, _>(&store, 10_000).unwrap();
    assert_eq!(check.sampled(), 2_004);
    assert_eq!(check.decoded(), 2_000);
    assert_eq!(check.failed(), 4);
    assert!(!check.fits());
    let report = check.to_string();
    assert!(
        report.contains("2004 key(s) sampled, 2000 read"),
        "{report}"
    );
    assert!(report.contains("failure 1:"), "{report}");
    let date = &check.fields()[0];
    assert_eq!(date.name, "date");
    assert_eq!(date.least.as_ref().unwrap().1, "230601");
    assert_eq!(date.greatest.as_ref().unwrap().1, "230630");
    // The schema alone (what the `rowkey` program has) finds the same.
    let by_schema = check_schema(&store, Message::SCHEMA, 10_000).unwrap();
    assert_eq!((by_schema.decoded(), by_schema.failed()), (2_000, 4));
    // A sample smaller than the table: spread over the key space, and as asked.
    let small = check_layout::<Message, _>(&store, 100).unwrap();
    assert_eq!(small.sampled(), 100);
    // From a tokio task, over the async store: the same sample, the same report.
    #[cfg(feature = "async")]
    {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let (typed, by_schema) = runtime.block_on(async {
            (
                rowkey::store::check_layout_async::<Message, _>(&store, 100)
                    .await
                    .unwrap(),
                rowkey::store::check_schema_async(&store, Message::SCHEMA, 10_000)
                    .await
                    .unwrap(),
            )
        });
        assert_eq!(typed.to_string(), small.to_string());
        assert_eq!((by_schema.decoded(), by_schema.failed()), (2_000, 4));
    }
}

/// The salting article's key whole: the uppercase hex MD5 of `message_id`, then
/// `date:time:message_id`.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(delimiter = ':', hash_prefix(md5, of = message_id, upper), query)]
struct Salted {
    #[decimal(width = 6)]
    date: u32,
    #[decimal(width = 6)]
    time: u32,
    #[decimal]
    message_id: u64,
}

/// Its first 4 hex digits only, lowercase.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(delimiter = ':', hash_prefix(md5, of = message_id, len = 4))]
struct Short {
    #[decimal]
    message_id: u64,
    user: String,
}

/// A binary key: the first 2 bytes of the MD5 of `host`'s encoding, then the fields.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(hash_prefix(md5, of = host, len = 2), query)]
struct Metric {
    #[fixed(8)]
    host: String,
    ts: u64,
}

fn md5_hex(s: &str, upper: bool) -> String {
    use md5::{Digest, Md5};
    let d = Md5::digest(s.as_bytes());
    let h: String = d.iter().map(|b| format!("{b:02x}")).collect();
    if upper {
        h.to_uppercase()
    } else {
        h
    }
}

#[test]
fn the_salting_articles_key_with_its_md5_prefix() {
    let k = Salted {
        date: 230_611,
        time: 63_031,
        message_id: 1_231_231,
    };
    let want = format!("{}:230611:063031:1231231", md5_hex("1231231", true));
    assert_eq!(text(&k), want);
    assert_eq!(Salted::decode(want.as_bytes()).unwrap(), k);
    assert_eq!(Salted::FIXED_LEN, None);
    // 32 digits and ':', two padded fields and their ':', a u64's 20 digits at most.
    assert_eq!(Salted::MAX_LEN, 33 + 7 + 7 + 20);
    // A prefix that is not the fields' hash: refused, naming it.
    let mut wrong = want.clone().into_bytes();
    wrong[0] = if wrong[0] == b'0' { b'1' } else { b'0' };
    let err = Salted::decode(&wrong).unwrap_err();
    assert_eq!(err.kind(), DecodeErrorKind::WrongHashPrefix);
    assert_eq!(err.field(), "(hash prefix)");
    // The prefix in lowercase: not what the layout writes.
    let lower = want.to_lowercase();
    assert!(Salted::decode(lower.as_bytes()).is_err());
    // Explained, by the type and by the schema alike.
    let shown = Salted::explain(want.as_bytes()).to_string();
    assert!(
        shown.contains("(hash prefix)") && shown.contains("1231231"),
        "{shown}"
    );
    assert_eq!(
        rowkey::explain_schema(Salted::SCHEMA, want.as_bytes()),
        shown
    );
    assert_eq!(Salted::SCHEMA.fields[1].offset, Some(33));

    let s = Short {
        message_id: 42,
        user: "ann".into(),
    };
    assert_eq!(text(&s), format!("{}:42:ann", &md5_hex("42", false)[..4]));
    assert_eq!(Short::decode(&s.to_bytes().unwrap()).unwrap(), s);

    let m = Metric {
        host: "web01".into(),
        ts: 7,
    };
    let bytes = m.to_bytes().unwrap();
    use md5::{Digest, Md5};
    let d = Md5::digest(b"web01\0\0\0");
    assert_eq!(&bytes[..2], &d[..2]);
    assert_eq!(Metric::decode(&bytes).unwrap(), m);
}

#[test]
fn a_hash_prefixed_table_is_read_by_key_and_by_query() {
    let table = Table::<_, Salted>::new(MemStore::new());
    let rows: Vec<Salted> = (0..500u64)
        .map(|i| Salted {
            date: 230_601 + (i % 30) as u32,
            time: (i * 37 % 240_000) as u32,
            message_id: i,
        })
        .collect();
    table
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    // The whole table: every key, in prefix order.
    assert_eq!(table.scan(&Salted::scan().ranges()).count(), 500);
    // By message id and by date: skip-scan queries, exact.
    // The message id fixes the hash prefix: the walk reads its one key, not the table.
    let query = Salted::query().message_id(77u64).build();
    assert_eq!(
        query.key_ranges(16)[0].0,
        format!("{}:", md5_hex("77", true)).into_bytes(),
        "{query}"
    );
    let mut found = table.query(&query);
    let by_id: Vec<Salted> = found.by_ref().map(|r| r.unwrap().0).collect();
    assert_eq!(by_id, [rows[77].clone()]);
    assert_eq!(found.stats().read, 1, "{:?}", found.stats());
    // A list of ids: one prefix each, read alone.
    let mut found = table.query(&Salted::query().message_id_in([3u64, 400, 9_999]).build());
    let mut ids: Vec<u64> = found.by_ref().map(|r| r.unwrap().0.message_id).collect();
    ids.sort_unstable();
    assert_eq!(ids, [3, 400]);
    assert_eq!(found.stats().read, 2, "{:?}", found.stats());
    // With the date too: still exact.
    let q = Salted::query()
        .message_id(77u64)
        .date(rows[77].date + 1)
        .build();
    assert_eq!(table.query(&q).count(), 0);
    let mut by_date: Vec<u64> = table
        .query(&Salted::query().date(230_605u32).build())
        .map(|r| r.unwrap().0.message_id)
        .collect();
    by_date.sort_unstable();
    let want: Vec<u64> = rows
        .iter()
        .filter(|k| k.date == 230_605)
        .map(|k| k.message_id)
        .collect();
    assert_eq!(by_date, want);
    // The declaration checks out against the table.
    let check = rowkey::store::check_layout::<Salted, _>(table.store(), 1_000).unwrap();
    assert!(check.fits(), "{check}");
}

#[test]
fn a_binary_hash_prefix_is_fixed_by_its_field() {
    let table = Table::<_, Metric>::new(MemStore::new());
    let hosts = ["web1", "web2", "db1", "cache"];
    let rows: Vec<Metric> = (0..2_000u64)
        .map(|i| Metric {
            host: hosts[(i % 4) as usize].into(),
            ts: i,
        })
        .collect();
    table
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let mut found = table.query(&Metric::query().host("db1").ts(100u64..200).build());
    let got: Vec<u64> = found.by_ref().map(|r| r.unwrap().0.ts).collect();
    let want: Vec<u64> = (100..200).filter(|i| i % 4 == 2).collect();
    assert_eq!(got, want);
    // Only the host's prefix and its time range are read.
    assert!(
        found.stats().read <= want.len() as u64 + 1,
        "{:?}",
        found.stats()
    );
    // A list of hosts: a prefix each, the one not stored matching nothing.
    let n = table
        .query(&Metric::query().host_in(["web1", "nohost"]).build())
        .count();
    assert_eq!(n, 500);
}

/// `#[fixed(N)]` on a text field of a text key: right-padded with spaces to `N` bytes, as
/// Java's `String.format("%-8s")`.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(delimiter = '|')]
struct Padded {
    #[fixed(8)]
    country: String,
    #[decimal(width = 4)]
    year: u16,
}

#[test]
fn fixed_width_text_is_space_padded() {
    let k = Padded {
        country: "de".into(),
        year: 2023,
    };
    assert_eq!(text(&k), "de      |2023");
    assert_eq!(Padded::decode(b"de      |2023").unwrap(), k);
    // Longer than the width, or ending in a space: refused, never truncated.
    assert!(Padded {
        country: "switzerland".into(),
        year: 1
    }
    .to_bytes()
    .is_err());
    assert!(Padded {
        country: "de ".into(),
        year: 1
    }
    .to_bytes()
    .is_err());
    // Not the width: refused when reading.
    assert!(Padded::decode(b"de|2023").is_err());
    assert_eq!(Padded::SCHEMA.fields[0].width, Some(9));
    assert_eq!(
        rowkey::explain_schema(Padded::SCHEMA, b"de      |2023"),
        Padded::explain(b"de      |2023").to_string()
    );
    let table = Table::<_, Padded>::new(MemStore::new());
    table.put(&k, b"").unwrap();
    assert_eq!(
        table.scan(&Padded::scan().country("de").ranges()).count(),
        1
    );
}
