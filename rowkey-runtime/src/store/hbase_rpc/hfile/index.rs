//! The data block index, one level or several, as HBase's `HFileBlockIndex.BlockIndexWriter`
//! writes it:
//!
//! - each data block's offset, on-disk size and first key goes into an inline chunk; once the
//!   chunk's non-root form reaches `hfile.index.block.max.size` (128 KiB), it is written as a
//!   leaf index block (`IDXLEAF2`) after the data block, and the root gets an entry for it;
//! - a file whose chunk never filled has a one-level index: the chunk is the root;
//! - a root over the chunk size (with more than 16 entries) is written as intermediate blocks
//!   (`IDXINTE2`), level by level, until it fits;
//! - the root (`IDXROOT2`, in the load-on-open section) lists `offset (u64) | size (u32) |
//!   key (vint length, bytes)`; a multi-level root ends with the mid-key metadata (the leaf
//!   holding the middle data block, its size, the entry's place in it), which HBase reads to
//!   split a region;
//! - non-root blocks: entry count (i32), the entries' offsets within them (i32 each, and the
//!   total), then `offset (u64) | size (u32) | key`, for binary search.

use super::{write_vint, HFileError};

/// HBase's `hfile.index.block.max.size` default.
pub(super) const DEFAULT_CHUNK: usize = 128 * 1024;
/// `hfile.index.block.min.entries`' default: a level is cut only past this many entries.
const MIN_ENTRIES: usize = 16;

/// One index entry.
#[derive(Clone)]
struct Entry {
    offset: u64,
    size: u32,
    key: Vec<u8>,
    /// Data blocks indexed up to and including this entry (for the root's leaf entries).
    cumulative: u64,
}

/// A chunk of entries, with the sizes of its two forms kept as it grows.
#[derive(Default)]
struct Chunk {
    entries: Vec<Entry>,
    /// Sum over entries of `12 + key length` (the non-root entries).
    entry_bytes: usize,
    /// The root form's size.
    root_bytes: usize,
}

impl Chunk {
    fn add(&mut self, entry: Entry) {
        self.entry_bytes += 12 + entry.key.len();
        self.root_bytes += 12 + vint_len(entry.key.len() as i64) + entry.key.len();
        self.entries.push(entry);
    }

    fn non_root_bytes(&self) -> usize {
        4 + 4 * (self.entries.len() + 1) + self.entry_bytes
    }

    fn non_root(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.non_root_bytes());
        out.extend_from_slice(&(self.entries.len() as i32).to_be_bytes());
        let mut at = 0;
        for e in &self.entries {
            out.extend_from_slice(&(at as i32).to_be_bytes());
            at += 12 + e.key.len();
        }
        out.extend_from_slice(&(at as i32).to_be_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.offset.to_be_bytes());
            out.extend_from_slice(&e.size.to_be_bytes());
            out.extend_from_slice(&e.key);
        }
        out
    }

    fn root(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.root_bytes + 16);
        for e in &self.entries {
            out.extend_from_slice(&e.offset.to_be_bytes());
            out.extend_from_slice(&e.size.to_be_bytes());
            write_vint(&mut out, e.key.len() as i64);
            out.extend_from_slice(&e.key);
        }
        out
    }

    /// `getMidKeyMetadata`: the leaf entry holding data block `(total - 1) / 2`, and its
    /// place in that leaf.
    fn mid_key(&self) -> [u8; 16] {
        let total = self.entries.last().map_or(0, |e| e.cumulative);
        let mid = total.saturating_sub(1) / 2;
        let leaf = self.entries.partition_point(|e| e.cumulative <= mid);
        let before = if leaf > 0 {
            self.entries[leaf - 1].cumulative
        } else {
            0
        };
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&self.entries[leaf].offset.to_be_bytes());
        out[8..12].copy_from_slice(&self.entries[leaf].size.to_be_bytes());
        out[12..].copy_from_slice(&((mid - before) as i32).to_be_bytes());
        out
    }
}

/// `WritableUtils.getVIntSize`.
fn vint_len(v: i64) -> usize {
    if (-112..=127).contains(&v) {
        return 1;
    }
    let v = if v < 0 { !v } else { v };
    1 + (64 - v.leading_zeros() as usize).div_ceil(8)
}

/// Writes a block (its type, its data) and says where it went: offset, on-disk size.
pub(super) type WriteBlock<'a> = dyn FnMut(&[u8; 8], &[u8]) -> Result<(u64, u32), HFileError> + 'a;

/// The data index of one file being written.
pub(super) struct BlockIndex {
    chunk_size: usize,
    /// Data block entries not yet in a leaf block.
    inline: Chunk,
    /// One entry per leaf block written (empty: a one-level index so far).
    root: Chunk,
    /// Whether a leaf block was written (the root lists leaves, not data blocks).
    leaves: bool,
    data_blocks: u64,
    /// The index blocks' data bytes, uncompressed (the trailer's `uncompressedDataIndexSize`).
    index_bytes: u64,
}

