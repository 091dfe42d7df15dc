//! `T::explain`: a readable breakdown of a key, and a precise message for one that does not parse.

mod common;

use common::Event;
use rowkey::RowKey;

#[test]
fn explains_every_field() {
    let ev = Event {
        user_id: 7,
        event_type: "click".into(),
        ts: 1_700_000_000_000,
    };
    let text = Event::explain(&ev.to_bytes().unwrap());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[0].starts_with("Event key, 33 bytes: \\x09\\x00"),
        "{text}"
    );
    assert!(
        lines[1].contains("(salt)")
            && lines[1].contains("bucket 9 of 16, matches md5(user_id) % 16"),
        "{text}"
    );
    assert!(
        lines[2].contains("1..9")
            && lines[2].contains("user_id")
            && lines[2].ends_with(" 7  [#[salt(buckets = 16)]]"),
        "{text}"
    );
    assert!(
        lines[3].contains("9..25")
            && lines[3].contains("\"click\"")
            && lines[3].contains("#[fixed(16)]"),
        "{text}"
    );
    assert!(
        lines[4].contains("25..33")
            && lines[4].contains("1700000000000")
            && lines[4].contains("descending"),
        "{text}"
    );
}

#[test]
fn names_what_is_wrong() {
    let bytes = Event {
        user_id: 7,
        event_type: "click".into(),
        ts: 5,
    }
    .to_bytes()
    .unwrap()
    .to_vec();
    let truncated = Event::explain(&bytes[..20]);
    assert!(
        truncated.contains("error: field `event_type` at byte 9: input ends early"),
        "{truncated}"
    );
    assert!(
        truncated.contains("user_id"),
        "fields before the error are still shown: {truncated}"
    );

    let mut wrong_salt = bytes.clone();
    wrong_salt[0] = (wrong_salt[0] + 1) % 16;
    assert!(Event::explain(&wrong_salt).contains("WRONG: the salted fields hash to bucket"));

    let mut trailing = bytes;
    trailing.push(1);
    assert!(Event::explain(&trailing)
        .contains("error: at byte 33: 1 byte(s) left after the last field"));
    assert!(Event::explain(&[]).contains("error: no salt byte"));
}

#[derive(RowKey)]
struct Inner<'a> {
    host: &'a str,
    #[desc]
    level: u8,
}

#[derive(RowKey)]
struct Outer<'a> {
    inner: Inner<'a>,
    data: Vec<u8>,
    tag: Option<String>,
}

#[test]
fn explains_nested_keys_and_escaped_bytes() {
    let k = Outer {
        inner: Inner {
            host: "h\0st",
            level: 2,
        },
        data: vec![0, 0xFF],
        tag: Some("t".into()),
    };
    // A borrowed field cannot decode escaped bytes, so `explain` reports it precisely.
    let text = Outer::explain(&k.to_bytes().unwrap());
    assert!(
        text.contains("error: field `host` at byte 0: the stored bytes are escaped"),
        "{text}"
    );
    let ok = Outer {
        inner: Inner {
            host: "web",
            level: 2,
        },
        data: vec![0, 0xFF],
        tag: None,
    };
    let text = Outer::explain(&ok.to_bytes().unwrap());
    assert!(text.contains("Inner { host: \"web\", level: 2 }"), "{text}");
    assert!(text.contains("b\"\\x00\\xFF\""), "{text}");
    assert!(text.contains("None"), "{text}");
}

/// A raw identifier and a borrowed field: names and types appear as users write them.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(allow_hotspot)]
struct Raw<'a> {
    r#type: &'a str,
    #[salt(buckets = 4)]
    id: u32,
}

#[test]
fn raw_identifiers_and_lifetimes_read_as_written() {
    let f = &Raw::SCHEMA.fields[0];
    assert_eq!((f.name, f.rust_type), ("type", "&'a str"));
    let md = Raw::SCHEMA.to_markdown();
    assert!(md.contains("`type`") && md.contains("&'a str"), "{md}");
    assert!(!md.contains("r#") && !md.contains("&'astr"), "{md}");
    let key = Raw { r#type: "a", id: 1 }.to_bytes().unwrap();
    let text = Raw::explain(&key);
    assert!(!text.contains("r#type"), "{text}");
    assert!(text.contains("md5(type, id)"), "{text}");
    let err = Raw::decode(&key[..2]).unwrap_err();
    assert_eq!(err.field(), "type");
}
