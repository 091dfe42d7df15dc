use rowkey::RowValue;

#[derive(RowValue)]
#[column(family = "d", name = "x", short)]
struct Visit {
    #[column(qualifier = "via", allow_long_family)]
    referrer: String,
    #[column(name = "a", name = "b")]
    other: String,
}

fn main() {}
