//! The 33-byte `Event` key of the README, `[salt][u64 user][16-byte padded type][reverse ts]`,
//! timed in one run against a hand-written encoder/decoder of the same bytes and against the
//! peer crates `storekey` and `memcomparable` on the same tuple. Prints the ratios at the end.
//!
//! Like with like: the generated encoder is timed with the salt byte given (the MD5 is timed on
//! its own), as is the hand-written one; decoders are compared on the trusted path (salt byte
//! range-checked, not re-hashed), borrowing the event type. The full salted encode and decode
//! are timed too, so users see what MD5 costs them.
//!
//! Run: `cargo bench --bench event_key` (about two minutes).

#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

// The key every benchmark here encodes lives in `benches/common`.
use common::median_ns;
use common::EventRef as Event;
use criterion::{Criterion, Throughput};
use rowkey::RowKey;

/// The same key salted by xxh3 and by Java's hash (OpenTSDB's salt) instead of MD5.
#[derive(RowKey)]
struct EventXxh3<'a> {
    #[salt(buckets = 16, hash = "xxh3")]
    user_id: u64,
    #[fixed(16)]
    event_type: &'a str,
    #[reverse_ts]
    ts: u64,
}

#[derive(RowKey)]
struct EventJava<'a> {
    #[salt(buckets = 16, hash = "java")]
    user_id: u64,
    #[fixed(16)]
    event_type: &'a str,
    #[reverse_ts]
    ts: u64,
}

/// The same fields without the salt, to show `to_bytes`'s allocation apart from MD5.
#[derive(RowKey)]
struct Unsalted<'a> {
    user_id: u64,
    #[fixed(16)]
    event_type: &'a str,
    #[reverse_ts]
    ts: u64,
}

/// A careful hand-written encoder of the same bytes, with the same checks (fixed field fits
/// and has no trailing NUL, timestamp in range, buffer large enough) and the same register
/// padding a performance-minded engineer would write.
mod hand {
    #[derive(Debug)]
    pub struct Error;

    #[inline(always)]
    fn pad16(s: &[u8]) -> [u8; 16] {
        let n = s.len();
        let w: u128 = if n >= 8 {
            let lo = u64::from_le_bytes(s[..8].try_into().unwrap());
            let hi = u64::from_le_bytes(s[n - 8..].try_into().unwrap());
            u128::from(lo) | (u128::from(hi) << ((n - 8) * 8))
        } else if n >= 4 {
            let lo = u32::from_le_bytes(s[..4].try_into().unwrap());
            let hi = u32::from_le_bytes(s[n - 4..].try_into().unwrap());
            u128::from(lo) | (u128::from(hi) << ((n - 4) * 8))
        } else if n > 0 {
            u128::from(s[0])
                | (u128::from(s[n / 2]) << ((n / 2) * 8))
                | (u128::from(s[n - 1]) << ((n - 1) * 8))
        } else {
            0
        };
        w.to_le_bytes()
    }

    /// The naive padding: copy into a zeroed array (a variable-length memcpy).
    #[inline(always)]
    fn pad16_naive(s: &[u8]) -> [u8; 16] {
        let mut pad = [0u8; 16];
        pad[..s.len()].copy_from_slice(s);
        pad
    }

    #[inline(always)]
    fn encode_padded(
        salt: u8,
        user_id: u64,
        event_type: &str,
        ts: u64,
        out: &mut [u8],
        pad: fn(&[u8]) -> [u8; 16],
    ) -> Result<usize, Error> {
        let t = event_type.as_bytes();
        if t.len() > 16 || t.last() == Some(&0) || ts > i64::MAX as u64 {
            return Err(Error);
        }
        let out: &mut [u8; 33] = out
            .get_mut(..33)
            .ok_or(Error)?
            .try_into()
            .map_err(|_| Error)?;
        out[0] = salt;
        out[1..9].copy_from_slice(&user_id.to_be_bytes());
        out[9..25].copy_from_slice(&pad(t));
        out[25..33].copy_from_slice(&(i64::MAX - ts as i64).to_be_bytes());
        Ok(33)
    }

    #[inline(never)]
    pub fn encode(
        salt: u8,
        user_id: u64,
        event_type: &str,
        ts: u64,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        encode_padded(salt, user_id, event_type, ts, out, pad16)
    }

