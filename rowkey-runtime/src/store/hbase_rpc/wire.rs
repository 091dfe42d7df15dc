//! HBase's RPC framing, as bytes: the connection preamble and header, a call's frame, a reply's
//! parts, and the cells of a cell block (`KeyValueCodec`). No I/O here (`conn.rs` does it).
//!
//! A connection opens with `HBas`, the RPC version (0) and the authentication method (80:
//! simple; 81: Kerberos, then the SASL exchange `conn.rs` drives), then the
//! `ConnectionHeader` prefixed with its 4-byte big-endian length. A call is
//! a 4-byte length, then the varint-delimited `RequestHeader` and request message; a reply is a
//! 4-byte length, the varint-delimited `ResponseHeader`, then either the exception (in the
//! header) or the varint-delimited response message followed by the cell block the header's
//! `cell_block_meta` sizes.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use prost::Message;

use super::pb;

/// The codec named in the connection header, so results come as cell blocks.
pub(crate) const KEY_VALUE_CODEC: &str = "org.apache.hadoop.hbase.codec.KeyValueCodec";

/// The largest reply accepted (HBase's own client refuses frames over 256 MiB by default,
/// `hbase.ipc.max.request.size`); a larger length means the stream is out of step.
pub(crate) const MAX_FRAME: usize = 256 << 20;

/// The authentication method byte of the preamble.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Auth {
    /// No authentication: the connection header names the user (HBase's `SIMPLE`).
    Simple,
    /// SASL `GSSAPI` before the connection header (HBase's `KERBEROS`).
    #[cfg(feature = "kerberos")]
    Kerberos,
}

impl Auth {
    fn code(self) -> u8 {
        match self {
            Auth::Simple => 80,
            #[cfg(feature = "kerberos")]
            Auth::Kerberos => 81,
        }
    }
}

/// The 6 bytes that open a connection: `HBas`, the RPC version, the authentication method.
pub(crate) fn preamble(auth: Auth) -> [u8; 6] {
    [b'H', b'B', b'a', b's', 0, auth.code()]
}

/// The connection header, with its 4-byte length: the user calls run as, the service, the
/// cell block codec. After SASL it goes through the negotiated security layer.
pub(crate) fn connection_header(user: &str, service: &str) -> Vec<u8> {
    let header = pb::ConnectionHeader {
        user_info: Some(pb::UserInformation {
            effective_user: user.into(),
            real_user: None,
        }),
        service_name: Some(service.into()),
        cell_block_codec_class: Some(KEY_VALUE_CODEC.into()),
        ..Default::default()
    };
    let body = header.encode_to_vec();
    let mut out = Vec::with_capacity(4 + body.len());
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    out.extend_from_slice(&body);
    out
}

/// The bytes that open a connection with simple authentication: preamble and header.
pub(crate) fn hello(user: &str, service: &str) -> Vec<u8> {
    let mut out = preamble(Auth::Simple).to_vec();
    out.extend_from_slice(&connection_header(user, service));
    out
}

/// One call's frame: length, request header, request.
pub(crate) fn call_frame(
    call_id: u32,
    method: &str,
    request: &impl Message,
    cells: &[u8],
    timeout_ms: u32,
) -> Bytes {
    let header = pb::RequestHeader {
        call_id: Some(call_id),
        method_name: Some(method.into()),
        request_param: Some(true),
        timeout: Some(timeout_ms),
        cell_block_meta: (!cells.is_empty()).then_some(pb::CellBlockMeta {
            length: Some(cells.len() as u32),
        }),
        ..Default::default()
    };
    let (h, r) = (header.encoded_len(), request.encoded_len());
    let body =
        prost::length_delimiter_len(h) + h + prost::length_delimiter_len(r) + r + cells.len();
    let mut out = BytesMut::with_capacity(4 + body);
    out.put_u32(body as u32);
    // Encoding into a buffer sized for it cannot fail.
    let _ = header.encode_length_delimited(&mut out);
    let _ = request.encode_length_delimited(&mut out);
    out.extend_from_slice(cells);
    out.freeze()
}

