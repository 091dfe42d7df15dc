use rowkey::RowKey;

#[derive(RowKey)]
struct Text {
    #[salt(buckets = 8, hash = "mod")]
    host: String,
}

#[derive(RowKey)]
struct Signed {
    #[salt(buckets = 8, hash = "mod")]
    delta: i64,
}

#[derive(RowKey)]
#[rowkey(allow_hotspot)]
struct Reversed {
    #[salt(buckets = 8, hash = "mod")]
    #[reverse_ts]
    ts: u64,
}

fn main() {}
