//! Record batches against the typed keys: every column holds what the typed key holds, row for
//! row (random keys of a layout with every common field type, a record-type enum), foreign keys
//! are refused with the decoder's error, a `RowValue`'s fields are columns after the key's,
//! and 200,000 rows of the README's `Event` scanned from
//! fjall fill batches of 8,192.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int16Type, Int64Type, TimestampMillisecondType, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, TimeUnit};
use proptest::prelude::*;
use rowkey::RowKey;
use rowkey_arrow::{batches, KeyBatchBuilder, Options};

#[derive(RowKey, Debug, Clone)]
struct Wide {
    #[salt(buckets = 16)]
    tenant: u8,
    #[desc]
    level: i16,
    name: String,
    #[reverse_ts]
    at: u64,
    note: Option<String>,
    raw: Vec<u8>,
    tag: [u8; 2],
    inner: Inner,
    #[hash(md5, len = 4)]
    digest: rowkey::Hashed<String, 4>,
}

#[derive(RowKey, Debug, Clone)]
struct Inner {
    x: u32,
    y: i64,
}

#[derive(RowKey, Debug, Clone)]
#[rowkey(prefix(user))]
enum Activity {
    #[tag(1)]
    Login { user: u64, ip: u32 },
    #[tag(2)]
    Purchase {
        user: u64,
        amount: i64,
        item: String,
    },
}

fn wide() -> impl Strategy<Value = Wide> {
    (
        (any::<u8>(), any::<i16>(), "\\PC{0,8}", 0..=i64::MAX as u64),
        (
            proptest::option::of("[a-z\\x00]{0,5}"),
            proptest::collection::vec(any::<u8>(), 0..6),
            any::<[u8; 2]>(),
            any::<u32>(),
            any::<i64>(),
            "[a-z]{0,4}",
        ),
    )
        .prop_map(
            |((tenant, level, name, at), (note, raw, tag, x, y, d))| Wide {
                tenant,
                level,
                name,
                at,
                note,
                raw,
                tag,
                inner: Inner { x, y },
                digest: rowkey::Hashed::new(d),
            },
        )
}

fn build(keys: &[Vec<u8>], schema: &'static rowkey::Schema) -> RecordBatch {
    let mut b = KeyBatchBuilder::new(schema).unwrap();
    for k in keys {
        b.push(k, None).unwrap();
    }
    b.finish()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_column_holds_what_the_typed_key_holds(rows in proptest::collection::vec(wide(), 1..40)) {
        let keys: Vec<Vec<u8>> = rows.iter().map(|r| r.to_bytes().unwrap().to_vec()).collect();
        let batch = build(&keys, Wide::SCHEMA);
        let schema = batch.schema();
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        prop_assert_eq!(
            names,
            ["tenant", "level", "name", "at", "note", "raw", "tag", "inner.x", "inner.y", "digest"]
        );
        prop_assert_eq!(
            schema.field(3).data_type(),
            &DataType::Timestamp(TimeUnit::Millisecond, None)
        );
        prop_assert!(schema.field(4).is_nullable());
        prop_assert!(!schema.field(2).is_nullable());
        let tenant = batch.column(0).as_primitive::<UInt8Type>();
        let level = batch.column(1).as_primitive::<Int16Type>();
        let name = batch.column(2).as_string::<i32>();
        let at = batch.column(3).as_primitive::<TimestampMillisecondType>();
        let note = batch.column(4).as_string::<i32>();
        let raw = batch.column(5).as_binary::<i32>();
        let tag = batch.column(6).as_fixed_size_binary();
        let x = batch.column(7).as_primitive::<UInt32Type>();
        let y = batch.column(8).as_primitive::<Int64Type>();
        let digest = batch.column(9).as_fixed_size_binary();
        for (i, r) in rows.iter().enumerate() {
            prop_assert_eq!(tenant.value(i), r.tenant);
            prop_assert_eq!(level.value(i), r.level);
            prop_assert_eq!(name.value(i), r.name.as_str());
            prop_assert_eq!(at.value(i), r.at as i64);
            match &r.note {
                Some(n) => prop_assert_eq!(note.value(i), n.as_str()),
                None => prop_assert!(note.is_null(i)),
            }
            prop_assert_eq!(raw.value(i), &r.raw[..]);
            prop_assert_eq!(tag.value(i), &r.tag[..]);
            prop_assert_eq!(x.value(i), r.inner.x);
            prop_assert_eq!(y.value(i), r.inner.y);
            prop_assert_eq!(digest.value(i), &r.digest.digest()[..]);
        }
    }
}

