//! The typed scan builder: `T::scan()` and `TScan<const STEP: usize>`, one step per field, so
//! fields can only be given in key order; the layout table in the generated docs.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::visit_mut::VisitMut;
use syn::{Lifetime, Type};

use super::{codec_ty, private, Krate};
use crate::ast::TyClass;
use crate::model::{Encoding, Key, KeyField, Order};

/// Replaces every lifetime in a type with `'scan`, the builder's own.
struct Relifetime;

impl VisitMut for Relifetime {
    fn visit_lifetime_mut(&mut self, l: &mut Lifetime) {
        *l = Lifetime::new("'scan", Span::call_site());
    }

    fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
        if r.lifetime.is_none() {
            r.lifetime = Some(Lifetime::new("'scan", Span::call_site()));
        }
        syn::visit_mut::visit_type_reference_mut(self, r);
    }
}

/// The type a scan method takes (and the builder keeps) for a field, its lifetimes the
/// builder's `'scan`: `&str` for text, `&[u8]` for bytes, the field's own type otherwise.
pub(crate) fn arg_type(field: &KeyField) -> Type {
    match field.class {
        TyClass::Text { .. } => syn::parse_quote!(&'scan ::core::primitive::str),
        TyClass::Bytes { .. } => syn::parse_quote!(&'scan [::core::primitive::u8]),
        _ => {
            let mut ty = field.ty.clone();
            Relifetime.visit_type_mut(&mut ty);
            ty
        }
    }
}

/// The layout as a Markdown table for rustdoc, from what the tokens tell (widths of nested or
/// aliased types are in `SCHEMA`).
pub fn layout_doc(key: &Key) -> String {
    let mut out = String::from(
        "| # | field | type | width | encoding | order |\n|---|---|---|---|---|---|\n",
    );
    let mut row = 0;
    if let Some(s) = &key.salt {
        let names: Vec<String> = key.fields[..=s.field]
            .iter()
            .map(|f| format!("`{}`", super::name(f.ident)))
            .collect();
        out.push_str(&format!(
            "| {row} | salt | `u8` | 1 | {} | bucket |\n",
            s.hash.formula(&names.join(", "), s.buckets)
        ));
        row += 1;
    }
    for f in &key.fields {
        let ty = super::type_name(f.ty);
        let width = match (f.codec.fixed_width(f.class), f.codec.max_width(f.class)) {
            (Some(w), _) => w.to_string(),
            (None, Some(max)) => format!("variable, <= {max}"),
            (None, None) => "variable".to_string(),
        };
        let mut encoding = if f.attributes.is_empty() {
            if f.text.is_some() { "text" } else { "natural" }.to_string()
        } else {
            f.attributes
                .iter()
                .map(|a| format!("`#[{a}]`"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if let Some(t) = f.text.filter(|t| !t.last) {
            encoding.push_str(&format!(
                ", then `{}`",
                (t.delimiter as char).escape_default()
            ));
        }
        let order = match f.order {
            Order::Ascending => "ascending",
            Order::Descending => "descending",
            Order::Unordered => match f.codec {
                Encoding::Java => "equality only (two's complement or raw float bits: negative values sort after positive ones)",
                Encoding::JavaUtf => "equality only (`writeUTF`'s length sorts first)",
                Encoding::Text => "equality only (a value sorts against the delimiter after a shorter one)",
                Encoding::ReversedText => "equality only (reversed)",
                Encoding::PaddedText(_) => "equality only (space-padded text)",
                Encoding::Decimal(0) | Encoding::Hex(0, _) => {
                    "equality only (unpadded digits: 9 sorts after 10)"
                }
                Encoding::Decimal(_) => "equality only (signed: `-` sorts before the digits, negative values backwards)",
                _ => "equality only",
            },
        };
        out.push_str(&format!(
            "| {row} | `{}` | `{ty}` | {width} | {encoding} | {order} |\n",
            super::name(f.ident)
        ));
        row += 1;
    }
    if let Some(variants) = &key.variants {
        let tags: Vec<String> = variants
            .iter()
            .map(|v| format!("{} = `{}`", v.tag, v.ident))
            .collect();
        out.push_str(&format!(
            "| {row} | tag | `u8` | 1 | {} | by tag |\n",
            tags.join(", ")
        ));
        for v in variants {
            let own: Vec<String> = v
                .fields
                .iter()
                .map(|f| format!("`{}: {}`", super::name(f.ident), super::type_name(f.ty)))
                .collect();
            out.push_str(&format!(
                "\n`{}` (tag {}) then: {}\n",
                v.ident,
                v.tag,
                if own.is_empty() {
                    "nothing".to_string()
                } else {
                    own.join(", ")
                }
            ));
        }
    }
    match &key.fingerprint {
        crate::model::Fingerprint::Known(v) => out.push_str(&format!(
            "\nLayout fingerprint: `{v:#018x}` (`RowKey::FINGERPRINT`; pin it with \
             `#[rowkey(fingerprint = {v:#018x})]` so that a change to the stored bytes fails the build).\n",
        )),
        crate::model::Fingerprint::Computed(_) => out.push_str(
            "\nLayout fingerprint: `RowKey::FINGERPRINT`, computed at compile time from the field \
             types' own layouts (print it, then pin it with `#[rowkey(fingerprint = 0x...)]` so \
             that a change to the stored bytes fails the build).\n",
        ),
    }
    out
}

/// A record type's selector method: its name in `snake_case` (see `ast::snake_case`), raw
/// when that is a keyword (`Type` -> `r#type`).
pub fn selector(ident: &syn::Ident) -> syn::Ident {
    let name = crate::ast::selector_name(ident);
    syn::parse_str::<syn::Ident>(&name).unwrap_or_else(|_| syn::Ident::new_raw(&name, ident.span()))
}

/// One impl per field: `impl Scan<'a, i> { fn field(self, value or range) -> Scan<'a, i + 1>
/// or ScanRange }`. A value is only kept (in the builder's slot `i`); a range ends the scan,
/// kept as a `ScanRange` that writes it in `ranges()`. Each body is one runtime call.
fn steps(scan: &syn::Ident, fields: &[KeyField], salting: &Salting) -> TokenStream {
    let p = private(salting.krate);
    // Unsuffixed (`16`, not `16u16`): the signature fits a line of `cargo expand`.
    let buckets = proc_macro2::Literal::u16_unsuffixed(salting.buckets);
    let steps = fields.iter().enumerate().map(|(i, f)| {
        let name = f.ident;
        let slot = syn::Index::from(i);
        let codec = codec_ty(f);
        let arg = arg_type(f);
        let next = proc_macro2::Literal::usize_unsuffixed(i + 1);
        let step = proc_macro2::Literal::usize_unsuffixed(i);
        let doc = format!(
            "Fixes `{name}` to a value and continues with the next field{}.",
            if matches!(f.order, Order::Unordered) {
                "; this field does not keep order, so it takes no range"
            } else {
                ", or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan"
            }
        );
        let method = if matches!(f.order, Order::Unordered) {
            quote! {
                pub fn #name<A: #p::ScanValue<#arg>>(self, value: A) -> #scan<'scan, #next> {
                    let mut __rowkey_s = self;
                    __rowkey_s.__rowkey_v.#slot = #p::Some(#p::ScanValue::into_value(value));
                    __rowkey_s.__rowkey_to()
                }
            }
        } else {
            quote! {
                pub fn #name<A: #p::ScanArg<#arg>>(
                    self,
                    arg: A,
                ) -> #p::ScanThen<A, #arg, #scan<'scan, #next>, Self, #codec, #buckets> {
                    #p::scan_step(arg, self, |mut __rowkey_s: Self, __rowkey_x| {
                        __rowkey_s.__rowkey_v.#slot = #p::Some(__rowkey_x);
                        __rowkey_s.__rowkey_to()
                    })
                }
            }
        };
        quote! {
            impl<'scan> #scan<'scan, #step> {
                #[doc = #doc]
                #[inline]
                #[must_use]
                #method
            }
        }
    });
    quote!(#(#steps)*)
}

