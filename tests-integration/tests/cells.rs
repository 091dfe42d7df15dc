//! Rows of cells on the embedded stores: the shared suite on memory and fjall, and property
//! tests of the composite layout against a brute-force model: for raw row keys full of `00`
//! bytes and prefixes of each other, random writes and clears, every scan range and column
//! selection returns exactly the model's rows and cells, forward and reverse.

mod store_suite;

use std::collections::BTreeMap;

use proptest::prelude::*;
use rowkey::store::{Cell, CellRow, Column, Columns, MemStore, RowWrite, Store};
use rowkey::{KeyRange, RowKey};

#[test]
fn typed_rows_in_memory() {
    store_suite::cells::exercise_cells(MemStore::new());
}

#[cfg(feature = "fjall")]
#[test]
fn typed_rows_on_fjall() {
    let dir = tempfile::tempdir().unwrap();
    let store = rowkey::store::FjallStore::open(dir.path(), "visits").unwrap();
    store_suite::cells::exercise_cells(store);
}

/// A user's own key-value store: only the required methods, so its rows of cells are the
/// provided methods' composite layout (what a third-party store gets for free).
struct KeysAndValues(MemStore);

impl Store for KeysAndValues {
    type Error = std::convert::Infallible;
    type Scan<'a> = <MemStore as Store>::Scan<'a>;

    fn put(&self, key: &[u8], value: &[u8]) -> Result<(), Self::Error> {
        self.0.put(key, value)
    }
    fn get(&self, key: &[u8]) -> Result<Option<rowkey::bytes::Bytes>, Self::Error> {
        self.0.get(key)
    }
    fn delete(&self, key: &[u8]) -> Result<(), Self::Error> {
        self.0.delete(key)
    }
    fn write_batch(
        &self,
        rows: &[rowkey::store::Row],
    ) -> Result<(), rowkey::store::BatchError<Self::Error>> {
        self.0.write_batch(rows)
    }
    fn scan(&self, range: &KeyRange) -> Self::Scan<'_> {
        self.0.scan(range)
    }
    fn scan_rev(&self, range: &KeyRange) -> Option<Self::Scan<'_>> {
        self.0.scan_rev(range)
    }
}

#[test]
fn typed_rows_on_a_users_key_value_store() {
    store_suite::cells::exercise_cells(KeysAndValues(MemStore::new()));
}

#[cfg(feature = "async")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_rows_in_memory_async() {
    store_suite::cells::exercise_cells_async(MemStore::new()).await;
}

/// A raw store's entries are not cells: reading them as cells is an error, not a guess.
#[test]
fn raw_rows_are_not_taken_for_cells() {
    let store = MemStore::new();
    store.put(b"plain", b"v").unwrap();
    let rows: Vec<_> = store
        .scan_rows(&KeyRange::new(b"", None), &Columns::all())
        .collect();
    assert_eq!(rows.len(), 1);
    let err = rows.into_iter().next().unwrap().unwrap_err().to_string();
    assert!(err.contains("not a cell"), "{err}");
}

type Model = BTreeMap<Vec<u8>, BTreeMap<(String, Vec<u8>), Vec<u8>>>;

fn key() -> impl Strategy<Value = Vec<u8>> {
    // Few distinct bytes, `00` among them: keys that are prefixes of each other and escape.
    prop::collection::vec(prop::sample::select(vec![0u8, 1, 2, 0xFF]), 0..4)
}

fn qualifier() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(vec![0u8, 1, b'q', 0xFF]), 0..3)
}

fn family() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["d".to_string(), "m".to_string(), "dd".to_string()])
}

fn columns() -> impl Strategy<Value = Columns> {
    prop_oneof![
        Just(Columns::all()),
        prop::collection::vec(family(), 0..3).prop_map(Columns::families),
        prop::collection::vec((family(), qualifier()), 0..4)
            .prop_map(|cs| Columns::exact(cs.into_iter().map(|(f, q)| Column::new(f, q)))),
        (family(), qualifier(), prop::option::of(qualifier()))
            .prop_map(|(f, s, e)| Columns::qualifier_range(f, s, e)),
    ]
}

