//! The rules that relate a `#[derive(RowValue)]` struct's columns, each reported at the
//! attribute (or field) that breaks it:
//!
//! - every column has a family (its own or the struct's), and a non-empty name;
//! - family names use Bigtable's characters (`[-_.a-zA-Z0-9]`, HBase accepts them too);
//! - no two fields share a column (family and qualifier);
//! - each `#[family(...)]` names a family a column uses, once, with options HBase keeps:
//!   `min_versions` at most `versions`, and only with a `ttl` (HBase ignores it otherwise), as
//!   `keep_deleted = "ttl"`;
//! - the guide's rules of thumb, which `#[column(allow_...)]` on the struct accepts: a family
//!   name of at most [`MAX_FAMILY_LEN`] bytes (every cell stores it: "d", not "data"), and at
//!   most [`MAX_FAMILIES`] families (HBase flushes and compacts families together; "more than
//!   two or three column families" does not work well).

use std::collections::HashMap;

use super::parse::{family_of, family_span, Value};
use crate::ctxt::Ctxt;

/// The longest family name accepted without `#[column(allow_long_family)]`.
pub const MAX_FAMILY_LEN: usize = 3;
/// The most families accepted without `#[column(allow_many_families)]`.
pub const MAX_FAMILIES: usize = 3;

/// The rules of `#[family(...)]` declarations.
fn check_families(cx: &Ctxt, value: &Value<'_>) {
    let used: Vec<&str> = value
        .columns
        .iter()
        .filter_map(|c| family_of(value, c))
        .collect();
    for (i, decl) in value.families.iter().enumerate() {
        let name = decl.name.value.as_str();
        if value.families[..i].iter().any(|d| d.name.value == name) {
            cx.error_at(decl.name.span, format!("family `{name}` is declared twice"));
        } else if !used.contains(&name) {
            cx.error_at(
                decl.name.span,
                format!(
                    "family `{name}` is declared but no column is in it (columns name theirs with `#[column(family = \"{name}\")]`; the families used: {})",
                    if used.is_empty() { "none".to_string() } else { used.join(", ") }
                ),
            );
        }
        let versions = decl.versions.as_ref().map_or(1, |v| v.value);
        if let Some(min) = &decl.min_versions {
            if min.value > versions {
                cx.error_at(
                    min.span,
                    format!(
                        "`min_versions` ({}) is above `versions` ({versions}{}): HBase refuses it",
                        min.value,
                        if decl.versions.is_none() {
                            ", the default"
                        } else {
                            ""
                        }
                    ),
                );
            } else if min.value > 0 && decl.ttl_secs.is_none() {
                cx.error_at(
                    min.span,
                    "`min_versions` without a `ttl` does nothing: HBase keeps minimum versions only past a TTL; add `ttl = \"30d\"` or remove it",
                );
            }
        }
        if let Some(kd) = &decl.keep_deleted {
            if kd.value == "Ttl" && decl.ttl_secs.is_none() {
                cx.error_at(
                    kd.span,
                    "`keep_deleted = \"ttl\"` without a `ttl` would keep deleted cells forever; add a `ttl` or use \"true\"",
                );
            }
        }
    }
}

pub fn check(cx: &Ctxt, value: &Value<'_>) {
    check_families(cx, value);
    let mut seen: HashMap<(&str, &str), &syn::Ident> = HashMap::new();
    let mut families: Vec<&str> = Vec::new();
    // A family is reported once, at its first use, whatever the number of columns in it.
    let mut reported: Vec<&str> = Vec::new();
    for column in &value.columns {
        if column.name.value.is_empty() {
            cx.error_at(
                column.name.span,
                "a column name (qualifier) cannot be empty",
            );
        }
        let Some(family) = family_of(value, column) else {
            cx.error(
                column.ident,
                format!(
                    "column `{}` has no family: add `#[column(family = \"d\")]` to the struct or the field",
                    column.ident
                ),
            );
            continue;
        };
        let span = family_span(value, column);
        if !reported.contains(&family) {
            reported.push(family);
            if family.is_empty() {
                cx.error_at(span, "a column family cannot be empty");
            } else if let Some(bad) = family
                .chars()
                .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
            {
                cx.error_at(
                    span,
                    format!(
                        "column family `{family}` has the character {bad:?}: families use letters, digits, `-`, `_` and `.` (Bigtable's rule)"
                    ),
                );
            } else if family.len() > MAX_FAMILY_LEN && !value.allow_long_family {
                cx.error_at(
                    span,
                    format!(
                        "column family `{family}` is {} bytes; every cell stores its family name, so it costs {} bytes per cell more than a one-letter name (the guide: one character, such as \"d\"; at most {MAX_FAMILY_LEN} here); `#[column(allow_long_family)]` on the struct accepts it",
                        family.len(),
                        family.len() - 1
                    ),
                );
            }
        }
        if !families.contains(&family) {
            families.push(family);
            if families.len() == MAX_FAMILIES + 1 && !value.allow_many_families {
                cx.error_at(
                    span,
                    format!(
                        "a fourth column family (`{family}`): HBase flushes and compacts a region's families together, and the guide advises no more than two or three; `#[column(allow_many_families)]` on the struct accepts it"
                    ),
                );
            }
        }
        match seen.get(&(family, column.name.value.as_str())) {
            Some(first) => cx.error_at(
                column.name.span,
                format!(
                    "column {family}:{} is already field `{first}`'s",
                    column.name.value
                ),
            ),
            None => {
                seen.insert((family, column.name.value.as_str()), column.ident);
            }
        }
    }
}
