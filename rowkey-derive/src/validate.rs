//! The rules that relate a field's type to its attributes, attributes to each other, and
//! fields to the whole key. One `check_*` function per rule; each reports at the offending
//! token and shows what to write instead.

use proc_macro2::Span;
use syn::GenericParam;

use quote::ToTokens;

use crate::ast::{Field, Input, TyClass, Variant};
use crate::ctxt::Ctxt;
use crate::symbol::{
    DECIMAL, DESC, FIXED, HASH, HEX, JAVA, MAX_LEN, REST, REVERSE, REVERSE_TS, ROW_SPAN, TIMESTAMP,
};

pub fn check(cx: &Ctxt, input: &Input) {
    check_generics(cx, input);
    for field in input.all_fields() {
        check_unsupported(cx, field);
        check_platform_int(cx, field);
        check_fixed_type(cx, field);
        check_max_len_type(cx, field);
        check_reverse_ts_type(cx, field);
        check_timestamp_type(cx, field);
        check_reverse_type(cx, field, input.attrs.delimiter.is_some());
        check_hash_type(cx, field);
        check_java_type(cx, field);
        check_encoding_conflicts(cx, field);
        check_desc(cx, field);
        check_uid(cx, field);
        check_field_name(cx, field);
    }
    match &input.variants {
        None => {
            check_single_salt(cx, &input.fields);
            check_fixed_len_limit(cx, input);
        }
        Some(variants) => {
            check_tags(cx, input.ident, variants);
            check_selectors(cx, input.ident, variants);
            check_prefix(cx, input, variants);
            for v in variants {
                check_single_salt(cx, &v.fields);
            }
        }
    }
    check_rest_is_last(cx, input);
    check_text_key(cx, input);
    check_hash_prefix(cx, input);
    check_salt_strategy(cx, input);
    check_row_span(cx, input);
    check_hotspot(cx, input);
    check_fingerprint(cx, input);
    check_index_of(cx, input);
    check_query(cx, input);
}

/// `#[rowkey(query)]` needs an owned key (a struct or a record-type enum): a skip scan decodes
/// each key it reads into segments, which a key borrowing from its bytes cannot outlive.
fn check_query(cx: &Ctxt, input: &Input) {
    let Some(span) = input.attrs.query else {
        return;
    };
    if input.generics.lifetimes().next().is_some() {
        cx.error_at(
            span,
            "`#[rowkey(query)]` needs an owned key (no lifetimes): put it on the twin with owned \
             fields (`String`, `Vec<u8>`), which has the same layout",
        );
    }
    // The builders' method names: each field's and its `_in`, `build`, and on a record-type
    // enum `tag`, `tag_in` and one selector per record type; two alike would not compile.
    let taken = |names: &mut Vec<String>, name: String, at: proc_macro2::Span| {
        if names.contains(&name) {
            cx.error_at(
                at,
                format!(
                    "`#[rowkey(query)]` would generate two methods named `{name}` on one query \
                     builder (fields `x` and `x_in`, a field named `build` or `tag`, or a record \
                     type whose selector is a field's name); rename one"
                ),
            );
        } else {
            names.push(name);
        }
    };
    let fields = |names: &mut Vec<String>, idents: &mut dyn Iterator<Item = &syn::Ident>| {
        for ident in idents {
            let n = syn::ext::IdentExt::unraw(ident).to_string();
            taken(names, n.clone(), ident.span());
            taken(names, format!("{n}_in"), ident.span());
        }
    };
    let mut base = vec!["build".to_string()];
    match &input.variants {
        None => fields(&mut base, &mut input.fields.iter().map(|f| f.ident)),
        Some(variants) => {
            let prefix: Vec<&syn::Ident> = input
                .attrs
                .prefix
                .as_ref()
                .map(|(_, names)| names.iter().collect())
                .unwrap_or_default();
            fields(&mut base, &mut prefix.iter().copied());
            taken(&mut base, "tag".into(), span);
            taken(&mut base, "tag_in".into(), span);
            for v in variants {
                taken(&mut base, v.selector(), v.ident.span());
                let mut own = vec!["build".to_string()];
                fields(&mut own, &mut v.fields.iter().map(|f| f.ident));
            }
        }
    }
}

