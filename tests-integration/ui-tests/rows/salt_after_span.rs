use rowkey::RowKey;

// The salt would hash the span field: each point of a row would get its own salt byte.
#[derive(RowKey)]
struct Point {
    metric: String,
    #[row_span(3600)]
    #[salt(buckets = 8)]
    ts: u64,
}

#[derive(RowKey)]
struct Phoenix {
    #[salt(buckets = 8, hash = "phoenix")]
    metric: String,
    #[row_span(3600)]
    ts: u64,
}

fn main() {}
