//! The [`RowKey`] trait: whole keys, with the salt byte, length limits and buffer handling.
//! The derive supplies the field layout; everything here is written once for all keys.

use bytes::{BufMut, Bytes};

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{Decode, Encode};
use crate::schema::Schema;
use crate::sink::{BufSink, CountSink, Md5Sink, Sink, SliceSink};
use crate::source::{Reader, Source};

/// A row key: a struct whose fields, in declaration order, encode to bytes that sort in the
/// fields' logical order. Implement it with `#[derive(RowKey)]`; the hidden items are the
/// derive's and are not part of the public API.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Event {
///     #[salt(buckets = 16)]
///     user_id: u64,
///     #[fixed(16)]
///     event_type: String,
///     #[reverse_ts]
///     ts: u64,
/// }
///
/// let ev = Event { user_id: 7, event_type: "click".into(), ts: 1_700_000_000_000 };
/// let mut buf = [0u8; Event::MAX_LEN];
/// let n = ev.encode_to_slice(&mut buf)?;
/// assert_eq!(n, 33);
/// assert_eq!(Event::decode(&buf[..n])?, ev);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait RowKey: Encode + Sized {
    /// The longest key this type can encode to: fixed widths plus each variable field's
    /// `#[max_len(N)]` bound, capped by the key limit `#[rowkey(key_limit = N)]` (default 32767,
    /// HBase's limit). A longer key is an [`EncodeError`].
    const MAX_LEN: usize = crate::schema::max_len(
        Self::__SALT_BUCKETS > 0,
        crate::schema::add(Some(Self::__PREFIX_LEN), <Self as Encode>::MAX_WIDTH),
        Self::__LIMIT,
    );
    /// The width of every key, when all fields are fixed width.
    const FIXED_LEN: Option<usize> = crate::schema::add(
        Some(if Self::__SALT_BUCKETS > 0 { 1 } else { 0 } + Self::__PREFIX_LEN),
        <Self as Encode>::FIXED_WIDTH,
    );
    /// The key's layout as data.
    const SCHEMA: &'static Schema;

    /// A 64-bit fingerprint of everything that decides this type's stored bytes: field order,
    /// each field's encoding (its type class and attributes), the salt strategy, buckets and
    /// salted fields, record tags. Not names, docs, derive order, `key_limit` or `max_len`
    /// bounds. Pin it with `#[rowkey(fingerprint = 0x...)]`: a change to the type that would
    /// alter stored bytes then fails the build, at the attribute, with the new value, the part
    /// that changed and the layout. The high 32 bits are FNV-1a of a versioned description of
    /// the whole layout, the low 32 bits a 4-bit check per part (salt, fields, record types):
    /// stable across platforms and compiler versions. A field whose type is another key (or a
    /// user type) is covered by the type's name only: pin the nested key's own fingerprint too.
    const FINGERPRINT: u64;
    /// The salt buckets (`#[salt(buckets = N)]`, 2..=256); 0 for an unsalted key.
    #[doc(hidden)]
    const __SALT_BUCKETS: u16 = 0;
    /// The salt strategy (`#[salt(hash = "...")]`); MD5 unless the key says otherwise.
    #[doc(hidden)]
    const __SALT_HASH: crate::salt::SaltHash = crate::salt::SaltHash::Md5;
    /// The key limit (`#[rowkey(key_limit = N)]`), HBase's 32767 by default.
    #[doc(hidden)]
    const __LIMIT: usize = 32767;
    /// The bytes of the key's hash prefix (`#[rowkey(hash_prefix(...))]`, with a text key's
    /// delimiter), written before the fields; 0 for a key without one.
    #[doc(hidden)]
    const __PREFIX_LEN: usize = 0;
    /// Writes the hash prefix (nothing for a key without one).
    #[doc(hidden)]
    #[inline(always)]
    fn __write_prefix<S: Sink>(&self, sink: &mut S) {
        let _ = sink;
    }
    #[doc(hidden)]
    fn __write_head<S: Sink>(&self, sink: &mut S);
    #[doc(hidden)]
    fn __write_tail<S: Sink>(&self, sink: &mut S);

    /// `regions - 1` ascending keys that split a table of these keys into `regions` regions of
    /// equal shares of the key space, every region reachable: at salt-bucket boundaries for a
    /// salted key (buckets subdivided over the next field when there are more regions than
    /// buckets), evenly over the leading field's domain otherwise. See [`crate::split`].
    fn split_points(regions: usize) -> Vec<Bytes> {
        crate::split::split_points(Self::SCHEMA, regions)
    }

    /// The salt bucket this key lands in, or `None` for an unsalted key: by default the first
    /// 8 bytes of the MD5 of the encoded fields up to and including the salted one,
    /// big-endian, modulo the number of buckets; the key's `#[salt(hash = "...")]` strategy
    /// otherwise (see the attribute's documentation).
    #[inline]
    fn salt_bucket(&self) -> Option<u8> {
        use crate::salt::{JavaHashSink, ModSink, SaltHash, Xxh3Sink};
        let n = Self::__SALT_BUCKETS;
        if n == 0 {
            return None;
        }
        // A constant: one arm survives.
        Some(match Self::__SALT_HASH {
            SaltHash::Md5 => {
                let mut h = Md5Sink::new();
                self.__write_head(&mut h);
                crate::salt::bucket(&h.finish(), n)
            }
            SaltHash::Java | SaltHash::Phoenix => {
                let mut h = JavaHashSink::new();
                self.__write_head(&mut h);
                h.bucket(n)
            }
            SaltHash::Xxh3 => {
                let mut h = Xxh3Sink::new();
                self.__write_head(&mut h);
                h.bucket(n)
            }
            SaltHash::Mod => {
                let mut h = ModSink::new();
                self.__write_head(&mut h);
                h.bucket(n)
            }
        })
    }

    /// The number of bytes `encode_*` writes for this key. For a value that cannot be encoded
    /// (see [`EncodeError`]), the length it would have without the checks.
    #[inline]
    fn encoded_len(&self) -> usize {
        let mut n = CountSink(usize::from(Self::__SALT_BUCKETS != 0) + Self::__PREFIX_LEN);
        self.__write_head(&mut n);
        self.__write_tail(&mut n);
        n.0
    }

    /// Checks every field and the key limit; returns the key's length.
    #[doc(hidden)]
    #[inline(always)]
    fn __checked_len(&self) -> Result<usize, EncodeError> {
        let before = usize::from(Self::__SALT_BUCKETS != 0) + Self::__PREFIX_LEN;
        let len = before + self.encoded_width().map_err(|e| e.within(before))?;
        if len > Self::__LIMIT {
            // The offset is the first byte past the limit: where the key stops fitting.
            return Err(EncodeError::new(EncodeErrorKind::KeyTooLong {
                len,
                max: Self::__LIMIT,
            })
            .within(Self::__LIMIT));
        }
        Ok(len)
    }

    /// Encodes into the start of `out` and returns the number of bytes written. Allocates
    /// nothing; a buffer of [`RowKey::MAX_LEN`] bytes always suffices. On error nothing
    /// meaningful is written and the error says why.
    #[inline]
    fn encode_to_slice(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        self.__encode_to_slice_with_salt(self.salt_bucket(), out)
    }

    /// [`RowKey::encode_to_slice`] with the salt byte computed by the caller: the benchmark's
    /// way to time the hash separately. Not public API: `salt` must be `self.salt_bucket()`,
    /// checked in debug builds only (a wrong salt writes a key that [`RowKey::decode`]
    /// refuses).
    #[doc(hidden)]
    #[inline(always)]
    fn __encode_to_slice_with_salt(
        &self,
        salt: Option<u8>,
        out: &mut [u8],
    ) -> Result<usize, EncodeError> {
        debug_assert_eq!(salt, self.salt_bucket(), "wrong salt byte");
        let len = self.__checked_len()?;
        let Some(out) = out.get_mut(..len) else {
            return Err(EncodeError::new(EncodeErrorKind::BufferTooSmall {
                needed: len,
                available: out.len(),
            }));
        };
        let mut sink = SliceSink::new(out);
        if let Some(b) = salt {
            sink.put_array([b]);
        }
        self.__write_prefix(&mut sink);
        self.__write_head(&mut sink);
        self.__write_tail(&mut sink);
        match sink.written() {
            Some(n) if n == len => Ok(n),
            _ => Err(EncodeError::new(EncodeErrorKind::Internal)),
        }
    }

    /// Appends the key to `buf`. Allocates nothing beyond what `buf` itself does to grow; a
    /// buffer without room for the key (a full `&mut [u8]`) gets an error and no bytes.
    #[inline]
    fn encode_into<B: BufMut + ?Sized>(&self, buf: &mut B) -> Result<(), EncodeError> {
        let len = self.__checked_len()?;
        if buf.remaining_mut() < len {
            return Err(EncodeError::new(EncodeErrorKind::BufferTooSmall {
                needed: len,
                available: buf.remaining_mut(),
            }));
        }
        let mut sink = BufSink(buf);
        if let Some(b) = self.salt_bucket() {
            sink.put_array([b]);
        }
        self.__write_prefix(&mut sink);
        self.__write_head(&mut sink);
        self.__write_tail(&mut sink);
        Ok(())
    }

    /// The key as [`Bytes`]: exactly one allocation, of exactly the key's length.
    #[inline]
    fn to_bytes(&self) -> Result<Bytes, EncodeError> {
        let len = self.__checked_len()?;
        let mut v = vec![0u8; len];
        self.__encode_to_slice_with_salt(self.salt_bucket(), &mut v)?;
        Ok(Bytes::from(v))
    }

    /// Decodes a key, checking the salt byte against the salted fields (one hash). Never
    /// panics: any input gives the key or a [`DecodeError`] naming the field and offset.
    /// Only canonical keys decode: exactly the bytes this type encodes, so every decoded key
    /// encodes back to its own bytes (a value over its `#[max_len]` bound or a key over the
    /// key limit is refused, as encoding refuses it).
    /// Borrowed fields (`&str`, `&[u8]`) borrow from `bytes` without copying.
    #[inline]
    fn decode<'de>(bytes: &'de [u8]) -> Result<Self, DecodeError>
    where
        Self: Decode<'de>,
    {
        let key = Self::decode_trusted(bytes)?;
        if Self::__PREFIX_LEN > 0 {
            // The prefix the fields hash to, against the one stored (at most 33 bytes).
            let mut expected = [0u8; 64];
            let n = Self::__PREFIX_LEN.min(expected.len());
            let mut sink = SliceSink::new(&mut expected[..n]);
            key.__write_prefix(&mut sink);
            if bytes.get(..n) != Some(&expected[..n]) {
                return Err(DecodeError::new(0, DecodeErrorKind::WrongHashPrefix)
                    .in_field(crate::schema::HASH_PREFIX_FIELD));
            }
        }
        if let (Some(expected), Some(&found)) = (key.salt_bucket(), bytes.first()) {
            if expected != found {
                return Err(
                    DecodeError::new(0, DecodeErrorKind::WrongSalt { expected, found })
                        .in_field(Self::SCHEMA.salt_field().unwrap_or("")),
                );
            }
        }
        Ok(key)
    }

    /// Decodes a key without re-hashing the salted fields: for hot scans of keys this schema
    /// wrote itself. Every other check of [`RowKey::decode`] still applies (a salt byte
    /// beyond the buckets is still refused), and it never panics; a key whose salt byte is
    /// wrong decodes to the fields it holds.
    #[inline]
    fn decode_trusted<'de>(bytes: &'de [u8]) -> Result<Self, DecodeError>
    where
        Self: Decode<'de>,
    {
        // The same body twice: in the first arm the compiler knows the input's length, so the
        // per-field bounds checks of a fixed-length key fold away, as in a hand-written decoder.
        match Self::FIXED_LEN {
            Some(n) if bytes.len() == n => decode_fields(bytes),
            _ => decode_fields(bytes),
        }
    }
}

