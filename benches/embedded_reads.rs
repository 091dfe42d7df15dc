//! Embedded reads measured the way a service reads: many different short scans, not one hot
//! query. 1,000,000 rows of the README's `Event` key (16 salt buckets, 16-byte values; 100 users,
//! 4 event types, so each user and type has 2,500 rows), the tree flushed and major-compacted,
//! then, in one run, `Table` over `FjallStore` against raw fjall doing the same work:
//!
//! - **narrow**: 1,000 different queries, each a random user, one type and a random window of
//!   ~1,000 rows, each building its ranges (the raw side with a hand-written builder: MD5 salt,
//!   big-endian user, padded type, reversed window bounds) and reading every row into an owned
//!   `Event` (the raw side decodes by hand into the same struct), forward and in reverse;
//! - the same queries decoded **borrowed** (`scan_raw` + `decode_trusted` into `EventRef`
//!   against the hand decoder's borrowed fields);
//! - the same queries through the **lending scan** (`scan(..).lending()`): owned `Event` with
//!   the value lent, forward and in reverse, and the key's bytes lent too (`next_raw`) decoded
//!   borrowed;
//! - **full**: the merged scan of all 16 buckets, owned `Event` per row (per row);
//! - **get**: 10,000 random existing keys (per get).
//!
//! The on-disk tables are larger than fjall's block cache at its default size (the sizes are
//! printed), and the queries are random, so neither side runs from a warm cache of one query.
//! `benches/table_vs_fjall.rs` keeps the earlier hot-query figures (one narrow query repeated).
//!
//! Each comparison runs both sides over the same work in rounds, alternating which goes first,
//! and prints each side's median and the median ratio of the rounds with its range: pairing
//! the rounds keeps cache warmth and clock changes off the ratio (criterion's separate
//! groups moved it by 10-15% between runs here).
//!
//! Run: `cargo bench --bench embedded_reads` (ROWKEY_BENCH_ROWS to resize, ROWKEY_BENCH_ONLY
//! to run only the comparisons whose label contains it, for a profiler); add
//! `--features fjall-shared` for fjall's `bytes_1` build.

#[path = "common/mod.rs"]
mod common;

use std::hint::black_box;

use common::{paired, EventRef};
use md5::{Digest, Md5};
use rowkey::store::{FjallStore, Table};
use rowkey::RowKey;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Event {
    #[salt(buckets = 16)]
    user_id: u64,
    #[fixed(16)]
    event_type: String,
    #[reverse_ts]
    ts: u64,
}

const TYPES: [&str; 4] = ["click", "view", "purchase", "search"];
const USERS: u64 = 100;
const T0: u64 = 1_700_000_000_000;
const QUERIES: usize = 1_000;
/// A user's rows of one type are `USERS * 4` timestamps apart: a window of this many of them.
const WINDOW_ROWS: u64 = 1_000;

fn event(i: u64) -> Event {
    Event {
        user_id: i % USERS,
        event_type: TYPES[((i / USERS) % 4) as usize].into(),
        ts: T0 + i,
    }
}

/// One query: a user, a type and a window `[t0, t1)`.
#[derive(Clone, Copy)]
struct Query {
    user: u64,
    kind: usize,
    t0: u64,
    t1: u64,
}

/// `QUERIES` queries from a fixed xorshift sequence: the same on every run and both sides.
fn queries(n: u64) -> Vec<Query> {
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let span = WINDOW_ROWS * USERS * 4;
    (0..QUERIES)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let t0 = T0 + (x >> 20) % n.saturating_sub(span).max(1);
            Query {
                user: x % USERS,
                kind: ((x >> 8) % 4) as usize,
                t0,
                t1: t0 + span,
            }
        })
        .collect()
}

// ---- the raw side: what a careful user writes by hand over fjall ----

