use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(key_limit = 100, key_limit = 200)]
struct Key {
    #[fixed(4)]
    #[fixed(4)]
    name: String,
    #[desc]
    #[desc]
    n: u8,
}

fn main() {}
