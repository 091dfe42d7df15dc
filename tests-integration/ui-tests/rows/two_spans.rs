use rowkey::RowKey;

#[derive(RowKey)]
struct Point {
    metric: String,
    #[row_span(3600)]
    ts: u64,
    #[row_span(60)]
    seq: u64,
}

fn main() {}
