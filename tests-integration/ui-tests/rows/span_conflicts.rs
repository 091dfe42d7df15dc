use rowkey::RowKey;

#[derive(RowKey)]
struct Point {
    metric: String,
    #[row_span(3600)]
    #[desc]
    ts: u64,
}

#[derive(RowKey)]
struct Both {
    metric: String,
    #[row_span(3600)]
    #[reverse_ts]
    ts: u64,
}

#[derive(RowKey)]
struct Small {
    metric: String,
    #[row_span(5_000_000_000)]
    ts: u32,
}

#[derive(RowKey)]
struct One {
    metric: String,
    #[row_span(1)]
    ts: u64,
}

fn main() {}
