// Tags are stored in every key: never inferred from declaration order.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(prefix(customer_id))]
enum Row {
    #[tag(1)]
    Customer { customer_id: u64 },
    Order { customer_id: u64, order_id: u64 },
}

fn main() {}
