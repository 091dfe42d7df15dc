//! `T::explain(&[u8])` and the `Explain` impl that shows a nested key's fields.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::visit_mut::VisitMut;
use syn::{Lifetime, Type};

use super::{codec_ty, private};
use crate::ast::TyClass;
use crate::model::{Key, KeyField};

/// Sets every lifetime in a type to `'__rowkey_de`, the input's.
struct ToInput;

impl VisitMut for ToInput {
    fn visit_lifetime_mut(&mut self, l: &mut Lifetime) {
        *l = Lifetime::new("'__rowkey_de", Span::call_site());
    }
}

/// The type a field is read as for explaining: `Cow` for text and bytes, so that escaped bytes
/// are shown rather than refused; the field's own type otherwise.
fn shown_type(field: &KeyField) -> Type {
    match field.class {
        TyClass::Text { .. } => {
            syn::parse_quote!(::std::borrow::Cow<'__rowkey_de, ::core::primitive::str>)
        }
        TyClass::Bytes { .. } => {
            syn::parse_quote!(::std::borrow::Cow<'__rowkey_de, [::core::primitive::u8]>)
        }
        _ => {
            let mut ty = field.ty.clone();
            ToInput.visit_type_mut(&mut ty);
            ty
        }
    }
}

pub fn expand(key: &Key) -> TokenStream {
    let p = private();
    let ident = key.ident;
    let vis = key.vis;
    let (impl_generics, ty_generics, where_clause) = key.generics.split_for_impl();
    let reads = key.fields.iter().map(|f| {
        let codec = codec_ty(f);
        let ty = shown_type(f);
        quote!(__rowkey_ex.field::<#codec, #ty>();)
    });
    let shows = key.fields.iter().enumerate().map(|(i, f)| {
        let name = f.ident;
        let label = format!("{}{name}: ", if i == 0 { "" } else { ", " });
        quote! {
            __rowkey_out.push_str(#label);
            #p::Explain::explain(&self.#name, __rowkey_out);
        }
    });
    let open = format!("{ident} {{ ");
    let doc = format!(
        "Explains a `{ident}` key field by field: offsets, the raw bytes as HBase prints them, \
         the decoded values and attributes, the salt byte checked against the salted fields, and \
         where and why a key that does not parse stops parsing."
    );
    quote! {
        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #doc]
            #[must_use]
            #vis fn explain<'__rowkey_de>(bytes: &'__rowkey_de [::core::primitive::u8]) -> ::std::string::String {
                let mut __rowkey_ex = #p::Explainer::new(bytes, <Self as #p::RowKey>::SCHEMA);
                #(#reads)*
                __rowkey_ex.finish()
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::Explain for #ident #ty_generics #where_clause {
            fn explain(&self, __rowkey_out: &mut ::std::string::String) {
                __rowkey_out.push_str(#open);
                #(#shows)*
                __rowkey_out.push_str(" }");
            }
        }
    }
}
