use rowkey::RowValue;

// Every cell stores its family's name: "data" costs three bytes more per cell than "d".
#[derive(RowValue)]
#[column(family = "data")]
struct Visit {
    #[column(name = "via")]
    referrer: String,
    #[column(family = "meta_info", name = "ua")]
    agent: String,
}

fn main() {}
