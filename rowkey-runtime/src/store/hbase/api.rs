//! The part of HBase's Thrift2 service (`THBaseService`, HBase's `hbase.thrift`) that rowkey
//! calls: each call's arguments written in the binary protocol, each reply read back. Field
//! numbers are HBase's; a reply's unknown fields are skipped.

use bytes::Bytes;

use super::thrift::{ty, DecodeError, In, Out, EXCEPTION, REPLY};
use crate::family::{BlockEncoding, Bloom, Compression, Family, KeepDeleted};
use crate::store::net::hbase_rules::Region;
use crate::store::{Cell, CellRow, CellVersion, Row, RowWrite, Versions};

/// A data cell's coordinates: where a row's value lives.
#[derive(Clone, Copy)]
pub(super) struct Column<'a> {
    pub family: &'a [u8],
    pub qualifier: &'a [u8],
}

/// What a read asks HBase for: `TColumn`s (a family alone, or a family and a qualifier; none:
/// every column) and a filter string.
#[derive(Clone, Debug, Default)]
pub(super) struct Select {
    pub columns: Vec<(Vec<u8>, Option<Vec<u8>>)>,
    /// A filter in HBase's filter language (`filterString`).
    pub filter: Option<Vec<u8>>,
    /// A filter as HBase's protobuf `Filter` message (`filterBytes`, scans only).
    pub filter_bytes: Option<Vec<u8>>,
}

impl Select {
    /// One column.
    pub(super) fn column(column: Column<'_>) -> Self {
        Select {
            columns: vec![(column.family.to_vec(), Some(column.qualifier.to_vec()))],
            filter: None,
            filter_bytes: None,
        }
    }
}

/// How a call failed on the server's side (the call itself went through).
#[derive(Debug)]
pub(super) enum Refused {
    /// `TIOError`: HBase failed the operation.
    Io { message: String, can_retry: bool },
    /// `TIllegalArgument`.
    IllegalArgument(String),
    /// A `TApplicationException`: the gateway could not run the call at all.
    Application { message: String, kind: i32 },
}

/// What a reply holds: the call's value (`None` for a void call), or how it was refused.
pub(super) type Reply<T> = Result<Option<T>, Refused>;

/// Reads the reply to `method`'s call number `seq`; `success` reads the value (field 0).
pub(super) fn reply<'a, T>(
    buf: &'a [u8],
    method: &str,
    seq: i32,
    success: impl FnOnce(&mut In<'a>, u8) -> Result<T, DecodeError>,
) -> Result<Reply<T>, DecodeError> {
    let mut r = In::new(buf);
    let (kind, name, got_seq) = r.message_header()?;
    if name != method || got_seq != seq {
        return Err(DecodeError(format!(
            "reply to `{name}` #{got_seq} where `{method}` #{seq} was expected"
        )));
    }
    if kind == EXCEPTION {
        let (mut message, mut code) = (String::new(), 0);
        while let Some((k, id)) = r.field()? {
            match (id, k) {
                (1, ty::STRING) => message = r.string()?,
                (2, ty::I32) => code = r.i32()?,
                _ => r.skip(k)?,
            }
        }
        return Ok(Err(Refused::Application {
            message,
            kind: code,
        }));
    }
    if kind != REPLY {
        return Err(DecodeError(format!(
            "message kind {kind} where a reply was expected"
        )));
    }
    let mut success = Some(success);
    let mut value = None;
    let mut refused = None;
    while let Some((k, id)) = r.field()? {
        match id {
            0 => {
                if let Some(read) = success.take() {
                    value = Some(read(&mut r, k)?);
                } else {
                    r.skip(k)?;
                }
            }
            1 if k == ty::STRUCT => {
                let (mut message, mut can_retry) = (String::new(), false);
                read_struct(&mut r, |r, k, id| {
                    match (id, k) {
                        (1, ty::STRING) => message = r.string()?,
                        (2, ty::BOOL) => can_retry = r.bool()?,
                        _ => r.skip(k)?,
                    }
                    Ok(())
                })?;
                refused = Some(Refused::Io { message, can_retry });
            }
            2 if k == ty::STRUCT => {
                let mut message = String::new();
                read_struct(&mut r, |r, k, id| {
                    match (id, k) {
                        (1, ty::STRING) => message = r.string()?,
                        _ => r.skip(k)?,
                    }
                    Ok(())
                })?;
                refused = Some(Refused::IllegalArgument(message));
            }
            _ => r.skip(k)?,
        }
    }
    match refused {
        Some(e) => Ok(Err(e)),
        None => Ok(Ok(value)),
    }
}

