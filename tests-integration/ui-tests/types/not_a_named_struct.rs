use rowkey::RowKey;

#[derive(RowKey)]
struct Tuple(u64, u32);

#[derive(RowKey)]
struct Unit;

#[derive(RowKey)]
union Bits {
    a: u32,
}

fn main() {}
