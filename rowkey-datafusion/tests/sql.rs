//! SQL over rowkey tables: the rows are a brute-force filter's, whatever the predicates; key
//! predicates are pushed down (the rows the walk read are the skip scan's, not the table's);
//! projections, LIMIT, count(*), salted partitions and record types work.

use std::sync::Arc;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::{Int16Type, UInt32Type, UInt64Type, UInt8Type};
use datafusion::physical_plan::{collect, ExecutionPlan};
use datafusion::prelude::SessionContext;
use proptest::prelude::*;
use rowkey::store::{MemStore, Table};
use rowkey::RowKey;
use rowkey_datafusion::{KeyTable, Options, SchemaTable};

/// Flurry's key: a user's installs, one row per app.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
struct Install {
    user_id: u32,
    app_id: u32,
}

/// Every kind of field SQL compares: signed, descending text, an `Option`, a reverse
/// timestamp, fixed-width text.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
struct Wide {
    a: i16,
    #[desc]
    b: String,
    c: Option<u8>,
    #[reverse_ts]
    ts: u64,
    #[fixed(3)]
    f: String,
}

/// A salted key: one partition per bucket.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
struct Visit {
    #[salt(buckets = 8)]
    user: u32,
    day: u16,
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The rows of `sql` and the rows its key scans read (`rows_read`, summed over the plan).
async fn run(ctx: &SessionContext, sql: &str) -> (Vec<RecordBatch>, usize, String) {
    let df = ctx.sql(sql).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    let plan = df.create_physical_plan().await.unwrap();
    let batches = collect(plan.clone(), ctx.task_ctx()).await.unwrap();
    let shown = datafusion::physical_plan::displayable(plan.as_ref())
        .indent(true)
        .to_string();
    (batches, rows_read(&plan), shown)
}

fn rows_read(plan: &Arc<dyn ExecutionPlan>) -> usize {
    let own = if plan.name() == "KeyScanExec" {
        plan.metrics()
            .and_then(|m| m.sum_by_name("rows_read"))
            .map_or(0, |v| v.as_usize())
    } else {
        0
    };
    own + plan.children().into_iter().map(rows_read).sum::<usize>()
}

fn count(batches: &[RecordBatch]) -> usize {
    batches.iter().map(RecordBatch::num_rows).sum()
}

#[test]
fn flurrys_query_reads_what_the_skip_scan_reads() {
    let store = Arc::new(MemStore::new());
    let table = Table::<_, Install>::new(&*store);
    for user_id in 0..400 {
        for app_id in 0..100 {
            table.put(&Install { user_id, app_id }, b"").unwrap();
        }
    }
    let typed = table.query(&Install::query().app_id(42u32).build());
    let mut want = 0;
    let mut typed = typed;
    for row in typed.by_ref() {
        row.unwrap();
        want += 1;
    }
    let skip = typed.stats();
    let ctx = SessionContext::new();
    ctx.register_table(
        "installs",
        Arc::new(KeyTable::<_, Install>::shared(store).unwrap()),
    )
    .unwrap();
    runtime().block_on(async {
        let (batches, read, plan) =
            run(&ctx, "SELECT user_id FROM installs WHERE app_id = 42").await;
        assert_eq!(count(&batches), want);
        assert_eq!(want, 400);
        // The walk read what `Table::query` reads (not 40,000 rows), and DataFusion did not
        // filter again: the pushdown is exact.
        assert_eq!(read as u64, skip.read, "{plan}");
        assert!(read <= 3 * want, "{read} rows read for {want} matches");
        assert!(!plan.contains("FilterExec"), "{plan}");
        assert!(plan.contains("KeyScanExec: key=Install"), "{plan}");

        // The leading field fixes the range: a point lookup reads its row.
        let (batches, read, plan) = run(
            &ctx,
            "SELECT * FROM installs WHERE user_id = 7 AND app_id IN (3, 5, 500)",
        )
        .await;
        assert_eq!(count(&batches), 2);
        assert!(read <= 4, "{read} {plan}");

        // count(*) projects no column; the rows are still counted.
        let (batches, _, _) = run(&ctx, "SELECT count(*) FROM installs WHERE user_id < 10").await;
        assert_eq!(
            batches[0]
                .column(0)
                .as_primitive::<datafusion::arrow::datatypes::Int64Type>()
                .value(0),
            1_000
        );

        // A LIMIT above exact filters stops the walk.
        let (batches, read, _) = run(&ctx, "SELECT * FROM installs WHERE app_id = 9 LIMIT 5").await;
        assert_eq!(count(&batches), 5);
        assert!(read <= 20, "{read} rows read for LIMIT 5");

        // A projection in another order than the key's.
        let (batches, _, _) = run(
            &ctx,
            "SELECT app_id, user_id FROM installs WHERE user_id = 3 AND app_id = 4",
        )
        .await;
        let b = &batches[0];
        assert_eq!(b.schema().field(0).name(), "app_id");
        assert_eq!(b.column(0).as_primitive::<UInt32Type>().value(0), 4);
        assert_eq!(b.column(1).as_primitive::<UInt32Type>().value(0), 3);

        // A predicate that is not on the key's order is DataFusion's to filter.
        let (batches, read, plan) =
            run(&ctx, "SELECT * FROM installs WHERE user_id + app_id = 5").await;
        assert_eq!(count(&batches), 6);
        assert_eq!(read, 40_000);
        assert!(plan.contains("FilterExec"), "{plan}");
    });
}

#[test]
fn salted_keys_read_one_partition_per_bucket() {
    let store = Arc::new(MemStore::new());
    let table = Table::<_, Visit>::new(&*store);
    for user in 0..500 {
        for day in 0..20 {
            table.put(&Visit { user, day }, b"").unwrap();
        }
    }
    let mut typed = table.query(&Visit::query().day(3u16).build());
    assert_eq!(typed.by_ref().count(), 500);
    let skip = typed.stats();
    let ctx = SessionContext::new();
    ctx.register_table(
        "visits",
        Arc::new(KeyTable::<_, Visit>::shared(store).unwrap()),
    )
    .unwrap();
    runtime().block_on(async {
        let (batches, read, plan) = run(&ctx, "SELECT user, day FROM visits WHERE day = 3").await;
        assert_eq!(count(&batches), 500);
        assert!(plan.contains("walks=8"), "{plan}");
        // Each bucket's walk reads what `Table::query`'s walks read, a fifth of the table.
        assert_eq!(read as u64, skip.read, "{plan}");
        assert!(read < 10_000 / 4, "{read}");
        let mut users: Vec<u32> = batches
            .iter()
            .flat_map(|b| b.column(0).as_primitive::<UInt32Type>().values().to_vec())
            .collect();
        users.sort_unstable();
        assert_eq!(users, (0..500).collect::<Vec<_>>());
        // The user fixes the bucket: one walk.
        let (batches, read, plan) = run(
            &ctx,
            "SELECT day FROM visits WHERE user = 77 ORDER BY day DESC",
        )
        .await;
        assert!(plan.contains("walks=1"), "{plan}");
        assert_eq!(read, 20);
        let days: Vec<u16> = batches
            .iter()
            .flat_map(|b| {
                b.column(0)
                    .as_primitive::<datafusion::arrow::datatypes::UInt16Type>()
                    .values()
                    .to_vec()
            })
            .collect();
        assert_eq!(days, (0..20).rev().collect::<Vec<_>>());
    });
}

/// `INSERT INTO ... SELECT` copies a table through SQL, batch by batch: every row, with its
/// value, under the key the typed table writes (a salted key's bucket included); a second
/// insert of the same keys replaces their rows.
#[test]
fn insert_select_copies_a_table() {
    let from = Arc::new(MemStore::new());
    let table = Table::<_, Visit>::new(&*from);
    let mut rows = Vec::new();
    for user in 0..1_000u32 {
        for day in 0..50u16 {
            let value = format!("{user}/{day}").into_bytes();
            table.put(&Visit { user, day }, &value).unwrap();
            rows.push((Visit { user, day }.to_bytes().unwrap(), value));
        }
    }
    let to = Arc::new(MemStore::new());
    let options = Options::default().value_column("value");
    let ctx = SessionContext::new();
    ctx.register_table(
        "visits",
        Arc::new(KeyTable::<_, Visit>::with_options(from, options.clone()).unwrap()),
    )
    .unwrap();
    ctx.register_table(
        "copy",
        Arc::new(KeyTable::<_, Visit>::with_options(to.clone(), options).unwrap()),
    )
    .unwrap();
    runtime().block_on(async {
        let (batches, _, plan) = run(&ctx, "INSERT INTO copy SELECT * FROM visits").await;
        // DataFusion's count of the rows written is the sink's.
        let n = batches[0].column(0).as_primitive::<UInt64Type>().value(0);
        assert_eq!(n, 50_000, "{plan}");
        assert!(plan.contains("KeySink: key=Visit"), "{plan}");
        let mut copied: Vec<(Vec<u8>, Vec<u8>)> = Table::<_, Visit>::new(&*to)
            .scan(&Visit::scan().ranges())
            .map(|r| {
                let (k, v) = r.unwrap();
                (k.to_bytes().unwrap().to_vec(), v.to_vec())
            })
            .collect();
        // A salted table's scan merges its buckets in the fields' order: compared as sets.
        copied.sort();
        rows.sort();
        let rows: Vec<(Vec<u8>, Vec<u8>)> =
            rows.into_iter().map(|(k, v)| (k.to_vec(), v)).collect();
        assert_eq!(copied.len(), rows.len());
        assert!(copied == rows, "the copy differs from the table");
        // The same keys again: rows replaced, not added; a NULL value is an empty one.
        run(
            &ctx,
            "INSERT INTO copy SELECT user, day, NULL FROM visits WHERE day = 7",
        )
        .await;
        let got = run(
            &ctx,
            "SELECT count(*) AS n, sum(length(value)) AS bytes FROM copy WHERE day = 7",
        )
        .await
        .0;
        assert_eq!(
            got[0]
                .column(0)
                .as_primitive::<datafusion::arrow::datatypes::Int64Type>()
                .value(0),
            1_000
        );
        assert_eq!(
            got[0]
                .column(1)
                .as_primitive::<datafusion::arrow::datatypes::Int64Type>()
                .value(0),
            0
        );
        assert_eq!(count(&run(&ctx, "SELECT user FROM copy").await.0), 50_000);
    });
}

/// A row SQL cannot make a key of is refused, naming the row, the column and why; the batch
/// it is in writes nothing. `INSERT OVERWRITE` is refused, so is a table with a column SQL
/// cannot write.
#[test]
fn insert_refuses_what_makes_no_key() {
    let store = Arc::new(MemStore::new());
    let ctx = SessionContext::new();
    let options = Options::default().timestamps(false).value_column("v");
    ctx.register_table(
        "wide",
        Arc::new(KeyTable::<_, Wide>::with_options(store.clone(), options).unwrap()),
    )
    .unwrap();
    runtime().block_on(async {
        let refused = |sql: &'static str| {
            let ctx = ctx.clone();
            async move {
                let e = match ctx.sql(sql).await {
                    Ok(df) => df.collect().await.expect_err(sql),
                    Err(e) => e,
                };
                e.to_string()
            }
        };
        let e = refused(
            "INSERT INTO wide VALUES (1, 'a', NULL, 3, 'x', NULL), (2, NULL, 1, 3, 'x', NULL)",
        )
        .await;
        // DataFusion refuses a NULL in a column that is not nullable before the sink sees it.
        assert!(e.contains("non-nullable but contains null"), "{e}");
        // `#[fixed(3)]` holds at most three bytes.
        let e = refused("INSERT INTO wide VALUES (1, 'a', NULL, 3, 'wxyz', NULL)").await;
        assert!(e.contains("row 1") && e.contains("`f`"), "{e}");
        let e = refused("INSERT OVERWRITE wide VALUES (1, 'a', NULL, 3, 'x', NULL)").await;
        assert!(e.contains("INSERT OVERWRITE"), "{e}");
        assert!(store.is_empty(), "a refused insert wrote rows");
        // The key's and the value's bytes are the typed table's.
        run(
            &ctx,
            "INSERT INTO wide VALUES (-3, 'it''s', 200, 1700000000000, 'xy', X'00ff')",
        )
        .await;
        let want = Wide {
            a: -3,
            b: "it's".into(),
            c: Some(200),
            ts: 1_700_000_000_000,
            f: "xy".into(),
        };
        let got = Table::<_, Wide>::new(&*store).get(&want).unwrap();
        assert_eq!(got.as_deref(), Some(&[0u8, 255][..]));
    });
}

