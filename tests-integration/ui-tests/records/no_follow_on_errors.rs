// A record-type enum with an error still gets stub impls: scans through its selectors and
// fields, explain and encoding report nothing but the attribute error.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(prefix(customer_id))]
enum Row {
    #[tag(1)]
    Customer { customer_id: u64 },
    #[tag(300)]
    Order { customer_id: u64, order_id: u64 },
}

fn main() {
    let ranges = Row::scan().customer_id(7u64).order().order_id(1u64..9).ranges();
    println!("{}", ranges.len());
    print!("{}", Row::explain(&[]));
    let _ = Row::Customer { customer_id: 1 }.to_bytes();
}
