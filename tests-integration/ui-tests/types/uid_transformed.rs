use rowkey::RowKey;

// The key holds the id exactly as the lookup table writes it: nothing may change its bytes.
#[derive(RowKey)]
struct Key {
    #[uid(kind = "host")]
    #[desc]
    host: u16,
    #[uid(kind = "event")]
    #[reverse]
    event: u32,
    ts: u64,
}

fn main() {}