/// A record-type key whose record types share their fields.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix(user), query)]
enum Seen {
    #[tag(1)]
    Login { user: u64 },
    #[tag(2)]
    Logout { user: u64 },
}

/// A record type with fields of its own.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix(customer), query)]
enum Account {
    #[tag(1)]
    Profile { customer: u32 },
    #[tag(2)]
    Order { customer: u32, order: u32 },
}

/// `record_type` picks the record type a row is written as; a name that is none of them is
/// refused, and so is a table whose record types have fields of their own.
#[test]
fn insert_writes_record_types() {
    let store = Arc::new(MemStore::new());
    let ctx = SessionContext::new();
    ctx.register_table(
        "seen",
        Arc::new(KeyTable::<_, Seen>::shared(store.clone()).unwrap()),
    )
    .unwrap();
    ctx.register_table(
        "accounts",
        Arc::new(KeyTable::<_, Account>::shared(Arc::new(MemStore::new())).unwrap()),
    )
    .unwrap();
    runtime().block_on(async {
        run(&ctx, "INSERT INTO seen VALUES (5, 'Logout'), (3, 'Login')").await;
        let keys: Vec<Seen> = Table::<_, Seen>::new(&*store)
            .scan(&Seen::scan().ranges())
            .map(|r| r.unwrap().0)
            .collect();
        assert_eq!(keys, [Seen::Login { user: 3 }, Seen::Logout { user: 5 }]);
        let e = ctx
            .sql("INSERT INTO seen VALUES (6, 'Logon')")
            .await
            .unwrap()
            .collect()
            .await
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(
                "`record_type` Logon, which is none of the key's record types (Login, Logout)"
            ),
            "{e}"
        );
        let e = match ctx
            .sql("INSERT INTO accounts (customer, record_type) VALUES (1, 'Profile')")
            .await
        {
            Ok(df) => df.collect().await.unwrap_err(),
            Err(e) => e,
        }
        .to_string();
        assert!(
            e.contains("column `Order.order` is a record type's own field"),
            "{e}"
        );
    });
}

