use rowkey::RowKey;

// `uid` names the lookup table's kind; without it, or with a misspelled key, it is an error.
#[derive(RowKey)]
struct Key {
    #[uid]
    host: u16,
    #[uid(knd = "event")]
    event: u8,
    #[uid(kind = "")]
    user: u32,
    ts: u64,
}

fn main() {}
