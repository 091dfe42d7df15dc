use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[salt(buckets = 16, hash = "crc32")]
    id: u64,
}

fn main() {}
