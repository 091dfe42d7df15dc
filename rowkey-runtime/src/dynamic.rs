//! [`explain_schema`]: `explain` without the key type, from its schema alone (a schema read
//! back from JSON, as the `rowkey-explain` command-line program does). Each field is decoded by
//! the same runtime codec the typed decoder uses, chosen from the schema's description of the
//! field (its Rust type, encoding and attributes), and shown by the same `Explain` rendering,
//! so the output is the typed `explain`'s for every key that one decodes.

use core::fmt::{self, Write as _};
use std::borrow::Cow;

use crate::codec::{CodecDecode, Natural, Reverse, ReverseTs};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::explain::{Explain, Explainer};
use crate::java::{Java, JavaUtf, Rest};
use crate::schema::{FieldSchema, Schema};
use crate::source::{Inverted, Reader, Source};
use crate::text_key::parse_number;

/// Explains `bytes` as a key of `schema`, as the key type's own `explain` would.
pub fn explain_schema(schema: &'static Schema, bytes: &[u8]) -> String {
    explainer(schema, bytes).finish()
}

/// [`explain_schema`], and what is wrong with the key: `None` when it decodes whole (and its
/// salt byte, if any, is the one its fields hash to), else the reason, which the explanation
/// ends with too. For tools that must say so in their exit status (`rowkey explain`).
pub fn explain_schema_checked(schema: &'static Schema, bytes: &[u8]) -> (String, Option<String>) {
    explainer(schema, bytes).finish_checked()
}

/// The explanation of `bytes` under `schema`, what is wrong with it (`None`: it is a key of
/// the schema), and each field read.
pub(crate) fn explain_fields(
    schema: &'static Schema,
    bytes: &[u8],
) -> (String, Option<String>, Vec<crate::explain::FieldValue>) {
    explainer(schema, bytes).finish_values()
}

fn explainer<'de>(schema: &'static Schema, bytes: &'de [u8]) -> Explainer<'de> {
    let mut ex = Explainer::new(bytes, schema);
    for _ in schema.fields {
        ex.field_with(read_field);
    }
    if !schema.variants.is_empty() {
        if let Some(tag) = ex.tag() {
            if let Some(v) = schema.variants.iter().find(|v| v.tag == tag) {
                for _ in v.fields {
                    ex.field_with(read_field);
                }
            }
        }
    }
    ex
}

/// One column of a key's fields as [`decode_schema`] reports them ([`flat_fields`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlatField {
    /// The field's name; a nested key's fields are `outer.inner`, a record type's own fields
    /// `Variant.field`.
    pub path: String,
    /// The field as the schema describes it.
    pub schema: &'static FieldSchema,
    /// For a record type's own field, the index of its variant in [`Schema::variants`].
    pub variant: Option<usize>,
}

/// The fields [`decode_schema`] reads from keys of `schema`, in the order of the indexes it
/// reports: the key's fields (a nested key's fields in its place, flattened), then each
/// record type's own fields, variant by variant. The salt byte, a hash prefix and a record
/// type's tag are not fields ([`FieldVisitor::variant`] reports the tag).
pub fn flat_fields(schema: &'static Schema) -> Vec<FlatField> {
    fn push(
        out: &mut Vec<FlatField>,
        prefix: &str,
        fields: &'static [FieldSchema],
        variant: Option<usize>,
    ) {
        for f in fields {
            if f.name == crate::schema::HASH_PREFIX_FIELD {
                continue;
            }
            let path = if prefix.is_empty() {
                f.name.to_string()
            } else {
                format!("{prefix}.{}", f.name)
            };
            match f.nested {
                Some(nested) if !has(f, "desc") => push(out, &path, nested.fields, variant),
                _ => out.push(FlatField {
                    path,
                    schema: f,
                    variant,
                }),
            }
        }
    }
    let mut out = Vec::new();
    push(&mut out, "", schema.fields, None);
    for (i, v) in schema.variants.iter().enumerate() {
        push(&mut out, v.name, v.fields, Some(i));
    }
    out
}

