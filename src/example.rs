//! Example keys from the HBase guide's case studies, with the docs the derive generates: see
//! [`EventScan`] or [`Event::scan`] for a layout table, and [`Event::SCHEMA`](rowkey::RowKey::SCHEMA)
//! for the same as data. The examples (`cargo run --example tour`, `--example layouts`) and the
//! tests use them, including this file by path.
#![allow(dead_code)]

use rowkey::{Hashed, RowKey};

/// DESIGN.md's event key: one user's events, newest first, spread over 16 salt buckets.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Event {
    /// The user; salted, so every user lands in one of 16 buckets.
    #[salt(buckets = 16)]
    pub user_id: u64,
    /// The event type, zero-padded to 16 bytes.
    #[fixed(16)]
    pub event_type: String,
    /// Milliseconds since the epoch, stored as `Long.MAX_VALUE - ts`.
    #[reverse_ts]
    pub ts: u64,
}

/// The guide's log-data design with the host in the lead and a reverse timestamp: the latest
/// events of one host are the first rows of its prefix scan. Decodes without copying.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct HostLog<'a> {
    /// The host name.
    pub host: &'a str,
    /// Milliseconds since the epoch, newest first.
    #[reverse_ts]
    pub ts: i64,
    /// The event type.
    pub event_type: &'a str,
}

/// The guide's customer/order case study: `[MD5 of customer number][reverse order date][order]`.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct CustomerOrder {
    /// The customer number, stored as its MD5.
    #[hash(md5)]
    pub customer: Hashed<String>,
    /// The order date, newest first.
    #[reverse_ts]
    pub order_date: u64,
    /// The order number.
    pub order_id: u32,
}

/// The Flurry article's funnel: a game, then scores from highest to lowest, then players.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Leaderboard {
    /// The game.
    pub game: String,
    /// The score, highest first (negative scores sort last).
    #[desc]
    pub score: i64,
    /// The player.
    pub player: String,
}
