//! Helpers shared by the integration tests.
#![allow(dead_code)]

/// Lower-case hex, for golden vectors.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex with spaces and underscores removed, so vectors can be grouped by field.
pub fn h(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect()
}

/// DESIGN.md's 33-byte event key: `[salt][u64][16-byte padded str][reverse ts]`.
#[derive(rowkey::RowKey, Debug, Clone, PartialEq)]
pub struct Event {
    #[salt(buckets = 16)]
    pub user_id: u64,
    #[fixed(16)]
    pub event_type: String,
    #[reverse_ts]
    pub ts: u64,
}
