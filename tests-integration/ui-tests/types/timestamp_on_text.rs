use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    id: u64,
    #[timestamp]
    when: String,
}

fn main() {}
