use rowkey::RowKey;

// The README's key with its user id and timestamp behind aliases of the same widths: the alias keeps the
// pinned fingerprint of the type it names.
type Millis = u64;
type UserId = u64;

mod ids {
    /// A nested key of one field.
    #[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
    pub struct User {
        pub id: u64,
    }
}

#[derive(RowKey)]
#[rowkey(fingerprint = 0x898d96ef0000e9bf)]
struct Event {
    #[salt(buckets = 16)]
    user_id: UserId,
    #[fixed(16)]
    event_type: String,
    #[reverse_ts]
    ts: Millis,
}

#[derive(RowKey)]
struct ByUser {
    user: ids::User,
    ts: Millis,
}

#[derive(RowKey)]
struct ByUserPath {
    user: crate::ids::User,
    ts: u64,
}

fn main() {
    assert_eq!(Event::FINGERPRINT, 0x898d96ef0000e9bf);
    assert_eq!(ByUser::FINGERPRINT, ByUserPath::FINGERPRINT);
}
