// A field named twice in a record type is rustc's error (E0124), reported once: the derive adds
// nothing that fails beside it, and the type's scan builder and constants still resolve.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(prefix(customer_id))]
enum Row {
    #[tag(1)]
    Customer { customer_id: u64 },
    #[tag(2)]
    Order { customer_id: u64, order_id: u64, order_id: u64 },
}

fn main() {
    let _ = Row::scan().customer_id(7u64).ranges();
    let _ = Row::MAX_LEN;
}