    #[inline(never)]
    pub fn encode_naive(
        salt: u8,
        user_id: u64,
        event_type: &str,
        ts: u64,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        encode_padded(salt, user_id, event_type, ts, out, pad16_naive)
    }

    /// The prefix successor of `buf[..len]`: drop trailing 0xFF, increment the last byte.
    #[inline(always)]
    fn successor(buf: &mut [u8; 32], mut len: usize) -> Option<usize> {
        while len > 0 && buf[len - 1] == 0xFF {
            len -= 1;
        }
        if len == 0 {
            return None;
        }
        buf[len - 1] += 1;
        Some(len)
    }

    /// Checks the arguments as the generated builder does (fixed field fits, no trailing NUL,
    /// timestamps in range) and returns the 24-byte prefix `[user][padded type]`.
    #[inline(always)]
    fn range_prefix(user_id: u64, event_type: &str, t0: u64, t1: u64) -> Option<[u8; 24]> {
        let t = event_type.as_bytes();
        if t.len() > 16 || t.last() == Some(&0) || t1 > i64::MAX as u64 || t0 >= t1 {
            return None;
        }
        let mut prefix = [0u8; 24];
        prefix[..8].copy_from_slice(&user_id.to_be_bytes());
        prefix[8..].copy_from_slice(&pad16(t));
        Some(prefix)
    }

    /// The successor of `prefix + be(rev)` without a byte loop: `rev + 1` (no carry out, as
    /// `rev <= i64::MAX`), minus the zero bytes the carry left at the end.
    #[inline(always)]
    fn successor_of(prefix: &[u8; 24], rev: u64) -> ([u8; 32], usize) {
        let mut row = [0u8; 32];
        row[..24].copy_from_slice(prefix);
        let next = rev + 1;
        row[24..].copy_from_slice(&next.to_be_bytes());
        (row, 32 - (next.trailing_zeros() / 8) as usize)
    }

    /// Start and stop rows of `user_id = u, event_type = t, ts in t0..t1` on the unsalted key,
    /// as a performance-minded engineer writes them: reverse timestamps swap the ends, and both
    /// ends are successors of `prefix + (i64::MAX - ts)`, computed arithmetically.
    #[inline(never)]
    pub fn range(
        user_id: u64,
        event_type: &str,
        t0: u64,
        t1: u64,
    ) -> Option<([u8; 32], usize, [u8; 32], usize)> {
        let prefix = range_prefix(user_id, event_type, t0, t1)?;
        let (start, s) = successor_of(&prefix, (i64::MAX - t1 as i64) as u64);
        let (end, e) = successor_of(&prefix, (i64::MAX - t0 as i64) as u64);
        Some((start, s, end, e))
    }

    /// The same rows written the straightforward way: the full rows, then a byte loop for each
    /// successor (which LLVM compiles poorly: it splits the arrays into single bytes).
    #[inline(never)]
    pub fn range_byte_loop(
        user_id: u64,
        event_type: &str,
        t0: u64,
        t1: u64,
    ) -> Option<([u8; 32], usize, [u8; 32], usize)> {
        let prefix = range_prefix(user_id, event_type, t0, t1)?;
        let mut start = [0u8; 32];
        start[..24].copy_from_slice(&prefix);
        let mut end = start;
        start[24..].copy_from_slice(&(i64::MAX - t1 as i64).to_be_bytes());
        end[24..].copy_from_slice(&(i64::MAX - t0 as i64).to_be_bytes());
        let s = successor(&mut start, 32)?;
        let e = successor(&mut end, 32)?;
        Some((start, s, end, e))
    }

    /// Start and stop rows of `user_id = u, event_type = t` (a bare prefix): the prefix, and
    /// its successor computed on the fields as integers (`[user][type]` plus one, with the
    /// carry), no byte loop.
    #[inline(never)]
    pub fn prefix(user_id: u64, event_type: &str) -> Option<([u8; 24], [u8; 24], usize)> {
        let prefix = range_prefix(user_id, event_type, 0, 1)?;
        let kind = u128::from_be_bytes(prefix[8..].try_into().unwrap());
        let (user, kind, len) = match kind.checked_add(1) {
            Some(k) => (user_id, k, 24 - (k.trailing_zeros() / 8) as usize),
            None => {
                let u = user_id.checked_add(1)?;
                (u, 0, 8 - (u.trailing_zeros() / 8) as usize)
            }
        };
        let mut end = [0u8; 24];
        end[..8].copy_from_slice(&user.to_be_bytes());
        end[8..].copy_from_slice(&kind.to_be_bytes());
        Some((prefix, end, len))
    }

