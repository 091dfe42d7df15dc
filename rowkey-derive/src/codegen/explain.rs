//! `T::explain(&[u8])` and the `Explain` impl that shows a nested key's fields.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::visit_mut::VisitMut;
use syn::{Lifetime, Type};

use super::{bind, codec_ty, local, private, private_at, variant_match};
use crate::ast::TyClass;
use crate::model::{Key, KeyField};

/// Sets every lifetime in a type to the input's.
struct ToInput<'a>(&'a Lifetime);

impl VisitMut for ToInput<'_> {
    fn visit_lifetime_mut(&mut self, l: &mut Lifetime) {
        *l = self.0.clone();
    }
}

/// The type a field is read as for explaining: `Cow` for text and bytes, so that escaped bytes
/// are shown rather than refused; the field's own type otherwise.
fn shown_type(field: &KeyField, de: &Lifetime) -> Type {
    match field.class {
        TyClass::Text { .. } => {
            syn::parse_quote!(::std::borrow::Cow<#de, ::core::primitive::str>)
        }
        TyClass::Bytes { .. } => {
            syn::parse_quote!(::std::borrow::Cow<#de, [::core::primitive::u8]>)
        }
        _ => {
            let mut ty = field.ty.clone();
            ToInput(de).visit_type_mut(&mut ty);
            ty
        }
    }
}

pub fn expand(key: &Key) -> TokenStream {
    let p = private(key.krate);
    let ident = key.ident;
    let vis = key.vis;
    let (impl_generics, ty_generics, where_clause) = key.generics.split_for_impl();
    let de = super::de_lifetime(key.generics);
    let reads_of = |fields: &[KeyField]| {
        let reads = fields.iter().map(|f| {
            let codec = codec_ty(f);
            let ty = shown_type(f, &de);
            quote!(__rowkey_ex.field::<#codec, #ty>();)
        });
        quote!(#(#reads)*)
    };
    // One runtime call per key: the name, then each field's name and value as `&dyn Explain`,
    // the cast spanned at the field's type so a type that cannot be shown is reported there.
    let shows_of = |name: String, fields: Vec<&KeyField>| {
        let shows = fields.iter().map(|f| {
            // The call names the type, spanned at it, so a type that cannot be shown is
            // reported there; the local keeps the span it was bound with (macro hygiene
            // compares spans: a key declared in `macro_rules!` breaks if they differ).
            let l = local(f);
            let label = super::name(f.ident);
            let pt = private_at(f.krate, f.ty_span);
            let ty = f.ty;
            let call = quote_spanned!(f.ty_span=> #pt::shown::<#ty>);
            let show = quote!(#call(#l));
            quote!((#label, #show))
        });
        quote! {
            #p::explain_fields(__rowkey_out, #name, &[#(#shows),*]);
        }
    };
    let prefix_reads = reads_of(&key.fields);
    let (reads, show) = match &key.variants {
        None => {
            let bind_all = bind(key, &key.fields);
            let show = shows_of(ident.to_string(), key.fields.iter().collect());
            (prefix_reads, quote!(#bind_all #show))
        }
        Some(variants) => {
            let arms = variants.iter().map(|v| {
                let tag = v.tag;
                let own = reads_of(&v.fields);
                quote!(#p::Some(#tag) => { #own })
            });
            let show = variant_match(key, true, |v| {
                shows_of(
                    format!("{ident}::{}", v.ident),
                    key.fields.iter().chain(&v.fields).collect(),
                )
            });
            (
                quote! {
                    #prefix_reads
                    match __rowkey_ex.tag() {
                        #(#arms)*
                        _ => {}
                    }
                },
                show,
            )
        }
    };
    let doc = format!(
        "Explains a `{ident}` key field by field: offsets, the raw bytes as HBase prints them, \
         the decoded values and attributes, the salt byte checked against the salted fields, and \
         where and why a key that does not parse stops parsing."
    );
    quote! {
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #doc]
            #[must_use]
            // Inline: compiled where it is called, so a crate of many keys that never explains
            // one does not compile every explainer (measured in benches/derive_cost).
            #[inline]
            #vis fn explain<#de>(bytes: &#de [::core::primitive::u8]) -> ::std::string::String {
                let mut __rowkey_ex = #p::Explainer::new(bytes, <Self as #p::RowKey>::SCHEMA);
                #reads
                __rowkey_ex.finish()
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::Explain for #ident #ty_generics #where_clause {
            #[inline]
            fn explain(&self, out: &mut ::std::string::String) {
                let __rowkey_out = out;
                #show
            }
        }
    }
}
