// A record type named twice: rustc's E0428 alone.
use rowkey::RowKey;

#[derive(RowKey)]
enum Row {
    #[tag(1)]
    Customer { id: u64 },
    #[tag(2)]
    Customer { id: u64, order: u64 },
}

fn main() {}
