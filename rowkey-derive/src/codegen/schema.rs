//! The `RowKey` impl: the key-level constants, the layout as `SCHEMA`, and the writes split at
//! the salted field (the salt hashes the head).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned, ToTokens};

use super::encode::{width_sum, writes};
use super::{bind, codec_of, codec_ty, private, variant_match, Krate};
use crate::ast::TyClass;
use crate::model::{Encoding, Fingerprint, Key, KeyField, LayoutSeg};

/// The `FieldSchema`s of `fields`, one runtime call each, their offsets filled from the widths
/// by the runtime starting at byte `start` (an `Option<usize>` expression). `salted` counts
/// the leading fields that feed the salt.
fn field_schemas(
    krate: Krate,
    fields: &[KeyField],
    start: TokenStream,
    salted: usize,
    lead: Option<TokenStream>,
) -> TokenStream {
    let p = private(krate);
    let each = lead
        .into_iter()
        .chain(fields.iter().enumerate().map(|(i, f)| {
            let codec = codec_ty(f);
            let ty = f.ty;
            let fname = super::name(f.ident);
            let rust_type = super::type_name(f.ty);
            // A text key's fields also name their place in the layout as data, so a reader of the
            // schema alone (the `rowkey` program's explain) knows where each ends:
            // `delimited(0x3a)` before the delimiter, `last(0x3a)` to the end. Not in the docs:
            // the user did not write it.
            let mut attributes = f.attributes.clone();
            if let Some(t) = f.text {
                let place = if t.last { "last" } else { "delimited" };
                attributes.push(format!("{place}({:#04x})", t.delimiter));
            }
            let in_salt = i < salted;
            let call = quote_spanned!(f.ty_span=> #p::field::<#codec, #ty>);
            quote!(#call(#fname, #rust_type, &[#(#attributes),*], #in_salt))
        }));
    quote!(#p::with_offsets([#(#each),*], #start))
}

pub fn expand(key: &Key) -> TokenStream {
    let p = private(key.krate);
    let ident = key.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = key.generics.split_for_impl();
    let salted = key.salt.is_some();
    let salt_len = usize::from(salted);
    let buckets = key.salt.as_ref().map_or(0u16, |s| s.buckets);
    let limit = key.limit;
    let allow_hotspot = key.allow_hotspot;
    let salted_count = key.salt.as_ref().map_or(0, |s| s.field + 1);

    // A hash prefix stands first among the fields, as a pseudo-field of its bytes.
    let (prefix_len, prefix_write, prefix_field) = match &key.hash_prefix {
        None => (quote!(), quote!(), None),
        Some(hp) => {
            let width = hp.width();
            let of = &key.fields[hp.of];
            // What is hashed: the field's own bytes (a text key's field: its text, without
            // the delimiter after it).
            let inner = KeyField {
                text: None,
                ..of.clone()
            };
            let codec = codec_ty(&inner);
            let ty = of.ty;
            let of_ident = of.ident;
            let len = hp.len;
            let hex = hp.hex;
            let delimiter = match hp.delimiter {
                Some(d) => quote!(#p::Some(#d)),
                None => quote!(#p::None),
            };
            let encoding = format!(
                "MD5 of `{}`{}",
                super::name(of.ident),
                match hp.hex {
                    0 => format!(", its first {len} bytes"),
                    1 => format!(", its first {len} hex digits"),
                    _ => format!(", its first {len} hex digits, uppercase"),
                }
            );
            let rendered = &hp.rendered;
            let place = hp
                .delimiter
                .map(|d| format!("delimited({d:#04x})"))
                .into_iter();
            let text = hp.delimiter.is_some();
            (
                quote!(const __PREFIX_LEN: #p::usize = #width;),
                quote! {
                    #[inline(always)]
                    fn __write_prefix<__RowkeySink: #p::Sink>(&self, __rowkey_sink: &mut __RowkeySink) {
                        let Self { #of_ident: __rowkey_hashed, .. } = self;
                        #p::write_hash_prefix::<#codec, #ty, __RowkeySink>(
                            __rowkey_hashed, #len, #hex, #delimiter, __rowkey_sink,
                        );
                    }
                },
                Some(
                    quote!(#p::hash_prefix_field(#width, #encoding, &[#rendered #(, #place)*], #text)),
                ),
            )
        }
    };
    let fields_start = if key.hash_prefix.is_some() {
        quote!(#p::Some(0usize))
    } else {
        quote!(#p::Some(#salt_len))
    };
    let fields = field_schemas(
        key.krate,
        &key.fields,
        fields_start,
        salted_count,
        prefix_field,
    );
    let prefix_width = width_sum(key.krate, &key.fields, "FIXED_WIDTH");
    let variants = key.variants.as_deref().unwrap_or(&[]).iter().map(|v| {
        let vname = v.ident.to_string();
        let tag = v.tag;
        // After the salt byte, the shared prefix and the tag byte.
        let start = quote!(#p::add(#p::add(#p::Some(#salt_len), #prefix_width), #p::Some(1usize)));
        let vfields = field_schemas(key.krate, &v.fields, start, 0, None);
        quote!(#p::VariantSchema { name: #vname, tag: #tag, fields: &#vfields })
    });
    let fingerprint = fingerprint(key);
    let pin_check = pin_check(key);
    let nests_check = nests(key);
    // Only a strategy other than the default is spelled out (MD5 keys expand as before).
    let salt_hash = match &key.salt {
        Some(s) if s.hash != crate::attr::SaltHash::Md5 => {
            let v = quote::format_ident!("{}", s.hash.variant());
            quote!(const __SALT_HASH: #p::SaltHash = #p::SaltHash::#v;)
        }
        _ => quote!(),
    };
    // MAX_LEN and FIXED_LEN are the trait's defaults, computed from these two, which are
    // spelled out only when they are not the defaults (no salt, HBase's limit): each item the
    // derive writes costs every build of the user's crate.
    let salt_buckets = (buckets > 0).then(|| quote!(const __SALT_BUCKETS: #p::u16 = #buckets;));
    let key_limit =
        (limit != crate::attr::HBASE_KEY_LIMIT).then(|| quote!(const __LIMIT: #p::usize = #limit;));
    let salt = match &key.salt {
        Some(s) => {
            let names = key.fields[..=s.field].iter().map(|f| super::name(f.ident));
            let b = s.buckets;
            let hash = s.hash.name();
            quote!(#p::Some(#p::SaltSchema { buckets: #b, hash: #hash, fields: &[#(#names),*] }))
        }
        None => quote!(#p::None),
    };

    let head_fields = key.head();
    let tail_fields = key.tail();
    let bind_head = bind(key, head_fields);
    let head = writes(head_fields);
    let bind_tail = bind(key, tail_fields);
    let tail = writes(tail_fields);
    let records = if key.variants.is_some() {
        variant_match(key, false, |v| {
            let tag = v.tag;
            let own = writes(&v.fields);
            quote! {
                #p::Sink::put_array(__rowkey_sink, [#tag]);
                #own
            }
        })
    } else {
        quote!()
    };
    let static_ty = static_ty(key);
    let too_long = format!(
        "every `{name}` key is longer than its key limit of {limit} bytes; shorten the fields or raise `#[rowkey(key_limit = N)]`"
    );

    // Nested keys' widths are only known to the compiler: check the limit in a constant. A key
    // with a plain text or bytes field has no fixed length, so the check could not fail and is
    // not written (each constant costs the user's build a compile-time evaluation).
    let variable = key.fields.iter().any(|f| {
        matches!(
            f.codec,
            Encoding::Natural | Encoding::Rest | Encoding::JavaUtf
        ) && matches!(f.class, TyClass::Text { .. } | TyClass::Bytes { .. })
    });
    let limit_check = (!variable).then(|| {
        quote! {
            const _: () = {
                if let #p::Some(__rowkey_len) = <#static_ty as #p::RowKey>::FIXED_LEN {
                    if __rowkey_len > #limit {
                        ::core::panic!(#too_long);
                    }
                }
            };
        }
    });

    quote! {
        #[automatically_derived]
        impl #impl_generics #p::RowKey for #ident #ty_generics #where_clause {
            const SCHEMA: &'static #p::Schema = &#p::Schema {
                name: #name,
                fields: &#fields,
                variants: &[#(#variants),*],
                salt: #salt,
                fixed_len: <Self as #p::RowKey>::FIXED_LEN,
                max_len: <Self as #p::RowKey>::MAX_LEN,
                limit: #limit,
                allow_hotspot: #allow_hotspot,
            };
            const FINGERPRINT: #p::u64 = #fingerprint;
            #prefix_len
            #prefix_write
            #salt_buckets
            #salt_hash
            #key_limit

            #[inline(always)]
            fn __write_head<__RowkeySink: #p::Sink>(&self, __rowkey_sink: &mut __RowkeySink) {
                #bind_head
                #head
            }

            #[inline(always)]
            fn __write_tail<__RowkeySink: #p::Sink>(&self, __rowkey_sink: &mut __RowkeySink) {
                #bind_tail
                #tail
                #records
            }
        }

        #limit_check
        #pin_check
        #nests_check
    }
}

/// `RowKey::FINGERPRINT`'s value: the literal, or the runtime's `fingerprint` over the layout's
/// parts with each hole filled by its field's `<codec as Codec<T>>::LAYOUT`.
fn fingerprint(key: &Key) -> TokenStream {
    let p = private(key.krate);
    match &key.fingerprint {
        Fingerprint::Known(v) => proc_macro2::Literal::u64_suffixed(*v).into_token_stream(),
        Fingerprint::Computed(parts) => {
            let parts = parts.iter().map(|segs| {
                let pieces = segs.iter().map(|s| match s {
                    LayoutSeg::Text(t) => quote!(#p::LayoutPiece::Text(#t)),
                    LayoutSeg::Type(f) => {
                        let codec = codec_of(f);
                        quote!(#p::LayoutPiece::Type(#codec::LAYOUT))
                    }
                });
                quote!(&[#(#pieces),*])
            });
            quote!(#p::fingerprint(&[#(#parts),*]))
        }
    }
}

/// For a pinned fingerprint computed in a constant: an assertion that fails the build, at the
/// attribute, when the layout no longer has the pinned fingerprint.
/// When a field may be another key (a type the derive does not know, or an `Option` of one),
/// the key's layout is built at compile time: a nested key that is whole only as a key (a text
/// key, `#[rest]`, a hash prefix) is refused there, by the field's layout record
/// (`generated::field`), with its reason. A type that is not a key at all is left to the
/// `Encode` bound rustc already reports once.
fn nests(key: &Key) -> TokenStream {
    let may_be_key = key
        .fields
        .iter()
        .chain(key.variants.iter().flatten().flat_map(|v| &v.fields))
        .any(|f| matches!(f.codec, Encoding::Natural) && crate::ast::may_be_key(f.ty));
    if !may_be_key {
        return quote!();
    }
    let p = private(key.krate);
    let static_ty = static_ty(key);
    quote!(const _: &#p::Schema = <#static_ty as #p::RowKey>::SCHEMA;)
}

fn pin_check(key: &Key) -> TokenStream {
    let Some((pinned, span, layout)) = &key.deferred_pin else {
        return quote!();
    };
    let p = private(key.krate);
    let static_ty = static_ty(key);
    let pinned_lit = proc_macro2::Literal::u64_suffixed(*pinned);
    let message = format!(
        "the byte layout of `{}` changed: its fingerprint (`RowKey::FINGERPRINT`, computed from its field types' layouts) is no longer the pinned {pinned:#018x}, so keys already stored under the pinned layout would no longer decode or sort as before. The layout now: {layout}. Undo the change, or, for a new table or after a migration, pin the new `FINGERPRINT`",
        key.ident
    );
    quote_spanned! {*span=>
        const _: () = {
            if <#static_ty as #p::RowKey>::FINGERPRINT != #pinned_lit {
                ::core::panic!(#message);
            }
        };
    }
}

/// The key's type with every lifetime set to `'static`, for compile-time checks outside its
/// impls.
fn static_ty(key: &Key) -> TokenStream {
    let ident = key.ident;
    let args = key.generics.lifetimes().map(|_| quote!('static));
    if key.generics.params.is_empty() {
        quote!(#ident)
    } else {
        quote!(#ident<#(#args),*>)
    }
}
