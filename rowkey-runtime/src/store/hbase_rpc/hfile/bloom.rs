//! The row Bloom filter of an HFile, as HBase's `CompoundBloomFilterWriter` writes it and its
//! `CompoundBloomFilter` reads it (a family's `BLOOMFILTER => 'ROW'`): a get skips every store
//! file whose filter says its row is absent, so a wrong bit loses rows; the tests have HBase's
//! own reader check every row.
//!
//! - Rows are hashed with HBase's `MurmurHash` (Murmur2, 32 bits, hash type 1): `h1` with seed
//!   0, `h2` with seed `h1`; key `i` of `hash_count` sets bit `|(h1 + i * h2) mod bits|` (32-bit
//!   wrapping arithmetic, Java's signed remainder).
//! - The filter is cut into chunks of 128 KiB (`io.storefile.bloom.block.size`) sized for a 1%
//!   error rate (`io.storefile.bloom.error.rate`); a chunk is closed when it holds its maximum
//!   number of rows, the last one folded in halves (up to 7 times) while it stays less than
//!   half full. Each chunk is an inline block (`BLMFBLK2`) written after a data block.
//! - The meta block (`BLMFMET2`, after the file info): version 3, total bytes, hash count,
//!   hash type, rows, maximum rows, chunks, no comparator (rows compare as bytes), then a
//!   one-level index of the chunks by their first row.

use super::write_vint;

/// `io.storefile.bloom.block.size`'s default.
const CHUNK_BYTES: u64 = 128 * 1024;
/// `io.storefile.bloom.max.fold`'s default.
const MAX_FOLD: u32 = 7;
/// `io.storefile.bloom.error.rate`'s default, a Java `float` widened to `double` as HBase
/// widens it.
const ERROR_RATE: f64 = 0.01f32 as f64;
/// `Hash.MURMUR_HASH`.
const MURMUR: i32 = 1;
/// `CompoundBloomFilterBase.VERSION`.
const VERSION: i32 = 3;

/// HBase's `MurmurHash.hash` of `key` (its tail bytes are sign-extended, as Java's are).
pub(super) fn murmur(key: &[u8], seed: i32) -> i32 {
    const M: i32 = 0x5bd1_e995;
    let mut h = seed ^ key.len() as i32;
    let mut words = key.chunks_exact(4);
    for w in &mut words {
        let mut k = i32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        k = k.wrapping_mul(M);
        k ^= ((k as u32) >> 24) as i32;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M);
        h ^= k;
    }
    let tail = words.remainder();
    if !tail.is_empty() {
        if tail.len() >= 3 {
            h ^= (tail[2] as i8 as i32) << 16;
        }
        if tail.len() >= 2 {
            h ^= (tail[1] as i8 as i32) << 8;
        }
        h ^= tail[0] as i8 as i32;
        h = h.wrapping_mul(M);
    }
    h ^= ((h as u32) >> 13) as i32;
    h = h.wrapping_mul(M);
    h ^= ((h as u32) >> 15) as i32;
    h
}

/// The bits `row` sets in a chunk of `bits` bits with `hash_count` functions.
fn positions(row: &[u8], hash_count: u32, bits: u64) -> impl Iterator<Item = u64> {
    let h1 = murmur(row, 0);
    let h2 = murmur(row, h1);
    (0..hash_count as i32).map(move |i| {
        let h = h1.wrapping_add(i.wrapping_mul(h2)) as i64;
        (h % bits as i64).unsigned_abs()
    })
}

/// A chunk closed and ready to be written: its first row and its bits.
pub(super) struct Chunk {
    pub first_row: Vec<u8>,
    pub bits: Vec<u8>,
}

/// The row Bloom filter of one file being written.
pub(super) struct RowBloom {
    /// A chunk's size in bytes before folding, its hash functions and its maximum rows.
    chunk_bytes: u64,
    hash_count: u32,
    max_keys: u64,
    /// The open chunk: its bits (empty: none open), rows and first row.
    bits: Vec<u8>,
    keys: u64,
    first_row: Vec<u8>,
    /// Closed chunks not yet written.
    ready: Vec<Chunk>,
    /// Written chunks: offset, on-disk size with header, first row.
    index: Vec<(u64, u32, Vec<u8>)>,
    total_keys: u64,
    total_max_keys: u64,
    total_bytes: u64,
    last_row: Vec<u8>,
}

