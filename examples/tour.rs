//! A tour of rowkey on the HBase guide's key designs: encode, print as HBase shows keys,
//! decode, and print each key's layout (as Markdown, and as JSON for tools).
//!
//! Run: `cargo run --release --example tour`

use std::error::Error;

#[path = "../rowkey/src/example.rs"]
mod example;

use example::{CustomerOrder, Event, HostLog, Leaderboard};
use rowkey::{fmt::binary, Hashed, RowKey};

fn show<K: RowKey + std::fmt::Debug>(key: &K) -> Result<Vec<u8>, Box<dyn Error>> {
    let bytes = key.to_bytes()?;
    println!("  {key:?}");
    println!("    {} bytes: {}", bytes.len(), binary(&bytes));
    Ok(bytes.to_vec())
}

fn main() -> Result<(), Box<dyn Error>> {
    println!("== Event: [salt][user_id][event_type: fixed 16][Long.MAX_VALUE - ts]");
    let ev = Event {
        user_id: 7,
        event_type: "click".into(),
        ts: 1_700_000_000_000,
    };
    let mut buf = [0u8; Event::MAX_LEN];
    let n = ev.encode_to_slice(&mut buf)?;
    println!("  {ev:?}\n    {n} bytes: {}", binary(&buf[..n]));
    assert_eq!(Event::decode(&buf[..n])?, ev);
    println!("    decodes back; salt bucket {:?}", ev.salt_bucket());

    println!("\n== HostLog: host first, newest first within a host");
    let mut rows = Vec::new();
    for (ts, kind) in [
        (1_700_000_000_000, "login"),
        (1_700_000_060_000, "click"),
        (1_700_000_120_000, "logout"),
    ] {
        rows.push(show(&HostLog {
            host: "web-01",
            ts,
            event_type: kind,
        })?);
    }
    rows.sort();
    let latest = HostLog::decode(&rows[0])?;
    println!("  first row in key order is the latest: {latest:?}");
    assert_eq!(latest.event_type, "logout");

    println!("\n== CustomerOrder: [MD5(customer)][reverse order date][order id]");
    let order = CustomerOrder {
        customer: Hashed::new("customer-1234".into()),
        order_date: 1_700_000_000_000,
        order_id: 42,
    };
    let bytes = show(&order)?;
    let back = CustomerOrder::decode(&bytes)?;
    println!("  decoded: {back:?} (the digest only: a hash cannot be undone)");

    println!("\n== Leaderboard: negative scores sort correctly, highest first");
    let mut board: Vec<Vec<u8>> = [(-5, "ann"), (120, "bob"), (0, "cy"), (7, "dee")]
        .iter()
        .map(|&(score, p)| {
            Leaderboard {
                game: "chess".into(),
                score,
                player: p.into(),
            }
            .to_bytes()
            .map(|b| b.to_vec())
        })
        .collect::<Result<_, _>>()?;
    board.sort();
    for row in &board {
        let k = Leaderboard::decode(row)?;
        println!("  {:>5} {}", k.score, k.player);
    }

    println!("\n== Scans: exact start/stop rows for a prefix and a range on the next field");
    let one_user = Event::scan().user_id(7).ranges();
    println!(
        "  user 7 (bucket known, one range):   {:?}",
        one_user.iter().collect::<Vec<_>>()
    );
    let window = Event::scan()
        .user_id(7)
        .event_type("click")
        .ts(1_699_000_000_000..1_700_000_000_001)
        .ranges();
    println!(
        "  user 7 clicks in a time window:    {:?}",
        window.iter().collect::<Vec<_>>()
    );
    assert!(window.contains(&buf[..n]));
    println!(
        "  whole table: {} ranges, one per salt bucket",
        Event::scan().ranges().len()
    );
    let host = HostLog::scan().host("web-01").ranges();
    println!(
        "  all of host web-01 (\"web-01\" never matches \"web-010\"): {:?}",
        host.iter().collect::<Vec<_>>()
    );

    println!("\n== Pre-split points (every region reachable)");
    println!(
        "  {}",
        rowkey::fmt::hbase_create("events", "d", &Event::split_points(4))
    );
    let splits: Vec<String> = HostLog::split_points(4).iter().map(|s| binary(s)).collect();
    println!("  HostLog over printable host names: {splits:?}");

    println!("\n== explain");
    print!("{}", Event::explain(&buf[..n]));
    print!("{}", Event::explain(&buf[..20]));

    println!("\n== Bad input is refused, never truncated");
    let bad = Event {
        user_id: 1,
        event_type: "a-much-too-long-event-type".into(),
        ts: 1,
    };
    println!("  {}", bad.to_bytes().unwrap_err());
    println!("  {}", Event::decode(&buf[..20]).unwrap_err());

    println!("\n== Layouts");
    for schema in [
        Event::SCHEMA,
        HostLog::SCHEMA,
        CustomerOrder::SCHEMA,
        Leaderboard::SCHEMA,
    ] {
        println!("\n{}", schema.to_markdown());
    }
    println!(
        "== Event::SCHEMA as JSON\n{}",
        serde_json::to_string_pretty(Event::SCHEMA)?
    );
    Ok(())
}
