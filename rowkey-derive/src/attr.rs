//! Hand-written parsing of rowkey's attributes, one function per attribute. Checks that involve
//! a single attribute (a width of zero, buckets out of range, an unknown key) happen here, at
//! the offending token; rules that relate attributes or fields live in `validate.rs`.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, LitInt, Meta};

use crate::ctxt::Ctxt;
use crate::symbol::*;

/// HBase's row-key limit (`Short.MAX_VALUE`), the default and the largest `max_len`.
pub const HBASE_KEY_LIMIT: usize = 32767;

/// An attribute value with the span of the attribute that gave it.
#[derive(Clone, Copy)]
pub struct Located<T> {
    /// The attribute's path (`fixed` in `#[fixed(16)]`): where misuse is reported.
    pub span: Span,
    /// The span of the value itself (`16`), for errors about the value.
    pub value_span: Span,
    pub value: T,
}

/// A salt strategy, `#[salt(buckets = N, hash = "...")]`; the runtime's `SaltHash` by name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SaltHash {
    Md5,
    Java,
    Phoenix,
    Xxh3,
    Mod,
}

impl SaltHash {
    pub const ALL: [SaltHash; 5] = [
        SaltHash::Md5,
        SaltHash::Java,
        SaltHash::Phoenix,
        SaltHash::Xxh3,
        SaltHash::Mod,
    ];

    /// The name in the attribute, the runtime's `SaltHash` variant name and the schema data.
    pub fn name(self) -> &'static str {
        match self {
            SaltHash::Md5 => "md5",
            SaltHash::Java => "java",
            SaltHash::Phoenix => "phoenix",
            SaltHash::Xxh3 => "xxh3",
            SaltHash::Mod => "mod",
        }
    }

    /// The runtime's variant name.
    pub fn variant(self) -> &'static str {
        match self {
            SaltHash::Md5 => "Md5",
            SaltHash::Java => "Java",
            SaltHash::Phoenix => "Phoenix",
            SaltHash::Xxh3 => "Xxh3",
            SaltHash::Mod => "Mod",
        }
    }

    /// How the layout docs write the salt byte's formula over `fields`.
    pub fn formula(self, fields: &str, buckets: u16) -> String {
        match self {
            SaltHash::Md5 => format!("md5({fields}) % {buckets}"),
            SaltHash::Java => format!("abs(java_hash({fields}) % {buckets})"),
            SaltHash::Phoenix => format!("abs(java_hash(whole key) % {buckets})"),
            SaltHash::Xxh3 => format!("xxh3({fields}) % {buckets}"),
            SaltHash::Mod => format!("{fields} % {buckets}"),
        }
    }
}

/// What `#[java(...)]` asks for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Java {
    /// `#[java]`: `Bytes.toBytes` / `DataOutput.writeLong` and kin.
    Bytes,
    /// `#[java(utf)]`: `DataOutput.writeUTF`.
    Utf,
}

/// Every rowkey attribute a field can carry.
#[derive(Default)]
pub struct FieldAttrs {
    pub salt: Option<Located<u16>>,
    /// `hash = "..."` inside `#[salt(...)]`, when written (MD5 otherwise).
    pub salt_hash: Option<Located<SaltHash>>,
    pub fixed: Option<Located<usize>>,
    pub max_len: Option<Located<usize>>,
    pub hash: Option<Located<usize>>,
    pub reverse_ts: Option<Span>,
    pub desc: Option<Span>,
    pub reverse: Option<Span>,
    pub timestamp: Option<Span>,
    /// `#[row_span(N)]`: the row key holds `v - v % N`, the column qualifier `v % N` and every
    /// field after this one.
    pub row_span: Option<Located<u64>>,
    /// `#[uid(kind = "host")]`: the field holds an id from the lookup table's kind `host`.
    pub uid: Option<Located<String>>,
    /// `#[java]` (`Java::Bytes`) or `#[java(utf)]` (`Java::Utf`).
    pub java: Option<Located<Java>>,
    /// `#[rest]`: the last field takes the rest of the key.
    pub rest: Option<Span>,
    /// `#[decimal]` (width 0: unpadded) or `#[decimal(width = N)]`.
    pub decimal: Option<Located<usize>>,
    /// `#[hex]`, `#[hex(width = N, upper)]`: (width, 0 unpadded; uppercase).
    pub hex: Option<Located<(usize, bool)>>,
    /// The attributes as written, for the layout docs (`fixed(16)`).
    pub rendered: Vec<String>,
}

