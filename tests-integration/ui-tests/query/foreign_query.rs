// A query belongs to its key: one built for `Visit` does not read a table of `Install` keys
// (it would match nothing, silently). An untyped `rowkey::Query` still reads any table.
use rowkey::store::{MemStore, Table};
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(query)]
struct Visit {
    user: u32,
    day: u16,
}

#[derive(RowKey)]
#[rowkey(query)]
struct Install {
    user: u32,
    app: u16,
}

fn main() {
    let table = Table::<_, Install>::new(MemStore::new());
    let _ = table.query(&Visit::query().day(3u16).build());
    // Untyped, on purpose: compiles.
    let untyped: rowkey::Query = Visit::query().day(3u16).build().into_query();
    let _ = table.query(&untyped);
}
