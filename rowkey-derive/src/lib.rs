//! `#[derive(RowKey)]` and `#[derive(RowValue)]`, the derives of
//! [rowkey](https://docs.rs/rowkey). Use them through the `rowkey` crate, whose docs hold the
//! attribute reference. The value derive lives in `value/`, in the same stages.
//!
//! The derive runs in stages that only depend forward: `ast` reads the input (with `attr`
//! parsing each attribute), `validate` checks the rules that relate attributes and fields,
//! `model` lowers the checked input, and `codegen` emits tokens. Every error is collected
//! (`ctxt`) and reported at once; on error `fallback` emits stub impls so the user's other
//! code does not fail in a cascade.

mod ast;
mod attr;
mod codegen;
mod ctxt;
mod encoding;
mod fallback;
mod figures;
mod fingerprint;
mod model;
mod phoenix;
mod symbol;
mod validate;
mod value;

#[cfg(test)]
mod output_tests;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `rowkey::RowKey`: an order-preserving, zero-allocation key encoder and a decoder
/// that never panics. See the `rowkey` crate's `attributes` module for every attribute.
#[proc_macro_derive(
    RowKey,
    attributes(
        rowkey, salt, fixed, max_len, hash, reverse_ts, desc, reverse, timestamp, row_span, uid,
        java, rest, decimal, hex, tag
    )
)]
pub fn derive_row_key(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input).into()
}

/// Derives `rowkey::RowValue`: a struct whose fields are the columns of a row, each with a
/// family and a short qualifier (`#[column(family = "d", name = "via")]`, the struct's
/// `#[column(family = "d")]` as the default). See the `rowkey` crate's `attributes` module.
#[proc_macro_derive(RowValue, attributes(column, family))]
pub fn derive_row_value(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    value::expand(&input).into()
}

/// Derives `rowkey::phoenix::PhoenixRow`: a struct as a row of an Apache Phoenix table, its
/// `#[phoenix(key)]` fields the primary key in order (`#[phoenix(key, desc)]` descending), the
/// others value columns (`#[phoenix(family = "d", name = "x")]`); the struct's
/// `#[phoenix(table = "T", salt_buckets = N, family = "d")]`. See `rowkey::phoenix`.
#[proc_macro_derive(PhoenixRow, attributes(phoenix))]
pub fn derive_phoenix_row(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    phoenix::expand(&input).into()
}

fn expand(input: &DeriveInput) -> proc_macro2::TokenStream {
    if ast::rustc_refuses(input) {
        return fallback::expand(input, None, None);
    }
    let cx = ctxt::Ctxt::new();
    let key = ast::Input::from_syn(&cx, input).inspect(|ast| validate::check(&cx, ast));
    match (cx.check(), key) {
        (Ok(()), Some(ast)) => {
            let alias = codegen::alias_path();
            codegen::expand(
                &model::Key::from_ast(&ast, ast.attrs.crate_path.as_ref()),
                &model::Key::from_ast(&ast, Some(&alias)),
            )
        }
        (Err(e), ast) => {
            let krate = ast.as_ref().and_then(|a| a.attrs.crate_path.as_ref());
            fallback::expand(input, krate, Some(e))
        }
        (Ok(()), None) => fallback::expand(
            input,
            None,
            Some(syn::Error::new_spanned(input, "unsupported input")),
        ),
    }
}