/// What [`decode_schema`] reports of one key.
pub trait FieldVisitor<'de> {
    /// The field at `index` of [`flat_fields`] holds `value`.
    fn field(&mut self, index: usize, value: DynField<'de>);
    /// The key is of record type `variant` (its index in [`Schema::variants`]); reported
    /// before that record type's own fields.
    fn variant(&mut self, variant: usize) {
        let _ = variant;
    }
}

/// Reads a key of `schema` without its Rust type: each field's value, typed as the schema
/// says ([`DynValue`]), reported to `visitor` with its index in [`flat_fields`]. The key is
/// checked as the typed decoder checks it: its length, a salt byte below the bucket count and
/// the one its fields hash to, every field whole, a known tag, nothing left over. On an error
/// the fields read so far have been reported. Allocates only where a value is not stored as
/// it is (escaped text, a reversed value).
///
/// ```
/// use rowkey::{decode_schema, DynField, FieldVisitor, RowKey};
///
/// #[derive(RowKey)]
/// struct Visit {
///     #[salt(buckets = 8)]
///     user: u32,
///     #[desc]
///     day: u16,
///     page: String,
/// }
///
/// struct Collect(Vec<(usize, String)>);
/// impl<'de> FieldVisitor<'de> for Collect {
///     fn field(&mut self, index: usize, value: DynField<'de>) {
///         self.0.push((index, format!("{:?}", value.value)));
///     }
/// }
///
/// let key = Visit { user: 7, day: 3, page: "/a".into() }.to_bytes().unwrap();
/// let mut seen = Collect(Vec::new());
/// decode_schema(Visit::SCHEMA, &key, &mut seen).unwrap();
/// assert_eq!(seen.0[0], (0, "U32(7)".to_string()));
/// assert_eq!(seen.0[1], (1, "U16(3)".to_string()));
/// assert_eq!(seen.0[2], (2, "Str(\"/a\")".to_string()));
/// ```
pub fn decode_schema<'de>(
    schema: &'static Schema,
    bytes: &'de [u8],
    visitor: &mut impl FieldVisitor<'de>,
) -> Result<(), DecodeError> {
    decode(schema, bytes, visitor, true)
}

/// [`decode_schema`] without re-hashing the salted fields to check the salt byte (it is still
/// checked against the bucket count), as `Table::scan` reads: HBase's own clients and Phoenix do
/// not re-hash on read either, and the hash is most of a decode. For reads where each row comes
/// from its bucket's range, or whose writers are trusted.
pub fn decode_schema_trusted<'de>(
    schema: &'static Schema,
    bytes: &'de [u8],
    visitor: &mut impl FieldVisitor<'de>,
) -> Result<(), DecodeError> {
    decode(schema, bytes, visitor, false)
}

