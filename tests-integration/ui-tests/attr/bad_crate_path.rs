use rowkey::RowKey;

#[derive(RowKey)]
#[rowkey(crate = "not a path")]
struct A {
    id: u64,
}

#[derive(RowKey)]
#[rowkey(crate = "rowkey", crate = "rowkey")]
struct B {
    id: u64,
}

fn main() {}
