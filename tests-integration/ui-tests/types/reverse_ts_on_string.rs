use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    id: u64,
    #[reverse_ts]
    ts: String,
}

#[derive(RowKey)]
struct Narrow {
    id: u64,
    #[reverse_ts]
    ts: u32,
}

fn main() {}