/// Reads a struct's fields with `field(reader, type, id)`, depth-bounded.
fn read_struct<'a>(
    r: &mut In<'a>,
    mut field: impl FnMut(&mut In<'a>, u8, i16) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    r.enter()?;
    while let Some((k, id)) = r.field()? {
        field(r, k, id)?;
    }
    r.leave();
    Ok(())
}

/// Reads a list of structs, each with `element`.
fn read_list<'a>(
    r: &mut In<'a>,
    k: u8,
    mut element: impl FnMut(&mut In<'a>) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    r.expect(k, ty::LIST, "list")?;
    let (elem, n) = r.list()?;
    if n > 0 {
        r.expect(elem, ty::STRUCT, "list element")?;
    }
    for _ in 0..n {
        element(r)?;
    }
    Ok(())
}

fn columns(o: &mut Out<'_>, id: i16, select: &Select) {
    if select.columns.is_empty() {
        return;
    }
    o.list_field(id, ty::STRUCT, select.columns.len(), |o| {
        for (family, qualifier) in &select.columns {
            o.list_struct(|o| {
                o.binary(1, family);
                if let Some(q) = qualifier {
                    o.binary(2, q);
                }
            })
        }
    });
}

/// `get(table, TGet{row, columns, maxVersions: 1, filterString})`.
pub(super) fn get(o: &mut Out<'_>, table: &[u8], row: &[u8], select: &Select) {
    o.binary(1, table);
    o.struct_field(2, |o| {
        o.binary(1, row);
        columns(o, 2, select);
        o.i32_field(5, 1);
        if let Some(f) = &select.filter {
            o.binary(6, f);
        }
    });
    o.stop();
}

/// `get(table, TGet{row, [family:qualifier], timeRange, maxVersions})`: the versions of one
/// cell.
pub(super) fn get_versions(
    o: &mut Out<'_>,
    table: &[u8],
    row: &[u8],
    column: Column<'_>,
    versions: &Versions,
) {
    o.binary(1, table);
    o.struct_field(2, |o| {
        o.binary(1, row);
        columns(o, 2, &Select::column(column));
        o.struct_field(4, |o| {
            o.i64_field(1, versions.from_ms);
            o.i64_field(2, versions.until_ms);
        });
        o.i32_field(5, i32::try_from(versions.max.max(1)).unwrap_or(i32::MAX));
    });
    o.stop();
}

/// The versions in a `TResult` (one cell's, newest first as HBase returns them).
pub(super) fn read_versions(r: &mut In<'_>, k: u8) -> Result<Vec<CellVersion>, DecodeError> {
    r.expect(k, ty::STRUCT, "result")?;
    let mut out = Vec::new();
    read_struct(r, |r, k, id| {
        if (id, k) == (2, ty::LIST) {
            read_list(r, k, |r| {
                let mut version = CellVersion {
                    timestamp_ms: 0,
                    value: Bytes::new(),
                };
                read_struct(r, |r, k, id| {
                    match (id, k) {
                        (3, ty::STRING) => version.value = Bytes::copy_from_slice(r.bytes()?),
                        (4, ty::I64) => version.timestamp_ms = r.i64()?,
                        _ => r.skip(k)?,
                    }
                    Ok(())
                })?;
                out.push(version);
                Ok(())
            })
        } else {
            r.skip(k)
        }
    })?;
    Ok(out)
}