/// A layout known as data only (`SchemaTable`, what `rowkey sql` opens from a JSON export)
/// reads every row, one partition per salt bucket, and answers as the typed table does.
#[test]
fn a_layout_as_data_answers_as_the_typed_table() {
    let store = Arc::new(MemStore::new());
    let table = Table::<_, Visit>::new(&*store);
    for user in 0..300 {
        for day in 0..10 {
            table.put(&Visit { user, day }, &[day as u8]).unwrap();
        }
    }
    let ctx = SessionContext::new();
    let options = Options::default().value_column("value");
    ctx.register_table(
        "typed",
        Arc::new(KeyTable::<_, Visit>::with_options(store.clone(), options.clone()).unwrap()),
    )
    .unwrap();
    let data = SchemaTable::new(store.clone(), Visit::SCHEMA, options)
        .unwrap()
        .split_at([[3u8, 0, 0, 0, 0x80].as_slice()]);
    ctx.register_table("data", Arc::new(data)).unwrap();
    runtime().block_on(async {
        for q in [
            "SELECT user, day, value FROM {} WHERE day = 3 ORDER BY user",
            "SELECT count(*) AS n FROM {} WHERE user BETWEEN 10 AND 19",
            "SELECT user, day FROM {} ORDER BY user DESC, day DESC LIMIT 7",
            "SELECT day, sum(user) AS s FROM {} GROUP BY day ORDER BY day",
        ] {
            let (typed, _, _) = run(&ctx, &q.replace("{}", "typed")).await;
            let (data, read, plan) = run(&ctx, &q.replace("{}", "data")).await;
            assert_eq!(
                datafusion::arrow::util::pretty::pretty_format_batches(&typed)
                    .unwrap()
                    .to_string(),
                datafusion::arrow::util::pretty::pretty_format_batches(&data)
                    .unwrap()
                    .to_string(),
                "{q}\n{plan}"
            );
            if !q.contains("LIMIT") {
                assert_eq!(read, 3_000, "{q}: every row is read\n{plan}");
            }
            // Eight buckets, the fourth cut in two.
            assert!(plan.contains("partitions=9"), "{plan}");
        }
        // The walk's order is declared: the rows of an ORDER BY on the key come merged, not sorted.
        let (_, _, plan) = run(&ctx, "SELECT user, day FROM data ORDER BY user, day").await;
        assert!(!plan.contains("SortExec"), "{plan}");
    });
}