#[test]
fn record_types_fill_their_own_columns_and_leave_the_others_null() {
    let rows = [
        Activity::Login {
            user: 7,
            ip: 0x7f00_0001,
        },
        Activity::Purchase {
            user: 7,
            amount: -250,
            item: "book".into(),
        },
        Activity::Login { user: 9, ip: 1 },
    ];
    let keys: Vec<Vec<u8>> = rows
        .iter()
        .map(|r| r.to_bytes().unwrap().to_vec())
        .collect();
    let batch = build(&keys, Activity::SCHEMA);
    let schema = batch.schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(
        names,
        [
            "user",
            "record_type",
            "Login.ip",
            "Purchase.amount",
            "Purchase.item"
        ]
    );
    let user = batch.column(0).as_primitive::<UInt64Type>();
    assert_eq!(user.values(), &[7, 7, 9]);
    let kinds = batch
        .column(1)
        .as_dictionary::<arrow_array::types::Int16Type>();
    let names = kinds.values().as_string::<i32>();
    let kind = |i: usize| names.value(kinds.keys().value(i) as usize).to_string();
    assert_eq!([kind(0), kind(1), kind(2)], ["Login", "Purchase", "Login"]);
    let ip = batch.column(2).as_primitive::<UInt32Type>();
    assert!(ip.is_valid(0) && ip.is_null(1) && ip.value(2) == 1);
    let amount = batch.column(3).as_primitive::<Int64Type>();
    assert!(amount.is_null(0) && amount.value(1) == -250 && amount.is_null(2));
    assert_eq!(batch.column(4).as_string::<i32>().value(1), "book");
}

#[test]
fn a_foreign_key_is_refused_with_the_decoders_error_and_the_batch_dropped() {
    let mut b = KeyBatchBuilder::new(Inner::SCHEMA).unwrap();
    b.push(&Inner { x: 1, y: 2 }.to_bytes().unwrap(), None)
        .unwrap();
    let e = b.push(b"short", None).unwrap_err();
    let said = e.to_string();
    assert!(
        said.contains("short") && said.contains("not one of the layout's"),
        "{said}"
    );
    assert!(
        b.is_empty(),
        "the rows before the bad one are dropped with it"
    );
    // The builder goes on with the next rows.
    b.push(&Inner { x: 3, y: 4 }.to_bytes().unwrap(), None)
        .unwrap();
    assert_eq!(b.finish().num_rows(), 1);
    // Timestamps can be integers instead.
    let ints =
        rowkey_arrow::arrow_schema(Wide::SCHEMA, &Options::default().timestamps(false)).unwrap();
    assert_eq!(ints.field(3).data_type(), &DataType::UInt64);
}

#[test]
fn two_hundred_thousand_fjall_rows_fill_batches_of_8192() {
    use rowkey::store::{FjallStore, Store};
    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct Event {
        #[salt(buckets = 16)]
        user_id: u64,
        event_type: String,
        #[reverse_ts]
        ts: u64,
    }
    let dir = std::env::temp_dir().join(format!("rowkey-arrow-{}", std::process::id()));
    let store = FjallStore::open(&dir, "events").unwrap();
    let n = 200_000u64;
    let rows: Vec<_> = (0..n)
        .map(|i| {
            let k = Event {
                user_id: i % 5_000,
                event_type: ["click", "view"][(i % 2) as usize].into(),
                ts: 1_700_000_000_000 + i,
            };
            (
                k.to_bytes().unwrap(),
                rowkey::bytes::Bytes::from(i.to_be_bytes().to_vec()),
            )
        })
        .collect();
    store.write_batch(&rows).unwrap();
    let t = std::time::Instant::now();
    let mut total = 0;
    let mut sum_users = 0u64;
    let mut sizes = Vec::new();
    for batch in batches(
        store.scan(&rowkey::KeyRange::new(b"", None)),
        Event::SCHEMA,
        &Options::default().value_column("value"),
        8_192,
    )
    .unwrap()
    {
        let batch = batch.unwrap();
        total += batch.num_rows();
        sizes.push(batch.num_rows());
        sum_users += batch
            .column(0)
            .as_primitive::<UInt64Type>()
            .values()
            .iter()
            .sum::<u64>();
        assert_eq!(batch.num_columns(), 4);
    }
    eprintln!(
        "{total} rows in {} batches in {:?}",
        sizes.len(),
        t.elapsed()
    );
    assert_eq!(total as u64, n);
    assert!(sizes[..sizes.len() - 1].iter().all(|&s| s == 8_192));
    assert_eq!(sum_users, (0..n).map(|i| i % 5_000).sum::<u64>());
    drop(store);
    std::fs::remove_dir_all(dir).ok();
}

