use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(query, prefix(customer))]
enum Record {
    #[tag(1)]
    Customer { customer: u64 },
    #[tag(2)]
    Order { customer: u64, order: u64 },
}

fn main() {}
