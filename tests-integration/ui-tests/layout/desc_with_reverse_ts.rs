use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    id: u64,
    #[desc]
    #[reverse_ts]
    ts: u64,
}

fn main() {}
