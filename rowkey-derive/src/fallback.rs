//! What is emitted when the input has errors: the errors, plus stub impls so that the user's
//! other uses of the type (`Key::decode`, `key.to_bytes()`, `Key::MAX_LEN`) do not fail in a
//! cascade of follow-on errors. The stubs are never compiled into a program, since the errors
//! stop the build.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{DeriveInput, GenericParam, Lifetime, LifetimeParam};

use crate::codegen::private;

pub fn expand(input: &DeriveInput, error: syn::Error) -> TokenStream {
    let p = private();
    let ident = &input.ident;
    let error = error.to_compile_error();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let de = Lifetime::new("'__rowkey_de", Span::call_site());
    let mut generics = input.generics.clone();
    generics
        .params
        .insert(0, GenericParam::Lifetime(LifetimeParam::new(de.clone())));
    let (de_impl_generics, _, _) = generics.split_for_impl();
    let name = ident.to_string();
    quote! {
        #error

        #[allow(unused_qualifications, unreachable_code, clippy::all)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::Encode for #ident #ty_generics #where_clause {
                const FIXED_WIDTH: #p::Option<#p::usize> = #p::None;
                const MAX_WIDTH: #p::Option<#p::usize> = #p::None;
                const ENCODING: &'static #p::str = "";
                const DOMAIN: #p::Domain = #p::Domain::full(1);
                fn encoded_width(&self) -> #p::Result<#p::usize, #p::EncodeError> {
                    ::core::unreachable!()
                }
                fn write<__RowkeySink: #p::Sink>(&self, _: &mut __RowkeySink) {
                    ::core::unreachable!()
                }
            }

            #[automatically_derived]
            impl #de_impl_generics #p::Decode<#de> for #ident #ty_generics #where_clause {
                fn read<__RowkeySrc: #p::Source<#de>>(_: &mut __RowkeySrc) -> #p::Result<Self, #p::DecodeError> {
                    ::core::unreachable!()
                }
            }

            #[automatically_derived]
            impl #impl_generics #p::RowKey for #ident #ty_generics #where_clause {
                const MAX_LEN: #p::usize = 0;
                const FIXED_LEN: #p::Option<#p::usize> = #p::None;
                const SCHEMA: &'static #p::Schema = &#p::Schema {
                    name: #name,
                    fields: &[],
                    variants: &[],
                    salt: #p::None,
                    fixed_len: #p::None,
                    max_len: 0,
                    limit: 0,
                    allow_hotspot: false,
                };
                const __SALT_BUCKETS: #p::u16 = 0;
                const __LIMIT: #p::usize = 0;
                fn __write_head<__RowkeySink: #p::Sink>(&self, _: &mut __RowkeySink) {
                    ::core::unreachable!()
                }
                fn __write_tail<__RowkeySink: #p::Sink>(&self, _: &mut __RowkeySink) {
                    ::core::unreachable!()
                }
            }
        };
    }
}