/// What the finished index is, for the trailer.
pub(super) struct IndexSummary {
    /// The root block's offset (where the load-on-open section starts).
    pub root_offset: u64,
    /// Entries in the root.
    pub root_entries: u32,
    /// Levels (1: the root lists data blocks).
    pub levels: u32,
    /// The index blocks' data bytes.
    pub bytes: u64,
}

impl BlockIndex {
    /// An index cutting chunks at `chunk_size` bytes.
    pub fn new(chunk_size: usize) -> Self {
        BlockIndex {
            chunk_size: chunk_size.max(1),
            inline: Chunk::default(),
            root: Chunk::default(),
            leaves: false,
            data_blocks: 0,
            index_bytes: 0,
        }
    }

    /// Data blocks indexed.
    pub fn data_blocks(&self) -> u64 {
        self.data_blocks
    }

    /// Indexes a data block written at `offset`, `size` bytes with its header, whose first
    /// key is `key`; writes a leaf block when the inline chunk is full.
    pub fn add(
        &mut self,
        offset: u64,
        size: u32,
        key: Vec<u8>,
        write: &mut WriteBlock<'_>,
    ) -> Result<(), HFileError> {
        self.data_blocks += 1;
        self.inline.add(Entry {
            offset,
            size,
            key,
            cumulative: 0,
        });
        if self.inline.non_root_bytes() >= self.chunk_size {
            self.write_leaf(write)?;
        }
        Ok(())
    }

    fn write_leaf(&mut self, write: &mut WriteBlock<'_>) -> Result<(), HFileError> {
        let data = self.inline.non_root();
        let (offset, size) = write(super::magic::LEAF_INDEX, &data)?;
        self.index_bytes += data.len() as u64;
        self.leaves = true;
        let first = std::mem::take(&mut self.inline).entries.swap_remove(0).key;
        self.root.add(Entry {
            offset,
            size,
            key: first,
            cumulative: self.data_blocks,
        });
        Ok(())
    }

    /// Writes what is left: the last leaf (or nothing: the inline chunk becomes the root),
    /// then the inline blocks are done. Call before any other block of the closing file.
    pub fn close_inline(&mut self, write: &mut WriteBlock<'_>) -> Result<(), HFileError> {
        if self.inline.entries.is_empty() {
            return Ok(());
        }
        if !self.leaves {
            self.root = std::mem::take(&mut self.inline);
            return Ok(());
        }
        self.write_leaf(write)
    }

    /// Writes intermediate levels while the root is too big, then the root.
    pub fn finish(mut self, write: &mut WriteBlock<'_>) -> Result<IndexSummary, HFileError> {
        let mut levels = if self.leaves { 2 } else { 1 };
        let mid_key = (levels > 1).then(|| self.root.mid_key());
        while self.root.root_bytes > self.chunk_size
            && self.root.entries.len() > MIN_ENTRIES
            && levels < 16
        {
            let level = std::mem::take(&mut self.root);
            let mut chunk = Chunk::default();
            let count = level.entries.len();
            for (i, e) in level.entries.into_iter().enumerate() {
                chunk.add(e);
                if (i >= MIN_ENTRIES && chunk.root_bytes >= self.chunk_size) || i + 1 == count {
                    let data = chunk.non_root();
                    let (offset, size) = write(super::magic::INTERMEDIATE_INDEX, &data)?;
                    self.index_bytes += data.len() as u64;
                    let first = std::mem::take(&mut chunk).entries.swap_remove(0).key;
                    self.root.add(Entry {
                        offset,
                        size,
                        key: first,
                        cumulative: 0,
                    });
                }
            }
            levels += 1;
        }
        let mut root = self.root.root();
        if let Some(mid) = mid_key {
            root.extend_from_slice(&mid);
        }
        let (root_offset, _) = write(super::magic::ROOT_INDEX, &root)?;
        Ok(IndexSummary {
            root_offset,
            root_entries: self.root.entries.len() as u32,
            levels,
            bytes: self.index_bytes + root.len() as u64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vint_sizes_are_hadoops() {
        for v in [
            0i64,
            1,
            127,
            128,
            255,
            256,
            65_535,
            65_536,
            1 << 40,
            -1,
            -112,
            -113,
            -300,
        ] {
            let mut out = Vec::new();
            write_vint(&mut out, v);
            assert_eq!(vint_len(v), out.len(), "{v}");
        }
    }

    #[test]
    fn the_mid_key_is_the_middle_data_block() {
        let mut root = Chunk::default();
        for (i, cumulative) in [3u64, 6, 9, 10].into_iter().enumerate() {
            root.add(Entry {
                offset: 100 * i as u64,
                size: 7,
                key: vec![i as u8],
                cumulative,
            });
        }
        // Ten data blocks: the middle one is block 4, the second of leaf 1 (blocks 3..6).
        let mid = root.mid_key();
        assert_eq!(u64::from_be_bytes(mid[..8].try_into().unwrap()), 100);
        assert_eq!(i32::from_be_bytes(mid[12..].try_into().unwrap()), 1);
    }
}