fn decode<'de>(
    schema: &'static Schema,
    bytes: &'de [u8],
    visitor: &mut impl FieldVisitor<'de>,
    verify_salt: bool,
) -> Result<(), DecodeError> {
    if bytes.len() > schema.limit {
        return Err(DecodeError::new(
            schema.limit,
            DecodeErrorKind::KeyTooLong {
                len: bytes.len(),
                max: schema.limit,
            },
        ));
    }
    let mut src = Reader::new(bytes);
    let mut salt = None;
    if let Some(s) = schema.salt {
        // As the typed decoder says them: at the salted field.
        let at_field = |e: DecodeError| match s.fields.last() {
            Some(name) => e.in_field(name),
            None => e,
        };
        let [b] = src.take_array::<1>()?;
        if u16::from(b) >= s.buckets {
            return Err(at_field(DecodeError::new(
                0,
                DecodeErrorKind::SaltOutOfRange {
                    found: b,
                    buckets: s.buckets,
                },
            )));
        }
        salt = Some((b, s));
    }
    let mut salted_end = None;
    let mut index = 0;
    let mut fields = schema.fields;
    if let Some(f) = fields
        .first()
        .filter(|f| f.name == crate::schema::HASH_PREFIX_FIELD)
    {
        src.take_fixed(f.width.unwrap_or(0))
            .map_err(|e| e.in_field(f.name))?;
        fields = &fields[1..];
    }
    read_fields(fields, &mut src, visitor, &mut index, &mut |f, end| {
        if f.salted && salt.is_some_and(|(_, s)| s.fields.last() == Some(&f.name)) {
            salted_end = Some(end);
        }
    })?;
    if !schema.variants.is_empty() {
        let (at, tag) = crate::generated::read_tag(&mut src)?;
        let Some((v, variant)) = schema
            .variants
            .iter()
            .enumerate()
            .find(|(_, v)| v.tag == tag)
        else {
            return Err(crate::generated::unknown_tag(at, tag));
        };
        visitor.variant(v);
        // The record types before this one have their own fields first in the flat order.
        let mut vindex = index
            + schema.variants[..v]
                .iter()
                .map(|v| flat_count(v.fields))
                .sum::<usize>();
        read_fields(
            variant.fields,
            &mut src,
            visitor,
            &mut vindex,
            &mut |_, _| {},
        )?;
    }
    src.finish()?;
    if let (true, Some((found, s)), Some(end)) = (verify_salt, salt, salted_end) {
        let hash = crate::salt::SaltHash::from_name(s.hash).unwrap_or(crate::salt::SaltHash::Md5);
        let expected = crate::salt::bucket_of(hash, bytes.get(1..end).unwrap_or(&[]), s.buckets);
        if expected != found {
            let e = DecodeError::new(0, DecodeErrorKind::WrongSalt { expected, found });
            // As the typed decoder says it: at the salted field.
            return Err(match s.fields.last() {
                Some(name) => e.in_field(name),
                None => e,
            });
        }
    }
    Ok(())
}

/// How many flat fields `fields` make (nested keys counted by their own fields).
fn flat_count(fields: &'static [FieldSchema]) -> usize {
    fields
        .iter()
        .filter(|f| f.name != crate::schema::HASH_PREFIX_FIELD)
        .map(|f| match f.nested {
            Some(n) if !has(f, "desc") => flat_count(n.fields),
            _ => 1,
        })
        .sum()
}

/// Reads `fields` in turn, reporting each to `visitor` at `*index` onwards; `done` learns
/// where each top-level field ended.
fn read_fields<'de>(
    fields: &'static [FieldSchema],
    src: &mut Reader<'de>,
    visitor: &mut impl FieldVisitor<'de>,
    index: &mut usize,
    done: &mut dyn FnMut(&FieldSchema, usize),
) -> Result<(), DecodeError> {
    for f in fields {
        match (f.nested, has(f, "desc")) {
            (Some(nested), false) => {
                read_fields(nested.fields, src, visitor, index, &mut |_, _| {})
                    .map_err(|e| e.in_field(f.name))?;
            }
            (Some(_), true) => return Err(unsupported(src.pos(), f.rust_type)),
            (None, desc) => {
                let read = if desc {
                    read_value(f, &mut Inverted(&mut *src))
                } else {
                    read_value(f, src)
                };
                visitor.field(*index, read.map_err(|e| e.in_field(f.name))?);
                *index += 1;
            }
        }
        done(f, src.pos());
    }
    Ok(())
}

/// [`explain_schema`], with the name of each id a `#[uid(kind = "...")]` field holds:
/// `names(kind, id_bytes)` looks it up (in a [`UidTable`](crate::store::UidTable)'s reverse
/// rows, say) and the name is shown beside the id.
///
/// ```
/// use rowkey::{explain_schema_with_names, RowKey};
///
/// #[derive(RowKey)]
/// struct Event {
///     #[uid(kind = "host")]
///     host: u16,
///     #[reverse_ts]
///     ts: u64,
/// }
///
/// let key = Event { host: 2, ts: 1_700_000_000_000 }.to_bytes().unwrap();
/// let names = |kind: &str, id: &[u8]| (kind == "host" && id == [0, 2]).then(|| "db-07".to_string());
/// assert!(explain_schema_with_names(Event::SCHEMA, &key, &names).contains("2 = \"db-07\""));
/// ```
pub fn explain_schema_with_names(
    schema: &'static Schema,
    bytes: &[u8],
    names: &dyn Fn(&str, &[u8]) -> Option<String>,
) -> String {
    explain_schema_with_names_checked(schema, bytes, names).0
}

