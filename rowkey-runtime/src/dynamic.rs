//! [`explain_schema`]: `explain` without the key type, from its schema alone (a schema read
//! back from JSON, as the `rowkey-explain` command-line program does). Each field is decoded by
//! the same runtime codec the typed decoder uses, chosen from the schema's description of the
//! field (its Rust type, encoding and attributes), and shown by the same `Explain` rendering,
//! so the output is the typed `explain`'s for every key that one decodes.

use core::fmt::Write as _;

use crate::codec::{CodecDecode, Natural, Reverse, ReverseTs};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::explain::{Explain, Explainer};
use crate::fmt::binary;
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
    f.attributes
        .iter()
        .any(|a| *a == attr || a.starts_with(&format!("{attr}(")))
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
    let ty = base_type(f.rust_type);
    if let Some(shown) = read_text_field(f, ty, src) {
        return shown;
    }
    if has(f, "hash") {
        let at = src.pos();
        let n = f
            .width
            .ok_or_else(|| unsupported(at, "an MD5 field without a width"))?;
        let digest = src.take_fixed(n)?;
        let mut out = String::from("md5 ");
        for b in digest.iter() {
            let _ = write!(out, "{b:02x}");
        }
        return Ok(out);
    }
    if has(f, "fixed") {
        let at = src.pos();
        let n = f
            .width
            .ok_or_else(|| unsupported(at, "a fixed field without a width"))?;
        let stored = src.take_fixed(n)?;
        let end = stored.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
        let value = &stored[..end];
        return if is_text(ty) {
            let s = core::str::from_utf8(value)
                .map_err(|_| DecodeError::new(at, DecodeErrorKind::BadUtf8))?;
            Ok(show(&s))
        } else {
            Ok(format!("b\"{}\"", binary(value)))
        };
    }
    if has(f, "reverse_ts") {
        return match ty {
            "u64" => Ok(show(&<ReverseTs as CodecDecode<u64>>::read(src)?)),
            _ => Ok(show(&<ReverseTs as CodecDecode<i64>>::read(src)?)),
        };
    }
    if has(f, "reverse") {
        return read_reversed(ty, f.width, src);
    }
    if f.attributes.contains(&"java(utf)") {
        return Ok(show(&<JavaUtf as CodecDecode<String>>::read(src)?));
    }
    if f.attributes.contains(&"java") {
        macro_rules! java {
            ($($name:literal => $t:ty),* $(,)?) => {
                match ty {
                    $($name => return Ok(show(&<Java as CodecDecode<$t>>::read(src)?)),)*
                    other => return Err(unsupported(src.pos(), other)),
                }
            };
        }
        java!(
            "u8" => u8, "u16" => u16, "u32" => u32, "u64" => u64,
            "i8" => i8, "i16" => i16, "i32" => i32, "i64" => i64,
            "f32" => f32, "f64" => f64,
        );
    }
    if has(f, "rest") {
        return if is_text(ty) {
            Ok(show(&<Rest as CodecDecode<String>>::read(src)?))
        } else {
            Ok(show(&<Rest as CodecDecode<Vec<u8>>>::read(src)?))
        };
    }
    if let Some(n) = attribute_number(f, "row_span(") {
        let (width, max) = match ty {
            "u32" => (4, u64::from(u32::MAX)),
            "u64" => (8, u64::MAX),
            other => return Err(unsupported(src.pos(), other)),
        };
        return Ok(show(&crate::codec::read_row_span(src, width, max, n)?));
    }
    if let Some(max) = max_len(f) {
        // As `MaxLen<N>` decodes: the value as its type reads it, then the bound.
        let at = src.pos();
        let value = src.take_escaped()?;
        let shown = if is_text(ty) {
            let s = core::str::from_utf8(&value)
                .map_err(|_| DecodeError::new(at, DecodeErrorKind::BadUtf8))?;
            show(&s)
        } else {
            format!("b\"{}\"", binary(&value))
        };
        if value.len() > max {
            return Err(DecodeError::new(
                at,
                DecodeErrorKind::TooLongForField {
                    len: value.len(),
                    max,
                },
            ));
        }
        return Ok(shown);
    }
    read_natural(ty, f.width, src)
}

