//! Helpers shared by the integration tests.
#![allow(dead_code, unused_imports, unused_macros)]

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

/// A key of one field `v` of the given type and attributes (hotspots allowed: a lone
/// timestamp is fine in a test vector).
macro_rules! one_field {
    ($name:ident $(<$l:lifetime>)?, $(#[$a:meta])* $ty:ty) => {
        #[derive(rowkey::RowKey, Debug, PartialEq)]
        #[rowkey(allow_hotspot)]
        struct $name $(<$l>)? {
            $(#[$a])*
            v: $ty,
        }
    };
}
pub(crate) use one_field;

/// The README's 33-byte event key (FORMAT.md §1): `[salt][u64][16-byte padded str][reverse ts]`.
#[path = "../../../rowkey/src/example.rs"]
mod example;
pub use example::Event;