#[derive(Debug, Clone)]
enum Op {
    Write {
        key: Vec<u8>,
        set: Vec<(String, Vec<u8>, Vec<u8>)>,
        clear: Vec<(String, Vec<u8>)>,
    },
    Delete(Vec<u8>),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (
            key(),
            prop::collection::vec((family(), qualifier(), prop::collection::vec(any::<u8>(), 0..3)), 0..4),
            prop::collection::vec((family(), qualifier()), 0..2),
        )
            .prop_map(|(key, set, clear)| Op::Write { key, set, clear }),
        1 => key().prop_map(Op::Delete),
    ]
}

fn apply(store: &impl Store, model: &mut Model, op: &Op) {
    match op {
        Op::Write { key, set, clear } => {
            let mut write = RowWrite::new(
                key.clone(),
                set.iter()
                    .map(|(f, q, v)| Cell::new(f.clone(), q.clone(), v.clone()))
                    .collect(),
            );
            write.clear = clear
                .iter()
                .map(|(f, q)| Column::new(f.clone(), q.clone()))
                .collect();
            store.write_rows(&[write]).unwrap();
            let row = model.entry(key.clone()).or_default();
            for (f, q, v) in set {
                row.insert((f.clone(), q.clone()), v.clone());
            }
            for (f, q) in clear {
                row.remove(&(f.clone(), q.clone()));
            }
        }
        Op::Delete(key) => {
            store.delete_row(key).unwrap();
            model.remove(key);
        }
    }
}

/// The model's answer: rows in `[start, end)` with their selected cells, empty rows left out.
fn expected(model: &Model, start: &[u8], end: Option<&[u8]>, columns: &Columns) -> Vec<CellRow> {
    model
        .iter()
        .filter(|(k, _)| k.as_slice() >= start && end.is_none_or(|e| k.as_slice() < e))
        .map(|(k, cells)| CellRow {
            key: k.clone(),
            cells: cells
                .iter()
                .filter(|((f, q), _)| columns.contains(f, q))
                .map(|((f, q), v)| Cell::new(f.clone(), q.clone(), v.clone()))
                .collect(),
        })
        .filter(|r| !r.cells.is_empty())
        .collect()
}

/// A row's value of a column, however the row is held.
type Lookup<'a> = dyn Fn(&str, &[u8]) -> Option<Vec<u8>> + 'a;

