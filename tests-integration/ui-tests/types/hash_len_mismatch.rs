use rowkey::{Hashed, RowKey};

#[derive(RowKey)]
struct Key {
    #[hash(md5, len = 8)]
    customer: Hashed<String, 4>,
}

fn main() {}
