// A DESC BOOLEAN key column reads back as false in Phoenix 5.2.1: refused.
use rowkey::PhoenixRow;

#[derive(PhoenixRow)]
struct Row {
    #[phoenix(key)]
    a: i64,
    #[phoenix(key, desc)]
    b: bool,
}

fn main() {}
