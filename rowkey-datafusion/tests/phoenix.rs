//! A `#[derive(PhoenixRow)]` table as SQL (`PhoenixRowTable`): the rows are the ones
//! `PhoenixRows` wrote, decoded as Phoenix encodes them; leading key equalities read only
//! their prefixes; the key's order is declared, so `ORDER BY` the key sorts nothing.
//! (`tests-integration/tests/phoenix.rs` runs the same SQL through Phoenix itself.)

use std::sync::Arc;

use datafusion::arrow::array::{Array, AsArray, RecordBatch};
use datafusion::arrow::datatypes::{Float64Type, Int64Type};
use datafusion::datasource::TableProvider;
use datafusion::physical_plan::{collect, ExecutionPlan};
use datafusion::prelude::SessionContext;
use rowkey::store::{Cell, MemStore, PhoenixRows, RowWrite, Store};
use rowkey_datafusion::PhoenixRowTable;

/// Host metrics, newest first per host, salted into 4 buckets.
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

const HOSTS: [&str; 5] = ["db-1", "db-10", "web-1", "web-2", "web"];

fn metric(i: i64) -> Metric {
    Metric {
        host: HOSTS[(i % 5) as usize].to_string(),
        ts: 1_700_000_000_000 + i,
        cpu: (i % 1000) as f64 / 10.0,
        note: (i % 3 == 0).then(|| format!("n{i}")),
    }
}

fn rows_read(plan: &Arc<dyn ExecutionPlan>) -> usize {
    let own = if plan.name() == "PhoenixScanExec" {
        plan.metrics()
            .and_then(|m| m.sum_by_name("rows_read"))
            .map_or(0, |v| v.as_usize())
    } else {
        0
    };
    own + plan.children().into_iter().map(rows_read).sum::<usize>()
}

/// The rows of `sql` as `Metric`s (columns host, ts, cpu, note), the rows its scan read, and
/// the plan.
fn run(ctx: &SessionContext, sql: &str) -> (Vec<RecordBatch>, usize, String) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let df = ctx.sql(sql).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
        let plan = df.create_physical_plan().await.unwrap();
        let batches = collect(plan.clone(), ctx.task_ctx())
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
        let shown = datafusion::physical_plan::displayable(plan.as_ref())
            .indent(true)
            .to_string();
        (batches, rows_read(&plan), shown)
    })
}

fn metrics(batches: &[RecordBatch]) -> Vec<Metric> {
    let mut out = Vec::new();
    for b in batches {
        let host = b.column(0).as_string::<i32>();
        let ts = b.column(1).as_primitive::<Int64Type>();
        let cpu = b.column(2).as_primitive::<Float64Type>();
        let note = b.column(3).as_string::<i32>();
        for i in 0..b.num_rows() {
            out.push(Metric {
                host: host.value(i).to_string(),
                ts: ts.value(i),
                cpu: cpu.value(i),
                note: (!note.is_null(i)).then(|| note.value(i).to_string()),
            });
        }
    }
    out
}

fn table(n: i64) -> (Arc<MemStore>, Vec<Metric>) {
    let store = Arc::new(MemStore::new());
    let all: Vec<Metric> = (0..n).map(metric).collect();
    PhoenixRows::<_, Metric>::new(&*store)
        .put_batch(&all)
        .unwrap();
    (store, all)
}

#[test]
fn a_derived_phoenix_table_is_sql() {
    let (store, all) = table(5_000);
    let ctx = SessionContext::new();
    let provider = PhoenixRowTable::of::<Metric>(store.clone());
    assert_eq!(
        provider
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect::<Vec<_>>(),
        ["host", "ts", "cpu", "note"]
    );
    ctx.register_table("metrics", Arc::new(provider)).unwrap();

    // One host, newest first: its prefix only ("db-1" is not "db-10"'s prefix), in key order
    // merged from the 4 buckets without a sort.
    let (b, read, shown) = run(
        &ctx,
        "SELECT host, ts, cpu, note FROM metrics WHERE host = 'db-1' ORDER BY host, ts DESC",
    );
    let mut want: Vec<Metric> = all.iter().filter(|m| m.host == "db-1").cloned().collect();
    want.sort_by_key(|m| std::cmp::Reverse(m.ts));
    assert_eq!(metrics(&b), want);
    assert_eq!(read, want.len(), "{shown}");
    assert!(!shown.contains("SortExec"), "{shown}");
    assert!(shown.contains("key prefixes=1"), "{shown}");

    // An IN list on the leading column and a range on the next: the two prefixes read.
    let (b, read, _) = run(
        &ctx,
        "SELECT host, ts, cpu, note FROM metrics WHERE host IN ('web', 'db-10', 'web') \
         AND ts >= 1700000002000 ORDER BY host, ts DESC",
    );
    let mut want: Vec<Metric> = all
        .iter()
        .filter(|m| (m.host == "web" || m.host == "db-10") && m.ts >= 1_700_000_002_000)
        .cloned()
        .collect();
    want.sort_by(|a, b| a.host.cmp(&b.host).then(b.ts.cmp(&a.ts)));
    assert_eq!(metrics(&b), want);
    assert_eq!(read, 2 * all.len() / 5);

    // Value columns and nulls: DataFusion's, over every row.
    let (b, read, _) = run(
        &ctx,
        "SELECT count(*), sum(cpu) FROM metrics WHERE note IS NULL AND cpu > 50",
    );
    let want: Vec<&Metric> = all
        .iter()
        .filter(|m| m.note.is_none() && m.cpu > 50.0)
        .collect();
    assert_eq!(
        b[0].column(0).as_primitive::<Int64Type>().value(0),
        want.len() as i64
    );
    let sum: f64 = want.iter().map(|m| m.cpu).sum();
    assert!((b[0].column(1).as_primitive::<Float64Type>().value(0) - sum).abs() < 1e-6);
    assert_eq!(read, all.len());

    // Contradictory equalities read nothing; LIMIT without filters stops the read.
    let (b, read, _) = run(
        &ctx,
        "SELECT * FROM metrics WHERE host = 'web' AND host = 'db-1'",
    );
    assert_eq!(
        (b.iter().map(|b| b.num_rows()).sum::<usize>(), read),
        (0, 0)
    );
    let (b, read, _) = run(&ctx, "SELECT host FROM metrics LIMIT 7");
    assert_eq!(b.iter().map(|b| b.num_rows()).sum::<usize>(), 7);
    assert!(read <= 4 * 7, "{read}");
}

#[test]
fn a_row_phoenix_would_not_write_fails_the_query_by_its_key() {
    let (store, _) = table(50);
    // A key in bucket 1 that is not a VARCHAR and a DESC BIGINT.
    let marker = Cell::new("m".to_string(), b"_0".as_slice(), b"x".as_slice());
    store
        .write_rows(&[RowWrite::new(vec![1, b'x', 0, 1, 2], vec![marker])])
        .expect("a raw write");
    let ctx = SessionContext::new();
    ctx.register_table(
        "metrics",
        Arc::new(PhoenixRowTable::of::<Metric>(store.clone())),
    )
    .unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let err = rt
        .block_on(async {
            ctx.sql("SELECT count(*) FROM metrics")
                .await?
                .collect()
                .await
        })
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("table metrics: stored row") && err.contains("\\x01x\\x00\\x01\\x02"),
        "{err}"
    );
}
