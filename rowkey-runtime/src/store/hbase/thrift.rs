//! Thrift's binary protocol, the part HBase's Thrift2 gateway speaks, written for this store:
//! an encoder into one reused buffer, a decoder over a received message that never panics and
//! skips fields it does not know (so newer gateways with more fields still work), and a
//! resumable completeness check that finds where a message ends on an unframed connection.
//!
//! Why by hand rather than the `thrift` crate's generated code: that crate's runtime is
//! blocking-only (a Bigtable-style async store would have to park a thread per call), its
//! generated code for `hbase.thrift` is ~20k lines for the dozen calls rowkey makes, and the
//! crate has seen one release in three years. The binary protocol is small and stable (the
//! same since 2007); what rowkey sends is pinned by byte-exact tests below and checked against
//! a real gateway in `tests/hbase.rs`.

use std::fmt;

/// Thrift type codes (binary protocol).
pub(super) mod ty {
    pub const STOP: u8 = 0;
    pub const BOOL: u8 = 2;
    pub const BYTE: u8 = 3;
    pub const DOUBLE: u8 = 4;
    pub const I16: u8 = 6;
    pub const I32: u8 = 8;
    pub const I64: u8 = 10;
    pub const STRING: u8 = 11;
    pub const STRUCT: u8 = 12;
    pub const MAP: u8 = 13;
    pub const SET: u8 = 14;
    pub const LIST: u8 = 15;
}

/// Message kinds.
pub(super) const CALL: u8 = 1;
pub(super) const REPLY: u8 = 2;
pub(super) const EXCEPTION: u8 = 3;

const VERSION_1: u32 = 0x8001_0000;
/// Deeper nesting than any HBase message has: a hostile message cannot recurse further.
const MAX_DEPTH: usize = 32;

/// A message that does not follow the protocol, or ends early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct DecodeError(pub String);

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(what: impl Into<String>) -> Result<T, DecodeError> {
    Err(DecodeError(what.into()))
}

/// Writes one message into a buffer the caller keeps and reuses.
pub(super) struct Out<'a> {
    buf: &'a mut Vec<u8>,
}

impl<'a> Out<'a> {
    /// Starts a `CALL` message for `method` with sequence number `seq`.
    pub(super) fn call(buf: &'a mut Vec<u8>, method: &str, seq: i32) -> Self {
        let mut out = Out { buf };
        out.u32(VERSION_1 | u32::from(CALL));
        out.string(method.as_bytes());
        out.i32(seq);
        out
    }

    fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    pub(super) fn i32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    fn i64(&mut self, v: i64) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }

    fn string(&mut self, v: &[u8]) {
        // Callers keep every value far below 2 GiB (keys are checked, batches are cut).
        self.i32(i32::try_from(v.len()).unwrap_or(i32::MAX));
        self.buf.extend_from_slice(v);
    }

    fn field(&mut self, kind: u8, id: i16) {
        self.buf.push(kind);
        self.buf.extend_from_slice(&id.to_be_bytes());
    }

    /// Field `id` holding bytes.
    pub(super) fn binary(&mut self, id: i16, v: &[u8]) {
        self.field(ty::STRING, id);
        self.string(v);
    }

    /// Field `id` holding an i32.
    pub(super) fn i32_field(&mut self, id: i16, v: i32) {
        self.field(ty::I32, id);
        self.i32(v);
    }

    /// Field `id` holding an i64.
    pub(super) fn i64_field(&mut self, id: i16, v: i64) {
        self.field(ty::I64, id);
        self.i64(v);
    }

    /// Field `id` holding a bool.
    pub(super) fn bool_field(&mut self, id: i16, v: bool) {
        self.field(ty::BOOL, id);
        self.buf.push(u8::from(v));
    }

    /// Field `id` holding a struct; `body` writes its fields, the stop byte follows.
    pub(super) fn struct_field(&mut self, id: i16, body: impl FnOnce(&mut Self)) {
        self.field(ty::STRUCT, id);
        body(self);
        self.stop();
    }

    /// Field `id` holding a list of `len` elements of type `elem`; `body` writes them (a
    /// struct element is its fields and a stop, see [`Out::list_struct`]).
    pub(super) fn list_field(
        &mut self,
        id: i16,
        elem: u8,
        len: usize,
        body: impl FnOnce(&mut Self),
    ) {
        self.field(ty::LIST, id);
        self.buf.push(elem);
        self.i32(i32::try_from(len).unwrap_or(i32::MAX));
        body(self);
    }

    /// Field `id` holding a `map<binary, binary>`.
    pub(super) fn binary_map_field(&mut self, id: i16, entries: &[(&[u8], &[u8])]) {
        self.field(ty::MAP, id);
        self.buf.push(ty::STRING);
        self.buf.push(ty::STRING);
        self.i32(i32::try_from(entries.len()).unwrap_or(i32::MAX));
        for (k, v) in entries {
            self.string(k);
            self.string(v);
        }
    }

    /// One struct element of a list.
    pub(super) fn list_struct(&mut self, body: impl FnOnce(&mut Self)) {
        body(self);
        self.stop();
    }

    /// One binary element of a list.
    pub(super) fn list_binary(&mut self, v: &[u8]) {
        self.string(v);
    }

    /// Ends a struct (or the argument struct of a call).
    pub(super) fn stop(&mut self) {
        self.buf.push(ty::STOP);
    }
}

/// Reads one received message.
pub(super) struct In<'a> {
    buf: &'a [u8],
    pos: usize,
    depth: usize,
}

impl<'a> In<'a> {
    pub(super) fn new(buf: &'a [u8]) -> Self {
        In {
            buf,
            pos: 0,
            depth: 0,
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.buf.len());
        match end {
            Some(end) => {
                let s = &self.buf[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => err(format!(
                "message ends early: {n} byte(s) wanted at offset {} of {}",
                self.pos,
                self.buf.len()
            )),
        }
    }

    fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.take(1)?[0])
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    pub(super) fn i16(&mut self) -> Result<i16, DecodeError> {
        Ok(i16::from_be_bytes(self.array()?))
    }

    pub(super) fn i32(&mut self) -> Result<i32, DecodeError> {
        Ok(i32::from_be_bytes(self.array()?))
    }

    pub(super) fn i64(&mut self) -> Result<i64, DecodeError> {
        Ok(i64::from_be_bytes(self.array()?))
    }

    pub(super) fn bool(&mut self) -> Result<bool, DecodeError> {
        Ok(self.u8()? != 0)
    }

    fn len(&mut self) -> Result<usize, DecodeError> {
        let n = self.i32()?;
        usize::try_from(n).or_else(|_| err(format!("negative length {n}")))
    }

    /// A binary or string value, borrowed from the message.
    pub(super) fn bytes(&mut self) -> Result<&'a [u8], DecodeError> {
        let n = self.len()?;
        self.take(n)
    }

    /// A string value (lossy for invalid UTF-8: it is only ever shown to people).
    pub(super) fn string(&mut self) -> Result<String, DecodeError> {
        Ok(String::from_utf8_lossy(self.bytes()?).into_owned())
    }

    /// The next field header of a struct: `None` at its stop byte.
    pub(super) fn field(&mut self) -> Result<Option<(u8, i16)>, DecodeError> {
        let kind = self.u8()?;
        if kind == ty::STOP {
            return Ok(None);
        }
        Ok(Some((kind, self.i16()?)))
    }

    /// A list header: element type and count. A count larger than the bytes left could hold
    /// is refused before anything is allocated for it.
    pub(super) fn list(&mut self) -> Result<(u8, usize), DecodeError> {
        let elem = self.u8()?;
        let n = self.len()?;
        if n > self.buf.len() - self.pos {
            return err(format!(
                "list of {n} elements in {} bytes",
                self.buf.len() - self.pos
            ));
        }
        Ok((elem, n))
    }

