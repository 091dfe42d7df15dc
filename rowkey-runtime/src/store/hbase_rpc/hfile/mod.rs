//! HFiles, HBase's store files, written from Rust: what a bulk load hands to the region servers
//! instead of sending puts (no WAL, no memstore, no compaction of small files).
//!
//! The format is HFile version 3 as HBase 2.4-2.6 write and read it (`HFileWriterImpl`,
//! `HFileBlock`, `HFileBlockIndex`, `FixedFileTrailer` in `hbase-server`):
//!
//! - data blocks of cells in HBase's order (row, family, qualifier ascending; timestamp and
//!   type descending), each cell `key length (i32) | value length (i32) | key | value | tags
//!   length (i16, 0: no tags)`, the key `row length (i16) | row | family length (u8) | family |
//!   qualifier | timestamp (i64) | type (u8)`; a block is cut once it holds `block_size` bytes;
//! - every block framed by a 33-byte header (magic, on-disk size without header, uncompressed
//!   size without header, the previous block of its type's offset, checksum type, bytes per
//!   checksum, on-disk data size with header) and followed by a CRC32C of each
//!   `bytes_per_checksum` bytes of header and data;
//! - leaf index blocks among the data blocks once a file has more than one chunk of index
//!   entries (`index.rs`), and Bloom filter chunks (`bloom.rs`);
//! - the load-on-open section: the root data index (each block's offset, on-disk size and first
//!   key, or each leaf's), an empty meta index, the file info (`PBUF` and a length-delimited
//!   `FileInfoProto`: last key, average key and value lengths, creation time, the biggest cell,
//!   tags' maximum length, and the caller's own entries);
//! - the fixed trailer: `TRABLK"$`, a length-delimited `FileTrailerProto`, zeros to 4,096
//!   bytes, the version (minor 3, major 3).
//!
//! Blocks are compressed with `GZ` or `SNAPPY` when asked ([`HFileCompression`]; the header
//! and checksums stay uncompressed) and a row Bloom filter is written when asked
//! ([`HFileOptions::row_bloom`], `bloom.rs`). The data block index grows levels as HBase's does
//! (`index.rs`). No data block encoding.

use std::io::Write;

use bytes::Bytes;
use prost::Message;

use crate::store::net::hbase_pb as pb;

mod bloom;
mod codec;
mod index;
#[cfg(test)]
mod read;

pub use codec::HFileCompression;

/// A cell's type byte, as HBase's `KeyValue.Type` numbers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum HFileCellType {
    /// A value.
    Put = 4,
    /// Deletes one version of a column.
    Delete = 8,
    /// Deletes every version of a column up to the timestamp.
    DeleteColumn = 12,
    /// Deletes every column of a family up to the timestamp.
    DeleteFamily = 14,
}

/// One cell to write: borrowed parts, as HBase's `KeyValue` holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HFileCell<'a> {
    /// The row key (1 to 32,767 bytes).
    pub row: &'a [u8],
    /// The column family (at most 127 bytes; every cell of one file has the same).
    pub family: &'a [u8],
    /// The column qualifier.
    pub qualifier: &'a [u8],
    /// The version, milliseconds since the epoch (non-negative).
    pub timestamp: i64,
    /// What the cell is.
    pub kind: HFileCellType,
    /// The value.
    pub value: &'a [u8],
}

/// How an [`HFileWriter`] writes.
#[derive(Clone, Debug)]
pub struct HFileOptions {
    /// A data block is closed once it holds this many bytes of cells (HBase's family
    /// `BLOCKSIZE`; default 64 KiB).
    pub block_size: usize,
    /// Bytes per CRC32C checksum (HBase's `hbase.bytes.per.checksum`; default 16 KiB).
    pub bytes_per_checksum: u32,
    /// The file's creation time, milliseconds since the epoch (`CREATE_TIME_TS`).
    pub create_time_ms: i64,
    /// More file info entries (HBase's bulk load reads `BULKLOAD_TIME_KEY`, for one).
    pub file_info: Vec<(Vec<u8>, Vec<u8>)>,
    /// How blocks are compressed (the family's `COMPRESSION`; default none).
    pub compression: HFileCompression,
    /// Whether to write a row Bloom filter (the family's `BLOOMFILTER => 'ROW'`): gets of
    /// rows a file does not hold skip it. Default: no filter.
    pub row_bloom: bool,
    /// An index block is closed once it holds this many bytes (HBase's
    /// `hfile.index.block.max.size`; default 128 KiB): a file with more data blocks than fit
    /// gets a multi-level index (leaf blocks among the data, the root in the load-on-open
    /// section), as HBase's writer makes it.
    pub index_block_size: usize,
}

