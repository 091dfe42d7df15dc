use rowkey::RowKey;

// The README's key, pinned, with its user id behind an alias that someone narrowed from `u64`
// to `u32`: the declaration reads the same, every stored key would be misread.
type UserId = u32;

#[derive(RowKey)]
#[rowkey(fingerprint = 0x898d96ef0000e9bf)]
struct Event {
    #[salt(buckets = 16)]
    user_id: UserId,
    #[fixed(16)]
    event_type: String,
    #[reverse_ts]
    ts: u64,
}

fn main() {}