/// Every cell of a `TResult` and its row key (`None` for the empty result HBase returns for a
/// missing row, or a row without the selected cells).
pub(super) fn read_cells(r: &mut In<'_>) -> Result<Option<CellRow>, DecodeError> {
    let mut row = CellRow::default();
    read_struct(r, |r, k, id| {
        match (id, k) {
            (1, ty::STRING) => row.key = r.bytes()?.to_vec(),
            (2, ty::LIST) => read_list(r, k, |r| {
                let (mut family, mut qualifier, mut value) = (&[][..], &[][..], &[][..]);
                read_struct(r, |r, k, id| {
                    match (id, k) {
                        (1, ty::STRING) => family = r.bytes()?,
                        (2, ty::STRING) => qualifier = r.bytes()?,
                        (3, ty::STRING) => value = r.bytes()?,
                        _ => r.skip(k)?,
                    }
                    Ok(())
                })?;
                let family = String::from_utf8(family.to_vec())
                    .map_err(|_| DecodeError("a column family that is not UTF-8".into()))?;
                row.cells.push(Cell::new(family, qualifier, value.to_vec()));
                Ok(())
            })?,
            _ => r.skip(k)?,
        }
        Ok(())
    })?;
    Ok((!row.key.is_empty() && !row.cells.is_empty()).then_some(row))
}

/// The value of `column` in a `TResult`, and its row key (`None` for the empty result HBase
/// returns for a missing row).
pub(super) fn read_result(r: &mut In<'_>, column: Column<'_>) -> Result<Option<Row>, DecodeError> {
    let mut row: Option<Vec<u8>> = None;
    let mut value: Option<Vec<u8>> = None;
    read_struct(r, |r, k, id| {
        match (id, k) {
            (1, ty::STRING) => row = Some(r.bytes()?.to_vec()),
            (2, ty::LIST) => read_list(r, k, |r| {
                let (mut family, mut qualifier, mut v) = (&[][..], &[][..], None);
                read_struct(r, |r, k, id| {
                    match (id, k) {
                        (1, ty::STRING) => family = r.bytes()?,
                        (2, ty::STRING) => qualifier = r.bytes()?,
                        (3, ty::STRING) => v = Some(r.bytes()?),
                        _ => r.skip(k)?,
                    }
                    Ok(())
                })?;
                if family == column.family && qualifier == column.qualifier && value.is_none() {
                    value = v.map(<[u8]>::to_vec);
                }
                Ok(())
            })?,
            _ => r.skip(k)?,
        }
        Ok(())
    })?;
    Ok(match (row, value) {
        (Some(row), Some(value)) if !row.is_empty() => Some((row.into(), value.into())),
        // A row without the value column (another writer's row) reads as an empty value,
        // as on every other store where the row exists.
        (Some(row), None) if !row.is_empty() => Some((row.into(), Bytes::new())),
        _ => None,
    })
}

/// Reads a `list<TResult>` with `read`: the rows that have a key.
pub(super) fn read_results<T>(
    r: &mut In<'_>,
    k: u8,
    mut read: impl FnMut(&mut In<'_>) -> Result<Option<T>, DecodeError>,
) -> Result<Vec<T>, DecodeError> {
    let mut out = Vec::new();
    read_list(r, k, |r| {
        if let Some(row) = read(r)? {
            out.push(row);
        }
        Ok(())
    })?;
    Ok(out)
}

fn tput(o: &mut Out<'_>, row: &[u8], value: &[u8], column: Column<'_>, timestamp: i64) {
    o.binary(1, row);
    o.list_field(2, ty::STRUCT, 1, |o| {
        o.list_struct(|o| {
            o.binary(1, column.family);
            o.binary(2, column.qualifier);
            o.binary(3, value);
            o.i64_field(4, timestamp);
        })
    });
}

/// `put(table, TPut)`.
pub(super) fn put(
    o: &mut Out<'_>,
    table: &[u8],
    row: &[u8],
    value: &[u8],
    column: Column<'_>,
    timestamp: i64,
) {
    o.binary(1, table);
    o.struct_field(2, |o| tput(o, row, value, column, timestamp));
    o.stop();
}

/// `putMultiple(table, [TPut])`.
pub(super) fn put_multiple<'r>(
    o: &mut Out<'_>,
    table: &[u8],
    rows: impl ExactSizeIterator<Item = (&'r [u8], &'r [u8])>,
    column: Column<'_>,
    timestamp: i64,
) {
    o.binary(1, table);
    o.list_field(2, ty::STRUCT, rows.len(), |o| {
        for (row, value) in rows {
            o.list_struct(|o| tput(o, row, value, column, timestamp));
        }
    });
    o.stop();
}

