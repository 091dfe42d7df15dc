use rowkey::RowKey;
use std::hint::black_box;

#[derive(RowKey)]
struct Unsalted<'a> {
    user_id: u64,
    #[fixed(16)]
    event_type: &'a str,
    #[reverse_ts]
    ts: u64,
}

#[inline(never)]
fn gen(u: u64, t: &str, t0: u64, t1: u64) -> rowkey::KeyRanges {
    Unsalted::scan().user_id(u).event_type(t).ts(t0..t1).ranges()
}

fn main() {
    let mut n = 0;
    for i in 0..100_000u64 {
        let r = gen(black_box(7_000_123), black_box("click"), black_box(1_699_000_000_000 + i), black_box(1_700_000_000_000));
        n += r.len();
        black_box(&r);
    }
    println!("{n}");
}
