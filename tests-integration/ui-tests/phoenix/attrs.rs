// Every #[phoenix] rule the derive sees, each at its token: unknown keys, desc without key,
// a key column in a family, a column named twice, the marker's name, salt_buckets out of
// range, a quote in a name, no key at all.
use rowkey::PhoenixRow;

#[derive(PhoenixRow)]
#[phoenix(table = "t\"x", salt_buckets = 300, shards = 2)]
struct Bad {
    #[phoenix(key, family = "d")]
    a: i64,
    #[phoenix(desc)]
    b: i64,
    #[phoenix(name = "a")]
    c: i64,
    #[phoenix(name = "_0")]
    d: i64,
    #[phoenix(sorted)]
    e: i64,
}

#[derive(PhoenixRow)]
struct NoKey {
    a: i64,
}

#[derive(PhoenixRow)]
struct Tuple(i64);

fn main() {}
