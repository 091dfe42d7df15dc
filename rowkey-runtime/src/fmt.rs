//! Printing keys the way HBase does.

use core::fmt::Write as _;

/// Formats bytes as HBase's `Bytes.toStringBinary`: printable ASCII as is (digits, letters and
/// `` ` ~!@#$%^&*()-_=+[]{}|;:'",.<>/? `` and space), everything else as `\xHH` (upper case).
///
/// ```
/// assert_eq!(rowkey::fmt::binary(b"row\x00\x01\xff"), "row\\x00\\x01\\xFF");
/// ```
pub fn binary(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        // HBase's set: alphanumerics and " `~!@#$%^&*()-_=+[]{}|;:'\",.<>/?"; backslash is not in it.
        if b.is_ascii_alphanumeric() || b" `~!@#$%^&*()-_=+[]{}|;:'\",.<>/?".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out
}

/// An HBase shell command creating `table` with column family `family`, pre-split at `splits`
/// (from `RowKey::split_points`): `create 't', 'd', SPLITS => ["\x01", "\x02"]`. Split keys are
/// Ruby double-quoted strings, so binary bytes survive the shell.
///
/// ```
/// use rowkey::bytes;
/// let splits = [bytes::Bytes::from_static(b"\x01"), bytes::Bytes::from_static(b"a\"#")];
/// assert_eq!(
///     rowkey::fmt::hbase_create("t", "d", &splits),
///     r#"create 't', 'd', SPLITS => ["\x01", "a\"\#"]"#
/// );
/// ```
pub fn hbase_create(table: &str, family: &str, splits: &[bytes::Bytes]) -> String {
    let quoted: Vec<String> = splits.iter().map(|s| ruby_string(s)).collect();
    format!(
        "create {}, {}, SPLITS => [{}]",
        ruby_single(table),
        ruby_single(family),
        quoted.join(", ")
    )
}

/// A string as a single-quoted Ruby literal (the HBase shell's table and family names).
pub(crate) fn ruby_single(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// Bytes as a double-quoted Ruby literal, `\xNN` for what is not printable ASCII (the HBase
/// shell's split keys).
pub(crate) fn ruby_string(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for &b in bytes {
        match b {
            b'"' | b'\\' | b'#' => {
                out.push('\\');
                out.push(b as char);
            }
            0x20..=0x7E => out.push(b as char),
            _ => {
                let _ = write!(out, "\\x{b:02X}");
            }
        }
    }
    out.push('"');
    out
}
