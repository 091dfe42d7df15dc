//! The `Encode` impl: validated width, and the field writes the `RowKey` impl splits at the
//! salted field.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::{bind, codec_of, codec_ty, local, private, variant_match, Krate};
use crate::model::{Key, KeyField};

/// `sum(&[w0, w1, ...])` over the codecs' width constants.
pub fn width_sum(krate: Krate, fields: &[KeyField], constant: &str) -> TokenStream {
    let p = private(krate);
    let c = syn::Ident::new(constant, proc_macro2::Span::call_site());
    let widths = fields.iter().map(|f| {
        let codec = codec_of(f);
        quote!(#codec::#c)
    });
    quote!(#p::sum(&[#(#widths),*]))
}

/// One write per field, from the fields' bound locals.
pub fn writes(fields: &[KeyField]) -> TokenStream {
    let calls = fields.iter().map(|f| {
        let codec = codec_of(f);
        let l = local(f);
        quote!(#codec::write(#l, __rowkey_sink);)
    });
    quote!(#(#calls)*)
}

/// Adds each field's checked width to `__rowkey_n` (the runtime attributes errors to the field
/// and offset): one call per field.
fn widths(krate: Krate, fields: &[KeyField]) -> TokenStream {
    let p = private(krate);
    let steps = fields.iter().map(|f| {
        let codec = codec_ty(f);
        let ty = f.ty;
        let l = local(f);
        let label = super::name(f.ident);
        let call = quote_spanned!(f.ty_span=> #p::width::<#codec, #ty>);
        quote! {
            __rowkey_n = #call(#l, __rowkey_n, #label)?;
        }
    });
    quote!(#(#steps)*)
}

pub fn expand(key: &Key) -> TokenStream {
    let p = private(key.krate);
    let ident = key.ident;
    let (impl_generics, ty_generics, where_clause) = key.generics.split_for_impl();
    let prefix_fixed = width_sum(key.krate, &key.fields, "FIXED_WIDTH");
    let prefix_max = width_sum(key.krate, &key.fields, "MAX_WIDTH");
    let bind_all = bind(key, &key.fields);
    let prefix_widths = widths(key.krate, &key.fields);
    let (fixed, max, rest) = match &key.variants {
        None => (prefix_fixed, prefix_max, quote!()),
        Some(variants) => {
            // [prefix][tag][fields]: fixed only if every record type has the same width.
            let mut vf = variants
                .iter()
                .map(|v| width_sum(key.krate, &v.fields, "FIXED_WIDTH"));
            let first = vf.next().unwrap_or_else(|| quote!(#p::Some(0usize)));
            let same = vf.fold(first, |acc, w| quote!(#p::same(#acc, #w)));
            let most = variants
                .iter()
                .map(|v| width_sum(key.krate, &v.fields, "MAX_WIDTH"))
                .fold(
                    quote!(#p::Some(0usize)),
                    |acc, w| quote!(#p::most(#acc, #w)),
                );
            let tail = variant_match(key, false, |v| widths(key.krate, &v.fields));
            (
                quote!(#p::add(#prefix_fixed, #p::add(#p::Some(1usize), #same))),
                quote!(#p::add(#prefix_max, #p::add(#p::Some(1usize), #most))),
                quote! {
                    __rowkey_n += 1;
                    #tail
                },
            )
        }
    };
    let encoding = format!("nested key `{ident}`");
    // A key whose bytes are whole only as a key is refused as another key's field.
    let not_nested = if key.fields.iter().any(|f| f.text.is_some()) {
        Some(format!(
            "`{ident}` is a text key (`#[rowkey(delimiter = ...)]`): its text is delimited only inside its own key, so it cannot be a field of another key; declare its fields in the other key instead"
        ))
    } else if key.hash_prefix.is_some() {
        Some(format!(
            "`{ident}` starts with a hash prefix (`#[rowkey(hash_prefix(...))]`), which only a whole key holds: it cannot be a field of another key"
        ))
    } else if key
        .fields
        .iter()
        .any(|f| matches!(f.codec, crate::encoding::Encoding::Rest))
    {
        Some(format!(
            "`{ident}` ends with a field that takes the rest of the key (`#[rest]`), so nothing could follow it: it cannot be a field of another key"
        ))
    } else {
        None
    }
    .map(|why| quote!(const __NOT_NESTED: &'static #p::str = #why;));
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
            const LAYOUT: #p::TypeLayout =
                #p::TypeLayout::key(<Self as #p::RowKey>::FINGERPRINT);
            #not_nested

            #[inline]
            fn encoded_width(&self) -> #p::Result<#p::usize, #p::EncodeError> {
                let mut __rowkey_n = 0usize;
                #bind_all
                #prefix_widths
                #rest
                #p::Ok(__rowkey_n)
            }

            #[inline]
            fn write<S: #p::Sink>(&self, sink: &mut S) {
                #p::RowKey::__write_head(self, sink);
                #p::RowKey::__write_tail(self, sink);
            }
        }
    }
}