/// `#[row_span(N)]` splits one unsigned integer between the row key and the column qualifier:
/// one per struct key, of type `u32` or `u64`, ascending, with the salt (which must be the
/// same for every cell of a row) computed from fields before it only, and owned fields (the
/// row key's end is found by reading them).
fn check_row_span(cx: &Ctxt, input: &Input) {
    if let Some(variants) = &input.variants {
        for f in input
            .fields
            .iter()
            .chain(variants.iter().flat_map(|v| v.fields.iter()))
        {
            if let Some(span) = f.attrs.row_span {
                cx.error_at(
                    span.span,
                    "`row_span` goes on a struct key: a record-type enum's rows differ after their tag",
                );
            }
        }
        return;
    }
    let spans: Vec<(usize, &Field)> = input
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.attrs.row_span.is_some())
        .collect();
    let Some(&(at, field)) = spans.first() else {
        return;
    };
    let span = field
        .attrs
        .row_span
        .map(|l| l.span)
        .unwrap_or_else(Span::call_site);
    for (_, other) in &spans[1..] {
        if let Some(l) = other.attrs.row_span {
            cx.error_at(
                l.span,
                format_args!(
                    "only one field can carry `row_span`: `{}` already ends the row key",
                    field.ident
                ),
            );
        }
    }
    match field.class {
        TyClass::Int { signed: false, width: 4 | 8 } => {
            let n = field.attrs.row_span.map_or(0, |l| l.value);
            if field.class == (TyClass::Int { signed: false, width: 4 }) && n > u64::from(u32::MAX) {
                cx.error_at(
                    field.attrs.row_span.map_or(span, |l| l.value_span),
                    format_args!("a `u32` field cannot span {n} values; use `u64`"),
                );
            }
        }
        _ => cx.error(
            field.ty,
            "`row_span` splits an unsigned integer (`u32` or `u64`, e.g. a timestamp) into the row's bucket start and the offset in the column qualifier",
        ),
    }
    if let Some(desc) = field.attrs.desc {
        cx.error_at(
            desc,
            "`row_span` keeps the field ascending (the qualifiers of a row sort by offset); remove `#[desc]`",
        );
    }
    for (i, f) in input.fields.iter().enumerate() {
        if let (Some(salt), true) = (f.attrs.salt, i >= at) {
            cx.error_at(
                salt.span,
                format_args!(
                    "the salt of a rows-as-columns key must come from fields before `{}`: every cell of a row shares the row's salt byte, so it cannot hash the span field or the qualifier's fields",
                    field.ident
                ),
            );
        }
        if let Some(hash) = f.attrs.salt_hash {
            if hash.value == crate::attr::SaltHash::Phoenix {
                cx.error_at(
                    hash.value_span,
                    "`hash = \"phoenix\"` hashes the whole key, qualifier included, so the cells of one row would need different salt bytes; use `hash = \"java\"` over the fields before the span field",
                );
            }
        }
    }
    if !input.generics.params.is_empty() {
        cx.error_at(
            span,
            "a `row_span` key must own its fields (no lifetimes or type parameters): it is decoded from a row key and a qualifier joined together",
        );
    }
}

/// `index_of` maps fields by name between two structs without lifetimes or type parameters.
fn check_index_of(cx: &Ctxt, input: &Input) {
    let Some((span, _)) = &input.attrs.index_of else {
        return;
    };
    if input.variants.is_some() {
        cx.error_at(
            *span,
            "`index_of` goes on a struct key: an index is one order of a record's fields",
        );
    } else if !matches!(&input.attrs.index_of, Some((_, syn::Type::Path(t))) if t.qself.is_none() && t.path.segments.iter().all(|s| s.arguments.is_none()))
    {
        cx.error_at(
            *span,
            "`index_of` names the record's struct by its path, e.g. `#[rowkey(index_of = UserApp)]`",
        );
    } else if !input.generics.params.is_empty() {
        cx.error_at(
            *span,
            "`index_of` needs an owned key without lifetimes or type parameters: index entries are built from records and turned back into them",
        );
    }
}

/// A pinned `#[rowkey(fingerprint = ...)]` must equal the layout's: otherwise a change to the
/// type would change the bytes of keys already stored.
fn check_fingerprint(cx: &Ctxt, input: &Input) {
    let Some(pinned) = input.attrs.fingerprint else {
        return;
    };
    // Only meaningful once the rest is valid: errors elsewhere already describe the layout.
    if cx.has_errors() {
        return;
    }
    let layout = crate::fingerprint::describe(input);
    // A fingerprint computed in a constant (a field type the tokens do not tell) is checked
    // there, by the assertion code generation emits.
    let Some(now) = crate::fingerprint::fingerprint(input) else {
        return;
    };
    if now != pinned.value {
        let changed = crate::fingerprint::changed(input, pinned.value, now);
        let what = match changed.as_slice() {
            [] => "a part whose own check collided (compare the layout below)".to_string(),
            [one] => one.clone(),
            many => format!("one or more of {}", many.join(", ")),
        };
        cx.error_at(
            pinned.value_span,
            format_args!(
                "the byte layout of `{}` changed: {what}. Its fingerprint is now {now:#018x}, pinned {:#018x}: keys already stored under the pinned layout would no longer decode or sort as before. The layout now: {layout}. Undo the change, or, for a new table or after a migration, pin {now:#018x}",
                input.ident, pinned.value
            ),
        );
    }
}

