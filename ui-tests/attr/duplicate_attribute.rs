use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(max_len = 100, max_len = 200)]
struct Key {
    #[fixed(4)]
    #[fixed(4)]
    name: String,
    #[desc]
    #[desc]
    n: u8,
}

fn main() {}
