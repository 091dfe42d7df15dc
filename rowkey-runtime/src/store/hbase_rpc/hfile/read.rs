//! A reader of HFiles of rowkey's own, for the writer's property tests: it follows the format
//! from the trailer inwards as HBase's reader does (trailer, load-on-open section, root index,
//! file info, Bloom filter meta, then every data block through the index), checks every
//! block's checksums, decompresses, and parses every cell. It reads what [`HFileWriter`]
//! writes (one index level, no encoding), and fails loudly on anything else.
//!
//! [`HFileWriter`]: super::HFileWriter

use std::io::Read;

use prost::Message;

use super::{bloom, HFileCellType, HFileCompression, HEADER, TRAILER_SIZE};
use crate::store::net::hbase_pb as pb;

/// An owned cell, as read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct ReadCell {
    pub row: Vec<u8>,
    pub family: Vec<u8>,
    pub qualifier: Vec<u8>,
    pub timestamp: i64,
    pub kind: u8,
    pub value: Vec<u8>,
}

/// A Bloom filter as read: its hash count, and each chunk's first row and bits.
pub(super) type ReadBloom = (u32, Vec<(Vec<u8>, Vec<u8>)>);

/// What a file holds.
pub(super) struct ReadFile {
    pub trailer: pb::FileTrailerProto,
    pub cells: Vec<ReadCell>,
    pub file_info: Vec<(Vec<u8>, Vec<u8>)>,
    /// The data blocks' first keys, as the root index lists them.
    pub index_keys: Vec<Vec<u8>>,
    /// The Bloom filter: hash count and each chunk's first row and bits.
    pub bloom: Option<ReadBloom>,
}

impl ReadFile {
    /// Whether the Bloom filter may hold `row` (`None`: no filter).
    pub fn bloom_contains(&self, row: &[u8]) -> Option<bool> {
        let (hashes, chunks) = self.bloom.as_ref()?;
        let Some(i) = chunks
            .iter()
            .rposition(|(first, _)| first.as_slice() <= row)
        else {
            return Some(false);
        };
        Some(bloom::contains(&chunks[i].1, *hashes, row))
    }
}

type Res<T> = Result<T, String>;

/// A block: its type, its data (decompressed), and the offset after it.
fn block(file: &[u8], at: usize, codec: HFileCompression) -> Res<([u8; 8], Vec<u8>, usize)> {
    let h = file.get(at..at + HEADER).ok_or("a block past the end")?;
    let int = |i: usize| u32::from_be_bytes(h[i..i + 4].try_into().expect("4 bytes")) as usize;
    let magic: [u8; 8] = h[..8].try_into().expect("8 bytes");
    let (on_disk, raw, per, data_end) = (int(8), int(12), int(25), int(29));
    if h[24] != 2 {
        return Err(format!("checksum type {}", h[24]));
    }
    let end = at + HEADER + on_disk;
    let with_header = file
        .get(at..at + data_end)
        .ok_or("block data past the end")?;
    let sums = file
        .get(at + data_end..end)
        .ok_or("checksums past the end")?;
    if sums.len() != with_header.len().div_ceil(per) * 4 {
        return Err(format!("{} checksum bytes", sums.len()));
    }
    for (chunk, sum) in with_header.chunks(per).zip(sums.chunks(4)) {
        if crc32c::crc32c(chunk).to_be_bytes() != sum {
            return Err(format!("a bad checksum in the block at {at}"));
        }
    }
    let stored = &with_header[HEADER..];
    let data = match codec {
        HFileCompression::None => stored.to_vec(),
        HFileCompression::Gz if raw == 0 => Vec::new(),
        HFileCompression::Gz => {
            let mut out = Vec::new();
            flate2::read::GzDecoder::new(stored)
                .read_to_end(&mut out)
                .map_err(|e| e.to_string())?;
            out
        }
        HFileCompression::Snappy => {
            let mut out = Vec::new();
            let mut p = stored;
            while !p.is_empty() {
                let n = u32::from_be_bytes(p[4..8].try_into().expect("4 bytes")) as usize;
                let piece = snap::raw::Decoder::new()
                    .decompress_vec(&p[8..8 + n])
                    .map_err(|e| e.to_string())?;
                if piece.len() != u32::from_be_bytes(p[..4].try_into().expect("4")) as usize {
                    return Err("a Snappy piece of the wrong length".into());
                }
                out.extend_from_slice(&piece);
                p = &p[8 + n..];
            }
            out
        }
    };
    if data.len() != raw {
        return Err(format!("{} bytes where the header says {raw}", data.len()));
    }
    Ok((magic, data, end))
}

