use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[reverse]
    name: String,
}

fn main() {}
