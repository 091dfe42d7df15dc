//! `T::explain(&[u8])`: a key broken down field by field, with offsets, the raw bytes as HBase
//! prints them, the decoded values, and a clear message where a key does not parse.

use core::fmt::Write as _;
use std::borrow::Cow;

use crate::codec::CodecDecode;
use crate::fmt::binary;
use crate::hashed::Hashed;
use crate::schema::{Order, Schema};
use crate::source::{Reader, Source};

/// The body of a derived key's [`Explain`]: `Name { a: 1, b: "x" }`, each field shown by its
/// own `Explain`; one call per key where the derive wrote two statements per field.
pub fn explain_fields(out: &mut String, name: &str, fields: &[(&str, &dyn Explain)]) {
    out.push_str(name);
    out.push_str(" { ");
    for (i, (label, value)) in fields.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(label);
        out.push_str(": ");
        value.explain(out);
    }
    out.push_str(" }");
}

/// A field's value as [`explain_fields`] takes it. The derive calls it with the field's type
/// named (`shown::<T>(value)`, spanned at the type), so a type that cannot be shown is
/// reported at the field's type, while the value keeps the name the derive bound it to (macro
/// hygiene compares spans).
pub fn shown<T: Explain>(value: &T) -> &dyn Explain {
    value
}

/// One field of a key as an [`Explainer`] read it.
#[derive(Debug, Clone)]
pub(crate) struct FieldValue {
    pub(crate) name: &'static str,
    pub(crate) ordered: bool,
    pub(crate) bytes: core::ops::Range<usize>,
    pub(crate) shown: String,
}

/// How a decoded field value is shown by `explain`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a row-key field",
    label = "not a key field type",
    note = "key fields are integers, `bool`, `f32`/`f64`, `String`, `&str`, `Vec<u8>`, `&[u8]`, `Cow`, `[u8; N]`, `Option<T>`, `rowkey::Hashed<T>` (with `#[hash]`) or another `#[derive(RowKey)]` type"
)]
pub trait Explain {
    /// Appends the value.
    fn explain(&self, out: &mut String);
}

macro_rules! explain_display {
    ($($t:ty),*) => {$(
        impl Explain for $t {
            fn explain(&self, out: &mut String) {
                let _ = write!(out, "{self}");
            }
        }
    )*};
}
explain_display!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128, bool);

