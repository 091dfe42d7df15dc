use rowkey::RowKey;

/// A user type with no key encoding: every error about it points at the field.
struct Money(u64);

#[derive(RowKey)]
struct Key {
    account: u64,
    price: Money,
}

fn main() {}
