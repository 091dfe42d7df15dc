use rowkey::RowKey;

#[derive(RowKey)]
struct Key<T> {
    id: T,
}

fn main() {}
