//! `RowKey::FINGERPRINT`: a hash of everything that decides a key's stored bytes (field order,
//! each field's encoding as its type class and attributes give it, the salt strategy, buckets
//! and salted fields, record tags) and of nothing else (names, docs, derive order, `#[timestamp]`,
//! `key_limit`, `max_len` bounds, text owned or borrowed, how a type is spelled).
//! `#[rowkey(fingerprint = 0x...)]` pins it: a change that would alter stored bytes fails the
//! build.
//!
//! The description is versioned text hashed with 64-bit FNV-1a: stable across platforms and
//! compiler versions (std's hashers are not), so a pinned value holds as long as the layout.
//! Where the tokens tell a field's type (`u64`, `String`, `Option<i32>`), the text is written
//! here and the fingerprint is a literal, checked against a pin with the part that changed
//! named. Where they do not (a type alias, a nested key, `Hashed<T>`, `[u8; LEN]`), the part
//! has a hole the type fills at compile time (`<codec as Codec<T>>::LAYOUT`: the resolved
//! type's class, a nested key's own fingerprint), and the runtime's `fingerprint` hashes the
//! same text in a constant; the pin is then checked by a constant assertion.

use quote::ToTokens;

use crate::ast::{classify, generic_types, last_segment, Field, Input, TyClass};
use crate::attr::SaltHash;

/// A piece of a part's text: written here, or the layout of a field's type, filled in at
/// compile time.
pub enum Seg<'f, 'a> {
    Text(String),
    Type(&'f Field<'a>),
}

/// One part of the layout: a label for people (with the field's name) and the pieces hashed
/// (without it).
pub struct Part<'f, 'a> {
    pub label: String,
    pub segs: Vec<Seg<'f, 'a>>,
}

impl Part<'_, '_> {
    /// The text when no piece is a hole.
    fn text(&self) -> Option<String> {
        self.segs
            .iter()
            .map(|s| match s {
                Seg::Text(t) => Some(t.as_str()),
                Seg::Type(_) => None,
            })
            .collect()
    }

    /// The text, each hole shown as `<layout of T>`.
    fn shown(&self) -> String {
        self.segs
            .iter()
            .map(|s| match s {
                Seg::Text(t) => t.clone(),
                Seg::Type(f) => format!("<layout of `{}`>", tokens(f.ty)),
            })
            .collect()
    }
}

/// Appends `piece` to `segs`, merging adjacent text.
fn push<'f, 'a>(segs: &mut Vec<Seg<'f, 'a>>, piece: Seg<'f, 'a>) {
    match (segs.last_mut(), piece) {
        (Some(Seg::Text(t)), Seg::Text(more)) => t.push_str(&more),
        (_, piece) => segs.push(piece),
    }
}

/// The parts of the layout the fingerprint covers, in a fixed order: the salt, each field, each
/// record type.
pub fn parts<'f, 'a>(input: &'f Input<'a>) -> Vec<Part<'f, 'a>> {
    let mut parts = Vec::new();
    let lead = input.lead_fields();
    let salt = lead
        .iter()
        .enumerate()
        .find(|(_, f)| f.attrs.salt.is_some())
        .map(|(i, f)| {
            let hash = f.attrs.salt_hash.map_or(SaltHash::Md5, |h| h.value);
            let buckets = f.attrs.salt.map_or(0, |s| s.value);
            let salted = if hash == SaltHash::Phoenix {
                "the whole key".to_string()
            } else {
                format!("fields 0..={i}")
            };
            format!("salt {} % {buckets} over {salted}", hash.name())
        })
        .unwrap_or_else(|| "no salt".into());
    // A hash prefix takes the salt's part (a key has one or the other).
    let salt = match &input.attrs.hash_prefix {
        Some(hp) => {
            let text = input.attrs.delimiter.is_some();
            let len = hp.len.map_or(if text { 32 } else { 16 }, |l| l.value);
            let form = match (text, hp.upper.is_some()) {
                (false, _) => "bytes",
                (true, false) => "hex",
                (true, true) => "hex upper",
            };
            let of = lead.iter().position(|f| f.ident == &hp.of).unwrap_or(0);
            format!("hash prefix md5[..{len}] {form} of field {of}")
        }
        None => salt,
    };
    parts.push(Part {
        label: "the salt".to_string(),
        segs: vec![Seg::Text(salt)],
    });
    for (i, f) in lead.iter().enumerate() {
        let mut segs = vec![Seg::Text(format!("{i}: "))];
        field(f, input.attrs.delimiter.map(|d| d.value), &mut segs);
        parts.push(Part {
            label: format!("field {i} (`{}`)", f.ident),
            segs,
        });
    }
    if let Some(variants) = &input.variants {
        let mut vs: Vec<_> = variants.iter().collect();
        vs.sort_by_key(|v| v.tag.map_or(0, |t| t.value));
        for v in vs {
            let tag = v.tag.map_or(0, |t| t.value);
            let mut segs = vec![Seg::Text(format!("tag {tag}: ["))];
            for (j, f) in v.fields[lead.len().min(v.fields.len())..]
                .iter()
                .enumerate()
            {
                if j > 0 {
                    push(&mut segs, Seg::Text(", ".into()));
                }
                field(f, None, &mut segs);
            }
            push(&mut segs, Seg::Text("]".into()));
            parts.push(Part {
                label: format!("record type `{}` (tag {tag})", v.ident),
                segs,
            });
        }
    }
    parts
}