/// The salt byte: the first 8 bytes of the MD5 of the big-endian user id, as a big-endian
/// integer, modulo 16 (FORMAT.md §3.1).
fn salt(user: u64) -> u8 {
    let digest = Md5::digest(user.to_be_bytes());
    (u64::from_be_bytes(digest[..8].try_into().unwrap()) % 16) as u8
}

/// The byte range of one query: `[salt][user][type, padded to 16][!ts]`, newest first, so the
/// window `[t0, t1)` is the reversed timestamps `(MAX - t1, MAX - t0]`.
fn raw_range(q: Query) -> (Vec<u8>, Vec<u8>) {
    let mut prefix = Vec::with_capacity(33);
    prefix.push(salt(q.user));
    prefix.extend_from_slice(&q.user.to_be_bytes());
    let mut kind = [0u8; 16];
    kind[..TYPES[q.kind].len()].copy_from_slice(TYPES[q.kind].as_bytes());
    prefix.extend_from_slice(&kind);
    let rev = |t: u64| (i64::MAX as u64) - t;
    let mut start = prefix.clone();
    start.extend_from_slice(&(rev(q.t1) + 1).to_be_bytes());
    let mut end = prefix;
    end.extend_from_slice(&(rev(q.t0) + 1).to_be_bytes());
    (start, end)
}

/// The hand decoder: `[salt][u64][16 bytes zero-padded][!ts]`.
fn hand_decode(k: &[u8]) -> (u64, &str, u64) {
    let user = u64::from_be_bytes(k[1..9].try_into().unwrap());
    let t = &k[9..25];
    let end = t.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    let kind = std::str::from_utf8(&t[..end]).unwrap();
    let rev = u64::from_be_bytes(k[25..33].try_into().unwrap());
    (user, kind, (i64::MAX as u64) - rev)
}

fn hand_owned(k: &[u8]) -> Event {
    let (user_id, kind, ts) = hand_decode(k);
    Event {
        user_id,
        event_type: kind.to_string(),
        ts,
    }
}

/// One query on the raw side, owned or borrowed, forward or reversed: the rows read.
fn raw_query(ks: &fjall::Keyspace, q: Query, owned: bool, reverse: bool) -> usize {
    let (start, end) = raw_range(q);
    let it = ks.range(start..end);
    let mut n = 0;
    let mut each = |g: fjall::Guard| {
        let (k, v) = g.into_inner().unwrap();
        if owned {
            black_box((hand_owned(&k), v));
        } else {
            black_box((hand_decode(&k), &v));
        }
        n += 1;
    };
    if reverse {
        it.rev().for_each(&mut each);
    } else {
        it.for_each(&mut each);
    }
    n
}

/// The raw full scan: one fjall iterator per bucket, merged by hand, owned rows.
fn raw_full(ks: &fjall::Keyspace) -> usize {
    let iters = (0..16u8).map(|b| ks.prefix([b])).collect();
    common::raw_merge(iters, |key, value| {
        black_box((hand_owned(key), value));
    })
}

// ---- rows of cells: `CellTable` against a hand-written composite-layout reader ----

/// A row of three cells in family `d` (FORMAT.md §6: `Bytes.toBytes` encodings).
#[derive(rowkey::RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
struct Visit {
    #[column(name = "ms")]
    duration_ms: u32,
    #[column(name = "n")]
    count: i64,
    #[column(name = "via")]
    referrer: String,
}

fn visit(i: u64) -> Visit {
    Visit {
        duration_ms: (i % 1000) as u32,
        count: i as i64,
        referrer: format!("ref-{}", i % 7),
    }
}

/// `part` escaped as the composite layout writes it (FORMAT.md §7): `00` as `00 ff`.
fn escape(out: &mut Vec<u8>, part: &[u8]) {
    for &b in part {
        out.push(b);
        if b == 0 {
            out.push(0xff);
        }
    }
}

