// A text key (`#[rowkey(delimiter = ...)]`) writes every field as text: text as it is (or
// reversed), integers as `#[decimal]` or `#[hex]`; its delimiter cannot be a character a
// field may hold; `#[decimal]`/`#[hex]` need a text key, and `#[hex]` an unsigned integer.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimiter = '7')]
struct BadDelimiter {
    #[decimal]
    a: u32,
    b: String,
}

#[derive(RowKey)]
#[rowkey(delimiter = ':')]
struct BinaryInText {
    #[salt(buckets = 4)]
    #[decimal]
    a: u32,
    plain: u64,
    #[max_len(4)]
    b: String,
    flag: bool,
    #[hex]
    signed: i32,
}

#[derive(RowKey)]
struct NotText {
    #[decimal(width = 6)]
    day: u32,
    #[hex(upper)]
    name: String,
}

fn main() {}
