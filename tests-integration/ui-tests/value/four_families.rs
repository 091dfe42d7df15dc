use rowkey::RowValue;

#[derive(RowValue)]
struct Visit {
    #[column(family = "a", name = "x")]
    a: u8,
    #[column(family = "b", name = "x")]
    b: u8,
    #[column(family = "c", name = "x")]
    c: u8,
    #[column(family = "e", name = "x")]
    e: u8,
}

fn main() {}
