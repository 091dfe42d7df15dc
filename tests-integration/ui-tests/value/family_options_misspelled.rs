use rowkey::RowValue;

// A misspelled option and a value outside an option's choices: each named, with the choices
// and the nearest spelling; a duration without a unit; a count HBase cannot store.
#[derive(RowValue)]
#[column(family = "d")]
#[family(name = "d", version = 3, compression = "snapy", ttl = "30", block_size = 0)]
struct Event {
    message: String,
}

fn main() {}
