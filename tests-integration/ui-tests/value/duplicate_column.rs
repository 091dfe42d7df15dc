use rowkey::RowValue;

#[derive(RowValue)]
#[column(family = "d")]
struct Visit {
    #[column(name = "v")]
    referrer: String,
    #[column(name = "v")]
    via: String,
    // The default name is the field's: `v` again, in another family it would be fine.
    #[column(family = "m")]
    v: u32,
}

fn main() {}
