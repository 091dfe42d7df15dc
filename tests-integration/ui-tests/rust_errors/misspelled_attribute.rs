// A misspelled attribute beside a right one: rustc's "cannot find attribute" alone; the right
// one is taken as written.
use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[fixed(4)]
    region: String,
    #[fixd(2)]
    zone: String,
}

fn main() {}