/// A field of a text key (`delimited(0x..)` or `last(0x..)` among its attributes), read as
/// its codec reads it; `None` for any other field.
fn read_text_field<'de, S: Source<'de>>(
    f: &FieldSchema,
    ty: &str,
    src: &mut S,
) -> Option<Result<String, DecodeError>> {
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
) -> Result<String, DecodeError> {
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
            ($($name:literal => $t:ty),* $(,)?) => {
                match ty {
                    $($name => {
                        let v = parse_number::<$t>(&text, radix, width, upper).map_err(err)?;
                        return Ok(show(&v));
                    })*
                    other => return Err(unsupported(at, other)),
                }
            };
        }
        number!(
            "u8" => u8, "u16" => u16, "u32" => u32, "u64" => u64,
            "i8" => i8, "i16" => i16, "i32" => i32, "i64" => i64,
        );
    }
    let s = core::str::from_utf8(&text)
        .map_err(|e| DecodeError::new(at + e.valid_up_to(), DecodeErrorKind::BadUtf8))?;
    if let Some(n) = attribute_number(f, "fixed(") {
        // Space-padded to its width (a text key's `#[fixed(N)]`).
        if text.len() as u64 != n {
            return Err(DecodeError::new(
                at,
                DecodeErrorKind::BadTextNumber {
                    reason: "text not of the declared width",
                },
            ));
        }
        return Ok(show(&s.trim_end_matches(' ')));
    }
    if has(f, "reverse") {
        Ok(show(&s.chars().rev().collect::<String>()))
    } else {
        Ok(show(&s))
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
) -> Result<String, DecodeError> {
    macro_rules! natural {
        ($($name:literal => $t:ty),* $(,)?) => {
            match ty {
                $($name => return Ok(show(&<Natural as CodecDecode<$t>>::read(src)?)),)*
                _ => {}
            }
        };
    }
    natural!(
        "u8" => u8, "u16" => u16, "u32" => u32, "u64" => u64, "u128" => u128,
        "i8" => i8, "i16" => i16, "i32" => i32, "i64" => i64, "i128" => i128,
        "bool" => bool, "f32" => f32, "f64" => f64,
    );
    if is_text(ty) {
        return Ok(show(&<Natural as CodecDecode<String>>::read(src)?));
    }
    if is_bytes(ty) {
        return Ok(show(&<Natural as CodecDecode<Vec<u8>>>::read(src)?));
    }
    if let Some(inner) = ty.strip_prefix("Option<").and_then(|t| t.strip_suffix('>')) {
        let at = src.pos();
        return match src.take_array::<1>()? {
            [0] => Ok("None".into()),
            [1] => Ok(format!(
                "Some({})",
                read_natural(base_type(inner), None, src)?
            )),
            [byte] => Err(DecodeError::new(at, DecodeErrorKind::BadOption { byte })),
        };
    }
    if ty.starts_with('[') {
        let at = src.pos();
        let n = width.ok_or_else(|| unsupported(at, "a byte array without a width"))?;
        let b = src.take_fixed(n)?;
        return Ok(format!("b\"{}\"", binary(&b)));
    }
    Err(unsupported(src.pos(), ty))
}

/// `#[reverse]`: fixed-width bytes stored back to front.
fn read_reversed<'de, S: Source<'de>>(
    ty: &str,
    width: Option<usize>,
    src: &mut S,
) -> Result<String, DecodeError> {
    macro_rules! reversed {
        ($($name:literal => $t:ty),* $(,)?) => {
            match ty {
                $($name => return Ok(show(&<Reverse as CodecDecode<$t>>::read(src)?)),)*
                _ => {}
            }
        };
    }
    reversed!(
        "u8" => u8, "u16" => u16, "u32" => u32, "u64" => u64, "u128" => u128,
        "i8" => i8, "i16" => i16, "i32" => i32, "i64" => i64, "i128" => i128,
    );
    let at = src.pos();
    let n = width.ok_or_else(|| unsupported(at, ty))?;
    let mut b = src.take_fixed(n)?.into_owned();
    b.reverse();
    Ok(format!("b\"{}\"", binary(&b)))
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

fn show<T: Explain + ?Sized>(v: &T) -> String {
    let mut s = String::new();
    v.explain(&mut s);
    s
}

/// `Cow<'a, str>` -> `Cow<str>`, `&'a [u8]` -> `&[u8]`, `std::string::String` -> `String`.
fn base_type(ty: &str) -> &str {
    let ty = ty.trim();
    ty.rsplit("::")
        .next()
        .filter(|_| !ty.starts_with('&') && !ty.contains('<'))
        .unwrap_or(ty)
}

fn is_text(ty: &str) -> bool {
    let t: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    t == "String"
        || t == "Box<str>"
        || t.ends_with("str>")
        || (t.starts_with('&') && t.ends_with("str"))
}

fn is_bytes(ty: &str) -> bool {
    let t: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    t == "Vec<u8>" || t.ends_with("[u8]>") || (t.starts_with('&') && t.ends_with("[u8]"))
}

fn unsupported(at: usize, _what: &str) -> DecodeError {
    DecodeError::new(at, DecodeErrorKind::UnknownFieldType)
}
