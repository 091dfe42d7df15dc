// `hash_prefix` hashes a field of a struct key: the field must exist, a key has a salt or a
// hash prefix (not both), a binary key's prefix is at most 16 bytes and never hex (`upper`).
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(delimiter = ':', hash_prefix(md5, of = message))]
struct NoSuchField {
    #[decimal]
    message_id: u64,
}

#[derive(RowKey)]
#[rowkey(hash_prefix(md5, of = user, upper, len = 20))]
struct Binary {
    #[salt(buckets = 4)]
    user: u64,
}

#[derive(RowKey)]
#[rowkey(hash_prefix(of = user))]
struct NoHash {
    user: u64,
}

fn main() {}