/// Hadoop's `WritableUtils.readVLong`.
fn read_vint(b: &[u8], at: &mut usize) -> i64 {
    let first = b[*at] as i8;
    *at += 1;
    if first >= -112 {
        return first as i64;
    }
    let (len, negative) = if first < -120 {
        (-(first as i64 + 120), true)
    } else {
        (-(first as i64 + 112), false)
    };
    let mut v = 0i64;
    for _ in 0..len {
        v = (v << 8) | b[*at] as i64;
        *at += 1;
    }
    if negative {
        !v
    } else {
        v
    }
}

/// Root index entries: offset, size, key.
fn root_index(data: &[u8], count: usize) -> Vec<(usize, usize, Vec<u8>)> {
    root_index_len(data, count).0
}

/// Root index entries, and the bytes they take.
fn root_index_len(data: &[u8], count: usize) -> (Vec<(usize, usize, Vec<u8>)>, usize) {
    let mut at = 0;
    let entries = (0..count)
        .map(|_| {
            let offset = u64::from_be_bytes(data[at..at + 8].try_into().expect("8")) as usize;
            let size = u32::from_be_bytes(data[at + 8..at + 12].try_into().expect("4")) as usize;
            at += 12;
            let len = read_vint(data, &mut at) as usize;
            let key = data[at..at + len].to_vec();
            at += len;
            (offset, size, key)
        })
        .collect();
    (entries, at)
}

/// A non-root index block's entries, its secondary index checked.
fn non_root(data: &[u8]) -> Res<Vec<(usize, usize, Vec<u8>)>> {
    let int = |i: usize| i32::from_be_bytes(data[i..i + 4].try_into().expect("4")) as usize;
    let n = int(0);
    let base = 4 + 4 * (n + 1);
    if base + int(4 * (n + 1)) != data.len() {
        return Err("a non-root index block of the wrong size".into());
    }
    (0..n)
        .map(|i| {
            let (start, end) = (base + int(4 + 4 * i), base + int(8 + 4 * i));
            let e = &data[start..end];
            Ok((
                u64::from_be_bytes(e[..8].try_into().expect("8")) as usize,
                u32::from_be_bytes(e[8..12].try_into().expect("4")) as usize,
                e[12..].to_vec(),
            ))
        })
        .collect()
}

/// The data blocks below `entries` of an index with `levels` levels, each child block's
/// first key checked against its parent's entry.
fn descend(
    file: &[u8],
    codec: HFileCompression,
    entries: Vec<(usize, usize, Vec<u8>)>,
    levels: usize,
) -> Res<Vec<(usize, usize, Vec<u8>)>> {
    if levels <= 1 {
        return Ok(entries);
    }
    let expected = if levels == 2 {
        super::magic::LEAF_INDEX
    } else {
        super::magic::INTERMEDIATE_INDEX
    };
    let mut below = Vec::new();
    for (offset, size, key) in entries {
        let (magic, data, end) = block(file, offset, codec)?;
        if &magic != expected || end - offset != size {
            return Err(format!(
                "no {} block at {offset}",
                String::from_utf8_lossy(expected)
            ));
        }
        let children = non_root(&data)?;
        if children.first().map(|c| &c.2) != Some(&key) {
            return Err("an index block's first key is not its parent's".into());
        }
        below.extend(children);
    }
    descend(file, codec, below, levels - 1)
}