/// KeyValue type byte of a put cell.
const TYPE_PUT: u8 = 4;

/// Appends one put cell to `block` as `KeyValueCodec` writes it (what [`CellReader`] reads): a
/// 4-byte length, then the KeyValue (key length, value length, row length, row, family
/// length, family, qualifier, timestamp, type, value). `false` (nothing appended) when the
/// row or family is longer than the format holds (32,767 and 255 bytes) or the cell over 2 GiB;
/// the caller sends that cell in the message instead.
pub(crate) fn put_cell(
    block: &mut BytesMut,
    row: &[u8],
    family: &[u8],
    qualifier: &[u8],
    ts: i64,
    value: &[u8],
) -> bool {
    let (Ok(row_len), Ok(family_len)) = (i16::try_from(row.len()), u8::try_from(family.len()))
    else {
        return false;
    };
    let key_len = 2 + row.len() + 1 + family.len() + qualifier.len() + 8 + 1;
    let total = 8 + key_len + value.len();
    let (Ok(total), Ok(key_len), Ok(value_len)) = (
        i32::try_from(total),
        u32::try_from(key_len),
        u32::try_from(value.len()),
    ) else {
        return false;
    };
    block.reserve(4 + total as usize);
    block.put_u32(total as u32);
    block.put_u32(key_len);
    block.put_u32(value_len);
    block.put_u16(row_len as u16);
    block.put_slice(row);
    block.put_u8(family_len);
    block.put_slice(family);
    block.put_slice(qualifier);
    block.put_i64(ts);
    block.put_u8(TYPE_PUT);
    block.put_slice(value);
    true
}

/// A reply's parts: its header, and (when the call succeeded) the response message and the
/// cell block after it.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) header: pb::ResponseHeader,
    /// The response message's bytes (empty when the header carries an exception).
    pub(crate) body: Bytes,
    /// The cell block (empty when there is none).
    pub(crate) cells: Bytes,
}

/// Splits a reply frame (after its length) into its parts.
pub(crate) fn parse_reply(mut frame: Bytes) -> Result<Reply, String> {
    let header = pb::ResponseHeader::decode_length_delimited(&mut frame)
        .map_err(|e| format!("a reply's header does not decode: {e}"))?;
    if header.exception.is_some() || frame.is_empty() {
        return Ok(Reply {
            header,
            body: Bytes::new(),
            cells: Bytes::new(),
        });
    }
    let len = prost::decode_length_delimiter(&mut frame)
        .map_err(|e| format!("a reply's message length does not decode: {e}"))?;
    if len > frame.len() {
        return Err(format!(
            "a reply's message of {len} bytes is longer than its frame ({} left)",
            frame.len()
        ));
    }
    let body = frame.split_to(len);
    let block = header
        .cell_block_meta
        .as_ref()
        .and_then(|m| m.length)
        .unwrap_or(0) as usize;
    if block != frame.len() {
        return Err(format!(
            "a reply's cell block is {} bytes where its header says {block}",
            frame.len()
        ));
    }
    Ok(Reply {
        header,
        body,
        cells: frame,
    })
}

/// One cell of a cell block, its parts slices of the block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    pub(crate) row: Bytes,
    pub(crate) family: Bytes,
    pub(crate) qualifier: Bytes,
    pub(crate) timestamp: i64,
    /// HBase's key type (4: put; 8, 10, 12, 14: delete markers, seen only in raw scans).
    pub(crate) kind: u8,
    pub(crate) value: Bytes,
}

/// Reads cells one by one from a cell block written by `KeyValueCodec`: per cell, a 4-byte
/// length, then the KeyValue (key length, value length, the key: row length, row, family
/// length, family, qualifier, timestamp, type; then the value).
pub(crate) struct CellReader {
    block: Bytes,
}

impl CellReader {
    pub(crate) fn new(block: Bytes) -> Self {
        CellReader { block }
    }

