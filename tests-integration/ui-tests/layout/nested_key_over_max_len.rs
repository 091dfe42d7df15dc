// The nested key's width is only known to the compiler: the limit is checked in const eval.
use rowkey::RowKey;

#[derive(RowKey)]
struct Inner {
    a: u64,
    b: u64,
}

#[derive(RowKey)]
#[rowkey(key_limit = 10)]
struct Outer {
    inner: Inner,
}

fn main() {}