/// The rules of the salt strategies that constrain the key: `phoenix` hashes the whole key
/// after the salt byte, which only a struct has (an enum's record types differ after their
/// tag); `mod` takes the bucket from one plain unsigned integer, the key's first field.
fn check_salt_strategy(cx: &Ctxt, input: &Input) {
    use crate::attr::SaltHash;
    let fields: Vec<&Field> = match &input.variants {
        None => input.fields.iter().collect(),
        Some(vs) => vs.iter().flat_map(|v| v.fields.iter()).collect(),
    };
    for (i, f) in fields.iter().enumerate() {
        let Some(hash) = f.attrs.salt_hash else {
            continue;
        };
        match hash.value {
            SaltHash::Phoenix if input.variants.is_some() => cx.error_at(
                hash.value_span,
                "`hash = \"phoenix\"` hashes the whole key after the salt byte, and an enum's record types differ after their tag, so one record's bucket could not be found from the entity prefix; use `hash = \"java\"` (the same function over the salted prefix)",
            ),
            SaltHash::Mod => {
                let first = input
                    .lead_fields()
                    .first()
                    .is_some_and(|lead| lead.ident == f.ident)
                    && (input.variants.is_some() || i == 0);
                if !first {
                    cx.error_at(
                        hash.value_span,
                        format_args!(
                            "`hash = \"mod\"` takes the bucket from one field's value (`{} % buckets`): put it on the key's first field",
                            f.ident
                        ),
                    );
                }
                let unsigned = matches!(f.class, TyClass::Int { signed: false, width } if width <= 8);
                let a = &f.attrs;
                let transformed = a.desc.is_some()
                    || a.reverse_ts.is_some()
                    || a.reverse.is_some()
                    || a.hash.is_some()
                    || a.fixed.is_some();
                if !unsigned || transformed {
                    cx.error_at(
                        hash.value_span,
                        format_args!(
                            "`hash = \"mod\"` needs a plain unsigned integer (`u8`, `u16`, `u32` or `u64`, written as such, without `desc`, `reverse_ts`, `reverse`, `hash` or `fixed`): the bucket is its value modulo the buckets; `{}` is not one",
                            f.ident
                        ),
                    );
                }
            }
            _ => {}
        }
    }
}

/// Every record type carries an explicit, unique `#[tag(N)]`: tags are stored in every key, so
/// they are never inferred from declaration order (reordering variants would corrupt data).
fn check_tags(cx: &Ctxt, ident: &syn::Ident, variants: &[Variant]) {
    let mut seen: Vec<(u8, &syn::Ident)> = Vec::new();
    for v in variants {
        match v.tag {
            None if v.tag_written => {}
            None => cx.error(
                v.ident,
                format_args!(
                    "record type `{}` needs an explicit `#[tag(N)]` (0..=255): tags are stored in every key, so they are never inferred from declaration order",
                    v.ident
                ),
            ),
            Some(tag) => match seen.iter().find(|(t, _)| *t == tag.value) {
                Some((_, other)) => cx.error_at(
                    tag.value_span,
                    format_args!("tag {} is already used by `{other}`; every record type of `{ident}` needs its own tag", tag.value),
                ),
                None => seen.push((tag.value, v.ident)),
            },
        }
    }
}

/// Each record type gets a selector method on the scan builder, named after it in
/// `snake_case`: it must not be a method the builder already has, a name no method can take, or
/// another record type's.
fn check_selectors(cx: &Ctxt, ident: &syn::Ident, variants: &[Variant]) {
    let mut seen: Vec<(String, &syn::Ident)> = Vec::new();
    for v in variants {
        let name = v.selector();
        if let Some((_, other)) = seen.iter().find(|(n, _)| *n == name) {
            cx.error(
                v.ident,
                format_args!("record types `{other}` and `{}` would both get the scan selector `{name}()`; rename one of them", v.ident),
            );
        } else if matches!(name.as_str(), "tag" | "ranges") {
            cx.error(
                v.ident,
                format_args!("record type `{}` would get the scan selector `{name}()`, which the scan builder of `{ident}` already has; rename the variant", v.ident),
            );
        } else if matches!(name.as_str(), "self" | "super" | "crate") {
            cx.error(
                v.ident,
                format_args!("record type `{}` would get the scan selector `{name}()`, which is not a valid method name; rename the variant", v.ident),
            );
        }
        seen.push((name, v.ident));
    }
}

/// Every key field gets a scan-builder method of its name, beside the `ranges()` every builder
/// has; a field named `ranges` would give the builder two.
fn check_field_name(cx: &Ctxt, field: &Field) {
    if syn::ext::IdentExt::unraw(field.ident) == "ranges" {
        cx.error(
            field.ident,
            "a key field cannot be named `ranges`: its scan-builder method would clash with `ranges()`, which ends every scan; rename the field",
        );
    }
}

fn same_tokens(a: &impl quote::ToTokens, b: &impl quote::ToTokens) -> bool {
    a.to_token_stream().to_string() == b.to_token_stream().to_string()
}