/// The `#[rowkey(...)]` attribute on the struct.
pub struct ContainerAttrs {
    /// `key_limit = N` (or its deprecated spelling `max_len = N`).
    pub max_len: Option<Located<usize>>,
    /// Where the deprecated `max_len = N` was written, for the deprecation warning.
    pub deprecated_max_len: Option<Span>,
    pub allow_hotspot: Option<Span>,
    /// `query`: generate the skip-scan query builder.
    pub query: Option<Span>,
    /// `prefix(a, b)` on an enum: the entity fields every record type starts with.
    pub prefix: Option<(Span, Vec<syn::Ident>)>,
    /// `crate = "path"`: where the generated code finds `rowkey` when the dependency is
    /// renamed or re-exported (as serde's `#[serde(crate = "...")]`).
    pub crate_path: Option<syn::Path>,
    /// `fingerprint = 0x...`: the layout fingerprint the key must keep.
    pub fingerprint: Option<Located<u64>>,
    /// `index_of = Record`: the record key type this key indexes, with the span of the
    /// attribute's key.
    pub index_of: Option<(Span, syn::Type)>,
    /// `delimiter = ':'`: a text key, its fields joined by this byte.
    pub delimiter: Option<Located<u8>>,
    /// `hash_prefix(md5, of = field, upper, len = N)`.
    pub hash_prefix: Option<HashPrefixAttr>,
}

/// `#[rowkey(hash_prefix(md5, of = field, upper, len = N))]`: the key starts with the MD5 of a
/// field (as hex digits in a text key).
pub struct HashPrefixAttr {
    /// The attribute's key (`hash_prefix`).
    pub span: Span,
    /// The field hashed.
    pub of: syn::Ident,
    /// Uppercase hex digits.
    pub upper: Option<Span>,
    /// How many hex digits (text key) or bytes (binary key); the whole digest by default.
    pub len: Option<Located<usize>>,
}

/// Records `value` into `slot`, or reports a duplicate at the second occurrence.
fn set<T>(cx: &Ctxt, slot: &mut Option<T>, value: T, name: &str, span: Span) {
    if slot.is_some() {
        cx.error_at(span, format_args!("duplicate `{name}` attribute"));
    } else {
        *slot = Some(value);
    }
}

/// Parses an integer literal within `lo..=hi`, reporting at the literal.
fn int_in(
    cx: &Ctxt,
    lit: &LitInt,
    lo: usize,
    hi: usize,
    what: &str,
    example: &str,
) -> Option<usize> {
    match lit.base10_parse::<usize>() {
        Ok(v) if (lo..=hi).contains(&v) => Some(v),
        _ => {
            cx.error(
                lit,
                format_args!("expected {what} between {lo} and {hi}, e.g. `{example}`"),
            );
            None
        }
    }
}