impl HFileOptions {
    /// Options for a file of `family` as HBase's own writer would write it: its block size,
    /// its compression when rowkey writes that codec (else none: HBase compresses the file at
    /// its next compaction), a row Bloom filter when it declares `ROW` (no filter for the
    /// other kinds: HBase then reads the file without one).
    pub fn for_family(family: &crate::family::Family) -> Self {
        HFileOptions {
            block_size: family.block_size.max(1) as usize,
            compression: HFileCompression::for_family(family.compression).unwrap_or_default(),
            row_bloom: family.bloom == crate::family::Bloom::Row,
            ..HFileOptions::default()
        }
    }
}

impl Default for HFileOptions {
    fn default() -> Self {
        HFileOptions {
            block_size: 64 * 1024,
            bytes_per_checksum: 16 * 1024,
            create_time_ms: 0,
            file_info: Vec::new(),
            compression: HFileCompression::None,
            row_bloom: false,
            index_block_size: index::DEFAULT_CHUNK,
        }
    }
}

/// Why a cell or a file could not be written; nothing written after it is valid.
#[derive(Debug)]
#[non_exhaustive]
pub enum HFileError {
    /// Cells must come in HBase's order, each after the one before.
    OutOfOrder {
        /// The cell's position among those appended.
        index: u64,
        /// Its key, in HBase's binary notation.
        key: String,
        /// The previous cell's key.
        previous: String,
    },
    /// A cell HBase cannot store.
    InvalidCell {
        /// The cell's position among those appended.
        index: u64,
        /// What is wrong.
        problem: String,
    },
    /// Writing to the output failed.
    Io(std::io::Error),
}

impl std::fmt::Display for HFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HFileError::OutOfOrder {
                index,
                key,
                previous,
            } => write!(
                f,
                "cell {index} is not after the cell before it in HBase's order (row, family, \
                 qualifier ascending; timestamp, type descending): {key} after {previous}"
            ),
            HFileError::InvalidCell { index, problem } => write!(f, "cell {index}: {problem}"),
            HFileError::Io(e) => write!(f, "writing the HFile: {e}"),
        }
    }
}

impl std::error::Error for HFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HFileError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<std::io::Error> for HFileError {
    fn from(e: std::io::Error) -> Self {
        HFileError::Io(e)
    }
}

/// What a finished file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HFileSummary {
    /// Cells written.
    pub cells: u64,
    /// Data blocks written.
    pub blocks: usize,
    /// The file's size in bytes.
    pub bytes: u64,
    /// The first and last cells' rows (`None`: an empty file).
    pub first_row: Option<Vec<u8>>,
    /// The last cell's row.
    pub last_row: Option<Vec<u8>>,
    /// Bloom filter chunks written (0: no filter).
    pub bloom_chunks: usize,
    /// Levels of the data block index (1: the root lists the data blocks).
    pub index_levels: u32,
}

const HEADER: usize = 33;
const TRAILER_SIZE: usize = 4096;
const CHECKSUM_CRC32C: u8 = 2;
const NO_OFFSET: i64 = -1;
const COMPARATOR: &str = "org.apache.hadoop.hbase.CellComparatorImpl";

mod magic {
    pub const DATA: &[u8; 8] = b"DATABLK*";
    pub const ROOT_INDEX: &[u8; 8] = b"IDXROOT2";
    pub const LEAF_INDEX: &[u8; 8] = b"IDXLEAF2";
    pub const INTERMEDIATE_INDEX: &[u8; 8] = b"IDXINTE2";
    pub const FILE_INFO: &[u8; 8] = b"FILEINF2";
    pub const BLOOM_CHUNK: &[u8; 8] = b"BLMFBLK2";
    pub const BLOOM_META: &[u8; 8] = b"BLMFMET2";
    pub const TRAILER: &[u8; 8] = b"TRABLK\"$";
}