    /// Decodes with the same checks as the generated trusted path: exact length, salt byte
    /// below the bucket count, UTF-8, timestamp sign bit; the type is borrowed.
    #[inline(never)]
    pub fn decode(b: &[u8]) -> Result<(u64, &str, u64), Error> {
        let b: &[u8; 33] = b.try_into().map_err(|_| Error)?;
        if b[0] >= 16 {
            return Err(Error);
        }
        let user = u64::from_be_bytes(b[1..9].try_into().unwrap());
        let t = &b[9..25];
        let end = t.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
        let s = std::str::from_utf8(&t[..end]).map_err(|_| Error)?;
        let rev = i64::from_be_bytes(b[25..33].try_into().unwrap());
        if rev < 0 {
            return Err(Error);
        }
        Ok((user, s, (i64::MAX - rev) as u64))
    }
}

#[inline(never)]
fn gen_encode(ev: &Event, salt: u8, out: &mut [u8]) -> usize {
    ev.__encode_to_slice_with_salt(Some(salt), out).unwrap()
}

/// Not inlined, like `hand::range`: both are called, and both return their ranges.
#[inline(never)]
fn gen_range(user_id: u64, event_type: &str, t0: u64, t1: u64) -> rowkey::KeyRanges {
    Unsalted::scan()
        .user_id(user_id)
        .event_type(event_type)
        .ts(t0..t1)
        .ranges()
}

/// Not inlined, like `hand::prefix`.
#[inline(never)]
fn gen_prefix(user_id: u64, event_type: &str) -> rowkey::KeyRanges {
    Unsalted::scan()
        .user_id(user_id)
        .event_type(event_type)
        .ranges()
}

#[inline(never)]
fn gen_decode(b: &[u8]) -> Event<'_> {
    Event::decode_trusted(b).unwrap()
}

/// Times `f` with its result passed to `std::hint::black_box`. Criterion 0.5's own `iter` hands
/// the result to its `black_box`, which on stable Rust is a `read_volatile` of the whole value:
/// a copy that costs more than building an 88-byte range, the same for every routine, which
/// made every ratio look closer to 1 than it is.
fn run<M: criterion::measurement::Measurement, O>(
    b: &mut criterion::Bencher<'_, M>,
    mut f: impl FnMut() -> O,
) {
    b.iter(|| {
        black_box(f());
    })
}

type Tuple<'a> = (u8, u64, &'a str, u64);