/// "did you mean" for a misspelled key.
pub fn suggest(found: &str, expected: &[&str]) -> String {
    let best = expected
        .iter()
        .map(|e| (edit_distance(found, e), e))
        .min()
        .filter(|(d, _)| *d <= 2);
    match best {
        Some((_, e)) => format!("; did you mean `{e}`?"),
        None => String::new(),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

fn list_keys(keys: &[&str]) -> String {
    let quoted: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
    match quoted.len() {
        1 => quoted[0].clone(),
        n => format!("{} or {}", quoted[..n - 1].join(", "), quoted[n - 1]),
    }
}

/// The error for an unknown key inside `#[attr(...)]`, with the accepted keys and a suggestion.
fn unknown_key(
    meta: &syn::meta::ParseNestedMeta,
    attr: &str,
    expected: &[&str],
    example: &str,
) -> syn::Error {
    let key = meta
        .path
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_default();
    // A misspelling of the key limit's old name (`maxlen`) is pointed at its new one.
    let hint = if attr == ROWKEY && suggest(&key, &[MAX_LEN]).is_empty() {
        suggest(&key, expected)
    } else if attr == ROWKEY {
        format!("; did you mean `{KEY_LIMIT}`?")
    } else {
        suggest(&key, expected)
    };
    meta.error(format_args!(
        "unknown `{attr}` key `{key}`; expected {}{example}{hint}",
        list_keys(expected),
    ))
}

/// Reports arguments on a flag attribute such as `#[desc]`; returns whether it was clean.
fn flag(cx: &Ctxt, attr: &Attribute, name: &str) -> bool {
    match &attr.meta {
        Meta::Path(_) => true,
        other => {
            cx.error(
                other,
                format_args!("`{name}` takes no arguments: write `#[{name}]`"),
            );
            false
        }
    }
}

/// `#[fixed(16)]`, `#[max_len(64)]`: one integer argument.
fn int_arg(
    cx: &Ctxt,
    attr: &Attribute,
    name: &str,
    lo: usize,
    hi: usize,
    what: &str,
) -> Option<(LitInt, usize)> {
    let example = format!("#[{name}(16)]");
    if let Meta::Path(p) = &attr.meta {
        cx.error(p, format_args!("`{name}` needs {what}: `{example}`"));
        return None;
    }
    match attr.parse_args::<LitInt>() {
        Ok(lit) => {
            let v = int_in(cx, &lit, lo, hi, what, &example)?;
            Some((lit, v))
        }
        Err(e) => {
            cx.syn_error(syn::Error::new(
                e.span(),
                format_args!("expected {what}, e.g. `{example}`"),
            ));
            None
        }
    }
}

impl FieldAttrs {
    /// Reads the rowkey attributes of one field; other attributes are left alone.
    pub fn from_field(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut out = FieldAttrs::default();
        for attr in attrs {
            let path = attr.path();
            let span = path.span();
            let Some(name) = path.get_ident().map(|i| i.to_string()) else {
                continue;
            };
            match name.as_str() {
                SALT => {
                    let (buckets, hash) = parse_salt(cx, attr);
                    if let Some(buckets) = buckets {
                        out.rendered.push(match hash {
                            Some(h) => format!("salt(buckets = {}, hash = \"{}\")", buckets.value, h.value.name()),
                            None => format!("salt(buckets = {})", buckets.value),
                        });
                        if out.salt.is_none() {
                            out.salt_hash = hash;
                        }
                        set(cx, &mut out.salt, Located { span, ..buckets }, SALT, span);
                    }
                }
                FIXED => {
                    if let Some((lit, v)) = int_arg(cx, attr, FIXED, 1, HBASE_KEY_LIMIT, "a width in bytes") {
                        out.rendered.push(format!("fixed({v})"));
                        set(cx, &mut out.fixed, Located { span, value_span: lit.span(), value: v }, FIXED, span);
                    }
                }
                MAX_LEN => {
                    let what = "a length in bytes";
                    if let Some((lit, v)) = int_arg(cx, attr, MAX_LEN, 1, HBASE_KEY_LIMIT, what) {
                        out.rendered.push(format!("max_len({v})"));
                        set(cx, &mut out.max_len, Located { span, value_span: lit.span(), value: v }, MAX_LEN, span);
                    }
                }
                HASH => {
                    if let Some(len) = parse_hash(cx, attr) {
                        out.rendered.push(if len.value == 16 {
                            "hash(md5)".to_string()
                        } else {
                            format!("hash(md5, len = {})", len.value)
                        });
                        set(cx, &mut out.hash, Located { span, ..len }, HASH, span);
                    }
                }
                REVERSE_TS | DESC | REVERSE | TIMESTAMP if flag(cx, attr, &name) => {
                    {
                        out.rendered.push(name.clone());
                        let slot = match name.as_str() {
                            REVERSE_TS => &mut out.reverse_ts,
                            DESC => &mut out.desc,
                            REVERSE => &mut out.reverse,
                            _ => &mut out.timestamp,
                        };
                        set(cx, slot, span, &name, span);
                    }
                }
                ROW_SPAN => {
                    let what = "the number of values one row holds";
                    let hi = usize::try_from(i64::MAX).unwrap_or(usize::MAX);
                    if let Some((lit, v)) = int_arg(cx, attr, ROW_SPAN, 2, hi, what) {
                        out.rendered.push(format!("row_span({v})"));
                        let value = v as u64;
                        set(cx, &mut out.row_span, Located { span, value_span: lit.span(), value }, ROW_SPAN, span);
                    }
                }
                UID => {
                    if let Some(kind) = parse_uid(cx, attr) {
                        out.rendered.push(format!("uid(kind = \"{}\")", kind.value));
                        set(cx, &mut out.uid, Located { span, ..kind }, UID, span);
                    }
                }
                JAVA => {
                    if let Some(java) = parse_java(cx, attr) {
                        out.rendered.push(match java.value {
                            Java::Bytes => "java".to_string(),
                            Java::Utf => "java(utf)".to_string(),
                        });
                        set(cx, &mut out.java, Located { span, ..java }, JAVA, span);
                    }
                }
                DECIMAL => {
                    if let Some(d) = parse_text_number(cx, attr, DECIMAL, false) {
                        out.rendered.push(if d.value.0 == 0 {
                            DECIMAL.to_string()
                        } else {
                            format!("decimal(width = {})", d.value.0)
                        });
                        let v = Located { span, value_span: d.value_span, value: d.value.0 };
                        set(cx, &mut out.decimal, v, DECIMAL, span);
                    }
                }
                HEX => {
                    if let Some(h) = parse_text_number(cx, attr, HEX, true) {
                        let (w, upper) = h.value;
                        out.rendered.push(match (w, upper) {
                            (0, false) => HEX.to_string(),
                            (0, true) => "hex(upper)".to_string(),
                            (w, false) => format!("hex(width = {w})"),
                            (w, true) => format!("hex(width = {w}, upper)"),
                        });
                        set(cx, &mut out.hex, Located { span, ..h }, HEX, span);
                    }
                }
                REST if flag(cx, attr, &name) => {
                    out.rendered.push(name.clone());
                    set(cx, &mut out.rest, span, &name, span);
                }
                ROWKEY => cx.error_at(
                    span,
                    "`#[rowkey(...)]` goes on the struct; on a field use `salt`, `fixed`, `max_len`, `hash`, `reverse_ts`, `desc`, `reverse`, `timestamp`, `row_span`, `uid`, `java`, `rest`, `decimal` or `hex`",
                ),
                TAG => cx.error_at(span, "`tag` goes on an enum variant, not on a field"),
                _ => {}
            }
        }
        out
    }
}

/// `#[salt(buckets = N)]`, N in 2..=256, optionally `hash = "md5" | "java" | "phoenix" |
/// "xxh3" | "mod"`.
fn parse_salt(cx: &Ctxt, attr: &Attribute) -> (Option<Located<u16>>, Option<Located<SaltHash>>) {
    if let Meta::Path(p) = &attr.meta {
        cx.error(
            p,
            "`salt` needs the number of buckets: `#[salt(buckets = 16)]`",
        );
        return (None, None);
    }
    let mut buckets = None;
    let mut hash = None;
    let mut seen = false;
    let res = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident(BUCKETS) {
            seen = true;
            let lit: LitInt = meta.value()?.parse()?;
            if let Some(v) = int_in(cx, &lit, 2, 256, "`buckets`", "#[salt(buckets = 16)]") {
                set(
                    cx,
                    &mut buckets,
                    Located {
                        span: lit.span(),
                        value_span: lit.span(),
                        value: v as u16,
                    },
                    BUCKETS,
                    meta.path.span(),
                );
            }
            Ok(())
        } else if meta.path.is_ident(HASH) {
            let lit: syn::LitStr = meta.value()?.parse()?;
            let name = lit.value();
            match SaltHash::ALL.into_iter().find(|h| h.name() == name) {
                Some(h) => set(
                    cx,
                    &mut hash,
                    Located {
                        span: lit.span(),
                        value_span: lit.span(),
                        value: h,
                    },
                    HASH,
                    meta.path.span(),
                ),
                None => cx.error_at(
                    lit.span(),
                    format_args!(
                        "unknown salt hash `{name}`: expected one of {}",
                        SaltHash::ALL
                            .iter()
                            .map(|h| format!("`\"{}\"`", h.name()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ),
            }
            Ok(())
        } else {
            Err(unknown_key(
                &meta,
                SALT,
                &[BUCKETS, HASH],
                ", e.g. `#[salt(buckets = 16)]` or `#[salt(buckets = 16, hash = \"java\")]`",
            ))
        }
    });
    if let Err(e) = res {
        cx.syn_error(e);
        return (None, None);
    }
    if !seen {
        cx.error(
            &attr.meta,
            "`salt` needs the number of buckets: `#[salt(buckets = 16)]`",
        );
    }
    (buckets, hash)
}

/// `#[uid(kind = "host")]`: the kind of name (a `UidTable`'s kind) whose id the field holds.
fn parse_uid(cx: &Ctxt, attr: &Attribute) -> Option<Located<String>> {
    const EXAMPLE: &str = "`#[uid(kind = \"host\")]`";
    if let Meta::Path(p) = &attr.meta {
        cx.error(
            p,
            format_args!("`uid` needs the kind of name whose id the field holds: {EXAMPLE}"),
        );
        return None;
    }
    let mut kind = None;
    let mut seen = false;
    let res = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident(KIND) {
            seen = true;
            let lit: syn::LitStr = meta.value()?.parse()?;
            let value = lit.value();
            if value.is_empty() || value.chars().any(|c| c == '"' || c == '\\' || c.is_control()) {
                cx.error_at(
                    lit.span(),
                    format_args!("a kind is a non-empty name without quotes, backslashes or control characters, e.g. {EXAMPLE}"),
                );
            } else {
                let located = Located {
                    span: lit.span(),
                    value_span: lit.span(),
                    value,
                };
                set(cx, &mut kind, located, KIND, meta.path.span());
            }
            Ok(())
        } else {
            Err(unknown_key(&meta, UID, &[KIND], &format!(", e.g. {EXAMPLE}")))
        }
    });
    if let Err(e) = res {
        cx.syn_error(e);
        return None;
    }
    if !seen {
        cx.error(
            &attr.meta,
            format_args!("`uid` needs the kind of name whose id the field holds: {EXAMPLE}"),
        );
    }
    kind
}

/// `#[hash(md5)]` or `#[hash(md5, len = N)]`, N in 1..=16; the value is the digest length.
/// `#[decimal]`, `#[decimal(width = N)]`, `#[hex]`, `#[hex(width = N, upper)]`: (width, upper).
fn parse_text_number(
    cx: &Ctxt,
    attr: &Attribute,
    name: &str,
    hex: bool,
) -> Option<Located<(usize, bool)>> {
    let span = attr.path().span();
    if let Meta::Path(_) = &attr.meta {
        return Some(Located {
            span,
            value_span: span,
            value: (0, false),
        });
    }
    let mut width: Option<usize> = None;
    let mut upper = false;
    let example = if hex {
        "#[hex(width = 8, upper)]"
    } else {
        "#[decimal(width = 6)]"
    };
    let res = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident(WIDTH) {
            let lit: LitInt = meta.value()?.parse()?;
            if let Some(v) = int_in(cx, &lit, 1, 40, "`width`", example) {
                set(cx, &mut width, v, WIDTH, meta.path.span());
            }
            Ok(())
        } else if hex && meta.path.is_ident(UPPER) {
            upper = true;
            Ok(())
        } else {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            let expected: &[&str] = if hex { &[WIDTH, UPPER] } else { &[WIDTH] };
            Err(meta.error(format_args!(
                "unknown `{name}` argument `{key}`; expected {}, e.g. `{example}`{}",
                if hex {
                    "`width = N` and `upper`"
                } else {
                    "`width = N`"
                },
                suggest(&key, expected)
            )))
        }
    });
    if let Err(e) = res {
        cx.syn_error(e);
        return None;
    }
    Some(Located {
        span,
        value_span: span,
        value: (width.unwrap_or(0), upper),
    })
}

