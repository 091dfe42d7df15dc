use std::collections::HashMap;

use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    ids: Vec<u16>,
    initial: char,
    pair: (u8, u8),
    tags: HashMap<String, String>,
    parts: [u32; 2],
}

fn main() {}