/// Reads the whole file.
pub(super) fn read(file: &[u8]) -> Res<ReadFile> {
    let t = file
        .len()
        .checked_sub(TRAILER_SIZE)
        .ok_or("shorter than a trailer")?;
    if &file[t..t + 8] != super::magic::TRAILER || file[file.len() - 4..] != [3, 0, 0, 3] {
        return Err("no version 3.3 trailer".into());
    }
    let trailer =
        pb::FileTrailerProto::decode_length_delimited(&file[t + 8..]).map_err(|e| e.to_string())?;
    let codec = match trailer.compression_codec {
        Some(2) => HFileCompression::None,
        Some(1) => HFileCompression::Gz,
        Some(3) => HFileCompression::Snappy,
        other => return Err(format!("codec {other:?}")),
    };
    let at = trailer
        .load_on_open_data_offset
        .ok_or("no load-on-open offset")? as usize;
    let (magic, root, at) = block(file, at, codec)?;
    if &magic != super::magic::ROOT_INDEX {
        return Err("no root index".into());
    }
    let levels = trailer.num_data_index_levels.ok_or("no index levels")? as usize;
    let roots = trailer.data_index_count.unwrap_or(0) as usize;
    let (root_entries, used) = root_index_len(&root, roots);
    let mid = &root[used..];
    let index = descend(file, codec, root_entries, levels)?;
    if levels > 1 {
        // The mid-key metadata: the leaf holding data block (n - 1) / 2, and its place there.
        if mid.len() != 16 {
            return Err(format!("{} bytes of mid-key metadata", mid.len()));
        }
        let offset = u64::from_be_bytes(mid[..8].try_into().expect("8")) as usize;
        let size = u32::from_be_bytes(mid[8..12].try_into().expect("4")) as usize;
        let entry = i32::from_be_bytes(mid[12..].try_into().expect("4")) as usize;
        let (magic, leaf, end) = block(file, offset, codec)?;
        if &magic != super::magic::LEAF_INDEX || end - offset != size {
            return Err("the mid key names no leaf".into());
        }
        let entries = non_root(&leaf)?;
        let key = &entries.get(entry).ok_or("the mid key is past its leaf")?.2;
        if *key != index[(index.len() - 1) / 2].2 {
            return Err("the mid key is not the middle data block's".into());
        }
    } else if !mid.is_empty() {
        return Err("bytes after a one-level root".into());
    }
    let (_, meta_index, at) = block(file, at, codec)?;
    if !meta_index.is_empty() {
        return Err("a meta index with entries".into());
    }
    if Some(at as u64) != trailer.file_info_offset {
        return Err("the file info is not where the trailer says".into());
    }
    let (magic, info, at) = block(file, at, codec)?;
    if &magic != super::magic::FILE_INFO || &info[..4] != b"PBUF" {
        return Err("no file info".into());
    }
    let info = pb::FileInfoProto::decode_length_delimited(&info[4..]).map_err(|e| e.to_string())?;
    let file_info: Vec<(Vec<u8>, Vec<u8>)> = info
        .map_entry
        .into_iter()
        .map(|p| (p.first.to_vec(), p.second.to_vec()))
        .collect();
    let mut bloom = None;
    if at < t {
        let (magic, meta, end) = block(file, at, codec)?;
        if &magic != super::magic::BLOOM_META || end != t {
            return Err("something other than a Bloom meta after the file info".into());
        }
        let int = |i: usize| i32::from_be_bytes(meta[i..i + 4].try_into().expect("4"));
        let (version, hashes, hash_type, chunks) = (int(0), int(12), int(16), int(36));
        if version != 3 || hash_type != 1 {
            return Err(format!("Bloom meta version {version}, hash {hash_type}"));
        }
        let mut at = 40;
        if read_vint(&meta, &mut at) != 0 {
            return Err("a Bloom comparator".into());
        }
        let mut loaded = Vec::new();
        for (offset, size, first) in root_index(&meta[at..], chunks as usize) {
            let (magic, bits, end) = block(file, offset, codec)?;
            if &magic != super::magic::BLOOM_CHUNK || end - offset != size {
                return Err("a Bloom chunk the index misplaces".into());
            }
            loaded.push((first, bits));
        }
        bloom = Some((hashes as u32, loaded));
    }
    let mut cells = Vec::new();
    let mut index_keys = Vec::new();
    let mut data_end = 0;
    for (offset, size, first) in index {
        if offset < data_end {
            return Err("data blocks out of order".into());
        }
        data_end = offset + size;
        let (magic, data, end) = block(file, offset, codec)?;
        if &magic != super::magic::DATA || end - offset != size {
            return Err(format!("no data block of {size} bytes at {offset}"));
        }
        let mut p = 0;
        let mut first_key = None;
        while p < data.len() {
            let int = |i: usize| u32::from_be_bytes(data[i..i + 4].try_into().expect("4")) as usize;
            let (klen, vlen) = (int(p), int(p + 4));
            let key = &data[p + 8..p + 8 + klen];
            first_key.get_or_insert(key.to_vec());
            let value = data[p + 8 + klen..p + 8 + klen + vlen].to_vec();
            let tags = u16::from_be_bytes([data[p + 8 + klen + vlen], data[p + 9 + klen + vlen]]);
            p += 10 + klen + vlen + tags as usize;
            let (row, family, qualifier, ts, kind) = super::key_parts(key);
            cells.push(ReadCell {
                row: row.to_vec(),
                family: family.to_vec(),
                qualifier: qualifier.to_vec(),
                timestamp: ts.0,
                kind: kind.0,
                value,
            });
        }
        if first_key.as_ref() != Some(&first) {
            return Err(format!(
                "the index's key of the block at {offset} is not its first"
            ));
        }
        index_keys.push(first);
    }
    if Some(cells.len() as u64) != trailer.entry_count {
        return Err("the trailer's count is not the cells'".into());
    }
    Ok(ReadFile {
        trailer,
        cells,
        file_info,
        index_keys,
        bloom,
    })
}

/// An owned cell's kind, for building cells to write.
pub(super) fn kind(byte: u8) -> HFileCellType {
    match byte {
        4 => HFileCellType::Put,
        8 => HFileCellType::Delete,
        12 => HFileCellType::DeleteColumn,
        _ => HFileCellType::DeleteFamily,
    }
}
