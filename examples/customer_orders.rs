//! The HBase guide's customer/order case study: customers, orders, shipments and line items in
//! one table, sharing the customer id as the entity prefix, told apart by a record-type tag,
//! each with real columns (a customer's name and address, an order's date, a line's quantity
//! and price) in one-letter families with short qualifiers. Writes every record type through
//! its own typed view of one store, then reads everything about one customer with one scan,
//! decoding each row by its tag, and reads a projection (names only) of the customers.
//!
//! Run: `cargo run --example customer_orders`

use std::error::Error;

use rowkey::store::{CellTable, Columns, MemStore, Store};
use rowkey::{fmt::binary, RowKey, RowValue, SizeBudget};

/// `[salt][customer_id][tag][record fields]`: every record of one customer is contiguous, in one
/// of 8 salt buckets, so one scan returns all of it.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(prefix(customer_id))]
enum CustomerTable {
    #[tag(1)]
    Customer {
        #[salt(buckets = 8)]
        customer_id: u64,
    },
    #[tag(2)]
    Order {
        #[salt(buckets = 8)]
        customer_id: u64,
        order_id: u64,
    },
    #[tag(3)]
    Shipping {
        #[salt(buckets = 8)]
        customer_id: u64,
        order_id: u64,
        ship: u16,
    },
    #[tag(4)]
    Line {
        #[salt(buckets = 8)]
        customer_id: u64,
        order_id: u64,
        ship: u16,
        line: u16,
    },
}

/// A customer's columns: family `d`, qualifiers of one to three letters.
#[derive(RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
struct Customer {
    #[column(name = "n")]
    name: String,
    #[column(name = "adr")]
    address: String,
    #[column(name = "vip")]
    vip: Option<bool>,
}

/// A projection of [`Customer`]: the name alone, read without the other columns.
#[derive(RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
struct CustomerName {
    #[column(name = "n")]
    name: String,
}

#[derive(RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
struct Order {
    /// Days since the epoch.
    #[column(name = "dt")]
    date: u32,
    #[column(name = "st")]
    status: String,
}

#[derive(RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
struct Shipping {
    #[column(name = "via")]
    carrier: String,
}

#[derive(RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
struct Line {
    #[column(name = "sku")]
    sku: String,
    #[column(name = "q")]
    quantity: u32,
    /// Cents.
    #[column(name = "p")]
    price: i64,
}

fn main() -> Result<(), Box<dyn Error>> {
    let store = MemStore::new();
    // One store, one typed view per record type.
    let customers: CellTable<_, CustomerTable, Customer> = CellTable::new(&store);
    let orders: CellTable<_, CustomerTable, Order> = CellTable::new(&store);
    let shipments: CellTable<_, CustomerTable, Shipping> = CellTable::new(&store);
    let lines: CellTable<_, CustomerTable, Line> = CellTable::new(&store);

    for customer_id in [41u64, 42, 43] {
        let customer = Customer {
            name: format!("Customer {customer_id}"),
            address: format!("{customer_id} Main St"),
            vip: (customer_id == 42).then_some(true),
        };
        customers.put(&CustomerTable::Customer { customer_id }, &customer)?;
        for order_id in 1..=2u64 {
            let order = Order {
                date: 19_000 + order_id as u32,
                status: if order_id == 1 { "shipped" } else { "open" }.into(),
            };
            orders.put(
                &CustomerTable::Order {
                    customer_id,
                    order_id,
                },
                &order,
            )?;
            for ship in 1..=2u16 {
                let key = CustomerTable::Shipping {
                    customer_id,
                    order_id,
                    ship,
                };
                shipments.put(
                    &key,
                    &Shipping {
                        carrier: ["ups", "dhl"][ship as usize - 1].into(),
                    },
                )?;
                for line in 1..=2u16 {
                    let key = CustomerTable::Line {
                        customer_id,
                        order_id,
                        ship,
                        line,
                    };
                    let item = Line {
                        sku: format!("SKU-{order_id}{ship}{line}"),
                        quantity: u32::from(line),
                        price: 1999 * i64::from(line),
                    };
                    lines.put(&key, &item)?;
                }
            }
        }
    }

    // Everything about customer 42 with one scan of its rows, every column; each row is
    // decoded by its tag, and its cells by that record type's columns.
    let everything = CustomerTable::scan().customer_id(42).ranges();
    let mut rows = 0;
    println!(
        "Everything about customer 42, one scan ({} range):",
        everything.len()
    );
    for range in &everything {
        for row in store.scan_rows(range, &Columns::all()) {
            let row = row?;
            rows += 1;
            let key = CustomerTable::decode(&row.key)?;
            let columns = match &key {
                CustomerTable::Customer { .. } => format!("{:?}", Customer::from_row(&row)?),
                CustomerTable::Order { .. } => format!("{:?}", Order::from_row(&row)?),
                CustomerTable::Shipping { .. } => format!("{:?}", Shipping::from_row(&row)?),
                CustomerTable::Line { .. } => format!("{:?}", Line::from_row(&row)?),
            };
            println!("  {:<24} {columns}", binary(&row.key));
        }
    }
    assert_eq!(rows, 1 + 2 + 4 + 8);

    // The line items of customer 42's order 2, typed: the record-type selector narrows the
    // scan to tag 4, the order id to one order.
    let ranges = CustomerTable::scan()
        .customer_id(42)
        .line()
        .order_id(2)
        .ranges();
    let items: Vec<(CustomerTable, Line)> = lines.scan(&ranges).collect::<Result<_, _>>()?;
    let total: i64 = items
        .iter()
        .map(|(_, l)| l.price * i64::from(l.quantity))
        .sum();
    println!(
        "\nCustomer 42's order 2: {} line items, {total} cents",
        items.len()
    );
    assert_eq!(items.len(), 4);

    // A projection: the names of every customer, no other column read.
    let all_customers = CustomerTable::scan().ranges();
    let names: Vec<String> = customers
        .scan_as::<CustomerName>(&all_customers)
        .map(|r| r.map(|(_, c)| c.name))
        .collect::<Result<_, _>>()?;
    println!("\nCustomers (the `d:n` column only): {names:?}");
    assert_eq!(names.len(), 3);

    // A `None` clears its column.
    let key = CustomerTable::Customer { customer_id: 42 };
    let mut c = customers.get(&key)?.expect("written above");
    c.vip = None;
    customers.put(&key, &c)?;
    assert_eq!(customers.get(&key)?.and_then(|c| c.vip), None);

    println!("\nThe layouts:\n\n{}", CustomerTable::SCHEMA.to_markdown());
    println!("{}", Line::SCHEMA.to_markdown());
    let line_key = CustomerTable::Line {
        customer_id: 42,
        order_id: 2,
        ship: 1,
        line: 1,
    };
    println!(
        "{}",
        SizeBudget::of_row::<CustomerTable, Line>(&line_key).to_markdown(10_000_000)
    );
    Ok(())
}
