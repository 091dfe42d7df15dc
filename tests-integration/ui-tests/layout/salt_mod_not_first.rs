use rowkey::RowKey;

// `mod` takes the bucket from one field's value: it must lead the key.
#[derive(RowKey)]
struct Key {
    host: String,
    #[salt(buckets = 8, hash = "mod")]
    #[timestamp]
    ts: u64,
}

fn main() {}
