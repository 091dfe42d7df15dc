// Unpadded decimal digits sort "9" after "10", and a text field followed by ':' sorts against
// the delimiter: values, not ranges.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimiter = ':', query)]
struct Message {
    user: String,
    #[decimal]
    id: u64,
}

fn main() {
    let _ = Message::scan().user("a".."b").ranges();
    let _ = Message::query().id(1u64..10).build();
}
