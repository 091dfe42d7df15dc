use rowkey::RowKey;

#[derive(RowKey, Clone)]
struct Visit {
    user_id: u64,
    app_id: u32,
    #[reverse_ts]
    ts: u64,
}

// Without `ts`, two visits of one user to one app would share an entry: an index holds every
// field of its record. An error at the attribute.
#[derive(RowKey)]
#[rowkey(index_of = Visit)]
struct AppUser {
    app_id: u32,
    user_id: u64,
}

fn main() {}