/// A user's usage of an app: columns of its own.
#[derive(rowkey::RowValue, Debug, Clone, PartialEq)]
#[column(family = "u")]
struct Usage {
    minutes: u64,
    #[column(name = "n")]
    note: Option<String>,
    score: f64,
}

/// A `CellTable`'s rows as SQL rows: the key's columns and the value's; key predicates
/// narrow the ranges read, value predicates are DataFusion's; the rows are a brute-force
/// filter's.
#[test]
fn a_cell_tables_rows_are_sql_rows() {
    use rowkey::store::CellTable;
    use rowkey_datafusion::RowTable;
    let store = Arc::new(MemStore::new());
    let cells = CellTable::<_, Install, Usage>::new(&*store);
    let usage = |u: u32, a: u32| Usage {
        minutes: u64::from(u * 7 + a) % 50,
        note: a.is_multiple_of(3).then(|| format!("u{u}a{a}")),
        score: f64::from(a) / 4.0,
    };
    let mut all = Vec::new();
    for user_id in 0..200 {
        for app_id in 0..20 {
            all.push((Install { user_id, app_id }, usage(user_id, app_id)));
        }
    }
    cells.put_batch(all.iter().map(|(k, v)| (k, v))).unwrap();
    let ctx = SessionContext::new();
    let table = RowTable::<_, Install, Usage>::shared(store).unwrap();
    ctx.register_table("usage", Arc::new(table)).unwrap();
    runtime().block_on(async {
        let (batches, read, plan) = run(
            &ctx,
            "SELECT user_id, app_id, minutes, note, score FROM usage \
             WHERE user_id BETWEEN 10 AND 12 AND minutes > 20 AND note IS NOT NULL ORDER BY user_id, app_id",
        )
        .await;
        let want: Vec<(u32, u32, u64, String)> = all
            .iter()
            .filter(|(k, v)| (10..=12).contains(&k.user_id) && v.minutes > 20 && v.note.is_some())
            .map(|(k, v)| (k.user_id, k.app_id, v.minutes, v.note.clone().unwrap()))
            .collect();
        let mut got = Vec::new();
        for b in &batches {
            for i in 0..b.num_rows() {
                got.push((
                    b.column(0).as_primitive::<UInt32Type>().value(i),
                    b.column(1).as_primitive::<UInt32Type>().value(i),
                    b.column(2).as_primitive::<UInt64Type>().value(i),
                    b.column(3).as_string::<i32>().value(i).to_string(),
                ));
            }
        }
        assert!(!want.is_empty());
        assert_eq!(got, want, "{plan}");
        // The leading field's range fixed the rows read: three users' 60 rows, not 4,000.
        assert_eq!(read, 60, "{plan}");
        assert!(plan.contains("value=Usage"), "{plan}");
        // An aggregate over a value column, all rows.
        let (batches, read, _) = run(&ctx, "SELECT sum(minutes) AS m, count(note) AS n FROM usage").await;
        let m: u64 = all.iter().map(|(_, v)| v.minutes).sum();
        assert_eq!(batches[0].column(0).as_primitive::<UInt64Type>().value(0), m);
        assert_eq!(
            batches[0].column(1).as_primitive::<datafusion::arrow::datatypes::Int64Type>().value(0),
            all.iter().filter(|(_, v)| v.note.is_some()).count() as i64
        );
        assert_eq!(read, 4_000);
    });
}

/// A table cut at split keys (regions' first keys) is read one partition per piece of the
/// walk: the same rows, the same rows read, each partition in key order.
#[test]
fn split_keys_make_partitions() {
    let store = Arc::new(MemStore::new());
    let table = Table::<_, Install>::new(&*store);
    for user_id in 0..400 {
        for app_id in 0..10 {
            table.put(&Install { user_id, app_id }, b"").unwrap();
        }
    }
    let splits: Vec<Vec<u8>> = [100u32, 200, 300]
        .iter()
        .map(|&u| {
            Install {
                user_id: u,
                app_id: 0,
            }
            .to_bytes()
            .unwrap()
            .to_vec()
        })
        .collect();
    let ctx = SessionContext::new();
    ctx.register_table(
        "whole",
        Arc::new(KeyTable::<_, Install>::shared(store.clone()).unwrap()),
    )
    .unwrap();
    ctx.register_table(
        "cut",
        Arc::new(
            KeyTable::<_, Install>::shared(store)
                .unwrap()
                .split_at(&splits),
        ),
    )
    .unwrap();
    runtime().block_on(async {
        let (a, read_whole, _) = run(&ctx, "SELECT user_id FROM whole WHERE app_id = 3").await;
        let (b, read_cut, plan) = run(&ctx, "SELECT user_id FROM cut WHERE app_id = 3").await;
        assert!(plan.contains("partitions=4"), "{plan}");
        assert_eq!(count(&a), 400);
        assert_eq!(count(&b), 400);
        // Each piece walks its part, learning again how far to read on before seeking: a few
        // more rows read per piece (846 against 813 here), never a piece read in full.
        assert!(
            read_cut * 100 <= read_whole * 105,
            "{read_cut} against {read_whole}"
        );
        // A walk inside one piece is one partition.
        let (_, _, plan) = run(&ctx, "SELECT app_id FROM cut WHERE user_id = 150").await;
        assert!(!plan.contains("partitions="), "{plan}");
        // Ordered across partitions by a merge, not a sort.
        let (batches, _, plan) = run(
            &ctx,
            "SELECT user_id, app_id FROM cut ORDER BY user_id, app_id",
        )
        .await;
        assert!(!plan.contains("SortExec"), "{plan}");
        let users: Vec<u32> = batches
            .iter()
            .flat_map(|b| b.column(0).as_primitive::<UInt32Type>().values().to_vec())
            .collect();
        assert_eq!(users.len(), 4_000);
        assert!(users.windows(2).all(|w| w[0] <= w[1]));
    });
}

