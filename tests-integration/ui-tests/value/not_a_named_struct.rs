use rowkey::RowValue;

#[derive(RowValue)]
#[column(family = "d")]
struct Pair(String, u32);

#[derive(RowValue)]
enum Kind {
    A,
}

fn main() {}