/// Every record type starts with the fields named in `#[rowkey(prefix(...))]`, in that order,
/// with the same types and attributes as the first record type: the shared entity prefix that
/// lets one scan return every record of an entity. The salt, if any, is computed from the
/// prefix only, so all records of one entity land in one bucket.
fn check_prefix(cx: &Ctxt, input: &Input, variants: &[Variant]) {
    let names: &[syn::Ident] = input.attrs.prefix.as_ref().map_or(&[], |(_, n)| n);
    let Some(first) = variants.first() else {
        return;
    };
    for v in variants {
        for (i, name) in names.iter().enumerate() {
            match v.fields.get(i) {
                Some(f) if f.ident == name => {
                    let model = &first.fields[i];
                    if !same_tokens(f.ty, model.ty) {
                        cx.error(
                            f.ty,
                            format_args!(
                                "`{name}` is `{}` in `{}` but `{}` here: the shared prefix must be the same in every record type",
                                model.ty.to_token_stream(),
                                first.ident,
                                f.ty.to_token_stream()
                            ),
                        );
                    } else if f.attrs.rendered != model.attrs.rendered {
                        let show = |a: &[String]| {
                            if a.is_empty() {
                                "no attributes".to_string()
                            } else {
                                a.iter()
                                    .map(|x| format!("`#[{x}]`"))
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            }
                        };
                        cx.error(
                            f.ident,
                            format_args!(
                                "`{name}` has {} here but {} in `{}`: the shared prefix must be encoded the same in every record type",
                                show(&f.attrs.rendered),
                                show(&model.attrs.rendered),
                                first.ident
                            ),
                        );
                    }
                }
                other => {
                    let at = other
                        .map_or_else(|| v.ident.to_token_stream(), |f| f.ident.to_token_stream());
                    cx.error(
                        at,
                        format_args!(
                            "record type `{}` must start with the shared prefix `{}`: field {} should be `{name}`",
                            v.ident,
                            names.iter().map(ToString::to_string).collect::<Vec<_>>().join("`, `"),
                            i + 1
                        ),
                    );
                    break;
                }
            }
        }
        for f in v.fields.iter().skip(names.len()) {
            if let Some(salt) = f.attrs.salt {
                cx.error_at(
                    salt.span,
                    format_args!(
                        "`salt` must be on a field of the shared prefix (`{}`), so that every record of one entity lands in the same bucket; `{}` is `{}`'s own field",
                        if names.is_empty() { "none declared: add `#[rowkey(prefix(...))]`".to_string() } else { names.iter().map(ToString::to_string).collect::<Vec<_>>().join("`, `") },
                        f.ident,
                        v.ident
                    ),
                );
            }
        }
    }
}

/// A key's layout must be fixed: type and const parameters could change it per use, so only
/// lifetimes are accepted (`struct Key<'a> { host: &'a str }`).
fn check_generics(cx: &Ctxt, input: &Input) {
    for param in &input.generics.params {
        match param {
            GenericParam::Lifetime(_) => {}
            GenericParam::Type(t) => cx.error(
                &t.ident,
                "a row key cannot be generic over types: its byte layout must be fixed; use concrete field types",
            ),
            GenericParam::Const(c) => cx.error(
                &c.ident,
                "a row key cannot be generic over constants: its byte layout must be fixed",
            ),
        }
    }
}

/// Types with no key encoding that the tokens already show (`Vec<u16>`, `char`, tuples, maps)
/// are reported at the type with what to use instead, rather than as a trait error.
fn check_unsupported(cx: &Ctxt, field: &Field) {
    if let TyClass::Unsupported(why) = field.class {
        cx.error(field.ty, why);
    }
}

/// `usize`/`isize` change width between platforms, so keys written on one could not be read
/// on another: `struct K { n: usize }` is refused; write `u64`.
fn check_platform_int(cx: &Ctxt, field: &Field) {
    if field.class == TyClass::PlatformInt {
        cx.error(
            field.ty,
            "`usize` and `isize` have a platform-dependent width, so keys would not read back elsewhere; use `u64` or `i64`",
        );
    }
}

/// `#[fixed(N)] id: u64` is refused: integers are already fixed width; `fixed` pads text and
/// byte strings.
fn check_fixed_type(cx: &Ctxt, field: &Field) {
    let Some(fixed) = field.attrs.fixed else {
        return;
    };
    if field.class.is_text_or_bytes() || field.class == TyClass::Other {
        return;
    }
    let hint = match field.class {
        TyClass::Int { .. } | TyClass::Float { .. } | TyClass::Bool | TyClass::ByteArray { .. } => {
            "; this type is already fixed width: remove `#[fixed]`"
        }
        _ => "",
    };
    cx.error_at(
        fixed.span,
        format_args!(
            "`fixed` applies to text and byte strings (`String`, `&str`, `Vec<u8>`, `&[u8]`, `Cow`, `Box`){hint}"
        ),
    );
}

/// `#[max_len(N)]` bounds a variable-length text or byte string.
fn check_max_len_type(cx: &Ctxt, field: &Field) {
    let Some(max) = field.attrs.max_len else {
        return;
    };
    if !field.class.is_text_or_bytes() && field.class != TyClass::Other {
        cx.error_at(
            max.span,
            "`max_len` bounds a variable-length text or byte string (`String`, `&str`, `Vec<u8>`, ...); this field's width is already known",
        );
    }
}

/// `#[reverse_ts]` stores `i64::MAX - ts`, defined for `u64` and `i64` timestamps only.
fn check_reverse_ts_type(cx: &Ctxt, field: &Field) {
    let Some(span) = field.attrs.reverse_ts else {
        return;
    };
    match field.class {
        TyClass::Int { width: 8, .. } | TyClass::Other => {}
        _ => cx.error_at(
            span,
            "`reverse_ts` applies to `u64` or `i64` timestamps (e.g. milliseconds since the epoch)",
        ),
    }
}

/// `#[timestamp]` marks an ascending time field stored as its integer type.
fn check_timestamp_type(cx: &Ctxt, field: &Field) {
    let Some(span) = field.attrs.timestamp else {
        return;
    };
    if !matches!(field.class, TyClass::Int { .. } | TyClass::Other) {
        cx.error_at(
            span,
            "`timestamp` marks an integer time field (`u64`, `i64`, `u32`, ...)",
        );
    }
}

