use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[fixed(8)]
    id: u64,
}

fn main() {}
