//! The HBase guide's customer/order case study: customers, orders, shipments and line items in
//! one table, sharing the customer id as the entity prefix, told apart by a record-type tag.
//! Writes records of every type into a sorted table (an in-memory `BTreeMap`, ordered exactly
//! as HBase or Bigtable order rows), then reads them back with one scan each.
//!
//! Run: `cargo run --example customer_orders`

use std::collections::BTreeMap;
use std::error::Error;

use rowkey::{fmt::binary, KeyRanges, RowKey};

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

type Table = BTreeMap<Vec<u8>, String>;

/// The rows of every range, in key order: what HBase's `Scan` with these start/stop rows returns.
fn scan<'t>(table: &'t Table, ranges: &KeyRanges) -> Vec<(&'t [u8], &'t str)> {
    let mut out = Vec::new();
    for r in ranges {
        let end = r.end().map(<[u8]>::to_vec);
        for (k, v) in table.range(r.start().to_vec()..) {
            if end.as_ref().is_some_and(|e| k >= e) {
                break;
            }
            out.push((k.as_slice(), v.as_str()));
        }
    }
    out
}

fn show(title: &str, ranges: &KeyRanges, rows: &[(&[u8], &str)]) -> Result<(), Box<dyn Error>> {
    println!(
        "\n{title}: {} range(s), {} row(s)",
        ranges.len(),
        rows.len()
    );
    for (key, value) in rows {
        let record = format!("{:?}", CustomerTable::decode(key)?);
        println!("  {record:<58} {value:<11} {}", binary(key));
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut table = Table::new();
    let mut put = |row: CustomerTable, value: String| -> Result<(), Box<dyn Error>> {
        table.insert(row.to_bytes()?.to_vec(), value);
        Ok(())
    };
    for customer_id in [41u64, 42, 43] {
        put(
            CustomerTable::Customer { customer_id },
            format!("customer {customer_id}"),
        )?;
        for order_id in 1..=2u64 {
            put(
                CustomerTable::Order {
                    customer_id,
                    order_id,
                },
                format!("order {order_id}"),
            )?;
            for ship in 1..=2u16 {
                put(
                    CustomerTable::Shipping {
                        customer_id,
                        order_id,
                        ship,
                    },
                    format!("shipment {ship}"),
                )?;
                for line in 1..=2u16 {
                    put(
                        CustomerTable::Line {
                            customer_id,
                            order_id,
                            ship,
                            line,
                        },
                        format!("line {line}"),
                    )?;
                }
            }
        }
    }
    println!(
        "wrote {} rows for 3 customers, 4 record types, in one table",
        table.len()
    );

    let everything = CustomerTable::scan().customer_id(42).ranges();
    let rows = scan(&table, &everything);
    assert_eq!(rows.len(), 1 + 2 + 4 + 8);
    show("Everything about customer 42, one scan", &everything, &rows)?;

    let orders = CustomerTable::scan().customer_id(42).order().ranges();
    let rows = scan(&table, &orders);
    assert_eq!(rows.len(), 2);
    show("Orders of customer 42", &orders, &rows)?;

    let lines = CustomerTable::scan()
        .customer_id(42)
        .line()
        .order_id(2)
        .ranges();
    let rows = scan(&table, &lines);
    assert_eq!(rows.len(), 4);
    show("Line items of customer 42's order 2", &lines, &rows)?;

    println!("\nThe layout:\n\n{}", CustomerTable::SCHEMA.to_markdown());
    Ok(())
}
