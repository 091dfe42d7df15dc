//! The `Encode` impl: validated width, and the writes split at the salted field.

use proc_macro2::TokenStream;
use quote::quote;

use super::{codec_of, private};
use crate::model::{Key, KeyField};

/// `Some(0) + w0 + w1 + ...` over the codecs' width constants.
pub fn width_sum(fields: &[KeyField], constant: &str) -> TokenStream {
    let p = private();
    let c = syn::Ident::new(constant, proc_macro2::Span::call_site());
    fields.iter().fold(quote!(#p::Some(0usize)), |acc, f| {
        let codec = codec_of(f);
        quote!(#p::add(#acc, #codec::#c))
    })
}

pub fn writes(fields: &[KeyField]) -> TokenStream {
    let calls = fields.iter().map(|f| {
        let codec = codec_of(f);
        let name = f.ident;
        quote!(#codec::write(&self.#name, __rowkey_sink);)
    });
    quote!(#(#calls)*)
}

pub fn expand(key: &Key) -> TokenStream {
    let p = private();
    let ident = key.ident;
    let (impl_generics, ty_generics, where_clause) = key.generics.split_for_impl();
    let fixed = width_sum(&key.fields, "FIXED_WIDTH");
    let max = width_sum(&key.fields, "MAX_WIDTH");
    let widths = key.fields.iter().map(|f| {
        let codec = codec_of(f);
        let name = f.ident;
        let label = name.to_string();
        quote! {
            __rowkey_n += match #codec::width(&self.#name) {
                #p::Ok(__rowkey_w) => __rowkey_w,
                #p::Err(__rowkey_e) => {
                    return #p::Err(__rowkey_e.in_field(#label).within(__rowkey_n));
                }
            };
        }
    });
    let encoding = format!("nested key `{ident}`");
    let domain = match key.fields.first() {
        Some(f) => {
            let codec = codec_of(f);
            quote!(#codec::DOMAIN)
        }
        None => quote!(#p::Domain::full(1)),
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::Encode for #ident #ty_generics #where_clause {
            const FIXED_WIDTH: #p::Option<#p::usize> = #fixed;
            const MAX_WIDTH: #p::Option<#p::usize> = #max;
            const ENCODING: &'static #p::str = #encoding;
            const NESTED: #p::Option<&'static #p::Schema> =
                #p::Some(<Self as #p::RowKey>::SCHEMA);
            const DOMAIN: #p::Domain = #domain;

            #[inline]
            fn encoded_width(&self) -> #p::Result<#p::usize, #p::EncodeError> {
                let mut __rowkey_n = 0usize;
                #(#widths)*
                #p::Ok(__rowkey_n)
            }

            #[inline]
            fn write<__RowkeySink: #p::Sink>(&self, __rowkey_sink: &mut __RowkeySink) {
                #p::RowKey::__write_head(self, __rowkey_sink);
                #p::RowKey::__write_tail(self, __rowkey_sink);
            }
        }

    }
}
