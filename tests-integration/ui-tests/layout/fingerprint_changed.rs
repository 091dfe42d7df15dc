use rowkey::RowKey;

// The README's key, pinned, after someone shortened `event_type` from 16 to 12 bytes: every
// stored key would be misread.
#[derive(RowKey)]
#[rowkey(fingerprint = 0x898d96ef0000e9bf)]
struct Event {
    #[salt(buckets = 16)]
    user_id: u64,
    #[fixed(12)]
    event_type: String,
    #[reverse_ts]
    ts: u64,
}

fn main() {}
