use rowkey::RowKey;

#[derive(RowKey, Clone)]
struct UserApp {
    user_id: u64,
    app_id: u32,
}

// `app_id` is a `u32` in the record: an error at the field.
#[derive(RowKey)]
#[rowkey(index_of = UserApp)]
struct AppUser {
    app_id: u64,
    user_id: u64,
}

fn main() {}