/// `putMultiple(table, [TPut])` of the set cells of `rows` (rows with none are left out).
pub(super) fn put_cells_multiple(o: &mut Out<'_>, table: &[u8], rows: &[RowWrite], timestamp: i64) {
    o.binary(1, table);
    let n = rows.iter().filter(|r| !r.set.is_empty()).count();
    o.list_field(2, ty::STRUCT, n, |o| {
        for r in rows.iter().filter(|r| !r.set.is_empty()) {
            o.list_struct(|o| {
                o.binary(1, &r.key);
                o.list_field(2, ty::STRUCT, r.set.len(), |o| {
                    for c in &r.set {
                        o.list_struct(|o| {
                            o.binary(1, c.family.as_bytes());
                            o.binary(2, &c.qualifier);
                            o.binary(3, &c.value);
                            o.i64_field(4, timestamp);
                        })
                    }
                });
            })
        }
    });
    o.stop();
}

/// `deleteMultiple(table, [TDelete])` of the cleared columns of `rows` (every version up to
/// `timestamp`; rows with none are left out).
pub(super) fn delete_columns_multiple(
    o: &mut Out<'_>,
    table: &[u8],
    rows: &[RowWrite],
    timestamp: i64,
) {
    o.binary(1, table);
    let n = rows.iter().filter(|r| !r.clear.is_empty()).count();
    o.list_field(2, ty::STRUCT, n, |o| {
        for r in rows.iter().filter(|r| !r.clear.is_empty()) {
            o.list_struct(|o| {
                o.binary(1, &r.key);
                o.list_field(2, ty::STRUCT, r.clear.len(), |o| {
                    for c in &r.clear {
                        o.list_struct(|o| {
                            o.binary(1, c.family.as_bytes());
                            o.binary(2, &c.qualifier);
                        })
                    }
                });
                o.i64_field(3, timestamp);
                o.i32_field(4, 1); // DELETE_COLUMNS: every version
            })
        }
    });
    o.stop();
}

/// `increment(table, TIncrement{row, [TColumnIncrement{family, qualifier, amount}],
/// returnResults: true})`; the reply's `TResult` holds the new value.
pub(super) fn increment(
    o: &mut Out<'_>,
    table: &[u8],
    row: &[u8],
    column: Column<'_>,
    amount: i64,
) {
    o.binary(1, table);
    o.struct_field(2, |o| {
        o.binary(1, row);
        o.list_field(2, ty::STRUCT, 1, |o| {
            o.list_struct(|o| {
                o.binary(1, column.family);
                o.binary(2, column.qualifier);
                o.i64_field(3, amount);
            })
        });
        o.bool_field(7, true);
    });
    o.stop();
}

/// `checkAndPut(table, row, family, qualifier, value, TPut)`: `expected` `None` leaves the
/// value out, which HBase reads as "the column must be absent".
pub(super) fn check_and_put(
    o: &mut Out<'_>,
    table: &[u8],
    row: &[u8],
    column: Column<'_>,
    expected: Option<&[u8]>,
    value: &[u8],
    timestamp: i64,
) {
    o.binary(1, table);
    o.binary(2, row);
    o.binary(3, column.family);
    o.binary(4, column.qualifier);
    if let Some(e) = expected {
        o.binary(5, e);
    }
    o.struct_field(6, |o| tput(o, row, value, column, timestamp));
    o.stop();
}

/// `checkAndDelete(table, row, family, qualifier, value, TDelete)` of the column's every
/// version up to `timestamp`.
pub(super) fn check_and_delete(
    o: &mut Out<'_>,
    table: &[u8],
    row: &[u8],
    column: Column<'_>,
    expected: Option<&[u8]>,
    timestamp: i64,
) {
    o.binary(1, table);
    o.binary(2, row);
    o.binary(3, column.family);
    o.binary(4, column.qualifier);
    if let Some(e) = expected {
        o.binary(5, e);
    }
    o.struct_field(6, |o| {
        o.binary(1, row);
        o.list_field(2, ty::STRUCT, 1, |o| {
            o.list_struct(|o| {
                o.binary(1, column.family);
                o.binary(2, column.qualifier);
            })
        });
        o.i64_field(3, timestamp);
        o.i32_field(4, 1); // DELETE_COLUMNS: every version
    });
    o.stop();
}

/// A `TDelete` of a whole row, every version up to `timestamp`.
fn tdelete(o: &mut Out<'_>, row: &[u8], timestamp: i64) {
    o.binary(1, row);
    o.i64_field(3, timestamp);
    o.i32_field(4, 1); // DELETE_COLUMNS
}

