//! The error collector: every error found while reading the input is recorded here, so the
//! user sees all of them at once, each spanned at its offending token.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// Collects errors; must be consumed with [`Ctxt::check`] (dropping it unchecked is a bug in
/// the derive, caught by a panic in debug builds of the macro).
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records an error spanned at `tokens`.
    pub fn error<T: ToTokens, M: Display>(&self, tokens: T, msg: M) {
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), msg));
    }

    /// Records an error spanned at `span`.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, msg: M) {
        self.push(syn::Error::new(span, msg));
    }

    /// Whether any error has been recorded so far.
    pub fn has_errors(&self) -> bool {
        self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
    }

    /// Records an error produced by syn's parsers.
    pub fn syn_error(&self, err: syn::Error) {
        self.push(err);
    }

    fn push(&self, err: syn::Error) {
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(err);
        }
    }

    /// Consumes the collector: `Err` with every error combined into one, if there were any.
    pub fn check(self) -> Result<(), syn::Error> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        let mut iter = errors.into_iter();
        match iter.next() {
            None => Ok(()),
            Some(mut first) => {
                for e in iter {
                    first.combine(e);
                }
                Err(first)
            }
        }
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            debug_assert!(false, "rowkey-derive: Ctxt dropped without check()");
        }
    }
}
