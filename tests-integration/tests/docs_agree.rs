//! The documents say what the derive does: a statement that an attribute is refused where the
//! derive accepts it (or the reverse) misleads exactly the users who read the docs first. Each
//! claim the docs once got wrong is pinned here twice: the phrase must not come back, and the
//! key it wrongly refused compiles and works.

use rowkey::store::{MemStore, Table};
use rowkey::RowKey;

/// The documents a user reads: the attribute reference, the guide, the derive's rules.
fn documents() -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "rowkey/src/attributes.rs",
            include_str!("../../rowkey/src/attributes.rs"),
        ),
        (
            "rowkey-derive/src/validate.rs",
            include_str!("../../rowkey-derive/src/validate.rs"),
        ),
        (
            "rowkey/guide/scans.md",
            include_str!("../../rowkey/guide/scans.md"),
        ),
        (
            "rowkey/guide/keys.md",
            include_str!("../../rowkey/guide/keys.md"),
        ),
        (
            "rowkey/guide/existing_tables.md",
            include_str!("../../rowkey/guide/existing_tables.md"),
        ),
        ("FORMAT.md", include_str!("../../FORMAT.md")),
    ]
}

/// Phrases that said `#[rowkey(query)]` is refused on record-type enums (it works: below).
const WRONG: &[&str] = &[
    "Refused on a record-type enum and on a\n//! key with lifetimes",
    "a record-type enum's\n/// query (the tag as a field) is not built yet",
    "query (the tag as a field) is not built yet",
];

#[test]
fn no_document_repeats_a_refusal_the_derive_does_not_make() {
    for (name, text) in documents() {
        for phrase in WRONG {
            assert!(
                !text.contains(phrase),
                "{name} says something the derive does not do: {phrase:?}"
            );
        }
        // Every line that calls `#[rowkey(query)]` refused names only what is refused: keys
        // with lifetimes.
        for line in text.lines() {
            let l = line.to_lowercase();
            if l.contains("query") && l.contains("refused on") && l.contains("enum") {
                panic!("{name}: {line}");
            }
        }
    }
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(prefix(customer), query)]
enum Row {
    #[tag(1)]
    Profile { customer: u32 },
    #[tag(2)]
    Order { customer: u32, order: u32 },
}

#[test]
fn a_query_on_a_record_type_enum_compiles_and_reads() {
    let table = Table::<_, Row>::new(MemStore::new());
    let rows: Vec<Row> = (0..10)
        .flat_map(|c| {
            [Row::Profile { customer: c }]
                .into_iter()
                .chain((0..3).map(move |o| Row::Order {
                    customer: c,
                    order: o,
                }))
        })
        .collect();
    table
        .put_batch(rows.iter().map(|k| (k, b"".as_slice())))
        .unwrap();
    let orders = table.query(&Row::query().tag(2u8).build()).count();
    assert_eq!(orders, 30);
}
