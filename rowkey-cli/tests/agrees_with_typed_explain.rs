//! `rowkey-explain` reads every key the typed `explain` reads, and says the same of it: for the
//! example schemas (and keys with every field type and attribute), each schema exported to JSON
//! and read back, random keys encoded by the typed code, given to the tool as
//! `Bytes.toStringBinary` text and as hex, explain exactly as `K::explain` does; so do random
//! and damaged byte strings (the same rows, the same error).

#[path = "../../rowkey/src/example.rs"]
mod example;

use example::{CustomerOrder, Event, HostLog, Leaderboard, MetricPoint};
use proptest::prelude::*;
use rowkey::{Hashed, RowKey, Schema};

/// Every field type and attribute the schema-driven explain must read.
#[derive(RowKey, Debug, Clone)]
struct Everything {
    #[salt(buckets = 20, hash = "java")]
    a: u8,
    b: i16,
    c: u128,
    d: i128,
    e: bool,
    f: f32,
    g: f64,
    #[desc]
    h: String,
    i: Vec<u8>,
    #[max_len(6)]
    j: String,
    #[fixed(5)]
    k: Vec<u8>,
    l: Option<u32>,
    m: [u8; 3],
    #[reverse]
    n: u32,
    #[desc]
    o: i64,
    p: Inner,
    #[hash(md5, len = 4)]
    q: Hashed<String, 4>,
}

#[derive(RowKey, Debug, Clone)]
struct Inner {
    x: u16,
    y: String,
}

/// A record-type enum: customers and their orders.
#[derive(RowKey, Debug, Clone)]
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
        note: Option<String>,
    },
}

