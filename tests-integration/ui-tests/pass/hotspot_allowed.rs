// The escape hatches of the hotspot rule: allow it explicitly, or salt the key.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(allow_hotspot)]
struct Allowed {
    #[timestamp]
    ts: u64,
}

#[derive(RowKey)]
struct Salted {
    #[timestamp]
    #[salt(buckets = 8)]
    ts: u64,
}

fn main() {
    assert_eq!(Allowed::FIXED_LEN, Some(8));
    assert_eq!(Salted::FIXED_LEN, Some(9));
}
