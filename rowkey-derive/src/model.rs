//! The lowered key: what code generation needs and nothing it could misread. Built only from an
//! input that passed validation, so every field has exactly one encoding.

use syn::{Generics, Ident, Type, Visibility};

use crate::ast::{Field, Input, Krate, TyClass};
pub use crate::encoding::Encoding;

pub struct Key<'a> {
    /// Where the generated code finds `rowkey` (`#[rowkey(crate = "...")]`).
    pub krate: Krate<'a>,
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    pub generics: &'a Generics,
    /// A struct's fields, or the shared entity prefix of an enum's record types.
    pub fields: Vec<KeyField<'a>>,
    /// An enum's record types, each after the prefix and its tag byte.
    pub variants: Option<Vec<RecordType<'a>>>,
    pub salt: Option<Salt>,
    pub limit: usize,
    /// Where the deprecated `#[rowkey(max_len = N)]` spelling was used, if it was.
    pub deprecated_max_len: Option<proc_macro2::Span>,
    pub allow_hotspot: bool,
    /// `#[rowkey(query)]`: the skip-scan query builder is generated.
    pub query: bool,
    /// `RowKey::FINGERPRINT` (see `fingerprint.rs`).
    pub fingerprint: Fingerprint<'a>,
    /// `#[rowkey(fingerprint = ...)]` on a key whose fingerprint is computed in a constant:
    /// the pinned value, the attribute value's span and the layout in words, for the constant
    /// assertion (a literal fingerprint is checked in validation).
    pub deferred_pin: Option<(u64, proc_macro2::Span, String)>,
    /// `#[rowkey(index_of = Record)]`: the record type and the attribute's span.
    pub index_of: Option<(proc_macro2::Span, &'a syn::Type)>,
    /// `#[rowkey(hash_prefix(...))]`: the key starts with a hash of one field.
    pub hash_prefix: Option<HashPrefix>,
}

/// A key's hash prefix: MD5 of field `of` (its text in a text key), `len` bytes or hex
/// digits, then the text key's delimiter.
pub struct HashPrefix {
    pub of: usize,
    pub len: usize,
    /// 0: the digest's bytes; 1: lowercase hex digits; 2: uppercase.
    pub hex: u8,
    pub delimiter: Option<u8>,
    /// The attribute as written, for the layout docs.
    pub rendered: String,
}

impl HashPrefix {
    /// The prefix's bytes in the key.
    pub fn width(&self) -> usize {
        self.len + usize::from(self.delimiter.is_some())
    }
}

/// `RowKey::FINGERPRINT`: a literal when the derive knows every field type's class, otherwise
/// the layout's parts, whose holes the field types fill in a constant.
pub enum Fingerprint<'a> {
    Known(u64),
    Computed(Vec<Vec<LayoutSeg<'a>>>),
}

/// A piece of one part of a computed fingerprint.
pub enum LayoutSeg<'a> {
    Text(String),
    /// The field's `<codec as Codec<T>>::LAYOUT`.
    Type(KeyField<'a>),
}

/// One record type of an enum key: `[prefix][tag][fields]`.
pub struct RecordType<'a> {
    pub ident: &'a Ident,
    pub tag: u8,
    /// The fields after the shared prefix.
    pub fields: Vec<KeyField<'a>>,
    /// The prefix fields' names as this variant spells them (the same as the model's).
    pub prefix: Vec<&'a Ident>,
}

/// The salt byte: a hash of fields `0..=field` modulo `buckets` (for `phoenix`, `field` is the
/// last field: the whole key is hashed).
pub struct Salt {
    pub field: usize,
    pub buckets: u16,
    pub hash: crate::attr::SaltHash,
}

#[derive(Clone)]
pub struct KeyField<'a> {
    /// The key's crate path, carried so per-field code generation needs nothing else.
    pub krate: Krate<'a>,
    pub ident: &'a Ident,
    pub ty: &'a Type,
    /// `ty`'s span, computed once: `Spanned::span` on a type walks its tokens, and per-field
    /// code is spanned at the type many times over.
    pub ty_span: proc_macro2::Span,
    pub codec: Encoding,
    pub desc: bool,
    pub order: Order,
    pub class: TyClass,
    /// The attributes as written, for the layout docs.
    pub attributes: Vec<String>,
    /// In a text key (`#[rowkey(delimiter = ...)]`): the delimiter, and whether the field is
    /// the last (its text runs to the end of the key) or is followed by the delimiter.
    pub text: Option<TextPos>,
}

/// Where a field of a text key sits.
#[derive(Clone, Copy)]
pub struct TextPos {
    pub delimiter: u8,
    pub last: bool,
}

#[derive(Clone, Copy)]
pub enum Order {
    Ascending,
    Descending,
    Unordered,
}

fn lower<'a>(krate: Krate<'a>, f: &Field<'a>) -> KeyField<'a> {
    lower_in(krate, f, None)
}

