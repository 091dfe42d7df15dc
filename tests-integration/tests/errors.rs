//! Bad input always gets a clear error that names the field and the offset, and loses nothing:
//! encoders refuse rather than truncate, decoders refuse rather than guess or panic.

mod common;

use common::Event;
use rowkey::{DecodeErrorKind, EncodeErrorKind, RowKey};

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(key_limit = 12)]
struct Short {
    id: u32,
    name: String,
}

#[derive(RowKey, Debug, PartialEq)]
struct Flags<'a> {
    a: bool,
    b: Option<u8>,
    s: &'a str,
    #[reverse_ts]
    ts: i64,
}

fn event(kind: &str, ts: u64) -> Event {
    Event {
        user_id: 7,
        event_type: kind.into(),
        ts,
    }
}

#[test]
fn too_long_fixed_value_is_refused_not_truncated() {
    let e = event("a-very-long-event-type", 1).to_bytes().unwrap_err();
    assert_eq!(
        e.kind(),
        EncodeErrorKind::TooLongForFixed { len: 22, width: 16 }
    );
    assert_eq!(e.field(), "event_type");
    assert_eq!(e.offset(), Some(9));
    assert_eq!(
        e.to_string(),
        "field `event_type` at byte 9: value of 22 bytes does not fit `fixed(16)`; it is refused, never truncated"
    );
}

#[test]
fn trailing_nul_in_fixed_field_is_refused() {
    let e = event("click\0", 1).to_bytes().unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::TrailingNul { len: 6 });
    // An interior NUL round-trips and is accepted.
    let ok = event("cl\0ick", 1);
    assert_eq!(Event::decode(&ok.to_bytes().unwrap()).unwrap(), ok);
}

#[test]
fn reverse_ts_out_of_range_is_refused() {
    let e = event("x", u64::MAX).to_bytes().unwrap_err();
    assert_eq!(
        e.kind(),
        EncodeErrorKind::TimestampOutOfRange {
            value: u64::MAX as i128
        }
    );
    assert_eq!(e.field(), "ts");
    assert_eq!(e.offset(), Some(25));
    let neg = Flags {
        a: true,
        b: None,
        s: "",
        ts: -1,
    }
    .to_bytes()
    .unwrap_err();
    assert_eq!(
        neg.kind(),
        EncodeErrorKind::TimestampOutOfRange { value: -1 }
    );
}

#[test]
fn key_over_max_len_is_refused() {
    let ok = Short {
        id: 1,
        name: "123456".into(),
    };
    assert_eq!(ok.to_bytes().unwrap().len(), 12);
    let e = Short {
        id: 1,
        name: "1234567".into(),
    }
    .to_bytes()
    .unwrap_err();
    assert_eq!(e.kind(), EncodeErrorKind::KeyTooLong { len: 13, max: 12 });
    assert_eq!(e.offset(), Some(12), "the first byte past the limit");
    assert_eq!(
        e.to_string(),
        "at byte 12: key of 13 bytes is longer than the key limit of 12 bytes"
    );
    assert_eq!(Short::MAX_LEN, 12);
}

#[test]
fn small_buffers_get_an_error_and_no_bytes() {
    let ev = event("click", 5);
    let mut buf = [0xAAu8; 32];
    let e = ev.encode_to_slice(&mut buf).unwrap_err();
    assert_eq!(
        e.kind(),
        EncodeErrorKind::BufferTooSmall {
            needed: 33,
            available: 32
        }
    );
    assert!(buf.iter().all(|&b| b == 0xAA), "nothing written");
    let mut slice: &mut [u8] = &mut buf[..];
    let e = ev.encode_into(&mut slice).unwrap_err();
    assert_eq!(
        e.kind(),
        EncodeErrorKind::BufferTooSmall {
            needed: 33,
            available: 32
        }
    );
}

#[test]
fn encode_into_appends_the_same_bytes() {
    let ev = event("click", 5);
    let mut out = bytes::BytesMut::from(&b"prefix"[..]);
    ev.encode_into(&mut out).unwrap();
    assert_eq!(&out[..6], b"prefix");
    assert_eq!(&out[6..], &ev.to_bytes().unwrap()[..]);
    let mut v = Vec::new();
    ev.encode_into(&mut v).unwrap();
    assert_eq!(v, ev.to_bytes().unwrap());
}

#[test]
fn truncated_input_names_field_and_offset() {
    let bytes = event("click", 5).to_bytes().unwrap();
    for n in 0..bytes.len() {
        let e = Event::decode(&bytes[..n]).unwrap_err();
        assert!(
            matches!(e.kind(), DecodeErrorKind::Truncated { .. }),
            "{n}: {e}"
        );
    }
    let e = Event::decode(&bytes[..20]).unwrap_err();
    assert_eq!(e.field(), "event_type");
    assert_eq!(e.offset(), 9);
    assert_eq!(
        e.to_string(),
        "field `event_type` at byte 9: input ends early, at least 5 more byte(s) needed"
    );
}

#[test]
fn trailing_bytes_are_refused() {
    let mut bytes = event("click", 5).to_bytes().unwrap().to_vec();
    bytes.push(0);
    let e = Event::decode(&bytes).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::TrailingBytes { count: 1 });
    assert_eq!(e.offset(), 33);
}

