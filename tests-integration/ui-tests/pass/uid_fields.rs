use rowkey::RowKey;

// Ids of each width, salted over, in a record type: all accepted.
#[derive(RowKey)]
struct Key {
    #[salt(buckets = 8)]
    #[uid(kind = "host")]
    host: u16,
    #[uid(kind = "event")]
    event: u8,
    #[uid(kind = "metric")]
    metric: u32,
    #[uid(kind = "tag value")]
    tag: u64,
    #[reverse_ts]
    ts: u64,
}

fn main() {
    let key = Key { host: 1, event: 2, metric: 3, tag: 4, ts: 5 };
    let bytes = key.to_bytes().unwrap();
    assert_eq!(&bytes[1..4], [0, 1, 2], "the ids, big-endian, as the lookup table writes them");
}