    /// A map header: key type, value type and count (each entry takes at least two bytes).
    pub(super) fn map(&mut self) -> Result<(u8, u8, usize), DecodeError> {
        let k = self.u8()?;
        let v = self.u8()?;
        let n = self.len()?;
        if n.saturating_mul(2) > self.buf.len() - self.pos {
            return err(format!(
                "map of {n} entries in {} bytes",
                self.buf.len() - self.pos
            ));
        }
        Ok((k, v, n))
    }

    /// Checks a field's type before reading it.
    pub(super) fn expect(&self, got: u8, want: u8, what: &str) -> Result<(), DecodeError> {
        if got == want {
            Ok(())
        } else {
            err(format!("{what}: type {got}, expected {want}"))
        }
    }

    /// Enters a nested struct (bounded depth); pair with [`In::leave`].
    pub(super) fn enter(&mut self) -> Result<(), DecodeError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return err("nested too deeply");
        }
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips a value of type `kind`.
    pub(super) fn skip(&mut self, kind: u8) -> Result<(), DecodeError> {
        match kind {
            ty::BOOL | ty::BYTE => {
                self.take(1)?;
            }
            ty::I16 => {
                self.take(2)?;
            }
            ty::I32 => {
                self.take(4)?;
            }
            ty::DOUBLE | ty::I64 => {
                self.take(8)?;
            }
            ty::STRING => {
                self.bytes()?;
            }
            ty::STRUCT => {
                self.enter()?;
                while let Some((k, _)) = self.field()? {
                    self.skip(k)?;
                }
                self.leave();
            }
            ty::LIST | ty::SET => {
                self.enter()?;
                let (elem, n) = self.list()?;
                for _ in 0..n {
                    self.skip(elem)?;
                }
                self.leave();
            }
            ty::MAP => {
                self.enter()?;
                let k = self.u8()?;
                let v = self.u8()?;
                let n = self.len()?;
                for _ in 0..n {
                    self.skip(k)?;
                    self.skip(v)?;
                }
                self.leave();
            }
            other => return err(format!("unknown type code {other}")),
        }
        Ok(())
    }

    /// Reads a message header: kind, method name, sequence number.
    pub(super) fn message_header(&mut self) -> Result<(u8, String, i32), DecodeError> {
        let version = self.i32()? as u32;
        if version & 0xffff_0000 != VERSION_1 {
            return err(format!(
                "not a strict binary-protocol message (header {version:#010x}): is the gateway \
                 using the compact protocol, or is the transport setting (framed or not) wrong?"
            ));
        }
        let kind = (version & 0xff) as u8;
        let name = self.string()?;
        let seq = self.i32()?;
        Ok((kind, name, seq))
    }

    /// Whether every byte has been read.
    #[cfg(test)]
    pub(super) fn at_end(&self) -> bool {
        self.pos == self.buf.len()
    }
}

/// Finds where one message ends in bytes that arrive in pieces (an unframed connection),
/// resuming where it stopped each time more bytes arrive: linear in the message's size however
/// it is cut. It checks structure only; [`In`] decodes the message once it is complete.
#[derive(Default)]
pub(super) struct Completeness {
    pos: usize,
    header_done: bool,
    stack: Vec<Pending>,
}

enum Pending {
    /// Inside a struct: field headers until the stop byte.
    Struct,
    /// `left` values of type `elem` to go.
    Values { elem: u8, left: u64 },
    /// `left` key-value pairs to go; `value_next` when the pair's key has been read.
    Map {
        key: u8,
        value: u8,
        left: u64,
        value_next: bool,
    },
}

