//! Golden expansions, in the manner of zerocopy's output tests: the code the derive generates
//! for a few representative keys and a row value, formatted and compared with
//! `expected/*.expanded.rs` (data, not modules of the crate), so every change to generated code
//! is seen in review. `ROWKEY_BLESS=1 cargo test -p
//! rowkey-derive` rewrites the files after a deliberate change. Every expansion is also checked
//! for hygiene: each path it names is absolute (`::core::...`, `::rowkey::__private::...`),
//! a name from the user's input, `Self`, or one of the derive's own `__rowkey`-prefixed names;
//! and no inherent impl is marked `#[automatically_derived]` (a trait impl's attribute).

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::visit::Visit;

fn expand(input: TokenStream) -> syn::File {
    let input: syn::DeriveInput = syn::parse2(input).expect("test input parses");
    let out = crate::expand(&input);
    syn::parse2(out).expect("the expansion parses as items")
}

/// The expansion of `#[derive(RowValue)]`.
fn expand_value(input: TokenStream) -> syn::File {
    let input: syn::DeriveInput = syn::parse2(input).expect("test input parses");
    let out = crate::value::expand(&input);
    syn::parse2(out).expect("the expansion parses as items")
}

/// Compares with (or, under `ROWKEY_BLESS`, writes) the golden file.
fn golden(name: &str, file: &syn::File) {
    let text = prettyplease::unparse(file);
    let path = format!("{}/expected/{name}.expanded.rs", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("ROWKEY_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let Ok(want) = std::fs::read_to_string(&path) else {
        panic!(
            "no golden expansion for `{name}` at {path}: run `ROWKEY_BLESS=1 cargo test -p rowkey-derive` to write it, then review it"
        );
    };
    if text != want {
        let first = text
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(text.lines().count().min(want.lines().count()));
        panic!(
            "the expansion of `{name}` changed at line {} (ROWKEY_BLESS=1 to accept):\n{}",
            first + 1,
            text.lines()
                .skip(first)
                .take(12)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// Every identifier in the input: the user's names, which generated code may use as written.
fn input_names(input: &TokenStream) -> HashSet<String> {
    fn walk(ts: TokenStream, out: &mut HashSet<String>) {
        for tt in ts {
            match tt {
                proc_macro2::TokenTree::Ident(i) => {
                    out.insert(i.to_string());
                }
                proc_macro2::TokenTree::Group(g) => walk(g.stream(), out),
                _ => {}
            }
        }
    }
    let mut out = HashSet::new();
    walk(input.clone(), &mut out);
    out
}

/// Finds relative paths that are neither the user's names nor the derive's own.
struct Hygiene<'a> {
    user: &'a HashSet<String>,
    locals: HashSet<String>,
    bad: Vec<String>,
}

impl<'ast> Visit<'ast> for Hygiene<'_> {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.locals.insert(p.ident.to_string());
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_generic_param(&mut self, p: &'ast syn::GenericParam) {
        match p {
            syn::GenericParam::Type(t) => {
                self.locals.insert(t.ident.to_string());
            }
            syn::GenericParam::Const(c) => {
                self.locals.insert(c.ident.to_string());
            }
            syn::GenericParam::Lifetime(_) => {}
        }
        syn::visit::visit_generic_param(self, p);
    }

    // Built-in attributes (`doc`, `inline`, `allow`, `automatically_derived`) cannot be
    // shadowed by the user's code.
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    // `#[automatically_derived]` belongs on trait impls only: rustc warns that on an inherent
    // impl it will become a hard error.
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if i.trait_.is_none()
            && i.attrs
                .iter()
                .any(|a| a.path().is_ident("automatically_derived"))
        {
            self.bad.push(format!(
                "#[automatically_derived] on inherent `impl {}`",
                i.self_ty.to_token_stream()
            ));
        }
        syn::visit::visit_item_impl(self, i);
    }

    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        self.locals.insert(s.ident.to_string());
        syn::visit::visit_item_struct(self, s);
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.locals.insert(f.sig.ident.to_string());
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        // A macro call's path must be absolute too; its body is the macro's own syntax.
        self.check(&m.mac.path);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.check(&m.path);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.check(path);
        syn::visit::visit_path(self, path);
    }
}

