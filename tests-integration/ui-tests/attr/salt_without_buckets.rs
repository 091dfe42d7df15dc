use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[salt]
    id: u64,
}

fn main() {}
