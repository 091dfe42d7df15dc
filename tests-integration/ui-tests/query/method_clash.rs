use rowkey::RowKey;

// The record type `Customer`'s selector `customer()` would clash with the prefix field's
// method `customer()`.
#[derive(RowKey)]
#[rowkey(query, prefix(customer))]
enum Record {
    #[tag(1)]
    Customer { customer: u64 },
    #[tag(2)]
    Order { customer: u64, order: u64 },
}

// A field named `build` would clash with `build()`.
#[derive(RowKey)]
#[rowkey(query)]
struct Plain {
    user: u64,
    build: u32,
}

fn main() {}
