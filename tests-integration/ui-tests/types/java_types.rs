// `#[java]` writes Java numbers, `#[java(utf)]` an owned Java string, `#[rest]` text or bytes:
// each refused elsewhere at the attribute (or the type), saying what to write.
use rowkey::RowKey;

#[derive(RowKey)]
struct Legacy<'a> {
    #[java]
    name: String,
    #[java]
    flag: bool,
    #[java]
    wide: i128,
    #[java(utf)]
    count: u32,
    #[java(utf)]
    borrowed: &'a str,
    #[rest]
    tail: u64,
}

fn main() {}