impl Hygiene<'_> {
    fn check(&mut self, path: &syn::Path) {
        if path.leading_colon.is_some() {
            return;
        }
        let Some(first) = path.segments.first() else {
            return;
        };
        let name = first.ident.to_string();
        let ok = name == "Self"
            || name == "self"
            || name.starts_with("__rowkey")
            || name.starts_with("__Rowkey")
            || self.user.contains(&name)
            || self.locals.contains(&name);
        if !ok {
            self.bad.push(path.to_token_stream().to_string());
        }
    }
}

fn hygienic(input: &TokenStream, file: &syn::File) {
    let user = input_names(input);
    let mut h = Hygiene {
        user: &user,
        locals: HashSet::new(),
        bad: Vec::new(),
    };
    // Two passes: a local may be used before the visitor reaches its declaration.
    h.visit_file(file);
    h.bad.clear();
    h.visit_file(file);
    assert!(
        h.bad.is_empty(),
        "relative paths (or misplaced attributes) in the expansion: {:?}",
        h.bad
    );
}

/// The names the derive chooses that rustdoc shows on the user's own pages: the generic
/// parameters of impls, of public structs and of the methods shown (inherent `pub fn`s, trait
/// impls' methods and associated types), and those methods' parameter names; what is hidden
/// (`#[doc(hidden)]`, names that start with `__`) left out. Paths are not names rustdoc shows
/// (it prints a path's last segment, and a private alias expanded).
fn documented_names(file: &syn::File) -> Vec<String> {
    fn hidden(attrs: &[syn::Attribute]) -> bool {
        attrs
            .iter()
            .any(|a| a.path().is_ident("doc") && a.to_token_stream().to_string().contains("hidden"))
    }
    fn generics(g: &syn::Generics, out: &mut Vec<String>) {
        for p in &g.params {
            out.push(match p {
                syn::GenericParam::Lifetime(l) => l.lifetime.to_string(),
                syn::GenericParam::Type(t) => t.ident.to_string(),
                syn::GenericParam::Const(c) => c.ident.to_string(),
            });
        }
    }
    fn signature(sig: &syn::Signature, out: &mut Vec<String>) {
        generics(&sig.generics, out);
        for input in &sig.inputs {
            if let syn::FnArg::Typed(t) = input {
                if let syn::Pat::Ident(i) = &*t.pat {
                    out.push(i.ident.to_string());
                }
            }
        }
    }
    fn items(all: &[syn::Item], out: &mut Vec<String>) {
        for item in all {
            match item {
                syn::Item::Impl(i) if !hidden(&i.attrs) => {
                    generics(&i.generics, out);
                    for it in &i.items {
                        match it {
                            syn::ImplItem::Fn(f)
                                if !hidden(&f.attrs)
                                    && !f.sig.ident.to_string().starts_with("__")
                                    && (i.trait_.is_some()
                                        || matches!(f.vis, syn::Visibility::Public(_))) =>
                            {
                                signature(&f.sig, out)
                            }
                            syn::ImplItem::Type(t) if i.trait_.is_some() => {
                                generics(&t.generics, out)
                            }
                            _ => {}
                        }
                    }
                }
                syn::Item::Struct(st)
                    if !hidden(&st.attrs) && matches!(st.vis, syn::Visibility::Public(_)) =>
                {
                    generics(&st.generics, out);
                    for f in &st.fields {
                        if let (syn::Visibility::Public(_), Some(name)) = (&f.vis, &f.ident) {
                            out.push(name.to_string());
                        }
                    }
                }
                syn::Item::Const(c) => {
                    // `const _: () = { ... };`: the impls inside are the type's all the same.
                    if let syn::Expr::Block(b) = &*c.expr {
                        let inner: Vec<syn::Item> = b
                            .block
                            .stmts
                            .iter()
                            .filter_map(|s| match s {
                                syn::Stmt::Item(i) => Some(i.clone()),
                                _ => None,
                            })
                            .collect();
                        items(&inner, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    items(&file.items, &mut out);
    out
}

/// Fails on a derive-chosen hygiene name (`'__rowkey_de`, `__RowkeySink`, `__rowkey_out`) in
/// what rustdoc shows on the user's type (see [`documented_names`]): noise in the docs.
fn readable_docs(name: &str, file: &syn::File) {
    let shown = documented_names(file);
    assert!(
        shown.len() >= 3,
        "{name}: nothing found to check: {shown:?}"
    );
    let noisy: Vec<&String> = shown
        .iter()
        .filter(|s| s.trim_start_matches('\'').starts_with("__"))
        .collect();
    assert!(
        noisy.is_empty(),
        "{name}: the derive's own names in what rustdoc shows on the user's type: {noisy:#?}"
    );
}

fn check(name: &str, input: TokenStream) {
    let file = expand(input.clone());
    hygienic(&input, &file);
    readable_docs(name, &file);
    golden(name, &file);
}

/// `#[derive(RowValue)]`: columns in two families, an optional one, a renamed one.
#[test]
fn row_value() {
    let input: TokenStream = quote::quote! {
        #[column(family = "d")]
        struct Visit {
            #[column(name = "via")]
            referrer: String,
            duration_ms: u32,
            #[column(family = "m", name = "ua")]
            agent: Option<String>,
        }
    };
    let file = expand_value(input.clone());
    hygienic(&input, &file);
    readable_docs("row_value", &file);
    golden("row_value", &file);
}

#[test]
fn readme_event() {
    check(
        "event",
        quote::quote! {
            struct Event {
                #[salt(buckets = 16)]
                user_id: u64,
                #[fixed(16)]
                event_type: String,
                #[reverse_ts]
                ts: u64,
            }
        },
    );
}

#[test]
fn opentsdb_salt() {
    check(
        "opentsdb_salt",
        quote::quote! {
            struct Point {
                metric: u32,
                #[salt(buckets = 20, hash = "java")]
                tags: String,
                #[timestamp]
                ts: u64,
            }
        },
    );
}

/// `#[rowkey(query)]`: the skip-scan builder, a method and an `_in` method per field (a value
/// only for an unordered field), each one runtime call.
#[test]
fn query_builder() {
    check(
        "query",
        quote::quote! {
            #[rowkey(query)]
            pub struct Install {
                #[salt(buckets = 8)]
                user: u64,
                app: String,
                #[reverse]
                seq: u32,
            }
        },
    );
}

/// `#[rowkey(query)]` on a record-type enum: the prefix's methods, `tag`, a selector per record
/// type returning that record type's builder (the prefix's and its own fields' methods).
#[test]
fn query_builder_of_records() {
    check(
        "query_records",
        quote::quote! {
            #[rowkey(query, prefix(customer_id))]
            pub enum CustomerRow {
                #[tag(1)]
                Customer { customer_id: u64 },
                #[tag(2)]
                Order { customer_id: u64, order_id: u64 },
            }
        },
    );
}

#[test]
fn borrowed_key() {
    check(
        "borrowed",
        quote::quote! {
            struct HostLog<'a> {
                host: &'a str,
                #[reverse_ts]
                ts: i64,
                #[desc]
                kind: ::std::borrow::Cow<'a, [u8]>,
            }
        },
    );
}

#[test]
fn record_type_enum() {
    check(
        "records",
        quote::quote! {
            #[rowkey(prefix(customer_id))]
            enum CustomerRow {
                #[tag(1)]
                Customer {
                    #[salt(buckets = 8)]
                    customer_id: u64,
                },
                #[tag(2)]
                Order {
                    #[salt(buckets = 8)]
                    customer_id: u64,
                    #[max_len(12)]
                    note: String,
                },
            }
        },
    );
}

#[test]
fn nested_key() {
    check(
        "nested",
        quote::quote! {
            #[rowkey(allow_hotspot)]
            struct Outer {
                #[timestamp]
                at: u64,
                inner: Inner,
                flag: Option<bool>,
            }
        },
    );
}

#[test]
fn an_error_expands_to_stubs_only() {
    let input = quote::quote! {
        struct Broken {
            #[fixed(0)]
            name: String,
        }
    };
    let out = crate::expand(&syn::parse2(input.clone()).unwrap());
    assert!(out.to_string().contains("compile_error"));
    let file: syn::File = syn::parse2(out).unwrap();
    hygienic(&input, &file);
}