/// Writes one HFile to `out`, cell by cell, in HBase's cell order; [`HFileWriter::finish`]
/// writes the index, file info and trailer.
pub struct HFileWriter<W: Write> {
    out: W,
    options: HFileOptions,
    /// Bytes written so far (the next block's offset).
    pos: u64,
    /// The open data block's cells.
    block: Vec<u8>,
    /// Its first cell's key.
    block_first_key: Vec<u8>,
    /// The data block index.
    index: Option<index::BlockIndex>,
    /// The first and last data blocks' offsets.
    data_offsets: Option<(u64, u64)>,
    prev_data_block: i64,
    last_key: Vec<u8>,
    /// The buffer the next key is built in.
    key: Vec<u8>,
    first_row: Option<Vec<u8>>,
    cells: u64,
    key_bytes: u64,
    value_bytes: u64,
    uncompressed: u64,
    biggest: (u64, Vec<u8>),
    /// The row Bloom filter, when asked for.
    bloom: Option<bloom::RowBloom>,
    /// `DeleteFamily` cells written (`DELETE_FAMILY_COUNT`).
    delete_families: u64,
    /// The buffer blocks are compressed into.
    compressed: Vec<u8>,
}

impl<W: Write> HFileWriter<W> {
    /// A writer of one file to `out` (a file, or any byte sink).
    pub fn new(out: W, options: HFileOptions) -> Self {
        let index = index::BlockIndex::new(options.index_block_size);
        HFileWriter {
            out,
            bloom: options.row_bloom.then(bloom::RowBloom::new),
            block: Vec::with_capacity(options.block_size + 1024),
            options,
            pos: 0,
            block_first_key: Vec::new(),
            index: Some(index),
            data_offsets: None,
            prev_data_block: NO_OFFSET,
            last_key: Vec::new(),
            key: Vec::new(),
            first_row: None,
            cells: 0,
            key_bytes: 0,
            value_bytes: 0,
            uncompressed: 0,
            biggest: (0, Vec::new()),
            delete_families: 0,
            compressed: Vec::new(),
        }
    }

    /// Bytes written so far, with the open data block's (before compression): where a caller
    /// cutting files by size stands.
    pub fn bytes_written(&self) -> u64 {
        self.pos + self.block.len() as u64
    }

    /// Appends one cell; it must sort after the one before.
    pub fn append(&mut self, cell: &HFileCell<'_>) -> Result<(), HFileError> {
        let index = self.cells;
        let invalid = |problem: String| HFileError::InvalidCell { index, problem };
        if cell.row.is_empty() || cell.row.len() > i16::MAX as usize {
            return Err(invalid(format!(
                "a row key of {} bytes (HBase takes 1 to 32,767)",
                cell.row.len()
            )));
        }
        if cell.family.is_empty() || cell.family.len() > i8::MAX as usize {
            return Err(invalid(format!(
                "a family name of {} bytes (HBase takes 1 to 127)",
                cell.family.len()
            )));
        }
        if cell.timestamp < 0 {
            return Err(invalid(format!(
                "a negative timestamp ({})",
                cell.timestamp
            )));
        }
        // The key is built in the buffer the previous one is kept in, swapped after.
        let mut key = std::mem::take(&mut self.key);
        flat_key(cell, &mut key);
        if key.len() > i32::MAX as usize || cell.value.len() > i32::MAX as usize {
            self.key = key;
            return Err(invalid("a key or value over 2 GiB".into()));
        }
        if self.cells > 0 && compare_keys(&self.last_key, &key) != std::cmp::Ordering::Less {
            let error = HFileError::OutOfOrder {
                index,
                key: crate::fmt::binary(&key),
                previous: crate::fmt::binary(&self.last_key),
            };
            self.key = key;
            return Err(error);
        }
        // A new block starts at a new row or column only when the open one is full (HBase
        // cuts at a cell boundary; a block may end inside a row).
        if self.block.len() >= self.options.block_size {
            self.finish_data_block()?;
        }
        if self.block.is_empty() {
            self.block_first_key.clone_from(&key);
        }
        self.block
            .extend_from_slice(&(key.len() as u32).to_be_bytes());
        self.block
            .extend_from_slice(&(cell.value.len() as u32).to_be_bytes());
        self.block.extend_from_slice(&key);
        self.block.extend_from_slice(cell.value);
        // Tags: none (HFile version 3 always writes their length).
        self.block.extend_from_slice(&0u16.to_be_bytes());
        let size = (key.len() + cell.value.len() + 8) as u64;
        if size > self.biggest.0 {
            self.biggest.0 = size;
            self.biggest.1.clone_from(&key);
        }
        self.key_bytes += key.len() as u64;
        self.value_bytes += cell.value.len() as u64;
        if self.first_row.is_none() {
            self.first_row = Some(cell.row.to_vec());
        }
        if let Some(bloom) = &mut self.bloom {
            if self.cells == 0 || key_row(&self.last_key) != cell.row {
                bloom.add(cell.row);
            }
        }
        if cell.kind == HFileCellType::DeleteFamily {
            self.delete_families += 1;
        }
        self.key = std::mem::replace(&mut self.last_key, key);
        self.cells += 1;
        Ok(())
    }

