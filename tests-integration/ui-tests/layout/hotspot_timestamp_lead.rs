use rowkey::RowKey;

#[derive(RowKey)]
struct Log {
    #[timestamp]
    ts: u64,
    host: String,
}

#[derive(RowKey)]
struct Latest {
    #[reverse_ts]
    ts: u64,
    host: String,
}

fn main() {}
