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
    /// `#[family(name = "d", ...)]`: the options declared for a family.
    pub families: Vec<FamilyDecl>,
}

/// One `#[family(name = "d", versions = 3, ttl = "30d", ...)]`: a family's options, each
/// checked on its own as it is read (the rules relating them are `validate`'s).
pub struct FamilyDecl {
    pub name: Spanned<String>,
    pub versions: Option<Spanned<u32>>,
    pub min_versions: Option<Spanned<u32>>,
    pub ttl_secs: Option<Spanned<u64>>,
    /// `keep_deleted`, `bloom`, `compression`, `encoding`: the runtime enum's variant name.
    pub keep_deleted: Option<Spanned<&'static str>>,
    pub bloom: Option<Spanned<&'static str>>,
    pub compression: Option<Spanned<&'static str>>,
    pub encoding: Option<Spanned<&'static str>>,
    pub block_size: Option<Spanned<u32>>,
    pub in_memory: bool,
}

/// The keys `#[family(...)]` takes.
const FAMILY_KEYS: &[&str] = &[
    "name",
    "versions",
    "min_versions",
    "ttl",
    "keep_deleted",
    "bloom",
    "compression",
    "block_size",
    "in_memory",
    "encoding",
];

/// A choice among spellings: (spelling, the runtime enum's variant).
type Choices = &'static [(&'static str, &'static str)];

// The spellings of the runtime's `family::{KeepDeleted, Bloom, Compression, BlockEncoding}`
// (`name()`); `tests/families.rs` checks that each is accepted.
const KEEP_DELETED: Choices = &[("false", "False"), ("true", "True"), ("ttl", "Ttl")];
const BLOOM: Choices = &[
    ("none", "None"),
    ("row", "Row"),
    ("rowcol", "RowCol"),
    ("rowprefix_fixed_length", "RowPrefixFixedLength"),
    ("rowprefix_delimited", "RowPrefixDelimited"),
];
const COMPRESSION: Choices = &[
    ("none", "None"),
    ("snappy", "Snappy"),
    ("lz4", "Lz4"),
    ("zstd", "Zstd"),
    ("gz", "Gz"),
    ("lzo", "Lzo"),
    ("bzip2", "Bzip2"),
];
const ENCODING: Choices = &[
    ("none", "None"),
    ("prefix", "Prefix"),
    ("diff", "Diff"),
    ("fast_diff", "FastDiff"),
    ("row_index_v1", "RowIndexV1"),
];

impl FamilyDecl {
    fn parse(cx: &Ctxt, attr: &syn::Attribute) -> Option<FamilyDecl> {
        let mut decl = FamilyDecl {
            name: Spanned {
                value: String::new(),
                span: syn::spanned::Spanned::span(attr),
            },
            versions: None,
            min_versions: None,
            ttl_secs: None,
            keep_deleted: None,
            bloom: None,
            compression: None,
            encoding: None,
            block_size: None,
            in_memory: false,
        };
        let mut named = false;
        let parsed = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            match key.as_str() {
                "name" => {
                    let lit: syn::LitStr = meta.value()?.parse()?;
                    named = true;
                    decl.name = Spanned {
                        value: lit.value(),
                        span: lit.span(),
                    };
                }
                "versions" | "min_versions" | "block_size" => {
                    let lit: syn::LitInt = meta.value()?.parse()?;
                    match lit.base10_parse::<u32>() {
                        Ok(v) if v <= i32::MAX as u32 && (v > 0 || key == "min_versions") => {
                            let v = Some(Spanned { value: v, span: lit.span() });
                            match key.as_str() {
                                "versions" => decl.versions = v,
                                "min_versions" => decl.min_versions = v,
                                _ => decl.block_size = v,
                            }
                        }
                        _ => cx.error(
                            &lit,
                            format!("`{key}` is a count HBase stores as a positive 32-bit integer (at most 2147483647)"),
                        ),
                    }
                }
                "ttl" => {
                    let lit: syn::LitStr = meta.value()?.parse()?;
                    match parse_duration(&lit.value()) {
                        Some(secs) if secs > 0 && secs < i32::MAX as u64 => {
                            decl.ttl_secs = Some(Spanned { value: secs, span: lit.span() })
                        }
                        Some(_) => cx.error(
                            &lit,
                            "a TTL is between one second and HBase's limit of 2147483646 seconds (68 years); leave it out to keep cells forever",
                        ),
                        None => cx.error(
                            &lit,
                            "expected a duration: a number and a unit, `s`, `m`, `h`, `d` or `w` (`\"30d\"`, `\"12h\"`)",
                        ),
                    }
                }
                "keep_deleted" => decl.keep_deleted = choice(cx, &meta, "keep_deleted", KEEP_DELETED)?,
                "bloom" => decl.bloom = choice(cx, &meta, "bloom", BLOOM)?,
                "compression" => decl.compression = choice(cx, &meta, "compression", COMPRESSION)?,
                "encoding" => decl.encoding = choice(cx, &meta, "encoding", ENCODING)?,
                "in_memory" => decl.in_memory = true,
                _ => {
                    cx.error(
                        &meta.path,
                        format!(
                            "unknown `family` option `{}`: expected one of {}{}",
                            key,
                            FAMILY_KEYS.join(", "),
                            crate::attr::suggest(&key, FAMILY_KEYS)
                        ),
                    );
                    skip_value(&meta)?;
                }
            }
            Ok(())
        });
        if let Err(e) = parsed {
            cx.syn_error(e);
            return None;
        }
        if !named {
            cx.error(attr, "a `#[family(...)]` needs the family's `name = \"d\"`");
            return None;
        }
        Some(decl)
    }
}

/// `"30d"`, `"12h"`, `"90m"`, `"45s"`, `"2w"`: seconds.
fn parse_duration(s: &str) -> Option<u64> {
    let s = s.trim();
    let unit = s.chars().last()?;
    let n: u64 = s[..s.len() - unit.len_utf8()].trim().parse().ok()?;
    let mult = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3600,
        'd' => 86_400,
        'w' => 7 * 86_400,
        _ => return None,
    };
    n.checked_mul(mult)
}

/// One of `choices`, by its spelling; an unknown spelling is an error listing them.
fn choice(
    cx: &Ctxt,
    meta: &syn::meta::ParseNestedMeta<'_>,
    key: &str,
    choices: Choices,
) -> syn::Result<Option<Spanned<&'static str>>> {
    let lit: syn::LitStr = meta.value()?.parse()?;
    let value = lit.value();
    match choices.iter().find(|(name, _)| *name == value) {
        Some((_, variant)) => Ok(Some(Spanned {
            value: variant,
            span: lit.span(),
        })),
        None => {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            cx.error(
                &lit,
                format!(
                    "unknown `{key}` \"{value}\": expected one of {}{}",
                    names.join(", "),
                    crate::attr::suggest(&value, &names)
                ),
            );
            Ok(None)
        }
    }
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
            families: Vec::new(),
        };
        for attr in input.attrs.iter().filter(|a| a.path().is_ident("family")) {
            if let Some(decl) = FamilyDecl::parse(cx, attr) {
                value.families.push(decl);
            }
        }
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
