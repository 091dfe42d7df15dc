//! The rules that relate a `#[derive(RowValue)]` struct's columns, each reported at the
//! attribute (or field) that breaks it:
//!
//! - every column has a family (its own or the struct's), and a non-empty name;
//! - family names use Bigtable's characters (`[-_.a-zA-Z0-9]`, HBase accepts them too);
//! - no two fields share a column (family and qualifier);
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

pub fn check(cx: &Ctxt, value: &Value<'_>) {
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
                        "column family `{family}` is {} bytes; every cell stores its family name, so keep it to {MAX_FAMILY_LEN} (the guide: one character, such as \"d\"); `#[column(allow_long_family)]` on the struct accepts it",
                        family.len()
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
