use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(prefix(customer))]
enum Row {
    #[tag(1)]
    Customer {
        #[salt(buckets = 16, hash = "phoenix")]
        customer: u64,
    },
    #[tag(2)]
    Order {
        #[salt(buckets = 16, hash = "phoenix")]
        customer: u64,
        order: u64,
    },
}

fn main() {}
