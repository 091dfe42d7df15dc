// The salt must come from the shared prefix, so every record of an entity shares a bucket.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(prefix(customer_id))]
enum Row {
    #[tag(1)]
    Customer { customer_id: u64 },
    #[tag(2)]
    Order {
        customer_id: u64,
        #[salt(buckets = 8)]
        order_id: u64,
    },
}

fn main() {}