    /// The next cell, `None` at the end of the block.
    pub(crate) fn next_cell(&mut self) -> Result<Option<Cell>, String> {
        if self.block.is_empty() {
            return Ok(None);
        }
        let short = |what: &str| format!("a cell block ends inside a cell's {what}");
        if self.block.len() < 4 {
            return Err(short("length"));
        }
        let total = self.block.get_u32() as usize;
        if total > self.block.len() || total < 8 {
            return Err(short("KeyValue"));
        }
        let mut kv = self.block.split_to(total);
        let key_len = kv.get_u32() as usize;
        let value_len = kv.get_u32() as usize;
        // Row length (2), family length (1), timestamp (8), type (1) at least.
        if key_len < 12 || key_len + value_len > kv.len() {
            return Err(format!(
                "a cell's key ({key_len} bytes) and value ({value_len}) overrun its KeyValue ({})",
                kv.len()
            ));
        }
        let mut key = kv.split_to(key_len);
        let value = kv.split_to(value_len);
        // Whatever remains of the KeyValue is tags (not written by KeyValueCodec): ignored.
        let row_len = key.get_u16() as usize;
        if row_len + 1 + 9 > key.len() {
            return Err(short("row"));
        }
        let row = key.split_to(row_len);
        let family_len = key.get_u8() as usize;
        if family_len + 9 > key.len() {
            return Err(short("family"));
        }
        let family = key.split_to(family_len);
        let qualifier = key.split_to(key.len() - 9);
        let timestamp = key.get_i64();
        let kind = key.get_u8();
        Ok(Some(Cell {
            row,
            family,
            qualifier,
            timestamp,
            kind,
            value,
        }))
    }

    /// The next `n` cells (a result's `associated_cell_count`).
    pub(crate) fn take(&mut self, n: usize) -> Result<Vec<Cell>, String> {
        let mut cells = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            match self.next_cell()? {
                Some(c) => cells.push(c),
                None => return Err(format!("a cell block holds {} cells, not {n}", cells.len())),
            }
        }
        Ok(cells)
    }
}

