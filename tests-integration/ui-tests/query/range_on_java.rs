// A signed or float `#[java]` field sorts negative values after positive ones, and
// `#[java(utf)]` sorts by length first: a value, not a range.
use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(query)]
struct Flurry {
    #[java]
    user_id: i64,
    #[java(utf)]
    app: String,
}

fn main() {
    let _ = Flurry::query().user_id(-5i64..5).build();
    let _ = Flurry::scan().user_id(1i64).app("a".."b").ranges();
}
