use rowkey::RowKey;

#[derive(RowKey)]
struct OpenTsdb {
    metric: u32,
    #[salt(buckets = 20, hash = "java")]
    tags: String,
    #[timestamp]
    ts: u64,
}

#[derive(RowKey)]
struct Phoenix {
    #[salt(buckets = 16, hash = "phoenix")]
    tenant: u32,
    id: String,
}

#[derive(RowKey)]
struct Fast {
    #[salt(buckets = 64, hash = "xxh3")]
    user: u64,
}

#[derive(RowKey)]
struct Modulo {
    #[salt(buckets = 8, hash = "mod")]
    #[timestamp]
    ts: u64,
    host: String,
}

#[derive(RowKey)]
struct ExplicitMd5 {
    #[salt(buckets = 8, hash = "md5")]
    id: u64,
}

fn main() {}
