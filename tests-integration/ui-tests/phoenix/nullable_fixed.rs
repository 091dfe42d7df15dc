// Phoenix refuses a nullable fixed-width key column: a constant assertion at the field.
use rowkey::PhoenixRow;

#[derive(PhoenixRow)]
struct Row {
    #[phoenix(key)]
    a: i64,
    #[phoenix(key)]
    b: Option<i32>,
}

fn main() {}
