//! Turns the model into tokens: the `Encode`, `Decode` and `RowKey` impls. The generated code
//! is thin: one runtime codec call per field, every path fully qualified through the runtime's
//! hidden `__private` module, every local prefixed `__rowkey_`.

mod decode;
mod encode;
mod explain;
mod scan;
mod schema;

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::model::{Codec, Key, KeyField};

/// The runtime's hidden module, as generated code names it.
pub fn private() -> TokenStream {
    quote!(::rowkey::__private)
}

/// The same path with every token spanned at `span`, so errors land there.
pub fn private_at(span: proc_macro2::Span) -> TokenStream {
    quote_spanned!(span=> ::rowkey::__private)
}

/// The codec type of a field: `Desc<Fixed<16>>` for `#[desc] #[fixed(16)]`.
pub fn codec_ty(field: &KeyField) -> TokenStream {
    let p = private_at(field.ty.span());
    let base = match field.codec {
        Codec::Natural => quote!(#p::Natural),
        Codec::Fixed(n) => quote!(#p::Fixed<#n>),
        Codec::MaxLen(n) => quote!(#p::MaxLen<#n>),
        Codec::ReverseTs => quote!(#p::ReverseTs),
        Codec::Reverse => quote!(#p::Reverse),
        Codec::Md5(n) => quote!(#p::Md5<#n>),
    };
    if field.desc {
        quote!(#p::Desc<#base>)
    } else {
        base
    }
}

/// `<Codec as Codec<FieldType>>`, the path every per-field call goes through. Spanned at the
/// field's type, so a type the codec cannot encode is reported there.
pub fn codec_of(field: &KeyField) -> TokenStream {
    let p = private_at(field.ty.span());
    let c = codec_ty(field);
    let ty = field.ty;
    quote_spanned!(ty.span()=> <#c as #p::Codec<#ty>>)
}

pub fn expand(key: &Key) -> TokenStream {
    let encode = encode::expand(key);
    let decode = decode::expand(key);
    let rowkey = schema::expand(key);
    let scan = scan::expand(key);
    let explain = explain::expand(key);
    quote! {
        #scan

        #[doc(hidden)]
        const _: () = {
            #encode
            #decode
            #rowkey
            #explain
        };
    }
}
