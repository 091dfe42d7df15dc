use rowkey::RowKey;

#[derive(RowKey, Clone)]
struct UserApp {
    user_id: u64,
}

#[derive(RowKey)]
#[rowkey(prefix(user_id), index_of = UserApp)]
enum Rows {
    #[tag(1)]
    A { user_id: u64 },
}

fn main() {}
