//! The typed skip-scan query builder: `T::query()` and `TQuery`, one method per field (in any
//! order, any subset) and `_in` for lists; each body is one runtime call
//! (`rowkey::__private::QueryBuilder`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::scan::arg_type;
use super::{codec_ty, private};
use crate::ast::TyClass;
use crate::model::{Key, KeyField, Order};

pub fn expand(key: &Key) -> TokenStream {
    // Only on request (`#[rowkey(query)]`), on an owned key (validation says why not
    // otherwise).
    if !key.query || !key.generics.params.is_empty() {
        return quote!();
    }
    let p = private(key.krate);
    // The public paths, for what rustdoc shows (`rowkey::QueryArg`, `rowkey::Query`).
    let krate = match key.krate {
        Some(path) => quote!(#path),
        None => quote!(::rowkey),
    };
    let ident = key.ident;
    let vis = key.vis;
    let query = format_ident!("{}Query", ident);
    let prefix = field_methods(&key.fields, 0, &p, &krate);
    let build = quote! {
        /// The query, its plan shown by `Display`; a table of another key type refuses it.
        #[inline]
        #[must_use]
        pub fn build(self) -> #krate::TypedQuery<#ident> {
            #krate::TypedQuery::new(self.__rowkey_q.build())
        }
    };
    let (records, record_builders) = match &key.variants {
        None => (quote!(), quote!()),
        Some(variants) => {
            let tag_index = key.fields.len();
            let mut selectors = Vec::new();
            let mut builders = Vec::new();
            for v in variants {
                let method = super::scan::selector(v.ident);
                let tag = v.tag;
                let vquery = format_ident!("{}{}", query, v.ident);
                let own = field_methods(&v.fields, tag_index + 1, &p, &krate);
                let sel_doc = format!(
                    "Only `{}` records (tag {tag}); continues with their own fields.",
                    v.ident
                );
                selectors.push(quote! {
                    #[doc = #sel_doc]
                    #[inline]
                    #[must_use]
                    pub fn #method(mut self) -> #vquery {
                        self.__rowkey_q.record(#tag);
                        #vquery { __rowkey_q: self.__rowkey_q }
                    }
                });
                let doc = format!(
                    "A skip-scan query over the `{}` records of [`{ident}`] keys, from \
                     [`{query}::{method}`]: the shared prefix's fields and the record's own, in \
                     any order, each equal to a value, in a list or in a range; then `build()`.",
                    v.ident
                );
                builders.push(quote! {
                    #[doc = #doc]
                    #[derive(Clone)]
                    #vis struct #vquery {
                        __rowkey_q: #p::QueryBuilder,
                    }

                    impl #vquery {
                        #prefix
                        #own
                        #build
                    }
                });
            }
            let records = quote! {
                #(#selectors)*

                /// Only records whose tag byte is `arg`, or lies in it when it is a range.
                #[inline]
                #[must_use]
                pub fn tag<A: #krate::QueryArg<#p::u8>>(mut self, arg: A) -> Self {
                    self.__rowkey_q.arg::<#p::Natural, #p::u8, A>(#tag_index, arg);
                    self
                }

                /// Only records whose tag byte is one of `values`.
                #[inline]
                #[must_use]
                pub fn tag_in<I: ::core::iter::IntoIterator<Item = #p::u8>>(mut self, values: I) -> Self {
                    self.__rowkey_q.any_of::<#p::Natural, #p::u8>(#tag_index, values);
                    self
                }
            };
            (records, quote!(#(#builders)*))
        }
    };
    let struct_doc = format!(
        "A skip-scan query over [`{ident}`] keys, from [`{ident}::query`]: any fields, in any \
         order, each equal to a value, in a list (`field_in`) or in a range; then `build()`, \
         and read it with `Table::query`. Keys outside the query are sought past, not read: a \
         field left open before constrained ones costs a seek per value it holds."
    );
    // A hash-prefixed key: the hashed field's values fix the prefix (the same hash the key
    // writes, of the field's own bytes).
    let hashed = key.hash_prefix.as_ref().map(|hp| {
        let of = &key.fields[hp.of];
        let field = hp.of;
        let codec = codec_ty(of);
        let bare = KeyField {
            text: None,
            ..of.clone()
        };
        let own = codec_ty(&bare);
        let ty = of.ty;
        let (len, hex) = (hp.len, hp.hex);
        let delimiter = match hp.delimiter {
            Some(d) => quote!(#p::Some(#d)),
            None => quote!(#p::None),
        };
        quote! {
            .hashed(#field, |__rowkey_encoded| {
                #p::hash_prefix_of::<#codec, #own, #ty>(__rowkey_encoded, #len, #hex, #delimiter)
            })
        }
    });
    // The run-time hook (`DynQuery`): each leading field through its own codec, when its type
    // converts from a run-time value (the probe refuses the others).
    let dyn_arms = key.fields.iter().enumerate().filter(|(_, f)| !matches!(f.order, Order::Unordered)).map(|(i, f)| {
        let codec = codec_ty(f);
        let arg = arg_type(f);
        quote! {
            #i => (&#p::DynProbe::<#codec, #arg>::NEW).__rowkey_constrain(__rowkey_q, #i, __rowkey_arg, true),
        }
    });
    let query_doc = format!(
        "Starts a skip-scan query of `{ident}` keys: every field open until constrained (see \
         [`{query}`])."
    );
    quote! {
        #[doc = #struct_doc]
        #[derive(Clone)]
        #vis struct #query {
            __rowkey_q: #p::QueryBuilder,
        }

        impl #ident {
            #[doc = #query_doc]
            #[inline]
            #[must_use]
            #vis fn query() -> #query {
                #query {
                    __rowkey_q: <#ident as #krate::QueryKey>::__query(),
                }
            }
        }

        impl #krate::QueryKey for #ident {
            fn __query() -> #p::QueryBuilder {
                #p::QueryBuilder::new(
                    <#ident as #p::RowKey>::SCHEMA,
                    <#ident as #p::RowKey>::__SALT_HASH,
                    #p::segment_ends::<#ident>,
                )#hashed
            }

            fn __constrain<'scan>(
                __rowkey_q: &mut #p::QueryBuilder,
                __rowkey_field: #p::usize,
                __rowkey_arg: #krate::DynArg<'scan>,
            ) -> #p::bool {
                #[allow(unused_imports)]
                use #p::{DynConstrain as _, DynRefuse as _};
                match __rowkey_field {
                    #(#dyn_arms)*
                    _ => false,
                }
            }
        }

        impl #query {
            #prefix
            #records
            #build
        }

        #record_builders
    }
}

