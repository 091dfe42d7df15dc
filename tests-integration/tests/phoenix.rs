//! Apache Phoenix on the local HBase (`hbase-local/run --phoenix`: Phoenix 5.2.1's server jars
//! in the mini cluster, its JDBC driver behind a SQL line server), from both sides:
//!
//! - Phoenix's encodings as Phoenix itself writes them: tables made and filled through its SQL,
//!   their cells read back raw through rowkey's HBase store and checked byte for byte (the
//!   salt byte against Phoenix's hash, integers with the sign bit flipped, `DESC` inverted,
//!   `VARCHAR` separators, trailing nulls dropped, `CHAR` and `BINARY` padding, dates and
//!   timestamps, the empty marker cell): the facts rowkey's Phoenix layouts are built on;
//! - a table rowkey writes at size (100,000 rows, a salted key of two `BIGINT`s, which
//!   rowkey's own encodings already write as Phoenix does) that Phoenix counts, looks up and
//!   range-scans exactly, with `EXPLAIN` showing range scans, and rows Phoenix `UPSERT`s that
//!   rowkey's typed scans decode.
//!
//! Uses the cluster named by `ROWKEY_PHOENIX_READY` (a READY line, or a file holding it) or
//! starts one (two region servers; the first run downloads Phoenix's jars, ~60 MB). Without
//! Java it fails under CI and says so elsewhere.
#![cfg(feature = "hbase")]

#[path = "../../hbase-local/gateways.rs"]
mod gateways;
#[path = "../../hbase-local/phoenix_sql.rs"]
mod phoenix_sql;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use phoenix_sql::{Phoenix, Value};
use rowkey::store::{CellTable, Columns, HbaseConfig, HbaseStore, Store};
use rowkey::{KeyRange, RowKey, RowValue};

fn phoenix() -> Option<&'static Phoenix> {
    static CLUSTER: OnceLock<Option<Phoenix>> = OnceLock::new();
    let p = CLUSTER.get_or_init(Phoenix::from_env_or_start).as_ref();
    if p.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no Phoenix: `hbase-local/run --phoenix` did not start (Java 17 and Maven needed)"
        );
        eprintln!("SKIPPED: no Phoenix (install Java 17 and Maven)");
    }
    p
}

/// A table name of this run's own (Phoenix folds unquoted names to upper case).
fn unique(name: &str) -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    format!(
        "{name}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
    .to_uppercase()
}

