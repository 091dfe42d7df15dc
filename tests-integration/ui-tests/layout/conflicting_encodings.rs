use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[fixed(8)]
    #[max_len(8)]
    name: String,
    #[reverse_ts]
    #[timestamp]
    ts: u64,
}

fn main() {}
