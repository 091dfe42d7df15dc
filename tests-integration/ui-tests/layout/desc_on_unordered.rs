use rowkey::RowKey;

#[derive(RowKey)]
struct Key {
    #[desc]
    #[reverse]
    id: u64,
}

fn main() {}
