//! The `rowkey` command line's library: a key schema read back from the JSON rowkey exports
//! (`serde_json::to_string(K::SCHEMA)`, or `cargo run --example layouts`), and keys read in the
//! forms operators have them: HBase's `Bytes.toStringBinary` (`\x04\x00...`, as the HBase shell
//! and region names print keys) or hex (as Bigtable's hot-tablets listing gives start and end
//! keys). Explaining is `rowkey::explain_schema`, the typed `explain` driven by the schema.

use serde::Deserialize;

use rowkey::{Domain, FieldSchema, Order, SaltSchema, Schema, VariantSchema};

#[derive(Deserialize)]
struct JsonSchema {
    name: String,
    fields: Vec<JsonField>,
    #[serde(default)]
    variants: Vec<JsonVariant>,
    salt: Option<JsonSalt>,
    fixed_len: Option<usize>,
    max_len: usize,
    limit: usize,
    allow_hotspot: bool,
}

#[derive(Deserialize)]
struct JsonField {
    name: String,
    rust_type: String,
    offset: Option<usize>,
    width: Option<usize>,
    max_width: Option<usize>,
    encoding: String,
    order: String,
    attributes: Vec<String>,
    salted: bool,
    nested: Option<Box<JsonSchema>>,
    domain: JsonDomain,
}

#[derive(Deserialize)]
struct JsonDomain {
    bytes: u8,
    lo: u64,
    hi: String,
}

#[derive(Deserialize)]
struct JsonVariant {
    name: String,
    tag: u8,
    fields: Vec<JsonField>,
}

#[derive(Deserialize)]
struct JsonSalt {
    buckets: u16,
    hash: String,
    fields: Vec<String>,
}

/// A string for the process's lifetime (schemas are read once, by a short-lived program).
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn leak_slice<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

fn field(f: JsonField) -> Result<FieldSchema, String> {
    let order = match f.order.as_str() {
        "ascending" => Order::Ascending,
        "descending" => Order::Descending,
        "unordered" => Order::Unordered,
        other => return Err(format!("field `{}`: unknown order `{other}`", f.name)),
    };
    let hi = f
        .domain
        .hi
        .parse::<u128>()
        .map_err(|e| format!("field `{}`: domain: {e}", f.name))?;
    Ok(FieldSchema {
        name: leak(f.name),
        rust_type: leak(f.rust_type),
        offset: f.offset,
        width: f.width,
        max_width: f.max_width,
        encoding: leak(f.encoding),
        order,
        attributes: leak_slice(f.attributes.into_iter().map(leak).collect()),
        salted: f.salted,
        nested: match f.nested {
            Some(n) => Some(schema_of(*n)?),
            None => None,
        },
        domain: Domain {
            bytes: f.domain.bytes,
            lo: f.domain.lo,
            hi,
        },
    })
}

fn schema_of(s: JsonSchema) -> Result<&'static Schema, String> {
    let fields = s
        .fields
        .into_iter()
        .map(field)
        .collect::<Result<Vec<_>, _>>()?;
    let variants = s
        .variants
        .into_iter()
        .map(|v| {
            Ok(VariantSchema {
                name: leak(v.name),
                tag: v.tag,
                fields: leak_slice(
                    v.fields
                        .into_iter()
                        .map(field)
                        .collect::<Result<Vec<_>, String>>()?,
                ),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let salt = s.salt.map(|salt| SaltSchema {
        buckets: salt.buckets,
        hash: leak(salt.hash),
        fields: leak_slice(salt.fields.into_iter().map(leak).collect()),
    });
    Ok(Box::leak(Box::new(Schema {
        name: leak(s.name),
        fields: leak_slice(fields),
        variants: leak_slice(variants),
        salt,
        fixed_len: s.fixed_len,
        max_len: s.max_len,
        limit: s.limit,
        allow_hotspot: s.allow_hotspot,
    })))
}

/// Schemas from JSON: one schema, or an array of them (as `cargo run --example layouts`
/// writes).
pub fn schemas_from_json(json: &str) -> Result<Vec<&'static Schema>, String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let list = match value {
        serde_json::Value::Array(items) => items,
        one => vec![one],
    };
    list.into_iter()
        .map(|v| {
            let s: JsonSchema = serde_json::from_value(v).map_err(|e| e.to_string())?;
            schema_of(s)
        })
        .collect()
}

/// A key as HBase's `Bytes.toStringBinary` prints it: printable characters as themselves,
/// everything else as `\xHH`.
pub fn from_string_binary(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') {
            let hex = s
                .get(i + 2..i + 4)
                .ok_or_else(|| format!("a cut-off `\\x` escape at character {i}"))?;
            out.push(
                u8::from_str_radix(hex, 16)
                    .map_err(|_| format!("`\\x{hex}` at character {i} is not a hex byte"))?,
            );
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// A key in hex (`0x` prefix, spaces and colons allowed).
pub fn from_hex(s: &str) -> Result<Vec<u8>, String> {
    let digits: String = s
        .trim()
        .trim_start_matches("0x")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ':')
        .collect();
    if !digits.len().is_multiple_of(2) {
        return Err(format!("`{s}` has an odd number of hex digits"));
    }
    (0..digits.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&digits[i..i + 2], 16)
                .map_err(|_| format!("`{}` is not a hex byte", &digits[i..i + 2]))
        })
        .collect()
}
