//! Example keys from the HBase guide's case studies, with the docs the derive generates: see
//! [`EventScan`] or [`Event::scan`] for a layout table, and [`Event::SCHEMA`](rowkey::RowKey::SCHEMA)
//! for the same as data. The examples (`cargo run --example tour`, `--example layouts`) and the
//! tests use them, including this file by path.
#![allow(dead_code)]

use rowkey::{Hashed, RowKey};

/// The README's event key: one user's events, newest first, spread over 16 salt buckets.
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

/// The guide's short names: a page visit's columns in family `d`, qualifiers such as `via`.
/// See [`Visit::CELL_LAYOUT`] for the generated column table.
#[derive(rowkey::RowValue, Debug, Clone, PartialEq)]
#[column(family = "d")]
pub struct Visit {
    /// The referrer.
    #[column(name = "via")]
    pub referrer: String,
    /// Time on the page, in milliseconds.
    #[column(name = "ms")]
    pub duration_ms: u32,
    /// The user agent, when known.
    #[column(name = "ua")]
    pub agent: Option<String>,
}

/// Rows as columns, OpenTSDB's way: one row per metric, host and hour; the millisecond within
/// the hour and a sequence number in the column qualifier.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct MetricPoint {
    /// The metric; salted over the metric alone, so a series stays in one bucket.
    #[salt(buckets = 16)]
    pub metric: String,
    /// The host.
    pub host: String,
    /// Milliseconds since the epoch: the hour ends the row key, the rest starts the qualifier.
    #[row_span(3_600_000)]
    pub ts: u64,
    /// Tells apart points of one millisecond.
    pub seq: u16,
}

/// The Flurry article's composite key: a user, then an application. A prefix scan answers "the
/// applications of a user"; `#[rowkey(query)]` adds [`Install::query`], which answers "the
/// users of an application" too, seeking from one user's rows to the next (see
/// [`InstallQuery`]).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query)]
pub struct Install {
    /// The user.
    pub user_id: u64,
    /// The application.
    pub application_id: u32,
}

/// The HBase guide's customer/order case study: customers, their orders and the orders' lines in
/// one table under the customer's salted id, each record type after its tag. With
/// `#[rowkey(query)]`, [`CustomerRow::query`] answers "order 7 of every customer" or "the lines
/// of any order that sell item 3" by seeking from one customer's records to the next (see
/// [`CustomerRowQuery`] and its record types' builders, [`CustomerRowQueryOrder`] and
/// [`CustomerRowQueryLine`]).
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(query, prefix(customer_id))]
pub enum CustomerRow {
    /// The customer itself.
    #[tag(1)]
    Customer {
        /// The customer, salted into 8 buckets.
        #[salt(buckets = 8)]
        customer_id: u64,
    },
    /// One of its orders.
    #[tag(2)]
    Order {
        /// The customer, salted into 8 buckets.
        #[salt(buckets = 8)]
        customer_id: u64,
        /// The order's number.
        order_id: u64,
    },
    /// One line of an order.
    #[tag(3)]
    Line {
        /// The customer, salted into 8 buckets.
        #[salt(buckets = 8)]
        customer_id: u64,
        /// The order's number.
        order_id: u64,
        /// The item sold.
        item: u32,
    },
}
