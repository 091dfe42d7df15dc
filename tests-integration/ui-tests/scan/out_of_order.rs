// Fields are fixed in key order: `ts` cannot come before `user_id`.
use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[salt(buckets = 16)]
    user_id: u64,
    #[reverse_ts]
    ts: u64,
}

fn main() {
    let _ = Event::scan().ts(0..10).ranges();
}
