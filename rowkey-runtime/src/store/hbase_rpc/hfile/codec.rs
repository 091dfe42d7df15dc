//! Block compression as HBase's codecs read it back (`Compression.Algorithm` in
//! `hbase-common`): every block's data after its header is compressed, the header and
//! checksums are not.
//!
//! - `GZ`: one gzip member per block (Hadoop's `GzipCodec` reads it with the JDK's inflater or
//!   zlib).
//! - `SNAPPY`: Hadoop's `BlockCompressorStream` framing around raw Snappy: pieces of at most
//!   64 KiB, each `uncompressed length (u32) | compressed length (u32) | raw Snappy`; Hadoop's
//!   `SnappyCodec` decompresses a piece into a 256 KiB buffer, so a piece must fit it.

use std::io::Write;

use crate::family::Compression;

/// How an HFile's blocks are compressed (a family's `COMPRESSION`): the codecs rowkey writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HFileCompression {
    /// No compression (HBase's default).
    #[default]
    None,
    /// Gzip (HBase's `GZ`), at zlib's default level, as HBase's own writer uses it.
    Gz,
    /// Snappy (HBase's `SNAPPY`), framed as Hadoop's `SnappyCodec` frames it.
    Snappy,
}

/// Input bytes per Snappy piece: its worst case (`32 + n + n / 6`) stays well inside the
/// 256 KiB buffer Hadoop's decompressor has (`io.compression.codec.snappy.buffersize`).
const SNAPPY_PIECE: usize = 64 * 1024;

impl HFileCompression {
    /// The codec rowkey writes for a family's declared compression; `None` for codecs it does
    /// not write (`LZ4`, `ZSTD`, `LZO`, `BZIP2`): a file written without compression is
    /// still read by HBase, which compresses it at its next compaction.
    pub fn for_family(compression: Compression) -> Option<Self> {
        match compression {
            Compression::None => Some(HFileCompression::None),
            Compression::Gz => Some(HFileCompression::Gz),
            Compression::Snappy => Some(HFileCompression::Snappy),
            Compression::Lz4 | Compression::Zstd | Compression::Lzo | Compression::Bzip2 => None,
        }
    }

    /// HBase's name of the codec (`COMPRESSION => '...'`).
    pub const fn name(self) -> &'static str {
        match self {
            HFileCompression::None => "NONE",
            HFileCompression::Gz => "GZ",
            HFileCompression::Snappy => "SNAPPY",
        }
    }

    /// The ordinal of `Compression.Algorithm` the trailer records (fixed by HBase: LZO 0, GZ 1,
    /// NONE 2, SNAPPY 3).
    pub(super) const fn ordinal(self) -> u32 {
        match self {
            HFileCompression::None => 2,
            HFileCompression::Gz => 1,
            HFileCompression::Snappy => 3,
        }
    }

    /// `data` compressed into `out` (cleared first); `false` for `None` (nothing written: the
    /// caller writes `data` itself).
    pub(super) fn compress(self, data: &[u8], out: &mut Vec<u8>) -> std::io::Result<bool> {
        out.clear();
        match self {
            HFileCompression::None => Ok(false),
            HFileCompression::Gz => {
                let mut gz = flate2::write::GzEncoder::new(out, flate2::Compression::default());
                gz.write_all(data)?;
                gz.finish()?;
                Ok(true)
            }
            HFileCompression::Snappy => {
                let mut encoder = snap::raw::Encoder::new();
                for piece in data.chunks(SNAPPY_PIECE) {
                    let at = out.len();
                    out.extend_from_slice(&(piece.len() as u32).to_be_bytes());
                    out.extend_from_slice(&[0; 4]);
                    out.resize(at + 8 + snap::raw::max_compress_len(piece.len()), 0);
                    let n = encoder
                        .compress(piece, &mut out[at + 8..])
                        .map_err(std::io::Error::other)?;
                    out.truncate(at + 8 + n);
                    out[at + 4..at + 8].copy_from_slice(&(n as u32).to_be_bytes());
                }
                Ok(true)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn sample() -> Vec<u8> {
        (0..200_000u32)
            .flat_map(|i| (i / 7).to_be_bytes())
            .collect()
    }

    #[test]
    fn gzip_blocks_inflate_back() {
        let data = sample();
        let mut out = Vec::new();
        assert!(HFileCompression::Gz.compress(&data, &mut out).unwrap());
        assert!(out.len() < data.len() / 4, "{}", out.len());
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&out[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, data);
    }

    #[test]
    fn snappy_blocks_are_framed_in_pieces_hadoop_can_buffer() {
        let data = sample();
        let mut out = Vec::new();
        assert!(HFileCompression::Snappy.compress(&data, &mut out).unwrap());
        let mut back = Vec::new();
        let mut at = 0;
        let mut pieces = 0;
        while at < out.len() {
            let raw = u32::from_be_bytes(out[at..at + 4].try_into().unwrap()) as usize;
            let n = u32::from_be_bytes(out[at + 4..at + 8].try_into().unwrap()) as usize;
            assert!(raw <= SNAPPY_PIECE && n <= 256 * 1024);
            let piece = snap::raw::Decoder::new()
                .decompress_vec(&out[at + 8..at + 8 + n])
                .unwrap();
            assert_eq!(piece.len(), raw);
            back.extend_from_slice(&piece);
            at += 8 + n;
            pieces += 1;
        }
        assert_eq!(pieces, data.len().div_ceil(SNAPPY_PIECE));
        assert_eq!(back, data);
        // An empty block compresses to nothing (HBase reads no byte of it).
        assert!(HFileCompression::Snappy.compress(&[], &mut out).unwrap());
        assert!(out.is_empty());
    }

    #[test]
    fn codecs_rowkey_does_not_write_are_none() {
        assert_eq!(HFileCompression::for_family(Compression::Zstd), None);
        assert_eq!(
            HFileCompression::for_family(Compression::Snappy),
            Some(HFileCompression::Snappy)
        );
    }
}
