use rowkey::RowKey;

// Each record type's scan selector is its name in snake_case: these cannot get one.
#[derive(RowKey)]
#[rowkey(prefix(id))]
enum Row {
    #[tag(1)]
    Tag { id: u64 },
    #[tag(2)]
    Ranges { id: u64 },
    #[tag(3)]
    LineItem { id: u64 },
    #[tag(4)]
    LINEItem { id: u64 },
    #[tag(5)]
    Crate { id: u64 },
}

fn main() {}
