// A struct field named twice: rustc's E0124 alone, for a key, a row value and a Phoenix row.
use rowkey::{PhoenixRow, RowKey, RowValue};

#[derive(RowKey)]
struct Key {
    user: u64,
    user: u32,
}

#[derive(RowValue)]
#[column(family = "d")]
struct Value {
    size: u64,
    size: u32,
}

#[derive(PhoenixRow)]
#[phoenix(table = "T")]
struct Metric {
    #[phoenix(key)]
    host: String,
    host: u64,
}

fn main() {
    let _ = Key::scan().user(1u64).ranges();
}