/// Splits a stored key of type `K` into the ends of its segments (the salt byte, each field,
/// a record type's tag), in key order: what a skip scan checks. `false` when the bytes are not
/// a key of `K` (it does not decode, or its salt byte is out of range).
pub fn segment_ends<K: RowKey + for<'de> Decode<'de>>(bytes: &[u8], ends: &mut Vec<usize>) -> bool {
    ends.clear();
    if bytes.len() > K::__LIMIT {
        return false;
    }
    let mut r = crate::source::Marking::new(Reader::new(bytes), ends);
    if K::__SALT_BUCKETS != 0 {
        match r.take_array::<1>() {
            Ok([b]) if u16::from(b) < K::__SALT_BUCKETS => {}
            _ => return false,
        }
        r.enter_field();
        r.leave_field();
    }
    if K::__PREFIX_LEN > 0 {
        r.enter_field();
        if r.take_fixed(K::__PREFIX_LEN).is_err() {
            return false;
        }
        r.leave_field();
    }
    <K as Decode<'_>>::read(&mut r).is_ok() && r.inner.finish().is_ok()
}

/// Reads the salt byte (range-checked, not re-hashed), every field, and the end of input.
#[inline(always)]
fn decode_fields<'de, K: RowKey + Decode<'de>>(bytes: &'de [u8]) -> Result<K, DecodeError> {
    if bytes.len() > K::__LIMIT {
        return Err(DecodeError::new(
            K::__LIMIT,
            DecodeErrorKind::KeyTooLong {
                len: bytes.len(),
                max: K::__LIMIT,
            },
        ));
    }
    let mut r = Reader::new(bytes);
    if K::__SALT_BUCKETS != 0 {
        let [found] = r.take_array::<1>()?;
        if u16::from(found) >= K::__SALT_BUCKETS {
            return Err(DecodeError::new(
                0,
                DecodeErrorKind::SaltOutOfRange {
                    found,
                    buckets: K::__SALT_BUCKETS,
                },
            )
            .in_field(K::SCHEMA.salt_field().unwrap_or("")));
        }
    }
    if K::__PREFIX_LEN > 0 {
        // Checked against the fields by `decode`; `decode_trusted` takes it as stored.
        r.take_fixed(K::__PREFIX_LEN)
            .map_err(|e| e.in_field(crate::schema::HASH_PREFIX_FIELD))?;
    }
    let key = <K as Decode<'de>>::read(&mut r)?;
    r.finish()?;
    Ok(key)
}