/// The cells of a protobuf `Result` (used where the server sent them inline rather than in a
/// cell block).
pub(crate) fn inline_cells(result: &pb::Result) -> Vec<Cell> {
    result
        .cell
        .iter()
        .map(|c| Cell {
            row: c.row.clone().unwrap_or_default(),
            family: c.family.clone().unwrap_or_default(),
            qualifier: c.qualifier.clone().unwrap_or_default(),
            timestamp: c.timestamp.unwrap_or(0) as i64,
            kind: c.cell_type.map(|t| t as u8).unwrap_or(4),
            value: c.value.clone().unwrap_or_default(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A KeyValue as `KeyValueCodec` writes it.
    pub(crate) fn key_value(
        row: &[u8],
        family: &[u8],
        qualifier: &[u8],
        ts: i64,
        value: &[u8],
    ) -> Vec<u8> {
        let key_len = 2 + row.len() + 1 + family.len() + qualifier.len() + 8 + 1;
        let mut kv = Vec::new();
        kv.extend_from_slice(&((8 + key_len + value.len()) as u32).to_be_bytes());
        kv.extend_from_slice(&(key_len as u32).to_be_bytes());
        kv.extend_from_slice(&(value.len() as u32).to_be_bytes());
        kv.extend_from_slice(&(row.len() as u16).to_be_bytes());
        kv.extend_from_slice(row);
        kv.push(family.len() as u8);
        kv.extend_from_slice(family);
        kv.extend_from_slice(qualifier);
        kv.extend_from_slice(&ts.to_be_bytes());
        kv.push(4);
        kv.extend_from_slice(value);
        kv
    }

    #[test]
    fn the_preamble_names_the_version_the_auth_and_the_header_length() {
        let hello = hello("alice", "ClientService");
        assert_eq!(&hello[..6], b"HBas\x00\x50");
        let len = u32::from_be_bytes(hello[6..10].try_into().unwrap()) as usize;
        assert_eq!(len, hello.len() - 10);
        let header = pb::ConnectionHeader::decode(&hello[10..]).unwrap();
        assert_eq!(header.service_name(), "ClientService");
        assert_eq!(header.user_info.as_ref().unwrap().effective_user, "alice");
        assert_eq!(header.cell_block_codec_class(), KEY_VALUE_CODEC);
    }

    #[test]
    fn a_call_frame_is_length_header_and_request() {
        let request = pb::GetClusterIdRequest {};
        let frame = call_frame(7, "GetClusterId", &request, &[], 1500);
        let len = u32::from_be_bytes(frame[..4].try_into().unwrap()) as usize;
        assert_eq!(len, frame.len() - 4);
        let mut rest = frame.slice(4..);
        let header = pb::RequestHeader::decode_length_delimited(&mut rest).unwrap();
        assert_eq!(header.call_id, Some(7));
        assert_eq!(header.method_name(), "GetClusterId");
        assert_eq!(header.timeout, Some(1500));
        assert_eq!(header.cell_block_meta, None);
        assert_eq!(
            rest.as_ref(),
            &[0u8][..],
            "an empty request is a zero length"
        );
    }

    #[test]
    fn put_cells_are_written_as_key_value_codec_writes_them() {
        let mut block = BytesMut::new();
        assert!(put_cell(&mut block, b"r1", b"d", b"v", 5, b"one"));
        assert!(put_cell(&mut block, b"r2", b"d", b"", -1, b""));
        let want = [
            key_value(b"r1", b"d", b"v", 5, b"one"),
            key_value(b"r2", b"d", b"", -1, b""),
        ]
        .concat();
        assert_eq!(&block[..], &want[..]);
        let mut reader = CellReader::new(block.clone().freeze());
        assert_eq!(&reader.next_cell().unwrap().unwrap().value[..], b"one");
        // A family over 255 bytes does not fit: nothing is appended.
        let before = block.len();
        assert!(!put_cell(&mut block, b"r", &[b'f'; 256], b"q", 1, b"v"));
        assert_eq!(block.len(), before);
        // A request with a cell block announces its length and carries it last.
        let frame = call_frame(9, "Multi", &pb::GetClusterIdRequest {}, &want, 1000);
        let mut rest = frame.slice(4..);
        let header = pb::RequestHeader::decode_length_delimited(&mut rest).unwrap();
        assert_eq!(
            header.cell_block_meta.unwrap().length,
            Some(want.len() as u32)
        );
        assert_eq!(&rest[1..], &want[..]);
    }

    #[test]
    fn a_reply_splits_into_header_message_and_cell_block() {
        let cells = [
            key_value(b"r1", b"d", b"v", 5, b"one"),
            key_value(b"r2", b"d", b"", 6, b""),
        ]
        .concat();
        let header = pb::ResponseHeader {
            call_id: Some(3),
            exception: None,
            cell_block_meta: Some(pb::CellBlockMeta {
                length: Some(cells.len() as u32),
            }),
        };
        let response = pb::GetClusterIdResponse {
            cluster_id: Some("c".into()),
        };
        let mut frame = Vec::new();
        header.encode_length_delimited(&mut frame).unwrap();
        response.encode_length_delimited(&mut frame).unwrap();
        frame.extend_from_slice(&cells);
        let reply = parse_reply(Bytes::from(frame.clone())).unwrap();
        assert_eq!(reply.header.call_id, Some(3));
        assert_eq!(
            pb::GetClusterIdResponse::decode(reply.body).unwrap(),
            response
        );
        let mut reader = CellReader::new(reply.cells);
        let got = reader.take(2).unwrap();
        assert_eq!(&got[0].row[..], b"r1");
        assert_eq!(&got[0].value[..], b"one");
        assert_eq!(got[0].timestamp, 5);
        assert_eq!(&got[1].qualifier[..], b"");
        assert!(reader.next_cell().unwrap().is_none());

        // A cell block shorter than announced, or cut inside a cell, is an error.
        frame.pop();
        assert!(parse_reply(Bytes::from(frame.clone())).is_err());
        let mut cut = CellReader::new(Bytes::from(cells[..cells.len() - 1].to_vec()));
        assert!(cut.take(2).is_err());
    }
}
