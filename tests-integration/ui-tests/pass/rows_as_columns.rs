//! `#[row_span(N)]` on `u32` and `u64`, with a salt over the fields before it, `allow_hotspot`
//! for a time-led key, and the offset widths 1, 2, 4 and 8 bytes.

use rowkey::{RowKey, RowsAsColumns};

#[derive(RowKey, Debug, PartialEq)]
struct Minute {
    #[salt(buckets = 4, hash = "java")]
    sensor: u32,
    #[row_span(60)]
    second: u32,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(allow_hotspot)]
struct Day {
    #[row_span(86_400_000_000)]
    micros: u64,
    seq: u16,
}

#[derive(RowKey, Debug, PartialEq)]
struct Hour {
    host: String,
    #[row_span(3600)]
    second: u64,
}

#[derive(RowKey, Debug, PartialEq)]
struct Block {
    host: String,
    #[row_span(100_000)]
    n: u64,
}

fn main() {
    let m = Minute { sensor: 1, second: 125 };
    let b = m.to_bytes().unwrap();
    assert_eq!(Minute::split_key(&b).unwrap().1, [5]);
    let d = Day { micros: 86_400_000_001, seq: 2 };
    let b = d.to_bytes().unwrap();
    assert_eq!(Day::split_key(&b).unwrap().1, [0, 0, 0, 0, 0, 0, 0, 1, 0, 2]);
    let h = Hour { host: "h".into(), second: 3601 };
    assert_eq!(Hour::split_key(&h.to_bytes().unwrap()).unwrap().1, [0, 1]);
    let k = Block { host: "h".into(), n: 100_001 };
    assert_eq!(Block::split_key(&k.to_bytes().unwrap()).unwrap().1, [0, 0, 0, 1]);
    assert_eq!(Block::SPAN, 100_000);
    assert_eq!(Block::SPAN_FIELD, "n");
}
