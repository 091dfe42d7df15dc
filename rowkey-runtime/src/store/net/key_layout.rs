//! The key layout a table records, checked once for every network backend: a table created
//! for a key type records that type's layout fingerprint (FORMAT.md §8), HBase as a table
//! attribute, Bigtable as the name of an empty marker family; code whose key layout changed
//! is refused before it reads rows it would misread.

use super::NetError;

/// Where a table records its key layout: the HBase table attribute's name, and the Bigtable
/// marker family's name before the fingerprint's 16 hex digits.
pub(crate) const RECORD: &str = "rowkey.key_fingerprint";

/// The fingerprint as it is recorded: 16 lowercase hex digits.
pub(crate) fn to_text(fingerprint: u64) -> String {
    format!("{fingerprint:016x}")
}

/// The fingerprint from its recorded text; `None` when the text is not 16 hex digits.
pub(crate) fn from_text(text: &[u8]) -> Option<u64> {
    // Digits only: `from_str_radix` would also take a sign.
    if text.len() != 16 || !text.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u64::from_str_radix(std::str::from_utf8(text).ok()?, 16).ok()
}

/// Refuses key layout `fingerprint` (of key type `key`) for a table that records another one:
/// its rows were written with other key bytes. A table without a record passes (it predates
/// the record, or was created elsewhere).
pub(crate) fn check(
    store: &'static str,
    table: &str,
    recorded: Option<u64>,
    key: &str,
    fingerprint: u64,
) -> Result<(), NetError> {
    match recorded {
        Some(stored) if stored != fingerprint => Err(NetError::Rejected {
            store,
            op: "check_key_layout",
            status: "key layout changed".into(),
            message: format!(
                "table `{table}` was written with key layout {stored:#018x}, and `{key}` is now {fingerprint:#018x}: its rows cannot be read with the new layout; re-key them into a new table (rowkey::store::rekey) instead of changing the key type in place"
            ),
            transient: false,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_text_round_trips_and_rejects_other_text() {
        for f in [0, 1, 0x0123_4567_89ab_cdef, u64::MAX] {
            assert_eq!(from_text(to_text(f).as_bytes()), Some(f));
        }
        for bad in [
            &b""[..],
            b"123",
            b"0123456789abcdefg",
            b"+123456789abcdef",
            b"zz23456789abcdef",
        ] {
            assert_eq!(from_text(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn a_changed_layout_is_refused_and_points_to_rekey() {
        assert!(check("hbase", "t", None, "K", 7).is_ok());
        assert!(check("hbase", "t", Some(7), "K", 7).is_ok());
        let e = check("bigtable", "t", Some(7), "K", 8).unwrap_err();
        assert!(!e.is_transient());
        let text = e.to_string();
        assert!(
            text.contains("0x0000000000000007") && text.contains("rekey"),
            "{text}"
        );
    }
}
