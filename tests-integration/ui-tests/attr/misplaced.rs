use rowkey::RowKey;

#[derive(RowKey)]
#[salt(buckets = 4)]
struct Key {
    #[rowkey(key_limit = 10)]
    id: u64,
    #[tag(1)]
    n: u8,
}

fn main() {}
