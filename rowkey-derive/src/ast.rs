//! The user's struct as a borrowed tree: each field with its type, the syntactic class of that
//! type, and its parsed attributes. Nothing here emits tokens.

use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, GenericArgument, Ident, PathArguments, Type};

use crate::attr::{ContainerAttrs, FieldAttrs};
use crate::ctxt::Ctxt;

/// Where the generated code finds `rowkey`: `None` for `::rowkey`, or the path
/// `#[rowkey(crate = "...")]` gives.
pub type Krate<'a> = Option<&'a syn::Path>;

pub struct Input<'a> {
    pub ident: &'a Ident,
    pub vis: &'a syn::Visibility,
    pub generics: &'a syn::Generics,
    pub attrs: ContainerAttrs,
    /// A struct's fields (empty for an enum).
    pub fields: Vec<Field<'a>>,
    /// An enum's record types (`None` for a struct).
    pub variants: Option<Vec<Variant<'a>>>,
}

/// One record type of an enum key.
pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub tag: Option<crate::attr::Located<u8>>,
    /// Whether a `#[tag]` attribute was written, valid or not (an invalid one is already
    /// reported; "missing" would be a follow-on error).
    pub tag_written: bool,
    /// All its fields, shared prefix included.
    pub fields: Vec<Field<'a>>,
}

impl Variant<'_> {
    /// The name of the scan builder's selector method for this record type: the variant's
    /// name in `snake_case` (`LineItem` -> `line_item`, `HTTPLog` -> `http_log`).
    pub fn selector(&self) -> String {
        selector_name(self.ident)
    }
}

/// The selector method name of a record type named `ident`; see [`Variant::selector`].
pub fn selector_name(ident: &Ident) -> String {
    snake_case(&ident.unraw().to_string())
}

/// `snake_case` of an `UpperCamelCase` name; a run of capitals is one word (`HTTPLog` ->
/// `http_log`).
pub fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1);
            let starts_word = match prev {
                None | Some('_') => false,
                Some(p) if p.is_lowercase() || p.is_ascii_digit() => true,
                Some(p) => p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()),
            };
            if starts_word {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub class: TyClass,
    pub attrs: FieldAttrs,
}

/// What a field's type looks like, as far as the tokens tell. Type aliases and user types are
/// `Other`: their rules are enforced by trait bounds instead, with their own messages.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TyClass {
    /// `u8`..`u128`, `i8`..`i128`; `signed`, width in bytes.
    Int {
        signed: bool,
        width: usize,
    },
    /// `usize` / `isize`: refused, their width depends on the platform.
    PlatformInt,
    Bool,
    /// `f32` / `f64`, width in bytes.
    Float {
        width: usize,
    },
    /// `String`, `Box<str>`, `Cow<str>`, or borrowed `&str`.
    Text {
        borrowed: bool,
    },
    /// `Vec<u8>`, `Box<[u8]>`, `Cow<[u8]>`, or borrowed `&[u8]`.
    Bytes {
        borrowed: bool,
    },
    /// `[u8; N]` with a literal `N`.
    ByteArray {
        len: Option<usize>,
    },
    Option,
    /// `Hashed<T>` / `Hashed<T, N>` (`N` when a literal).
    Hashed {
        len: Option<usize>,
    },
    /// A type with no key encoding, recognised by its tokens; the message says what to use.
    Unsupported(&'static str),
    Other,
}

impl TyClass {
    /// The encoded width when the type alone fixes it.
    pub fn fixed_width(self) -> Option<usize> {
        match self {
            TyClass::Int { width, .. } | TyClass::Float { width } => Some(width),
            TyClass::Bool => Some(1),
            TyClass::ByteArray { len } => len,
            _ => None,
        }
    }

    pub fn is_text_or_bytes(self) -> bool {
        matches!(self, TyClass::Text { .. } | TyClass::Bytes { .. })
    }

    pub fn is_borrowed(self) -> bool {
        matches!(
            self,
            TyClass::Text { borrowed: true } | TyClass::Bytes { borrowed: true }
        )
    }
}

pub fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        Type::Group(g) => last_segment(&g.elem),
        Type::Paren(p) => last_segment(&p.elem),
        _ => None,
    }
}

