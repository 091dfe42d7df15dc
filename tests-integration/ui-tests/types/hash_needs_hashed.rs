use rowkey::{Hashed, RowKey};

#[derive(RowKey)]
struct Key {
    #[hash(md5)]
    customer: String,
    unhashed: Hashed<u64>,
}

fn main() {}
