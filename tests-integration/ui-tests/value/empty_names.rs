use rowkey::RowValue;

#[derive(RowValue)]
#[column(family = "")]
struct Visit {
    #[column(name = "")]
    referrer: String,
}

fn main() {}