pub fn generic_types(seg: &syn::PathSegment) -> Vec<&Type> {
    match &seg.arguments {
        PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn is_ident(ty: &Type, name: &str) -> bool {
    last_segment(ty).is_some_and(|s| s.ident == name && s.arguments.is_none())
}

fn is_u8_slice(ty: &Type) -> bool {
    matches!(ty, Type::Slice(s) if is_ident(&s.elem, "u8"))
}

fn literal_usize(expr: &syn::Expr) -> Option<usize> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse().ok(),
        _ => None,
    }
}

const LIST: &str = "a list of values has no key encoding; byte strings are `Vec<u8>`, `&[u8]` or `[u8; N]`, and a fixed group of values is a nested `#[derive(RowKey)]` struct";
const CHAR: &str = "`char` is not a key field type; use `u32` (its scalar value) or a `String`";
const TUPLE: &str =
    "a tuple is not a key field type; name its parts in a nested `#[derive(RowKey)]` struct";
const COLLECTION: &str =
    "a map or set has no key encoding; store one row per entry, with the entry's key as a field";

/// Classifies a field type by its tokens.
pub fn classify(ty: &Type) -> TyClass {
    match ty {
        Type::Tuple(_) => TyClass::Unsupported(TUPLE),
        Type::Array(a) if !is_ident(&a.elem, "u8") => TyClass::Unsupported(LIST),
        Type::Slice(_) => TyClass::Unsupported(LIST),
        Type::Reference(r) => {
            if is_ident(&r.elem, "str") {
                TyClass::Text { borrowed: true }
            } else if is_u8_slice(&r.elem) {
                TyClass::Bytes { borrowed: true }
            } else if matches!(&*r.elem, Type::Slice(_)) {
                TyClass::Unsupported(LIST)
            } else {
                TyClass::Other
            }
        }
        Type::Array(a) if is_ident(&a.elem, "u8") => TyClass::ByteArray {
            len: literal_usize(&a.len),
        },
        Type::Group(g) => classify(&g.elem),
        Type::Paren(p) => classify(&p.elem),
        _ => {
            let Some(seg) = last_segment(ty) else {
                return TyClass::Other;
            };
            let args = generic_types(seg);
            match (seg.ident.to_string().as_str(), args.as_slice()) {
                ("u8", []) => TyClass::Int {
                    signed: false,
                    width: 1,
                },
                ("u16", []) => TyClass::Int {
                    signed: false,
                    width: 2,
                },
                ("u32", []) => TyClass::Int {
                    signed: false,
                    width: 4,
                },
                ("u64", []) => TyClass::Int {
                    signed: false,
                    width: 8,
                },
                ("u128", []) => TyClass::Int {
                    signed: false,
                    width: 16,
                },
                ("i8", []) => TyClass::Int {
                    signed: true,
                    width: 1,
                },
                ("i16", []) => TyClass::Int {
                    signed: true,
                    width: 2,
                },
                ("i32", []) => TyClass::Int {
                    signed: true,
                    width: 4,
                },
                ("i64", []) => TyClass::Int {
                    signed: true,
                    width: 8,
                },
                ("i128", []) => TyClass::Int {
                    signed: true,
                    width: 16,
                },
                ("usize" | "isize", []) => TyClass::PlatformInt,
                ("bool", []) => TyClass::Bool,
                ("f32", []) => TyClass::Float { width: 4 },
                ("f64", []) => TyClass::Float { width: 8 },
                ("String", []) => TyClass::Text { borrowed: false },
                ("Box" | "Cow", [inner]) if is_ident(inner, "str") => {
                    TyClass::Text { borrowed: false }
                }
                ("Box" | "Cow", [inner]) if is_u8_slice(inner) => {
                    TyClass::Bytes { borrowed: false }
                }
                ("Vec", [inner]) if is_ident(inner, "u8") => TyClass::Bytes { borrowed: false },
                ("Vec" | "VecDeque", [_]) => TyClass::Unsupported(LIST),
                ("char", []) => TyClass::Unsupported(CHAR),
                ("HashMap" | "BTreeMap" | "HashSet" | "BTreeSet" | "IndexMap" | "IndexSet", _) => {
                    TyClass::Unsupported(COLLECTION)
                }
                ("Option", [_]) => TyClass::Option,
                ("Hashed", [_]) => {
                    // `Hashed<T>` keeps 16 bytes; `Hashed<T, N>` names its length.
                    let consts: Vec<&GenericArgument> = match &seg.arguments {
                        PathArguments::AngleBracketed(a) => a
                            .args
                            .iter()
                            .filter(|g| matches!(g, GenericArgument::Const(_)))
                            .collect(),
                        _ => Vec::new(),
                    };
                    let len = match consts.as_slice() {
                        [] => Some(16),
                        [GenericArgument::Const(e)] => literal_usize(e),
                        _ => None,
                    };
                    TyClass::Hashed { len }
                }
                _ => TyClass::Other,
            }
        }
    }
}

