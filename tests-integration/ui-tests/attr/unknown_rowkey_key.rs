use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(maxlen = 4096)]
struct Key {
    id: u64,
}

fn main() {}
