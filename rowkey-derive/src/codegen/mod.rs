//! Turns the model into tokens: the `Encode`, `Decode`, `RowKey` and `Explain` impls, `explain`,
//! and the typed scan builders. The generated code is thin: one runtime codec call per field,
//! every path fully qualified through the runtime's hidden `__private` module, every local
//! prefixed `__rowkey_`. Fields are read through locals bound by [`bind`] or [`variant_match`],
//! so the same code serves a struct and an enum's record types.

mod decode;
mod encode;
mod explain;
pub(crate) mod query;
pub(crate) mod scan;
mod schema;

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt;

use crate::model::{Encoding, Key, KeyField, RecordType};

/// An identifier as users read it in errors, layouts and explanations: `r#type` is `type`.
pub fn name(ident: &Ident) -> String {
    ident.unraw().to_string()
}

/// A field type as the layout tables and `SCHEMA` show it: the tokens as written, without the
/// token stream's spaces (`&'a str`, `Vec<u8>`, `Cow<'a, [u8]>`). The one renderer of types.
pub fn type_name(ty: &syn::Type) -> String {
    quote::ToTokens::to_token_stream(ty)
        .to_string()
        .replace(" < ", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace("& ", "&")
        .replace(" ,", ",")
        .replace(" ;", ";")
}

/// The runtime's hidden module, as generated code names it: `::rowkey::__private`, or under
/// the path `#[rowkey(crate = "...")]` gives (passed explicitly, as zerocopy's `Ctx`); inside
/// the derive's `const _` block, the block's alias of it ([`ALIAS`]).
pub fn private(krate: Krate<'_>) -> Private<'_> {
    private_at(krate, proc_macro2::Span::call_site())
}

/// The same path with every token spanned at `span`, so errors land there.
pub fn private_at(krate: Krate<'_>, span: proc_macro2::Span) -> Private<'_> {
    Private { krate, span }
}

/// The runtime's hidden module path ([`private`]), appended token by token wherever it is
/// interpolated. Generated code names it a few hundred times per key; a `TokenStream` built
/// once and interpolated each time costs the compiler's token bridge a clone and a
/// concatenation per use, which made it a large share of the derive's own run time.
#[derive(Clone, Copy)]
pub struct Private<'a> {
    krate: Krate<'a>,
    span: proc_macro2::Span,
}

impl quote::ToTokens for Private<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let mut out = SpannedOut {
            tokens,
            span: self.span,
        };
        match self.krate {
            Some(path) if path.is_ident(ALIAS) => out.ident(ALIAS),
            Some(path) => out.with(path).segment("__private"),
            None => out.segment("rowkey").segment("__private"),
        };
    }
}

/// The name the derive's `const _` block gives the runtime's hidden module
/// (`use ::rowkey::__private as __rowkey;`). Code generated for the block is lowered with this
/// as its crate path (see [`alias_path`]), so each per-field call there names
/// `__rowkey::read::<__rowkey::Natural, u64, _>` and fits on one line of `cargo expand`,
/// where the full path took four or five (the issue of generated lines per field). A name
/// with the derive's reserved prefix: no user item can be shadowed by it.
pub const ALIAS: &str = "__rowkey";

/// [`ALIAS`] as a crate path, to lower a key for the `const _` block with.
pub fn alias_path() -> syn::Path {
    Ident::new(ALIAS, proc_macro2::Span::call_site()).into()
}

pub use crate::ast::Krate;

/// The codec type of a field: `Desc<Fixed<16>>` for `#[desc] #[fixed(16)]`.
/// Every token is spanned at the field's type, so a type the codec cannot encode is reported
/// there, wherever the codec is used. Appended token by token where it is interpolated, like
/// [`Private`]: the derive writes it several times per field.
pub fn codec_ty<'f>(field: &'f KeyField<'f>) -> CodecTy<'f> {
    CodecTy(field)
}

/// `<Codec as Codec<FieldType>>`, the path every per-field call goes through. Spanned at the
/// field's type, so a type the codec cannot encode is reported there.
pub fn codec_of<'f>(field: &'f KeyField<'f>) -> CodecOf<'f> {
    CodecOf(field)
}

/// See [`codec_ty`].
#[derive(Clone, Copy)]
pub struct CodecTy<'f>(&'f KeyField<'f>);

