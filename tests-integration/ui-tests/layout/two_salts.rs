use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[salt(buckets = 16)]
    user: u64,
    #[salt(buckets = 16)]
    device: u64,
}

fn main() {}
