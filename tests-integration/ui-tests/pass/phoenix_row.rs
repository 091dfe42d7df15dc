// Every supported field type in a derived Phoenix row, key and value columns, both orders.
use rowkey::phoenix::{Char, Date, PhoenixRow, Timestamp};

#[derive(rowkey::PhoenixRow)]
#[phoenix(table = "every", salt_buckets = 8, family = "d")]
struct Every {
    #[phoenix(key)]
    a: i8,
    #[phoenix(key, desc)]
    b: i16,
    #[phoenix(key)]
    c: i32,
    #[phoenix(key, desc)]
    d: u32,
    #[phoenix(key)]
    e: Char<3>,
    #[phoenix(key, desc)]
    f: [u8; 4],
    #[phoenix(key)]
    g: Date,
    #[phoenix(key, desc)]
    h: Timestamp,
    #[phoenix(key, desc)]
    i: String,
    #[phoenix(key)]
    j: Option<String>,
    v1: u8,
    v2: u16,
    v3: u64,
    v4: f32,
    v5: f64,
    v6: bool,
    #[phoenix(family = "e", name = "V7")]
    v7: Option<Vec<u8>>,
    v8: Option<Timestamp>,
}

fn main() {
    let t = Every::table();
    assert_eq!(t.key().columns().len(), 10);
    assert_eq!(t.families(), ["d", "e"]);
}
