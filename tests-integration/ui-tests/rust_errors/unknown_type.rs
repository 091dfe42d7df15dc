// A field type that does not exist: rustc's E0412 alone, at the type.
use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    user: u64,
    when: NoSuchType,
}

fn main() {
    let _ = Key::MAX_LEN;
}
