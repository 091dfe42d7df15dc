// `reverse` gives up order, so a scan can fix the field but not range over it.
use rowkey::RowKey;

#[derive(RowKey)]
struct Message {
    #[reverse]
    id: u64,
    part: u8,
}

fn main() {
    let _ = Message::scan().id(7).ranges(); // equality works
    let _ = Message::scan().id(1..100).ranges();
}
