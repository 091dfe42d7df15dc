//! The salt strategies beside MD5 (`#[salt(buckets = N, hash = "...")]`, FORMAT.md §3):
//! each salt byte against a reference written here from its definition, golden vectors computed
//! outside Rust (Java's `Arrays.hashCode` on the JVM, Python's `xxhash`), round trips, byte
//! order, scan exactness against a brute-force filter, and the schema data and explain output.
//! (The JVM itself recomputes the Java and Phoenix vectors in `tests/hbase.rs`.)

use proptest::prelude::*;
use rowkey::RowKey;

/// OpenTSDB's salt: Java's hash over the salted prefix (metric and tag, not the time).
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Tsdb {
    metric: u32,
    #[salt(buckets = 20, hash = "java")]
    tag: String,
    #[timestamp]
    ts: u64,
}

/// Apache Phoenix's salt: the same hash over every byte of the key after the salt byte.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Phoenix {
    #[salt(buckets = 16, hash = "phoenix")]
    tenant: u32,
    id: String,
}

/// A fast spread.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Fast {
    #[salt(buckets = 32, hash = "xxh3")]
    user: u64,
    #[reverse_ts]
    ts: u64,
}

/// The guide's `bucket = timestamp % numBuckets`.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Modulo {
    #[salt(buckets = 8, hash = "mod")]
    #[timestamp]
    ts: u64,
    host: String,
}

/// Java's `Arrays.hashCode(byte[])`, as the JDK documents it.
fn java_hash(bytes: &[u8]) -> i32 {
    bytes.iter().fold(1i32, |h, &b| {
        h.wrapping_mul(31).wrapping_add(i32::from(b as i8))
    })
}