fn check(store: &impl Store, model: &Model, start: &[u8], end: Option<&[u8]>, columns: &Columns) {
    let range = KeyRange::new(start, end);
    let want = expected(model, start, end, columns);
    let got: Vec<CellRow> = store
        .scan_rows(&range, columns)
        .map(Result::unwrap)
        .collect();
    assert_eq!(got, want, "scan {start:?}..{end:?} {columns:?}");
    let back: Vec<CellRow> = store
        .scan_rows_rev(&range, columns)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut want_back = want.clone();
    want_back.reverse();
    assert_eq!(
        back, want_back,
        "reverse scan {start:?}..{end:?} {columns:?}"
    );
    // The rows as the store lends them (gathered in buffers it refills, for fjall): the same
    // keys, the same number of cells, the same value in every column the model has.
    let universe: Vec<(String, Vec<u8>)> = model
        .values()
        .flat_map(|cells| cells.keys().cloned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let seen = |key: &[u8], len: usize, value: &Lookup<'_>| {
        let values: Vec<_> = universe.iter().map(|(f, q)| value(f, q)).collect();
        (key.to_vec(), len, values)
    };
    let want_seen: Vec<_> = want
        .iter()
        .map(|r| {
            seen(&r.key, r.cells.len(), &|f, q| {
                r.value(f, q).map(<[u8]>::to_vec)
            })
        })
        .collect();
    for reverse in [false, true] {
        let lent: Vec<_> = store
            .scan_rows_lent(&range, columns, reverse, |k, cells| {
                seen(k, cells.len(), &|f, q| {
                    cells.value(f, q).map(<[u8]>::to_vec)
                })
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let mut want_seen = want_seen.clone();
        if reverse {
            want_seen.reverse();
        }
        assert_eq!(
            lent, want_seen,
            "lent scan {start:?}..{end:?} {columns:?} reverse {reverse}"
        );
    }
    for k in model.keys().chain(std::iter::once(&start.to_vec())) {
        let one = expected(model, k, None, columns)
            .into_iter()
            .find(|r| &r.key == k);
        assert_eq!(
            store.read_row(k, columns).unwrap(),
            one,
            "read {k:?} {columns:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn composite_layout_answers_like_the_model(
        ops in prop::collection::vec(op(), 1..30),
        start in key(),
        end in prop::option::of(key()),
        columns in columns(),
    ) {
        let store = MemStore::new();
        let mut model = Model::new();
        for op in &ops {
            apply(&store, &mut model, op);
        }
        check(&store, &model, &start, end.as_deref(), &columns);
    }
}

#[cfg(feature = "fjall")]
proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn composite_layout_on_fjall_answers_like_the_model(
        ops in prop::collection::vec(op(), 1..30),
        start in key(),
        end in prop::option::of(key()),
        columns in columns(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let store = rowkey::store::FjallStore::open(dir.path(), "t").unwrap();
        let mut model = Model::new();
        for op in &ops {
            apply(&store, &mut model, op);
        }
        check(&store, &model, &start, end.as_deref(), &columns);
    }
}

/// `Json<T>`: a column of any serde type, round-tripped through a typed table; bytes that are
/// not its JSON are an error naming the column.
#[cfg(feature = "json")]
#[test]
fn json_columns_round_trip_and_refuse_other_bytes() {
    use rowkey::store::{CellTable, RowWrite};
    use rowkey::{Json, RowKey, RowValue};

    #[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
    struct Address {
        street: String,
        zip: u32,
        lines: Vec<String>,
    }
    #[derive(RowValue, Debug, Clone, PartialEq)]
    #[column(family = "d")]
    struct Customer {
        #[column(name = "n")]
        name: String,
        #[column(name = "adr")]
        address: Json<Address>,
        #[column(name = "alt")]
        other: Option<Json<Address>>,
    }
    #[derive(RowKey, Debug, PartialEq)]
    struct Id {
        id: u64,
    }
    let table: CellTable<_, Id, Customer> = CellTable::new(MemStore::new());
    let c = Customer {
        name: "Ada".into(),
        address: Json(Address {
            street: "Main St".into(),
            zip: 12345,
            lines: vec!["c/o \"B\"".into()],
        }),
        other: None,
    };
    table.put(&Id { id: 1 }, &c).unwrap();
    assert_eq!(table.get(&Id { id: 1 }).unwrap(), Some(c));
    let key = Id { id: 1 }.to_bytes().unwrap().to_vec();
    let bad = RowWrite::new(key, vec![Cell::new("d", "adr", b"{\"street\":1}".to_vec())]);
    table.store().write_rows(&[bad]).unwrap();
    let err = table.get(&Id { id: 1 }).unwrap_err().to_string();
    assert!(err.contains("d:adr") && err.contains("JSON"), "{err}");
}

/// The value side's layout and the size budget are data for tools: JSON with every field.
#[test]
fn value_layouts_and_budgets_serialize() {
    use rowkey::{RowValue, SizeBudget};
    use store_suite::cells::Visit;
    use store_suite::Reading;

    let schema = serde_json::to_value(Visit::SCHEMA).unwrap();
    assert_eq!(schema["name"], "Visit");
    assert_eq!(schema["columns"][0]["family"], "d");
    assert_eq!(schema["columns"][0]["qualifier"], "via");
    assert_eq!(schema["columns"][6]["optional"], true);
    let key = Reading {
        sensor: 1,
        ts: 5,
        kind: "a".into(),
    };
    let budget = SizeBudget::of_row::<Reading, Visit>(&key);
    let json = serde_json::to_value(&budget).unwrap();
    let row = key.to_bytes().unwrap().len();
    // HBase: row + family + qualifier + 20 per cell.
    assert_eq!(json["cells"][0]["coordinates"][0], row + 1 + 3 + 20);
    assert_eq!(
        json["cells"].as_array().unwrap().len(),
        Visit::SCHEMA.columns.len()
    );
    assert_eq!(
        budget.per_record(rowkey::CellFormat::Bigtable),
        Visit::SCHEMA
            .columns
            .iter()
            .map(|c| row + c.family.len() + c.qualifier.len() + 8)
            .sum::<usize>()
    );
}