/// [`explain_schema_with_names`], and what is wrong with the key, as
/// [`explain_schema_checked`] says it.
pub fn explain_schema_with_names_checked(
    schema: &'static Schema,
    bytes: &[u8],
    names: &dyn Fn(&str, &[u8]) -> Option<String>,
) -> (String, Option<String>) {
    let read = |f: &FieldSchema, src: &mut Reader<'_>| -> Result<String, DecodeError> {
        let start = src.pos();
        let mut shown = read_field(f, src)?;
        if let Some(kind) = uid_kind(f) {
            let id = bytes.get(start..src.pos()).unwrap_or_default();
            match names(kind, id) {
                Some(name) => shown.push_str(&format!(" = {name:?}")),
                None => shown.push_str(&format!(" (no `{kind}` of this id in the lookup table)")),
            }
        }
        Ok(shown)
    };
    let mut ex = Explainer::new(bytes, schema);
    for _ in schema.fields {
        ex.field_with(read);
    }
    if !schema.variants.is_empty() {
        if let Some(tag) = ex.tag() {
            if let Some(v) = schema.variants.iter().find(|v| v.tag == tag) {
                for _ in v.fields {
                    ex.field_with(read);
                }
            }
        }
    }
    ex.finish_checked()
}

/// The kind of a `#[uid(kind = "...")]` field.
pub(crate) fn uid_kind(f: &FieldSchema) -> Option<&'static str> {
    f.attributes
        .iter()
        .find_map(|a| a.strip_prefix("uid(kind = \"")?.strip_suffix("\")"))
}

fn has(f: &FieldSchema, attr: &str) -> bool {
    // No allocation: this runs for every field of every key `decode_schema` reads.
    f.attributes.iter().any(|a| {
        a.strip_prefix(attr)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('('))
    })
}

/// Reads one field as its schema describes it, rendered as `Explain` renders the typed value.
fn read_field<'de>(f: &FieldSchema, src: &mut Reader<'de>) -> Result<String, DecodeError> {
    match (f.nested, has(f, "desc")) {
        (Some(nested), false) => read_nested(nested, src),
        (Some(_), true) => Err(unsupported(src.pos(), f.rust_type)),
        (None, true) => read_plain(f, &mut Inverted(src)),
        (None, false) => read_plain(f, src),
    }
}

fn read_plain<'de, S: Source<'de>>(f: &FieldSchema, src: &mut S) -> Result<String, DecodeError> {
    Ok(read_value(f, src)?.shown())
}

/// One field's value as the schema-driven decoder reads it ([`decode_schema`]): the value
/// its Rust type holds, borrowed from the key's bytes where they hold it as it is.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DynValue<'de> {
    /// `bool`.
    Bool(bool),
    /// `u8`.
    U8(u8),
    /// `u16`.
    U16(u16),
    /// `u32`.
    U32(u32),
    /// `u64`.
    U64(u64),
    /// `u128`.
    U128(u128),
    /// `i8`.
    I8(i8),
    /// `i16`.
    I16(i16),
    /// `i32`.
    I32(i32),
    /// `i64`.
    I64(i64),
    /// `i128`.
    I128(i128),
    /// `f32`.
    F32(f32),
    /// `f64`.
    F64(f64),
    /// Text (`String`, `&str`, `Cow<str>`, `Box<str>`).
    Str(Cow<'de, str>),
    /// Bytes (`Vec<u8>`, `&[u8]`, `[u8; N]`, ...).
    Bytes(Cow<'de, [u8]>),
    /// The MD5 digest a `#[hash]` field stores in place of its value.
    Digest(Cow<'de, [u8]>),
    /// An `Option` that is `None`.
    Null,
}

/// A value read, and how many `Option`s it is inside (`Some(Some(x))`: 2; `Some(None)`:
/// [`DynValue::Null`] inside 1).
#[derive(Debug, Clone, PartialEq)]
pub struct DynField<'de> {
    /// The value (or [`DynValue::Null`]).
    pub value: DynValue<'de>,
    /// The `Some`s around it.
    pub somes: u8,
}

impl<'de> From<DynValue<'de>> for DynField<'de> {
    fn from(value: DynValue<'de>) -> Self {
        DynField { value, somes: 0 }
    }
}