/// Whether a field of this type may be another key (a type the derive does not know, or an
/// `Option` of one): what the nesting check looks at.
pub fn may_be_key(ty: &Type) -> bool {
    match classify(ty) {
        TyClass::Other => true,
        TyClass::Option => last_segment(ty)
            .and_then(|seg| generic_types(seg).first().copied())
            .is_some_and(may_be_key),
        _ => false,
    }
}

fn read_fields<'a>(
    cx: &Ctxt,
    fields: &'a syn::punctuated::Punctuated<syn::Field, syn::Token![,]>,
) -> Vec<Field<'a>> {
    fields
        .iter()
        .filter_map(|f| {
            let ident = f.ident.as_ref()?;
            Some(Field {
                ident,
                ty: &f.ty,
                class: classify(&f.ty),
                attrs: FieldAttrs::from_field(cx, &f.attrs),
            })
        })
        .collect()
}

impl<'a> Input<'a> {
    /// Reads the derive input; `None` (with errors recorded) for anything but a struct with
    /// named fields or an enum whose variants have named fields.
    pub fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        let attrs = ContainerAttrs::from_input(cx, &input.attrs);
        let (fields, variants) = match &input.data {
            Data::Struct(s) => match &s.fields {
                Fields::Named(named) => {
                    if named.named.is_empty() {
                        cx.error(&input.ident, "a row key needs at least one field");
                    }
                    if let Some((span, _)) = &attrs.prefix {
                        cx.error_at(*span, "`prefix` declares the shared entity fields of an enum's record types; a struct's fields are all its own");
                    }
                    (read_fields(cx, &named.named), None)
                }
                Fields::Unnamed(u) => {
                    cx.error(u, "`RowKey` needs named fields, so that scans and errors can name them: write `struct Key { id: u64, .. }`");
                    return None;
                }
                Fields::Unit => {
                    cx.error(input, "a row key needs at least one field");
                    return None;
                }
            },
            Data::Enum(e) => {
                if e.variants.is_empty() {
                    cx.error(
                        &input.ident,
                        "a record-type enum needs at least one variant, each with `#[tag(N)]`",
                    );
                }
                let variants = e
                    .variants
                    .iter()
                    .filter_map(|v| {
                        let fields = match &v.fields {
                            Fields::Named(named) => read_fields(cx, &named.named),
                            Fields::Unit => Vec::new(),
                            Fields::Unnamed(u) => {
                                cx.error(u, "record types need named fields, so that scans and errors can name them: write `Order { customer_id: u64, order_id: u64 }`");
                                return None;
                            }
                        };
                        Some(Variant {
                            ident: &v.ident,
                            tag: crate::attr::variant_tag(cx, &v.attrs),
                            tag_written: v.attrs.iter().any(|a| a.path().is_ident(crate::symbol::TAG)),
                            fields,
                        })
                    })
                    .collect();
                (Vec::new(), Some(variants))
            }
            Data::Union(u) => {
                cx.error(u.union_token, "`RowKey` cannot be derived for a union; use a struct or an enum of record types");
                return None;
            }
        };
        Some(Input {
            ident: &input.ident,
            vis: &input.vis,
            generics: &input.generics,
            attrs,
            fields,
            variants,
        })
    }

    /// Every field of the struct, or of every variant.
    pub fn all_fields(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields
            .iter()
            .chain(self.variants.iter().flatten().flat_map(|v| v.fields.iter()))
    }

    /// The fields that lead every key: the struct's, or the shared prefix of the first variant.
    pub fn lead_fields(&self) -> &[Field<'a>] {
        match &self.variants {
            None => &self.fields,
            Some(vs) => {
                let n = self.attrs.prefix.as_ref().map_or(0, |(_, p)| p.len());
                vs.first()
                    .map_or(&[], |v| &v.fields[..n.min(v.fields.len())])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(ty: Type) -> TyClass {
        classify(&ty)
    }

    #[test]
    fn classifies_the_supported_types() {
        assert_eq!(
            class(syn::parse_quote!(u64)),
            TyClass::Int {
                signed: false,
                width: 8
            }
        );
        assert_eq!(
            class(syn::parse_quote!(::core::primitive::i32)),
            TyClass::Int {
                signed: true,
                width: 4
            }
        );
        assert_eq!(
            class(syn::parse_quote!(&'a str)),
            TyClass::Text { borrowed: true }
        );
        assert_eq!(
            class(syn::parse_quote!(Cow<'a, str>)),
            TyClass::Text { borrowed: false }
        );
        assert_eq!(
            class(syn::parse_quote!(&'a [u8])),
            TyClass::Bytes { borrowed: true }
        );
        assert_eq!(
            class(syn::parse_quote!(std::vec::Vec<u8>)),
            TyClass::Bytes { borrowed: false }
        );
        assert_eq!(
            class(syn::parse_quote!([u8; 4])),
            TyClass::ByteArray { len: Some(4) }
        );
        assert_eq!(class(syn::parse_quote!(Option<u8>)), TyClass::Option);
        assert_eq!(
            class(syn::parse_quote!(Hashed<String>)),
            TyClass::Hashed { len: Some(16) }
        );
        assert_eq!(
            class(syn::parse_quote!(Hashed<String, 8>)),
            TyClass::Hashed { len: Some(8) }
        );
        assert_eq!(class(syn::parse_quote!(usize)), TyClass::PlatformInt);
        assert_eq!(
            class(syn::parse_quote!(Vec<u16>)),
            TyClass::Unsupported(LIST)
        );
        assert_eq!(
            class(syn::parse_quote!((u8, u8))),
            TyClass::Unsupported(TUPLE)
        );
        assert_eq!(class(syn::parse_quote!(UserId)), TyClass::Other);
    }
}

#[cfg(test)]
mod snake_case_tests {
    use super::snake_case;

    #[test]
    fn snake_case_splits_words_and_keeps_acronyms_whole() {
        for (camel, snake) in [
            ("Order", "order"),
            ("LineItem", "line_item"),
            ("HTTPLog", "http_log"),
            ("LogV2", "log_v2"),
            ("ABC", "abc"),
            ("Item2Box", "item2_box"),
        ] {
            assert_eq!(snake_case(camel), snake, "{camel}");
        }
    }
}

/// Whether rustc refuses the input itself, whatever a derive emits: a field named twice in the
/// struct or in one variant (E0124), a variant named twice (E0428). The derives then emit
/// nothing that could fail beside rustc's own error (no error of theirs, no code reading the
/// fields): one mistake, one error.
pub fn rustc_refuses(input: &syn::DeriveInput) -> bool {
    use syn::ext::IdentExt;
    fn twice<'a>(names: impl Iterator<Item = &'a syn::Ident>) -> bool {
        let mut seen = std::collections::HashSet::new();
        names
            .map(|n| n.unraw().to_string())
            .any(|n| !seen.insert(n))
    }
    let fields_twice = |f: &'_ syn::Fields| twice(f.iter().filter_map(|f| f.ident.as_ref()));
    match &input.data {
        syn::Data::Struct(s) => fields_twice(&s.fields),
        syn::Data::Enum(e) => {
            twice(e.variants.iter().map(|v| &v.ident))
                || e.variants.iter().any(|v| fields_twice(&v.fields))
        }
        syn::Data::Union(u) => twice(u.fields.named.iter().filter_map(|f| f.ident.as_ref())),
    }
}