/// `#[reverse]` reverses the bytes of a fixed-width integer or byte array.
/// In a text key it reverses a text field's characters.
fn check_reverse_type(cx: &Ctxt, field: &Field, text_key: bool) {
    let Some(span) = field.attrs.reverse else {
        return;
    };
    if text_key && matches!(field.class, TyClass::Text { .. }) {
        return;
    }
    if !matches!(
        field.class,
        TyClass::Int { .. } | TyClass::ByteArray { .. } | TyClass::Other
    ) {
        cx.error_at(
            span,
            "`reverse` applies to fixed-width integers and byte arrays (`u64`, `[u8; 8]`, ...), and to text in a text key (`#[rowkey(delimiter = ...)]`)",
        );
    }
}

/// A hashed field decodes to its digest, never to the value, so its type must be able to hold
/// just a digest: `rowkey::Hashed<T>` (16 bytes) or `Hashed<T, N>` with `len = N`.
fn check_hash_type(cx: &Ctxt, field: &Field) {
    match (field.attrs.hash, field.class) {
        (Some(hash), TyClass::Hashed { len: Some(n) }) if n != hash.value => cx.error_at(
            hash.value_span,
            format_args!(
                "`hash` keeps {} bytes but the field type keeps {n}: write `Hashed<_, {}>` or `#[hash(md5, len = {n})]`",
                hash.value, hash.value
            ),
        ),
        (Some(_), TyClass::Hashed { .. } | TyClass::Other) | (None, TyClass::Other) => {}
        (Some(hash), _) => cx.error(
            field.ty,
            format_args!(
                "a `hash` field decodes to its digest, not its value, so its type must be `rowkey::Hashed<T{}>`: write `{}: Hashed<{}>`",
                if hash.value == 16 { String::new() } else { format!(", {}", hash.value) },
                field.ident,
                quote::ToTokens::to_token_stream(field.ty),
            ),
        ),
        (None, TyClass::Hashed { .. }) => cx.error(
            field.ty,
            "a `Hashed` field needs its hash named: add `#[hash(md5)]`",
        ),
        (None, _) => {}
    }
}

/// `#[java]` writes a Java number's bytes, `#[java(utf)]` a Java string as `writeUTF` does
/// (modified UTF-8, decoded into an owned string), `#[rest]` the last field's bytes as written.
fn check_java_type(cx: &Ctxt, field: &Field) {
    let a = &field.attrs;
    if let Some(java) = a.java {
        match (java.value, field.class) {
            (crate::attr::Java::Bytes, TyClass::Int { width: 16, .. }) => cx.error_at(
                java.span,
                "Java has no 128-bit integer: a `#[java]` field is `i8`/`i16`/`i32`/`i64` (Java's `byte`/`short`/`int`/`long`), or unsigned for a Java number that is never negative",
            ),
            (crate::attr::Java::Bytes, TyClass::Int { .. } | TyClass::Float { .. } | TyClass::Other) => {}
            (crate::attr::Java::Bytes, TyClass::Text { .. }) => cx.error_at(
                java.span,
                "`java` writes a number's bytes; Java text is `#[java(utf)]` (`DataOutput.writeUTF`) or, as the key's last part, `#[rest]` (`Bytes.toBytes(String)`)",
            ),
            (crate::attr::Java::Bytes, _) => cx.error_at(
                java.span,
                "`java` applies to integers and floats (Java's `byte`, `short`, `int`, `long`, `float`, `double`)",
            ),
            (crate::attr::Java::Utf, TyClass::Text { borrowed: true }) => cx.error(
                field.ty,
                format_args!(
                    "`java(utf)` text is modified UTF-8, which cannot be borrowed from the key as `&str`: declare `{}: String`",
                    field.ident
                ),
            ),
            (crate::attr::Java::Utf, TyClass::Text { .. } | TyClass::Other) => {}
            (crate::attr::Java::Utf, _) => cx.error_at(
                java.value_span,
                "`java(utf)` is `DataOutput.writeUTF` of a string: the field is a `String`",
            ),
        }
    }
    if let Some(rest) = a.rest {
        match field.class {
            TyClass::Text { .. } | TyClass::Bytes { .. } | TyClass::Other => {}
            TyClass::ByteArray { .. } => cx.error_at(
                rest,
                "a `[u8; N]` has a fixed width already and needs no `rest`; remove `#[rest]`",
            ),
            _ => cx.error_at(
                rest,
                "`rest` takes the key's remaining bytes as text or bytes (`String`, `&str`, `Vec<u8>`, `&[u8]`, `Cow`)",
            ),
        }
    }
}

