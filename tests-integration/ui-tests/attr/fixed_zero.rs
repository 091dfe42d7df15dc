use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[fixed(0)]
    name: String,
}

fn main() {}