/// The methods of `fields`, field number `offset` first: `field(value or range)` (a value only
/// for a field that does not keep order) and `field_in(values)`.
fn field_methods(
    fields: &[KeyField],
    offset: usize,
    p: &super::Private<'_>,
    krate: &TokenStream,
) -> TokenStream {
    let methods = fields.iter().enumerate().map(|(i, f)| {
        let i = offset + i;
        let name = f.ident;
        let shown = super::name(f.ident);
        let list = format_ident!("{}_in", shown);
        let codec = codec_ty(f);
        let arg = arg_type(f);
        // The builder borrows nothing: `'scan` is only the lifetime of a text or bytes argument.
        let lt = matches!(f.class, TyClass::Text { .. } | TyClass::Bytes { .. }).then(|| quote!('scan,));
        let one = if matches!(f.order, Order::Unordered) {
            let doc = format!(
                "Only keys whose `{shown}` is `value` (this field does not keep order, so it \
                 takes no range). The other fields stay open unless constrained too; a field \
                 constrained twice keeps what both allow."
            );
            quote! {
                #[doc = #doc]
                #[inline]
                #[must_use]
                pub fn #name<#lt A: #p::ScanValue<#arg>>(mut self, value: A) -> Self {
                    self.__rowkey_q.value::<#codec, #arg, A>(#i, value);
                    self
                }
            }
        } else {
            let doc = format!(
                "Only keys whose `{shown}` is `arg`, or lies in it when it is a range (`a..b`, \
                 `a..=b`, `a..`, `..b`). The other fields stay open unless constrained too; a \
                 field constrained twice keeps what both allow."
            );
            quote! {
                #[doc = #doc]
                #[inline]
                #[must_use]
                pub fn #name<#lt A: #krate::QueryArg<#arg>>(mut self, arg: A) -> Self {
                    self.__rowkey_q.arg::<#codec, #arg, A>(#i, arg);
                    self
                }
            }
        };
        let list_doc = format!(
            "Only keys whose `{shown}` is one of `values` (none given: no key matches)."
        );
        quote! {
            #one

            #[doc = #list_doc]
            #[inline]
            #[must_use]
            pub fn #list<#lt I: ::core::iter::IntoIterator<Item = #arg>>(mut self, values: I) -> Self {
                self.__rowkey_q.any_of::<#codec, #arg>(#i, values);
                self
            }
        }
    });
    quote!(#(#methods)*)
}
