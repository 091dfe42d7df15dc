use rowkey::RowKey;

// A `uid` field holds the lookup table's id, big-endian: an unsigned integer of its width.
#[derive(RowKey)]
struct Key {
    #[uid(kind = "host")]
    host: String,
    #[uid(kind = "event")]
    event: i32,
    ts: u64,
}

fn main() {}
