use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(query)]
struct Install {
    user: u64,
    app: String,
}

fn main() {
    let _ = Install::query().user("seven").build();
}