/// `deleteSingle(table, TDelete)`.
pub(super) fn delete_single(o: &mut Out<'_>, table: &[u8], row: &[u8], timestamp: i64) {
    o.binary(1, table);
    o.struct_field(2, |o| tdelete(o, row, timestamp));
    o.stop();
}

/// `deleteMultiple(table, [TDelete])`.
pub(super) fn delete_multiple<'r>(
    o: &mut Out<'_>,
    table: &[u8],
    rows: impl ExactSizeIterator<Item = &'r [u8]>,
    timestamp: i64,
) {
    o.binary(1, table);
    o.list_field(2, ty::STRUCT, rows.len(), |o| {
        for row in rows {
            o.list_struct(|o| tdelete(o, row, timestamp));
        }
    });
    o.stop();
}

/// The number of deletes a `deleteMultiple` reply says were not applied.
pub(super) fn read_unapplied(r: &mut In<'_>, k: u8) -> Result<usize, DecodeError> {
    let mut n = 0;
    read_list(r, k, |r| {
        n += 1;
        r.skip(ty::STRUCT)
    })?;
    Ok(n)
}

/// The scan a scanner is opened with.
pub(super) struct ScanSpec<'a> {
    pub start: &'a [u8],
    pub stop: Option<&'a [u8]>,
    pub select: &'a Select,
    pub caching: i32,
    pub reversed: bool,
}

/// `openScanner(table, TScan)`.
pub(super) fn open_scanner(o: &mut Out<'_>, table: &[u8], scan: &ScanSpec<'_>) {
    o.binary(1, table);
    o.struct_field(2, |o| {
        o.binary(1, scan.start);
        if let Some(stop) = scan.stop {
            o.binary(2, stop);
        }
        columns(o, 3, scan.select);
        o.i32_field(4, scan.caching);
        o.i32_field(5, 1);
        if let Some(f) = &scan.select.filter {
            o.binary(7, f);
        }
        if scan.reversed {
            o.bool_field(11, true);
        }
        if let Some(f) = &scan.select.filter_bytes {
            o.binary(18, f);
        }
    });
    o.stop();
}

/// `getScannerRows(scannerId, numRows)`.
pub(super) fn get_scanner_rows(o: &mut Out<'_>, scanner: i32, rows: i32) {
    o.i32_field(1, scanner);
    o.i32_field(2, rows);
    o.stop();
}

/// `closeScanner(scannerId)`.
pub(super) fn close_scanner(o: &mut Out<'_>, scanner: i32) {
    o.i32_field(1, scanner);
    o.stop();
}

/// Reads an i32 value.
pub(super) fn read_i32(r: &mut In<'_>, k: u8) -> Result<i32, DecodeError> {
    r.expect(k, ty::I32, "i32 result")?;
    r.i32()
}

/// Reads a bool value.
pub(super) fn read_bool(r: &mut In<'_>, k: u8) -> Result<bool, DecodeError> {
    r.expect(k, ty::BOOL, "bool result")?;
    r.bool()
}

/// A `TTableName` from `namespace:name` (no colon: the default namespace).
fn table_name(o: &mut Out<'_>, id: i16, table: &[u8]) {
    o.struct_field(id, |o| match table.iter().position(|&b| b == b':') {
        Some(i) => {
            o.binary(1, &table[..i]);
            o.binary(2, &table[i + 1..]);
        }
        None => {
            o.binary(1, b"default");
            o.binary(2, table);
        }
    });
}

/// `tableExists(TTableName)`.
pub(super) fn table_exists(o: &mut Out<'_>, table: &[u8]) {
    table_name(o, 1, table);
    o.stop();
}

/// `getTableDescriptor(TTableName)`.
pub(super) fn get_table_descriptor(o: &mut Out<'_>, table: &[u8]) {
    table_name(o, 1, table);
    o.stop();
}

/// The column family names of a `TTableDescriptor`.
pub(super) fn read_families(r: &mut In<'_>, k: u8) -> Result<Vec<String>, DecodeError> {
    r.expect(k, ty::STRUCT, "table descriptor")?;
    let mut families = Vec::new();
    read_struct(r, |r, k, id| {
        if (id, k) == (2, ty::LIST) {
            read_list(r, k, |r| {
                read_struct(r, |r, k, id| {
                    if (id, k) == (1, ty::STRING) {
                        families.push(String::from_utf8_lossy(r.bytes()?).into_owned());
                    } else {
                        r.skip(k)?;
                    }
                    Ok(())
                })
            })
        } else {
            r.skip(k)
        }
    })?;
    Ok(families)
}

