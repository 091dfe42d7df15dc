use rowkey::RowKey;

#[derive(RowKey)]
struct Key<'a> {
    #[desc]
    host: &'a str,
}

fn main() {}