/// A text key (`#[rowkey(delimiter = ...)]`) writes every field as text joined by the
/// delimiter: text as it is (or reversed), integers as `#[decimal]` or `#[hex]` text. The
/// delimiter must be told apart from every value: no digit, letter, `-` or `+`. `#[decimal]`
/// and `#[hex]` are text, so they need a text key; `#[hex]` takes unsigned integers.
fn check_text_key(cx: &Ctxt, input: &Input) {
    let delimiter = input.attrs.delimiter;
    if let Some(d) = delimiter {
        if input.variants.is_some() {
            cx.error_at(
                d.span,
                "`delimiter` makes a struct a text key; a record-type enum cannot be one",
            );
        }
        if d.value.is_ascii_alphanumeric() || d.value == b'-' || d.value == b'+' {
            cx.error_at(
                d.value_span,
                "a delimiter that a field's text may hold (a digit, a letter, `-` or `+`) could not be told apart from it: choose a punctuation character such as `':'`, `'_'` or `'|'`",
            );
        }
    }
    for field in input.all_fields() {
        let a = &field.attrs;
        let number = a
            .decimal
            .map(|d| (DECIMAL, d.span))
            .or(a.hex.map(|h| (HEX, h.span)));
        if let Some((name, span)) = number {
            match field.class {
                TyClass::Int { width: 16, .. } => cx.error_at(
                    span,
                    format_args!("`{name}` takes integers up to 64 bits (`u8`..`u64`, `i8`..`i64`)"),
                ),
                TyClass::Int { signed: true, .. } if name == HEX => cx.error_at(
                    span,
                    "`hex` writes unsigned integers (`u8`..`u64`); write a signed one `#[decimal]`",
                ),
                TyClass::Int { .. } | TyClass::Other => {}
                _ => cx.error_at(
                    span,
                    format_args!("`{name}` writes an integer as text; the field is `u8`..`u64` or `i8`..`i64`"),
                ),
            }
            if delimiter.is_none() {
                cx.error_at(
                    span,
                    format_args!(
                        "`{name}` writes text, so it goes in a text key: add `#[rowkey(delimiter = ':')]` (the character between the fields) to the struct"
                    ),
                );
            }
        }
        if delimiter.is_none() || input.variants.is_some() {
            continue;
        }
        if let Some(salt) = a.salt {
            cx.error_at(
                salt.span,
                "a text key has no salt byte: its fields are text joined by the delimiter",
            );
        }
        // `fixed(N)` pads text with spaces in a text key; on anything else it writes bytes.
        let text_field = matches!(field.class, TyClass::Text { .. });
        let refused: Vec<(&str, Span)> = [
            (FIXED, a.fixed.map(|l| l.span).filter(|_| !text_field)),
            (MAX_LEN, a.max_len.map(|l| l.span)),
            (HASH, a.hash.map(|l| l.span)),
            (REVERSE_TS, a.reverse_ts),
            (DESC, a.desc),
            (ROW_SPAN, a.row_span.map(|l| l.span)),
            (JAVA, a.java.map(|l| l.span)),
            (REST, a.rest),
        ]
        .into_iter()
        .filter_map(|(n, s)| s.map(|s| (n, s)))
        .collect();
        for (name, span) in refused {
            cx.error_at(
                span,
                format_args!(
                    "`{name}` writes bytes, not text: in a text key (`delimiter`) a field is text as it is (or `#[reverse]`d, or space-padded with `#[fixed(N)]`), or an integer as `#[decimal]` or `#[hex]` text"
                ),
            );
        }
        match field.class {
            TyClass::Text { borrowed } => {
                if borrowed && a.reverse.is_some() {
                    cx.error(
                        field.ty,
                        format_args!("reversed text cannot be borrowed from the key: declare `{}: String`", field.ident),
                    );
                }
            }
            TyClass::Int { .. } if number.is_none() => cx.error(
                field.ty,
                format_args!(
                    "in a text key an integer is written as text: add `#[decimal]`, `#[decimal(width = N)]` (zero-padded, ordered) or `#[hex(width = N)]` to `{}`",
                    field.ident
                ),
            ),
            TyClass::Int { .. } | TyClass::Other => {}
            _ => cx.error(
                field.ty,
                "a text key's fields are text (`String`, `&str`, `Cow<str>`) or integers written as `#[decimal]` or `#[hex]` text",
            ),
        }
    }
}

/// `#[rowkey(hash_prefix(md5, of = field))]` hashes one of a struct key's fields into the
/// key's first bytes: the field must exist, a key has a salt byte or a hash prefix (both
/// spread keys; one is enough), and a binary key's prefix is at most the 16 bytes of a digest
/// (a text key's at most its 32 hex digits, and only a text key's are digits: `upper`).
fn check_hash_prefix(cx: &Ctxt, input: &Input) {
    let Some(hp) = &input.attrs.hash_prefix else {
        return;
    };
    if input.variants.is_some() {
        cx.error_at(hp.span, "`hash_prefix` goes on a struct key");
        return;
    }
    if !input.fields.iter().any(|f| f.ident == &hp.of) {
        let names: Vec<String> = input
            .fields
            .iter()
            .map(|f| format!("`{}`", f.ident))
            .collect();
        cx.error_at(
            hp.of.span(),
            format_args!(
                "no field `{}` to hash; `hash_prefix` hashes one of the key's fields ({})",
                hp.of,
                names.join(", ")
            ),
        );
    }
    if let Some(f) = input.fields.iter().find(|f| f.attrs.salt.is_some()) {
        if let Some(salt) = f.attrs.salt {
            cx.error_at(
                salt.span,
                "a key has a salt byte or a hash prefix, not both: each spreads the keys over the table",
            );
        }
    }
    let text = input.attrs.delimiter.is_some();
    if let (false, Some(len)) = (text, hp.len) {
        if len.value > 16 {
            cx.error_at(
                len.value_span,
                "a binary key's hash prefix is at most the digest's 16 bytes (a text key's is hex digits, up to 32)",
            );
        }
    }
    if let (false, Some(upper)) = (text, hp.upper) {
        cx.error_at(
            upper,
            "`upper` asks for uppercase hex digits, which only a text key (`delimiter`) writes; a binary key's prefix is the digest's bytes",
        );
    }
}