/// A `TColumnFamilyDescriptor` with every option a [`Family`] holds.
fn family_descriptor(o: &mut Out<'_>, f: &Family) {
    o.binary(1, f.name.as_bytes());
    o.i32_field(4, clamp_i32(u64::from(f.block_size)));
    o.i32_field(
        5,
        match f.bloom {
            Bloom::None => 0,
            Bloom::Row => 1,
            Bloom::RowCol => 2,
            Bloom::RowPrefixFixedLength => 3,
            Bloom::RowPrefixDelimited => 4,
        },
    );
    o.i32_field(
        6,
        match f.compression {
            Compression::Lzo => 0,
            Compression::Gz => 1,
            Compression::None => 2,
            Compression::Snappy => 3,
            Compression::Lz4 => 4,
            Compression::Bzip2 => 5,
            Compression::Zstd => 6,
        },
    );
    o.i32_field(
        8,
        match f.encoding {
            BlockEncoding::None => 0,
            BlockEncoding::Prefix => 2,
            BlockEncoding::Diff => 3,
            BlockEncoding::FastDiff => 4,
            BlockEncoding::RowIndexV1 => 7,
        },
    );
    o.i32_field(
        9,
        match f.keep_deleted {
            KeepDeleted::False => 0,
            KeepDeleted::True => 1,
            KeepDeleted::Ttl => 2,
        },
    );
    o.i32_field(10, clamp_i32(u64::from(f.max_versions)));
    o.i32_field(11, clamp_i32(u64::from(f.min_versions)));
    // HBase's "forever" is `Integer.MAX_VALUE` seconds.
    o.i32_field(13, f.ttl_secs.map_or(i32::MAX, clamp_i32));
    o.bool_field(20, f.in_memory);
}

/// A value for an `i32` option; `Family::problems` reports the ones above HBase's limit
/// before any are sent.
fn clamp_i32(v: u64) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// One attribute of a `TTableDescriptor` (`None`: not set).
pub(super) fn read_attribute(
    r: &mut In<'_>,
    k: u8,
    name: &[u8],
) -> Result<Option<Vec<u8>>, DecodeError> {
    r.expect(k, ty::STRUCT, "table descriptor")?;
    let mut found = None;
    read_struct(r, |r, k, id| {
        if (id, k) == (3, ty::MAP) {
            let (kt, vt, n) = r.map()?;
            for _ in 0..n {
                if (kt, vt) == (ty::STRING, ty::STRING) {
                    let key = r.bytes()?;
                    let value = r.bytes()?;
                    if key == name {
                        found = Some(value.to_vec());
                    }
                } else {
                    r.skip(kt)?;
                    r.skip(vt)?;
                }
            }
            Ok(())
        } else {
            r.skip(k)
        }
    })?;
    Ok(found)
}

