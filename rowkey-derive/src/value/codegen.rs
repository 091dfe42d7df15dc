//! The `RowValue` impl: the columns as a `ValueSchema` constant, and two short functions that
//! hand each field to the runtime's helpers (`set_cell`, `clear_cell`, `CellReader`).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned, ToTokens};
use syn::spanned::Spanned;
use syn::DeriveInput;

use super::parse::{family_of, Value};
use crate::codegen::{private, Krate};

pub fn expand(value: &Value<'_>) -> TokenStream {
    let p = private(value.crate_path.as_ref());
    let input = value.input;
    let ident = &input.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut schema = Vec::new();
    let mut writes = Vec::new();
    let mut reads = Vec::new();
    for (index, column) in value.columns.iter().enumerate() {
        let field = column.ident;
        let family = family_of(value, column).unwrap_or_default();
        let qualifier = &column.name.value;
        let vty = column.value_ty();
        let rust_type = column.ty.to_token_stream().to_string().replace(' ', "");
        let optional = column.optional.is_some();
        // Spanned at the field's type: a type that is not a `ColumnValue` is reported there.
        let span = vty.span();
        let as_value = quote_spanned!(span=> <#vty as #p::ColumnValue>);
        schema.push(quote! {
            #p::ColumnSchema {
                field: stringify!(#field),
                family: #family,
                qualifier: #qualifier,
                rust_type: #rust_type,
                encoding: #as_value::ENCODING,
                width: #as_value::WIDTH,
                optional: #optional,
            }
        });
        if optional {
            writes.push(quote! {
                match &self.#field {
                    #p::Some(v) => #p::set_cell::<#vty>(set, &Self::SCHEMA, #index, v),
                    #p::None => #p::clear_cell(clear, &Self::SCHEMA, #index),
                }
            });
            reads.push(quote_spanned!(span=> #field: cells.optional::<#vty>(#index)?));
        } else {
            writes.push(quote! {
                #p::set_cell::<#vty>(set, &Self::SCHEMA, #index, &self.#field);
            });
            reads.push(quote_spanned!(span=> #field: cells.required::<#vty>(#index)?));
        }
    }
    quote! {
        #[allow(unused_qualifications, clippy::all)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::RowValue for #ident #ty_generics #where_clause {
                const SCHEMA: #p::ValueSchema = #p::ValueSchema {
                    name: #name,
                    columns: &[#(#schema),*],
                };

                fn write_cells(
                    &self,
                    set: &mut #p::Vec<#p::Cell>,
                    clear: &mut #p::Vec<#p::Column>,
                ) {
                    let _ = &clear;
                    #(#writes)*
                }

                fn read_cells(
                    cells: &#p::CellReader<'_>,
                ) -> #p::Result<Self, #p::ValueError> {
                    #p::Ok(Self { #(#reads),* })
                }
            }
        };
    }
}

/// On error: the errors, and a stub impl so that uses of the type do not fail in a cascade.
pub fn fallback(input: &DeriveInput, krate: Krate<'_>, error: syn::Error) -> TokenStream {
    let p = private(krate);
    let ident = &input.ident;
    let name = ident.to_string();
    let error = error.to_compile_error();
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    quote! {
        #error

        #[allow(unused_qualifications, unreachable_code, clippy::all)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #p::RowValue for #ident #ty_generics #where_clause {
                const SCHEMA: #p::ValueSchema = #p::ValueSchema { name: #name, columns: &[] };
                fn write_cells(&self, _: &mut #p::Vec<#p::Cell>, _: &mut #p::Vec<#p::Column>) {
                    ::core::unreachable!()
                }
                fn read_cells(_: &#p::CellReader<'_>) -> #p::Result<Self, #p::ValueError> {
                    ::core::unreachable!()
                }
            }
        };
    }
}