fn lower_in<'a>(krate: Krate<'a>, f: &Field<'a>, text: Option<TextPos>) -> KeyField<'a> {
    let a = &f.attrs;
    let codec = Encoding::in_key(f, text.map(|t| t.delimiter));
    let unsigned = matches!(f.class, TyClass::Int { signed: false, .. });
    let order = match codec {
        // A text field followed by the delimiter sorts as its values only when the delimiter
        // sorts below every byte a value may hold (`00`); the last runs to the end.
        Encoding::Text => match text {
            Some(t) if !t.last && t.delimiter != 0 => Order::Unordered,
            _ => Order::Ascending,
        },
        Encoding::ReversedText | Encoding::PaddedText(_) => Order::Unordered,
        // Padded digits of a value that is never negative sort as the value; unpadded ones
        // ("9" after "10") and signed ones do not.
        Encoding::Decimal(w) | Encoding::Hex(w, _) if w == 0 || !unsigned => Order::Unordered,
        Encoding::Decimal(_) | Encoding::Hex(..) => Order::Ascending,
        Encoding::Reverse | Encoding::Md5(_) | Encoding::JavaUtf => Order::Unordered,
        // Two's complement puts negative values after positive ones, raw float bits sort
        // negative values backwards; a Java number declared unsigned is never negative.
        Encoding::Java if !matches!(f.class, TyClass::Int { signed: false, .. }) => {
            Order::Unordered
        }
        Encoding::ReverseTs => Order::Descending,
        _ if a.desc.is_some() => Order::Descending,
        _ => Order::Ascending,
    };
    KeyField {
        krate,
        ident: f.ident,
        ty: f.ty,
        ty_span: syn::spanned::Spanned::span(f.ty),
        codec,
        desc: a.desc.is_some(),
        order,
        class: f.class,
        attributes: a.rendered.clone(),
        text,
    }
}

impl<'a> Key<'a> {
    /// The key of `input`, its generated code naming the runtime through `krate` (the user's
    /// crate path, or the `const _` block's alias: see `codegen::expand`).
    pub fn from_ast(input: &'a Input<'a>, krate: Krate<'a>) -> Self {
        let lead = input.lead_fields();
        let delimiter = input.attrs.delimiter.map(|d| d.value);
        let fields: Vec<KeyField<'a>> = lead
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let text = delimiter.map(|delimiter| TextPos {
                    delimiter,
                    last: i + 1 == lead.len(),
                });
                lower_in(krate, f, text)
            })
            .collect();
        let salt = lead.iter().enumerate().find_map(|(i, f)| {
            f.attrs.salt.map(|s| {
                let hash = f
                    .attrs
                    .salt_hash
                    .map_or(crate::attr::SaltHash::Md5, |h| h.value);
                Salt {
                    // Phoenix hashes every byte after the salt byte (validation refuses it on
                    // an enum, whose record types differ after the prefix).
                    field: if hash == crate::attr::SaltHash::Phoenix {
                        lead.len() - 1
                    } else {
                        i
                    },
                    buckets: s.value,
                    hash,
                }
            })
        });
        let variants = input.variants.as_ref().map(|vs| {
            vs.iter()
                .map(|v| RecordType {
                    ident: v.ident,
                    tag: v.tag.map_or(0, |t| t.value),
                    fields: v
                        .fields
                        .iter()
                        .skip(lead.len())
                        .map(|f| lower(krate, f))
                        .collect(),
                    prefix: v.fields.iter().take(lead.len()).map(|f| f.ident).collect(),
                })
                .collect()
        });
        Key {
            krate,
            ident: input.ident,
            vis: input.vis,
            generics: input.generics,
            fields,
            variants,
            salt,
            limit: input.attrs.limit(),
            deprecated_max_len: input.attrs.deprecated_max_len,
            allow_hotspot: input.attrs.allow_hotspot.is_some(),
            query: input.attrs.query.is_some(),
            fingerprint: match crate::fingerprint::fingerprint(input) {
                Some(v) => Fingerprint::Known(v),
                None => Fingerprint::Computed(
                    crate::fingerprint::parts(input)
                        .into_iter()
                        .map(|p| {
                            p.segs
                                .into_iter()
                                .map(|s| match s {
                                    crate::fingerprint::Seg::Text(t) => LayoutSeg::Text(t),
                                    crate::fingerprint::Seg::Type(f) => {
                                        LayoutSeg::Type(lower(krate, f))
                                    }
                                })
                                .collect()
                        })
                        .collect(),
                ),
            },
            deferred_pin: match (
                &input.attrs.fingerprint,
                crate::fingerprint::fingerprint(input),
            ) {
                (Some(pin), None) => Some((
                    pin.value,
                    pin.value_span,
                    crate::fingerprint::describe(input),
                )),
                _ => None,
            },
            index_of: input.attrs.index_of.as_ref().map(|(s, t)| (*s, t)),
            hash_prefix: input.attrs.hash_prefix.as_ref().and_then(|hp| {
                let of = input.fields.iter().position(|f| f.ident == &hp.of)?;
                let text = delimiter.is_some();
                let len = hp.len.map_or(if text { 32 } else { 16 }, |l| l.value);
                let hex = match (text, hp.upper.is_some()) {
                    (false, _) => 0,
                    (true, false) => 1,
                    (true, true) => 2,
                };
                Some(HashPrefix {
                    of,
                    len,
                    hex,
                    delimiter,
                    rendered: format!(
                        "hash_prefix(md5, of = {}{}{})",
                        hp.of,
                        if hex == 2 { ", upper" } else { "" },
                        hp.len
                            .map_or(String::new(), |l| format!(", len = {}", l.value))
                    ),
                })
            }),
        }
    }

    /// Fields that feed the salt hash and are written before the rest.
    pub fn head(&self) -> &[KeyField<'a>] {
        match &self.salt {
            Some(s) => &self.fields[..=s.field],
            None => &[],
        }
    }

    /// Fields after the salted one (all fields of an unsalted key).
    pub fn tail(&self) -> &[KeyField<'a>] {
        match &self.salt {
            Some(s) => &self.fields[s.field + 1..],
            None => &self.fields,
        }
    }
}
