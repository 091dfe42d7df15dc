// Every record type must start with the same shared prefix: same names, types, attributes.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(prefix(customer_id, region))]
enum Row {
    #[tag(1)]
    Customer { customer_id: u64, #[fixed(2)] region: String },
    #[tag(2)]
    Order { customer_id: u32, #[fixed(2)] region: String, order_id: u64 },
    #[tag(3)]
    Line { customer_id: u64, region: String, line: u16 },
    #[tag(4)]
    Note { region: String, customer_id: u64 },
}

fn main() {}
