//! The cross-language vectors (`tests/format/vectors.json`, FORMAT.md's examples in a neutral
//! schema): rowkey writes exactly their bytes, and a Python reader written from FORMAT.md alone
//! (`tests/format_reader/reader.py`) decodes every one of them to the declared values and
//! recomputes each salt byte. `ROWKEY_BLESS=1` fills in the hex of the vectors marked
//! `from_library` (those not copied from the independently computed golden vectors).

mod common;

use std::path::Path;

use common::{hex, one_field, Event};
use rowkey::store::{Cell, MemStore, RowWrite, Store};
use rowkey::{Hashed, KeyRange, RowKey};

one_field!(U32, u32);
one_field!(U128, u128);
one_field!(I32, i32);
one_field!(I64, i64);
one_field!(Bool, bool);
one_field!(F64, f64);
one_field!(F32, f32);
one_field!(Text, String);
one_field!(Bytes, Vec<u8>);
one_field!(Arr, [u8; 3]);
one_field!(
    Fixed4,
    #[fixed(4)]
    String
);
one_field!(OptU8, Option<u8>);
one_field!(OptText, Option<String>);
one_field!(OptOpt, Option<Option<u8>>);
one_field!(
    RevTs,
    #[reverse_ts]
    u64
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
one_field!(Md5Four, #[hash(md5, len = 4)] Hashed<String, 4>);
one_field!(Md5Long, #[hash(md5)] Hashed<i64>);

#[derive(RowKey)]
struct HostEvent {
    #[salt(buckets = 8)]
    host: String,
    #[reverse_ts]
    ts: u64,
}

#[derive(RowKey)]
struct Xxh3Salted {
    #[salt(buckets = 16, hash = "xxh3")]
    user: u64,
    ts: u64,
}

#[derive(RowKey)]
struct Tsdb {
    metric: u32,
    #[salt(buckets = 20, hash = "java")]
    tags: String,
    ts: u64,
}

#[derive(RowKey)]
struct Phoenix {
    #[salt(buckets = 16, hash = "phoenix")]
    tenant: String,
    id: i64,
    ts: u64,
}

#[derive(RowKey)]
#[rowkey(allow_hotspot)]
struct Modulo {
    #[salt(buckets = 8, hash = "mod")]
    ts: u64,
    host: String,
}

#[derive(RowKey)]
struct Inner {
    a: u8,
    b: String,
}

#[derive(RowKey)]
struct Outer {
    #[salt(buckets = 16)]
    id: u16,
    inner: Inner,
    #[desc]
    inner_desc: Inner,
}

#[derive(RowKey)]
#[rowkey(prefix(customer))]
enum CustomerRow {
    #[tag(1)]
    Customer {
        #[salt(buckets = 8)]
        customer: u64,
    },
    #[tag(2)]
    Order {
        #[salt(buckets = 8)]
        customer: u64,
        #[reverse_ts]
        placed: u64,
        order: u32,
    },
}

#[derive(RowKey)]
struct Point {
    metric: u32,
    #[row_span(3600)]
    ts: u64,
    tag: String,
}

/// The bytes rowkey writes for the vector `name`.
/// FORMAT.md §2.15-§2.17: keys Java code wrote, text keys, hash prefixes.
#[derive(RowKey)]
struct JavaFlurry {
    #[java]
    user_id: u64,
    #[java(utf)]
    application_id: String,
}

#[derive(RowKey)]
struct JavaConcat {
    #[java]
    shard: i32,
    #[java]
    seq: i64,
    #[rest]
    name: String,
}

#[derive(RowKey)]
struct JavaNumbers {
    #[java]
    a: i16,
    #[java]
    d: f64,
}

#[derive(RowKey)]
#[rowkey(delimiter = ':')]
struct TextKey {
    #[decimal(width = 6)]
    date: u32,
    #[decimal(width = 6)]
    time: u32,
    #[decimal]
    message_id: u64,
}

#[derive(RowKey)]
#[rowkey(delimiter = '|')]
struct TextMixed {
    #[hex(width = 8, upper)]
    id: u32,
    #[reverse]
    phone: String,
    #[hex]
    seq: u16,
    note: String,
}

#[derive(RowKey)]
#[rowkey(delimiter = ':', hash_prefix(md5, of = message_id, upper))]
struct PrefixedText {
    #[decimal(width = 6)]
    date: u32,
    #[decimal(width = 6)]
    time: u32,
    #[decimal]
    message_id: u64,
}

#[derive(RowKey)]
#[rowkey(hash_prefix(md5, of = host, len = 2))]
struct PrefixedBinary {
    #[fixed(8)]
    host: String,
    ts: u64,
}

/// A column value's bytes (FORMAT.md §6).
fn column<V: rowkey::ColumnValue>(v: V) -> Vec<u8> {
    let mut out = Vec::new();
    v.encode_value(&mut out).expect("encodes");
    out
}

fn library(name: &str) -> Vec<u8> {
    fn b<K: RowKey>(k: K) -> Vec<u8> {
        k.to_bytes().expect("encodes").to_vec()
    }
    match name {
        "u32" => b(U32 { v: 1 }),
        "u128" => b(U128 { v: 1 }),
        "i32_negative" => b(I32 { v: -1 }),
        "i64_max" => b(I64 { v: i64::MAX }),
        "bool" => b(Bool { v: true }),
        "f64_negative" => b(F64 { v: -1.0 }),
        "f32_one" => b(F32 { v: 1.0 }),
        "text_with_zero" => b(Text { v: "a\0b".into() }),
        "bytes_of_zeros" => b(Bytes { v: vec![0, 0] }),
        "byte_array" => b(Arr { v: [1, 0, 0xFF] }),
        "fixed_text" => b(Fixed4 { v: "ab".into() }),
        "option_some" => b(OptU8 { v: Some(5) }),
        "option_none" => b(OptU8 { v: None }),
        "option_of_option" => b(OptOpt { v: Some(Some(5)) }),
        "column_i64" => column(-1i64),
        "column_u16" => column(500u16),
        "column_f64" => column(1.5f64),
        "column_bool" => column(true),
        "column_text" => column(String::from("héllo")),
        "counter" => rowkey::store::counter_bytes(-3).to_vec(),
        "option_empty_text" => b(OptText {
            v: Some(String::new()),
        }),
        "reverse_ts" => b(RevTs {
            v: 1_700_000_000_000,
        }),
        "desc_u16" => b(DescU16 { v: 5 }),
        "desc_text" => b(DescText { v: "ab".into() }),
        "desc_fixed" => b(DescFixed { v: "a".into() }),
        "reverse_u32" => b(Rev { v: 0x0102_0304 }),
        "hashed_text_4" => b(Md5Four {
            v: Hashed::new("foo".into()),
        }),
        "hashed_long" => b(Md5Long { v: Hashed::new(-1) }),
        "event" => b(Event {
            user_id: 7,
            event_type: "click".into(),
            ts: 1_700_000_000_000,
        }),
        "salt_over_text" => b(HostEvent {
            host: "host1".into(),
            ts: 0,
        }),
        "salt_xxh3" => b(Xxh3Salted {
            user: 42,
            ts: 1_700_000_000_000,
        }),
        "salt_java" => b(Tsdb {
            metric: 1,
            tags: "cpu.user".into(),
            ts: 1_700_000_000_000,
        }),
        "salt_phoenix" => b(Phoenix {
            tenant: "acme".into(),
            id: -5,
            ts: 1_700_000_000_000,
        }),
        "salt_mod" => b(Modulo {
            ts: 1_700_000_000_013,
            host: "web-1".into(),
        }),
        "nested" => b(Outer {
            id: 1,
            inner: Inner {
                a: 2,
                b: "x".into(),
            },
            inner_desc: Inner {
                a: 2,
                b: "x".into(),
            },
        }),
        "record_type_order" => b(CustomerRow::Order {
            customer: 42,
            placed: 1_700_000_000_000,
            order: 9,
        }),
        "record_type_customer" => b(CustomerRow::Customer { customer: 42 }),
        "row_span_hour" => b(Point {
            metric: 7,
            ts: 1_700_000_123,
            tag: "a".into(),
        }),
        "composite_cell" => {
            // Row key `00 61 00 01`, family `d`, qualifier `vi`: the one key the memory store
            // keeps for the cell (FORMAT.md §7).
            let store = MemStore::new();
            let row = vec![0x00, 0x61, 0x00, 0x01];
            store
                .write_rows(&[RowWrite::new(
                    row,
                    vec![Cell::new("d", "vi", b"1".to_vec())],
                )])
                .unwrap();
            let keys: Vec<Vec<u8>> = store
                .scan(&KeyRange::new(&[], None))
                .map(|r| r.unwrap().0.to_vec())
                .collect();
            assert_eq!(keys.len(), 1);
            keys[0].clone()
        }
        "java_flurry" => b(JavaFlurry {
            user_id: 1,
            application_id: "a\0😀".into(),
        }),
        "java_concat_rest" => b(JavaConcat {
            shard: -1,
            seq: 2,
            name: "user_10".into(),
        }),
        "java_numbers" => b(JavaNumbers { a: -300, d: 1.5 }),
        "text_key" => b(TextKey {
            date: 230_611,
            time: 63_031,
            message_id: 1_231_231,
        }),
        "text_key_mixed" => b(TextMixed {
            id: 0xBEEF,
            phone: "13800138000".into(),
            seq: 255,
            note: "a/b?".into(),
        }),
        "hash_prefix_text" => b(PrefixedText {
            date: 230_611,
            time: 63_031,
            message_id: 1_231_231,
        }),
        "hash_prefix_binary" => b(PrefixedBinary {
            host: "web01".into(),
            ts: 7,
        }),
        "uid_forward" | "uid_reverse" | "uid_last_id" => uid_cell(name).3,
        n if n.starts_with("phoenix_") => phoenix(n),
        other => panic!("vector `{other}` has no Rust counterpart in tests/format_vectors.rs"),
    }
}

/// FORMAT.md §10: Apache Phoenix's bytes, as `rowkey::phoenix` writes them (checked against
/// Phoenix itself in tests/phoenix.rs): a value of each type, and keys with a salt byte, a `DESC`
/// column, a null variable-width column in the middle and trailing nulls left out.
fn phoenix(name: &str) -> Vec<u8> {
    use rowkey::phoenix::{encode_value, Datum, KeyColumn, PhoenixKey, PhoenixType as T};
    let value = |ty: T, d: Datum<'static>| {
        let mut out = Vec::new();
        encode_value(ty, &d, &mut out).expect("encodes");
        out
    };
    let text = |s: &str| Some(Datum::Text(s.to_string().into()));
    let metrics = || {
        PhoenixKey::new(
            vec![
                KeyColumn::new("host", T::Varchar),
                KeyColumn::new("ts", T::BigInt).desc(),
            ],
            Some(4),
        )
        .unwrap()
    };
    let three = || {
        PhoenixKey::new(
            vec![
                KeyColumn::new("a", T::Varchar).desc(),
                KeyColumn::new("b", T::Varchar).nullable(),
                KeyColumn::new("c", T::Varchar).nullable(),
            ],
            None,
        )
        .unwrap()
    };
    match name {
        "phoenix_integer" => value(T::Integer, Datum::Int(-5)),
        "phoenix_unsigned_int" => value(T::UnsignedInt, Datum::Int(7)),
        "phoenix_double" => value(T::Double, Datum::Float(-1.5)),
        "phoenix_double_minus_zero" => value(T::Double, Datum::Float(-0.0)),
        "phoenix_double_zero" => value(T::Double, Datum::Float(0.0)),
        "phoenix_float" => value(T::Float, Datum::Float(2.5)),
        "phoenix_boolean" => value(T::Boolean, Datum::Bool(true)),
        "phoenix_varchar" => value(T::Varchar, Datum::Text("héllo".into())),
        "phoenix_char" => value(T::Char(4), Datum::Text("ab".into())),
        "phoenix_binary" => value(T::Binary(3), Datum::Bytes(vec![1].into())),
        "phoenix_date" => value(T::Date, Datum::Date(1_700_000_000_000)),
        "phoenix_timestamp" => value(
            T::Timestamp,
            Datum::Timestamp {
                millis: 1_700_000_000_000,
                nanos: 123_456,
            },
        ),
        "phoenix_key_salted" => metrics()
            .encode(&[text("db-1"), Some(Datum::Int(1_700_000_000_000))])
            .unwrap(),
        "phoenix_key_null_middle" => three().encode(&[text("x"), None, text("z")]).unwrap(),
        "phoenix_key_trailing_nulls" => three().encode(&[text("x"), None, None]).unwrap(),
        other => panic!("no Phoenix vector `{other}`"),
    }
}

/// FORMAT.md §9: a lookup table (`UidTable`, kind `host`, ids of 3 bytes) after `web-01` got
/// id 1 and `web-02` id 2; the cell vector `name` names (forward: `web-02`'s id; reverse: id
/// 2's name; last id: the kind's counter): its row, family, qualifier and value.
fn uid_cell(name: &str) -> (Vec<u8>, String, Vec<u8>, Vec<u8>) {
    use rowkey::store::{Columns, UidTable};
    let store = MemStore::new();
    let uids = UidTable::new(&store, "host", 3).unwrap();
    assert_eq!(uids.get_or_assign("web-01").unwrap(), 1);
    assert_eq!(uids.get_or_assign("web-02").unwrap(), 2);
    let (row, family): (&[u8], &str) = match name {
        "uid_forward" => (b"web-02", "id"),
        "uid_reverse" => (&[0, 0, 2], "name"),
        _ => (&[0], "id"),
    };
    let cells: Vec<_> = store
        .scan_rows(&KeyRange::new(&[], None), &Columns::all())
        .map(Result::unwrap)
        .filter(|r| r.key == row)
        .flat_map(|r| r.cells)
        .filter(|c| c.family == family)
        .collect();
    assert_eq!(cells.len(), 1, "{name}: {cells:?}");
    let c = &cells[0];
    (
        row.to_vec(),
        c.family.to_string(),
        c.qualifier.clone(),
        c.value.to_vec(),
    )
}

/// FORMAT.md §9: the lookup-table vectors' rows, families and qualifiers are the table's (their
/// hex, the values, is checked with every vector's).
#[test]
fn uid_vectors_are_the_tables_cells() {
    let text = std::fs::read_to_string(vectors_path()).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut seen = 0;
    for v in doc["vectors"].as_array().unwrap() {
        let Some(uid) = v.get("uid") else { continue };
        let name = v["name"].as_str().unwrap();
        let (row, family, qualifier, _) = uid_cell(name);
        assert_eq!(uid["row"]["hex"].as_str().unwrap(), hex(&row), "{name}");
        assert_eq!(uid["family"].as_str().unwrap(), family, "{name}");
        assert_eq!(
            uid["qualifier"].as_str().unwrap().as_bytes(),
            qualifier,
            "{name}"
        );
        seen += 1;
    }
    assert_eq!(seen, 3);
}

fn vectors_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/format/vectors.json")
}

#[test]
fn rowkey_writes_every_vectors_bytes() {
    let path = vectors_path();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let bless = std::env::var_os("ROWKEY_BLESS").is_some();
    let mut blessed = false;
    let vectors = doc["vectors"].as_array_mut().unwrap();
    assert!(vectors.len() >= 30, "{} vectors", vectors.len());
    for v in vectors.iter_mut() {
        let name = v["name"].as_str().unwrap().to_string();
        let bytes = hex(&library(&name));
        let from_library = v["from_library"].as_bool().unwrap_or(false);
        if bless && from_library && v["hex"] != bytes.as_str() {
            v["hex"] = serde_json::Value::String(bytes.clone());
            blessed = true;
        }
        assert_eq!(
            v["hex"].as_str().unwrap(),
            bytes,
            "vector `{name}` (ROWKEY_BLESS=1 rewrites the vectors marked from_library)"
        );
    }
    if blessed {
        // One vector per line, as the file is written by hand.
        let lines: Vec<String> = doc["vectors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| format!("    {}", serde_json::to_string(v).unwrap()))
            .collect();
        let rejects: Vec<String> = doc["rejects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| format!("    {}", serde_json::to_string(v).unwrap()))
            .collect();
        let fingerprints: Vec<String> = doc["fingerprints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| format!("    {}", serde_json::to_string(v).unwrap()))
            .collect();
        let out = format!(
            "{{\n  \"about\": {},\n  \"vectors\": [\n{}\n  ],\n  \"rejects\": [\n{}\n  ],\n  \"fingerprints\": [\n{}\n  ]\n}}\n",
            serde_json::to_string(&doc["about"]).unwrap(),
            lines.join(",\n"),
            rejects.join(",\n"),
            fingerprints.join(",\n")
        );
        std::fs::write(&path, out).unwrap();
    }
}

/// FORMAT.md §8: each fingerprint vector's text is the key type's layout, and its fingerprint
/// the type's `FINGERPRINT` (the Python reader recomputes it from the text): a nested key (and
/// its inner key), an enum key with a record type without fields of its own (`tag 1: []`), an
/// optional and a hashed field, the README's `Event`.
#[test]
fn every_fingerprint_vector_is_the_types() {
    let text = std::fs::read_to_string(vectors_path()).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let vectors = doc["fingerprints"].as_array().unwrap();
    assert!(vectors.len() >= 6);
    for v in vectors {
        let ty = v["key_type"].as_str().unwrap();
        let ours = match ty {
            "Inner" => Inner::FINGERPRINT,
            "Outer" => Outer::FINGERPRINT,
            "CustomerRow" => CustomerRow::FINGERPRINT,
            "OptU8" => OptU8::FINGERPRINT,
            "Md5Four" => Md5Four::FINGERPRINT,
            "Event" => Event::FINGERPRINT,
            other => panic!("no key type `{other}`"),
        };
        assert_eq!(
            format!("{ours:016x}"),
            v["fingerprint"].as_str().unwrap(),
            "{ty}: FORMAT.md §8 text `{}`",
            v["fingerprint_text"]
        );
    }
}

/// Why rowkey's decoder refuses `bytes` as a key of the vector `like`'s type (`None`: it reads
/// them).
fn refused(like: &str, bytes: &[u8]) -> Option<String> {
    fn d<K: RowKey + for<'de> rowkey::Decode<'de>>(bytes: &[u8]) -> Option<String> {
        K::decode(bytes).err().map(|e| e.to_string())
    }
    match like {
        "u32" => d::<U32>(bytes),
        "bool" => d::<Bool>(bytes),
        "text_with_zero" => d::<Text>(bytes),
        "option_some" => d::<OptU8>(bytes),
        "reverse_ts" => d::<RevTs>(bytes),
        "event" => d::<Event>(bytes),
        "record_type_customer" => d::<CustomerRow>(bytes),
        "java_flurry" => d::<JavaFlurry>(bytes),
        "text_key" => d::<TextKey>(bytes),
        "hash_prefix_text" => d::<PrefixedText>(bytes),
        "phoenix_boolean" => {
            rowkey::phoenix::decode_value(rowkey::phoenix::PhoenixType::Boolean, bytes)
                .err()
                .map(|e| e.to_string())
        }
        "phoenix_key_salted" => {
            use rowkey::phoenix::{KeyColumn, PhoenixKey, PhoenixType as T};
            let key = PhoenixKey::new(
                vec![
                    KeyColumn::new("host", T::Varchar),
                    KeyColumn::new("ts", T::BigInt).desc(),
                ],
                Some(4),
            )
            .unwrap();
            key.decode(bytes).err().map(|e| e.to_string())
        }
        other => panic!("no key type for the vector `{other}`"),
    }
}

/// FORMAT.md §12: every key of the `rejects` list is refused by rowkey's decoder (and by the
/// Python reader, below), each for the reason the list gives; the vector it is like decodes.
#[test]
fn rowkey_refuses_every_reject() {
    let text = std::fs::read_to_string(vectors_path()).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rejects = doc["rejects"].as_array().unwrap();
    assert!(rejects.len() >= 20, "{} rejects", rejects.len());
    for r in rejects {
        let (name, like) = (r["name"].as_str().unwrap(), r["like"].as_str().unwrap());
        let bytes = decode_hex(r["hex"].as_str().unwrap());
        let why = refused(like, &bytes);
        assert!(why.is_some(), "`{name}` ({}) decodes as `{like}`", r["why"]);
        let good = doc["vectors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == like)
            .unwrap();
        assert_eq!(
            refused(like, &decode_hex(good["hex"].as_str().unwrap())),
            None,
            "`{like}` itself"
        );
        eprintln!("refused {name}: {}", why.unwrap());
    }
}

fn decode_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn a_python_reader_written_from_format_md_reads_every_vector() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("python3")
        .arg(root.join("tests/format_reader/reader.py"))
        .arg(vectors_path())
        .output()
        .expect("python3 runs (it is on every machine .ci/run supports)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");

    // The reader is not a rubber stamp: a wrong salt byte, a wrong value and a truncated key
    // in a copy of the vectors each fail it.
    let text = std::fs::read_to_string(vectors_path()).unwrap();
    let broken = text
        .replace(
            "\"hex\":\"090000000000000007",
            "\"hex\":\"0a0000000000000007",
        )
        .replace("\"value\":{\"v\":16909060}", "\"value\":{\"v\":16909061}")
        .replace("\"hex\":\"6100ff620001\"", "\"hex\":\"6100ff6200\"");
    assert_ne!(broken, text);
    let copy = std::env::temp_dir().join(format!("rowkey-vectors-{}.json", std::process::id()));
    std::fs::write(&copy, broken).unwrap();
    let out = std::process::Command::new("python3")
        .arg(root.join("tests/format_reader/reader.py"))
        .arg(&copy)
        .output()
        .unwrap();
    std::fs::remove_file(&copy).ok();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(stdout.contains(" 3 failed"), "{stdout}");
}
