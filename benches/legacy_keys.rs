//! Keys Java code wrote (FORMAT.md §2.15-§2.17) against rowkey's own layouts of the same fields,
//! timed in one run: the encode of each legacy layout over the encode of the native layout it
//! would be moved to (issue 57's bound: within 1.5x), and the decodes beside them. Numbers are
//! written as digits straight into the buffer, nothing is allocated (tests/alloc.rs checks it).
//!
//! - Flurry: `writeLong` + `writeUTF` (`#[java] u64`, `#[java(utf)] String`) against the native
//!   `u64` + escaped text;
//! - the HBase guide's `Bytes.toBytes` concatenation with a string last (`#[java]`, `#[rest]`)
//!   against the native layout;
//! - the salting article's text key `date:time:message_id` (`#[decimal(width = 6)]`,
//!   `#[decimal]`) against the native integers, and with its uppercase hex MD5 prefix against
//!   the native layout salted by MD5 (both hash the key once).
//!
//! Run: `cargo bench -p rowkey-benches --bench legacy_keys` (about a minute).

#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use common::median_ns;
use criterion::Criterion;
use rowkey::RowKey;

#[derive(RowKey)]
struct FlurryJava {
    #[java]
    user_id: u64,
    #[java(utf)]
    application_id: String,
}

#[derive(RowKey)]
struct FlurryNative {
    user_id: u64,
    application_id: String,
}

#[derive(RowKey)]
struct ConcatJava {
    #[java]
    shard: i32,
    #[java]
    seq: i64,
    #[rest]
    name: String,
}

#[derive(RowKey)]
struct ConcatNative {
    shard: i32,
    seq: i64,
    name: String,
}

#[derive(RowKey)]
#[rowkey(delimiter = ':')]
#[allow(dead_code)] // fields read by the hand-written baseline only
struct MessageText {
    #[decimal(width = 6)]
    date: u32,
    #[decimal(width = 6)]
    time: u32,
    #[decimal]
    message_id: u64,
}

#[derive(RowKey)]
struct MessageNative {
    date: u32,
    time: u32,
    message_id: u64,
}

#[derive(RowKey)]
#[rowkey(delimiter = ':', hash_prefix(md5, of = message_id, upper))]
struct MessageSalted {
    #[decimal(width = 6)]
    date: u32,
    #[decimal(width = 6)]
    time: u32,
    #[decimal]
    message_id: u64,
}

#[derive(RowKey)]
#[rowkey(allow_hotspot)]
struct MessageNativeSalted {
    #[salt(buckets = 16)]
    message_id: u64,
    date: u32,
    time: u32,
}

/// The pairs timed: (group, legacy, native).
const PAIRS: &[(&str, &str, &str)] = &[
    ("flurry", "java", "native"),
    ("concat", "java", "native"),
    ("message", "text", "native"),
    ("message_salted", "md5_hex_prefix", "md5_salt"),
];

