// The key limit's earlier spelling still works, with a deprecation warning at the old key.
#![deny(deprecated)]
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = 64)]
struct Key {
    id: u64,
    name: String,
}

fn main() {}
