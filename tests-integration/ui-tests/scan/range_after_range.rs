// A range ends the scan: no field can follow it.
use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    user_id: u64,
    kind: u8,
}

fn main() {
    let _ = Event::scan().user_id(1..5).kind(2).ranges();
}