/// The scan tells DataFusion its rows come in key order: `ORDER BY` on the key's leading
/// fields sorts nothing (one partition read in order; a salted key's buckets merged in
/// order), `ORDER BY ... LIMIT n` stops each walk after `n` rows, and an order the key does
/// not keep is sorted.
#[test]
fn key_order_needs_no_sort() {
    let store = Arc::new(MemStore::new());
    let installs = Table::<_, Install>::new(&*store);
    for user_id in (0..200).rev() {
        for app_id in (0..10).rev() {
            installs.put(&Install { user_id, app_id }, b"").unwrap();
        }
    }
    let salted = Arc::new(MemStore::new());
    let visits = Table::<_, Visit>::new(&*salted);
    for user in 0..300 {
        for day in 0..5 {
            visits.put(&Visit { user, day }, b"").unwrap();
        }
    }
    let ctx = SessionContext::new();
    ctx.register_table(
        "installs",
        Arc::new(KeyTable::<_, Install>::shared(store).unwrap()),
    )
    .unwrap();
    ctx.register_table(
        "visits",
        Arc::new(KeyTable::<_, Visit>::shared(salted).unwrap()),
    )
    .unwrap();
    let pairs = |batches: &[RecordBatch]| -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        for b in batches {
            let num = |c: usize, i: usize| -> u64 {
                let col = b.column(c);
                match col.data_type() {
                    datafusion::arrow::datatypes::DataType::UInt32 => {
                        col.as_primitive::<UInt32Type>().value(i).into()
                    }
                    _ => col
                        .as_primitive::<datafusion::arrow::datatypes::UInt16Type>()
                        .value(i)
                        .into(),
                }
            };
            for i in 0..b.num_rows() {
                out.push((num(0, i), num(1, i)));
            }
        }
        out
    };
    runtime().block_on(async {
        // The key's own order: no sort.
        let (batches, _, plan) = run(
            &ctx,
            "SELECT user_id, app_id FROM installs ORDER BY user_id, app_id",
        )
        .await;
        assert!(!plan.contains("SortExec"), "{plan}");
        let got = pairs(&batches);
        let mut want = got.clone();
        want.sort_unstable();
        assert_eq!(got, want);
        assert_eq!(got.len(), 2_000);
        // A LIMIT under the key's order reads a few rows, not the table.
        let (batches, read, plan) = run(
            &ctx,
            "SELECT user_id, app_id FROM installs ORDER BY user_id LIMIT 5",
        )
        .await;
        assert!(!plan.contains("SortExec"), "{plan}");
        assert_eq!(pairs(&batches), (0..5).map(|a| (0, a)).collect::<Vec<_>>());
        assert!(read <= 10, "{read} rows read\n{plan}");
        // Another order is sorted.
        let (batches, _, plan) = run(
            &ctx,
            "SELECT user_id, app_id FROM installs ORDER BY app_id, user_id DESC LIMIT 3",
        )
        .await;
        assert!(plan.contains("SortExec"), "{plan}");
        assert_eq!(pairs(&batches), [(199, 0), (198, 0), (197, 0)]);
        // A salted key: each bucket in key order, merged without a sort.
        let (batches, _, plan) = run(&ctx, "SELECT user, day FROM visits ORDER BY user, day").await;
        assert!(!plan.contains("SortExec"), "{plan}");
        assert!(plan.contains("SortPreservingMergeExec"), "{plan}");
        let got = pairs(&batches);
        assert_eq!(
            got,
            (0..300u64)
                .flat_map(|u| (0..5u64).map(move |d| (u, d)))
                .collect::<Vec<_>>()
        );
        let (batches, read, plan) =
            run(&ctx, "SELECT user, day FROM visits ORDER BY user LIMIT 4").await;
        assert!(!plan.contains("SortExec"), "{plan}");
        assert_eq!(pairs(&batches), [(0, 0), (0, 1), (0, 2), (0, 3)]);
        assert!(read <= 8 * 4, "{read} rows read\n{plan}");
    });
}

/// One sort key of an `ORDER BY` over `Wide`: its column, its direction, where nulls go.
#[derive(Clone, Debug)]
struct By {
    column: usize,
    descending: bool,
    nulls_first: bool,
}

