//! What is emitted when the input has errors: the errors (none when rustc reports the input's
//! mistake itself, `ast::rustc_refuses`), plus stub impls so that the user's
//! other uses of the type (`Key::decode`, `key.to_bytes()`, `Key::MAX_LEN`, `Key::explain`,
//! and `Key::scan()` chained through any field or record-type selector to `.ranges()`) do not
//! fail in a cascade of follow-on errors. The stubs are never compiled into a program, since
//! the errors stop the build.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Data, DeriveInput, Fields, GenericParam, Ident, Lifetime, LifetimeParam};

use crate::codegen::private;

pub fn expand(
    input: &DeriveInput,
    krate: crate::ast::Krate,
    error: Option<syn::Error>,
) -> TokenStream {
    let p = private(krate);
    let ident = &input.ident;
    let error = error.map(|e| e.to_compile_error());
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let de = Lifetime::new("'__rowkey_de", Span::call_site());
    let mut generics = input.generics.clone();
    generics
        .params
        .insert(0, GenericParam::Lifetime(LifetimeParam::new(de.clone())));
    let (de_impl_generics, _, _) = generics.split_for_impl();
    let name = ident.to_string();
    let vis = &input.vis;
    let (steps, selectors) = scan_steps(input);
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
                const FINGERPRINT: #p::u64 = 0;
                const __SALT_BUCKETS: #p::u16 = 0;
                const __LIMIT: #p::usize = 0;
                fn __write_head<__RowkeySink: #p::Sink>(&self, _: &mut __RowkeySink) {
                    ::core::unreachable!()
                }
                fn __write_tail<__RowkeySink: #p::Sink>(&self, _: &mut __RowkeySink) {
                    ::core::unreachable!()
                }
            }

            #[automatically_derived]
            impl #impl_generics #p::Explain for #ident #ty_generics #where_clause {
                fn explain(&self, _: &mut ::std::string::String) {
                    ::core::unreachable!()
                }
            }

            /// The scan builder's stand-in: every step of the real one, taking anything.
            #vis struct __RowkeyScan;

            impl __RowkeyScan {
                #(
                    #vis fn #steps<__RowkeyArg>(self, _: __RowkeyArg) -> Self {
                        self
                    }
                )*
                #(
                    #vis fn #selectors(self) -> Self {
                        self
                    }
                )*
                #vis fn ranges(self) -> #p::KeyRanges {
                    ::core::unreachable!()
                }
            }

            impl #impl_generics #ident #ty_generics #where_clause {
                #vis fn scan() -> __RowkeyScan {
                    __RowkeyScan
                }
                #vis fn explain(_: &[::core::primitive::u8]) -> ::std::string::String {
                    ::core::unreachable!()
                }
            }
        };
    }
}

/// The methods a scan builder of this input would have: every field name (taking a value or a
/// range), and for an enum every record type's selector (taking nothing). Names the real
/// builder could not have (`ranges`, keywords) are left out: they are errors already.
fn scan_steps(input: &DeriveInput) -> (Vec<Ident>, Vec<Ident>) {
    use syn::ext::IdentExt;
    let mut seen = std::collections::HashSet::new();
    seen.insert("ranges".to_string());
    let mut fields: Vec<Ident> = Vec::new();
    let mut add_fields = |all: &Fields| {
        for f in all.iter().filter_map(|f| f.ident.as_ref()) {
            if seen.insert(f.unraw().to_string()) {
                fields.push(f.clone());
            }
        }
    };
    let mut selectors: Vec<Ident> = Vec::new();
    match &input.data {
        Data::Struct(s) => add_fields(&s.fields),
        Data::Enum(e) => {
            for v in &e.variants {
                add_fields(&v.fields);
            }
            for v in &e.variants {
                let name = crate::ast::selector_name(&v.ident);
                if ["crate", "self", "super", "Self", "_"].contains(&name.as_str()) {
                    continue;
                }
                if seen.insert(name) {
                    selectors.push(crate::codegen::scan::selector(&v.ident));
                }
            }
        }
        Data::Union(_) => {}
    }
    (fields, selectors)
}