fn reread(schema: &'static Schema) -> &'static Schema {
    let json = serde_json::to_string(schema).unwrap();
    let back = rowkey_cli::schemas_from_json(&json).unwrap();
    assert_eq!(back.len(), 1);
    back[0]
}

/// The tool's reading of `key`, given both ways an operator has it.
fn tool(schema: &'static Schema, key: &[u8]) -> String {
    let as_text = rowkey_cli::from_string_binary(&rowkey::fmt::binary(key)).unwrap();
    assert_eq!(as_text, key, "toStringBinary round trip");
    let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(rowkey_cli::from_hex(&format!("0x{hex}")).unwrap(), key);
    rowkey::explain_schema(schema, key)
}

fn everything() -> impl Strategy<Value = Everything> {
    (
        (
            any::<u8>(),
            any::<i16>(),
            any::<u128>(),
            any::<i128>(),
            any::<bool>(),
        ),
        (
            any::<f32>(),
            any::<f64>(),
            "\\PC{0,8}",
            proptest::collection::vec(any::<u8>(), 0..6),
        ),
        (
            "[a-z\\x00]{0,6}",
            proptest::collection::vec(1u8.., 0..5),
            any::<Option<u32>>(),
            any::<[u8; 3]>(),
        ),
        (
            any::<u32>(),
            any::<i64>(),
            any::<u16>(),
            "\\PC{0,5}",
            "\\PC{0,5}",
        ),
    )
        .prop_map(
            |((a, b, c, d, e), (f, g, h, i), (j, k, l, m), (n, o, x, y, q))| Everything {
                a,
                b,
                c,
                d,
                e,
                f,
                g,
                h,
                i,
                j: j.trim_end_matches('\0').to_string(),
                k,
                l,
                m,
                n,
                o,
                p: Inner { x, y },
                q: Hashed::new(q),
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_tool_reads_every_example_key_as_the_typed_explain(
        user in any::<u64>(), kind in "[a-z]{0,16}", ts in 0..=i64::MAX as u64,
        host in "\\PC{0,10}", hts in 0..=i64::MAX, score in any::<i64>(), player in "\\PC{0,6}",
        customer in "[0-9]{1,8}", order in any::<u32>(),
    ) {
        let k = Event { user_id: user, event_type: kind.clone(), ts }.to_bytes().unwrap();
        prop_assert_eq!(tool(reread(Event::SCHEMA), &k), Event::explain(&k));
        let k = HostLog { host: &host, ts: hts, event_type: "login" }.to_bytes().unwrap();
        prop_assert_eq!(tool(reread(HostLog::SCHEMA), &k), HostLog::explain(&k));
        let k = Leaderboard { game: "g".into(), score, player }.to_bytes().unwrap();
        prop_assert_eq!(tool(reread(Leaderboard::SCHEMA), &k), Leaderboard::explain(&k));
        let k = CustomerOrder { customer: Hashed::new(customer), order_date: ts, order_id: order }
            .to_bytes()
            .unwrap();
        prop_assert_eq!(tool(reread(CustomerOrder::SCHEMA), &k), CustomerOrder::explain(&k));
        // Rows as columns: the row_span field read as bucket start and offset, also damaged.
        let k = MetricPoint { metric: kind.clone(), host: host.clone(), ts, seq: order as u16 }
            .to_bytes()
            .unwrap()
            .to_vec();
        prop_assert_eq!(tool(reread(MetricPoint::SCHEMA), &k), MetricPoint::explain(&k));
        let mut off_grid = k.clone();
        let at = k.len() - 7; // the last byte of the bucket start
        off_grid[at] ^= 1;
        prop_assert_eq!(tool(reread(MetricPoint::SCHEMA), &off_grid), MetricPoint::explain(&off_grid));
        let rows = [
            CustomerRow::Customer { customer: user },
            CustomerRow::Order { customer: user, placed: ts, note: Some("gift".into()) },
            CustomerRow::Order { customer: user, placed: ts, note: None },
        ];
        for r in rows {
            let k = r.to_bytes().unwrap();
            prop_assert_eq!(tool(reread(CustomerRow::SCHEMA), &k), CustomerRow::explain(&k));
        }
    }

    #[test]
    fn every_field_type_and_attribute_reads_the_same(e in everything()) {
        let k = e.to_bytes().unwrap();
        prop_assert_eq!(tool(reread(Everything::SCHEMA), &k), Everything::explain(&k));
    }

    /// Damaged keys: cut, changed bytes, random bytes; the same rows and the same error.
    #[test]
    fn damaged_keys_are_explained_the_same(
        e in everything(), cut in any::<prop::sample::Index>(), flip in any::<prop::sample::Index>(),
        byte in any::<u8>(), random in proptest::collection::vec(any::<u8>(), 0..40),
    ) {
        let schema = reread(Everything::SCHEMA);
        let k = e.to_bytes().unwrap().to_vec();
        let cut = &k[..cut.index(k.len())];
        prop_assert_eq!(tool(schema, cut), Everything::explain(cut));
        let mut changed = k.clone();
        changed[flip.index(k.len())] = byte;
        prop_assert_eq!(tool(schema, &changed), Everything::explain(&changed));
        prop_assert_eq!(tool(schema, &random), Everything::explain(&random));
        let rows = reread(CustomerRow::SCHEMA);
        prop_assert_eq!(tool(rows, &random), CustomerRow::explain(&random));
    }
}

#[test]
fn the_program_reads_a_schema_file_and_keys_from_arguments_and_stdin() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = scratch("rowkey-explain-");
    let path = dir.path().join("schemas.json");
    let json = format!(
        "[{}, {}]",
        serde_json::to_string(Event::SCHEMA).unwrap(),
        serde_json::to_string(Leaderboard::SCHEMA).unwrap()
    );
    std::fs::write(&path, json).unwrap();
    let key = Event {
        user_id: 7,
        event_type: "click".into(),
        ts: 1_700_000_000_000,
    }
    .to_bytes()
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_rowkey");
    let out = Command::new(bin)
        .args([
            "explain",
            "--schema",
            path.to_str().unwrap(),
            "--type",
            "Event",
        ])
        .arg(rowkey::fmt::binary(&key))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        Event::explain(&key) + "\n"
    );
    let hex: String = key.iter().map(|b| format!("{b:02x}")).collect();
    let mut child = Command::new(bin)
        .args([
            "explain",
            "--schema",
            path.to_str().unwrap(),
            "--type",
            "Event",
            "--hex",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    writeln!(child.stdin.take().unwrap(), "{hex}").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        Event::explain(&key) + "\n"
    );
    // Several schemas and no --type: a clear error, exit code 2.
    let out = Command::new(bin)
        .args(["explain", "--schema", path.to_str().unwrap(), "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--type (Event, Leaderboard)"));
    // A mistyped flag: clap's error and usage, exit code 2, nothing printed to stdout.
    let out = Command::new(bin)
        .args(["explain", "--schemas", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--schema"));
}

/// What `decode_schema` reported of one key, owned.
#[derive(Default)]
struct Collected {
    fields: Vec<(usize, rowkey::DynValue<'static>, u8)>,
    variant: Option<usize>,
}

impl<'de> rowkey::FieldVisitor<'de> for Collected {
    fn field(&mut self, index: usize, value: rowkey::DynField<'de>) {
        use rowkey::DynValue as V;
        let owned = match value.value {
            V::Str(s) => V::Str(s.into_owned().into()),
            V::Bytes(b) => V::Bytes(b.into_owned().into()),
            V::Digest(d) => V::Digest(d.into_owned().into()),
            V::Bool(v) => V::Bool(v),
            V::U8(v) => V::U8(v),
            V::U16(v) => V::U16(v),
            V::U32(v) => V::U32(v),
            V::U64(v) => V::U64(v),
            V::U128(v) => V::U128(v),
            V::I8(v) => V::I8(v),
            V::I16(v) => V::I16(v),
            V::I32(v) => V::I32(v),
            V::I64(v) => V::I64(v),
            V::I128(v) => V::I128(v),
            V::F32(v) => V::F32(v),
            V::F64(v) => V::F64(v),
            V::Null => V::Null,
            other => panic!("a value this test does not know: {other:?}"),
        };
        self.fields.push((index, owned, value.somes));
    }
    fn variant(&mut self, variant: usize) {
        self.variant = Some(variant);
    }
}

fn decoded(schema: &'static Schema, key: &[u8]) -> Result<Collected, rowkey::DecodeError> {
    let mut c = Collected::default();
    rowkey::decode_schema(schema, key, &mut c).map(|()| c)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// `decode_schema`, from the schema read back from JSON, reads each field's value as the
    /// typed decoder does, in `flat_fields`' order (the nested key's fields in its place).
    #[test]
    fn decode_schema_reads_every_field_as_the_typed_decoder(e in everything()) {
        use rowkey::DynValue as V;
        let schema = reread(Everything::SCHEMA);
        let k = e.to_bytes().unwrap();
        let got = decoded(schema, &k).unwrap();
        let (l, somes) = match e.l {
            Some(v) => (V::U32(v), 1),
            None => (V::Null, 0),
        };
        let want: Vec<(V<'static>, u8)> = vec![
            (V::U8(e.a), 0), (V::I16(e.b), 0), (V::U128(e.c), 0), (V::I128(e.d), 0),
            (V::Bool(e.e), 0), (V::F32(e.f), 0), (V::F64(e.g), 0), (V::Str(e.h.clone().into()), 0),
            (V::Bytes(e.i.clone().into()), 0), (V::Str(e.j.clone().into()), 0),
            (V::Bytes(e.k.clone().into()), 0), (l, somes), (V::Bytes(e.m.to_vec().into()), 0),
            (V::U32(e.n), 0), (V::I64(e.o), 0), (V::U16(e.p.x), 0),
            (V::Str(e.p.y.clone().into()), 0), (V::Digest(e.q.digest().to_vec().into()), 0),
        ];
        let paths: Vec<String> = rowkey::flat_fields(schema).into_iter().map(|f| f.path).collect();
        prop_assert_eq!(paths.len(), want.len());
        prop_assert_eq!(&paths[15], "p.x");
        for (i, (index, value, s)) in got.fields.into_iter().enumerate() {
            prop_assert_eq!(index, i);
            // NaN is not equal to itself: compare floats by their bits.
            match (&value, &want[i].0) {
                (V::F32(a), V::F32(b)) => prop_assert_eq!(a.to_bits(), b.to_bits()),
                (V::F64(a), V::F64(b)) => prop_assert_eq!(a.to_bits(), b.to_bits()),
                _ => prop_assert_eq!(&value, &want[i].0, "field {}", paths[i]),
            }
            prop_assert_eq!(s, want[i].1);
        }
    }

    /// Damaged keys: `decode_schema` refuses exactly what the typed decoder refuses, with the
    /// same error; record types report their variant and their own fields after the others'.
    #[test]
    fn decode_schema_refuses_what_the_typed_decoder_refuses(
        e in everything(), cut in any::<prop::sample::Index>(), flip in any::<prop::sample::Index>(),
        byte in any::<u8>(), random in proptest::collection::vec(any::<u8>(), 0..40),
        customer in any::<u64>(), placed in 0..=i64::MAX as u64,
    ) {
        let schema = reread(Everything::SCHEMA);
        let k = e.to_bytes().unwrap().to_vec();
        let mut changed = k.clone();
        changed[flip.index(k.len())] = byte;
        for bytes in [&k[..cut.index(k.len())], &changed[..], &random[..]] {
            let typed = Everything::decode(bytes).map(|_| ()).map_err(|e| e.to_string());
            let dynamic = decoded(schema, bytes).map(|_| ()).map_err(|e| e.to_string());
            prop_assert_eq!(dynamic, typed);
        }
        let rows = reread(CustomerRow::SCHEMA);
        let typed = CustomerRow::decode(&random).map(|_| ()).map_err(|e| e.to_string());
        prop_assert_eq!(decoded(rows, &random).map(|_| ()).map_err(|e| e.to_string()), typed);
        let order = CustomerRow::Order { customer, placed, note: None }.to_bytes().unwrap();
        let got = decoded(rows, &order).unwrap();
        prop_assert_eq!(got.variant, Some(1));
        let indexes: Vec<usize> = got.fields.iter().map(|f| f.0).collect();
        let paths: Vec<String> = rowkey::flat_fields(rows).into_iter().map(|f| f.path).collect();
        prop_assert_eq!(&paths[indexes[1]], "Order.placed");
        prop_assert_eq!(&got.fields[1].1, &rowkey::DynValue::U64(placed));
        prop_assert_eq!(&got.fields[2].1, &rowkey::DynValue::Null);
    }
}

/// A scratch directory of this test's own (`prefix` and a random suffix, under the system's
/// temporary directory), removed when dropped, whether the test passed or not.
fn scratch(prefix: impl AsRef<str>) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(prefix.as_ref())
        .tempdir()
        .unwrap()
}
