use rowkey::RowKey;

#[derive(RowKey)]
enum Row {
    #[tag(1)]
    Customer(u64),
}

#[derive(RowKey)]
#[rowkey(prefix(id))]
struct NotAnEnum {
    id: u64,
}

fn main() {}
