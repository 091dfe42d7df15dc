use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[salt(bucket = 16)]
    id: u64,
}

fn main() {}
