use rowkey::RowKey;

#[derive(RowKey)]
struct One {
    #[salt(buckets = 1)]
    id: u64,
}

#[derive(RowKey)]
struct TooMany {
    #[salt(buckets = 300)]
    id: u64,
}

fn main() {}
