//! `RowKey::FINGERPRINT`: a hash of everything that decides a key's stored bytes (field order,
//! each field's encoding as its type class and attributes give it, the salt strategy, buckets
//! and salted fields, record tags) and of nothing else (names, docs, derive order, `#[timestamp]`,
//! `key_limit`, `max_len` bounds, text owned or borrowed). `#[rowkey(fingerprint = 0x...)]`
//! pins it: a change that would alter stored bytes fails the build at the attribute.
//!
//! The description is versioned text hashed with 64-bit FNV-1a: stable across platforms and
//! compiler versions (std's hashers are not), so a pinned value holds as long as the layout.

use quote::ToTokens;

use crate::ast::{classify, generic_types, last_segment, Field, Input, TyClass};
use crate::attr::SaltHash;

/// The parts of the layout the fingerprint covers: a label for people (with the field's name)
/// and the text hashed (without it), in a fixed order: the salt, each field, each record type.
pub fn parts(input: &Input) -> Vec<(String, String)> {
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
    parts.push(("the salt".to_string(), salt));
    for (i, f) in lead.iter().enumerate() {
        parts.push((
            format!("field {i} (`{}`)", f.ident),
            format!("{i}: {}", field(f)),
        ));
    }
    if let Some(variants) = &input.variants {
        let mut vs: Vec<_> = variants.iter().collect();
        vs.sort_by_key(|v| v.tag.map_or(0, |t| t.value));
        for v in vs {
            let tag = v.tag.map_or(0, |t| t.value);
            let fields: Vec<String> = v.fields[lead.len().min(v.fields.len())..]
                .iter()
                .map(field)
                .collect();
            parts.push((
                format!("record type `{}` (tag {tag})", v.ident),
                format!("tag {tag}: [{}]", fields.join(", ")),
            ));
        }
    }
    parts
}

/// The layout the fingerprint covers, in words.
pub fn describe(input: &Input) -> String {
    let texts: Vec<String> = parts(input).into_iter().map(|(_, t)| t).collect();
    format!("rowkey-layout-v1; {}", texts.join("; "))
}

/// Part slots in the fingerprint's low 32 bits: part `i` goes to nibble `i % SLOTS`.
const SLOTS: usize = 8;

/// The fingerprint: the high 32 bits of the whole description's hash, then one 4-bit check per
/// slot of parts, so that a changed fingerprint can say which part changed. A change goes
/// unnoticed only if both its 32-bit and its 4-bit checks collide (about 1 in 70 billion).
pub fn fingerprint(input: &Input) -> u64 {
    let whole = fnv1a(&describe(input)) & 0xffff_ffff_0000_0000;
    let mut slots = 0u64;
    for (i, (_, text)) in parts(input).iter().enumerate() {
        slots ^= (fnv1a(text) & 0xf) << (4 * (i % SLOTS));
    }
    whole | slots
}

/// The parts whose checks differ between a pinned and a new fingerprint, by label.
pub fn changed(input: &Input, pinned: u64, now: u64) -> Vec<String> {
    let diff = pinned ^ now;
    parts(input)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| (diff >> (4 * (i % SLOTS))) & 0xf != 0)
        .map(|(_, (label, _))| label)
        .collect()
}

/// One field: its value class and its encoding.
fn field(f: &Field) -> String {
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
    } else {
        // `max_len(N)` bounds values but writes the natural bytes.
        "natural".into()
    };
    let desc = if a.desc.is_some() { " desc" } else { "" };
    format!("{} {encoding}{desc}", class(f.ty, f.class))
}

/// A type by the bytes its values encode to.
fn class(ty: &syn::Type, c: TyClass) -> String {
    match c {
        TyClass::Int { signed, width } => {
            format!("{}{}", if signed { "i" } else { "u" }, width * 8)
        }
        TyClass::Bool => "bool".into(),
        TyClass::Float { width } => format!("f{}", width * 8),
        TyClass::Text { .. } => "text".into(),
        TyClass::Bytes { .. } => "bytes".into(),
        TyClass::ByteArray { len: Some(n) } => format!("[u8; {n}]"),
        TyClass::Option => {
            let inner = last_segment(ty).and_then(|s| generic_types(s).first().copied());
            match inner {
                Some(t) => format!("option({})", class(t, classify(t))),
                None => format!("option({})", tokens(ty)),
            }
        }
        _ => format!("type({})", tokens(ty)),
    }
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
        let f = fingerprint(&ast);
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
        let now = fingerprint(&ast);
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
