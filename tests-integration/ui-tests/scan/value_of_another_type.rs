// A step takes the field's own type (or a range of it): text for a `u64` field is refused at the
// argument, naming the field's type. The note names the step method as the compiler names an
// inherent method in the derive's `const _` block (`_::<impl EventScan<'scan, 0>>::user_id`).
use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[salt(buckets = 16)]
    user_id: u64,
    #[reverse_ts]
    ts: u64,
}

fn main() {
    let _ = Event::scan().user_id("42").ranges();
}
