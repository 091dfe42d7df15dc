//! `#[derive(RowValue)]`: a struct whose fields are the columns of a row. The same stages as
//! the key derive, smaller: `parse` reads the struct and its `#[column]` attributes (checks
//! that concern one attribute happen there), `validate` applies the rules that relate columns
//! (duplicates, the guide's limits on families), `codegen` emits a thin impl whose logic lives
//! in the runtime (`rowkey::value`). Every error is collected and reported at once.

mod codegen;
mod parse;
mod validate;

use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::ctxt::Ctxt;

pub fn expand(input: &DeriveInput) -> TokenStream {
    if crate::ast::rustc_refuses(input) {
        return codegen::fallback(input, None, None);
    }
    let cx = Ctxt::new();
    let parsed = parse::Value::from_syn(&cx, input);
    if let Some(value) = &parsed {
        validate::check(&cx, value);
    }
    match (cx.check(), parsed) {
        (Ok(()), Some(value)) => codegen::expand(&value),
        (Err(e), parsed) => {
            let krate = parsed.as_ref().and_then(|v| v.crate_path.as_ref());
            codegen::fallback(input, krate, Some(e))
        }
        (Ok(()), None) => syn::Error::new_spanned(input, "unsupported input").to_compile_error(),
    }
}