/// `Math.abs(h % n)` as OpenTSDB and Phoenix take it.
fn java_bucket(bytes: &[u8], n: i32) -> u8 {
    (java_hash(bytes) % n).unsigned_abs() as u8
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn golden_vectors_computed_outside_rust() {
    // Java, on the JVM (jshell):
    //   Arrays.hashCode(HexFormat.of().parseHex("000000016370752e757365720001")) == 243972372,
    //   Math.abs(243972372 % 20) == 12
    // (the salted prefix: metric 1, then "cpu.user" and its terminator).
    let k = Tsdb {
        metric: 1,
        tag: "cpu.user".into(),
        ts: 1_700_000_000_000,
    };
    let bytes = k.to_bytes().unwrap();
    assert_eq!(
        hex(&bytes),
        "0c000000016370752e7573657200010000018bcfe56800"
    );
    assert_eq!(java_hash(&bytes[1..15]), 243972372);
    // Phoenix, on the JVM: Arrays.hashCode(parseHex("000000076f726465722d310001")) ==
    // 2021015147, Math.abs(2021015147 % 16) == 11: every byte after the salt byte.
    let p = Phoenix {
        tenant: 7,
        id: "order-1".into(),
    };
    let bytes = p.to_bytes().unwrap();
    assert_eq!(hex(&bytes), "0b000000076f726465722d310001");
    assert_eq!(java_hash(&bytes[1..]), 2021015147);
    // xxh3, in Python: xxhash.xxh3_64_intdigest(bytes.fromhex("000000000000002a")) ==
    // 3337142596522283180, % 32 == 12.
    let f = Fast {
        user: 42,
        ts: 1_700_000_000_000,
    };
    assert_eq!(
        hex(&f.to_bytes().unwrap()),
        "0c000000000000002a7ffffe74301a97ff"
    );
    assert_eq!(
        xxhash_rust::xxh3::xxh3_64(&42u64.to_be_bytes()),
        3337142596522283180
    );
    // mod: 1_700_000_000_003 % 8 == 3.
    let m = Modulo {
        ts: 1_700_000_000_003,
        host: "web".into(),
    };
    assert_eq!(hex(&m.to_bytes().unwrap()), "030000018bcfe568037765620001");
    // And the default is untouched: MD5 keys keep today's bytes (tests/golden.rs).
}

fn tsdb() -> impl Strategy<Value = Tsdb> {
    (any::<u32>(), "[a-z.]{0,12}", 0..=i64::MAX as u64).prop_map(|(metric, tag, ts)| Tsdb {
        metric,
        tag,
        ts,
    })
}

fn phoenix() -> impl Strategy<Value = Phoenix> {
    (any::<u32>(), "\\PC{0,10}").prop_map(|(tenant, id)| Phoenix { tenant, id })
}

fn fast() -> impl Strategy<Value = Fast> {
    (any::<u64>(), 0..=i64::MAX as u64).prop_map(|(user, ts)| Fast { user, ts })
}

fn modulo() -> impl Strategy<Value = Modulo> {
    (0..=i64::MAX as u64, "[a-z]{0,6}").prop_map(|(ts, host)| Modulo { ts, host })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn each_salt_byte_is_its_definition_and_keys_round_trip(
        t in tsdb(), p in phoenix(), f in fast(), m in modulo()
    ) {
        let b = t.to_bytes().unwrap();
        // The salted prefix: the metric (4 bytes) and the tag's encoding, up to the timestamp.
        let prefix_end = b.len() - 8;
        prop_assert_eq!(b[0], java_bucket(&b[1..prefix_end], 20));
        prop_assert_eq!(Tsdb::decode(&b).unwrap(), t.clone());

        let b = p.to_bytes().unwrap();
        prop_assert_eq!(b[0], java_bucket(&b[1..], 16));
        prop_assert_eq!(Phoenix::decode(&b).unwrap(), p.clone());

        let b = f.to_bytes().unwrap();
        prop_assert_eq!(u64::from(b[0]), xxhash_rust::xxh3::xxh3_64(&b[1..9]) % 32);
        prop_assert_eq!(Fast::decode(&b).unwrap(), f.clone());

        let b = m.to_bytes().unwrap();
        prop_assert_eq!(u64::from(b[0]), m.ts % 8);
        prop_assert_eq!(Modulo::decode(&b).unwrap(), m.clone());
    }

    #[test]
    fn a_wrong_salt_byte_is_refused_by_decode(t in tsdb(), m in modulo()) {
        let mut b = t.to_bytes().unwrap().to_vec();
        b[0] = (b[0] + 1) % 20;
        prop_assert!(Tsdb::decode(&b).is_err());
        prop_assert!(Tsdb::decode_trusted(&b).is_ok());
        let mut b = m.to_bytes().unwrap().to_vec();
        b[0] = (b[0] + 1) % 8;
        prop_assert!(Modulo::decode(&b).is_err());
    }

    #[test]
    fn within_a_bucket_bytes_sort_as_the_fields(a in tsdb(), b in tsdb()) {
        let (ka, kb) = (a.to_bytes().unwrap(), b.to_bytes().unwrap());
        if ka[0] == kb[0] {
            let la = (a.metric, a.tag.clone(), a.ts);
            let lb = (b.metric, b.tag.clone(), b.ts);
            prop_assert_eq!(ka.cmp(&kb), la.cmp(&lb));
        }
    }

    /// A prefix that decides the bucket gives one range; a range on the salted field fans out;
    /// either way exactly the brute-force set.
    #[test]
    fn scans_are_exact_for_every_strategy(
        rows in proptest::collection::vec(tsdb(), 1..60),
        mods in proptest::collection::vec(modulo(), 1..60),
        pick in any::<prop::sample::Index>(),
    ) {
        let t = &rows[pick.index(rows.len())];
        let r = Tsdb::scan().metric(t.metric).tag(t.tag.as_str()).ranges();
        prop_assert_eq!(r.len(), 1, "the salted prefix decides the bucket");
        for x in &rows {
            let want = x.metric == t.metric && x.tag == t.tag;
            prop_assert_eq!(r.contains(&x.to_bytes().unwrap()), want);
        }
        let r = Tsdb::scan().metric(t.metric).ranges();
        prop_assert_eq!(r.len(), 20, "the bucket is not decided: one range per bucket");
        for x in &rows {
            prop_assert_eq!(r.contains(&x.to_bytes().unwrap()), x.metric == t.metric);
        }
        let m = &mods[pick.index(mods.len())];
        let r = Modulo::scan().ts(m.ts).ranges();
        prop_assert_eq!(r.len(), 1);
        for x in &mods {
            prop_assert_eq!(r.contains(&x.to_bytes().unwrap()), x.ts == m.ts);
        }
        let (lo, hi) = (m.ts.saturating_sub(1 << 40), m.ts.saturating_add(1 << 40));
        let r = Modulo::scan().ts(lo..hi).ranges();
        for x in &mods {
            prop_assert_eq!(r.contains(&x.to_bytes().unwrap()), (lo..hi).contains(&x.ts));
        }
    }
}

#[test]
fn phoenix_scans_decide_the_bucket_only_from_a_whole_key() {
    let p = Phoenix {
        tenant: 3,
        id: "a".into(),
    };
    assert_eq!(Phoenix::scan().tenant(3).ranges().len(), 16);
    let whole = Phoenix::scan().tenant(3).id("a").ranges();
    assert_eq!(whole.len(), 1);
    assert!(whole.contains(&p.to_bytes().unwrap()));
}

#[test]
fn the_strategy_is_in_the_schema_data_the_docs_and_explain() {
    let salts = [
        (Tsdb::SCHEMA, "java", vec!["metric", "tag"]),
        (Phoenix::SCHEMA, "phoenix", vec!["tenant", "id"]),
        (Fast::SCHEMA, "xxh3", vec!["user"]),
        (Modulo::SCHEMA, "mod", vec!["ts"]),
    ];
    for (schema, hash, fields) in salts {
        let salt = schema.salt.unwrap();
        assert_eq!(salt.hash, hash);
        assert_eq!(salt.fields, &fields[..]);
        let json = serde_json::to_string(schema).unwrap();
        assert!(json.contains(&format!("\"hash\":\"{hash}\"")), "{json}");
    }
    let k = Tsdb {
        metric: 1,
        tag: "cpu.user".into(),
        ts: 5,
    };
    let text = Tsdb::explain(&k.to_bytes().unwrap());
    assert!(text.contains("matches java(metric, tag) % 20"), "{text}");
    let mut bad = k.to_bytes().unwrap().to_vec();
    bad[0] = (bad[0] + 1) % 20;
    assert!(Tsdb::explain(&bad).contains("WRONG"));
    // Split points fall on bucket boundaries whatever the strategy.
    let splits = Modulo::split_points(8);
    assert_eq!(splits.len(), 7);
    assert!(splits
        .iter()
        .enumerate()
        .all(|(i, s)| s[..] == [i as u8 + 1]));
}