#[test]
fn wrong_salt_is_refused_unless_trusted() {
    let ev = event("click", 5);
    let mut bytes = ev.to_bytes().unwrap().to_vec();
    let good = bytes[0];
    bytes[0] = (good + 1) % 16;
    let e = Event::decode(&bytes).unwrap_err();
    assert_eq!(
        e.kind(),
        DecodeErrorKind::WrongSalt {
            expected: good,
            found: (good + 1) % 16
        }
    );
    assert_eq!(e.field(), "user_id");
    assert_eq!(e.offset(), 0);
    // The trusted path skips the hash but still refuses a byte beyond the buckets.
    assert_eq!(Event::decode_trusted(&bytes).unwrap(), ev);
    bytes[0] = 16;
    let e = Event::decode_trusted(&bytes).unwrap_err();
    assert_eq!(
        e.kind(),
        DecodeErrorKind::SaltOutOfRange {
            found: 16,
            buckets: 16
        }
    );
}

#[test]
fn bad_bytes_are_named() {
    let k = Flags {
        a: true,
        b: Some(3),
        s: "hi",
        ts: 9,
    };
    let good = k.to_bytes().unwrap().to_vec();
    assert_eq!(Flags::decode(&good).unwrap(), k);

    let mut bad = good.clone();
    bad[0] = 2;
    let e = Flags::decode(&bad).unwrap_err();
    assert_eq!(
        (e.field(), e.offset(), e.kind()),
        ("a", 0, DecodeErrorKind::BadBool { byte: 2 })
    );

    let mut bad = good.clone();
    bad[1] = 7;
    let e = Flags::decode(&bad).unwrap_err();
    assert_eq!(
        (e.field(), e.offset(), e.kind()),
        ("b", 1, DecodeErrorKind::BadOption { byte: 7 })
    );

    // "hi" 00 01 at 3..7: make it "h" 0xFF then a bad escape 00 05.
    let mut bad = good.clone();
    bad[4] = 0xFF;
    assert_eq!(
        Flags::decode(&bad).unwrap_err().kind(),
        DecodeErrorKind::BadUtf8
    );
    let mut bad = good.clone();
    bad[6] = 5;
    let e = Flags::decode(&bad).unwrap_err();
    assert_eq!(
        (e.field(), e.offset(), e.kind()),
        ("s", 6, DecodeErrorKind::BadEscape { byte: 5 })
    );

    let mut bad = good;
    bad[7] = 0x80;
    let e = Flags::decode(&bad).unwrap_err();
    assert_eq!(
        (e.field(), e.offset(), e.kind()),
        ("ts", 7, DecodeErrorKind::BadTimestamp)
    );
}

#[test]
fn borrowed_field_with_escapes_says_to_use_an_owned_type() {
    let k = Flags {
        a: false,
        b: None,
        s: "a\0b",
        ts: 0,
    };
    let bytes = k.to_bytes().unwrap();
    let e = Flags::decode(&bytes).unwrap_err();
    assert_eq!(e.kind(), DecodeErrorKind::NeedsCopy);
    assert!(
        e.to_string()
            .contains("declare the field as `String`, `Vec<u8>` or `Cow`"),
        "{e}"
    );
}

#[test]
fn errors_are_std_errors() {
    fn is_error<E: std::error::Error + Send + Sync + 'static>(_: &E) {}
    is_error(&event("x", u64::MAX).to_bytes().unwrap_err());
    is_error(&Event::decode(&[]).unwrap_err());
}

#[derive(RowKey, Debug, PartialEq)]
struct Inner {
    a: u16,
    #[fixed(2)]
    code: String,
}

#[derive(RowKey, Debug, PartialEq)]
struct Outer {
    #[salt(buckets = 4)]
    id: u32,
    name: String,
    inner: Inner,
}

#[test]
fn nested_errors_name_the_inner_field_at_its_absolute_offset() {
    let k = Outer {
        id: 1,
        name: "ab".into(),
        inner: Inner {
            a: 1,
            code: "xyz".into(),
        },
    };
    let e = k.to_bytes().unwrap_err();
    // salt (1) + id (4) + "ab" 00 01 (4) + a (2) = 11
    assert_eq!((e.field(), e.offset()), ("code", Some(11)));
    assert_eq!(
        e.kind(),
        EncodeErrorKind::TooLongForFixed { len: 3, width: 2 }
    );

    let good = Outer {
        id: 1,
        name: "ab".into(),
        inner: Inner {
            a: 1,
            code: "xy".into(),
        },
    };
    let bytes = good.to_bytes().unwrap();
    let mut bad = bytes.to_vec();
    bad.truncate(12);
    let e = Outer::decode(&bad).unwrap_err();
    assert_eq!((e.field(), e.offset()), ("code", 11));
}

#[test]
fn the_bytes_crate_is_reexported() {
    let mut buf = rowkey::bytes::BytesMut::new();
    Short {
        id: 1,
        name: "x".into(),
    }
    .encode_into(&mut buf)
    .unwrap();
    assert_eq!(&buf[..], b"\x00\x00\x00\x01x\x00\x01");
}
