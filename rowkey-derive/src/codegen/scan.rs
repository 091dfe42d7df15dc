//! The typed scan builder: `T::scan()` and `TScan<const STEP: usize>`, one step per field, so
//! fields can only be given in key order; the layout table in the generated docs.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::visit_mut::VisitMut;
use syn::{Lifetime, Type};

use super::{codec_ty, private};
use crate::ast::TyClass;
use crate::model::{Codec, Key, KeyField, Order};

/// Replaces every lifetime in a type with `'__rowkey_a`, the scan method's own.
struct Relifetime(bool);

impl VisitMut for Relifetime {
    fn visit_lifetime_mut(&mut self, l: &mut Lifetime) {
        *l = Lifetime::new("'__rowkey_a", Span::call_site());
        self.0 = true;
    }

    fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
        if r.lifetime.is_none() {
            r.lifetime = Some(Lifetime::new("'__rowkey_a", Span::call_site()));
        }
        self.0 = true;
        syn::visit_mut::visit_type_reference_mut(self, r);
    }
}

/// The type a scan method takes for a field, and whether it needs the `'__rowkey_a` lifetime:
/// `&str` for text, `&[u8]` for bytes, the field's own type otherwise.
fn arg_type(field: &KeyField) -> (Type, bool) {
    match field.class {
        TyClass::Text { .. } => (syn::parse_quote!(&'__rowkey_a ::core::primitive::str), true),
        TyClass::Bytes { .. } => (
            syn::parse_quote!(&'__rowkey_a [::core::primitive::u8]),
            true,
        ),
        _ => {
            let mut ty = field.ty.clone();
            let mut v = Relifetime(false);
            v.visit_type_mut(&mut ty);
            (ty, v.0)
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
            .map(|f| format!("`{}`", f.ident))
            .collect();
        out.push_str(&format!(
            "| {row} | salt | `u8` | 1 | md5({}) % {} | bucket |\n",
            names.join(", "),
            s.buckets
        ));
        row += 1;
    }
    for f in &key.fields {
        let ty = quote::ToTokens::to_token_stream(f.ty)
            .to_string()
            .replace(' ', "");
        let width = match (f.codec, f.class) {
            (Codec::Fixed(n) | Codec::Md5(n), _) => n.to_string(),
            (Codec::ReverseTs, _) => "8".to_string(),
            (Codec::MaxLen(n), _) => format!("variable, <= {}", 2 * n + 2),
            (_, class) => class
                .fixed_width()
                .map_or_else(|| "variable".to_string(), |w| w.to_string()),
        };
        let encoding = if f.attributes.is_empty() {
            "natural".to_string()
        } else {
            f.attributes
                .iter()
                .map(|a| format!("`#[{a}]`"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let order = match f.order {
            Order::Ascending => "ascending",
            Order::Descending => "descending",
            Order::Unordered => "equality only",
        };
        out.push_str(&format!(
            "| {row} | `{}` | `{ty}` | {width} | {encoding} | {order} |\n",
            f.ident
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
                .map(|f| {
                    format!(
                        "`{}: {}`",
                        f.ident,
                        quote::ToTokens::to_token_stream(f.ty)
                            .to_string()
                            .replace(' ', "")
                    )
                })
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
    out
}

/// A record type's selector method: its name in `snake_case` (see `ast::snake_case`), raw
/// when that is a keyword (`Type` -> `r#type`).
fn selector(ident: &syn::Ident) -> syn::Ident {
    let name = crate::ast::selector_name(ident);
    syn::parse_str::<syn::Ident>(&name).unwrap_or_else(|_| syn::Ident::new_raw(&name, ident.span()))
}

/// One impl per field: `impl Scan<i> { fn field(self, value or range) -> Scan<i + 1> or ScanRange }`.
fn steps(
    scan: &syn::Ident,
    fields: &[KeyField],
    salt_field: Option<usize>,
    buckets: u16,
) -> TokenStream {
    let p = private();
    let steps = fields.iter().enumerate().map(|(i, f)| {
        let name = f.ident;
        let codec = codec_ty(f);
        let (arg, lifetime) = arg_type(f);
        let lt = if lifetime { quote!('__rowkey_a,) } else { quote!() };
        let next = i + 1;
        let salt_known = if salt_field == Some(i) { quote!(.salt_known()) } else { quote!() };
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
                #[doc = #doc]
                #[inline]
                #[must_use]
                pub fn #name<#lt __RowkeyArg: #p::ScanValue<#arg>>(self, value: __RowkeyArg) -> #scan<#next> {
                    let __rowkey_v: #arg = #p::ScanValue::into_value(value);
                    #scan { st: self.st.eq::<#codec, #arg>(&__rowkey_v) #salt_known }
                }
            }
        } else {
            quote! {
                #[doc = #doc]
                #[inline]
                #[must_use]
                pub fn #name<#lt __RowkeyArg: #p::ScanArg<#arg>>(
                    self,
                    arg: __RowkeyArg,
                ) -> <__RowkeyArg as #p::ScanArg<#arg>>::Out<#scan<#next>, #p::ScanRange> {
                    #p::ScanArg::dispatch(
                        arg,
                        self.st,
                        |__rowkey_st: #p::ScanState<#buckets>, __rowkey_v: #arg| #scan {
                            st: __rowkey_st.eq::<#codec, #arg>(&__rowkey_v) #salt_known,
                        },
                        |__rowkey_st: #p::ScanState<#buckets>, __rowkey_lo, __rowkey_hi| {
                            __rowkey_st.range::<#codec, #arg>(__rowkey_lo, __rowkey_hi)
                        },
                    )
                }
            }
        };
        quote! {
            #[automatically_derived]
            impl #scan<#i> {
                #method
            }
        }
    });
    quote!(#(#steps)*)
}

/// A builder type: `struct Scan<const STEP: usize>` with `ranges()` at every step.
fn builder(vis: &syn::Visibility, scan: &syn::Ident, doc: &str, buckets: u16) -> TokenStream {
    let p = private();
    quote! {
        #[doc = #doc]
        #[derive(Clone)]
        #[allow(non_camel_case_types)]
        #vis struct #scan<const STEP: #p::usize> {
            st: #p::ScanState<#buckets>,
        }

        #[automatically_derived]
        impl<const STEP: #p::usize> #scan<STEP> {
            /// The key ranges of every key whose leading fields are the ones fixed so far, in
            /// key order.
            #[inline]
            #[must_use]
            pub fn ranges(self) -> #p::KeyRanges {
                self.st.ranges()
            }
        }
    }
}

pub fn expand(key: &Key) -> TokenStream {
    let p = private();
    let ident = key.ident;
    let vis = key.vis;
    let scan = format_ident!("{}Scan", ident);
    let (impl_generics, ty_generics, where_clause) = key.generics.split_for_impl();
    let buckets = key.salt.as_ref().map_or(0u16, |s| s.buckets);
    let layout = layout_doc(key);
    let names: Vec<String> = key
        .fields
        .iter()
        .map(|f| format!("`{}`", f.ident))
        .collect();
    let salt_field = key.salt.as_ref().map(|s| s.field);
    let prefix_steps = steps(&scan, &key.fields, salt_field, buckets);
    let k = key.fields.len();

    let (order_doc, records) = match &key.variants {
        None => (names.join(", "), quote!()),
        Some(variants) => {
            let mut selectors = Vec::new();
            let mut builders = Vec::new();
            for v in variants {
                let vscan = format_ident!("{}{}Scan", ident, v.ident);
                let method = selector(v.ident);
                let tag = v.tag;
                let vnames: Vec<String> =
                    v.fields.iter().map(|f| format!("`{}`", f.ident)).collect();
                let sel_doc = format!(
                    "Narrows the scan to `{}` records (tag {tag}) and continues with their own fields ({}).",
                    v.ident,
                    if vnames.is_empty() { "none".to_string() } else { vnames.join(", ") }
                );
                selectors.push(quote! {
                    #[doc = #sel_doc]
                    #[inline]
                    #[must_use]
                    pub fn #method(self) -> #vscan<0> {
                        #vscan { st: self.st.eq::<#p::Natural, #p::u8>(&#tag) }
                    }
                });
                let bdoc = format!(
                    "The typed scan builder of `{ident}::{}` records, from [`{scan}::{method}`]: fix its fields in order, optionally end with a range, then call `ranges()`.",
                    v.ident
                );
                builders.push(builder(vis, &vscan, &bdoc, buckets));
                builders.push(steps(&vscan, &v.fields, None, buckets));
            }
            let tag_doc = "Narrows the scan to one record type by its tag byte, or, given a range of tags, to several; ends the scan.";
            let selectors = quote! {
                #[automatically_derived]
                impl #scan<#k> {
                    #(#selectors)*

                    #[doc = #tag_doc]
                    #[inline]
                    #[must_use]
                    pub fn tag<__RowkeyArg: #p::ScanArg<#p::u8>>(
                        self,
                        arg: __RowkeyArg,
                    ) -> <__RowkeyArg as #p::ScanArg<#p::u8>>::Out<#scan<{ #k + 1 }>, #p::ScanRange> {
                        #p::ScanArg::dispatch(
                            arg,
                            self.st,
                            |__rowkey_st: #p::ScanState<#buckets>, __rowkey_v: #p::u8| #scan {
                                st: __rowkey_st.eq::<#p::Natural, #p::u8>(&__rowkey_v),
                            },
                            |__rowkey_st: #p::ScanState<#buckets>, __rowkey_lo, __rowkey_hi| {
                                __rowkey_st.range::<#p::Natural, #p::u8>(__rowkey_lo, __rowkey_hi)
                            },
                        )
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
    let scan_doc =
        format!(
        "Starts a prefix scan of `{ident}` keys. With no field fixed, `ranges()` covers the whole \
         table{}.\n\n# Layout\n\n{layout}",
        if buckets > 0 { format!(" (one range per salt bucket, {buckets})") } else { String::new() }
    );
    let value_arg_generics = key.generics.lifetimes().map(|l| &l.lifetime);
    let main_builder = builder(vis, &scan, &struct_doc, buckets);

    quote! {
        #main_builder
        #prefix_steps
        #records

        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #scan_doc]
            #[inline]
            #[must_use]
            #vis fn scan() -> #scan<0> {
                #scan { st: #p::ScanState::new() }
            }
        }

        #p::__scan_arg! {
            [#(#value_arg_generics),*] #ident #ty_generics, #ident #ty_generics => |s| s;
        }
    }
}
