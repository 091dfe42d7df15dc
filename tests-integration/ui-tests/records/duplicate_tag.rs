use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(prefix(customer_id))]
enum Row {
    #[tag(1)]
    Customer { customer_id: u64 },
    #[tag(1)]
    Order { customer_id: u64, order_id: u64 },
    #[tag(256)]
    Line { customer_id: u64, line: u16 },
}

fn main() {}
