// VARBINARY can only be the last key column, ascending.
use rowkey::PhoenixRow;

#[derive(PhoenixRow)]
struct Row {
    #[phoenix(key)]
    a: Vec<u8>,
    #[phoenix(key)]
    b: i64,
}

fn main() {}