/// The layout the fingerprint covers, in words (a hole shown as `<layout of T>`).
pub fn describe(input: &Input) -> String {
    let texts: Vec<String> = parts(input).iter().map(Part::shown).collect();
    format!("rowkey-layout-v1; {}", texts.join("; "))
}

/// Part slots in the fingerprint's low 32 bits: part `i` goes to nibble `i % SLOTS`.
const SLOTS: usize = 8;

/// The fingerprint, when every part's text is known here (`None` when a type fills a hole at
/// compile time): the high 32 bits of the whole description's hash, then one 4-bit check per
/// slot of parts, so that a changed fingerprint can say which part changed. A change goes
/// unnoticed only if both its 32-bit and its 4-bit checks collide (about 1 in 70 billion).
/// The runtime's `fingerprint` computes the same function in a constant.
pub fn fingerprint(input: &Input) -> Option<u64> {
    let texts: Vec<String> = parts(input).iter().map(Part::text).collect::<Option<_>>()?;
    let whole = fnv1a(&format!("rowkey-layout-v1; {}", texts.join("; "))) & 0xffff_ffff_0000_0000;
    let mut slots = 0u64;
    for (i, text) in texts.iter().enumerate() {
        slots ^= (fnv1a(text) & 0xf) << (4 * (i % SLOTS));
    }
    Some(whole | slots)
}

/// The parts whose checks differ between a pinned and a new fingerprint, by label.
pub fn changed(input: &Input, pinned: u64, now: u64) -> Vec<String> {
    let diff = pinned ^ now;
    parts(input)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| (diff >> (4 * (i % SLOTS))) & 0xf != 0)
        .map(|(_, p)| p.label)
        .collect()
}

/// One field: its value class and its encoding, appended to `segs`.
fn field<'f, 'a>(f: &'f Field<'a>, delimiter: Option<u8>, segs: &mut Vec<Seg<'f, 'a>>) {
    let a = &f.attrs;
    let encoding = if let Some(n) = a.fixed {
        format!("fixed({})", n.value)
    } else if let Some(n) = a.hash {
        format!("md5[..{}]", n.value)
    } else if a.reverse_ts.is_some() {
        "reverse_ts".into()
    } else if a.reverse.is_some() {
        "reverse".into()
    } else if let Some(n) = a.row_span {
        format!("row_span({})", n.value)
    } else if let Some(j) = a.java {
        match j.value {
            crate::attr::Java::Bytes => "java".into(),
            crate::attr::Java::Utf => "java(utf)".into(),
        }
    } else if a.rest.is_some() {
        "rest".into()
    } else if let Some(d) = a.decimal {
        match d.value {
            0 => "decimal".into(),
            w => format!("decimal({w})"),
        }
    } else if let Some(h) = a.hex {
        let (w, upper) = h.value;
        format!("hex({w}{})", if upper { ", upper" } else { "" })
    } else {
        // `max_len(N)` bounds values but writes the natural bytes.
        "natural".into()
    };
    // A text key's fields: the delimiter after each encoding (`text`, `reversed text` for its
    // plain and `#[reverse]` text fields).
    let encoding = match delimiter {
        Some(d) => {
            let padded;
            let e = match encoding.as_str() {
                "natural" => "text",
                "reverse" => "reversed text",
                other if other.starts_with("fixed(") => {
                    padded = format!("space-padded {other}");
                    &padded
                }
                other => other,
            };
            format!("{e} delimited({d:#04x})")
        }
        None => encoding,
    };
    let desc = if a.desc.is_some() { " desc" } else { "" };
    match class(f.ty, f.class) {
        Some(c) => push(segs, Seg::Text(c)),
        None => push(segs, Seg::Type(f)),
    }
    push(segs, Seg::Text(format!(" {encoding}{desc}")));
}