/// Splits a composite key at its first unescaped `00 01`: the row key, unescaped, and the
/// rest; `None` for a key that is not a cell.
fn split_component(k: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let mut out = Vec::with_capacity(k.len());
    let mut i = 0;
    while i < k.len() {
        match (k[i], k.get(i + 1)) {
            (0, Some(0xff)) => {
                out.push(0);
                i += 2;
            }
            (0, Some(1)) => return Some((out, &k[i + 2..])),
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    None
}

/// One query's rows of cells on the raw side: the composite range of the key range, cells
/// grouped by row, each row's key decoded by hand and its three cells into a `Visit`.
fn raw_cells_query(ks: &fjall::Keyspace, q: Query) -> usize {
    let (start, end) = raw_range(q);
    let (mut s, mut e) = (Vec::with_capacity(40), Vec::with_capacity(40));
    escape(&mut s, &start);
    escape(&mut e, &end);
    let mut rows = 0;
    let mut current: Option<(Vec<u8>, Visit)> = None;
    for g in ks.range(s..e) {
        let (k, v) = g.into_inner().unwrap();
        let (row, rest) = split_component(&k).unwrap();
        let (_family, qualifier) = split_component(rest).unwrap();
        if current.as_ref().is_none_or(|(r, _)| *r != row) {
            if let Some((r, visit)) = current.take() {
                black_box((hand_owned(&r), visit));
                rows += 1;
            }
            let empty = Visit {
                duration_ms: 0,
                count: 0,
                referrer: String::new(),
            };
            current = Some((row, empty));
        }
        let (_, visit) = current.as_mut().unwrap();
        match qualifier {
            b"ms" => visit.duration_ms = u32::from_be_bytes(v[..].try_into().unwrap()),
            b"n" => visit.count = i64::from_be_bytes(v[..].try_into().unwrap()),
            b"via" => visit.referrer = std::str::from_utf8(&v).unwrap().to_string(),
            _ => {}
        }
    }
    if let Some((r, visit)) = current {
        black_box((hand_owned(&r), visit));
        rows += 1;
    }
    rows
}

// ---- rows as columns: `WideTable` against a hand-written reader of the same cells ----

/// The README's `Event` with its time split between row and column (one row per user, type and
/// 400 s: ~1,000 records of the user and type; the offset in the qualifier, 4 bytes).
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Point {
    #[salt(buckets = 16)]
    user_id: u64,
    #[fixed(16)]
    event_type: String,
    #[row_span(400_000)]
    ts: u64,
}

const SPAN: u64 = 400_000;

fn point(i: u64) -> Point {
    let e = event(i);
    Point {
        user_id: e.user_id,
        event_type: e.event_type,
        ts: e.ts,
    }
}

/// One query's records on the raw side: the rows of the window's spans, their cells in family
/// `d` taken apart by hand, the records outside the window left out, each decoded into an
/// owned `Point` and its `i64` value.
fn raw_wide_query(ks: &fjall::Keyspace, q: Query) -> usize {
    let mut prefix = Vec::with_capacity(41);
    prefix.push(salt(q.user));
    prefix.extend_from_slice(&q.user.to_be_bytes());
    let mut kind = [0u8; 16];
    kind[..TYPES[q.kind].len()].copy_from_slice(TYPES[q.kind].as_bytes());
    prefix.extend_from_slice(&kind);
    let (first, last) = (q.t0 - q.t0 % SPAN, (q.t1 - 1) - (q.t1 - 1) % SPAN);
    let (mut s, mut e) = (prefix.clone(), prefix);
    s.extend_from_slice(&first.to_be_bytes());
    e.extend_from_slice(&(last + SPAN).to_be_bytes());
    let (mut start, mut end) = (Vec::with_capacity(48), Vec::with_capacity(48));
    escape(&mut start, &s);
    escape(&mut end, &e);
    let mut records = 0;
    for g in ks.range(start..end) {
        let (k, v) = g.into_inner().unwrap();
        let (row, rest) = split_component(&k).unwrap();
        let (_family, qualifier) = split_component(rest).unwrap();
        let bucket = u64::from_be_bytes(row[25..33].try_into().unwrap());
        let ts = bucket + u64::from(u32::from_be_bytes(qualifier.try_into().unwrap()));
        if ts < q.t0 || ts >= q.t1 {
            continue;
        }
        let t = &row[9..25];
        let len = t.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
        let p = Point {
            user_id: u64::from_be_bytes(row[1..9].try_into().unwrap()),
            event_type: std::str::from_utf8(&t[..len]).unwrap().to_string(),
            ts,
        };
        black_box((p, i64::from_be_bytes(v[..].try_into().unwrap())));
        records += 1;
    }
    records
}

fn wide_query(table: &rowkey::store::WideTable<FjallStore, Point, i64>, q: Query) -> usize {
    let ranges = Point::scan()
        .user_id(q.user)
        .event_type(TYPES[q.kind])
        .ts(q.t0..q.t1)
        .ranges();
    let mut n = 0;
    for record in table.scan(&ranges) {
        black_box(record.unwrap());
        n += 1;
    }
    n
}

fn cell_query(table: &rowkey::store::CellTable<FjallStore, Event, Visit>, q: Query) -> usize {
    let mut n = 0;
    for row in table.scan(&table_ranges(q)) {
        black_box(row.unwrap());
        n += 1;
    }
    n
}

// ---- rowkey's side ----

fn table_ranges(q: Query) -> rowkey::KeyRanges {
    Event::scan()
        .user_id(q.user)
        .event_type(TYPES[q.kind])
        .ts(q.t0..q.t1)
        .ranges()
}

fn table_query(table: &Table<FjallStore, Event>, q: Query, reverse: bool) -> usize {
    let ranges = table_ranges(q);
    let mut n = 0;
    let mut each = |row: Result<(Event, rowkey::bytes::Bytes), _>| {
        black_box(row.unwrap());
        n += 1;
    };
    if reverse {
        table.scan_rev(&ranges).unwrap().for_each(&mut each);
    } else {
        table.scan(&ranges).for_each(&mut each);
    }
    n
}

/// [`table_query`] through the lending scan: owned `Event`, the value lent.
fn table_query_lent(table: &Table<FjallStore, Event>, q: Query, reverse: bool) -> usize {
    let ranges = table_ranges(q);
    let scan = if reverse {
        table.scan_rev(&ranges).unwrap()
    } else {
        table.scan(&ranges)
    };
    let mut rows = scan.lending();
    let mut n = 0;
    while let Some(row) = rows.next() {
        black_box(row.unwrap());
        n += 1;
    }
    n
}

/// The lending scan's key bytes decoded borrowed (`EventRef`), the value lent.
fn table_query_lent_borrowed(table: &Table<FjallStore, Event>, q: Query) -> usize {
    let ranges = table_ranges(q);
    let mut rows = table.scan(&ranges).lending();
    let mut n = 0;
    while let Some(row) = rows.next_raw() {
        let (key, value) = row.unwrap();
        black_box((EventRef::decode_trusted(key).unwrap(), value));
        n += 1;
    }
    n
}

fn table_query_borrowed(table: &Table<FjallStore, Event>, q: Query) -> usize {
    let ranges = table_ranges(q);
    let mut n = 0;
    for row in table.scan_raw(&ranges) {
        let (key, value) = row.unwrap();
        black_box((EventRef::decode_trusted(&key).unwrap(), &value));
        n += 1;
    }
    n
}

fn dir_size(path: &std::path::Path) -> u64 {
    std::fs::read_dir(path)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => dir_size(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        })
        .unwrap_or(0)
}

fn main() {
    let n: u64 = std::env::var("ROWKEY_BENCH_ROWS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let value = [7u8; 16];
    let dir = tempfile::tempdir().unwrap();
    let store = FjallStore::open(dir.path(), "events").unwrap();
    let table = Table::<_, Event>::new(store.clone());
    let rows: Vec<Event> = (0..n).map(event).collect();
    for chunk in rows.chunks(100_000) {
        table
            .bulk_load(chunk.iter().map(|e| (e, &value[..])))
            .unwrap();
    }
    let ks = store.keyspace().clone();
    ks.rotate_memtable_and_wait().unwrap();
    ks.major_compact().unwrap();
    println!(
        "{n} rows, {} MiB on disk (fjall's default block cache: 32 MiB)",
        dir_size(dir.path()) >> 20
    );
    let qs = queries(n);
    // Both sides read the same rows: the builders agree.
    let (mut a, mut b) = (0, 0);
    for &q in &qs {
        a += table_query(&table, q, false);
        b += raw_query(&ks, q, true, false);
        assert_eq!(table_query(&table, q, true), raw_query(&ks, q, true, true));
    }
    assert_eq!(a, b, "the same rows on both sides");
    let per_query = a as f64 / qs.len() as f64;
    println!("{QUERIES} queries, {per_query:.0} rows each on average");

    println!(
        "\n{:<28} {:>16} {:>16} {:>20}",
        "operation (median)", "Table", "raw fjall", "ratio (min..max)"
    );
    let q = QUERIES as f64;
    let narrow = NARROW_ROUNDS;
    paired(
        "narrow, owned",
        "us/query",
        q * 1e3,
        narrow,
        || qs.iter().map(|&q| table_query(&table, q, false)).sum(),
        || qs.iter().map(|&q| raw_query(&ks, q, true, false)).sum(),
    );
    paired(
        "narrow, owned, reverse",
        "us/query",
        q * 1e3,
        narrow,
        || qs.iter().map(|&q| table_query(&table, q, true)).sum(),
        || qs.iter().map(|&q| raw_query(&ks, q, true, true)).sum(),
    );
    paired(
        "narrow, borrowed",
        "us/query",
        q * 1e3,
        narrow,
        || qs.iter().map(|&q| table_query_borrowed(&table, q)).sum(),
        || qs.iter().map(|&q| raw_query(&ks, q, false, false)).sum(),
    );
    paired(
        "narrow, owned, lent",
        "us/query",
        q * 1e3,
        narrow,
        || qs.iter().map(|&q| table_query_lent(&table, q, false)).sum(),
        || qs.iter().map(|&q| raw_query(&ks, q, true, false)).sum(),
    );
    paired(
        "narrow, owned, reverse, lent",
        "us/query",
        q * 1e3,
        narrow,
        || qs.iter().map(|&q| table_query_lent(&table, q, true)).sum(),
        || qs.iter().map(|&q| raw_query(&ks, q, true, true)).sum(),
    );
    paired(
        "narrow, borrowed, lent",
        "us/query",
        q * 1e3,
        narrow,
        || {
            qs.iter()
                .map(|&q| table_query_lent_borrowed(&table, q))
                .sum()
        },
        || qs.iter().map(|&q| raw_query(&ks, q, false, false)).sum(),
    );
    // The decoders alone, on keys already in memory: how much of a row's cost is decoding.
    let keys: Vec<Vec<u8>> = (0..100_000u64)
        .map(|i| event(i * 7).to_bytes().unwrap().into())
        .collect();
    paired(
        "decode only, owned",
        "ns/key",
        keys.len() as f64,
        11,
        || {
            for k in &keys {
                black_box(Event::decode_trusted(black_box(k)).unwrap());
            }
            keys.len()
        },
        || {
            for k in &keys {
                black_box(hand_owned(black_box(k)));
            }
            keys.len()
        },
    );
    let all = Event::scan().ranges();
    paired(
        "full merged scan, owned",
        "ns/row",
        n as f64,
        5,
        || {
            let mut count = 0usize;
            for row in table.scan(&all) {
                black_box(row.unwrap());
                count += 1;
            }
            count
        },
        || raw_full(&ks),
    );

    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let events: Vec<Event> = (0..10_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            event(x % n)
        })
        .collect();
    paired(
        "get, random keys",
        "ns/get",
        events.len() as f64,
        15,
        || {
            for e in &events {
                black_box(table.get(e).unwrap().unwrap());
            }
            events.len()
        },
        || {
            for e in &events {
                // The raw side encodes its key by hand, as its range builder does.
                let mut key = [0u8; 33];
                key[0] = salt(e.user_id);
                key[1..9].copy_from_slice(&e.user_id.to_be_bytes());
                key[9..9 + e.event_type.len()].copy_from_slice(e.event_type.as_bytes());
                key[25..].copy_from_slice(&((i64::MAX as u64) - e.ts).to_be_bytes());
                black_box(ks.get(key).unwrap().unwrap());
            }
            events.len()
        },
    );
    cells(n);
    wide(n);
}

/// Narrow queries on a `WideTable` of `Point` records (as many as the table of cells has
/// rows) against the hand-written reader of the same cells.
fn wide(n: u64) {
    let dir = tempfile::tempdir().unwrap();
    let store = FjallStore::open(dir.path(), "points").unwrap();
    let table = rowkey::store::WideTable::<_, Point, i64>::new(store.clone(), "d");
    let records: Vec<(Point, i64)> = (0..cell_rows(n)).map(|i| (point(i), i as i64)).collect();
    for chunk in records.chunks(50_000) {
        table.put_batch(chunk.iter().map(|(k, v)| (k, v))).unwrap();
    }
    let ks = store.keyspace().clone();
    ks.rotate_memtable_and_wait().unwrap();
    ks.major_compact().unwrap();
    let qs = queries(cell_rows(n));
    // The same records on both sides, not only as many.
    let q = qs[0];
    let mine: Vec<(Point, i64)> = table
        .scan(
            &Point::scan()
                .user_id(q.user)
                .event_type(TYPES[q.kind])
                .ts(q.t0..q.t1)
                .ranges(),
        )
        .map(Result::unwrap)
        .collect();
    assert!(mine
        .iter()
        .all(|(p, v)| p.ts >= q.t0 && p.ts < q.t1 && *p == point(*v as u64)));
    assert_eq!(mine.len(), raw_wide_query(&ks, q));
    paired(
        "wide, narrow, owned",
        "us/query",
        QUERIES as f64 * 1e3,
        NARROW_ROUNDS,
        || qs.iter().map(|&q| wide_query(&table, q)).sum(),
        || qs.iter().map(|&q| raw_wide_query(&ks, q)).sum(),
    );
}

/// Rows of the table of cells (three cells each): a quarter of the raw table's.
fn cell_rows(n: u64) -> u64 {
    n / 4
}

/// Narrow queries on a `CellTable` of `Visit` rows (a quarter as many rows, three cells each)
/// against the hand-written composite-layout reader: the cell path's cost per row of cells.
fn cells(n: u64) {
    let dir = tempfile::tempdir().unwrap();
    let store = FjallStore::open(dir.path(), "visits").unwrap();
    let table = rowkey::store::CellTable::<_, Event, Visit>::new(store.clone());
    let rows: Vec<(Event, Visit)> = (0..cell_rows(n)).map(|i| (event(i), visit(i))).collect();
    for chunk in rows.chunks(50_000) {
        table.put_batch(chunk.iter().map(|(k, v)| (k, v))).unwrap();
    }
    let ks = store.keyspace().clone();
    ks.rotate_memtable_and_wait().unwrap();
    ks.major_compact().unwrap();
    // Queries over this table's own time span: ~1,000 rows each where it has them.
    let qs = queries(cell_rows(n));
    paired(
        "cells, narrow, owned",
        "us/query",
        QUERIES as f64 * 1e3,
        NARROW_ROUNDS,
        || qs.iter().map(|&q| cell_query(&table, q)).sum(),
        || qs.iter().map(|&q| raw_cells_query(&ks, q)).sum(),
    );
}

/// Rounds of the narrow queries (each round runs all of them on both sides).
const NARROW_ROUNDS: usize = 21;
