//! `#[derive(RowKey)]`, the derive of [rowkey](https://docs.rs/rowkey). Use it through the
//! `rowkey` crate, whose docs hold the attribute reference.
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
mod fallback;
mod fingerprint;
mod model;
mod symbol;
mod validate;

#[cfg(test)]
mod output_tests;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `rowkey::RowKey`: an order-preserving, zero-allocation key encoder and a decoder
/// that never panics. See the `rowkey` crate's `attributes` module for every attribute.
#[proc_macro_derive(
    RowKey,
    attributes(
        rowkey, salt, fixed, max_len, hash, reverse_ts, desc, reverse, timestamp, tag
    )
)]
pub fn derive_row_key(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input).into()
}

fn expand(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let key = ast::Input::from_syn(&cx, input).inspect(|ast| validate::check(&cx, ast));
    match (cx.check(), key) {
        (Ok(()), Some(ast)) => codegen::expand(&model::Key::from_ast(&ast)),
        (Err(e), ast) => {
            let krate = ast.as_ref().and_then(|a| a.attrs.crate_path.as_ref());
            fallback::expand(input, krate, e)
        }
        (Ok(()), None) => fallback::expand(
            input,
            None,
            syn::Error::new_spanned(input, "unsupported input"),
        ),
    }
}
