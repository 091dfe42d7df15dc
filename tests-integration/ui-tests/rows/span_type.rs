use rowkey::RowKey;

#[derive(RowKey)]
struct Point {
    metric: String,
    #[row_span(3600)]
    ts: i64,
}

#[derive(RowKey)]
struct Named {
    metric: String,
    #[row_span(3600)]
    name: String,
}

fn main() {}
