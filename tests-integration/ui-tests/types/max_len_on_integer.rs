use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[max_len(8)]
    id: u64,
}

fn main() {}