/// `#[rest]` reads to the end of the key, so nothing may follow it: it goes on a struct key's
/// last field.
fn check_rest_is_last(cx: &Ctxt, input: &Input) {
    let last = match &input.variants {
        None => input.fields.len().checked_sub(1),
        Some(_) => None,
    };
    for (i, field) in input.all_fields().enumerate() {
        let Some(rest) = field.attrs.rest else {
            continue;
        };
        if input.variants.is_some() {
            cx.error_at(
                rest,
                "`rest` goes on the last field of a struct key; a record type's key is followed by others in the table, declare its text `#[java(utf)]` or in rowkey's own encoding",
            );
        } else if Some(i) != last {
            cx.error_at(
                rest,
                format_args!(
                    "`rest` reads to the end of the key, so it goes on the last field; `{}` is followed by other fields (move it last, or give it a length: `#[java(utf)]`, `#[fixed(N)]` or rowkey's own encoding)",
                    field.ident
                ),
            );
        }
    }
}

/// At most one attribute may choose a field's encoding.
fn check_encoding_conflicts(cx: &Ctxt, field: &Field) {
    let a = &field.attrs;
    let set: Vec<(&str, Span)> = [
        (FIXED, a.fixed.map(|l| l.span)),
        (MAX_LEN, a.max_len.map(|l| l.span)),
        (HASH, a.hash.map(|l| l.span)),
        (REVERSE_TS, a.reverse_ts),
        (REVERSE, a.reverse),
        (TIMESTAMP, a.timestamp),
        (ROW_SPAN, a.row_span.map(|l| l.span)),
        (JAVA, a.java.map(|l| l.span)),
        (REST, a.rest),
        (DECIMAL, a.decimal.map(|l| l.span)),
        (HEX, a.hex.map(|l| l.span)),
    ]
    .into_iter()
    .filter_map(|(n, s)| s.map(|s| (n, s)))
    .collect();
    if let [(first, _), rest @ ..] = set.as_slice() {
        for (name, span) in rest {
            cx.error_at(
                *span,
                format_args!("`{name}` cannot be combined with `{first}` on one field"),
            );
        }
    }
}

/// `#[uid(kind = "...")]` marks a field that holds an id from a lookup table, as the table
/// writes it: a plain unsigned integer (big-endian, its width the ids' width), so no attribute
/// may transform its bytes.
fn check_uid(cx: &Ctxt, field: &Field) {
    let Some(uid) = &field.attrs.uid else { return };
    if !matches!(field.class, TyClass::Int { signed: false, width } if width <= 8) {
        cx.error(
            field.ty,
            format_args!(
                "a `uid` field holds a lookup table's id, `width` bytes big-endian: declare it `u8`, `u16`, `u32` or `u64` (the ids' width), written as such, e.g. `#[uid(kind = {:?})] {}: u16`",
                uid.value, field.ident
            ),
        );
    }
    let a = &field.attrs;
    for (name, span) in [
        (FIXED, a.fixed.map(|l| l.span)),
        (MAX_LEN, a.max_len.map(|l| l.span)),
        (HASH, a.hash.map(|l| l.span)),
        (REVERSE_TS, a.reverse_ts),
        (REVERSE, a.reverse),
        (DESC, a.desc),
        (TIMESTAMP, a.timestamp),
        (ROW_SPAN, a.row_span.map(|l| l.span)),
        (JAVA, a.java.map(|l| l.span)),
        (REST, a.rest),
    ] {
        if let Some(span) = span {
            cx.error_at(
                span,
                format_args!(
                    "`{name}` cannot be combined with `uid`: the key holds the id exactly as the lookup table writes it (big-endian); remove `#[{name}]`"
                ),
            );
        }
    }
}

/// `#[desc]` inverts an ordered encoding. It is refused with `reverse_ts` (already newest
/// first: `desc` would undo it), on unordered fields (it would change nothing), and on
/// borrowed fields (inverted bytes cannot be borrowed back).
fn check_desc(cx: &Ctxt, field: &Field) {
    let Some(desc) = field.attrs.desc else { return };
    if field.attrs.reverse_ts.is_some() {
        cx.error_at(
            desc,
            "`desc` cannot be combined with `reverse_ts`, which already sorts newest first; remove `#[desc]`",
        );
    } else if field.attrs.reverse.is_some() || field.attrs.hash.is_some() {
        cx.error_at(
            desc,
            "`desc` has no effect on an unordered `reverse` or `hash` field; remove `#[desc]`",
        );
    } else if field.attrs.java.is_some() || field.attrs.rest.is_some() {
        cx.error_at(
            desc,
            "`desc` cannot be combined with `java` or `rest`: the field holds the bytes Java wrote, which `desc` would invert; remove `#[desc]`",
        );
    } else if field.class.is_borrowed() {
        cx.error_at(
            desc,
            "a `desc` field is stored inverted and cannot be borrowed from the key; declare it as `String`, `Vec<u8>` or `Cow`",
        );
    }
}

