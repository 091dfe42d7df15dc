//! The `Decode` impl: one codec read per field, errors attributed to the field.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{GenericParam, Lifetime, LifetimeParam};

use super::{codec_ty, private};
use crate::model::Key;

pub fn expand(key: &Key) -> TokenStream {
    let p = private();
    let ident = key.ident;
    let de = Lifetime::new("'__rowkey_de", Span::call_site());
    // The input must outlive every borrowed field: `'__rowkey_de: 'a` for each lifetime.
    let mut generics = key.generics.clone();
    let mut de_param = LifetimeParam::new(de.clone());
    de_param
        .bounds
        .extend(generics.lifetimes().map(|l| l.lifetime.clone()));
    generics.params.insert(0, GenericParam::Lifetime(de_param));
    let (impl_generics, _, _) = generics.split_for_impl();
    let (_, ty_generics, where_clause) = key.generics.split_for_impl();

    let reads = key.fields.iter().map(|f| {
        let codec = codec_ty(f);
        let ty = f.ty;
        let name = f.ident;
        let label = name.to_string();
        let ps = super::private_at(ty.span());
        let read = quote_spanned!(ty.span()=> <#codec as #ps::CodecDecode<#de, #ty>>::read);
        quote! {
            #name: match #read(__rowkey_src) {
                #p::Ok(__rowkey_v) => __rowkey_v,
                #p::Err(__rowkey_e) => return #p::Err(__rowkey_e.in_field(#label)),
            },
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::Decode<#de> for #ident #ty_generics #where_clause {
            #[inline]
            fn read<__RowkeySrc: #p::Source<#de>>(
                __rowkey_src: &mut __RowkeySrc,
            ) -> #p::Result<Self, #p::DecodeError> {
                // Struct expressions evaluate their fields in the order written: key order.
                #p::Ok(Self { #(#reads)* })
            }
        }
    }
}