#[derive(rowkey::RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
struct Visit {
    #[column(name = "via")]
    referrer: String,
    #[column(name = "ms")]
    millis: u32,
    score: f64,
    ok: bool,
    #[column(family = "x")]
    note: Option<String>,
}

/// Rows of cells (1,000 rows of a `CellTable` of `Inner` keys and `Visit` values, in four
/// batches): the value's fields are columns after the key's, each read from its cell; a missing
/// `Option` cell is null, a cell of the wrong width is refused naming the column.
#[test]
fn value_columns_hold_what_the_typed_value_holds() {
    use arrow_array::types::Float64Type;
    use rowkey::store::{CellTable, MemStore, Store};
    use rowkey::RowValue;
    let table = CellTable::<_, Inner, Visit>::new(MemStore::new());
    let rows: Vec<(Inner, Visit)> = (0..1_000u32)
        .map(|i| {
            (
                Inner {
                    x: i,
                    y: -(i as i64),
                },
                Visit {
                    referrer: format!("https://example.com/{i}"),
                    millis: i * 3,
                    score: f64::from(i) / 7.0,
                    ok: i % 3 == 0,
                    note: (i % 2 == 0).then(|| format!("note {i}")),
                },
            )
        })
        .collect();
    table.put_batch(rows.iter().map(|(k, v)| (k, v))).unwrap();
    let scan = table
        .store()
        .scan_rows(&rowkey::KeyRange::new(b"", None), &Visit::columns());
    let batches: Vec<RecordBatch> = rowkey_arrow::row_batches(
        scan,
        Inner::SCHEMA,
        &Visit::SCHEMA,
        &Options::default(),
        300,
    )
    .unwrap()
    .collect::<Result<_, _>>()
    .unwrap();
    assert_eq!(
        batches.iter().map(|b| b.num_rows()).collect::<Vec<_>>(),
        [300, 300, 300, 100]
    );
    let schema = batches[0].schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(
        names,
        ["x", "y", "referrer", "millis", "score", "ok", "note"]
    );
    assert_eq!(schema.field(2).metadata()["rowkey.qualifier"], "via");
    assert_eq!(schema.field(6).metadata()["rowkey.family"], "x");
    let mut i = 0;
    for b in &batches {
        let x = b.column(0).as_primitive::<UInt32Type>();
        let referrer = b.column(2).as_string::<i32>();
        let millis = b.column(3).as_primitive::<UInt32Type>();
        let score = b.column(4).as_primitive::<Float64Type>();
        let ok = b.column(5).as_boolean();
        let note = b.column(6).as_string::<i32>();
        for r in 0..b.num_rows() {
            let (k, v) = &rows[i];
            assert_eq!(x.value(r), k.x);
            assert_eq!(referrer.value(r), v.referrer);
            assert_eq!(millis.value(r), v.millis);
            assert_eq!(score.value(r), v.score);
            assert_eq!(ok.value(r), v.ok);
            assert_eq!(note.is_null(r), v.note.is_none());
            if let Some(n) = &v.note {
                assert_eq!(note.value(r), n);
            }
            i += 1;
        }
    }
    assert_eq!(i, rows.len());

    // A cell its column cannot read: `ms` written with 2 bytes.
    let store = MemStore::new();
    let bad = CellTable::<_, Inner, Visit>::new(&store);
    bad.put(&rows[0].0, &rows[0].1).unwrap();
    let mut row = store
        .scan_rows(&rowkey::KeyRange::new(b"", None), &Visit::columns())
        .next()
        .unwrap()
        .unwrap();
    for c in &mut row.cells {
        if c.qualifier == b"ms" {
            c.value = rowkey::bytes::Bytes::from_static(&[0, 1]);
        }
    }
    let mut b = rowkey_arrow::RowBatchBuilder::new(Inner::SCHEMA, &Visit::SCHEMA).unwrap();
    let e = b.push(&row).unwrap_err().to_string();
    assert!(
        e.contains("`millis`") && e.contains("2 bytes where 4"),
        "{e}"
    );
    assert!(b.is_empty());
    row.cells.retain(|c| c.qualifier != b"ms");
    let e = b.push(&row).unwrap_err().to_string();
    assert!(e.contains("no cell d:ms"), "{e}");
}

