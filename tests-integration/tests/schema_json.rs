//! The layout as data is an interface for tools: `T::SCHEMA` serialized to JSON must not change
//! by accident. The JSON of a few representative keys is compared with checked-in files
//! (`tests/golden/*.json`); `ROWKEY_BLESS=1` rewrites them after a deliberate change.

mod common;

use rowkey::{RowKey, Schema};

#[derive(RowKey)]
#[rowkey(prefix(customer_id))]
enum CustomerRow {
    #[tag(1)]
    Customer {
        #[salt(buckets = 8)]
        customer_id: u64,
    },
    #[tag(2)]
    Order {
        #[salt(buckets = 8)]
        customer_id: u64,
        #[desc]
        order_id: u32,
        #[max_len(12)]
        note: String,
    },
}

#[derive(RowKey)]
#[rowkey(allow_hotspot)]
struct Nested<'a> {
    #[timestamp]
    at: u64,
    inner: common::Event,
    tag: &'a str,
    flag: Option<bool>,
}

fn check(name: &str, schema: &Schema) {
    let json = serde_json::to_string_pretty(schema).unwrap() + "\n";
    let path = format!("{}/tests/golden/{name}.json", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("ROWKEY_BLESS").is_some() {
        std::fs::write(&path, &json).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        json == want,
        "{name}: SCHEMA's JSON changed (ROWKEY_BLESS=1 to accept):\n{json}"
    );
}

#[test]
fn schema_json_is_stable() {
    check("event", common::Event::SCHEMA);
    check("customer_row", CustomerRow::SCHEMA);
    check("nested", Nested::SCHEMA);
}