fn order_by() -> impl Strategy<Value = Vec<By>> {
    (
        Just(vec![0usize, 1, 2, 3, 4]).prop_shuffle(),
        1usize..=5,
        proptest::collection::vec((any::<bool>(), any::<bool>()), 5),
    )
        .prop_map(|(columns, n, dirs)| {
            columns
                .into_iter()
                .take(n)
                .zip(dirs)
                .map(|(column, (descending, nulls_first))| By {
                    column,
                    descending,
                    nulls_first,
                })
                .collect()
        })
}

/// The key's own order as an `ORDER BY`: `a`, `b DESC`, `c NULLS FIRST`, `ts DESC`.
fn keys_order() -> Vec<By> {
    [
        (0, false, false),
        (1, true, true),
        (2, false, true),
        (3, true, true),
    ]
    .into_iter()
    .map(|(column, descending, nulls_first)| By {
        column,
        descending,
        nulls_first,
    })
    .collect()
}

/// `a` and `b` compared as SQL compares them under `by` (nulls placed as it says).
fn sql_cmp(a: &Wide, b: &Wide, by: &[By]) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    for k in by {
        let o = match k.column {
            0 => a.a.cmp(&b.a),
            1 => a.b.as_bytes().cmp(b.b.as_bytes()),
            2 => match (a.c, b.c) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => {
                    if k.nulls_first {
                        Ordering::Less
                    } else {
                        Ordering::Greater
                    }
                }
                (Some(_), None) => {
                    if k.nulls_first {
                        Ordering::Greater
                    } else {
                        Ordering::Less
                    }
                }
                (Some(x), Some(y)) => x.cmp(&y),
            },
            3 => a.ts.cmp(&b.ts),
            _ => a.f.as_bytes().cmp(b.f.as_bytes()),
        };
        // Nulls keep their place whatever the direction.
        let nulls = k.column == 2 && (a.c.is_none() != b.c.is_none());
        let o = if k.descending && !nulls {
            o.reverse()
        } else {
            o
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

/// One predicate on one field, as SQL text, and what it says of a value.
#[derive(Clone, Debug)]
enum P<T> {
    Eq(T),
    Lt(T),
    Le(T),
    Gt(T),
    Ge(T),
    In(Vec<T>),
    Between(T, T),
}

impl<T: PartialOrd + Clone> P<T> {
    fn holds(&self, v: &T) -> bool {
        match self {
            P::Eq(x) => v == x,
            P::Lt(x) => v < x,
            P::Le(x) => v <= x,
            P::Gt(x) => v > x,
            P::Ge(x) => v >= x,
            P::In(xs) => xs.contains(v),
            P::Between(lo, hi) => lo <= v && v <= hi,
        }
    }

    fn sql(&self, col: &str, lit: impl Fn(&T) -> String) -> String {
        match self {
            P::Eq(x) => format!("{col} = {}", lit(x)),
            P::Lt(x) => format!("{col} < {}", lit(x)),
            P::Le(x) => format!("{col} <= {}", lit(x)),
            P::Gt(x) => format!("{col} > {}", lit(x)),
            P::Ge(x) => format!("{col} >= {}", lit(x)),
            P::In(xs) => format!(
                "{col} IN ({})",
                xs.iter().map(&lit).collect::<Vec<_>>().join(", ")
            ),
            P::Between(lo, hi) => format!("{col} BETWEEN {} AND {}", lit(lo), lit(hi)),
        }
    }
}

fn p<T: Clone + std::fmt::Debug + 'static>(
    v: impl Strategy<Value = T> + Clone + 'static,
) -> impl Strategy<Value = Option<P<T>>> {
    prop_oneof![
        2 => Just(None),
        1 => v.clone().prop_map(|x| Some(P::Eq(x))),
        1 => v.clone().prop_map(|x| Some(P::Lt(x))),
        1 => v.clone().prop_map(|x| Some(P::Le(x))),
        1 => v.clone().prop_map(|x| Some(P::Gt(x))),
        1 => v.clone().prop_map(|x| Some(P::Ge(x))),
        1 => proptest::collection::vec(v.clone(), 1..4).prop_map(|xs| Some(P::In(xs))),
        1 => (v.clone(), v).prop_map(|(a, b)| Some(P::Between(a, b))),
    ]
}

fn text() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        Just(String::new()),
        Just("a".to_string()),
        Just("ab".to_string()),
        Just("b".to_string()),
        Just("it's".to_string()),
        Just("\u{e9}t\u{e9}".to_string()),
    ]
}

fn wide() -> impl Strategy<Value = Wide> {
    (
        -4i16..4,
        text(),
        prop_oneof![Just(None), Just(Some(0u8)), Just(Some(7)), Just(Some(200))],
        prop_oneof![Just(0u64), Just(1), Just(3), Just(1_700_000_000_000)],
        prop_oneof![
            Just(String::new()),
            Just("x".to_string()),
            Just("xyz".to_string())
        ],
    )
        .prop_map(|(a, b, c, ts, f)| Wide { a, b, c, ts, f })
}

type WideP = (
    Option<P<i16>>,
    Option<P<String>>,
    Option<P<u8>>,
    bool,
    Option<P<u64>>,
    Option<P<String>>,
);

fn wide_p() -> impl Strategy<Value = WideP> {
    (
        p(-5i16..5),
        p(text()),
        p(prop_oneof![Just(0u8), Just(7), Just(200), Just(255)]),
        any::<bool>(),
        p(prop_oneof![
            Just(0u64),
            Just(1),
            Just(2),
            Just(3),
            Just(1_700_000_000_000)
        ]),
        p(prop_oneof![
            Just(String::new()),
            Just("x".to_string()),
            Just("xy".to_string()),
            Just("xyz".to_string())
        ]),
    )
}

