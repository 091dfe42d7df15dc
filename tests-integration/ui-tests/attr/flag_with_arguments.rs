use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    id: u64,
    #[desc(true)]
    n: u8,
}

fn main() {}