/// See [`codec_of`].
#[derive(Clone, Copy)]
pub struct CodecOf<'f>(&'f KeyField<'f>);

/// Appends tokens spanned at one span, as `quote_spanned!` writes them.
struct SpannedOut<'t> {
    tokens: &'t mut TokenStream,
    span: proc_macro2::Span,
}

impl SpannedOut<'_> {
    fn punct(&mut self, c: char, spacing: proc_macro2::Spacing) -> &mut Self {
        let mut p = proc_macro2::Punct::new(c, spacing);
        p.set_span(self.span);
        quote::TokenStreamExt::append(self.tokens, p);
        self
    }

    /// `::`, then `name`.
    fn segment(&mut self, name: &str) -> &mut Self {
        self.punct(':', proc_macro2::Spacing::Joint)
            .punct(':', proc_macro2::Spacing::Alone);
        self.ident(name)
    }

    fn ident(&mut self, name: &str) -> &mut Self {
        quote::TokenStreamExt::append(self.tokens, Ident::new(name, self.span));
        self
    }

    fn with(&mut self, t: &impl quote::ToTokens) -> &mut Self {
        t.to_tokens(self.tokens);
        self
    }

    fn lt(&mut self) -> &mut Self {
        self.punct('<', proc_macro2::Spacing::Alone)
    }

    fn gt(&mut self) -> &mut Self {
        self.punct('>', proc_macro2::Spacing::Alone)
    }
}

impl quote::ToTokens for CodecTy<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let field = self.0;
        let span = field.ty_span;
        let p = private_at(field.krate, span);
        let mut out = SpannedOut { tokens, span };
        if field.desc {
            out.with(&p).segment("Desc").lt();
        }
        if let Some(t) = field.text {
            out.with(&p)
                .segment(if t.last { "Last" } else { "Delimited" })
                .lt();
        }
        out.with(&p);
        match field.codec {
            Encoding::Natural => out.segment("Natural"),
            Encoding::Fixed(n) => out.segment("Fixed").lt().with(&n).gt(),
            Encoding::MaxLen(n) => out.segment("MaxLen").lt().with(&n).gt(),
            Encoding::ReverseTs => out.segment("ReverseTs"),
            Encoding::Reverse => out.segment("Reverse"),
            Encoding::Md5(n) => out.segment("Md5").lt().with(&n).gt(),
            Encoding::RowSpan(n) => out
                .segment("RowSpan")
                .lt()
                .with(&proc_macro2::Literal::u64_suffixed(n))
                .gt(),
            Encoding::Java => out.segment("Java"),
            Encoding::JavaUtf => out.segment("JavaUtf"),
            Encoding::Rest => out.segment("Rest"),
            Encoding::Text => out
                .segment("Text")
                .lt()
                .with(&proc_macro2::Literal::u8_suffixed(delimiter(field)))
                .gt(),
            Encoding::ReversedText => out
                .segment("ReversedText")
                .lt()
                .with(&proc_macro2::Literal::u8_suffixed(delimiter(field)))
                .gt(),
            Encoding::PaddedText(n) => out
                .segment("PaddedText")
                .lt()
                .with(&proc_macro2::Literal::usize_suffixed(n))
                .punct(',', proc_macro2::Spacing::Alone)
                .with(&proc_macro2::Literal::u8_suffixed(delimiter(field)))
                .gt(),
            Encoding::Decimal(w) => out
                .segment("Decimal")
                .lt()
                .with(&proc_macro2::Literal::usize_suffixed(w))
                .gt(),
            Encoding::Hex(w, upper) => out
                .segment("Hex")
                .lt()
                .with(&proc_macro2::Literal::usize_suffixed(w))
                .punct(',', proc_macro2::Spacing::Alone)
                .ident(if upper { "true" } else { "false" })
                .gt(),
        };
        if let Some(t) = field.text {
            out.punct(',', proc_macro2::Spacing::Alone)
                .with(&proc_macro2::Literal::u8_suffixed(t.delimiter))
                .gt();
        }
        if field.desc {
            out.gt();
        }
    }
}

/// The delimiter of a field's text key (0 outside one: never written).
fn delimiter(field: &KeyField) -> u8 {
    field.text.map_or(0, |t| t.delimiter)
}