impl Completeness {
    /// Advances over `buf` (everything received so far): `Some(len)` once a whole message of
    /// `len` bytes is there, `None` while more is needed.
    pub(super) fn advance(&mut self, buf: &[u8]) -> Result<Option<usize>, DecodeError> {
        if !self.header_done {
            let mut r = In::new(&buf[self.pos..]);
            match r.message_header() {
                Ok(_) => {}
                Err(e) if e.0.starts_with("message ends early") => return Ok(None),
                Err(e) => return Err(e),
            }
            self.pos += r.pos;
            self.header_done = true;
            self.stack.push(Pending::Struct);
        }
        loop {
            let kind = match self.stack.last_mut() {
                None => return Ok(Some(self.pos)),
                Some(Pending::Struct) => {
                    let Some(&kind) = buf.get(self.pos) else {
                        return Ok(None);
                    };
                    if kind == ty::STOP {
                        self.pos += 1;
                        self.stack.pop();
                        continue;
                    }
                    if buf.len() < self.pos + 3 {
                        return Ok(None);
                    }
                    // The field header is consumed together with the value's start below.
                    match self.begin(kind, buf, self.pos + 3)? {
                        Some(next) => self.push_after(next, kind, buf)?,
                        None => return Ok(None),
                    }
                    continue;
                }
                Some(Pending::Values { left: 0, .. }) | Some(Pending::Map { left: 0, .. }) => {
                    self.stack.pop();
                    continue;
                }
                Some(Pending::Values { elem, .. }) => *elem,
                Some(Pending::Map {
                    key,
                    value,
                    value_next,
                    ..
                }) => {
                    if *value_next {
                        *value
                    } else {
                        *key
                    }
                }
            };
            match self.begin(kind, buf, self.pos)? {
                Some(next) => {
                    match self.stack.last_mut() {
                        Some(Pending::Values { left, .. }) => *left -= 1,
                        Some(Pending::Map {
                            left, value_next, ..
                        }) => {
                            if *value_next {
                                *left -= 1;
                            }
                            *value_next = !*value_next;
                        }
                        _ => {}
                    }
                    self.push_after(next, kind, buf)?;
                }
                None => return Ok(None),
            }
        }
    }

    /// How far a value of type `kind` starting at `at` reaches, if its fixed part is all
    /// there: the end of a scalar, or the end of a container's header.
    fn begin(&self, kind: u8, buf: &[u8], at: usize) -> Result<Option<usize>, DecodeError> {
        let need = |n: usize| (buf.len() >= at + n).then_some(at + n);
        let be32 = |at: usize| -> Option<i64> {
            buf.get(at..at + 4)
                .map(|b| i64::from(i32::from_be_bytes([b[0], b[1], b[2], b[3]])))
        };
        Ok(match kind {
            ty::BOOL | ty::BYTE => need(1),
            ty::I16 => need(2),
            ty::I32 => need(4),
            ty::DOUBLE | ty::I64 => need(8),
            ty::STRING => match be32(at) {
                None => None,
                Some(n) if n < 0 => return err(format!("negative length {n}")),
                Some(n) => need(4 + n as usize),
            },
            ty::STRUCT => Some(at),
            ty::LIST | ty::SET => need(5),
            ty::MAP => need(6),
            other => return err(format!("unknown type code {other}")),
        })
    }

