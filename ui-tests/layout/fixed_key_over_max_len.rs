use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = 16)]
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
