//! The `Decode` impl: one codec read per field, errors attributed to the field; for an enum, the
//! shared prefix, then the tag byte chooses the record type.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{GenericParam, LifetimeParam};

use super::{codec_ty, local, private, private_at};
use crate::model::{Key, KeyField};

/// The expression reading one field (returning early on error): one runtime call, which
/// attributes errors to the field.
fn read(field: &KeyField) -> TokenStream {
    let codec = codec_ty(field);
    let ty = field.ty;
    let label = super::name(field.ident);
    let ps = private_at(field.krate, field.ty_span);
    let call = quote_spanned!(field.ty_span=> #ps::read::<#codec, #ty, _>);
    quote!(#call(__rowkey_src, #label)?)
}

pub fn expand(key: &Key) -> TokenStream {
    let p = private(key.krate);
    let ident = key.ident;
    let de = super::de_lifetime(key.generics);
    // The input must outlive every borrowed field: `'de: 'a` for each lifetime.
    let mut generics = key.generics.clone();
    let mut de_param = LifetimeParam::new(de.clone());
    de_param
        .bounds
        .extend(generics.lifetimes().map(|l| l.lifetime.clone()));
    generics.params.insert(0, GenericParam::Lifetime(de_param));
    let (impl_generics, _, _) = generics.split_for_impl();
    let (_, ty_generics, where_clause) = key.generics.split_for_impl();

    let body = match &key.variants {
        None => {
            let fields = key.fields.iter().map(|f| {
                let name = f.ident;
                let r = read(f);
                quote!(#name: #r,)
            });
            // Struct expressions evaluate their fields in the order written: key order.
            quote!(#p::Ok(Self { #(#fields)* }))
        }
        Some(variants) => {
            let prefix = key.fields.iter().map(|f| {
                let l = local(f);
                let r = read(f);
                quote!(let #l = #r;)
            });
            let arms = variants.iter().map(|v| {
                let vi = v.ident;
                let tag = v.tag;
                let shared = v.prefix.iter().zip(&key.fields).map(|(name, f)| {
                    let l = local(f);
                    quote!(#name: #l,)
                });
                let own = v.fields.iter().map(|f| {
                    let name = f.ident;
                    let r = read(f);
                    quote!(#name: #r,)
                });
                quote!(#tag => #p::Ok(Self::#vi { #(#shared)* #(#own)* }),)
            });
            quote! {
                #(#prefix)*
                let (__rowkey_at, __rowkey_tag) = #p::read_tag(__rowkey_src)?;
                match __rowkey_tag {
                    #(#arms)*
                    __rowkey_tag => #p::Err(#p::unknown_tag(__rowkey_at, __rowkey_tag)),
                }
            }
        }
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::Decode<#de> for #ident #ty_generics #where_clause {
            #[inline(always)]
            fn read<R: #p::Source<#de>>(src: &mut R) -> #p::Result<Self, #p::DecodeError> {
                let __rowkey_src = src;
                #body
            }
        }
    }
}