/// Every cell of an HBase table, read raw through rowkey's store (family `0`, Phoenix's
/// default): (row key, qualifier, value) in key order.
fn raw_cells(p: &Phoenix, table: &str) -> Vec<(Vec<u8>, String, Vec<u8>)> {
    let store = HbaseStore::with_config(HbaseConfig::new(&p.thrift, table, "0")).unwrap();
    let mut out = Vec::new();
    for row in store.scan_rows(&KeyRange::new(&[], None), &Columns::all()) {
        let row = row.unwrap();
        for cell in row.cells {
            assert_eq!(cell.family, "0", "Phoenix's default family");
            let q = String::from_utf8(cell.qualifier.clone()).unwrap();
            out.push((row.key.clone(), q, cell.value.to_vec()));
        }
    }
    out
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Phoenix's salt byte (`SaltingUtil.getSaltingByte`): Java's `Arrays.hashCode` of the key
/// after the salt byte, modulo the buckets, made non-negative.
fn phoenix_salt(rest: &[u8], buckets: i32) -> u8 {
    let h = rest.iter().fold(1i32, |h, &b| {
        h.wrapping_mul(31).wrapping_add(i32::from(b as i8))
    });
    (h % buckets).unsigned_abs() as u8
}

#[test]
fn phoenix_encodings_as_phoenix_writes_them() {
    let Some(p) = phoenix() else { return };
    let mut sql = p.session();
    let t1 = unique("enc_salted");
    sql.update(
        &format!(
            "CREATE TABLE {t1} (A BIGINT NOT NULL, B VARCHAR NOT NULL, C VARCHAR, D VARCHAR, \
             E DECIMAL CONSTRAINT PK PRIMARY KEY (A, B DESC, C)) SALT_BUCKETS=4, \
             COLUMN_ENCODED_BYTES=0"
        ),
        &[],
    )
    .unwrap();
    let upsert = format!("UPSERT INTO {t1} (A, B, C, D, E) VALUES (?, ?, ?, ?, ?)");
    let text = |s: &str| Value::Text(s.into());
    for row in [
        [
            Value::Int(-2),
            text("ab"),
            text("c"),
            text("x"),
            Value::Decimal("1.5".into()),
        ],
        [
            Value::Int(5),
            text("z"),
            Value::Null,
            Value::Null,
            Value::Null,
        ],
        // An empty VARCHAR is Phoenix's null.
        [Value::Int(6), text("z"), text(""), Value::Null, Value::Null],
    ] {
        assert_eq!(sql.update(&upsert, &row).unwrap(), 1);
    }
    let cells = raw_cells(p, &t1);
    let mut keys: Vec<&Vec<u8>> = cells.iter().map(|c| &c.0).collect();
    keys.dedup();
    let want = [
        // salt | A: BIGINT, sign bit flipped | B DESC: bytes inverted, then 0xFF | (C null:
        // dropped with its separator)
        (5, "800000000000000585ff"),
        (6, "800000000000000685ff"),
        // A = -2 | B = "ab" inverted, 0xFF | C = "c", the last column: no separator
        (-2, "7ffffffffffffffe9e9dff63"),
    ];
    assert_eq!(keys.len(), want.len());
    for (a, rest) in want {
        let rest = hex(rest);
        let key = keys
            .iter()
            .find(|k| k[1..] == rest[..])
            .unwrap_or_else(|| panic!("no row {a}: {keys:02x?}"));
        assert_eq!(key[0], phoenix_salt(&rest, 4), "the salt byte of row {a}");
    }
    let of = |rest: &str, q: &str| {
        cells
            .iter()
            .find(|c| c.0[1..] == hex(rest)[..] && c.1 == q)
            .map(|c| c.2.clone())
    };
    // Columns under their names (COLUMN_ENCODED_BYTES=0); every row has the empty marker cell
    // `_0` = "x"; a null column has no cell.
    assert_eq!(of("7ffffffffffffffe9e9dff63", "D"), Some(b"x".to_vec()));
    assert_eq!(of("7ffffffffffffffe9e9dff63", "E"), Some(hex("c10233")));
    assert_eq!(of("800000000000000585ff", "_0"), Some(b"x".to_vec()));
    assert_eq!(of("800000000000000585ff", "D"), None);
    assert_eq!(cells.len(), 5);
    // Phoenix reads its rows back in its own order: salted rows merged by key.
    let rows = sql
        .query(&format!("SELECT A, B, C FROM {t1}"), &[])
        .unwrap();
    assert_eq!(rows.len(), 3);
    let plan = sql
        .explain(&format!("SELECT * FROM {t1} WHERE A = 5"), &[])
        .unwrap();
    assert!(plan.contains("RANGE SCAN OVER"), "{plan}");

    // Every fixed-width key type, mixed sort orders, unsalted.
    let t2 = unique("enc_types");
    sql.update(
        &format!(
            "CREATE TABLE {t2} (K1 TINYINT NOT NULL, K2 UNSIGNED_INT NOT NULL, \
             K3 CHAR(4) NOT NULL, K4 BINARY(3) NOT NULL, K5 DATE NOT NULL, \
             K6 TIMESTAMP NOT NULL, K7 BOOLEAN NOT NULL, K8 SMALLINT NOT NULL, \
             K9 VARCHAR NOT NULL, V1 TIMESTAMP, V2 DOUBLE, V3 BIGINT \
             CONSTRAINT PK PRIMARY KEY (K1 DESC, K2, K3, K4, K5, K6, K7, K8 DESC, K9 DESC)) \
             COLUMN_ENCODED_BYTES=0"
        ),
        &[],
    )
    .unwrap();
    let row = [
        Value::Int(-1),
        Value::Int(3),
        text("ab"),
        Value::Bytes(vec![1, 2]),
        Value::Date(1000),
        Value::Timestamp {
            millis: 2123,
            nanos: 123_456_789,
        },
        Value::Bool(true),
        Value::Int(2),
        text("ab"),
        Value::Timestamp {
            millis: 0,
            nanos: 1000,
        },
        Value::Float(-1.5),
        Value::Int(-2),
    ];
    sql.update(
        &format!("UPSERT INTO {t2} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        &row,
    )
    .unwrap();
    let cells = raw_cells(p, &t2);
    let key = [
        "80",                       // K1 TINYINT -1 DESC: 0xFF ^ 0x80, inverted
        "00000003",                 // K2 UNSIGNED_INT: big-endian as it is
        "61622020",                 // K3 CHAR(4) "ab": padded with spaces
        "010200",                   // K4 BINARY(3): padded with zeros
        "80000000000003e8",         // K5 DATE: milliseconds, sign bit flipped
        "800000000000084b0006f855", // K6 TIMESTAMP: millis flipped, nanos within the milli
        "01",                       // K7 BOOLEAN true
        "7ffd",                     // K8 SMALLINT 2 DESC: 0x8002 inverted
        "9e9dff",                   // K9 VARCHAR DESC, the last column: inverted, 0xFF even here
    ]
    .concat();
    assert!(cells.iter().all(|c| c.0 == hex(&key)), "{cells:02x?}");
    let value = |q: &str| cells.iter().find(|c| c.1 == q).map(|c| c.2.clone());
    assert_eq!(value("V1"), Some(hex("8000000000000000000003e8")));
    // DOUBLE: negative values inverted, then + 1 (Phoenix's PDouble); BIGINT as in keys.
    assert_eq!(value("V2"), Some(hex("4008000000000000")));
    assert_eq!(value("V3"), Some(hex("7ffffffffffffffe")));
    assert_eq!(value("_0"), Some(b"x".to_vec()));
    // Phoenix reads back what it wrote, BINARY with its padding.
    let back = sql.query(&format!("SELECT * FROM {t2}"), &[]).unwrap();
    let mut expect = row.to_vec();
    expect[3] = Value::Bytes(vec![1, 2, 0]);
    assert_eq!(back, vec![expect]);

    // Phoenix's own bug, so refused by rowkey::phoenix::PhoenixKey: a DESC BOOLEAN key
    // column is written inverted (0xFE for true) and read back false whatever it holds.
    let t3 = unique("desc_bool");
    sql.update(
        &format!(
            "CREATE TABLE {t3} (A BIGINT NOT NULL, B BOOLEAN NOT NULL \
             CONSTRAINT PK PRIMARY KEY (A, B DESC)) COLUMN_ENCODED_BYTES=0"
        ),
        &[],
    )
    .unwrap();
    let upsert = format!("UPSERT INTO {t3} VALUES (?, ?)");
    sql.update(&upsert, &[Value::Int(1), Value::Bool(true)])
        .unwrap();
    let keys: Vec<Vec<u8>> = raw_cells(p, &t3).into_iter().map(|c| c.0).collect();
    assert_eq!(keys[0], hex("8000000000000001fe"));
    let back = sql.query(&format!("SELECT B FROM {t3}"), &[]).unwrap();
    assert_eq!(back, vec![vec![Value::Bool(false)]], "still Phoenix's bug?");

    // Phoenix's quirk, so refused by PhoenixKey::encode: the last key column's trailing 0xFF
    // is read as a separator and dropped (01 FF comes back as 01).
    let t4 = unique("varbinary_last");
    sql.update(
        &format!(
            "CREATE TABLE {t4} (A BIGINT NOT NULL, B VARBINARY NOT NULL \
             CONSTRAINT PK PRIMARY KEY (A, B)) COLUMN_ENCODED_BYTES=0"
        ),
        &[],
    )
    .unwrap();
    let upsert = format!("UPSERT INTO {t4} VALUES (?, ?)");
    sql.update(&upsert, &[Value::Int(1), Value::Bytes(vec![1, 0xff])])
        .unwrap();
    let back = sql.query(&format!("SELECT B FROM {t4}"), &[]).unwrap();
    assert_eq!(
        back,
        vec![vec![Value::Bytes(vec![1])]],
        "still Phoenix's quirk?"
    );

    // Refused by Phoenix, so never declared by rowkey: a nullable fixed-width key column.
    let refused = sql.update(
        &format!(
            "CREATE TABLE {} (A BIGINT NOT NULL, C INTEGER CONSTRAINT PK PRIMARY KEY (A, C))",
            unique("refused")
        ),
        &[],
    );
    assert!(
        refused.unwrap_err().contains("fixed width and nullable"),
        "Phoenix's rule"
    );
}

/// A key rowkey's default encodings write exactly as Phoenix writes `(A BIGINT, B BIGINT)`
/// salted into 8 buckets: signed integers sign-flipped, the salt over every byte after it.
#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
#[rowkey(query)]
struct Pair {
    #[salt(buckets = 8, hash = "phoenix")]
    a: i64,
    b: i64,
}

/// The row's columns as Phoenix keeps them: family `0`, qualifiers the column names, the empty
/// marker cell `_0`. `V UNSIGNED_LONG` is HBase's `Bytes.toBytes`, as rowkey's `u64` column.
#[derive(RowValue, Debug, Clone, PartialEq)]
#[column(family = "0")]
struct PairRow {
    #[column(name = "_0")]
    marker: String,
    #[column(name = "V")]
    v: u64,
}

/// Phoenix's table of `Pair` keys and `PairRow` values, created by Phoenix under `table`, and
/// rowkey's store of it (family `0`).
fn pairs_table(p: &Phoenix, sql: &mut phoenix_sql::Sql, table: &str) -> HbaseStore {
    sql.update(
        &format!(
            "CREATE TABLE {table} (A BIGINT NOT NULL, B BIGINT NOT NULL, V UNSIGNED_LONG \
             CONSTRAINT PK PRIMARY KEY (A, B)) SALT_BUCKETS=8, COLUMN_ENCODED_BYTES=0"
        ),
        &[],
    )
    .unwrap();
    HbaseStore::with_config(HbaseConfig::new(&p.thrift, table, "0")).unwrap()
}

#[test]
fn phoenix_reads_what_rowkey_writes_and_back() {
    let Some(p) = phoenix() else { return };
    let mut sql = p.session();
    let table = unique("pairs");
    let store = pairs_table(p, &mut sql, &table);
    let rows = CellTable::<_, Pair, PairRow>::new(store);
    let n: i64 = std::env::var("ROWKEY_PHOENIX_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    // a in -50..50, b spread over negative and positive values.
    let pair = |i: i64| Pair {
        a: i % 100 - 50,
        b: (i / 100 - n / 200) * 7,
    };
    let value = |i: i64| PairRow {
        marker: "x".into(),
        v: i as u64 * 3,
    };
    let all: Vec<(Pair, PairRow)> = (0..n).map(|i| (pair(i), value(i))).collect();
    for chunk in all.chunks(10_000) {
        rows.put_batch(chunk.iter().map(|(k, v)| (k, v))).unwrap();
    }

    let count = sql
        .query(&format!("SELECT COUNT(*) FROM {table}"), &[])
        .unwrap();
    assert_eq!(count, vec![vec![Value::Int(n)]]);

    // Point lookups: Phoenix finds each row rowkey wrote, with its value.
    for i in [0, 1, n / 2, n - 1] {
        let (k, v) = (pair(i), value(i));
        let got = sql
            .query(
                &format!("SELECT V FROM {table} WHERE A = ? AND B = ?"),
                &[Value::Int(k.a), Value::Int(k.b)],
            )
            .unwrap();
        assert_eq!(got, vec![vec![Value::Int(v.v as i64)]], "row {i}");
    }

    // A range on the leading key column, in key order both ways: exactly rowkey's rows.
    let (lo, hi) = (-3i64, 2i64);
    let mut want: Vec<(i64, i64)> = all
        .iter()
        .map(|(k, _)| (k.a, k.b))
        .filter(|(a, _)| (lo..hi).contains(a))
        .collect();
    want.sort();
    let mine: Vec<(i64, i64)> = rows
        .scan(&Pair::scan().a(lo..hi).ranges())
        .map(|r| {
            let (k, _) = r.unwrap();
            (k.a, k.b)
        })
        .collect();
    assert_eq!(mine, want, "rowkey's merged scan");
    let range = format!("SELECT A, B FROM {table} WHERE A >= ? AND A < ? ORDER BY A, B");
    let ints = |rows: Vec<Vec<Value>>| -> Vec<(i64, i64)> {
        rows.into_iter()
            .map(|r| match r[..] {
                [Value::Int(a), Value::Int(b)] => (a, b),
                _ => panic!("{r:?}"),
            })
            .collect()
    };
    let theirs = ints(
        sql.query(&range, &[Value::Int(lo), Value::Int(hi)])
            .unwrap(),
    );
    assert_eq!(theirs, want, "Phoenix's ORDER BY the key");
    let plan = sql
        .explain(&range, &[Value::Int(lo), Value::Int(hi)])
        .unwrap();
    assert!(plan.contains("RANGE SCAN OVER"), "{plan}");
    assert!(!plan.contains("FULL SCAN"), "{plan}");
    let desc = format!("SELECT A, B FROM {table} WHERE A >= ? AND A < ? ORDER BY A DESC, B DESC");
    let mut reversed = want.clone();
    reversed.reverse();
    let theirs = ints(sql.query(&desc, &[Value::Int(lo), Value::Int(hi)]).unwrap());
    assert_eq!(theirs, reversed, "Phoenix's ORDER BY the key, descending");
    let mine_rev: Vec<(i64, i64)> = rows
        .scan_rev(&Pair::scan().a(lo..hi).ranges())
        .unwrap()
        .map(|r| {
            let (k, _) = r.unwrap();
            (k.a, k.b)
        })
        .collect();
    assert_eq!(mine_rev, reversed, "rowkey's merged reverse scan");

    // Rows Phoenix writes, read by rowkey's typed scan.
    let upsert = format!("UPSERT INTO {table} (A, B, V) VALUES (?, ?, ?)");
    let theirs = [
        (-1_000_000i64, i64::MIN, 0u64),
        (1_000_000, i64::MAX, u64::MAX >> 1),
    ];
    for (a, b, v) in theirs {
        let params = [Value::Int(a), Value::Int(b), Value::Int(v as i64)];
        sql.update(&upsert, &params).unwrap();
    }
    for (a, b, v) in theirs {
        let got: Vec<(Pair, PairRow)> = rows
            .scan(&Pair::scan().a(a).ranges())
            .collect::<Result<_, _>>()
            .unwrap();
        let row = PairRow {
            marker: "x".into(),
            v,
        };
        assert_eq!(got, vec![(Pair { a, b }, row)], "Phoenix's row ({a}, {b})");
    }
}

#[test]
fn the_line_server_reports_phoenix_errors() {
    let Some(p) = phoenix() else { return };
    let mut sql = p.session();
    let err = sql.query("SELECT * FROM NO_SUCH_TABLE", &[]).unwrap_err();
    assert!(err.contains("NO_SUCH_TABLE"), "{err}");
    // The session goes on after an error.
    let one = sql
        .query("SELECT 1 FROM SYSTEM.CATALOG LIMIT 1", &[])
        .unwrap();
    assert_eq!(one, vec![vec![Value::Int(1)]]);
}

// ---- the dynamic layer (`rowkey::phoenix`): random rows of every type, both ways ----

use rowkey::phoenix::{
    encode_value, Datum, KeyColumn, PhoenixKey, PhoenixTable, PhoenixType, ValueColumn,
    EMPTY_COLUMN, EMPTY_VALUE,
};
use rowkey::store::{Cell, RowWrite};

/// The HBase store of a Phoenix table: its name, its families, the default one first.
fn store_for(p: &Phoenix, table: &PhoenixTable) -> HbaseStore {
    HbaseStore::with_config(
        HbaseConfig::new(&p.thrift, table.name(), table.default_family())
            .families(table.families()),
    )
    .unwrap()
}

/// A fixed xorshift sequence: the same rows on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random value of `ty` (`None` at times where `nullable`) for a key column (`in_key`) or
/// a cell.
fn random(rng: &mut Rng, ty: PhoenixType, nullable: bool, in_key: bool) -> Option<Datum<'static>> {
    use PhoenixType::*;
    if nullable && rng.below(4) == 0 {
        return None;
    }
    let text = |rng: &mut Rng, max: u64, ascii: bool| {
        let alphabet: &[&str] = if ascii {
            &["a", "b", "z", "A", "0", "~"]
        } else {
            &["a", "b", "é", "日", "z", "\u{1F600}", " "]
        };
        let n = 1 + rng.below(max);
        let s: String = (0..n)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
            .collect();
        s.trim_end().to_string()
    };
    let bytes = |rng: &mut Rng, n: u64| (0..n).map(|_| rng.next() as u8).collect::<Vec<u8>>();
    Some(match ty {
        TinyInt => Datum::Int(rng.next() as i8 as i64),
        SmallInt => Datum::Int(rng.next() as i16 as i64),
        Integer => Datum::Int(rng.next() as i32 as i64),
        BigInt => Datum::Int(rng.next() as i64),
        UnsignedTinyInt => Datum::Int(rng.below(128) as i64),
        UnsignedSmallInt => Datum::Int(rng.below(1 << 15) as i64),
        UnsignedInt => Datum::Int(rng.below(1 << 31) as i64),
        UnsignedLong => Datum::Int((rng.next() >> 1) as i64),
        Float => Datum::Float(f64::from((rng.next() as i32) as f32 / 7.0)),
        Double => Datum::Float((rng.next() as i64) as f64 / 3.0),
        Boolean => Datum::Bool(rng.below(2) == 1),
        Varchar => {
            let t = text(rng, 6, false);
            if t.is_empty() {
                return if nullable {
                    None
                } else {
                    Some(Datum::Text("x".into()))
                };
            }
            Datum::Text(t.into())
        }
        Char(n) => {
            let t = text(rng, u64::from(n), true);
            Datum::Text(if t.is_empty() { "x".to_string() } else { t }.into())
        }
        Binary(n) => Datum::Bytes(bytes(rng, u64::from(n)).into()),
        Varbinary => {
            let n = 1 + rng.below(8);
            let mut b = bytes(rng, n);
            // A trailing 0xFF is refused in a key (Phoenix drops it); not in a cell.
            if b.last() == Some(&0xff) && in_key {
                b.pop();
                b.push(0xfe);
            }
            Datum::Bytes(b.into())
        }
        Date => Datum::Date(rng.below(4_000_000_000_000) as i64),
        Timestamp => Datum::Timestamp {
            millis: rng.below(4_000_000_000_000) as i64,
            nanos: rng.below(1_000_000) as u32,
        },
    })
}

/// The line server's form of a value (a `TIMESTAMP`'s nanoseconds are within the second
/// there, as `java.sql.Timestamp` keeps them).
fn to_sql(v: &Option<Datum<'_>>) -> Value {
    match v {
        None => Value::Null,
        Some(Datum::Int(v)) => Value::Int(*v),
        Some(Datum::Float(v)) => Value::Float(*v),
        Some(Datum::Bool(v)) => Value::Bool(*v),
        Some(Datum::Text(t)) => Value::Text(t.to_string()),
        Some(Datum::Bytes(b)) => Value::Bytes(b.to_vec()),
        Some(Datum::Date(ms)) => Value::Date(*ms),
        Some(Datum::Timestamp { millis, nanos }) => Value::Timestamp {
            millis: *millis,
            nanos: (millis.rem_euclid(1000) as u32) * 1_000_000 + nanos,
        },
    }
}

/// Two tables of every supported type with mixed sort orders, one salted: Phoenix's rows
/// decode with rowkey's key and value encodings, and rowkey's rows read back through Phoenix's
/// SQL, in key order.
#[test]
fn random_rows_of_every_type_both_ways() {
    use PhoenixType::*;
    let Some(p) = phoenix() else { return };
    let mut sql = p.session();
    let salted = PhoenixTable::new(
        unique("every_type_salted"),
        PhoenixKey::new(
            vec![
                KeyColumn::new("k1", Integer).desc(),
                KeyColumn::new("k2", Varchar),
                KeyColumn::new("k3", Timestamp).desc(),
                KeyColumn::new("k4", Char(3)),
                KeyColumn::new("k5", Varchar).desc().nullable(),
                KeyColumn::new("k6", Varchar).nullable(),
            ],
            Some(4),
        )
        .unwrap(),
        [
            ("d", "v1", TinyInt),
            ("d", "v2", SmallInt),
            ("d", "v3", BigInt),
            ("d", "v4", UnsignedLong),
            ("d", "v5", Double),
            ("d", "v6", Float),
            ("e", "v7", Boolean),
            ("e", "v8", Binary(4)),
            ("e", "v9", Varbinary),
            ("e", "v10", Date),
            ("e", "v11", Varchar),
            ("e", "v12", UnsignedInt),
            ("e", "v13", Timestamp),
        ]
        .into_iter()
        .map(|(family, name, ty)| ValueColumn {
            family: family.into(),
            name: name.into(),
            ty,
        })
        .collect(),
    )
    .unwrap();
    let plain = PhoenixTable::new(
        unique("every_type"),
        PhoenixKey::new(
            vec![
                KeyColumn::new("k1", BigInt),
                KeyColumn::new("k2", Boolean),
                KeyColumn::new("k3", Date),
                KeyColumn::new("k4", UnsignedSmallInt).desc(),
                KeyColumn::new("k5", Binary(2)),
                KeyColumn::new("k6", UnsignedTinyInt),
                KeyColumn::new("k7", Double).desc(),
                KeyColumn::new("k8", Varbinary),
            ],
            None,
        )
        .unwrap(),
        vec![ValueColumn {
            family: "0".into(),
            name: "v".into(),
            ty: Varchar,
        }],
    )
    .unwrap();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for table in [&salted, &plain] {
        sql.update(&table.create_table(), &[]).unwrap();
        let store = store_for(p, table);
        let key = table.key();
        let row = |rng: &mut Rng| -> (Vec<Option<Datum<'static>>>, Vec<Option<Datum<'static>>>) {
            let k = key
                .columns()
                .iter()
                .map(|c| random(rng, c.ty, c.nullable, true))
                .collect();
            let v = table
                .columns()
                .iter()
                .map(|c| random(rng, c.ty, true, false))
                .collect();
            (k, v)
        };
        let names: Vec<String> = key
            .columns()
            .iter()
            .map(|c| format!("\"{}\"", c.name))
            .chain(table.columns().iter().map(|c| format!("\"{}\"", c.name)))
            .collect();

        // Phoenix writes; rowkey reads the cells and decodes every key and value.
        let marks = vec!["?"; names.len()].join(", ");
        let upsert = format!(
            "UPSERT INTO \"{}\" ({}) VALUES ({marks})",
            table.name(),
            names.join(", ")
        );
        let mut theirs = std::collections::BTreeMap::new();
        for _ in 0..500 {
            let (k, v) = row(&mut rng);
            let params: Vec<Value> = k.iter().chain(&v).map(to_sql).collect();
            sql.update(&upsert, &params).unwrap();
            theirs.insert(key.encode(&k).unwrap(), (k, v));
        }
        let mut seen = 0;
        for r in store.scan_rows(&KeyRange::new(&[], None), &Columns::all()) {
            let r = r.unwrap();
            let (k, v) = theirs.get(&r.key).unwrap_or_else(|| {
                panic!("a key rowkey does not encode for any row: {:02x?}", r.key)
            });
            assert_eq!(&key.decode(&r.key).unwrap(), k, "the key decodes");
            for (c, want) in table.columns().iter().zip(v) {
                let cell = r.value(&c.family, c.name.as_bytes());
                let want = want.as_ref().map(|d| {
                    let mut out = Vec::new();
                    encode_value(c.ty, d, &mut out).unwrap();
                    out
                });
                assert_eq!(cell.map(<[u8]>::to_vec), want, "column {}", c.name);
            }
            let marker = r.value(table.default_family(), EMPTY_COLUMN.as_bytes());
            assert_eq!(marker, Some(EMPTY_VALUE), "the empty marker cell");
            seen += 1;
        }
        assert_eq!(seen, theirs.len(), "every row Phoenix wrote");

        // rowkey writes (key, cells, the empty marker cell); Phoenix reads them back exactly,
        // in key order.
        let mut mine = std::collections::BTreeMap::new();
        let mut writes = Vec::new();
        for _ in 0..3_000 {
            let (k, v) = row(&mut rng);
            let encoded = key.encode(&k).unwrap();
            let mut cells = vec![Cell::new(
                table.default_family().to_string(),
                EMPTY_COLUMN.as_bytes(),
                EMPTY_VALUE,
            )];
            for (c, d) in table.columns().iter().zip(&v) {
                if let Some(d) = d {
                    let mut out = Vec::new();
                    encode_value(c.ty, d, &mut out).unwrap();
                    cells.push(Cell::new(c.family.to_string(), c.name.as_bytes(), out));
                }
            }
            writes.push(RowWrite::new(encoded.clone(), cells));
            mine.insert(encoded, (k, v));
        }
        store.write_rows(&writes).unwrap();
        let mut all = theirs;
        all.extend(mine);
        // Phoenix's order: the key without its salt byte.
        let mut want: Vec<(Vec<u8>, Vec<Value>)> = all
            .iter()
            .map(|(bytes, (k, v))| {
                let skip = usize::from(key.salt_buckets().is_some());
                (
                    bytes[skip..].to_vec(),
                    k.iter().chain(v).map(to_sql).collect(),
                )
            })
            .collect();
        want.sort_by(|a, b| a.0.cmp(&b.0));
        let want: Vec<Vec<Value>> = want.into_iter().map(|(_, row)| row).collect();
        let order: Vec<String> = key
            .columns()
            .iter()
            .map(|c| match c.order {
                rowkey::phoenix::SortOrder::Asc => format!("\"{}\"", c.name),
                rowkey::phoenix::SortOrder::Desc => format!("\"{}\" DESC", c.name),
            })
            .collect();
        let select = format!(
            "SELECT {} FROM \"{}\" ORDER BY {}",
            names.join(", "),
            table.name(),
            order.join(", ")
        );
        let got = sql.query(&select, &[]).unwrap();
        assert_eq!(got.len(), want.len(), "{}: every row", table.name());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{}: row {i} in key order", table.name());
        }
    }
}

/// An HBase table rowkey made and filled (key, cells, the empty marker cell), mapped by
/// Phoenix with the `CREATE VIEW` its declaration renders: Phoenix queries it in place.
#[test]
fn a_view_over_a_table_rowkey_made() {
    use PhoenixType::*;
    let Some(p) = phoenix() else { return };
    let mut sql = p.session();
    let table = PhoenixTable::new(
        unique("rowkey_made"),
        PhoenixKey::new(
            vec![
                KeyColumn::new("host", Varchar),
                KeyColumn::new("ts", BigInt).desc(),
            ],
            None,
        )
        .unwrap(),
        vec![
            ValueColumn {
                family: "m".into(),
                name: "cpu".into(),
                ty: Double,
            },
            ValueColumn {
                family: "m".into(),
                name: "note".into(),
                ty: Varchar,
            },
        ],
    )
    .unwrap();
    let store = store_for(p, &table);
    store.create_table(&[]).unwrap();
    let hosts = ["a", "b", "web-1"];
    let mut writes = Vec::new();
    for i in 0..3_000i64 {
        let host = hosts[(i % 3) as usize];
        let k = [Some(Datum::Text(host.into())), Some(Datum::Int(i))];
        let mut cpu = Vec::new();
        encode_value(Double, &Datum::Float(i as f64 / 4.0), &mut cpu).unwrap();
        let mut cells = vec![
            Cell::new("m", EMPTY_COLUMN.as_bytes(), EMPTY_VALUE),
            Cell::new("m", &b"cpu"[..], cpu),
        ];
        if i % 2 == 0 {
            cells.push(Cell::new("m", &b"note"[..], format!("n{i}").into_bytes()));
        }
        writes.push(RowWrite::new(table.key().encode(&k).unwrap(), cells));
    }
    store.write_rows(&writes).unwrap();
    sql.update(&table.create_view().unwrap(), &[]).unwrap();
    let name = table.name();
    let count = sql
        .query(&format!("SELECT COUNT(*) FROM \"{name}\""), &[])
        .unwrap();
    assert_eq!(count, vec![vec![Value::Int(3_000)]]);
    // The newest five of one host: the key's order (ts DESC), a range scan.
    let latest =
        format!("SELECT \"ts\", \"cpu\", \"note\" FROM \"{name}\" WHERE \"host\" = ? LIMIT 5");
    let rows = sql.query(&latest, &[Value::Text("web-1".into())]).unwrap();
    let want: Vec<Vec<Value>> = (0..5)
        .map(|n| {
            let i = 2_999 - 3 * n;
            let note = if i % 2 == 0 {
                Value::Text(format!("n{i}"))
            } else {
                Value::Null
            };
            vec![Value::Int(i), Value::Float(i as f64 / 4.0), note]
        })
        .collect();
    assert_eq!(rows, want);
    let plan = sql
        .explain(&latest, &[Value::Text("web-1".into())])
        .unwrap();
    assert!(plan.contains("RANGE SCAN OVER"), "{plan}");
    // A salted key cannot be a view.
    let salted = PhoenixTable::new(
        unique("salted_view"),
        PhoenixKey::new(vec![KeyColumn::new("k", BigInt)], Some(2)).unwrap(),
        vec![],
    )
    .unwrap();
    assert!(salted.create_view().is_err());
}

// ---- #[derive(PhoenixRow)]: one declaration for rowkey's reads and writes and Phoenix's SQL ----

/// The README's example: host metrics, newest first per host, salted into 4 buckets.
#[derive(rowkey::PhoenixRow, Debug, Clone, PartialEq)]
#[phoenix(table = "metrics", salt_buckets = 4, family = "m")]
struct Metric {
    #[phoenix(key)]
    host: String,
    #[phoenix(key, desc)]
    ts: i64,
    cpu: f64,
    #[phoenix(name = "note", family = "x")]
    note: Option<String>,
}

#[test]
fn a_derived_row_declares_the_table_for_both_sides() {
    use rowkey::phoenix::PhoenixRow;
    use rowkey::store::PhoenixRows;
    let table = Metric::table();
    assert_eq!(
        table.create_table(),
        "CREATE TABLE \"metrics\" (\"host\" VARCHAR NOT NULL, \"ts\" BIGINT NOT NULL, \
         \"m\".\"cpu\" DOUBLE, \"x\".\"note\" VARCHAR, CONSTRAINT \"pk\" PRIMARY KEY \
         (\"host\", \"ts\" DESC)) SALT_BUCKETS=4, DEFAULT_COLUMN_FAMILY='m', \
         COLUMN_ENCODED_BYTES=0"
    );
    let Some(p) = phoenix() else { return };
    let mut sql = p.session();
    sql.update("DROP TABLE IF EXISTS \"metrics\"", &[]).unwrap();
    sql.update(&table.create_table(), &[]).unwrap();
    let store = store_for(p, &table);
    let rows = PhoenixRows::<_, Metric>::new(store);
    let n: i64 = std::env::var("ROWKEY_PHOENIX_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let hosts = ["db-1", "db-10", "web-1", "web-2", "web"];
    let metric = |i: i64| Metric {
        host: hosts[(i % 5) as usize].to_string(),
        ts: 1_700_000_000_000 + i,
        cpu: (i % 1000) as f64 / 10.0,
        note: (i % 3 == 0).then(|| format!("n{i}")),
    };
    let all: Vec<Metric> = (0..n).map(metric).collect();
    for chunk in all.chunks(10_000) {
        rows.put_batch(chunk).unwrap();
    }
    let count = sql.query("SELECT COUNT(*) FROM \"metrics\"", &[]).unwrap();
    assert_eq!(count, vec![vec![Value::Int(n)]]);

    // One host's rows, newest first: rowkey's prefix scan and Phoenix's query agree row for
    // row ("db-1" is not a prefix match for "db-10": VARCHAR's separator).
    let host = "db-1";
    let mine: Vec<Metric> = rows
        .scan(&[Datum::Text(host.into())])
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut want: Vec<Metric> = all.iter().filter(|m| m.host == host).cloned().collect();
    want.sort_by_key(|m| std::cmp::Reverse(m.ts));
    assert_eq!(mine.len(), want.len());
    assert!(mine == want, "rowkey's scan: one host, newest first");
    let query = "SELECT \"ts\", \"cpu\", \"note\" FROM \"metrics\" WHERE \"host\" = ? \
                 ORDER BY \"host\", \"ts\" DESC";
    let theirs = sql.query(query, &[Value::Text(host.into())]).unwrap();
    let as_sql: Vec<Vec<Value>> = want
        .iter()
        .map(|m| {
            vec![
                Value::Int(m.ts),
                Value::Float(m.cpu),
                m.note.clone().map_or(Value::Null, Value::Text),
            ]
        })
        .collect();
    assert!(
        theirs == as_sql,
        "Phoenix's query: the same rows in the same order"
    );
    let plan = sql.explain(query, &[Value::Text(host.into())]).unwrap();
    assert!(plan.contains("RANGE SCAN OVER"), "{plan}");
    // Point lookups of whole keys, both sides; a delete, both sides.
    for i in [0, n / 2, n - 1] {
        let m = metric(i);
        let key = [
            Some(Datum::Text(m.host.as_str().into())),
            Some(Datum::Int(m.ts)),
        ];
        assert_eq!(
            rows.get(&key).unwrap(),
            Some(m.clone()),
            "rowkey's get of row {i}"
        );
        let theirs = sql
            .query(
                "SELECT \"cpu\" FROM \"metrics\" WHERE \"host\" = ? AND \"ts\" = ?",
                &[Value::Text(m.host.clone()), Value::Int(m.ts)],
            )
            .unwrap();
        assert_eq!(
            theirs,
            vec![vec![Value::Float(m.cpu)]],
            "Phoenix's lookup of row {i}"
        );
    }
    let gone = metric(7);
    let key = [
        Some(Datum::Text(gone.host.as_str().into())),
        Some(Datum::Int(gone.ts)),
    ];
    rows.delete(&key).unwrap();
    assert_eq!(rows.get(&key).unwrap(), None);
    let count = sql.query("SELECT COUNT(*) FROM \"metrics\"", &[]).unwrap();
    assert_eq!(
        count,
        vec![vec![Value::Int(n - 1)]],
        "Phoenix no longer sees it"
    );
    rows.put(&gone).unwrap();

    // The newest three, both sides (a salted table's rows come in key order from Phoenix
    // only with ORDER BY; rowkey's scan merges its buckets always).
    let latest = sql
        .query(
            "SELECT \"ts\" FROM \"metrics\" WHERE \"host\" = ? ORDER BY \"host\", \"ts\" DESC \
             LIMIT 3",
            &[Value::Text("web".into())],
        )
        .unwrap();
    let newest: Vec<Vec<Value>> = rows
        .scan(&[Datum::Text("web".into())])
        .unwrap()
        .take(3)
        .map(|m| vec![Value::Int(m.unwrap().ts)])
        .collect();
    assert_eq!(latest, newest);

    // Rows Phoenix UPSERTs, read by rowkey as `Metric`s; a null column clears on rewrite.
    let upsert =
        "UPSERT INTO \"metrics\" (\"host\", \"ts\", \"cpu\", \"note\") VALUES (?, ?, ?, ?)";
    sql.update(
        upsert,
        &[
            Value::Text("sql-host".into()),
            Value::Int(-5),
            Value::Float(-0.5),
            Value::Text("from SQL".into()),
        ],
    )
    .unwrap();
    let theirs: Vec<Metric> = rows
        .scan(&[Datum::Text("sql-host".into())])
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let from_sql = Metric {
        host: "sql-host".into(),
        ts: -5,
        cpu: -0.5,
        note: Some("from SQL".into()),
    };
    assert_eq!(theirs, vec![from_sql.clone()]);
    rows.put(&Metric {
        note: None,
        ..from_sql.clone()
    })
    .unwrap();
    let note = sql
        .query(
            "SELECT \"note\" FROM \"metrics\" WHERE \"host\" = 'sql-host'",
            &[],
        )
        .unwrap();
    assert_eq!(
        note,
        vec![vec![Value::Null]],
        "rowkey's null cleared the cell"
    );
    // A value Phoenix cannot hold is refused before anything is written.
    let bad = Metric {
        host: String::new(),
        ..from_sql
    };
    let err = rows.put(&bad).unwrap_err().to_string();
    assert!(err.contains("host") && err.contains("give None"), "{err}");
}

/// Phoenix tables, finished: a derived table created under another name (Phoenix's DDL
/// rendered for the new name), whose regions Phoenix splits exactly at
/// `PhoenixTable::split_points` (one per salt bucket); rows rowkey writes read back in reverse
/// key order as Phoenix's `ORDER BY` each key column the other way; and a row Phoenix `UPSERT`s,
/// read raw from the store, decoded with `PhoenixRows::decode`.
#[test]
fn a_renamed_salted_table_splits_reverses_and_decodes_as_phoenix_does() {
    use rowkey::phoenix::PhoenixRow;
    use rowkey::store::{Columns, PhoenixRows, Store};
    let Some(p) = phoenix() else { return };
    let name = unique("metrics_renamed");
    let table = Metric::table().renamed(name.clone()).unwrap();
    assert!(table
        .create_table()
        .starts_with(&format!("CREATE TABLE \"{name}\" (")));
    // (host VARCHAR, ts BIGINT DESC): the salt byte, then host's separator and ts's 8 bytes.
    let splits: Vec<Vec<u8>> = table.split_points().iter().map(|b| b.to_vec()).collect();
    let padded = |b: u8| [vec![b], vec![0; 9]].concat();
    assert_eq!(splits, [padded(1), padded(2), padded(3)]);
    let mut sql = p.session();
    sql.update(&table.create_table(), &[]).unwrap();
    let store = store_for(p, &table);
    let starts: Vec<Vec<u8>> = store
        .regions()
        .unwrap()
        .iter()
        .skip(1)
        .map(|r| r.start.to_vec())
        .collect();
    assert_eq!(
        starts, splits,
        "Phoenix split the salted table at the salt bytes"
    );

    let rows = PhoenixRows::<_, Metric>::named(store, &name).unwrap();
    assert_eq!(rows.table().name(), name);
    let hosts = ["db-1", "db-10", "web"];
    let all: Vec<Metric> = (0..3_000i64)
        .map(|i| Metric {
            host: hosts[(i % 3) as usize].to_string(),
            ts: 1_700_000_000_000 + i,
            cpu: i as f64,
            note: (i % 2 == 0).then(|| format!("n{i}")),
        })
        .collect();
    rows.put_batch(&all).unwrap();

    // Every row, in reverse: hosts descending, each host's times ascending.
    let mine: Vec<(String, i64)> = rows
        .scan_rev(&[])
        .unwrap()
        .map(|m| m.map(|m| (m.host, m.ts)))
        .collect::<Result<_, _>>()
        .unwrap();
    let theirs: Vec<(String, i64)> = sql
        .query(
            &format!("SELECT \"host\", \"ts\" FROM \"{name}\" ORDER BY \"host\" DESC, \"ts\""),
            &[],
        )
        .unwrap()
        .into_iter()
        .map(|r| match (&r[0], &r[1]) {
            (Value::Text(h), Value::Int(t)) => (h.clone(), *t),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(mine.len(), all.len());
    assert!(
        mine == theirs,
        "rowkey's reverse scan is Phoenix's reversed ORDER BY"
    );
    // One host, oldest first ("db-1" not matching "db-10").
    let one: Vec<i64> = rows
        .scan_rev(&[Datum::Text("db-1".into())])
        .unwrap()
        .map(|m| m.map(|m| m.ts))
        .collect::<Result<_, _>>()
        .unwrap();
    let want: Vec<i64> = all
        .iter()
        .filter(|m| m.host == "db-1")
        .map(|m| m.ts)
        .collect();
    assert_eq!(one, want);

    // A row Phoenix writes, read raw from the store and decoded.
    sql.update(
        &format!(
            "UPSERT INTO \"{name}\" (\"host\", \"ts\", \"cpu\", \"note\") VALUES (?, ?, ?, ?)"
        ),
        &[
            Value::Text("sql".into()),
            Value::Int(42),
            Value::Float(0.5),
            Value::Text("from phoenix".into()),
        ],
    )
    .unwrap();
    let key = table
        .key()
        .encode(&[Some(Datum::Text("sql".into())), Some(Datum::Int(42))])
        .unwrap();
    let raw = rows
        .store()
        .read_row(&key, &Columns::all())
        .unwrap()
        .expect("the row Phoenix wrote");
    assert_eq!(
        rows.decode(raw).unwrap(),
        Metric {
            host: "sql".into(),
            ts: 42,
            cpu: 0.5,
            note: Some("from phoenix".into()),
        }
    );
    sql.update(&format!("DROP TABLE \"{name}\""), &[]).unwrap();
}

/// The same SQL on the same table, from both sides: a table rowkey writes once (Phoenix's
/// `(A BIGINT, B BIGINT)` salted into 8 buckets with an `UNSIGNED_LONG` column, the `Pair` key
/// and `PairRow` value), queried by Phoenix through JDBC and by DataFusion over rowkey
/// (`rowkey_datafusion::RowTable` on the Thrift2 store), for generated queries: point lookups,
/// key prefixes, ranges, `IN` lists on the second key column, predicates on the value column,
/// aggregates, `GROUP BY`, `ORDER BY` the key both ways, `LIMIT`. Every result is the same.
/// The pushdown is counted where it happens: a typed `KeyTable` over the same rows' keys
/// sends a predicate on `b` alone to the region servers, so the rows that cross the network
/// (the scan's `rows_read`) are the matches, not the table.
#[cfg(feature = "sql")]
#[test]
fn the_same_sql_from_phoenix_and_datafusion() {
    use datafusion::prelude::SessionContext;
    use rowkey_datafusion::{datafusion, RowTable};
    use std::sync::Arc;

    let Some(p) = phoenix() else { return };
    let mut sql = p.session();
    let table = unique("both");
    let store = pairs_table(p, &mut sql, &table);
    // a in -20..20, b in -250..250 step 1 (every fourth pair left out): 7,500 rows.
    let keys: Vec<Pair> = (-20i64..20)
        .flat_map(|a| (-250i64..250).map(move |b| Pair { a, b }))
        .filter(|k| (k.a + k.b).rem_euclid(4) != 0)
        .collect();
    let rows = CellTable::<_, Pair, PairRow>::new(&store);
    let value = |k: &Pair| PairRow {
        marker: "x".into(),
        v: (k.a * 1_000 + k.b).rem_euclid(97) as u64,
    };
    let values: Vec<PairRow> = keys.iter().map(value).collect();
    rows.put_batch(keys.iter().zip(&values)).unwrap();

    // The rows as a `CellTable` reads them: the key's columns and `PairRow`'s (`marker`, `v`).
    let ctx = SessionContext::new();
    let provider = RowTable::<_, Pair, PairRow>::shared(Arc::new(store)).unwrap();
    ctx.register_table("both", Arc::new(provider)).unwrap();
    let runtime = runtime();
    let ours = |statement: &str| datafusion_rows(&runtime, &ctx, statement);

    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut pick = |lo: i64, hi: i64| lo + rng.below((hi - lo) as u64) as i64;
    let mut compared = 0;
    let mut results = 0;
    for n in 0..200 {
        // A conjunction of key predicates.
        let mut conds: Vec<String> = Vec::new();
        match n % 6 {
            0 => conds.push(format!("a = {}", pick(-22, 22))),
            1 => conds.push(format!(
                "a IN ({}, {}, {})",
                pick(-22, 22),
                pick(-22, 22),
                pick(-22, 22)
            )),
            2 => {
                let lo = pick(-22, 22);
                conds.push(format!("a BETWEEN {lo} AND {}", lo + pick(0, 6)));
            }
            3 => conds.push(format!(
                "a {} {}",
                ["<", "<=", ">", ">="][n / 6 % 4],
                pick(-22, 22)
            )),
            _ => {}
        }
        match n % 5 {
            0 => conds.push(format!("b = {}", pick(-260, 260))),
            1 => conds.push(format!(
                "b IN ({}, {}, {}, {})",
                pick(-260, 260),
                pick(-260, 260),
                pick(-260, 260),
                pick(-260, 260)
            )),
            2 => {
                let lo = pick(-260, 260);
                conds.push(format!("b BETWEEN {lo} AND {}", lo + pick(0, 40)));
            }
            3 => conds.push(format!("b {} {}", ["<", ">="][n / 5 % 2], pick(-260, 260))),
            _ => {}
        }
        // A predicate on a value column, at times.
        if n % 7 == 3 {
            conds.push(format!("v {} {}", ["<", ">="][n / 7 % 2], pick(0, 97)));
        }
        let wher = if conds.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", conds.join(" AND "))
        };
        // Every statement orders its rows (a salted table's come in any order otherwise).
        let select = match n % 4 {
            0 => format!(
                "SELECT a, b, v FROM {{t}}{wher} ORDER BY a, b LIMIT {}",
                pick(1, 50)
            ),
            1 => format!(
                "SELECT a, b FROM {{t}}{wher} ORDER BY a DESC, b DESC LIMIT {}",
                pick(1, 50)
            ),
            2 => format!("SELECT COUNT(*), SUM(b), MIN(b), MAX(a), MAX(v) FROM {{t}}{wher}"),
            _ => format!("SELECT a, COUNT(*) FROM {{t}}{wher} GROUP BY a ORDER BY a"),
        };
        let theirs = sql
            .query(&select.replace("{t}", &table), &[])
            .unwrap_or_else(|e| panic!("Phoenix: {select}: {e}"));
        let (mine, _) = ours(&select.replace("{t}", "both"));
        assert_eq!(mine, theirs, "{select}");
        compared += 1;
        results += theirs.len();
    }
    assert!(results > compared, "the queries return rows: {results}");

    // Without a leading constraint, `b`'s predicate is the region servers' to check: the rows
    // that cross the network are the matches, not the table's 7,500.
    // (`KeyTable` reads a `Table`'s value cell, `0:v`: written beside Phoenix's columns, which
    // Phoenix ignores.)
    let store = HbaseStore::with_config(HbaseConfig::new(&p.thrift, &table, "0")).unwrap();
    rowkey::store::Table::<_, Pair>::new(&store)
        .put_batch(keys.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let keyed = rowkey_datafusion::KeyTable::<_, Pair>::shared(Arc::new(store)).unwrap();
    ctx.register_table("keyed", Arc::new(keyed)).unwrap();
    let (found, read) = ours("SELECT a, b FROM keyed WHERE b = 17");
    let theirs = sql
        .query(
            &format!("SELECT A, B FROM {table} WHERE B = 17 ORDER BY A"),
            &[],
        )
        .unwrap();
    let mut found = found;
    found.sort_by_key(|r| format!("{r:?}"));
    let mut theirs = theirs;
    theirs.sort_by_key(|r| format!("{r:?}"));
    assert_eq!(found, theirs);
    assert!(found.len() >= 20, "{}", found.len());
    assert!(
        read <= 2 * found.len(),
        "{read} rows crossed for {} matches",
        found.len()
    );
    eprintln!("{compared} queries, {results} result rows, the same from Phoenix and DataFusion");
}

/// Readings of probes at sites: a `VARCHAR` lead whose values prefix each other (`a`, `ab`),
/// a `DESC` time, a signed `INTEGER`, and nullable value columns in two families.
#[cfg(feature = "sql")]
#[derive(rowkey::PhoenixRow, Debug, Clone, PartialEq)]
#[phoenix(table = "readings", salt_buckets = 4, family = "r")]
struct Reading {
    #[phoenix(key)]
    site: String,
    #[phoenix(key, desc)]
    ts: i64,
    #[phoenix(key)]
    probe: i32,
    value: f64,
    ok: Option<bool>,
    #[phoenix(family = "x")]
    note: Option<String>,
}

/// The same SQL on one `#[derive(PhoenixRow)]` table, from Phoenix and from DataFusion over
/// rowkey (`rowkey_datafusion::PhoenixRowTable`): rows written by rowkey and by Phoenix's
/// `UPSERT`, and generated queries (point lookups, key prefixes, ranges, `IN` lists on the
/// later key columns, value predicates and nulls, aggregates, `GROUP BY`, `ORDER BY` the key
/// both ways, `LIMIT`) answered the same. A leading equality reads its prefix's rows only.
#[cfg(feature = "sql")]
#[test]
fn the_same_sql_on_a_derived_phoenix_table() {
    use datafusion::prelude::SessionContext;
    use rowkey::phoenix::PhoenixRow;
    use rowkey::store::PhoenixRows;
    use rowkey_datafusion::{datafusion, PhoenixRowTable};
    use std::sync::Arc;

    let Some(p) = phoenix() else { return };
    let name = unique("readings");
    let table = Reading::table().renamed(name.clone()).unwrap();
    let mut sql = p.session();
    sql.update(&table.create_table(), &[]).unwrap();
    let store = Arc::new(store_for(p, &table));
    let sites = ["a", "ab", "b", "site-1", "site-10", "zz"];
    let base = 1_700_000_000_000i64;
    let mut all = Vec::new();
    for (s, site) in sites.iter().enumerate() {
        for t in 0..150i64 {
            for probe in -3i32..4 {
                if (t + i64::from(probe) + s as i64) % 5 == 0 {
                    continue;
                }
                let i = t * 7 + i64::from(probe);
                all.push(Reading {
                    site: site.to_string(),
                    ts: base + t * 1_000,
                    probe,
                    // Quarters: every sum is exact in either order.
                    value: (i % 40) as f64 / 4.0 - 3.0,
                    ok: (i % 4 != 0).then_some(i % 3 == 0),
                    note: (i % 6 == 0).then(|| format!("n{}", i % 11)),
                });
            }
        }
    }
    PhoenixRows::<_, Reading>::named(&*store, &name)
        .unwrap()
        .put_batch(&all)
        .unwrap();
    // Rows Phoenix writes itself: a site of their own, nulls left out of the statement.
    for t in 0..20i64 {
        sql.update(
            &format!(
                "UPSERT INTO \"{name}\" (\"site\", \"ts\", \"probe\", \"value\") \
                 VALUES ('phx', {}, {}, {})",
                base + t * 500,
                t % 3 - 1,
                t as f64 / 2.0
            ),
            &[],
        )
        .unwrap();
    }
    let rows = all.len() + 20;

    let ctx = SessionContext::new();
    let provider = PhoenixRowTable::new(store.clone(), table.clone());
    ctx.register_table("readings", Arc::new(provider)).unwrap();
    let runtime = runtime();
    let ours = |statement: &str| datafusion_rows(&runtime, &ctx, statement);

    let mut rng = Rng(0x0bad_cafe_5eed_0059);
    let mut compared = 0;
    let mut results = 0;
    let all_sites = [
        "a", "ab", "b", "site-1", "site-10", "zz", "phx", "s", "site-",
    ];
    for n in 0..240usize {
        let mut pick = |lo: i64, hi: i64| lo + rng.below((hi - lo) as u64) as i64;
        let site = |k: i64| format!("'{}'", all_sites[k as usize]);
        let ts = |k: i64| base + k * 1_000 + if k % 7 == 0 { 500 } else { 0 };
        let mut conds: Vec<String> = Vec::new();
        match n % 5 {
            0 => conds.push(format!("\"site\" = {}", site(pick(0, 9)))),
            1 => conds.push(format!(
                "\"site\" IN ({}, {})",
                site(pick(0, 9)),
                site(pick(0, 9))
            )),
            2 => conds.push(format!(
                "\"site\" {} {}",
                ["<", ">=", ">", "<="][n / 5 % 4],
                site(pick(0, 9))
            )),
            _ => {}
        }
        match n % 4 {
            0 => conds.push(format!("\"ts\" = {}", ts(pick(-2, 152)))),
            1 => {
                let lo = pick(-2, 152);
                conds.push(format!(
                    "\"ts\" BETWEEN {} AND {}",
                    ts(lo),
                    ts(lo + pick(0, 30))
                ));
            }
            2 => conds.push(format!("\"ts\" >= {}", ts(pick(-2, 152)))),
            _ => {}
        }
        match n % 3 {
            0 => conds.push(format!("\"probe\" IN ({}, {})", pick(-4, 5), pick(-4, 5))),
            1 if n % 2 == 0 => conds.push(format!("\"probe\" < {}", pick(-4, 5))),
            _ => {}
        }
        match n % 7 {
            0 => conds.push(format!("\"value\" > {}", pick(-4, 8))),
            1 => conds.push("\"note\" IS NULL".to_string()),
            2 => conds.push("\"ok\" = TRUE".to_string()),
            _ => {}
        }
        let wher = if conds.is_empty() {
            String::new()
        } else {
            format!(" WHERE {}", conds.join(" AND "))
        };
        let all_columns = "\"site\", \"ts\", \"probe\", \"value\", \"ok\", \"note\"";
        let select = match n % 6 {
            0 => format!(
                "SELECT {all_columns} FROM {{t}}{wher} ORDER BY \"site\", \"ts\" DESC, \"probe\" LIMIT {}",
                pick(1, 60)
            ),
            1 => format!(
                "SELECT \"site\", \"ts\", \"probe\" FROM {{t}}{wher} \
                 ORDER BY \"site\" DESC, \"ts\", \"probe\" DESC LIMIT {}",
                pick(1, 60)
            ),
            2 => format!(
                "SELECT COUNT(*), SUM(\"probe\"), MIN(\"ts\"), MAX(\"value\"), SUM(\"value\"), \
                 COUNT(\"note\") FROM {{t}}{wher}"
            ),
            3 => format!(
                "SELECT \"site\", COUNT(*), MAX(\"ts\") FROM {{t}}{wher} GROUP BY \"site\" ORDER BY \"site\""
            ),
            4 => {
                // A point lookup: every key column fixed.
                let t = pick(-1, 151);
                format!(
                    "SELECT {all_columns} FROM {{t}} WHERE \"site\" = {} AND \"ts\" = {} AND \"probe\" = {}",
                    site(pick(0, 7)),
                    base + t * 1_000,
                    pick(-4, 5)
                )
            }
            _ => format!(
                "SELECT \"site\", \"ts\", \"note\" FROM {{t}}{wher} ORDER BY \"site\", \"ts\" DESC, \"probe\""
            ),
        };
        let theirs = sql
            .query(&select.replace("{t}", &format!("\"{name}\"")), &[])
            .unwrap_or_else(|e| panic!("Phoenix: {select}: {e}"));
        let (mine, _) = ours(&select.replace("{t}", "readings"));
        assert_eq!(mine, theirs, "{select}");
        compared += 1;
        results += theirs.len();
    }
    assert!(results > compared, "the queries return rows: {results}");

    // A leading equality reads its prefix's rows, not its neighbours' (`a` is not `ab`'s
    // prefix), nor the table's.
    let (found, read) = ours("SELECT COUNT(*) FROM readings WHERE \"site\" = 'a'");
    let want = all.iter().filter(|r| r.site == "a").count();
    assert_eq!(found, vec![vec![Value::Int(want as i64)]]);
    assert_eq!(read, want, "{rows} rows in the table");
    eprintln!("{compared} queries on a derived Phoenix table, {results} result rows, the same from Phoenix and DataFusion");
}

/// A runtime for DataFusion.
#[cfg(feature = "sql")]
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// DataFusion's answer to `statement` as Phoenix's values (every integer width an `Int`, both
/// float widths a `Float`), and the rows rowkey's scans read (`rows_read` over the plan).
#[cfg(feature = "sql")]
fn datafusion_rows(
    runtime: &tokio::runtime::Runtime,
    ctx: &rowkey_datafusion::datafusion::prelude::SessionContext,
    statement: &str,
) -> (Vec<Vec<Value>>, usize) {
    use rowkey_datafusion::datafusion::arrow::array::{Array, ArrayRef, AsArray};
    use rowkey_datafusion::datafusion::arrow::compute::cast;
    use rowkey_datafusion::datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type};
    use rowkey_datafusion::datafusion::physical_plan::{collect, ExecutionPlan};
    use std::sync::Arc;
    fn rows_read(plan: &Arc<dyn ExecutionPlan>) -> usize {
        let own = if ["KeyScanExec", "PhoenixScanExec"].contains(&plan.name()) {
            plan.metrics()
                .and_then(|m| m.sum_by_name("rows_read"))
                .map_or(0, |v| v.as_usize())
        } else {
            0
        };
        own + plan.children().into_iter().map(rows_read).sum::<usize>()
    }
    fn value(c: &ArrayRef, i: usize) -> Value {
        if c.is_null(i) {
            return Value::Null;
        }
        match c.data_type() {
            DataType::Utf8 => Value::Text(c.as_string::<i32>().value(i).into()),
            DataType::Boolean => Value::Bool(c.as_boolean().value(i)),
            DataType::Float32 | DataType::Float64 => {
                let c = cast(c, &DataType::Float64).unwrap();
                Value::Float(c.as_primitive::<Float64Type>().value(i))
            }
            _ => {
                let c = cast(c, &DataType::Int64).unwrap();
                Value::Int(c.as_primitive::<Int64Type>().value(i))
            }
        }
    }
    runtime.block_on(async {
        let df = ctx
            .sql(statement)
            .await
            .unwrap_or_else(|e| panic!("{statement}: {e}"));
        let plan = df.create_physical_plan().await.unwrap();
        let batches = collect(plan.clone(), ctx.task_ctx())
            .await
            .unwrap_or_else(|e| panic!("{statement}: {e}"));
        let rows = batches
            .iter()
            .flat_map(|b| {
                (0..b.num_rows()).map(move |i| b.columns().iter().map(|c| value(c, i)).collect())
            })
            .collect();
        (rows, rows_read(&plan))
    })
}
