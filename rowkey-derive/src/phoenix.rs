//! `#[derive(PhoenixRow)]`: a struct as a row of an Apache Phoenix table, in the derive's
//! stages on a small scale: read the `#[phoenix(...)]` attributes (collecting every error at
//! its token), check the rules the derive can see (names, which attributes go together), and
//! emit a thin impl of `rowkey::phoenix::PhoenixRow` whose work is the runtime's. The rules
//! that depend on a field's type (a nullable fixed-width key column, `VARBINARY` not last, a
//! `DESC BOOLEAN`) are constant assertions spanned at the field; a type with no Phoenix
//! equivalent fails its `PhoenixColumn` bound at the field's type.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitInt, LitStr};

/// The struct's `#[phoenix(...)]`.
struct TableAttrs {
    table: Option<LitStr>,
    salt_buckets: Option<LitInt>,
    family: Option<LitStr>,
    krate: Option<syn::Path>,
}

/// A field's `#[phoenix(...)]`.
#[derive(Default)]
struct FieldAttrs {
    key: bool,
    desc: Option<Span>,
    name: Option<LitStr>,
    family: Option<LitStr>,
}

/// Phoenix identifiers are quoted in the DDL: anything but a double quote, not empty.
fn check_name(errors: &mut Vec<syn::Error>, lit: &LitStr, what: &str) {
    let v = lit.value();
    if v.is_empty() || v.contains('"') {
        errors.push(syn::Error::new(
            lit.span(),
            format!("a {what} name must not be empty or hold a double quote"),
        ));
    }
}