/// The families of a `TTableDescriptor`, with their options.
pub(super) fn read_descriptors(r: &mut In<'_>, k: u8) -> Result<Vec<Family>, DecodeError> {
    r.expect(k, ty::STRUCT, "table descriptor")?;
    let mut families = Vec::new();
    read_struct(r, |r, k, id| {
        if (id, k) == (2, ty::LIST) {
            read_list(r, k, |r| {
                let mut f = Family::new("");
                read_struct(r, |r, k, id| {
                    match (id, k) {
                        (1, ty::STRING) => {
                            f.name = String::from_utf8_lossy(r.bytes()?).into_owned().into()
                        }
                        (20, ty::BOOL) => f.in_memory = r.bool()?,
                        (4 | 5 | 6 | 8 | 9 | 10 | 11 | 13, ty::I32) => {
                            let v = r.i32()?;
                            let unknown = || {
                                DecodeError(format!("family option {id} has the unknown value {v}"))
                            };
                            let count = |v: i32| u32::try_from(v).map_err(|_| unknown());
                            match id {
                                4 => f.block_size = count(v)?,
                                5 => {
                                    f.bloom = match v {
                                        0 => Bloom::None,
                                        1 => Bloom::Row,
                                        2 => Bloom::RowCol,
                                        3 => Bloom::RowPrefixFixedLength,
                                        4 => Bloom::RowPrefixDelimited,
                                        _ => return Err(unknown()),
                                    }
                                }
                                6 => {
                                    f.compression = match v {
                                        0 => Compression::Lzo,
                                        1 => Compression::Gz,
                                        2 => Compression::None,
                                        3 => Compression::Snappy,
                                        4 => Compression::Lz4,
                                        5 => Compression::Bzip2,
                                        6 => Compression::Zstd,
                                        _ => return Err(unknown()),
                                    }
                                }
                                8 => {
                                    f.encoding = match v {
                                        0 => BlockEncoding::None,
                                        2 => BlockEncoding::Prefix,
                                        3 => BlockEncoding::Diff,
                                        4 => BlockEncoding::FastDiff,
                                        7 => BlockEncoding::RowIndexV1,
                                        _ => return Err(unknown()),
                                    }
                                }
                                9 => {
                                    f.keep_deleted = match v {
                                        0 => KeepDeleted::False,
                                        1 => KeepDeleted::True,
                                        2 => KeepDeleted::Ttl,
                                        _ => return Err(unknown()),
                                    }
                                }
                                10 => f.max_versions = count(v)?,
                                11 => f.min_versions = count(v)?,
                                _ => {
                                    f.ttl_secs = (v != i32::MAX)
                                        .then(|| u64::try_from(v).map_err(|_| unknown()))
                                        .transpose()?
                                }
                            }
                        }
                        _ => r.skip(k)?,
                    }
                    Ok(())
                })?;
                families.push(f);
                Ok(())
            })
        } else {
            r.skip(k)
        }
    })?;
    Ok(families)
}

/// The table attribute rowkey records the key layout's fingerprint in (FORMAT.md §8), as
/// 16 lowercase hex digits.
pub(super) const KEY_FINGERPRINT: &[u8] = crate::store::net::key_layout::RECORD.as_bytes();

/// `createTable(TTableDescriptor{name, families with their options, attributes}, splitKeys)`.
pub(super) fn create_table(
    o: &mut Out<'_>,
    table: &[u8],
    families: &[Family],
    splits: &[&[u8]],
    attributes: &[(&[u8], &[u8])],
) {
    o.struct_field(1, |o| {
        table_name(o, 1, table);
        o.list_field(2, ty::STRUCT, families.len(), |o| {
            for family in families {
                o.list_struct(|o| family_descriptor(o, family))
            }
        });
        if !attributes.is_empty() {
            o.binary_map_field(3, attributes);
        }
    });
    if !splits.is_empty() {
        o.list_field(2, ty::STRING, splits.len(), |o| {
            for s in splits {
                o.list_binary(s);
            }
        });
    }
    o.stop();
}

/// `addColumnFamily(TTableName, TColumnFamilyDescriptor)` and `modifyColumnFamily` take the
/// same arguments.
pub(super) fn column_family(o: &mut Out<'_>, table: &[u8], family: &Family) {
    table_name(o, 1, table);
    o.struct_field(2, |o| family_descriptor(o, family));
    o.stop();
}

/// `disableTable(TTableName)` and `deleteTable(TTableName)` take the same argument.
pub(super) fn table_only(o: &mut Out<'_>, table: &[u8]) {
    table_name(o, 1, table);
    o.stop();
}

/// `getAllRegionLocations(table)`.
pub(super) fn get_all_region_locations(o: &mut Out<'_>, table: &[u8]) {
    o.binary(1, table);
    o.stop();
}