/// `#[java]` or `#[java(utf)]`.
fn parse_java(cx: &Ctxt, attr: &Attribute) -> Option<Located<Java>> {
    let span = attr.path().span();
    let mut value = None;
    if let Meta::Path(_) = &attr.meta {
        return Some(Located {
            span,
            value_span: span,
            value: Java::Bytes,
        });
    }
    let res = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident(UTF) {
            set(cx, &mut value, meta.path.span(), UTF, meta.path.span());
            Ok(())
        } else {
            let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
            Err(meta.error(format_args!(
                "unknown `java` argument `{key}`; expected `utf` (`#[java(utf)]`: `DataOutput.writeUTF`), or no argument (`#[java]`: `Bytes.toBytes`, `DataOutput.writeLong` and kin){}",
                suggest(&key, &[UTF])
            )))
        }
    });
    if let Err(e) = res {
        cx.syn_error(e);
        return None;
    }
    match value {
        Some(value_span) => Some(Located {
            span,
            value_span,
            value: Java::Utf,
        }),
        None => {
            cx.error(
                &attr.meta,
                "`java(...)` needs `utf`: `#[java(utf)]`, or write `#[java]`",
            );
            None
        }
    }
}

fn parse_hash(cx: &Ctxt, attr: &Attribute) -> Option<Located<usize>> {
    if let Meta::Path(p) = &attr.meta {
        cx.error(
            p,
            "`hash` needs an algorithm: `#[hash(md5)]` or `#[hash(md5, len = 8)]`",
        );
        return None;
    }
    let mut algo = None;
    let mut len: Option<Located<usize>> = None;
    let res = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident(MD5) {
            set(cx, &mut algo, (), MD5, meta.path.span());
            Ok(())
        } else if meta.path.is_ident(LEN) {
            let lit: LitInt = meta.value()?.parse()?;
            if let Some(v) = int_in(cx, &lit, 1, 16, "`len`", "#[hash(md5, len = 8)]") {
                set(cx, &mut len, Located { span: lit.span(), value_span: lit.span(), value: v }, LEN, meta.path.span());
            }
            Ok(())
        } else {
            let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
            Err(meta.error(format_args!(
                "unknown `hash` argument `{key}`; expected `md5` and optionally `len = N`, e.g. `#[hash(md5, len = 8)]`{}",
                suggest(&key, &[MD5, LEN])
            )))
        }
    });
    if let Err(e) = res {
        cx.syn_error(e);
        return None;
    }
    if algo.is_none() {
        cx.error(
            &attr.meta,
            "`hash` needs an algorithm: `#[hash(md5)]` or `#[hash(md5, len = 8)]`",
        );
        return None;
    }
    let span = attr.path().span();
    Some(len.unwrap_or(Located {
        span,
        value_span: span,
        value: 16,
    }))
}

