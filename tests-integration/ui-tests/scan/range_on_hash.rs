// A hashed field keeps no order: equality only.
use rowkey::{Hashed, RowKey};

#[derive(RowKey)]
struct Order {
    #[hash(md5)]
    customer: Hashed<String>,
    order: u32,
}

fn main() {
    let c = Hashed::new("c1".to_string());
    let _ = Order::scan().customer(c.clone()).order(1..5).ranges(); // fine
    let _ = Order::scan().customer(c.clone()..c).ranges();
}
