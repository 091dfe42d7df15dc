use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    ids: Vec<u16>,
}

fn main() {}