    fn finish_data_block(&mut self) -> Result<(), HFileError> {
        if self.block.is_empty() {
            return Ok(());
        }
        let offset = self.pos;
        let data = std::mem::take(&mut self.block);
        let on_disk = self.write_block(magic::DATA, &data, self.prev_data_block)?;
        self.prev_data_block = offset as i64;
        self.block = data;
        self.block.clear();
        let first = self.data_offsets.map_or(offset, |(first, _)| first);
        self.data_offsets = Some((first, offset));
        let key = std::mem::take(&mut self.block_first_key);
        self.with_index(|index, write| index.add(offset, on_disk, key, write))?;
        // HBase writes its inline blocks (the Bloom filter's full chunks) after a data block.
        self.write_bloom_chunks(false)
    }

    /// Runs `f` on the index with a writer of its blocks.
    fn with_index<T>(
        &mut self,
        f: impl FnOnce(&mut index::BlockIndex, &mut index::WriteBlock<'_>) -> Result<T, HFileError>,
    ) -> Result<T, HFileError> {
        let mut index = self
            .index
            .take()
            .expect("the index is put back after each use");
        let mut write = |magic: &[u8; 8], data: &[u8]| {
            let offset = self.pos;
            let size = self.write_block(magic, data, NO_OFFSET)?;
            Ok((offset, size))
        };
        let result = f(&mut index, &mut write);
        self.index = Some(index);
        result
    }

    /// Writes the Bloom filter's closed chunks (and the open one when `closing`).
    fn write_bloom_chunks(&mut self, closing: bool) -> Result<(), HFileError> {
        let Some(bloom) = &mut self.bloom else {
            return Ok(());
        };
        let chunks = bloom.take_ready(closing);
        for chunk in chunks {
            let offset = self.pos;
            let on_disk = self.write_block(magic::BLOOM_CHUNK, &chunk.bits, NO_OFFSET)?;
            if let Some(bloom) = &mut self.bloom {
                bloom.written(offset, on_disk, chunk.first_row);
            }
        }
        Ok(())
    }

    /// Writes one block: header, `data` (compressed as the options say), checksums. Returns
    /// its on-disk size with header.
    fn write_block(&mut self, magic: &[u8; 8], data: &[u8], prev: i64) -> Result<u32, HFileError> {
        let mut compressed = std::mem::take(&mut self.compressed);
        let on_disk = if self.options.compression.compress(data, &mut compressed)? {
            &compressed[..]
        } else {
            data
        };
        let with_header = HEADER + on_disk.len();
        let per = self.options.bytes_per_checksum.max(1) as usize;
        let checksums = with_header.div_ceil(per) * 4;
        let mut block = Vec::with_capacity(with_header + checksums);
        block.extend_from_slice(magic);
        block.extend_from_slice(&((on_disk.len() + checksums) as u32).to_be_bytes());
        block.extend_from_slice(&(data.len() as u32).to_be_bytes());
        block.extend_from_slice(&prev.to_be_bytes());
        block.push(CHECKSUM_CRC32C);
        block.extend_from_slice(&(per as u32).to_be_bytes());
        block.extend_from_slice(&(with_header as u32).to_be_bytes());
        block.extend_from_slice(on_disk);
        self.compressed = compressed;
        let sums: Vec<u8> = block
            .chunks(per)
            .flat_map(|chunk| crc32c::crc32c(chunk).to_be_bytes())
            .collect();
        block.extend_from_slice(&sums);
        self.out.write_all(&block)?;
        self.pos += block.len() as u64;
        self.uncompressed += (HEADER + data.len()) as u64;
        Ok(block.len() as u32)
    }

    /// Writes the last data block, the index, the file info and the trailer.
    pub fn finish(mut self) -> Result<(HFileSummary, W), HFileError> {
        self.finish_data_block()?;
        // The inline blocks still open: the last leaf index block, the last Bloom chunk.
        self.with_index(|index, write| index.close_inline(write))?;
        self.write_bloom_chunks(true)?;
        let (first_data, last_data) = self.data_offsets.unwrap_or((0, 0));
        let data_blocks = self.index.as_ref().map_or(0, |i| i.data_blocks());

        // The data index's intermediate levels, if any, and its root.
        let index = self.with_index(|index, write| {
            std::mem::replace(index, index::BlockIndex::new(1)).finish(write)
        })?;
        // The meta index: empty.
        self.write_block(magic::ROOT_INDEX, &[], NO_OFFSET)?;

        // The file info.
        let avg = |total: u64| total.checked_div(self.cells).unwrap_or(0) as i32;
        let mut info: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        if self.cells > 0 {
            info.push((b"hfile.LASTKEY".to_vec(), self.last_key.clone()));
        }
        info.push((
            b"hfile.AVG_KEY_LEN".to_vec(),
            avg(self.key_bytes).to_be_bytes().to_vec(),
        ));
        info.push((
            b"hfile.CREATE_TIME_TS".to_vec(),
            self.options.create_time_ms.to_be_bytes().to_vec(),
        ));
        info.push((
            b"hfile.AVG_VALUE_LEN".to_vec(),
            avg(self.value_bytes).to_be_bytes().to_vec(),
        ));
        if self.cells > 0 {
            info.push((
                b"hfile.KEY_OF_BIGGEST_CELL".to_vec(),
                self.biggest.1.clone(),
            ));
            info.push((
                b"hfile.LEN_OF_BIGGEST_CELL".to_vec(),
                self.biggest.0.to_be_bytes().to_vec(),
            ));
        }
        info.push((b"hfile.MAX_TAGS_LEN".to_vec(), 0i32.to_be_bytes().to_vec()));
        info.push((b"hfile.TAGS_COMPRESSED".to_vec(), vec![0]));
        // What HBase's store file writer adds: the filter's kind and last row (a get of a later
        // row skips the file), and the count of family deletes (none: gets skip the check).
        let bloom = self.bloom.take().filter(|b| !b.is_empty());
        if let Some(bloom) = &bloom {
            info.push((b"BLOOM_FILTER_TYPE".to_vec(), b"ROW".to_vec()));
            info.push((b"LAST_BLOOM_KEY".to_vec(), bloom.last_row().to_vec()));
        }
        info.push((
            b"DELETE_FAMILY_COUNT".to_vec(),
            self.delete_families.to_be_bytes().to_vec(),
        ));
        info.extend(self.options.file_info.iter().cloned());
        let proto = pb::FileInfoProto {
            map_entry: info
                .into_iter()
                .map(|(first, second)| pb::BytesBytesPair {
                    first: Bytes::from(first),
                    second: Bytes::from(second),
                })
                .collect(),
        };
        let mut file_info = b"PBUF".to_vec();
        proto
            .encode_length_delimited(&mut file_info)
            .expect("a Vec grows");
        let file_info_offset = self.pos;
        self.write_block(magic::FILE_INFO, &file_info, NO_OFFSET)?;
        // The Bloom filter's meta, read after the file info.
        let bloom_chunks = bloom.as_ref().map_or(0, |b| b.chunks());
        if let Some(bloom) = &bloom {
            self.write_block(magic::BLOOM_META, &bloom.meta(), NO_OFFSET)?;
        }

        // The trailer.
        let trailer = pb::FileTrailerProto {
            file_info_offset: Some(file_info_offset),
            load_on_open_data_offset: Some(index.root_offset),
            uncompressed_data_index_size: Some(index.bytes),
            total_uncompressed_bytes: Some(self.uncompressed + TRAILER_SIZE as u64),
            data_index_count: Some(index.root_entries),
            meta_index_count: Some(0),
            entry_count: Some(self.cells),
            num_data_index_levels: Some(index.levels),
            first_data_block_offset: Some(first_data),
            last_data_block_offset: Some(last_data),
            comparator_class_name: Some(COMPARATOR.into()),
            compression_codec: Some(self.options.compression.ordinal()),
            encryption_key: None,
        };
        let mut tail = magic::TRAILER.to_vec();
        trailer
            .encode_length_delimited(&mut tail)
            .expect("a Vec grows");
        tail.resize(TRAILER_SIZE - 4, 0);
        // Minor version 3 in the top byte, major version 3 below.
        tail.extend_from_slice(&((3u32 << 24) | 3).to_be_bytes());
        self.out.write_all(&tail)?;
        self.pos += tail.len() as u64;
        self.out.flush()?;
        let last_row = (self.cells > 0).then(|| key_row(&self.last_key).to_vec());
        let summary = HFileSummary {
            cells: self.cells,
            blocks: data_blocks as usize,
            bytes: self.pos,
            first_row: self.first_row.take(),
            last_row,
            bloom_chunks,
            index_levels: index.levels,
        };
        Ok((summary, self.out))
    }
}

/// A cell's key as HBase serializes it.
fn flat_key(c: &HFileCell<'_>, k: &mut Vec<u8>) {
    k.clear();
    k.extend_from_slice(&(c.row.len() as u16).to_be_bytes());
    k.extend_from_slice(c.row);
    k.push(c.family.len() as u8);
    k.extend_from_slice(c.family);
    k.extend_from_slice(c.qualifier);
    k.extend_from_slice(&c.timestamp.to_be_bytes());
    k.push(c.kind as u8);
}

/// The row of a serialized key.
fn key_row(key: &[u8]) -> &[u8] {
    let len = u16::from_be_bytes([key[0], key[1]]) as usize;
    &key[2..2 + len]
}

/// HBase's cell order on serialized keys: row, family, qualifier ascending; timestamp and type
/// descending.
fn compare_keys(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    key_parts(a).cmp(&key_parts(b))
}

/// A serialized key's parts in comparison order.
type KeyParts<'k> = (
    &'k [u8],
    &'k [u8],
    &'k [u8],
    std::cmp::Reverse<i64>,
    std::cmp::Reverse<u8>,
);

