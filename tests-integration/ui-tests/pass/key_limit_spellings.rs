// `key_limit` and its deprecated spelling `max_len` set the same limit.
#![allow(deprecated)]
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(key_limit = 64)]
struct New {
    id: u64,
    name: String,
}

#[derive(RowKey)]
#[rowkey(max_len = 64)]
struct Old {
    id: u64,
    name: String,
}

fn main() {
    assert_eq!(New::SCHEMA.limit, 64);
    assert_eq!(Old::SCHEMA.limit, 64);
    assert_eq!(New::MAX_LEN, Old::MAX_LEN);
}