/// The salt byte is computed from every field up to and including the salted one, so a key
/// has at most one.
fn check_single_salt(cx: &Ctxt, fields: &[Field]) {
    let mut salted = fields
        .iter()
        .filter_map(|f| f.attrs.salt.map(|s| (f.ident, s)));
    let Some((first, _)) = salted.next() else {
        return;
    };
    for (_, salt) in salted {
        cx.error_at(
            salt.span,
            format_args!(
                "only one field can carry `salt`: the salt byte already hashes every field up to `{first}`; move `#[salt]` to the last field the bucket should depend on"
            ),
        );
    }
}

/// The guide's first warning: a monotonically increasing lead field sends every write to the
/// last region. A `#[timestamp]` or `#[reverse_ts]` field first in an unsalted key is refused
/// unless the struct says `#[rowkey(allow_hotspot)]`.
fn check_hotspot(cx: &Ctxt, input: &Input) {
    let lead_fields = input.lead_fields();
    if input.attrs.allow_hotspot.is_some() || lead_fields.iter().any(|f| f.attrs.salt.is_some()) {
        return;
    }
    let Some(lead) = lead_fields.first() else {
        return;
    };
    let (name, span) = match (
        lead.attrs.timestamp,
        lead.attrs.reverse_ts,
        lead.attrs.row_span,
    ) {
        (Some(s), _, _) => (TIMESTAMP, s),
        (_, Some(s), _) => (REVERSE_TS, s),
        // The bucket start of a time span grows as the timestamp does.
        (_, _, Some(l)) => (ROW_SPAN, l.span),
        _ => return,
    };
    cx.error_at(
        span,
        format_args!(
            "a `{name}` field leads the key, so every new row goes to the same region (a hotspot); put an entity field such as a host or user id first, salt the key with `#[salt(buckets = 16)]`, or accept it with `#[rowkey(allow_hotspot)]` on the struct"
        ),
    );
}

/// The encoded width of a field when its tokens fix it.
pub fn syntactic_width(field: &Field) -> Option<usize> {
    crate::encoding::Encoding::of(field).fixed_width(field.class)
}

/// A fixed-length key longer than the key limit could never be written.
fn check_fixed_len_limit(cx: &Ctxt, input: &Input) {
    let salt = usize::from(input.fields.iter().any(|f| f.attrs.salt.is_some()));
    let widths: Option<usize> = input.fields.iter().map(syntactic_width).sum();
    let Some(len) = widths.map(|w| w + salt) else {
        return;
    };
    let limit = input.attrs.limit();
    if len > limit {
        let msg = format!(
            "every key is {len} bytes, longer than the key limit of {limit} bytes; shorten the fields or raise `#[rowkey(key_limit = N)]` (HBase allows 32767, Bigtable 4096)"
        );
        match input.attrs.max_len {
            Some(m) => cx.error_at(m.value_span, msg),
            None => cx.error(input.ident, msg),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(input: syn::DeriveInput) -> Vec<String> {
        let cx = Ctxt::new();
        if let Some(ast) = Input::from_syn(&cx, &input) {
            check(&cx, &ast);
        }
        match cx.check() {
            Ok(()) => Vec::new(),
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn a_valid_key_has_no_errors() {
        let input = syn::parse_quote! {
            struct Event { #[salt(buckets = 16)] user_id: u64, #[fixed(16)] kind: String, #[reverse_ts] ts: u64 }
        };
        assert!(errors(input).is_empty());
    }

    #[test]
    fn all_errors_are_collected() {
        let input = syn::parse_quote! {
            struct Bad { #[fixed(4)] id: u64, #[reverse_ts] name: String, n: usize }
        };
        let errs = errors(input);
        assert_eq!(errs.len(), 3, "{errs:?}");
    }

    #[test]
    fn hotspot_is_refused_unless_allowed_or_salted() {
        let hot: syn::DeriveInput =
            syn::parse_quote! { struct K { #[timestamp] ts: u64, host: String } };
        assert_eq!(errors(hot).len(), 1);
        let allowed =
            syn::parse_quote! { #[rowkey(allow_hotspot)] struct K { #[timestamp] ts: u64 } };
        assert!(errors(allowed).is_empty());
        let salted = syn::parse_quote! { struct K { #[timestamp] ts: u64, #[salt(buckets = 4)] host: String } };
        assert!(errors(salted).is_empty());
        let second = syn::parse_quote! { struct K { host: String, #[reverse_ts] ts: u64 } };
        assert!(errors(second).is_empty());
    }

    #[test]
    fn fixed_key_over_the_limit_is_refused() {
        let input = syn::parse_quote! { #[rowkey(key_limit = 10)] struct K { a: u64, b: u64 } };
        assert_eq!(errors(input).len(), 1);
        let fits = syn::parse_quote! { #[rowkey(key_limit = 16)] struct K { a: u64, b: u64 } };
        assert!(errors(fits).is_empty());
    }
}
