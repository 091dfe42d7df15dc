use rowkey::RowValue;

// A declaration must name a family a column uses, once, by name.
#[derive(RowValue)]
#[column(family = "d")]
#[family(name = "d", ttl = "7d")]
#[family(name = "d", versions = 2)]
#[family(name = "e")]
#[family(versions = 2)]
struct Event {
    message: String,
}

fn main() {}
