use rowkey::RowKey;

#[derive(RowKey, Clone)]
struct UserApp {
    user_id: u64,
    app_id: u32,
}

// `app` is not a field of `UserApp`: an error at the field.
#[derive(RowKey)]
#[rowkey(index_of = UserApp)]
struct AppUser {
    app: u32,
    user_id: u64,
}

fn main() {}