impl RowBloom {
    /// A filter with HBase's default parameters (`BloomFilterUtil.createBySize`).
    pub fn new() -> Self {
        let chunk_bytes = foldable_bytes(CHUNK_BYTES * 8, MAX_FOLD);
        let bits = chunk_bytes * 8;
        let log2_squared = std::f64::consts::LN_2 * std::f64::consts::LN_2;
        let ideal = (bits as f64 * (log2_squared / -ERROR_RATE.ln())) as u64;
        let hash_count = (std::f64::consts::LN_2 * (bits / ideal) as f64).ceil() as u32;
        let max_keys = (-(bits as f64) / hash_count as f64
            * (1.0 - (ERROR_RATE.ln() / hash_count as f64).exp()).ln())
            as u64;
        RowBloom {
            chunk_bytes,
            hash_count,
            max_keys,
            bits: Vec::new(),
            keys: 0,
            first_row: Vec::new(),
            ready: Vec::new(),
            index: Vec::new(),
            total_keys: 0,
            total_max_keys: 0,
            total_bytes: 0,
            last_row: Vec::new(),
        }
    }

    /// Adds `row` (each row once, in order).
    pub fn add(&mut self, row: &[u8]) {
        if self.keys >= self.max_keys {
            self.close_chunk();
        }
        if self.bits.is_empty() {
            self.bits = vec![0; self.chunk_bytes as usize];
            self.first_row = row.to_vec();
        }
        let bits = self.chunk_bytes * 8;
        for pos in positions(row, self.hash_count, bits) {
            self.bits[(pos / 8) as usize] |= 1 << (pos % 8);
        }
        self.keys += 1;
        self.total_keys += 1;
        self.last_row.clear();
        self.last_row.extend_from_slice(row);
    }

    /// Closes the open chunk, folded while it stays less than half full (`compactBloom`).
    fn close_chunk(&mut self) {
        if self.bits.is_empty() {
            return;
        }
        let mut bits = std::mem::take(&mut self.bits);
        let mut max_keys = self.max_keys;
        let mut size = bits.len();
        let mut pieces = 1;
        while size.is_multiple_of(2) && max_keys > self.keys << 1 {
            pieces <<= 1;
            size >>= 1;
            max_keys >>= 1;
        }
        if pieces > 1 {
            for p in 1..pieces {
                for i in 0..size {
                    bits[i] |= bits[p * size + i];
                }
            }
            bits.truncate(size);
        }
        self.total_max_keys += max_keys;
        self.total_bytes += size as u64;
        self.keys = 0;
        self.ready.push(Chunk {
            first_row: std::mem::take(&mut self.first_row),
            bits,
        });
    }

    /// The chunks to write now: the closed ones, and the open one when `closing`.
    pub fn take_ready(&mut self, closing: bool) -> Vec<Chunk> {
        if closing {
            self.close_chunk();
        }
        std::mem::take(&mut self.ready)
    }

    /// Records that a chunk was written at `offset`, `on_disk` bytes with its header.
    pub fn written(&mut self, offset: u64, on_disk: u32, first_row: Vec<u8>) {
        self.index.push((offset, on_disk, first_row));
    }

    /// Whether any row was added (HBase writes no filter for a file without rows).
    pub fn is_empty(&self) -> bool {
        self.total_keys == 0
    }

    /// Chunks written.
    pub fn chunks(&self) -> usize {
        self.index.len()
    }

    /// The last row added (`LAST_BLOOM_KEY`).
    pub fn last_row(&self) -> &[u8] {
        &self.last_row
    }

    /// The meta block's data (`CompoundBloomFilterWriter.MetaWriter`).
    pub fn meta(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&VERSION.to_be_bytes());
        out.extend_from_slice(&self.total_bytes.to_be_bytes());
        out.extend_from_slice(&(self.hash_count as i32).to_be_bytes());
        out.extend_from_slice(&MURMUR.to_be_bytes());
        out.extend_from_slice(&self.total_keys.to_be_bytes());
        out.extend_from_slice(&self.total_max_keys.to_be_bytes());
        out.extend_from_slice(&(self.index.len() as i32).to_be_bytes());
        // No comparator: a zero-length byte array.
        write_vint(&mut out, 0);
        for (offset, size, row) in &self.index {
            out.extend_from_slice(&offset.to_be_bytes());
            out.extend_from_slice(&size.to_be_bytes());
            write_vint(&mut out, row.len() as i64);
            out.extend_from_slice(row);
        }
        out
    }
}

