// `#[java]` takes no argument or `utf`; it chooses the field's bytes, so no other encoding or
// `desc` goes with it.
use rowkey::RowKey;

#[derive(RowKey)]
struct Legacy {
    #[java(utf8)]
    a: String,
    #[java]
    #[desc]
    b: i64,
    #[java]
    #[fixed(8)]
    c: String,
    #[rest]
    #[desc]
    d: String,
}

fn main() {}