pub fn expand(input: &DeriveInput) -> TokenStream {
    // rustc reports the input's own mistake (a field named twice): nothing to add to it.
    if crate::ast::rustc_refuses(input) {
        return TokenStream::new();
    }
    let mut errors = Vec::new();
    let mut table = TableAttrs {
        table: None,
        salt_buckets: None,
        family: None,
        krate: None,
    };
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("phoenix")) {
        let r = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("table") {
                let lit: LitStr = meta.value()?.parse()?;
                check_name(&mut errors, &lit, "table");
                table.table = Some(lit);
            } else if meta.path.is_ident("salt_buckets") {
                let lit: LitInt = meta.value()?.parse()?;
                match lit.base10_parse::<u16>() {
                    Ok(1..=255) => table.salt_buckets = Some(lit),
                    _ => errors.push(syn::Error::new(
                        lit.span(),
                        "salt_buckets is 1 to 255 (one byte of bucket)",
                    )),
                }
            } else if meta.path.is_ident("family") {
                let lit: LitStr = meta.value()?.parse()?;
                check_name(&mut errors, &lit, "family");
                table.family = Some(lit);
            } else if meta.path.is_ident("crate") {
                let lit: LitStr = meta.value()?.parse()?;
                table.krate = Some(lit.parse()?);
            } else {
                return Err(meta.error(
                    "unknown #[phoenix] key on the struct: table, salt_buckets, family or crate",
                ));
            }
            Ok(())
        });
        if let Err(e) = r {
            errors.push(e);
        }
    }
    let fields = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => named.named.iter().collect::<Vec<_>>(),
            other => {
                errors.push(syn::Error::new(
                    other.span(),
                    "#[derive(PhoenixRow)] needs named fields (the column names)",
                ));
                Vec::new()
            }
        },
        _ => {
            errors.push(syn::Error::new(
                input.ident.span(),
                "#[derive(PhoenixRow)] is for structs",
            ));
            Vec::new()
        }
    };
    let mut parsed = Vec::new();
    for f in &fields {
        let mut a = FieldAttrs::default();
        for attr in f.attrs.iter().filter(|a| a.path().is_ident("phoenix")) {
            let r = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("key") {
                    a.key = true;
                } else if meta.path.is_ident("desc") {
                    a.desc = Some(meta.path.span());
                } else if meta.path.is_ident("name") {
                    let lit: LitStr = meta.value()?.parse()?;
                    check_name(&mut errors, &lit, "column");
                    a.name = Some(lit);
                } else if meta.path.is_ident("family") {
                    let lit: LitStr = meta.value()?.parse()?;
                    check_name(&mut errors, &lit, "family");
                    a.family = Some(lit);
                } else {
                    return Err(
                        meta.error("unknown #[phoenix] key on a field: key, desc, name or family")
                    );
                }
                Ok(())
            });
            if let Err(e) = r {
                errors.push(e);
            }
        }
        if let (false, Some(span)) = (a.key, a.desc) {
            errors.push(syn::Error::new(
                span,
                "desc is a key column's sort order: add `key`",
            ));
        }
        if let (true, Some(family)) = (a.key, &a.family) {
            errors.push(syn::Error::new(
                family.span(),
                "a key column is in the row key, not in a family",
            ));
        }
        let ident = f.ident.clone().expect("named fields");
        let name = a
            .name
            .as_ref()
            .map_or_else(|| ident.to_string(), LitStr::value);
        parsed.push((f, ident, name, a));
    }
    // Names: a value column named like a key column, or twice in one family, is refused.
    let default_family = table
        .family
        .as_ref()
        .map_or_else(|| "0".to_string(), LitStr::value);
    for (i, (f, _, name, a)) in parsed.iter().enumerate() {
        let family = |a: &FieldAttrs| {
            a.family
                .as_ref()
                .map_or_else(|| default_family.clone(), LitStr::value)
        };
        let clash = parsed[..i]
            .iter()
            .any(|(_, _, n, b)| n == name && (a.key || b.key || family(a) == family(b)));
        if clash {
            errors.push(syn::Error::new(
                a.name.as_ref().map_or(f.span(), LitStr::span),
                format!("a second column named {name:?} (in the key or this family)"),
            ));
        }
        if !a.key && name == "_0" {
            errors.push(syn::Error::new(
                a.name.as_ref().map_or(f.span(), LitStr::span),
                "`_0` is Phoenix's empty marker cell",
            ));
        }
    }
    if !parsed.is_empty() && !parsed.iter().any(|p| p.3.key) {
        errors.push(syn::Error::new(
            input.ident.span(),
            "a Phoenix table needs a primary key: mark its columns #[phoenix(key)]",
        ));
    }
    if !input.generics.params.is_empty() {
        errors.push(syn::Error::new(
            input.generics.span(),
            "#[derive(PhoenixRow)] takes no generic parameters",
        ));
    }
    // Every error at once, each at its token.
    let mut errors = errors.into_iter();
    if let Some(mut all) = errors.next() {
        all.extend(errors);
        return all.to_compile_error();
    }

    let krate = table
        .krate
        .as_ref()
        .map_or_else(|| quote!(::rowkey), |p| quote!(#p));
    let px = quote!(#krate::phoenix);
    let ident = &input.ident;
    let table_name = table
        .table
        .as_ref()
        .map_or_else(|| ident.to_string(), LitStr::value);
    let salt = match &table.salt_buckets {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    };
    let keys: Vec<_> = parsed.iter().filter(|p| p.3.key).collect();
    let last_key = keys.len().saturating_sub(1);
    let mut key_columns = Vec::new();
    let mut checks = Vec::new();
    for (i, (f, _, name, a)) in keys.iter().enumerate() {
        let ty = &f.ty;
        let col = quote_spanned!(ty.span()=> <#ty as #px::PhoenixColumn>);
        let order = if a.desc.is_some() {
            quote!(#px::SortOrder::Desc)
        } else {
            quote!(#px::SortOrder::Asc)
        };
        key_columns.push(quote! {
            #px::KeyColumn {
                name: ::std::borrow::Cow::Borrowed(#name),
                ty: #col::TYPE,
                order: #order,
                nullable: #col::NULLABLE,
            }
        });
        let span = f.ty.span();
        let nullable_msg = format!(
            "key column {name:?}: Phoenix refuses a nullable fixed-width key column (use a \
             NOT NULL type, or VARCHAR)"
        );
        checks.push(quote_spanned! {span=>
            ::core::assert!(
                !(#col::NULLABLE && #col::TYPE.fixed_width().is_some()),
                #nullable_msg
            );
        });
        let is_last = i == last_key;
        let desc = a.desc.is_some();
        let varbinary_msg =
            format!("key column {name:?}: VARBINARY can only be the last key column, ascending");
        checks.push(quote_spanned! {span=>
            ::core::assert!(
                !::core::matches!(#col::TYPE, #px::PhoenixType::Varbinary) || (#is_last && !#desc),
                #varbinary_msg
            );
        });
        if desc {
            let bool_msg = format!(
                "key column {name:?}: a DESC BOOLEAN key column reads back as false in Phoenix \
                 5.2.1 (its own bug): declare it ASC"
            );
            checks.push(quote_spanned! {span=>
                ::core::assert!(!::core::matches!(#col::TYPE, #px::PhoenixType::Boolean), #bool_msg);
            });
        }
    }
    let values: Vec<_> = parsed.iter().filter(|p| !p.3.key).collect();
    let value_columns = values.iter().map(|(f, _, name, a)| {
        let ty = &f.ty;
        let col = quote_spanned!(ty.span()=> <#ty as #px::PhoenixColumn>);
        let family = a
            .family
            .as_ref()
            .map_or_else(|| default_family.clone(), LitStr::value);
        quote! {
            #px::ValueColumn {
                family: ::std::borrow::Cow::Borrowed(#family),
                name: ::std::borrow::Cow::Borrowed(#name),
                ty: #col::TYPE,
            }
        }
    });
    let key_values = keys.iter().map(|(f, id, _, _)| {
        let ty = &f.ty;
        quote!(<#ty as #px::PhoenixColumn>::to_datum(&self.#id))
    });
    let value_values = values.iter().map(|(f, id, _, _)| {
        let ty = &f.ty;
        quote!(<#ty as #px::PhoenixColumn>::to_datum(&self.#id))
    });
    let build = parsed.iter().map(|(f, id, name, a)| {
        let ty = &f.ty;
        let from = if a.key { quote!(key) } else { quote!(values) };
        quote! {
            #id: <#ty as #px::PhoenixColumn>::from_datum(
                ::core::iter::Iterator::next(&mut #from).flatten()
            ).map_err(|e| e.at(#name))?
        }
    });
    quote! {
        const _: () = {
            #(#checks)*
        };
        impl #px::PhoenixRow for #ident {
            fn table() -> #px::PhoenixTable {
                let key = #px::PhoenixKey::new(::std::vec![#(#key_columns),*], #salt);
                let columns = ::std::vec![#(#value_columns),*];
                // Every rule of both constructors is checked while compiling (above and in the
                // derive), so neither can fail here.
                match key.and_then(|key| #px::PhoenixTable::new(#table_name, key, columns)) {
                    ::core::result::Result::Ok(table) => table,
                    ::core::result::Result::Err(e) => ::core::unreachable!("{}", e),
                }
            }
            fn key(&self) -> ::std::vec::Vec<::core::option::Option<#px::Datum<'_>>> {
                ::std::vec![#(#key_values),*]
            }
            fn values(&self) -> ::std::vec::Vec<::core::option::Option<#px::Datum<'_>>> {
                ::std::vec![#(#value_values),*]
            }
            #[allow(unused_mut, unused_variables)]
            fn from_parts(
                key: ::std::vec::Vec<::core::option::Option<#px::Datum<'static>>>,
                values: ::std::vec::Vec<::core::option::Option<#px::Datum<'static>>>,
            ) -> ::core::result::Result<Self, #px::PhoenixError> {
                let mut key = ::core::iter::IntoIterator::into_iter(key);
                let mut values = ::core::iter::IntoIterator::into_iter(values);
                ::core::result::Result::Ok(#ident { #(#build),* })
            }
        }
    }
}