/// `BloomFilterUtil.computeFoldableByteSize`: bytes for `bits`, rounded up to a multiple of
/// `2^fold`.
fn foldable_bytes(bits: u64, fold: u32) -> u64 {
    let mut bytes = bits.div_ceil(8);
    let mask = (1u64 << fold) - 1;
    if bytes & mask != 0 {
        bytes = ((bytes >> fold) + 1) << fold;
    }
    bytes
}

/// Whether a chunk's `bits` may hold `row` (HBase's `BloomFilterUtil.contains`).
#[cfg(test)]
pub(super) fn contains(bits: &[u8], hash_count: u32, row: &[u8]) -> bool {
    positions(row, hash_count, bits.len() as u64 * 8)
        .all(|pos| bits[(pos / 8) as usize] & (1 << (pos % 8)) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_hbases_defaults() {
        let b = RowBloom::new();
        assert_eq!(b.chunk_bytes, 131_072);
        assert_eq!(b.hash_count, 7);
        // ln(0.01) / 7 and friends: HBase's chunk takes 109,30x rows.
        assert!((109_290..109_310).contains(&b.max_keys), "{}", b.max_keys);
    }

    #[test]
    fn murmur_matches_hbases_on_known_values() {
        // (h1, h2) from HBase's own MurmurHash (hbase-common 2.6.1, through ByteArrayHashKey):
        // tail bytes >= 0x80 are sign-extended, which a plain Murmur2 does not do.
        let known: [(&[u8], i32, i32); 7] = [
            (b"", 0, 0),
            (b"\xff", -1_725_167_783, 548_319_267),
            (b"\x7f", -493_635_967, 1_908_557_646),
            (b"row", 1_921_263_513, 1_036_600_782),
            (b"rowkey", -1_185_449_930, -362_579_859),
            (
                b"\x01\x02\x03\x04\x80\x90\xa0",
                1_303_226_563,
                1_592_646_781,
            ),
            (b"abcd", 646_393_889, -524_664_927),
        ];
        for (key, h1, h2) in known {
            assert_eq!(murmur(key, 0), h1, "{key:?}");
            assert_eq!(murmur(key, h1), h2, "{key:?}");
        }
    }

    #[test]
    fn every_row_added_is_found_and_few_others_are() {
        let mut b = RowBloom::new();
        let rows: Vec<Vec<u8>> = (0u32..250_000)
            .map(|i| [b"row".as_slice(), &i.to_be_bytes()].concat())
            .collect();
        for r in &rows {
            b.add(r);
        }
        let chunks = b.take_ready(true);
        assert_eq!(chunks.len(), 3, "two full chunks and a folded one");
        assert_eq!(chunks[0].bits.len(), 131_072);
        assert_eq!(
            chunks[2].bits.len(),
            65_536,
            "the last chunk is folded once"
        );
        let chunk_of = |row: &[u8]| chunks.iter().rposition(|c| c.first_row.as_slice() <= row);
        for r in &rows {
            let c = &chunks[chunk_of(r).unwrap()];
            assert!(contains(&c.bits, b.hash_count, r), "{r:?}");
        }
        let absent = (0u32..100_000)
            .filter(|i| {
                let r = [b"row".as_slice(), &i.to_be_bytes(), b"x"].concat();
                let c = &chunks[chunk_of(&r).unwrap()];
                contains(&c.bits, b.hash_count, &r)
            })
            .count();
        // 1% is the design rate; the folded chunk is fuller.
        assert!(absent < 2_500, "{absent} of 100,000 absent rows pass");
    }

    #[test]
    fn chunk_sizes_fold_to_powers_of_two() {
        assert_eq!(foldable_bytes(131_072 * 8, 7), 131_072);
        assert_eq!(foldable_bytes(1000 * 8 + 1, 7), 1024);
    }
}
