use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(query)]
struct HostLog<'a> {
    host: &'a str,
    #[reverse_ts]
    ts: i64,
}

fn main() {}
