use rowkey::RowValue;

struct Opaque;

#[derive(RowValue)]
#[column(family = "d")]
struct Visit {
    #[column(name = "o")]
    opaque: Opaque,
    #[column(name = "p")]
    maybe: Option<Opaque>,
}

fn main() {}
