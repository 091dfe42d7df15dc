use rowkey::RowValue;

// HBase refuses MIN_VERSIONS above VERSIONS, ignores MIN_VERSIONS without a TTL, and
// KEEP_DELETED_CELLS => 'TTL' without a TTL would keep deleted cells forever.
#[derive(RowValue)]
#[column(family = "a")]
#[family(name = "a", versions = 2, min_versions = 3, ttl = "1d")]
#[family(name = "b", versions = 3, min_versions = 1)]
#[family(name = "c", keep_deleted = "ttl")]
struct Event {
    message: String,
    #[column(family = "b")]
    count: i64,
    #[column(family = "c")]
    note: String,
}

fn main() {}
