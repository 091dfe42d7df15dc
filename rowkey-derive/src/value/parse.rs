//! Reading a `#[derive(RowValue)]` struct: its fields, their types (an `Option` is an optional
//! column), and the `#[column(...)]` attributes of the struct and of each field.

use proc_macro2::Span;
use syn::{Data, DeriveInput, Fields, GenericArgument, PathArguments, Type};

use crate::ctxt::Ctxt;

/// A string attribute value and where it was written.
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// The struct.
pub struct Value<'a> {
    pub input: &'a DeriveInput,
    /// `#[column(family = "d")]` on the struct: the fields' default family.
    pub family: Option<Spanned<String>>,
    /// `#[column(allow_long_family)]`: families longer than the guide's limit are accepted.
    pub allow_long_family: bool,
    /// `#[column(allow_many_families)]`: more than three families are accepted.
    pub allow_many_families: bool,
    /// `#[column(crate = "path")]`.
    pub crate_path: Option<syn::Path>,
    pub columns: Vec<ColumnField<'a>>,
}

/// One field: one column.
pub struct ColumnField<'a> {
    pub ident: &'a syn::Ident,
    pub ty: &'a Type,
    /// The `T` of an `Option<T>` field; `None` for a required column.
    pub optional: Option<&'a Type>,
    /// The field's own family, if it names one.
    pub family: Option<Spanned<String>>,
    /// The qualifier (`name = "via"`), by default the field's name.
    pub name: Spanned<String>,
}

impl ColumnField<'_> {
    /// The value type: `T` for `Option<T>`, the field's type otherwise.
    pub fn value_ty(&self) -> &Type {
        self.optional.unwrap_or(self.ty)
    }
}

const HINT: &str = "expected `family = \"d\"`, `name = \"via\"`";

impl<'a> Value<'a> {
    pub fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        let mut value = Value {
            input,
            family: None,
            allow_long_family: false,
            allow_many_families: false,
            crate_path: None,
            columns: Vec::new(),
        };
        for attr in input.attrs.iter().filter(|a| a.path().is_ident("column")) {
            let parsed = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("family") {
                    let lit: syn::LitStr = meta.value()?.parse()?;
                    set_once(cx, &mut value.family, &lit, "family");
                } else if meta.path.is_ident("allow_long_family") {
                    value.allow_long_family = true;
                } else if meta.path.is_ident("allow_many_families") {
                    value.allow_many_families = true;
                } else if meta.path.is_ident("crate") {
                    let lit: syn::LitStr = meta.value()?.parse()?;
                    match lit.parse::<syn::Path>() {
                        Ok(path) => value.crate_path = Some(path),
                        Err(_) => cx.error(&lit, "expected the path `rowkey` is reachable at"),
                    }
                } else if meta.path.is_ident("name") {
                    cx.error(
                        &meta.path,
                        "`name` belongs on a field: the struct has no column of its own",
                    );
                    let _: syn::LitStr = meta.value()?.parse()?;
                } else {
                    cx.error(
                        &meta.path,
                        "unknown `column` key on a struct: expected `family = \"d\"`, `allow_long_family`, `allow_many_families` or `crate = \"path\"`",
                    );
                    skip_value(&meta)?;
                }
                Ok(())
            });
            if let Err(e) = parsed {
                cx.syn_error(e);
            }
        }
        let fields = match &input.data {
            Data::Struct(s) => match &s.fields {
                Fields::Named(named) => &named.named,
                _ => {
                    cx.error(
                        &input.ident,
                        "#[derive(RowValue)] needs a struct with named fields: each field is a column",
                    );
                    return None;
                }
            },
            _ => {
                cx.error(
                    &input.ident,
                    "#[derive(RowValue)] works on structs: each field is a column",
                );
                return None;
            }
        };
        for field in fields {
            let ident = field.ident.as_ref()?;
            let mut family = None;
            let mut name: Option<Spanned<String>> = None;
            for attr in field.attrs.iter().filter(|a| a.path().is_ident("column")) {
                let parsed = attr.parse_nested_meta(|meta| {
                    if meta.path.is_ident("family") {
                        let lit: syn::LitStr = meta.value()?.parse()?;
                        set_once(cx, &mut family, &lit, "family");
                    } else if meta.path.is_ident("name") {
                        let lit: syn::LitStr = meta.value()?.parse()?;
                        set_once(cx, &mut name, &lit, "name");
                    } else if meta.path.is_ident("allow_long_family")
                        || meta.path.is_ident("allow_many_families")
                        || meta.path.is_ident("crate")
                    {
                        cx.error(
                            &meta.path,
                            "this key belongs on the struct's `#[column(...)]`",
                        );
                        skip_value(&meta)?;
                    } else {
                        cx.error(
                            &meta.path,
                            format!("unknown `column` key on a field: {HINT}"),
                        );
                        skip_value(&meta)?;
                    }
                    Ok(())
                });
                if let Err(e) = parsed {
                    cx.syn_error(e);
                }
            }
            let name = name.unwrap_or_else(|| Spanned {
                value: ident.to_string(),
                span: ident.span(),
            });
            value.columns.push(ColumnField {
                ident,
                ty: &field.ty,
                optional: option_inner(&field.ty),
                family,
                name,
            });
        }
        Some(value)
    }
}

/// Reads past an unknown key's `= value`, so that the keys after it are still read.
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    }
    Ok(())
}

fn set_once(cx: &Ctxt, slot: &mut Option<Spanned<String>>, lit: &syn::LitStr, key: &str) {
    if slot.is_some() {
        cx.error(lit, format!("`{key}` is given twice"));
        return;
    }
    *slot = Some(Spanned {
        value: lit.value(),
        span: lit.span(),
    });
}

/// `T` when `ty` is `Option<T>` (written `Option`, `std::option::Option` or
/// `core::option::Option`).
fn option_inner(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first() {
        Some(GenericArgument::Type(inner)) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// The span to report a column's family at: its own attribute, or the struct's.
pub fn family_span(value: &Value<'_>, column: &ColumnField<'_>) -> Span {
    column
        .family
        .as_ref()
        .map(|f| f.span)
        .or(value.family.as_ref().map(|f| f.span))
        .unwrap_or_else(|| column.ident.span())
}

/// The family a column is in, if any is given.
pub fn family_of<'v>(value: &'v Value<'_>, column: &'v ColumnField<'_>) -> Option<&'v str> {
    column
        .family
        .as_ref()
        .or(value.family.as_ref())
        .map(|f| f.value.as_str())
}
