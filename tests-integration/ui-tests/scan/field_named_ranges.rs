use rowkey::RowKey;

#[derive(RowKey)]
struct Listing {
    shop: u32,
    ranges: u8,
}

#[derive(RowKey)]
enum Rows {
    #[tag(1)]
    Shop { shop: u32 },
    #[tag(2)]
    Range { shop: u32, r#ranges: u16 },
}

fn main() {}