/// What a builder needs to know of the key's salt.
struct Salting<'a> {
    /// Where the generated code finds `rowkey`.
    krate: Krate<'a>,
    /// The salt bucket count, 0 for an unsalted key.
    buckets: u16,
    /// The field after which the salt bucket is known, if this builder writes it.
    salt_field: Option<usize>,
    /// The salt strategy.
    hash: crate::attr::SaltHash,
}

/// What comes before a builder's own fields.
enum Head<'a> {
    /// Nothing: the builder of a struct key.
    None,
    /// The record tag, after the fields: the builder of an enum key's shared prefix.
    Tag,
    /// The shared prefix with its tag set: the builder of one record type.
    Prefix(&'a syn::Ident, usize),
}

impl Head<'_> {
    /// The builder's field holding what comes before its own fields, if any.
    fn name(&self) -> Option<TokenStream> {
        match self {
            Head::None => None,
            Head::Tag => Some(quote!(__rowkey_tag)),
            Head::Prefix(..) => Some(quote!(__rowkey_prefix)),
        }
    }
}

/// A builder type `Scan<'a, const STEP: usize>`: the values given so far (a tuple of one
/// `Option` per field, set in key order, named by a hidden alias so it is spelled once),
/// `ranges()` at every step, and `WriteScan`; the steps (`steps`) build the next step themselves.
fn builder(
    key_ty: &TokenStream,
    vis: &syn::Visibility,
    scan: &syn::Ident,
    doc: &str,
    fields: &[KeyField],
    head: Head,
    salting: &Salting,
) -> TokenStream {
    let p = private(salting.krate);
    let buckets = salting.buckets;
    let args: Vec<Type> = fields.iter().map(arg_type).collect();
    let values = format_ident!("__Rowkey{}Values", scan);
    let (head_field, head_ty, head_empty, head_write) = match head {
        Head::None => (quote!(), None, quote!(), quote!()),
        Head::Tag => (
            quote!(__rowkey_tag: #p::Option<#p::u8>,),
            Some(quote!(#p::Option<#p::u8>)),
            quote!(__rowkey_tag: #p::None,),
            quote!(),
        ),
        Head::Prefix(parent, step) => (
            quote!(__rowkey_prefix: #parent<'scan, #step>,),
            Some(quote!(#parent<'scan, #step>)),
            quote!(),
            quote! {
                if !#p::WriteScan::write(&self.__rowkey_prefix, __rowkey_st) {
                    return false;
                }
            },
        ),
    };
    let head_name = head.name();
    let head_move = head_name.as_ref().map(|h| quote!(#h: self.#h,));
    // Bounded through `CloneIf` (see its docs): a builder over a value that is not `Clone` is
    // not `Clone`, rather than an error.
    let clone_of = |ty: &TokenStream| quote!(<#p::CloneIf<'scan, #ty> as #p::CloneOf<#ty>>);
    let values_ty = quote!(#values<'scan>);
    let values_clone = clone_of(&values_ty);
    let head_clone = head_name.as_ref().zip(head_ty.as_ref()).map(|(h, t)| {
        let c = clone_of(t);
        quote!(#h: #c::clone_of(&self.#h),)
    });
    let head_bound = head_ty
        .as_ref()
        .map(|t| quote!(#p::CloneIf<'scan, #t>: #p::CloneOf<#t>,));
    let nones = fields.iter().map(|_| quote!(#p::None));
    let writes = fields.iter().enumerate().map(|(i, f)| {
        let slot = syn::Index::from(i);
        let codec = codec_ty(f);
        let arg = &args[i];
        let salt_known = if salting.salt_field == Some(i) {
            if salting.hash == crate::attr::SaltHash::Md5 {
                quote!(__rowkey_st.salt_known();)
            } else {
                let v = format_ident!("{}", salting.hash.variant());
                quote!(__rowkey_st.salt_known_by(#p::SaltHash::#v);)
            }
        } else {
            quote!()
        };
        quote! {
            if !__rowkey_st.opt::<#codec, #arg>(&self.__rowkey_v.#slot) {
                return false;
            }
            #salt_known
        }
    });
    let tag_write = matches!(head, Head::Tag).then(|| {
        quote! {
            if !__rowkey_st.opt::<#p::Natural, #p::u8>(&self.__rowkey_tag) {
                return false;
            }
        }
    });
    let empty = quote! {
        __rowkey_v: (#(#nones,)*),
        #head_empty
        __rowkey_lt: #p::PhantomData,
    };
    let new_fn = match head {
        Head::Prefix(parent, step) => quote! {
            #[inline(always)]
            #[allow(dead_code)]
            fn __rowkey_new(__rowkey_prefix: #parent<'scan, #step>) -> Self {
                #scan { __rowkey_prefix, #empty }
            }
        },
        _ => quote! {
            #[inline(always)]
            #[allow(dead_code)]
            fn __rowkey_new() -> Self {
                #scan { #empty }
            }
        },
    };
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        type #values<'scan> = (#(#p::Option<#args>,)*);

        #[doc = #doc]
        #[allow(non_camel_case_types, non_snake_case)]
        #vis struct #scan<'scan, const STEP: #p::usize> {
            __rowkey_v: #values_ty,
            #head_field
            __rowkey_lt: #p::PhantomData<&'scan ()>,
        }

        #[automatically_derived]
        impl<'scan, const STEP: #p::usize> ::core::clone::Clone for #scan<'scan, STEP>
        where
            #p::CloneIf<'scan, #values_ty>: #p::CloneOf<#values_ty>,
            #head_bound
        {
            #[inline]
            fn clone(&self) -> Self {
                #scan {
                    __rowkey_v: #values_clone::clone_of(&self.__rowkey_v),
                    #head_clone
                    __rowkey_lt: #p::PhantomData,
                }
            }
        }

        impl<'scan, const STEP: #p::usize> #scan<'scan, STEP> {
            /// The key ranges of every key whose leading fields are the ones fixed so far, in
            /// key order.
            #[inline]
            #[must_use]
            pub fn ranges(self) -> #p::KeyRanges {
                #p::scan_ranges::<#buckets, Self>(&self)
            }

            #new_fn

            // This builder's values at step `N`: what a step returns once it has set its
            // field's slot (one helper per builder, where each step wrote the literal).
            #[inline(always)]
            #[allow(dead_code)]
            fn __rowkey_to<const __ROWKEY_N: #p::usize>(self) -> #scan<'scan, __ROWKEY_N> {
                #scan { __rowkey_v: self.__rowkey_v, #head_move __rowkey_lt: #p::PhantomData }
            }
        }

        #[automatically_derived]
        #[doc(hidden)]
        impl<'scan, const STEP: #p::usize> #p::WriteScan<#buckets> for #scan<'scan, STEP> {
            const MAX_LEN: #p::usize = <#key_ty as #p::RowKey>::MAX_LEN;

            /// Writes the values given, in key order; `false` if the scan stops before the
            /// last field (the steps set them in order, so the first unset one ends it).
            #[inline(always)]
            fn write<__RowkeyBuf: #p::ScanBuf>(
                &self,
                __rowkey_st: &mut #p::ScanState<#buckets, __RowkeyBuf>,
            ) -> #p::bool {
                #head_write
                #(#writes)*
                #tag_write
                true
            }
        }
    }
}

/// A key's scan builders: the items at the user's module level (the builder types, their
/// `ranges()`, the record selectors and `Key::scan`), and the step methods, lowered with the
/// `const _` block's alias for the block (see [`super::expand`]).
pub fn expand(key: &Key, local: &Key) -> (TokenStream, TokenStream) {
    let p = private(key.krate);
    let ident = key.ident;
    let vis = key.vis;
    let scan = format_ident!("{}Scan", ident);
    let (impl_generics, ty_generics, where_clause) = key.generics.split_for_impl();
    let buckets = key.salt.as_ref().map_or(0u16, |s| s.buckets);
    let hash = key
        .salt
        .as_ref()
        .map_or(crate::attr::SaltHash::Md5, |s| s.hash);
    // The key type with `'static` for its lifetimes, to name its constants in the builders.
    let statics = key.generics.lifetimes().map(|_| quote!('static));
    let key_ty = if key.generics.params.is_empty() {
        quote!(#ident)
    } else {
        quote!(#ident<#(#statics),*>)
    };
    let layout = layout_doc(key);
    let names: Vec<String> = key
        .fields
        .iter()
        .map(|f| format!("`{}`", super::name(f.ident)))
        .collect();
    let main_salting = Salting {
        krate: key.krate,
        buckets,
        salt_field: key.salt.as_ref().map(|s| s.field),
        hash,
    };
    let record_salting = Salting {
        krate: key.krate,
        buckets,
        salt_field: None,
        hash,
    };
    let main_head = if key.variants.is_some() {
        Head::Tag
    } else {
        Head::None
    };
    // A hash-prefixed key's leading bytes hash a field: no range of its keys is a prefix of
    // field values, so the builder takes no field (read it by key, or with `query()`).
    let scanned: &[KeyField] = if local.hash_prefix.is_some() {
        &[]
    } else {
        &local.fields
    };
    let local_salting = |salt_field| Salting {
        krate: local.krate,
        buckets,
        salt_field,
        hash,
    };
    let mut block_steps = vec![steps(&scan, scanned, &local_salting(None))];
    let k = key.fields.len();

    let (order_doc, records) = match &key.variants {
        None => (names.join(", "), quote!()),
        Some(variants) => {
            let mut selectors = Vec::new();
            let mut builders = Vec::new();
            let local_variants = local.variants.as_deref().unwrap_or(&[]);
            for (v, lv) in variants.iter().zip(local_variants) {
                let vscan = format_ident!("{}{}Scan", ident, v.ident);
                let method = selector(v.ident);
                let tag = v.tag;
                let vnames: Vec<String> = v
                    .fields
                    .iter()
                    .map(|f| format!("`{}`", super::name(f.ident)))
                    .collect();
                let sel_doc = format!(
                    "Narrows the scan to `{}` records (tag {tag}) and continues with their own fields ({}).",
                    v.ident,
                    if vnames.is_empty() { "none".to_string() } else { vnames.join(", ") }
                );
                selectors.push(quote! {
                    #[doc = #sel_doc]
                    #[inline]
                    #[must_use]
                    pub fn #method(self) -> #vscan<'scan, 0> {
                        #vscan::__rowkey_new(#scan::<'scan, { #k + 1 }> {
                            __rowkey_v: self.__rowkey_v,
                            __rowkey_tag: #p::Some(#tag),
                            __rowkey_lt: #p::PhantomData,
                        })
                    }
                });
                let bdoc = format!(
                    "The typed scan builder of `{ident}::{}` records, from [`{scan}::{method}`]: fix its fields in order, optionally end with a range, then call `ranges()`.",
                    v.ident
                );
                builders.push(builder(
                    &key_ty,
                    vis,
                    &vscan,
                    &bdoc,
                    &v.fields,
                    Head::Prefix(&scan, k + 1),
                    &record_salting,
                ));
                block_steps.push(steps(&vscan, &lv.fields, &local_salting(None)));
            }
            let tag_doc = "Narrows the scan to one record type by its tag byte, or, given a range of tags, to several; ends the scan.";
            let selectors = quote! {
                impl<'scan> #scan<'scan, #k> {
                    #(#selectors)*

                    #[doc = #tag_doc]
                    #[inline]
                    #[must_use]
                    pub fn tag<A: #p::ScanArg<#p::u8>>(
                        self,
                        arg: A,
                    ) -> #p::ScanThen<A, #p::u8, #scan<'scan, { #k + 1 }>, Self, #p::Natural, #buckets> {
                        #p::scan_step(arg, self, |__rowkey_s: Self, __rowkey_x| {
                            #scan { __rowkey_v: __rowkey_s.__rowkey_v, __rowkey_tag: #p::Some(__rowkey_x), __rowkey_lt: #p::PhantomData }
                        })
                    }
                }
                #(#builders)*
            };
            let kinds: Vec<String> = variants
                .iter()
                .map(|v| format!("`{}()`", selector(v.ident)))
                .collect();
            (
                format!(
                    "the shared prefix {}, then a record type ({} or `tag(n)`) and its own fields",
                    if names.is_empty() {
                        "(none)".to_string()
                    } else {
                        names.join(", ")
                    },
                    kinds.join(", ")
                ),
                selectors,
            )
        }
    };

    let struct_doc = format!(
        "The typed scan builder of [`{ident}`], from [`{ident}::scan`]: fix fields in key order \
         ({order_doc}), optionally end with a range on the next one, then call `ranges()`.\n\n\
         `STEP` counts the fields fixed so far; a field out of order has no method at that step.\n\n\
         # Layout of `{ident}`\n\n{layout}"
    );
    let scan_doc = format!(
        "Starts a prefix scan of `{ident}` keys. With no field fixed, `ranges()` covers the whole \
         table{}. The key's layout is the table above, as in [`{scan}`]'s docs.",
        if buckets > 0 {
            format!(" (one range per salt bucket, {buckets})")
        } else if key.hash_prefix.is_some() {
            ". A hash-prefixed key's scan fixes no field: its first bytes hash a field, so no \
             range of keys holds given field values; read it by key, or with `query()`"
                .to_string()
        } else {
            String::new()
        }
    );
    // On the key type's own page, above its methods: the layout users look for first.
    let impl_doc = format!(
        "# Row key layout\n\nHow a `{ident}` is laid out in a row key, field by field; scan \
         it with [`{ident}::scan`].\n\n{layout}"
    );
    let scan_lt = super::lifetime(key.generics, "'scan", "'__rowkey_a");
    let main_builder = builder(
        &key_ty,
        vis,
        &scan,
        &struct_doc,
        &key.fields,
        main_head,
        &main_salting,
    );

    let outside = quote! {
        #main_builder
        #records

        #[doc = #impl_doc]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #scan_doc]
            #[inline]
            #[must_use]
            #vis fn scan<#scan_lt>() -> #scan<#scan_lt, 0> {
                #scan::__rowkey_new()
            }
        }
    };
    (outside, quote!(#(#block_steps)*))
}
