use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(query)]
struct Install {
    user: u64,
    #[reverse]
    seq: u32,
}

fn main() {
    // `#[reverse]` does not keep order: a value, not a range.
    let _ = Install::query().seq(1u32..3).build();
}