fn benches(c: &mut Criterion) {
    let ev = Event {
        user_id: 7_000_123,
        event_type: "click",
        ts: 1_700_000_000_000,
    };
    let salt = ev.salt_bucket().unwrap();
    let rev = (i64::MAX - ev.ts as i64) as u64;
    let tuple: Tuple = (salt, ev.user_id, ev.event_type, rev);
    let key = ev.to_bytes().unwrap();
    let mut hand_buf = [0u8; 33];
    assert_eq!(
        hand::encode(salt, ev.user_id, ev.event_type, ev.ts, &mut hand_buf).unwrap(),
        33
    );
    assert_eq!(
        &hand_buf[..],
        &key[..],
        "hand-written and generated bytes differ"
    );
    let sk = storekey::serialize(&tuple).unwrap();
    let mc = memcomparable::to_vec(&tuple).unwrap();

    let mut g = c.benchmark_group("encode");
    g.throughput(Throughput::Elements(1));
    g.bench_function("generated", |b| {
        let mut buf = [0u8; Event::MAX_LEN];
        run(b, || gen_encode(black_box(&ev), black_box(salt), &mut buf))
    });
    g.bench_function("hand", |b| {
        let mut buf = [0u8; 33];
        run(b, || {
            hand::encode(
                black_box(salt),
                black_box(ev.user_id),
                black_box(ev.event_type),
                black_box(ev.ts),
                &mut buf,
            )
            .unwrap()
        })
    });
    g.bench_function("hand_naive_pad", |b| {
        let mut buf = [0u8; 33];
        run(b, || {
            hand::encode_naive(
                black_box(salt),
                black_box(ev.user_id),
                black_box(ev.event_type),
                black_box(ev.ts),
                &mut buf,
            )
            .unwrap()
        })
    });
    g.bench_function("storekey", |b| {
        let mut buf = Vec::with_capacity(64);
        run(b, || {
            buf.clear();
            storekey::serialize_into(&mut buf, black_box(&tuple)).unwrap();
            buf.len()
        })
    });
    g.bench_function("memcomparable", |b| {
        let mut buf = Vec::with_capacity(64);
        run(b, || {
            buf.clear();
            let mut s = memcomparable::Serializer::new(&mut buf);
            serde::Serialize::serialize(black_box(&tuple), &mut s).unwrap();
            buf.len()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("alloc");
    g.bench_function("generated_to_bytes", |b| {
        run(b, || black_box(&ev).to_bytes().unwrap())
    });
    let unsalted = Unsalted {
        user_id: ev.user_id,
        event_type: ev.event_type,
        ts: ev.ts,
    };
    g.bench_function("generated_to_bytes_unsalted", |b| {
        run(b, || black_box(&unsalted).to_bytes().unwrap())
    });
    g.bench_function("storekey", |b| {
        run(b, || storekey::serialize(black_box(&tuple)).unwrap())
    });
    g.bench_function("memcomparable", |b| {
        run(b, || memcomparable::to_vec(black_box(&tuple)).unwrap())
    });
    g.finish();

    let mut g = c.benchmark_group("decode");
    g.bench_function("generated", |b| run(b, || gen_decode(black_box(&key))));
    g.bench_function("hand", |b| {
        run(b, || hand::decode(black_box(&key)).unwrap())
    });
    g.bench_function("storekey", |b| {
        run(b, || {
            storekey::deserialize::<Tuple>(black_box(&sk)).unwrap()
        })
    });
    g.bench_function("memcomparable", |b| {
        run(b, || {
            memcomparable::from_slice::<(u8, u64, String, u64)>(black_box(&mc)).unwrap()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("range");
    let (t0, t1) = (1_699_000_000_000u64, 1_700_000_000_000u64);
    let generated = Unsalted::scan()
        .user_id(ev.user_id)
        .event_type(ev.event_type)
        .ts(t0..t1)
        .ranges();
    let (hs, hl, he, hel) = hand::range(ev.user_id, ev.event_type, t0, t1).unwrap();
    let only = generated.iter().next().unwrap();
    assert_eq!(
        (only.start(), only.end()),
        (&hs[..hl], Some(&he[..hel])),
        "hand-written and generated ranges differ"
    );
    g.bench_function("generated", |b| {
        run(b, || {
            gen_range(
                black_box(ev.user_id),
                black_box(ev.event_type),
                black_box(t0),
                black_box(t1),
            )
        })
    });
    let (ls, ll, le, lel) = hand::range_byte_loop(ev.user_id, ev.event_type, t0, t1).unwrap();
    assert_eq!(
        (&ls[..ll], &le[..lel]),
        (&hs[..hl], &he[..hel]),
        "the two hand-written range builders differ"
    );
    // Generic over the function item (not a pointer), so both are called directly.
    fn bench_hand<M: criterion::measurement::Measurement>(
        g: &mut criterion::BenchmarkGroup<'_, M>,
        name: &str,
        f: impl Fn(u64, &str, u64, u64) -> Option<([u8; 32], usize, [u8; 32], usize)>,
        (user, kind, t0, t1): (u64, &str, u64, u64),
    ) {
        g.bench_function(name, |b| {
            run(b, || {
                f(
                    black_box(user),
                    black_box(kind),
                    black_box(t0),
                    black_box(t1),
                )
                .unwrap()
            })
        });
    }
    let args = (ev.user_id, ev.event_type, t0, t1);
    bench_hand(&mut g, "hand", hand::range, args);
    bench_hand(&mut g, "hand_byte_loop", hand::range_byte_loop, args);
    let generated = gen_prefix(ev.user_id, ev.event_type);
    let (ps, pe, pel) = hand::prefix(ev.user_id, ev.event_type).unwrap();
    let only = generated.iter().next().unwrap();
    assert_eq!(
        (only.start(), only.end()),
        (&ps[..], Some(&pe[..pel])),
        "hand-written and generated prefix ranges differ"
    );
    g.bench_function("generated_prefix", |b| {
        run(b, || {
            gen_prefix(black_box(ev.user_id), black_box(ev.event_type))
        })
    });
    g.bench_function("hand_prefix", |b| {
        run(b, || {
            hand::prefix(black_box(ev.user_id), black_box(ev.event_type)).unwrap()
        })
    });
    g.bench_function("generated_salted_prefix", |b| {
        run(b, || Event::scan().user_id(black_box(ev.user_id)).ranges())
    });
    g.bench_function("generated_salted_fan_out", |b| {
        run(b, || Event::scan().ranges())
    });
    g.finish();

    let mut g = c.benchmark_group("salted");
    g.bench_function("md5_salt", |b| run(b, || black_box(&ev).salt_bucket()));
    g.bench_function("encode_with_md5", |b| {
        let mut buf = [0u8; Event::MAX_LEN];
        run(b, || black_box(&ev).encode_to_slice(&mut buf).unwrap())
    });
    g.bench_function("decode_checking_salt", |b| {
        run(b, || Event::decode(black_box(&key)).unwrap())
    });
    let xxh3 = EventXxh3 {
        user_id: ev.user_id,
        event_type: ev.event_type,
        ts: ev.ts,
    };
    g.bench_function("xxh3_salt", |b| run(b, || black_box(&xxh3).salt_bucket()));
    g.bench_function("encode_with_xxh3", |b| {
        let mut buf = [0u8; EventXxh3::MAX_LEN];
        run(b, || black_box(&xxh3).encode_to_slice(&mut buf).unwrap())
    });
    let java = EventJava {
        user_id: ev.user_id,
        event_type: ev.event_type,
        ts: ev.ts,
    };
    g.bench_function("java_salt", |b| run(b, || black_box(&java).salt_bucket()));
    g.bench_function("encode_with_java", |b| {
        let mut buf = [0u8; EventJava::MAX_LEN];
        run(b, || black_box(&java).encode_to_slice(&mut buf).unwrap())
    });
    g.finish();
}

fn report() {
    let rows: &[(&str, &str, &str, &str)] = &[
        ("encode", "generated", "encode", "hand"),
        ("encode", "hand_naive_pad", "encode", "hand"),
        ("encode", "storekey", "encode", "hand"),
        ("encode", "memcomparable", "encode", "hand"),
        ("alloc", "generated_to_bytes", "encode", "hand"),
        ("alloc", "generated_to_bytes_unsalted", "encode", "hand"),
        ("alloc", "storekey", "encode", "hand"),
        ("alloc", "memcomparable", "encode", "hand"),
        ("decode", "generated", "decode", "hand"),
        ("decode", "storekey", "decode", "hand"),
        ("decode", "memcomparable", "decode", "hand"),
        ("range", "generated", "range", "hand"),
        ("range", "hand_byte_loop", "range", "hand"),
        ("range", "generated_prefix", "range", "hand_prefix"),
        ("range", "generated_salted_prefix", "range", "hand"),
        ("range", "generated_salted_fan_out", "range", "hand"),
        ("salted", "md5_salt", "encode", "hand"),
        ("salted", "encode_with_md5", "encode", "hand"),
        ("salted", "decode_checking_salt", "decode", "hand"),
        ("salted", "xxh3_salt", "encode", "hand"),
        ("salted", "encode_with_xxh3", "encode", "hand"),
        ("salted", "java_salt", "encode", "hand"),
        ("salted", "encode_with_java", "encode", "hand"),
    ];
    println!(
        "\n{:<40} {:>10} {:>14}",
        "benchmark (median)", "ns", "x hand-written"
    );
    for (g, n, bg, bn) in rows {
        match (median_ns(g, n), median_ns(bg, bn)) {
            (Some(t), Some(base)) => {
                println!("{:<40} {:>10.2} {:>14.2}", format!("{g}/{n}"), t, t / base)
            }
            _ => println!("{:<40} {:>10} {:>14}", format!("{g}/{n}"), "-", "-"),
        }
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_millis(800))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    benches(&mut c);
    c.final_summary();
    report();
}
