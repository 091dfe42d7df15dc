use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(key_limit = 16)]
struct Key {
    a: u64,
    b: u64,
    c: u8,
}

#[derive(RowKey)]
struct Huge {
    #[fixed(32767)]
    a: String,
    b: u8,
}

fn main() {}
