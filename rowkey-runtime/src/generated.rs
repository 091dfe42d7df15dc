//! What the generated code calls: one call per field for each of width checking, reading and
//! layout data, so that per-field logic (error attribution, offsets, the schema record) is
//! written and compiled once here rather than expanded into every key type (zerocopy's
//! `macro_util` in spirit). Not public API: reached through `__private`.

use crate::codec::{Codec, CodecDecode};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::schema::{add, FieldSchema, Order};
use crate::source::Source;

/// Checks `value` with codec `C` and returns `at` plus its width; an error is attributed to
/// `field`, at offset `at`.
#[inline(always)]
pub fn width<C: Codec<T>, T: ?Sized>(
    value: &T,
    at: usize,
    field: &'static str,
) -> Result<usize, EncodeError> {
    match C::width(value) {
        Ok(w) => Ok(at + w),
        Err(e) => Err(e.in_field(field).within(at)),
    }
}

/// Reads one field with codec `C`; an error is attributed to `field`.
#[inline(always)]
pub fn read<'de, C: CodecDecode<'de, T>, T, S: Source<'de>>(
    src: &mut S,
    field: &'static str,
) -> Result<T, DecodeError> {
    src.enter_field();
    let value = C::read(src).map_err(|e| e.in_field(field));
    src.leave_field();
    value
}

/// The layout record of a field encoded by `C`; the offset is filled by [`with_offsets`].
/// Width, encoding and order are the codec's own constants: the one source of these facts.
pub const fn field<C: Codec<T>, T: ?Sized>(
    name: &'static str,
    rust_type: &'static str,
    attributes: &'static [&'static str],
    salted: bool,
) -> FieldSchema {
    // A key that is whole only as a key, as a field of another: refused when the layout is
    // built (the derive evaluates it at compile time for fields that may be keys).
    if !C::__NOT_NESTED.is_empty() {
        panic!("{}", C::__NOT_NESTED);
    }
    let order = if !C::ORDERED {
        Order::Unordered
    } else if C::DESCENDING {
        Order::Descending
    } else {
        Order::Ascending
    };
    FieldSchema {
        name,
        rust_type,
        offset: None,
        width: C::FIXED_WIDTH,
        max_width: C::MAX_WIDTH,
        encoding: C::ENCODING,
        order,
        attributes,
        salted,
        nested: C::NESTED,
        domain: C::DOMAIN,
    }
}

/// The layout record of a key's hash prefix: the pseudo-field
/// [`HASH_PREFIX_FIELD`](crate::schema::HASH_PREFIX_FIELD) at the head of the fields, `width`
/// bytes (with a text key's delimiter), hashing the field the attributes name.
pub const fn hash_prefix_field(
    width: usize,
    encoding: &'static str,
    attributes: &'static [&'static str],
    text: bool,
) -> FieldSchema {
    FieldSchema {
        name: crate::schema::HASH_PREFIX_FIELD,
        rust_type: "",
        offset: None,
        width: Some(width),
        max_width: Some(width),
        encoding,
        order: Order::Unordered,
        attributes,
        salted: false,
        nested: None,
        // Hex digits, or any byte of a digest.
        domain: if text {
            crate::schema::Domain::interval(1, 0x30, 0x67)
        } else {
            crate::schema::Domain::full(1)
        },
    }
}

/// Writes a key's hash prefix: the MD5 of `v` as `C` encodes it (a text key's field: its text),
/// its first `len` bytes (`hex` 0), or its first `len` hex digits (`hex` 1 lowercase, 2
/// uppercase), then `delimiter` when there is one.
#[inline]
pub fn write_hash_prefix<C: Codec<T>, T: ?Sized, S: crate::sink::Sink>(
    v: &T,
    len: usize,
    hex: u8,
    delimiter: Option<u8>,
    sink: &mut S,
) {
    let mut h = crate::sink::Md5Sink::new();
    C::write(v, &mut h);
    let digest = h.finish();
    if hex == 0 {
        sink.put(&digest[..len.min(16)]);
    } else {
        let table: &[u8; 16] = if hex == 2 {
            b"0123456789ABCDEF"
        } else {
            b"0123456789abcdef"
        };
        let mut out = [0u8; 32];
        for (i, b) in digest.iter().enumerate() {
            out[2 * i] = table[usize::from(b >> 4)];
            out[2 * i + 1] = table[usize::from(b & 0x0F)];
        }
        sink.put(&out[..len.min(32)]);
    }
    if let Some(d) = delimiter {
        sink.put_array([d]);
    }
}

/// Sets each field's offset from the widths before it, the first at `start`: known while every
/// earlier field is fixed width, `None` after the first variable one.
pub const fn with_offsets<const N: usize>(
    mut fields: [FieldSchema; N],
    start: Option<usize>,
) -> [FieldSchema; N] {
    let mut at = start;
    let mut i = 0;
    while i < N {
        fields[i].offset = at;
        at = add(at, fields[i].width);
        i += 1;
    }
    fields
}

/// The sum of the fields' widths, `None` if any is variable: `FIXED_WIDTH` and `MAX_WIDTH` of
/// a key from its fields' (linear in the field count).
pub const fn sum(widths: &[Option<usize>]) -> Option<usize> {
    let mut total = Some(0);
    let mut i = 0;
    while i < widths.len() {
        total = add(total, widths[i]);
        i += 1;
    }
    total
}

/// The name errors give a record type's tag byte.
pub const TAG_FIELD: &str = "(tag)";

/// Reads a record type's tag byte: the tag and the offset it was at. Shared by the generated
/// decoders and [`Explainer::tag`](crate::explain::Explainer::tag), so both read tags alike.
#[inline(always)]
pub fn read_tag<'de, S: Source<'de>>(src: &mut S) -> Result<(usize, u8), DecodeError> {
    let at = src.pos();
    src.enter_field();
    let tag = src.take_array::<1>().map_err(|e| e.in_field(TAG_FIELD));
    src.leave_field();
    let [tag] = tag?;
    Ok((at, tag))
}

/// The error for tag byte `tag` at `at`, which no record type of the key has.
pub const fn unknown_tag(at: usize, tag: u8) -> DecodeError {
    DecodeError::new(at, DecodeErrorKind::UnknownTag { tag }).in_field(TAG_FIELD)
}