macro_rules! explain_debug {
    ($($t:ty),*) => {$(
        impl Explain for $t {
            fn explain(&self, out: &mut String) {
                let _ = write!(out, "{self:?}");
            }
        }
    )*};
}
explain_debug!(f32, f64, String, &str, Box<str>, Cow<'_, str>);

macro_rules! explain_bytes {
    ($($t:ty),*) => {$(
        impl Explain for $t {
            fn explain(&self, out: &mut String) {
                let _ = write!(out, "b\"{}\"", binary(self.as_ref()));
            }
        }
    )*};
}
explain_bytes!(Vec<u8>, &[u8], Box<[u8]>, Cow<'_, [u8]>);

impl<const N: usize> Explain for [u8; N] {
    fn explain(&self, out: &mut String) {
        let _ = write!(out, "b\"{}\"", binary(self));
    }
}

impl<T: Explain> Explain for Option<T> {
    fn explain(&self, out: &mut String) {
        match self {
            None => out.push_str("None"),
            Some(v) => {
                out.push_str("Some(");
                v.explain(out);
                out.push(')');
            }
        }
    }
}

impl<T, const N: usize> Explain for Hashed<T, N> {
    fn explain(&self, out: &mut String) {
        out.push_str("md5 ");
        for b in self.digest() {
            let _ = write!(out, "{b:02x}");
        }
    }
}

/// Builds an explanation; the generated `explain` drives it field by field.
pub struct Explainer<'de> {
    bytes: &'de [u8],
    reader: Reader<'de>,
    schema: &'static Schema,
    rows: Vec<[String; 4]>,
    /// Each field read: its name, where its bytes are and its value as shown (no notes).
    values: Vec<FieldValue>,
    /// The fields being read: the key's, then a record type's after its tag.
    fields: &'static [crate::schema::FieldSchema],
    field: usize,
    failed: Option<String>,
    salt: Option<u8>,
    salted_end: Option<usize>,
}

impl<'de> Explainer<'de> {
    /// Starts on `bytes`, a key of `schema`; reads the salt byte if the key has one.
    pub fn new(bytes: &'de [u8], schema: &'static Schema) -> Self {
        let mut ex = Explainer {
            bytes,
            reader: Reader::new(bytes),
            schema,
            rows: Vec::new(),
            values: Vec::new(),
            fields: schema.fields,
            field: 0,
            failed: None,
            salt: None,
            salted_end: None,
        };
        if bytes.len() > schema.limit {
            let e = crate::DecodeError::new(
                schema.limit,
                crate::DecodeErrorKind::KeyTooLong {
                    len: bytes.len(),
                    max: schema.limit,
                },
            );
            ex.failed = Some(e.to_string());
            return ex;
        }
        if let Some(salt) = schema.salt {
            match ex.reader.take_array::<1>() {
                Ok([b]) => {
                    ex.salt = Some(b);
                    let note = if u16::from(b) < salt.buckets {
                        format!("bucket {b} of {}", salt.buckets)
                    } else {
                        format!("INVALID: not below the {} buckets", salt.buckets)
                    };
                    ex.rows
                        .push(["0..1".into(), "(salt)".into(), binary(&[b]), note]);
                }
                Err(e) => ex.failed = Some(format!("no salt byte: {e}")),
            }
        }
        // A hash prefix stands first among the fields: its bytes as stored, what they hash.
        if let Some(f) = schema
            .fields
            .first()
            .filter(|f| f.name == crate::schema::HASH_PREFIX_FIELD)
        {
            ex.field = 1;
            let start = ex.reader.pos();
            match ex.reader.take_fixed(f.width.unwrap_or(0)) {
                Ok(b) => {
                    let end = start + b.len();
                    ex.rows.push([
                        format!("{start}..{end}"),
                        f.name.into(),
                        binary(&b),
                        format!("{}  [{}]", f.encoding, f.attributes.join(", ")),
                    ]);
                }
                Err(e) => ex.failed = Some(e.in_field(f.name).to_string()),
            }
        }
        ex
    }

    /// Reads the next field with codec `C` as a `T`.
    pub fn field<C: CodecDecode<'de, T>, T: Explain>(&mut self) {
        self.field_with(|_, reader| {
            C::read(reader).map(|v| {
                let mut value = String::new();
                v.explain(&mut value);
                value
            })
        });
    }

    /// Reads the next field with `read`, which gets the field's schema and returns the value
    /// as shown (the schema-driven explain, `crate::dynamic`).
    pub(crate) fn field_with(
        &mut self,
        read: impl FnOnce(
            &crate::schema::FieldSchema,
            &mut Reader<'de>,
        ) -> Result<String, crate::DecodeError>,
    ) {
        let Some(f) = self.fields.get(self.field) else {
            return;
        };
        self.field += 1;
        if self.failed.is_some() {
            return;
        }
        let start = self.reader.pos();
        match read(f, &mut self.reader) {
            Ok(mut value) => {
                let end = self.reader.pos();
                self.values.push(FieldValue {
                    name: f.name,
                    ordered: f.order != Order::Unordered,
                    bytes: start..end,
                    shown: value.clone(),
                });
                let mut notes = Vec::new();
                // A text key's place attributes are the layout's, not the user's: shown as
                // what follows the field.
                notes.extend(f.attributes.iter().filter_map(|a| {
                    if a.starts_with("last(") {
                        None
                    } else if let Some(d) = a
                        .strip_prefix("delimited(0x")
                        .and_then(|r| r.strip_suffix(')'))
                        .and_then(|h| u8::from_str_radix(h, 16).ok())
                    {
                        Some(format!("then {}", binary(&[d])))
                    } else {
                        Some(format!("#[{a}]"))
                    }
                }));
                match f.order {
                    Order::Descending => notes.push("descending".into()),
                    Order::Unordered => notes.push("unordered".into()),
                    Order::Ascending => {}
                }
                if !notes.is_empty() {
                    let _ = write!(value, "  [{}]", notes.join(", "));
                }
                self.rows.push([
                    format!("{start}..{end}"),
                    f.name.into(),
                    binary(self.bytes.get(start..end).unwrap_or(&[])),
                    value,
                ]);
                if f.salted
                    && self
                        .schema
                        .salt
                        .is_some_and(|s| s.fields.last() == Some(&f.name))
                {
                    self.salted_end = Some(end);
                }
            }
            Err(e) => {
                self.failed = Some(e.in_field(f.name).to_string());
            }
        }
    }

    /// Reads a record-type enum's tag byte and switches to that record type's fields; `None`
    /// (with the reason recorded) for an unknown tag or a key that already failed.
    pub fn tag(&mut self) -> Option<u8> {
        if self.failed.is_some() {
            return None;
        }
        let (at, tag) = match crate::generated::read_tag(&mut self.reader) {
            Ok(t) => t,
            Err(e) => {
                self.failed = Some(e.to_string());
                return None;
            }
        };
        match self.schema.variants.iter().find(|v| v.tag == tag) {
            Some(v) => {
                self.rows.push([
                    format!("{at}..{}", at + 1),
                    "(tag)".into(),
                    binary(&[tag]),
                    format!("record type `{}`", v.name),
                ]);
                self.fields = v.fields;
                self.field = 0;
                Some(tag)
            }
            None => {
                self.failed = Some(crate::generated::unknown_tag(at, tag).to_string());
                None
            }
        }
    }

    /// [`Explainer::finish_checked`], and each field read (for [`crate::LayoutCheck`]).
    pub(crate) fn finish_values(mut self) -> (String, Option<String>, Vec<FieldValue>) {
        let values = core::mem::take(&mut self.values);
        let (text, wrong) = self.finish_checked();
        (text, wrong, values)
    }

    /// The explanation: one row per field, then what is wrong with the key, if anything.
    pub fn finish(self) -> String {
        self.finish_checked().0
    }

    /// [`Explainer::finish`], and what is wrong with the key (`None`: it decodes whole, its
    /// salt byte, if any, the one its fields hash to).
    pub fn finish_checked(mut self) -> (String, Option<String>) {
        let mut out = format!(
            "{} key, {} bytes: {}\n",
            self.schema.name,
            self.bytes.len(),
            binary(self.bytes)
        );
        if self.failed.is_none() {
            if let Err(e) = self.reader.finish() {
                self.failed = Some(e.to_string());
            }
        }
        let mut wrong_salt = None;
        if let (Some(found), Some(end), Some(salt)) = (self.salt, self.salted_end, self.schema.salt)
        {
            let hash =
                crate::salt::SaltHash::from_name(salt.hash).unwrap_or(crate::salt::SaltHash::Md5);
            let expected =
                crate::salt::bucket_of(hash, self.bytes.get(1..end).unwrap_or(&[]), salt.buckets);
            if let Some(row) = self.rows.first_mut() {
                if expected == found {
                    let _ = write!(
                        row[3],
                        ", matches {}({}) % {}",
                        salt.hash,
                        salt.fields.join(", "),
                        salt.buckets
                    );
                } else {
                    let _ = write!(
                        row[3],
                        ", WRONG: the salted fields hash to bucket {expected}"
                    );
                    wrong_salt = Some(format!(
                        "salt byte {found}, but the salted fields hash to bucket {expected}"
                    ));
                }
            }
        }
        let widths: Vec<usize> = (0..3)
            .map(|c| {
                self.rows
                    .iter()
                    .map(|r| r[c].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for r in &self.rows {
            let _ = writeln!(
                out,
                "  {:<w0$}  {:<w1$}  {:<w2$}  {}",
                r[0],
                r[1],
                r[2],
                r[3],
                w0 = widths[0],
                w1 = widths[1],
                w2 = widths[2]
            );
        }
        if let Some(why) = &self.failed {
            let _ = writeln!(out, "  error: {why}");
        }
        (out, self.failed.or(wrong_salt))
    }
}
