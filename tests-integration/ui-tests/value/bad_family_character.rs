use rowkey::RowValue;

#[derive(RowValue)]
#[column(family = "d:x")]
struct Visit {
    #[column(name = "via")]
    referrer: String,
}

fn main() {}
