//! The key types the scan tests share: one unsalted, one salted on its first field, one salted
//! on its second, between them every field encoding a scan bound can meet.
#![allow(dead_code)]

use rowkey::RowKey;

/// Unsalted: signed, descending text, reverse timestamp, unsigned.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct Plain {
    pub a: i8,
    #[desc]
    pub b: String,
    #[reverse_ts]
    pub ts: u64,
    pub c: u16,
}

/// Salted on the first field; fixed text, descending signed, bytes.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct SaltFirst {
    #[salt(buckets = 4)]
    pub a: u8,
    #[fixed(3)]
    pub b: String,
    #[desc]
    pub c: i16,
    pub d: Vec<u8>,
}

/// Salted on the second field; descending fixed bytes, signed reverse timestamp, option, float.
#[derive(RowKey, Debug, Clone, PartialEq)]
pub struct SaltSecond {
    pub a: u8,
    #[salt(buckets = 3)]
    pub b: i32,
    #[desc]
    #[fixed(2)]
    pub c: Vec<u8>,
    #[reverse_ts]
    pub d: i64,
    pub e: Option<u8>,
}