/// A type by the bytes its values encode to, when its tokens tell (the words the type's
/// `LAYOUT` constant gives too).
fn class(ty: &syn::Type, c: TyClass) -> Option<String> {
    Some(match c {
        TyClass::Int { signed, width } => {
            format!("{}{}", if signed { "i" } else { "u" }, width * 8)
        }
        TyClass::Bool => "bool".into(),
        TyClass::Float { width } => format!("f{}", width * 8),
        TyClass::Text { .. } => "text".into(),
        TyClass::Bytes { .. } => "bytes".into(),
        TyClass::ByteArray { len: Some(n) } => format!("[u8; {n}]"),
        TyClass::Option => {
            let inner = last_segment(ty).and_then(|s| generic_types(s).first().copied())?;
            format!("option({})", class(inner, classify(inner))?)
        }
        _ => return None,
    })
}

fn tokens(ty: &syn::Type) -> String {
    ty.to_token_stream().to_string().replace(' ', "")
}

/// 64-bit FNV-1a.
pub fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(input: syn::DeriveInput) -> (u64, String) {
        let cx = crate::ctxt::Ctxt::new();
        let ast = crate::ast::Input::from_syn(&cx, &input).unwrap();
        let d = describe(&ast);
        let f = fingerprint(&ast).expect("every type known");
        cx.check().unwrap();
        (f, d)
    }

    #[test]
    fn a_changed_fingerprint_names_the_part() {
        let input: syn::DeriveInput = syn::parse_quote! {
            struct E { #[salt(buckets = 16)] user: u64, #[fixed(12)] kind: String, #[reverse_ts] ts: u64 }
        };
        let cx = crate::ctxt::Ctxt::new();
        let ast = crate::ast::Input::from_syn(&cx, &input).unwrap();
        cx.check().unwrap();
        let old = fp(syn::parse_quote! {
            struct E { #[salt(buckets = 16)] user: u64, #[fixed(16)] kind: String, #[reverse_ts] ts: u64 }
        })
        .0;
        let now = fingerprint(&ast).unwrap();
        assert_eq!(changed(&ast, old, now), ["field 1 (`kind`)"]);
    }

    #[test]
    fn what_keeps_the_bytes_keeps_the_fingerprint() {
        let base = fp(syn::parse_quote! {
            struct E { #[salt(buckets = 16)] user: u64, #[fixed(16)] kind: String, #[reverse_ts] ts: u64 }
        });
        // Renamed fields and type, docs, other derives, a borrowed text, #[timestamp]-free.
        let same = fp(syn::parse_quote! {
            /// Docs.
            #[derive(Debug)]
            struct Renamed<'a> {
                /// The user.
                #[salt(buckets = 16)] uid: u64,
                #[fixed(16)] event_kind: &'a str,
                #[reverse_ts] at: u64,
            }
        });
        assert_eq!(base.0, same.0, "{} vs {}", base.1, same.1);
        for changed in [
            fp(
                syn::parse_quote! { struct E { #[salt(buckets = 8)] user: u64, #[fixed(16)] kind: String, #[reverse_ts] ts: u64 } },
            ),
            fp(
                syn::parse_quote! { struct E { #[salt(buckets = 16, hash = "xxh3")] user: u64, #[fixed(16)] kind: String, #[reverse_ts] ts: u64 } },
            ),
            fp(
                syn::parse_quote! { struct E { #[salt(buckets = 16)] user: u32, #[fixed(16)] kind: String, #[reverse_ts] ts: u64 } },
            ),
            fp(
                syn::parse_quote! { struct E { #[salt(buckets = 16)] user: u64, #[fixed(12)] kind: String, #[reverse_ts] ts: u64 } },
            ),
            fp(
                syn::parse_quote! { struct E { #[salt(buckets = 16)] user: u64, kind: String, #[reverse_ts] ts: u64 } },
            ),
            fp(
                syn::parse_quote! { struct E { #[salt(buckets = 16)] user: u64, #[fixed(16)] kind: String, ts: u64 } },
            ),
            fp(
                syn::parse_quote! { struct E { #[salt(buckets = 16)] user: u64, #[reverse_ts] ts: u64, #[fixed(16)] kind: String } },
            ),
            fp(
                syn::parse_quote! { struct E { user: u64, #[salt(buckets = 16)] #[fixed(16)] kind: String, #[reverse_ts] ts: u64 } },
            ),
        ] {
            assert_ne!(base.0, changed.0, "{}", changed.1);
        }
    }

    #[test]
    fn fnv1a_is_the_published_function() {
        // FNV-1a 64 test vectors (Fowler, Noll, Vo).
        assert_eq!(fnv1a(""), 0xcbf29ce484222325);
        assert_eq!(fnv1a("a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a("foobar"), 0x85944171f73967e8);
    }
}