/// The keys of batches of `SELECT a, b, c, ts, f FROM wide`.
fn wide_rows(batches: &[RecordBatch]) -> Vec<Wide> {
    let mut rows = Vec::new();
    for b in batches {
        let c = b.column(2).as_primitive::<UInt8Type>();
        for i in 0..b.num_rows() {
            rows.push(Wide {
                a: b.column(0).as_primitive::<Int16Type>().value(i),
                b: b.column(1).as_string::<i32>().value(i).to_string(),
                c: (!c.is_null(i)).then(|| c.value(i)),
                ts: b.column(3).as_primitive::<UInt64Type>().value(i),
                f: b.column(4).as_string::<i32>().value(i).to_string(),
            });
        }
    }
    rows
}

#[allow(clippy::ptr_arg)] // `P::sql` hands each literal as `&T`.
fn quoted(s: &String) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Whatever the conjunction of key predicates, SQL returns exactly the rows a brute-force
    /// filter keeps (pushed down exactly, inexactly or not at all).
    #[test]
    fn sql_is_a_brute_force_filter(
        rows in proptest::collection::vec(wide(), 0..80),
        q in wide_p(),
        cuts in proptest::collection::vec(wide().prop_map(|k| k.to_bytes().unwrap().to_vec()), 0..4),
    ) {
        let store = Arc::new(MemStore::new());
        let table = Table::<_, Wide>::new(&*store);
        for k in &rows {
            table.put(k, b"").unwrap();
        }
        let ctx = SessionContext::new();
        let options = Options::default().timestamps(false);
        // Partitions cut at random keys (as at regions' first keys) change nothing but the
        // partitioning.
        let provider = KeyTable::<_, Wide>::with_options(store.clone(), options).unwrap().split_at(&cuts);
        ctx.register_table("wide", Arc::new(provider)).unwrap();
        let mut conds = Vec::new();
        if let Some(p) = &q.0 { conds.push(p.sql("a", |v| v.to_string())); }
        if let Some(p) = &q.1 { conds.push(p.sql("b", quoted)); }
        match (&q.2, q.3) {
            (Some(p), _) => conds.push(p.sql("c", |v| v.to_string())),
            (None, true) => conds.push("c IS NULL".into()),
            (None, false) => {}
        }
        if let Some(p) = &q.4 { conds.push(p.sql("ts", |v| v.to_string())); }
        if let Some(p) = &q.5 { conds.push(p.sql("f", quoted)); }
        let wher = if conds.is_empty() { String::new() } else { format!(" WHERE {}", conds.join(" AND ")) };
        let sql = format!("SELECT a, b, c, ts, f FROM wide{wher}");
        let (batches, _, plan) = runtime().block_on(run(&ctx, &sql));
        let mut got = wide_rows(&batches);
        let holds = |k: &Wide| {
            q.0.as_ref().is_none_or(|p| p.holds(&k.a))
                && q.1.as_ref().is_none_or(|p| p.holds(&k.b))
                && match (&q.2, q.3) {
                    (Some(p), _) => k.c.as_ref().is_some_and(|c| p.holds(c)),
                    (None, true) => k.c.is_none(),
                    (None, false) => true,
                }
                && q.4.as_ref().is_none_or(|p| p.holds(&k.ts))
                && q.5.as_ref().is_none_or(|p| p.holds(&k.f))
        };
        let mut want: Vec<Wide> = Vec::new();
        let all: Vec<Wide> = table.scan(&Wide::scan().ranges()).map(|r| r.unwrap().0).collect();
        for k in all {
            if holds(&k) {
                want.push(k);
            }
        }
        let key = |k: &Wide| k.to_bytes().unwrap();
        got.sort_by_key(key);
        prop_assert_eq!(got, want, "{}\n{}", sql, plan);
    }

    /// Rows inserted with SQL are the typed table's rows: each key's bytes are what
    /// `Wide::to_bytes` writes, whatever the fields' kinds (signed, descending text, an
    /// `Option`, a reverse timestamp, fixed-width text).
    #[test]
    fn insert_writes_the_typed_keys(rows in proptest::collection::vec(wide(), 1..40)) {
        let store = Arc::new(MemStore::new());
        let ctx = SessionContext::new();
        let options = Options::default().timestamps(false);
        ctx.register_table("wide", Arc::new(KeyTable::<_, Wide>::with_options(store.clone(), options).unwrap())).unwrap();
        let values: Vec<String> = rows
            .iter()
            .map(|k| format!(
                "({}, {}, {}, {}, {})",
                k.a,
                quoted(&k.b),
                k.c.map_or("NULL".to_string(), |c| c.to_string()),
                k.ts,
                quoted(&k.f)
            ))
            .collect();
        let sql = format!("INSERT INTO wide VALUES {}", values.join(", "));
        runtime().block_on(run(&ctx, &sql));
        let mut want: Vec<Vec<u8>> = rows.iter().map(|k| k.to_bytes().unwrap().to_vec()).collect();
        want.sort();
        want.dedup();
        let got: Vec<Vec<u8>> = rowkey::store::Store::scan(&*store, &rowkey::KeyRange::new(b"", None)).map(|r| r.unwrap().0.to_vec()).collect();
        prop_assert_eq!(got, want, "{}", sql);
    }

    /// Whatever the `ORDER BY` (any columns, directions and null placements), the rows come in
    /// SQL's order: the scan's declared key order is never wrong; the key's own order (and any
    /// prefix of it) is met without a sort.
    #[test]
    fn order_by_is_sqls_order(
        rows in proptest::collection::vec(wide(), 0..60),
        by in prop_oneof![3 => order_by(), 1 => (1usize..=4).prop_map(|n| keys_order()[..n].to_vec())],
        limit in proptest::option::of(1usize..20),
    ) {
        let store = Arc::new(MemStore::new());
        let table = Table::<_, Wide>::new(&*store);
        for k in &rows {
            table.put(k, b"").unwrap();
        }
        let ctx = SessionContext::new();
        let options = Options::default().timestamps(false);
        ctx.register_table("wide", Arc::new(KeyTable::<_, Wide>::with_options(store.clone(), options).unwrap())).unwrap();
        let names = ["a", "b", "c", "ts", "f"];
        let clause: Vec<String> = by
            .iter()
            .map(|k| format!(
                "{} {} {}",
                names[k.column],
                if k.descending { "DESC" } else { "ASC" },
                if k.nulls_first { "NULLS FIRST" } else { "NULLS LAST" }
            ))
            .collect();
        let limit_sql = limit.map_or(String::new(), |n| format!(" LIMIT {n}"));
        let sql = format!("SELECT a, b, c, ts, f FROM wide ORDER BY {}{limit_sql}", clause.join(", "));
        let (batches, _, plan) = runtime().block_on(run(&ctx, &sql));
        let got = wide_rows(&batches);
        let mut want: Vec<Wide> = table.scan(&Wide::scan().ranges()).map(|r| r.unwrap().0).collect();
        want.sort_by(|x, y| sql_cmp(x, y, &by));
        // Rows equal under `by` may come in any order: compare the sort keys' sequence, and
        // the rows as sets.
        prop_assert_eq!(got.len(), want.len().min(limit.unwrap_or(usize::MAX)), "{}\n{}", sql, plan);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            prop_assert_eq!(sql_cmp(g, w, &by), std::cmp::Ordering::Equal, "row {}: {}\n{}", i, sql, plan);
        }
        if limit.is_none() {
            let key = |k: &Wide| k.to_bytes().unwrap();
            let (mut g, mut w) = (got.clone(), want.clone());
            g.sort_by_key(key);
            w.sort_by_key(key);
            prop_assert_eq!(g, w);
        }
        let own = keys_order();
        if by.len() <= own.len() && by.iter().zip(&own).all(|(x, y)| x.column == y.column && x.descending == y.descending && x.nulls_first == y.nulls_first) {
            prop_assert!(!plan.contains("SortExec"), "{}\n{}", sql, plan);
        }
    }
}

