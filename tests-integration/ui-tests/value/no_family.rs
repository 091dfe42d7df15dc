use rowkey::RowValue;

#[derive(RowValue)]
struct Visit {
    #[column(name = "via")]
    referrer: String,
}

fn main() {}
