// Every error is reported at once, not only the first.
use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[fixed(4)]
    id: u64,
    #[reverse_ts]
    name: String,
    #[salt(buckets = 999)]
    n: u8,
}

fn main() {}