/// `#[tag(N)]` on an enum variant: the record type's byte, 0..=255, stored in every key.
pub fn variant_tag(cx: &Ctxt, attrs: &[Attribute]) -> Option<Located<u8>> {
    let mut tag = None;
    for attr in attrs {
        let path = attr.path();
        if path.is_ident(TAG) {
            if let Some((lit, v)) = int_arg(cx, attr, TAG, 0, 255, "the record type's byte") {
                let loc = Located {
                    span: path.span(),
                    value_span: lit.span(),
                    value: v as u8,
                };
                set(cx, &mut tag, loc, TAG, path.span());
            }
        } else if path.is_ident(ROWKEY) {
            cx.error(path, "`#[rowkey(...)]` goes on the enum, not on a variant");
        } else if let Some(name) = FIELD_ATTRS.iter().find(|n| path.is_ident(n)) {
            cx.error(
                path,
                format_args!("`{name}` goes on a field, not on a variant"),
            );
        }
    }
    tag
}

impl ContainerAttrs {
    /// Reads `#[rowkey(...)]` on the struct, and reports field attributes put on the struct.
    pub fn from_input(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut out = ContainerAttrs {
            max_len: None,
            deprecated_max_len: None,
            allow_hotspot: None,
            delimiter: None,
            hash_prefix: None,
            query: None,
            prefix: None,
            crate_path: None,
            fingerprint: None,
            index_of: None,
        };
        for attr in attrs {
            let path = attr.path();
            if path.is_ident(ROWKEY) {
                let res = attr.parse_nested_meta(|meta| {
                    if meta.path.is_ident(KEY_LIMIT) || meta.path.is_ident(MAX_LEN) {
                        if meta.path.is_ident(MAX_LEN) {
                            out.deprecated_max_len = Some(meta.path.span());
                        }
                        let lit: LitInt = meta.value()?.parse()?;
                        if let Some(v) = int_in(
                            cx,
                            &lit,
                            1,
                            HBASE_KEY_LIMIT,
                            "`key_limit`",
                            "#[rowkey(key_limit = 4096)]",
                        ) {
                            let loc = Located {
                                span: meta.path.span(),
                                value_span: lit.span(),
                                value: v,
                            };
                            set(cx, &mut out.max_len, loc, KEY_LIMIT, meta.path.span());
                        }
                        Ok(())
                    } else if meta.path.is_ident(ALLOW_HOTSPOT) {
                        set(
                            cx,
                            &mut out.allow_hotspot,
                            meta.path.span(),
                            ALLOW_HOTSPOT,
                            meta.path.span(),
                        );
                        Ok(())
                    } else if meta.path.is_ident(QUERY) {
                        set(cx, &mut out.query, meta.path.span(), QUERY, meta.path.span());
                        Ok(())
                    } else if meta.path.is_ident(HASH_PREFIX) {
                        let span = meta.path.span();
                        let mut md5 = false;
                        let mut of: Option<syn::Ident> = None;
                        let mut upper = None;
                        let mut len = None;
                        meta.parse_nested_meta(|inner| {
                            if inner.path.is_ident(MD5) {
                                md5 = true;
                                Ok(())
                            } else if inner.path.is_ident(OF) {
                                of = Some(inner.value()?.parse()?);
                                Ok(())
                            } else if inner.path.is_ident(UPPER) {
                                upper = Some(inner.path.span());
                                Ok(())
                            } else if inner.path.is_ident(LEN) {
                                let lit: LitInt = inner.value()?.parse()?;
                                if let Some(v) = int_in(cx, &lit, 1, 32, "`len`", "hash_prefix(md5, of = id, len = 8)") {
                                    len = Some(Located { span: inner.path.span(), value_span: lit.span(), value: v });
                                }
                                Ok(())
                            } else {
                                let key = inner.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                                Err(inner.error(format_args!(
                                    "unknown `hash_prefix` argument `{key}`; expected `md5`, `of = field`, `upper` and `len = N`, e.g. `hash_prefix(md5, of = message_id, upper)`{}",
                                    suggest(&key, &[MD5, OF, UPPER, LEN])
                                )))
                            }
                        })?;
                        match (md5, of) {
                            (true, Some(of)) => {
                                let attr = HashPrefixAttr { span, of, upper, len };
                                if out.hash_prefix.is_some() {
                                    cx.error_at(span, "duplicate `hash_prefix` attribute");
                                } else {
                                    out.hash_prefix = Some(attr);
                                }
                            }
                            _ => cx.error_at(
                                span,
                                "`hash_prefix` needs its hash and the field it hashes: `hash_prefix(md5, of = message_id)`",
                            ),
                        }
                        Ok(())
                    } else if meta.path.is_ident(DELIMITER) {
                        let lit: syn::Lit = meta.value()?.parse()?;
                        let byte = match &lit {
                            syn::Lit::Char(c) if c.value().is_ascii() => Some(c.value() as u8),
                            syn::Lit::Byte(b) => Some(b.value()),
                            syn::Lit::Str(s) if s.value().len() == 1 => Some(s.value().as_bytes()[0]),
                            _ => None,
                        };
                        match byte {
                            Some(b) => set(
                                cx,
                                &mut out.delimiter,
                                Located { span: meta.path.span(), value_span: lit.span(), value: b },
                                DELIMITER,
                                meta.path.span(),
                            ),
                            None => cx.error_at(
                                lit.span(),
                                "`delimiter` is one ASCII character or byte, e.g. `#[rowkey(delimiter = ':')]` or `delimiter = b'\\x00'`",
                            ),
                        }
                        Ok(())
                    } else if meta.path.is_ident(INDEX_OF) {
                        let ty: syn::Type = meta.value()?.parse()?;
                        set(cx, &mut out.index_of, (meta.path.span(), ty), INDEX_OF, meta.path.span());
                        Ok(())
                    } else if meta.path.is_ident(FINGERPRINT) {
                        let lit: LitInt = meta.value()?.parse()?;
                        match lit.base10_parse::<u64>() {
                            Ok(v) => set(
                                cx,
                                &mut out.fingerprint,
                                Located {
                                    span: meta.path.span(),
                                    value_span: lit.span(),
                                    value: v,
                                },
                                FINGERPRINT,
                                meta.path.span(),
                            ),
                            Err(_) => cx.error(
                                &lit,
                                "expected the key's 64-bit fingerprint, e.g. `#[rowkey(fingerprint = 0x1234_5678_9abc_def0)]` (the value is in the key's docs and `RowKey::FINGERPRINT`)",
                            ),
                        }
                        Ok(())
                    } else if meta.path.is_ident(CRATE) {
                        let lit: syn::LitStr = meta.value()?.parse()?;
                        match lit.parse::<syn::Path>() {
                            Ok(path) => set(cx, &mut out.crate_path, path, CRATE, meta.path.span()),
                            Err(_) => cx.error(
                                &lit,
                                "expected the path `rowkey` is reachable at, e.g. `#[rowkey(crate = \"my_facade::rowkey\")]`",
                            ),
                        }
                        Ok(())
                    } else if meta.path.is_ident(PREFIX) {
                        let mut names = Vec::new();
                        meta.parse_nested_meta(|inner| {
                            match inner.path.get_ident() {
                                Some(id) => names.push(id.clone()),
                                None => cx.error(
                                    &inner.path,
                                    "expected a field name, e.g. `#[rowkey(prefix(customer_id))]`",
                                ),
                            }
                            Ok(())
                        })?;
                        set(
                            cx,
                            &mut out.prefix,
                            (meta.path.span(), names),
                            PREFIX,
                            meta.path.span(),
                        );
                        Ok(())
                    } else {
                        Err(unknown_key(
                            &meta,
                            ROWKEY,
                            CONTAINER_KEYS,
                            "",
                        ))
                    }
                });
                if let Err(e) = res {
                    cx.syn_error(e);
                }
            } else if let Some(name) = FIELD_ATTRS.iter().find(|n| path.is_ident(n)) {
                cx.error(
                    path,
                    format_args!("`{name}` goes on a field, not on the type"),
                );
            }
        }
        out
    }

