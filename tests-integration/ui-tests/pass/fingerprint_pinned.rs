use rowkey::RowKey;

// The README's key with its layout pinned.
#[derive(RowKey)]
#[rowkey(fingerprint = 0x898d96ef0000e9bf)]
struct Event {
    #[salt(buckets = 16)]
    user_id: u64,
    #[fixed(16)]
    event_type: String,
    #[reverse_ts]
    ts: u64,
}

/// The same bytes under other names, a borrowed field and more derives: the same fingerprint.
#[derive(RowKey, Debug, Clone)]
#[rowkey(fingerprint = 0x898d96ef0000e9bf)]
struct RenamedEvent<'a> {
    /// Who.
    #[salt(buckets = 16)]
    uid: u64,
    #[fixed(16)]
    kind: &'a str,
    #[reverse_ts]
    at: u64,
}

fn main() {
    assert_eq!(Event::FINGERPRINT, RenamedEvent::FINGERPRINT);
}
