//! Salt buckets: which of N buckets a key's salted fields hash to.

/// The bucket of a digest: its first 8 bytes, big-endian, modulo `buckets` (2..=256).
#[inline]
pub fn bucket(digest: &[u8; 16], buckets: u16) -> u8 {
    let head = u64::from_be_bytes([
        digest[0], digest[1], digest[2], digest[3], digest[4], digest[5], digest[6], digest[7],
    ]);
    // `buckets` is at most 256, so the remainder fits a byte.
    (head % u64::from(buckets.max(1))) as u8
}