impl quote::ToTokens for CodecOf<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let field = self.0;
        let span = field.ty_span;
        let p = private_at(field.krate, span);
        SpannedOut { tokens, span }
            .lt()
            .with(&CodecTy(field))
            .ident("as")
            .with(&p)
            .segment("Codec")
            .lt()
            .with(field.ty)
            .punct('>', proc_macro2::Spacing::Joint)
            .gt();
    }
}

/// The local a field's value (or reference) is bound to.
/// A lifetime for generated signatures that rustdoc shows on the user's type: `preferred`
/// (`'de`, `'scan`), readable as serde's `'de` is, unless the user's type already has a
/// lifetime of that name, then the derive's own `fallback`. Keys are generic over lifetimes
/// only (the derive refuses type and const parameters), so generated type parameters (`S`,
/// `R`, `A`) cannot collide with the user's.
pub fn lifetime(generics: &syn::Generics, preferred: &str, fallback: &str) -> syn::Lifetime {
    let taken = generics
        .lifetimes()
        .any(|l| l.lifetime.ident == preferred.trim_start_matches('\''));
    let name = if taken { fallback } else { preferred };
    syn::Lifetime::new(name, proc_macro2::Span::call_site())
}

/// The lifetime of the bytes a key is decoded from: `'de`, or `'__rowkey_de` when the key
/// has a lifetime named `'de` itself.
pub fn de_lifetime(generics: &syn::Generics) -> syn::Lifetime {
    lifetime(generics, "'de", "'__rowkey_de")
}

/// The local that names a field's value in generated code (never a name the user chose).
pub fn local(field: &KeyField) -> Ident {
    format_ident!(
        "__rowkey_f_{}",
        field.ident.unraw(),
        span = proc_macro2::Span::call_site()
    )
}