    /// Moves past a value begun at the current position and ending (or whose header ends) at
    /// `next`, opening a container for its contents.
    fn push_after(&mut self, next: usize, kind: u8, buf: &[u8]) -> Result<(), DecodeError> {
        let count = |at: usize| -> Result<u64, DecodeError> {
            let n = i32::from_be_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]);
            u64::try_from(n).or_else(|_| err(format!("negative length {n}")))
        };
        let pending = match kind {
            ty::STRUCT => Some(Pending::Struct),
            ty::LIST | ty::SET => Some(Pending::Values {
                elem: buf[next - 5],
                left: count(next - 4)?,
            }),
            ty::MAP => Some(Pending::Map {
                key: buf[next - 6],
                value: buf[next - 5],
                left: count(next - 4)?,
                value_next: false,
            }),
            _ => None,
        };
        self.pos = next;
        if let Some(p) = pending {
            if self.stack.len() >= MAX_DEPTH {
                return err("nested too deeply");
            }
            self.stack.push(p);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let mut buf = Vec::new();
        let mut out = Out::call(&mut buf, "put", 7);
        out.binary(1, b"table");
        out.struct_field(2, |o| {
            o.binary(1, b"row");
            o.list_field(2, ty::STRUCT, 2, |o| {
                for v in [&b"a"[..], b"bc"] {
                    o.list_struct(|o| {
                        o.binary(1, b"d");
                        o.binary(2, b"v");
                        o.binary(3, v);
                        o.i64_field(4, 42);
                    });
                }
            });
            o.bool_field(9, true);
        });
        out.stop();
        buf
    }

    #[test]
    fn a_call_is_byte_exact() {
        let mut buf = Vec::new();
        let mut out = Out::call(&mut buf, "get", 1);
        out.binary(1, b"t");
        out.i32_field(2, -2);
        out.stop();
        assert_eq!(
            buf,
            [
                0x80, 0x01, 0x00, 0x01, 0, 0, 0, 3, b'g', b'e', b't', 0, 0, 0, 1, // header
                11, 0, 1, 0, 0, 0, 1, b't', // field 1: binary "t"
                8, 0, 2, 0xff, 0xff, 0xff, 0xfe, // field 2: i32 -2
                0,    // stop
            ]
        );
    }

    #[test]
    fn the_reader_skips_what_it_does_not_know_and_never_panics() {
        let buf = sample();
        let mut r = In::new(&buf);
        assert_eq!(r.message_header().unwrap(), (CALL, "put".into(), 7));
        let mut seen = Vec::new();
        while let Some((k, id)) = r.field().unwrap() {
            seen.push(id);
            r.skip(k).unwrap();
        }
        assert_eq!(seen, [1, 2]);
        assert!(r.at_end());
        // Every truncation and every single-byte change decodes or fails, never panics.
        for cut in 0..buf.len() {
            let mut r = In::new(&buf[..cut]);
            let _ = r.message_header().and_then(|_| r.skip(ty::STRUCT));
        }
        for i in 0..buf.len() {
            for b in [0u8, 0x7f, 0x80, 0xff] {
                let mut bad = buf.clone();
                bad[i] = b;
                let mut r = In::new(&bad);
                let _ = r.message_header().and_then(|_| r.skip(ty::STRUCT));
                let mut c = Completeness::default();
                let _ = c.advance(&bad);
            }
        }
    }

    #[test]
    fn completeness_finds_the_end_however_the_bytes_arrive() {
        let mut buf = sample();
        let len = buf.len();
        buf.extend_from_slice(b"next message");
        for step in [1, 2, 3, 5, 7, 64] {
            let mut c = Completeness::default();
            let mut got = None;
            let mut have = 0;
            while got.is_none() {
                have = (have + step).min(buf.len());
                got = c.advance(&buf[..have]).unwrap();
                if got.is_none() {
                    assert!(have < len, "step {step}: not complete at {have} of {len}");
                }
            }
            assert_eq!(got, Some(len), "step {step}");
        }
    }

    #[test]
    fn hostile_lengths_are_refused_without_allocating() {
        // A list header claiming 2^31-1 elements in a 10-byte message.
        let mut r = In::new(&[ty::I64, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0]);
        assert!(r.list().is_err());
        let mut r = In::new(&[0xff, 0xff, 0xff, 0xff]);
        assert!(r.bytes().is_err());
        let deep: Vec<u8> = std::iter::repeat_n([ty::STRUCT, 0, 1], 100)
            .flatten()
            .collect();
        assert!(In::new(&deep).skip(ty::STRUCT).is_err());
    }
}
