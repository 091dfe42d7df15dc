use rowkey::RowKey;

#[derive(RowKey)]
enum Rows {
    #[tag(1)]
    Point {
        metric: u64,
        #[row_span(3600)]
        ts: u64,
    },
}

#[derive(RowKey)]
struct Borrowed<'a> {
    metric: &'a str,
    #[row_span(3600)]
    ts: u64,
}

fn main() {}
