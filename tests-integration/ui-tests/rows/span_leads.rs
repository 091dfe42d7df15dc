use rowkey::RowKey;

// Every new point goes to the newest row: the timestamp hotspot.
#[derive(RowKey)]
struct Point {
    #[row_span(3_600_000)]
    ts: u64,
    host: String,
}

fn main() {}
