// A key with an error still gets stub impls: only the attribute error is reported, not errors
// at every use of the type.
use rowkey::RowKey;

#[derive(RowKey, Debug)]
struct Key {
    #[fixed(0)]
    name: String,
}

fn main() {
    let k = Key { name: String::new() };
    let _ = k.to_bytes();
    let _ = Key::decode(&[]);
    let _ = [0u8; Key::MAX_LEN];
    println!("{}", Key::SCHEMA.to_markdown());
    for range in &Key::scan().name("a").ranges() {
        println!("{:?}", range.start());
    }
    let _ = Key::scan().ranges().len();
    print!("{}", Key::explain(&[1, 2]));
}
