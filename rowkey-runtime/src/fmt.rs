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
