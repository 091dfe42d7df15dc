use rowkey::{Hashed, RowKey};

#[derive(RowKey)]
struct Key {
    #[hash(sha1)]
    id: Hashed<String>,
    #[hash(md5, len = 17)]
    other: Hashed<String>,
}

fn main() {}