fn key_parts(k: &[u8]) -> KeyParts<'_> {
    let row_len = u16::from_be_bytes([k[0], k[1]]) as usize;
    let row = &k[2..2 + row_len];
    let fam_len = k[2 + row_len] as usize;
    let fam_start = 3 + row_len;
    let family = &k[fam_start..fam_start + fam_len];
    let qualifier = &k[fam_start + fam_len..k.len() - 9];
    let ts = i64::from_be_bytes(k[k.len() - 9..k.len() - 1].try_into().expect("8 bytes"));
    let kind = k[k.len() - 1];
    (
        row,
        family,
        qualifier,
        std::cmp::Reverse(ts),
        std::cmp::Reverse(kind),
    )
}

/// Hadoop's `WritableUtils.writeVLong`: a value in -112..=127 is one byte; otherwise a length
/// byte, then the value's big-endian bytes without leading zeros.
fn write_vint(out: &mut Vec<u8>, v: i64) {
    if (-112..=127).contains(&v) {
        out.push(v as u8);
        return;
    }
    let (mut len, v) = if v < 0 { (-120i64, !v) } else { (-112i64, v) };
    let mut tmp = v;
    while tmp != 0 {
        tmp >>= 8;
        len -= 1;
    }
    out.push(len as u8);
    let bytes = if len < -120 {
        -(len + 120)
    } else {
        -(len + 112)
    };
    for i in (0..bytes).rev() {
        out.push((v >> (i * 8)) as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Random cells in HBase's order, each key once: rows from a small alphabet (so rows
    /// hold several cells), some values big enough to span blocks.
    fn cells() -> impl Strategy<Value = Vec<read::ReadCell>> {
        let cell = (
            prop::collection::vec(0u8..4, 1..6),
            prop::collection::vec(any::<u8>(), 0..4),
            0i64..1_000,
            prop_oneof![Just(4u8), Just(8u8), Just(12u8), Just(14u8)],
            prop::collection::vec(any::<u8>(), 0..200),
            0u8..20,
        );
        prop::collection::vec(cell, 0..400).prop_map(|raw| {
            let mut cells: Vec<read::ReadCell> = raw
                .into_iter()
                .map(
                    |(row, qualifier, timestamp, kind, value, big)| read::ReadCell {
                        row,
                        family: b"f".to_vec(),
                        qualifier,
                        timestamp,
                        kind,
                        value: if big == 0 { vec![7; 20_000] } else { value },
                    },
                )
                .collect();
            let order = |c: &read::ReadCell| {
                (
                    c.row.clone(),
                    c.qualifier.clone(),
                    std::cmp::Reverse(c.timestamp),
                    std::cmp::Reverse(c.kind),
                )
            };
            cells.sort_by_key(order);
            cells.dedup_by_key(|c| order(c));
            cells
        })
    }

    /// 5,000 one-cell blocks (150 KB of entries) under index chunks of 200 bytes, 2, 8, 128 and
    /// 1,024 KiB: four levels (leaves of 6 entries, intermediate levels cut after 17), three,
    /// two, two, one; each read back.
    #[test]
    fn indexes_grow_levels_as_hbases_do() {
        for (chunk, levels) in [
            (200, 4),
            (2_048, 3),
            (8_192, 2),
            (index::DEFAULT_CHUNK, 2),
            (1 << 20, 1),
        ] {
            let options = HFileOptions {
                block_size: 1,
                index_block_size: chunk,
                ..HFileOptions::default()
            };
            let mut w = HFileWriter::new(Vec::new(), options);
            for i in 0u32..5_000 {
                let row = i.to_be_bytes();
                w.append(&HFileCell {
                    row: &row,
                    family: b"f",
                    qualifier: b"q",
                    timestamp: 1,
                    kind: HFileCellType::Put,
                    value: b"v",
                })
                .unwrap();
            }
            let (summary, bytes) = w.finish().unwrap();
            assert_eq!((summary.blocks, summary.index_levels), (5_000, levels));
            let file = read::read(&bytes).unwrap();
            assert_eq!(file.cells.len(), 5_000);
            assert_eq!(file.trailer.num_data_index_levels, Some(levels));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Whatever the cells, block size, checksum chunk, codec and filter, rowkey's own
        /// reader (checksums checked, blocks found through the index) reads every cell back,
        /// every row passes the Bloom filter, and the summary describes the file.
        #[test]
        fn every_file_the_writer_writes_reads_back(
            cells in cells(),
            block_size in 1usize..6_000,
            per in 1u32..3_000,
            index_block_size in prop_oneof![1usize..400, Just(index::DEFAULT_CHUNK)],
            codec in 0usize..3,
            row_bloom in any::<bool>(),
        ) {
            let compression =
                [HFileCompression::None, HFileCompression::Gz, HFileCompression::Snappy][codec];
            let options = HFileOptions {
                block_size,
                bytes_per_checksum: per,
                compression,
                row_bloom,
                index_block_size,
            ..HFileOptions::default()
            };
            let mut w = HFileWriter::new(Vec::new(), options);
            for c in &cells {
                w.append(&HFileCell {
                    row: &c.row,
                    family: &c.family,
                    qualifier: &c.qualifier,
                    timestamp: c.timestamp,
                    kind: read::kind(c.kind),
                    value: &c.value,
                })
                .unwrap();
            }
            let (summary, bytes) = w.finish().unwrap();
            prop_assert_eq!(summary.bytes, bytes.len() as u64);
            let file = read::read(&bytes).map_err(TestCaseError::fail)?;
            prop_assert_eq!(&file.cells, &cells);
            prop_assert_eq!(file.index_keys.len(), summary.blocks);
            prop_assert_eq!(file.trailer.num_data_index_levels, Some(summary.index_levels));
            prop_assert_eq!(summary.first_row.as_ref(), cells.first().map(|c| &c.row));
            prop_assert_eq!(summary.last_row.as_ref(), cells.last().map(|c| &c.row));
            let has = |k: &[u8]| file.file_info.iter().any(|(key, _)| key == k);
            prop_assert_eq!(has(b"hfile.LASTKEY"), !cells.is_empty());
            let filtered = row_bloom && !cells.is_empty();
            prop_assert_eq!(file.bloom.is_some(), filtered);
            prop_assert_eq!(has(b"BLOOM_FILTER_TYPE"), filtered);
            prop_assert_eq!(summary.bloom_chunks > 0, filtered);
            if filtered {
                for c in &cells {
                    prop_assert_eq!(file.bloom_contains(&c.row), Some(true));
                }
            }
            prop_assert_eq!(
                file.trailer.compression_codec,
                Some(compression.ordinal())
            );
        }
    }

    #[test]
    fn vints_are_hadoops() {
        let enc = |v| {
            let mut o = Vec::new();
            write_vint(&mut o, v);
            o
        };
        assert_eq!(enc(5), [5]);
        assert_eq!(enc(127), [127]);
        assert_eq!(enc(128), [0x8F, 0x80]);
        assert_eq!(enc(300), [0x8E, 0x01, 0x2C]);
        assert_eq!(enc(-1), [0xFF]);
    }

    #[test]
    fn cells_hbase_cannot_store_are_refused_and_the_file_goes_on() {
        let mut w = HFileWriter::new(Vec::new(), HFileOptions::default());
        let cell = |row: &'static [u8], family: &'static [u8], ts| HFileCell {
            row,
            family,
            qualifier: b"v",
            timestamp: ts,
            kind: HFileCellType::Put,
            value: b"x",
        };
        let refused = |r: Result<(), HFileError>, what: &str| match r {
            Err(e @ HFileError::InvalidCell { .. }) => {
                assert!(e.to_string().contains(what), "{e}")
            }
            other => panic!("{other:?}"),
        };
        refused(w.append(&cell(b"", b"d", 1)), "a row key of 0 bytes");
        let long_row = vec![b'r'; 40_000].leak();
        refused(
            w.append(&cell(long_row, b"d", 1)),
            "a row key of 40000 bytes",
        );
        let long_family = vec![b'f'; 128].leak();
        refused(
            w.append(&cell(b"r", long_family, 1)),
            "a family name of 128 bytes",
        );
        refused(w.append(&cell(b"r", b"d", -1)), "a negative timestamp");
        // Nothing refused was written; the file takes valid cells still.
        w.append(&cell(b"r", b"d", 1)).unwrap();
        let (summary, _) = w.finish().unwrap();
        assert_eq!(summary.cells, 1);
    }

    #[test]
    fn cells_out_of_order_are_refused() {
        let mut w = HFileWriter::new(Vec::new(), HFileOptions::default());
        let cell = |row: &'static [u8], ts| HFileCell {
            row,
            family: b"d",
            qualifier: b"v",
            timestamp: ts,
            kind: HFileCellType::Put,
            value: b"x",
        };
        w.append(&cell(b"b", 5)).unwrap();
        w.append(&cell(b"b", 4)).unwrap(); // older version: after
        assert!(matches!(
            w.append(&cell(b"a", 9)),
            Err(HFileError::OutOfOrder { index: 2, .. })
        ));
        assert!(matches!(
            w.append(&cell(b"b", 4)),
            Err(HFileError::OutOfOrder { .. })
        ));
        let (summary, bytes) = w.finish().unwrap();
        assert_eq!(summary.cells, 2);
        assert_eq!(&bytes[..8], b"DATABLK*");
        assert_eq!(bytes.len() as u64, summary.bytes);
        assert_eq!(&bytes[bytes.len() - 4..], &[3, 0, 0, 3]);
    }
}
