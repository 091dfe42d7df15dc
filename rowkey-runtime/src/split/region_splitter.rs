//! HBase's `RegionSplitter` algorithms, byte for byte: the split points an existing table was
//! created with (`hbase org.apache.hadoop.hbase.util.RegionSplitter t HexStringSplit -c 16`,
//! or `SPLITALGO => 'HexStringSplit'` in the shell), and what a text keyspace of hex or
//! decimal digits is best split by.
//!
//! - [`hex_string_split`]: `HexStringSplit`, rows `"00000000"` to `"ffffffff"` as hex digits
//!   (lowercase, as Java's `BigInteger.toString(16)` writes them), each region an equal share;
//! - [`decimal_string_split`]: `DecimalStringSplit`, rows `"00000000"` to `"99999999"`;
//! - [`uniform_split`]: `UniformSplit`, raw bytes `00` to `FF FF FF FF FF FF FF FF`.
//!
//! The `_between` forms take other first and last rows, as the algorithms' `setFirstRow` and
//! `setLastRow` do. Tested against HBase's own class (`tests/split.rs`).

use bytes::Bytes;

/// Why a `RegionSplitter` algorithm cannot split as asked; HBase refuses the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitError(String);

impl core::fmt::Display for SplitError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SplitError {}

/// `HexStringSplit` into `regions` regions: the `regions - 1` split points.
pub fn hex_string_split(regions: usize) -> Vec<Bytes> {
    number_string_split("00000000", "FFFFFFFF", 16, regions).unwrap_or_default()
}

/// `HexStringSplit` between `first` and `last` (hex digits; the points are as long as
/// `last`, zero-padded, as HBase pads them).
pub fn hex_string_split_between(
    first: &str,
    last: &str,
    regions: usize,
) -> Result<Vec<Bytes>, SplitError> {
    number_string_split(first, last, 16, regions)
}

/// `DecimalStringSplit` into `regions` regions: the `regions - 1` split points.
pub fn decimal_string_split(regions: usize) -> Vec<Bytes> {
    number_string_split("00000000", "99999999", 10, regions).unwrap_or_default()
}

/// `DecimalStringSplit` between `first` and `last` (decimal digits).
pub fn decimal_string_split_between(
    first: &str,
    last: &str,
    regions: usize,
) -> Result<Vec<Bytes>, SplitError> {
    number_string_split(first, last, 10, regions)
}

/// `UniformSplit` into `regions` regions: the `regions - 1` split points.
pub fn uniform_split(regions: usize) -> Vec<Bytes> {
    uniform_split_between(&[], &[0xFF; 8], regions).unwrap_or_default()
}

/// The number-string algorithms: the range `first..=last` cut into `regions` equal parts (the
/// last takes the remainder), each point written in `radix` and left-padded with `0` to the
/// length of `last`.
fn number_string_split(
    first: &str,
    last: &str,
    radix: u32,
    regions: usize,
) -> Result<Vec<Bytes>, SplitError> {
    let parse = |s: &str| {
        u128::from_str_radix(s, radix).map_err(|e| {
            SplitError(format!(
                "`{s}` is not a base-{radix} number rowkey can split (at most 128 bits): {e}"
            ))
        })
    };
    let (lo, hi) = (parse(first)?, parse(last)?);
    if hi <= lo {
        return Err(SplitError(format!(
            "last row ({last}) is configured less than first row ({first})"
        )));
    }
    if regions < 2 {
        return Ok(Vec::new());
    }
    let range = (hi - lo)
        .checked_add(1)
        .ok_or_else(|| SplitError("the range does not fit 128 bits".into()))?;
    let n = regions as u128;
    if range < n {
        return Err(SplitError(format!(
            "split granularity ({regions}) is greater than the range ({range})"
        )));
    }
    let size = range / n;
    let width = last.len();
    Ok((1..n)
        .map(|i| {
            let v = lo + size * i;
            let digits = if radix == 16 {
                format!("{v:x}")
            } else {
                v.to_string()
            };
            let padded = format!("{digits:0>width$}");
            Bytes::from(padded.into_bytes())
        })
        .collect())
}

/// `UniformSplit` between `first` and `last` (raw bytes; the shorter padded with zeros at the
/// end): HBase's `Bytes.split(first, last, true, regions - 1)` without its two ends.
pub fn uniform_split_between(
    first: &[u8],
    last: &[u8],
    regions: usize,
) -> Result<Vec<Bytes>, SplitError> {
    if last <= first {
        return Err(SplitError(
            "last row is configured less than first row".into(),
        ));
    }
    if regions < 2 {
        return Ok(Vec::new());
    }
    let len = first.len().max(last.len());
    let mut a = first.to_vec();
    a.resize(len, 0);
    let mut b = last.to_vec();
    b.resize(len, 0);
    if a >= b {
        return Err(SplitError(
            "last row is not after first row once padded".into(),
        ));
    }
    let num = (regions - 1) as u128;
    loop {
        // The numbers `01 00 a..` and `01 00 b..`: the `00` is room for the sum to carry into.
        if a.len() > 14 {
            return Err(SplitError(
                "rows longer than 14 bytes: more than rowkey's 128-bit arithmetic holds".into(),
            ));
        }
        let as_number = |row: &[u8]| {
            row.iter()
                .fold(1u128 << 8, |acc, &x| (acc << 8) | u128::from(x))
        };
        let (start, stop) = (as_number(&a), as_number(&b));
        let diff = stop - start + 1;
        if diff < num + 1 {
            // Too few values between them: one more byte of precision, as HBase does.
            a.push(0);
            b.push(0);
            continue;
        }
        let interval = diff / (num + 1);
        let width = a.len();
        return Ok((1..=num)
            .map(|i| {
                let cur = start + interval * i;
                // `cur` is `01 0c ..` over `width + 2` bytes: drop the `01`, and the `0c` byte
                // too when it is zero.
                let bytes = cur.to_be_bytes();
                let body = &bytes[16 - (width + 2)..];
                let kept = if body[1] == 0 { &body[2..] } else { &body[1..] };
                Bytes::copy_from_slice(kept)
            })
            .collect());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_string_split_is_hbases() {
        let s = hex_string_split(4);
        assert_eq!(s, [&b"40000000"[..], b"80000000", b"c0000000"]);
        assert_eq!(
            decimal_string_split(4),
            [&b"25000000"[..], b"50000000", b"75000000"]
        );
        let u = uniform_split(4);
        assert_eq!(u[0], [0x40, 0, 0, 0, 0, 0, 0, 0][..]);
        assert!(hex_string_split_between("10", "0f", 2).is_err());
        assert!(hex_string_split_between("0", "2", 4).is_err());
    }
}