    /// The key limit in bytes.
    pub fn limit(&self) -> usize {
        self.max_len.map_or(HBASE_KEY_LIMIT, |m| m.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_errors(field: syn::Field) -> String {
        let cx = Ctxt::new();
        let _ = FieldAttrs::from_field(&cx, &field.attrs);
        cx.check().err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn buckets_out_of_range_reports_the_range() {
        let f: syn::Field = syn::parse_quote! { #[salt(buckets = 1)] id: u64 };
        assert_eq!(
            field_errors(f),
            "expected `buckets` between 2 and 256, e.g. `#[salt(buckets = 16)]`"
        );
    }

    #[test]
    fn misspelled_key_gets_a_suggestion() {
        let f: syn::Field = syn::parse_quote! { #[salt(bucket = 4)] id: u64 };
        assert!(field_errors(f).ends_with("did you mean `buckets`?"));
    }

    #[test]
    fn attributes_are_rendered_for_docs() {
        let f: syn::Field = syn::parse_quote! { #[fixed(16)] #[desc] name: String };
        let cx = Ctxt::new();
        let a = FieldAttrs::from_field(&cx, &f.attrs);
        cx.check().unwrap();
        assert_eq!(a.rendered, ["fixed(16)", "desc"]);
        assert_eq!(a.fixed.map(|f| f.value), Some(16));
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("bucket", "buckets"), 1);
        assert_eq!(edit_distance("maxlen", "max_len"), 1);
        assert_eq!(edit_distance("abc", "xyz"), 3);
    }
}
