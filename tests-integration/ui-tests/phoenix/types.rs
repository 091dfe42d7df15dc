// A field type with no Phoenix equivalent fails at the type.
use rowkey::PhoenixRow;

#[derive(PhoenixRow)]
struct Row {
    #[phoenix(key)]
    a: i64,
    b: std::time::Duration,
}

fn main() {}
