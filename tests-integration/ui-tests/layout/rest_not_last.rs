// `#[rest]` reads to the end of the key: on a struct's last field only.
use rowkey::RowKey;

#[derive(RowKey)]
struct Concat {
    #[rest]
    name: String,
    seq: u64,
}

#[derive(RowKey)]
enum Rows {
    #[tag(1)]
    A {
        id: u64,
        #[rest]
        name: String,
    },
}

fn main() {}