/// As `explain` shows the value (text quoted, bytes escaped, `Some(..)` around an `Option`'s).
impl fmt::Display for DynField<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown())
    }
}

impl DynField<'_> {
    /// As the typed `explain` shows the value.
    fn shown(&self) -> String {
        let mut out = "Some(".repeat(usize::from(self.somes));
        match &self.value {
            DynValue::Bool(v) => v.explain(&mut out),
            DynValue::U8(v) => v.explain(&mut out),
            DynValue::U16(v) => v.explain(&mut out),
            DynValue::U32(v) => v.explain(&mut out),
            DynValue::U64(v) => v.explain(&mut out),
            DynValue::U128(v) => v.explain(&mut out),
            DynValue::I8(v) => v.explain(&mut out),
            DynValue::I16(v) => v.explain(&mut out),
            DynValue::I32(v) => v.explain(&mut out),
            DynValue::I64(v) => v.explain(&mut out),
            DynValue::I128(v) => v.explain(&mut out),
            DynValue::F32(v) => v.explain(&mut out),
            DynValue::F64(v) => v.explain(&mut out),
            DynValue::Str(v) => v.explain(&mut out),
            DynValue::Bytes(v) => v.explain(&mut out),
            DynValue::Digest(d) => {
                out.push_str("md5 ");
                for b in d.iter() {
                    let _ = write!(out, "{b:02x}");
                }
            }
            DynValue::Null => out.push_str("None"),
        }
        out.push_str(&")".repeat(usize::from(self.somes)));
        out
    }
}