fn benches(c: &mut Criterion) {
    let mut buf = [0u8; 256];
    let flurry_j: Vec<FlurryJava> = (0..256u64)
        .map(|i| FlurryJava {
            user_id: i * 7_919,
            application_id: format!("app-{i}"),
        })
        .collect();
    let flurry_n: Vec<FlurryNative> = (0..256u64)
        .map(|i| FlurryNative {
            user_id: i * 7_919,
            application_id: format!("app-{i}"),
        })
        .collect();
    let concat_j: Vec<ConcatJava> = (0..256i64)
        .map(|i| ConcatJava {
            shard: (i % 7) as i32 - 3,
            seq: i * 31 - 4_000,
            name: format!("user_{i}"),
        })
        .collect();
    let concat_n: Vec<ConcatNative> = (0..256i64)
        .map(|i| ConcatNative {
            shard: (i % 7) as i32 - 3,
            seq: i * 31 - 4_000,
            name: format!("user_{i}"),
        })
        .collect();
    let text: Vec<MessageText> = (0..256u64)
        .map(|i| MessageText {
            date: 230_601 + (i % 30) as u32,
            time: (i * 37 % 240_000) as u32,
            message_id: 1_000_000 + i * 7_919,
        })
        .collect();
    let native: Vec<MessageNative> = (0..256u64)
        .map(|i| MessageNative {
            date: 230_601 + (i % 30) as u32,
            time: (i * 37 % 240_000) as u32,
            message_id: 1_000_000 + i * 7_919,
        })
        .collect();
    let salted: Vec<MessageSalted> = (0..256u64)
        .map(|i| MessageSalted {
            date: 230_601 + (i % 30) as u32,
            time: (i * 37 % 240_000) as u32,
            message_id: 1_000_000 + i * 7_919,
        })
        .collect();
    let native_salted: Vec<MessageNativeSalted> = (0..256u64)
        .map(|i| MessageNativeSalted {
            date: 230_601 + (i % 30) as u32,
            time: (i * 37 % 240_000) as u32,
            message_id: 1_000_000 + i * 7_919,
        })
        .collect();

    macro_rules! encode {
        ($group:literal, $name:literal, $keys:expr) => {{
            let mut g = c.benchmark_group(concat!("encode_", $group));
            g.bench_function($name, |b| {
                let mut i = 0usize;
                b.iter(|| {
                    i = (i + 1) & 255;
                    black_box(black_box(&$keys[i]).encode_to_slice(&mut buf).unwrap())
                })
            });
            g.finish();
        }};
    }
    encode!("flurry", "java", flurry_j);
    encode!("flurry", "native", flurry_n);
    encode!("concat", "java", concat_j);
    encode!("concat", "native", concat_n);
    encode!("message", "text", text);
    encode!("message", "native", native);
    // What a Rust service writing the same text key by hand would: `write!` into a slice.
    {
        use std::io::Write;
        let mut g = c.benchmark_group("encode_message");
        g.bench_function("hand_written_format", |b| {
            let mut i = 0usize;
            b.iter(|| {
                i = (i + 1) & 255;
                let k = black_box(&text[i]);
                let mut cur = std::io::Cursor::new(&mut buf[..]);
                write!(cur, "{:06}:{:06}:{}", k.date, k.time, k.message_id).unwrap();
                black_box(cur.position())
            })
        });
        g.finish();
    }
    encode!("message_salted", "md5_hex_prefix", salted);
    encode!("message_salted", "md5_salt", native_salted);

    macro_rules! decode {
        ($group:literal, $name:literal, $ty:ty, $keys:expr) => {{
            let encoded: Vec<Vec<u8>> = $keys
                .iter()
                .map(|k| k.to_bytes().unwrap().to_vec())
                .collect();
            let mut g = c.benchmark_group(concat!("decode_", $group));
            g.bench_function($name, |b| {
                let mut i = 0usize;
                b.iter(|| {
                    i = (i + 1) & 255;
                    black_box(<$ty>::decode(black_box(&encoded[i])).unwrap())
                })
            });
            g.finish();
        }};
    }
    decode!("flurry", "java", FlurryJava, flurry_j);
    decode!("flurry", "native", FlurryNative, flurry_n);
    decode!("concat", "java", ConcatJava, concat_j);
    decode!("concat", "native", ConcatNative, concat_n);
    decode!("message", "text", MessageText, text);
    decode!("message", "native", MessageNative, native);
    decode!("message_salted", "md5_hex_prefix", MessageSalted, salted);
    decode!(
        "message_salted",
        "md5_salt",
        MessageNativeSalted,
        native_salted
    );
}

fn report() {
    if let (Some(t), Some(h)) = (
        median_ns("encode_message", "text"),
        median_ns("encode_message", "hand_written_format"),
    ) {
        println!(
            "\nencode_message: text {t:.2} ns, hand-written write! {h:.2} ns: {:.2}x",
            t / h
        );
    }
    println!(
        "\n{:<34} {:>12} {:>12} {:>8}",
        "legacy / native", "legacy ns", "native ns", "ratio"
    );
    for op in ["encode", "decode"] {
        for (group, legacy, native) in PAIRS {
            let g = format!("{op}_{group}");
            match (median_ns(&g, legacy), median_ns(&g, native)) {
                (Some(l), Some(n)) => println!(
                    "{:<34} {:>12.2} {:>12.2} {:>8.2}",
                    format!("{g}: {legacy}/{native}"),
                    l,
                    n,
                    l / n
                ),
                _ => println!("{:<34} {:>12} {:>12} {:>8}", g, "-", "-", "-"),
            }
        }
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    benches(&mut c);
    c.final_summary();
    report();
}