/// Binds a reference to each of `fields` (a struct's, or an enum's shared prefix) to its local.
pub fn bind(key: &Key, fields: &[KeyField]) -> TokenStream {
    if fields.is_empty() {
        return quote!();
    }
    let names: Vec<_> = fields.iter().map(|f| f.ident).collect();
    let locals: Vec<_> = fields.iter().map(local).collect();
    match &key.variants {
        None => quote!(let Self { #(#names: #locals,)* .. } = self;),
        Some(variants) => {
            let arms = variants.iter().map(|v| {
                let vi = v.ident;
                quote!(Self::#vi { #(#names: #locals,)* .. } => (#(#locals,)*))
            });
            quote!(let (#(#locals,)*) = match self { #(#arms,)* };)
        }
    }
}

/// `match self { Self::V { own fields bound } => body(V), .. }`; with `with_prefix`, the shared
/// prefix fields are bound too.
pub fn variant_match(
    key: &Key,
    with_prefix: bool,
    body: impl Fn(&RecordType) -> TokenStream,
) -> TokenStream {
    let variants = key.variants.as_deref().unwrap_or(&[]);
    let arms = variants.iter().map(|v| {
        let vi = v.ident;
        let mut fields: Vec<&KeyField> = Vec::new();
        if with_prefix {
            fields.extend(key.fields.iter());
        }
        fields.extend(v.fields.iter());
        let names = fields.iter().map(|f| f.ident);
        let locals = fields.iter().map(|f| local(f));
        let b = body(v);
        quote!(Self::#vi { #(#names: #locals,)* .. } => { #b })
    });
    quote!(match self { #(#arms)* })
}

/// The derive's output: `key` lowered with the user's crate path for the items at the user's
/// module level (the scan and query builders), and `local`, the same key lowered with
/// [`ALIAS`], for the `const _` block that holds the trait impls.
pub fn expand(key: &Key, local: &Key) -> TokenStream {
    let runtime = private(key.krate);
    let encode = encode::expand(local);
    let decode = decode::expand(local);
    let rowkey = schema::expand(local);
    // The builder types stay at the user's module level (their paths are the user's); their
    // step methods, one impl per field, go in the block (see `scan::expand`).
    let (scan, steps) = scan::expand(key, local);
    let query = query::expand(key);
    let explain = explain::expand(local);
    let index = index_of(local);
    let rows_as_columns = rows_as_columns(local);
    let alias = Ident::new(ALIAS, proc_macro2::Span::call_site());
    let deprecated = key.deprecated_max_len.map(|span| {
        // A proc macro cannot warn on stable; using a deprecated item, spanned at the old
        // key, makes rustc warn there.
        quote_spanned! {span=>
            const _: () = {
                #[deprecated(note = "`#[rowkey(max_len = N)]` is now `#[rowkey(key_limit = N)]` (the same limit; `#[max_len(N)]` on a field is the field's bound)")]
                const __ROWKEY_MAX_LEN_IS_KEY_LIMIT: () = ();
                __ROWKEY_MAX_LEN_IS_KEY_LIMIT
            };
        }
    });
    quote! {
        #scan
        #query
        #deprecated

        #[doc(hidden)]
        const _: () = {
            use #runtime as #alias;
            #steps
            #encode
            #decode
            #rowkey
            #explain
            #index
            #rows_as_columns
        };
    }
}

/// `RowsAsColumns` for a struct with a `#[row_span(N)]` field: where the row key ends, found
/// by reading the salt byte and the fields before the span field (validation requires them
/// owned), then the span field's bucket start.
fn rows_as_columns(key: &Key) -> TokenStream {
    let Some(at) = key
        .fields
        .iter()
        .position(|f| matches!(f.codec, Encoding::RowSpan(_)))
    else {
        return quote!();
    };
    let p = private(key.krate);
    let ident = key.ident;
    let span_field = &key.fields[at];
    let Encoding::RowSpan(n) = span_field.codec else {
        return quote!();
    };
    let n = proc_macro2::Literal::u64_suffixed(n);
    let span_name = name(span_field.ident);
    let span_ty = span_field.ty;
    let salt = key
        .salt
        .is_some()
        .then(|| quote!(#p::Source::take_array::<1>(&mut __rowkey_src).ok()?;));
    let before = key.fields[..at].iter().map(|f| {
        let codec = codec_ty(f);
        let ty = f.ty;
        let label = name(f.ident);
        quote!(let _: #ty = #p::read::<#codec, #ty, _>(&mut __rowkey_src, #label).ok()?;)
    });
    quote! {
        #[automatically_derived]
        impl #p::RowsAsColumns for #ident {
            const SPAN_FIELD: &'static #p::str = #span_name;
            const SPAN: #p::u64 = #n;

            fn row_key_len(bytes: &[#p::u8]) -> #p::Option<#p::usize> {
                let mut __rowkey_src = #p::Reader::new(bytes);
                #salt
                #(#before)*
                #p::row_key_end::<#span_ty>(&__rowkey_src)
            }
        }
    }
}

/// `IndexOf<Record>`: the fields copied by name, each spanned at the index's field (a missing
/// or differently typed field is an error there), and the record rebuilt from them, spanned at
/// the attribute (a record field the index lacks is an error there: an index holds every field
/// of the record, so that each entry names exactly one record).
fn index_of(key: &Key) -> TokenStream {
    let Some((span, record)) = key.index_of else {
        return quote!();
    };
    let p = private(key.krate);
    let ident = key.ident;
    let from = key.fields.iter().map(|f| {
        let name = f.ident;
        quote_spanned!(name.span()=> #name: ::core::clone::Clone::clone(&__rowkey_record.#name))
    });
    let to = key.fields.iter().map(|f| {
        // Respanned whole at the attribute, so that a mismatch reported from this side points
        // there and not across the struct.
        let name = Ident::new_raw(&f.ident.unraw().to_string(), span);
        let name = if syn::parse_str::<Ident>(&f.ident.unraw().to_string()).is_ok() {
            Ident::new(&f.ident.unraw().to_string(), span)
        } else {
            name
        };
        quote_spanned!(span=> #name: ::core::clone::Clone::clone(&self.#name))
    });
    let record_path = quote_spanned!(span=> #record);
    quote! {
        #[automatically_derived]
        impl #p::IndexOf<#record> for #ident {
            #[inline]
            fn from_record(__rowkey_record: &#record) -> Self {
                #ident { #(#from),* }
            }

            #[inline]
            fn to_record(&self) -> #record {
                #record_path { #(#to),* }
            }
        }
    }
}