/// The async scan's batches: the same rows as the blocking scan's, and a foreign row ends them
/// with its error after the batches before it.
#[cfg(feature = "async")]
#[tokio::test(flavor = "current_thread")]
async fn an_async_scan_fills_the_same_batches_and_stops_at_a_foreign_row() {
    use futures_util::StreamExt;
    use rowkey::store::{AsyncStore, MemStore};
    let store = MemStore::new();
    for x in 0..1_000u32 {
        let key = Inner { x, y: 1 }.to_bytes().unwrap();
        AsyncStore::put(&store, &key, b"v").await.unwrap();
    }
    // After every key of the layout (u32 0..1000 then i64): 0xFF.. sorts last.
    AsyncStore::put(&store, &[0xFF; 3], b"foreign")
        .await
        .unwrap();
    let scan = AsyncStore::scan(&store, &rowkey::KeyRange::new(b"", None));
    let got: Vec<_> = rowkey_arrow::batch_stream(scan, Inner::SCHEMA, &Options::default(), 256)
        .unwrap()
        .collect()
        .await;
    let sizes: Vec<usize> = got
        .iter()
        .filter_map(|b| b.as_ref().ok().map(|b| b.num_rows()))
        .collect();
    assert_eq!(sizes, [256, 256, 256]);
    let last = got.last().unwrap().as_ref().unwrap_err().to_string();
    assert!(last.contains("not one of the layout's"), "{last}");
}

/// A salt byte that is not its fields' hash: read as `Table::scan` reads it by default (the byte
/// is below the bucket count), refused with `Options::verify_salt`.
#[test]
fn a_wrong_salt_byte_is_refused_when_asked() {
    let row = Wide {
        tenant: 3,
        level: 1,
        name: "n".into(),
        at: 5,
        note: None,
        raw: vec![],
        tag: [0, 0],
        inner: Inner { x: 1, y: 2 },
        digest: rowkey::Hashed::new("d".into()),
    };
    let mut key = row.to_bytes().unwrap().to_vec();
    key[0] = (key[0] + 1) % 16;
    let mut trusting = KeyBatchBuilder::new(Wide::SCHEMA).unwrap();
    trusting.push(&key, None).unwrap();
    let mut checking =
        KeyBatchBuilder::with_options(Wide::SCHEMA, &Options::default().verify_salt(true)).unwrap();
    let e = checking.push(&key, None).unwrap_err().to_string();
    assert!(e.contains("salt"), "{e}");
    key[0] = 16;
    let e = trusting.push(&key, None).unwrap_err().to_string();
    assert!(e.contains("not below the 16 buckets"), "{e}");
}

/// A projection builds only the columns asked for, in the key's order; every field is still
/// read and checked. A name the layout lacks is refused, listing the key's columns.
#[test]
fn a_projection_builds_only_its_columns() {
    let rows: Vec<Wide> = (0..50u8)
        .map(|i| Wide {
            tenant: i,
            level: -(i as i16),
            name: format!("n{i}"),
            at: u64::from(i),
            note: None,
            raw: vec![i],
            tag: [i, i],
            inner: Inner {
                x: u32::from(i) * 10,
                y: 0,
            },
            digest: rowkey::Hashed::new("d".into()),
        })
        .collect();
    let options = Options::default().project(["inner.x", "name"]);
    let mut b = KeyBatchBuilder::with_options(Wide::SCHEMA, &options).unwrap();
    for r in &rows {
        b.push(&r.to_bytes().unwrap(), None).unwrap();
    }
    let batch = b.finish();
    let schema = batch.schema();
    let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
    assert_eq!(names, ["name", "inner.x"]);
    let x = batch.column(1).as_primitive::<UInt32Type>();
    assert_eq!(x.value(7), 70);
    assert_eq!(batch.column(0).as_string::<i32>().value(7), "n7");
    // Still checked: a damaged key is refused although its bad field is not projected.
    let mut key = rows[0].to_bytes().unwrap().to_vec();
    key.push(0);
    assert!(b.push(&key, None).is_err());
    let e = KeyBatchBuilder::with_options(Wide::SCHEMA, &Options::default().project(["x"]))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("no key column `x`") && e.contains("inner.x"),
        "{e}"
    );
    let only_kind = Options::default().project(["record_type"]);
    let mut b = KeyBatchBuilder::with_options(Activity::SCHEMA, &only_kind).unwrap();
    b.push(
        &Activity::Login { user: 1, ip: 2 }.to_bytes().unwrap(),
        None,
    )
    .unwrap();
    let batch = b.finish();
    assert_eq!(batch.num_columns(), 1);
    assert_eq!(batch.schema().field(0).name(), "record_type");
}