/// On fjall a key range's rows are lent from fjall's buffers (copied with `fjall-shared`'s
/// shared buffers instead): the same rows and values as the memory store's, over ranges that
/// seek nothing (`Part::Ranges`) and a walk that does.
#[test]
fn fjall_lends_the_rows_memory_holds() {
    let dir = tempfile::tempdir().unwrap();
    let fjall = Arc::new(rowkey::store::FjallStore::open(dir.path(), "installs").unwrap());
    let memory = Arc::new(MemStore::new());
    let rows: Vec<(Install, Vec<u8>)> = (0..200u32)
        .flat_map(|user_id| (0..50u32).map(move |app_id| (user_id, app_id)))
        .map(|(user_id, app_id)| {
            let value = format!("{user_id}/{app_id}").repeat(1 + (app_id % 5) as usize);
            (Install { user_id, app_id }, value.into_bytes())
        })
        .collect();
    Table::<_, Install>::new(&*fjall)
        .put_batch(rows.iter().map(|(k, v)| (k, &v[..])))
        .unwrap();
    Table::<_, Install>::new(&*memory)
        .put_batch(rows.iter().map(|(k, v)| (k, &v[..])))
        .unwrap();
    let options = Options::default().value_column("value");
    let ctx = SessionContext::new();
    ctx.register_table(
        "on_fjall",
        Arc::new(KeyTable::<_, Install>::with_options(fjall, options.clone()).unwrap()),
    )
    .unwrap();
    ctx.register_table(
        "in_memory",
        Arc::new(KeyTable::<_, Install>::with_options(memory, options).unwrap()),
    )
    .unwrap();
    runtime().block_on(async {
        for filter in [
            // Ranges read as they lie (points on the leading field, then nothing constrained).
            "user_id = 7",
            "user_id IN (3, 99, 150)",
            "user_id + app_id >= 0",
            // Walks.
            "user_id BETWEEN 17 AND 42",
            "user_id = 7 AND app_id >= 10",
            "user_id > 150 LIMIT 333",
            "app_id = 9",
        ] {
            let (on_fjall, read, _) =
                run(&ctx, &format!("SELECT * FROM on_fjall WHERE {filter}")).await;
            let (in_memory, _, _) =
                run(&ctx, &format!("SELECT * FROM in_memory WHERE {filter}")).await;
            let (on_fjall, in_memory) = (
                datafusion::arrow::compute::concat_batches(&on_fjall[0].schema(), &on_fjall)
                    .unwrap(),
                datafusion::arrow::compute::concat_batches(&in_memory[0].schema(), &in_memory)
                    .unwrap(),
            );
            assert!(on_fjall.num_rows() > 0, "{filter}");
            assert!(read > 0, "{filter}");
            assert_eq!(on_fjall.columns(), in_memory.columns(), "{filter}");
        }
    });
}