/// Reads one (not nested) field as its schema describes it.
fn read_value<'de, S: Source<'de>>(
    f: &FieldSchema,
    src: &mut S,
) -> Result<DynField<'de>, DecodeError> {
    let ty = base_type(f.rust_type);
    if f.attributes.is_empty() {
        // Every other reading is chosen by an attribute: a plain field (most of them) is read
        // without looking for each.
        return read_natural(ty, f.width, src);
    }
    if let Some(read) = read_text_field(f, ty, src) {
        return read.map(DynField::from);
    }
    if has(f, "hash") {
        let at = src.pos();
        let n = f
            .width
            .ok_or_else(|| unsupported(at, "an MD5 field without a width"))?;
        return Ok(DynValue::Digest(src.take_fixed(n)?).into());
    }
    if has(f, "fixed") {
        let at = src.pos();
        let n = f
            .width
            .ok_or_else(|| unsupported(at, "a fixed field without a width"))?;
        let stored = src.take_fixed(n)?;
        let end = stored.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
        let value = match stored {
            Cow::Borrowed(b) => Cow::Borrowed(&b[..end]),
            Cow::Owned(mut b) => {
                b.truncate(end);
                Cow::Owned(b)
            }
        };
        return if is_text(ty) {
            Ok(DynValue::Str(utf8(value, at)?).into())
        } else {
            Ok(DynValue::Bytes(value).into())
        };
    }
    if has(f, "reverse_ts") {
        return match ty {
            "u64" => Ok(DynValue::U64(<ReverseTs as CodecDecode<u64>>::read(src)?).into()),
            _ => Ok(DynValue::I64(<ReverseTs as CodecDecode<i64>>::read(src)?).into()),
        };
    }
    if has(f, "reverse") {
        return read_reversed(ty, f.width, src).map(DynField::from);
    }
    if f.attributes.contains(&"java(utf)") {
        return Ok(DynValue::Str(<JavaUtf as CodecDecode<String>>::read(src)?.into()).into());
    }
    if f.attributes.contains(&"java") {
        macro_rules! java {
            ($($name:literal => $t:ty => $v:ident),* $(,)?) => {
                match ty {
                    $($name => return Ok(DynValue::$v(<Java as CodecDecode<$t>>::read(src)?).into()),)*
                    other => return Err(unsupported(src.pos(), other)),
                }
            };
        }
        java!(
            "u8" => u8 => U8, "u16" => u16 => U16, "u32" => u32 => U32, "u64" => u64 => U64,
            "i8" => i8 => I8, "i16" => i16 => I16, "i32" => i32 => I32, "i64" => i64 => I64,
            "f32" => f32 => F32, "f64" => f64 => F64,
        );
    }
    if has(f, "rest") {
        return if is_text(ty) {
            Ok(DynValue::Str(<Rest as CodecDecode<Cow<'de, str>>>::read(src)?).into())
        } else {
            Ok(DynValue::Bytes(<Rest as CodecDecode<Cow<'de, [u8]>>>::read(src)?).into())
        };
    }
    if let Some(n) = attribute_number(f, "row_span(") {
        let (width, max) = match ty {
            "u32" => (4, u64::from(u32::MAX)),
            "u64" => (8, u64::MAX),
            other => return Err(unsupported(src.pos(), other)),
        };
        let v = crate::codec::read_row_span(src, width, max, n)?;
        return Ok(match ty {
            // `max` bounds the value to u32.
            "u32" => DynValue::U32(u32::try_from(v).unwrap_or(u32::MAX)),
            _ => DynValue::U64(v),
        }
        .into());
    }
    if let Some(max) = max_len(f) {
        // As `MaxLen<N>` decodes: the value as its type reads it, then the bound.
        let at = src.pos();
        let value = src.take_escaped()?;
        let len = value.len();
        let read = if is_text(ty) {
            DynValue::Str(utf8(value, at)?)
        } else {
            DynValue::Bytes(value)
        };
        if len > max {
            return Err(DecodeError::new(
                at,
                DecodeErrorKind::TooLongForField { len, max },
            ));
        }
        return Ok(read.into());
    }
    read_natural(ty, f.width, src)
}

/// Bytes that must be UTF-8 text (an error at `at` otherwise), kept borrowed where they are.
fn utf8(bytes: Cow<'_, [u8]>, at: usize) -> Result<Cow<'_, str>, DecodeError> {
    let bad = |_| DecodeError::new(at, DecodeErrorKind::BadUtf8);
    match bytes {
        Cow::Borrowed(b) => core::str::from_utf8(b).map(Cow::Borrowed).map_err(bad),
        Cow::Owned(b) => String::from_utf8(b)
            .map(Cow::Owned)
            .map_err(|e| bad(e.utf8_error())),
    }
}

/// A field of a text key (`delimited(0x..)` or `last(0x..)` among its attributes), read as
/// its codec reads it; `None` for any other field.
fn read_text_field<'de, S: Source<'de>>(
    f: &FieldSchema,
    ty: &str,
    src: &mut S,
) -> Option<Result<DynValue<'de>, DecodeError>> {
    let (last, d) = f.attributes.iter().find_map(|a| {
        let (last, rest) = match a.strip_prefix("delimited(") {
            Some(r) => (false, r),
            None => (true, a.strip_prefix("last(")?),
        };
        let hex = rest.strip_suffix(')')?.strip_prefix("0x")?;
        Some((last, u8::from_str_radix(hex, 16).ok()?))
    })?;
    Some(read_text_part(f, ty, last, d, src))
}

/// One field's text (to the delimiter `d`, or to the end when `last`), parsed as its codec
/// parses it (`text_key::parse_number` for numbers).
fn read_text_part<'de, S: Source<'de>>(
    f: &FieldSchema,
    ty: &str,
    last: bool,
    d: u8,
    src: &mut S,
) -> Result<DynValue<'de>, DecodeError> {
    let at = src.pos();
    let text = if last {
        let n = src.remaining();
        let t = src.take_fixed(n)?;
        if let Some(i) = t.iter().position(|&b| b == d) {
            return Err(DecodeError::new(
                at + i,
                DecodeErrorKind::DelimiterInValue { delimiter: d },
            ));
        }
        t
    } else {
        src.take_until(d)?
    };
    let err = |(o, k): (usize, DecodeErrorKind)| DecodeError::new(at + o, k);
    let number = |name: &str| {
        f.attributes.iter().find_map(|a| {
            let args = a.strip_prefix(name)?;
            let width = args
                .split("width = ")
                .nth(1)
                .and_then(|r| r.split([')', ',']).next())
                .and_then(|n| n.trim().parse::<usize>().ok())
                .unwrap_or(0);
            Some((width, args.contains("upper")))
        })
    };
    let spec = number("decimal")
        .map(|(w, _)| (10, w, None))
        .or_else(|| number("hex").map(|(w, u)| (16, w, Some(u))));
    if let Some((radix, width, upper)) = spec {
        macro_rules! number {
            ($($name:literal => $t:ty => $v:ident),* $(,)?) => {
                match ty {
                    $($name => {
                        let v = parse_number::<$t>(&text, radix, width, upper).map_err(err)?;
                        return Ok(DynValue::$v(v));
                    })*
                    other => return Err(unsupported(at, other)),
                }
            };
        }
        number!(
            "u8" => u8 => U8, "u16" => u16 => U16, "u32" => u32 => U32, "u64" => u64 => U64,
            "i8" => i8 => I8, "i16" => i16 => I16, "i32" => i32 => I32, "i64" => i64 => I64,
        );
    }
    let s = match text {
        Cow::Borrowed(b) => Cow::Borrowed(
            core::str::from_utf8(b)
                .map_err(|e| DecodeError::new(at + e.valid_up_to(), DecodeErrorKind::BadUtf8))?,
        ),
        Cow::Owned(b) => Cow::Owned(String::from_utf8(b).map_err(|e| {
            DecodeError::new(at + e.utf8_error().valid_up_to(), DecodeErrorKind::BadUtf8)
        })?),
    };
    if let Some(n) = attribute_number(f, "fixed(") {
        // Space-padded to its width (a text key's `#[fixed(N)]`).
        if s.len() as u64 != n {
            return Err(DecodeError::new(
                at,
                DecodeErrorKind::BadTextNumber {
                    reason: "text not of the declared width",
                },
            ));
        }
        return Ok(DynValue::Str(match s {
            Cow::Borrowed(t) => Cow::Borrowed(t.trim_end_matches(' ')),
            Cow::Owned(t) => Cow::Owned(t.trim_end_matches(' ').to_string()),
        }));
    }
    if has(f, "reverse") {
        Ok(DynValue::Str(Cow::Owned(s.chars().rev().collect())))
    } else {
        Ok(DynValue::Str(s))
    }
}

/// `max_len(N)`'s bound.
fn max_len(f: &FieldSchema) -> Option<usize> {
    attribute_number(f, "max_len(").and_then(|n| usize::try_from(n).ok())
}

/// The number in an attribute written `name(N)` (`prefix` is `name(`).
fn attribute_number(f: &FieldSchema, prefix: &str) -> Option<u64> {
    f.attributes.iter().find_map(|a| {
        a.strip_prefix(prefix)
            .and_then(|r| r.strip_suffix(')'))
            .and_then(|n| n.trim().parse().ok())
    })
}

/// A value in its natural encoding, by its Rust type's name.
fn read_natural<'de, S: Source<'de>>(
    ty: &str,
    width: Option<usize>,
    src: &mut S,
) -> Result<DynField<'de>, DecodeError> {
    macro_rules! natural {
        ($($name:literal => $t:ty => $v:ident),* $(,)?) => {
            match ty {
                $($name => return Ok(DynValue::$v(<Natural as CodecDecode<$t>>::read(src)?).into()),)*
                _ => {}
            }
        };
    }
    natural!(
        "u8" => u8 => U8, "u16" => u16 => U16, "u32" => u32 => U32, "u64" => u64 => U64,
        "u128" => u128 => U128, "i8" => i8 => I8, "i16" => i16 => I16, "i32" => i32 => I32,
        "i64" => i64 => I64, "i128" => i128 => I128, "bool" => bool => Bool,
        "f32" => f32 => F32, "f64" => f64 => F64,
    );
    if is_text(ty) {
        return Ok(DynValue::Str(<Natural as CodecDecode<Cow<'de, str>>>::read(src)?).into());
    }
    if is_bytes(ty) {
        return Ok(DynValue::Bytes(<Natural as CodecDecode<Cow<'de, [u8]>>>::read(src)?).into());
    }
    if let Some(inner) = ty.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')) {
        let at = src.pos();
        return match src.take_array::<1>()? {
            [0] => Ok(DynValue::Null.into()),
            [1] => {
                let mut read = read_natural(base_type(inner), None, src)?;
                read.somes = read.somes.saturating_add(1);
                Ok(read)
            }
            [byte] => Err(DecodeError::new(at, DecodeErrorKind::BadOption { byte })),
        };
    }
    if ty.starts_with('[') {
        let at = src.pos();
        let n = width.ok_or_else(|| unsupported(at, "a byte array without a width"))?;
        return Ok(DynValue::Bytes(src.take_fixed(n)?).into());
    }
    Err(unsupported(src.pos(), ty))
}

/// `#[reverse]`: fixed-width bytes stored back to front.
fn read_reversed<'de, S: Source<'de>>(
    ty: &str,
    width: Option<usize>,
    src: &mut S,
) -> Result<DynValue<'de>, DecodeError> {
    macro_rules! reversed {
        ($($name:literal => $t:ty => $v:ident),* $(,)?) => {
            match ty {
                $($name => return Ok(DynValue::$v(<Reverse as CodecDecode<$t>>::read(src)?)),)*
                _ => {}
            }
        };
    }
    reversed!(
        "u8" => u8 => U8, "u16" => u16 => U16, "u32" => u32 => U32, "u64" => u64 => U64,
        "u128" => u128 => U128, "i8" => i8 => I8, "i16" => i16 => I16, "i32" => i32 => I32,
        "i64" => i64 => I64, "i128" => i128 => I128,
    );
    let at = src.pos();
    let n = width.ok_or_else(|| unsupported(at, ty))?;
    let mut b = src.take_fixed(n)?.into_owned();
    b.reverse();
    Ok(DynValue::Bytes(Cow::Owned(b)))
}

/// A nested key's fields, shown as the derived `Explain` shows a nested key.
fn read_nested(schema: &'static Schema, src: &mut Reader<'_>) -> Result<String, DecodeError> {
    let mut out = format!("{} {{ ", schema.name);
    for (i, f) in schema.fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        // An error inside a nested key names the nested field, as the typed decoder's does.
        let value = read_field(f, src).map_err(|e| e.in_field(f.name))?;
        let _ = write!(out, "{}: {value}", f.name);
    }
    out.push_str(" }");
    Ok(out)
}

/// `Cow<'a, str>` -> `Cow<str>`, `&'a [u8]` -> `&[u8]`, `std::string::String` -> `String`.
fn base_type(ty: &str) -> &str {
    // Runs for every field of every key `decode_schema` reads: single-byte searches only.
    let ty = ty.trim();
    if ty.starts_with('&') || ty.contains('<') {
        return ty;
    }
    ty.rfind(':').map_or(ty, |i| &ty[i + 1..])
}

/// `ty` without whitespace, compared without allocating (the common spellings have none).
fn compact(ty: &str) -> std::borrow::Cow<'_, str> {
    if ty.contains(char::is_whitespace) {
        Cow::Owned(ty.chars().filter(|c| !c.is_whitespace()).collect())
    } else {
        Cow::Borrowed(ty)
    }
}

fn is_text(ty: &str) -> bool {
    let t = compact(ty);
    t == "String"
        || t == "Box<str>"
        || t.ends_with("str>")
        || (t.starts_with('&') && t.ends_with("str"))
}

fn is_bytes(ty: &str) -> bool {
    let t = compact(ty);
    t == "Vec<u8>" || t.ends_with("[u8]>") || (t.starts_with('&') && t.ends_with("[u8]"))
}

fn unsupported(at: usize, _what: &str) -> DecodeError {
    DecodeError::new(at, DecodeErrorKind::UnknownFieldType)
}