/// Reads a `list<THRegionLocation>`.
pub(super) fn read_regions(r: &mut In<'_>, k: u8) -> Result<Vec<Region>, DecodeError> {
    let mut out = Vec::new();
    read_list(r, k, |r| {
        let mut region = Region {
            start: Vec::new(),
            end: Vec::new(),
            server: String::new(),
            id: 0,
        };
        read_struct(r, |r, k, id| {
            match (id, k) {
                (1, ty::STRUCT) => {
                    let (mut host, mut port) = (String::new(), 0);
                    read_struct(r, |r, k, id| {
                        match (id, k) {
                            (1, ty::STRING) => host = r.string()?,
                            (2, ty::I32) => port = r.i32()?,
                            _ => r.skip(k)?,
                        }
                        Ok(())
                    })?;
                    region.server = format!("{host}:{port}");
                }
                (2, ty::STRUCT) => read_struct(r, |r, k, id| {
                    match (id, k) {
                        (1, ty::I64) => region.id = r.i64()?,
                        (3, ty::STRING) => region.start = r.bytes()?.to_vec(),
                        (4, ty::STRING) => region.end = r.bytes()?.to_vec(),
                        _ => r.skip(k)?,
                    }
                    Ok(())
                })?,
                _ => r.skip(k)?,
            }
            Ok(())
        })?;
        out.push(region);
        Ok(())
    })?;
    out.sort_by(|a, b| a.start.cmp(&b.start));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::hbase::thrift::CALL;

    const COL: Column<'static> = Column {
        family: b"d",
        qualifier: b"v",
    };

    /// A reply message built by hand, as the gateway would send it.
    fn reply_bytes(method: &str, seq: i32, body: impl FnOnce(&mut Out<'_>)) -> Vec<u8> {
        let mut buf = Vec::new();
        let mut o = Out::call(&mut buf, method, seq);
        body(&mut o);
        o.stop();
        buf[3] = REPLY;
        buf
    }

    #[test]
    fn a_result_reads_its_value_cell_and_skips_others() {
        let buf = reply_bytes("get", 3, |o| {
            o.struct_field(0, |o| {
                o.binary(1, b"row1");
                o.list_field(2, ty::STRUCT, 2, |o| {
                    o.list_struct(|o| {
                        o.binary(1, b"d");
                        o.binary(2, b"other");
                        o.binary(3, b"no");
                    });
                    o.list_struct(|o| {
                        o.binary(1, b"d");
                        o.binary(2, b"v");
                        o.binary(3, b"yes");
                        o.i64_field(4, 5);
                        o.binary(5, b"tags");
                    });
                });
                o.bool_field(3, false);
                o.i64_field(99, 1); // a field a future gateway might add
            })
        });
        let got = reply(&buf, "get", 3, |r, k| {
            r.expect(k, ty::STRUCT, "TResult")?;
            read_result(r, COL)
        })
        .unwrap()
        .unwrap()
        .unwrap();
        assert_eq!(got, Some((Bytes::from("row1"), Bytes::from("yes"))));
        // The wrong call or sequence number is an error, not a mix-up.
        assert!(reply(&buf, "get", 4, |_, _| Ok(())).is_err());
        assert!(reply(&buf, "put", 3, |_, _| Ok(())).is_err());
    }

    #[test]
    fn refusals_are_told_apart() {
        let buf = reply_bytes("put", 1, |o| {
            o.struct_field(1, |o| {
                o.binary(1, b"org.apache.hadoop.hbase.TableNotFoundException: t");
                o.bool_field(2, false);
            })
        });
        match reply(&buf, "put", 1, |_, _| Ok(())).unwrap() {
            Err(Refused::Io { message, can_retry }) => {
                assert!(message.contains("TableNotFound") && !can_retry)
            }
            other => panic!("{other:?}"),
        }
        let mut buf = reply_bytes("nope", 2, |o| {
            o.binary(1, b"Invalid method name: 'nope'");
            o.i32_field(2, 1);
        });
        buf[3] = EXCEPTION;
        match reply(&buf, "nope", 2, |_, _| Ok(())).unwrap() {
            Err(Refused::Application { message, kind }) => {
                assert!(message.contains("Invalid method") && kind == 1)
            }
            other => panic!("{other:?}"),
        }
        let void = reply_bytes("put", 9, |_| {});
        assert!(matches!(
            reply(&void, "put", 9, |_, _| Ok(())),
            Ok(Ok(None))
        ));
        let _ = CALL;
    }

    #[test]
    fn table_names_carry_their_namespace() {
        let mut a = Vec::new();
        table_exists(&mut Out::call(&mut a, "tableExists", 1), b"ns:t");
        let mut b = Vec::new();
        table_exists(&mut Out::call(&mut b, "tableExists", 1), b"t");
        let text = |v: &[u8]| String::from_utf8_lossy(v).into_owned();
        assert!(text(&a).contains("ns") && !text(&a).contains("ns:t"));
        assert!(text(&b).contains("default"));
    }
}
