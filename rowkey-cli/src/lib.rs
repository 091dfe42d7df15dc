//! The `rowkey` command line's library: a key schema read back from the JSON rowkey exports
//! (`serde_json::to_string(K::SCHEMA)`, or `cargo run --example layouts`), and keys read in the
//! forms operators have them: HBase's `Bytes.toStringBinary` (`\x04\x00...`, as the HBase shell
//! and region names print keys) or hex (as Bigtable's hot-tablets listing gives start and end
//! keys). Explaining is `rowkey::explain_schema`, the typed `explain` driven by the schema.

use serde::Deserialize;

use rowkey::family::{BlockEncoding, Bloom, Compression, Family, KeepDeleted};
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

/// Key schemas from JSON, whichever of rowkey's exports the file holds: one key schema
/// (`K::SCHEMA`), an array of them, a table layout (`TableLayout`: its key's), or the layouts
/// export `cargo run --example layouts` writes (`{"keys": [...], "tables": [...]}`: its keys).
pub fn schemas_from_json(json: &str) -> Result<Vec<&'static Schema>, String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let list = match value {
        serde_json::Value::Array(items) => items,
        serde_json::Value::Object(mut o) if o.contains_key("keys") => match o.remove("keys") {
            Some(serde_json::Value::Array(items)) => items,
            _ => return Err("`keys` is not an array of key schemas".into()),
        },
        one => vec![one],
    };
    list.into_iter()
        .map(|mut v| {
            // A table layout stands for its key.
            if let Some(key) = v.as_object_mut().filter(|o| o.contains_key("table")) {
                v = key.remove("key").unwrap_or_default();
            }
            let s: JsonSchema = serde_json::from_value(v).map_err(|e| e.to_string())?;
            schema_of(s)
        })
        .collect()
}

/// The schema named `type_name` of `schemas` (read from `file`), or the only one; the error
/// lists the names the file has.
pub fn pick_schema(
    schemas: &[&'static Schema],
    type_name: Option<&str>,
    file: &str,
) -> Result<&'static Schema, String> {
    let names = || {
        schemas
            .iter()
            .map(|s| s.name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (type_name, schemas) {
        (None, [one]) => Ok(one),
        (None, []) => Err(format!("{file} holds no key schema")),
        (None, _) => Err(format!(
            "{file} holds several key schemas; choose one with --type ({})",
            names()
        )),
        (Some(name), all) => all
            .iter()
            .copied()
            .find(|s| s.name == name)
            .ok_or_else(|| format!("{file} has no key schema `{name}`; it has: {}", names())),
    }
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

/// One family as the layout JSON writes it (`V::SCHEMA.family_options`).
#[derive(Deserialize)]
struct FamilyJson {
    name: String,
    versions: u32,
    min_versions: u32,
    ttl_secs: Option<u64>,
    keep_deleted: String,
    bloom: String,
    compression: String,
    block_size: u32,
    in_memory: bool,
    encoding: String,
}

impl FamilyJson {
    fn into_family(self) -> Result<Family, String> {
        fn pick<T>(what: &str, v: &str, f: impl Fn(&str) -> Option<T>) -> Result<T, String> {
            f(v).ok_or_else(|| format!("unknown {what} `{v}`"))
        }
        let mut f = Family::new("")
            .named(self.name)
            .versions(self.versions)
            .min_versions(self.min_versions)
            .keep_deleted(pick(
                "keep_deleted",
                &self.keep_deleted,
                KeepDeleted::from_name,
            )?)
            .bloom(pick("bloom", &self.bloom, Bloom::from_name)?)
            .compression(pick(
                "compression",
                &self.compression,
                Compression::from_name,
            )?)
            .block_size(self.block_size)
            .in_memory(self.in_memory)
            .encoding(pick("encoding", &self.encoding, BlockEncoding::from_name)?);
        if let Some(t) = self.ttl_secs {
            f = f.ttl_secs(t);
        }
        Ok(f)
    }
}

/// The value layout's name and families, from the JSON rowkey exports for a `RowValue` type
/// (`serde_json::to_string(V::SCHEMA)`): one layout, or an array of them and `type_name`
/// choosing one.
pub fn families_from_json(
    json: &str,
    type_name: Option<&str>,
) -> Result<(String, Vec<Family>), String> {
    #[derive(Deserialize)]
    struct ValueJson {
        name: String,
        family_options: Vec<FamilyJson>,
    }
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(ValueJson),
        Many(Vec<ValueJson>),
    }
    let all = match serde_json::from_str::<OneOrMany>(json)
        .map_err(|e| format!("not a value layout (V::SCHEMA as JSON, with family_options): {e}"))?
    {
        OneOrMany::One(v) => vec![v],
        OneOrMany::Many(v) => v,
    };
    let names: Vec<String> = all.iter().map(|v| v.name.clone()).collect();
    let chosen = match (type_name, all.len()) {
        (None, 1) => all.into_iter().next(),
        (None, _) => {
            return Err(format!(
                "several value layouts; choose one with --type ({})",
                names.join(", ")
            ))
        }
        (Some(name), _) => all.into_iter().find(|v| v.name == name),
    }
    .ok_or_else(|| format!("no value layout `{}`", type_name.unwrap_or_default()))?;
    let families = chosen
        .family_options
        .into_iter()
        .map(FamilyJson::into_family)
        .collect::<Result<Vec<_>, _>>()?;
    Ok((chosen.name, families))
}

/// A whole table as [`rowkey::family::TableLayout`] exports it (`serde_json::to_string(&layout)`):
/// its name, the key layout and its fingerprint, the families and the split points.
pub struct TableJson {
    /// The table's name.
    pub table: String,
    /// The key layout.
    pub key: &'static Schema,
    /// The key layout's fingerprint (FORMAT.md §8), as the table records it.
    pub key_fingerprint: u64,
    /// The value layout's name.
    pub value: String,
    /// The column families with their options.
    pub families: Vec<Family>,
    /// The split points the table is created with.
    pub splits: Vec<Vec<u8>>,
}

/// A table layout read back from its JSON (`TableLayout`'s serialization).
pub fn table_from_json(json: &str, name: Option<&str>) -> Result<TableJson, String> {
    #[derive(Deserialize)]
    struct ValueJson {
        name: String,
        family_options: Vec<FamilyJson>,
    }
    #[derive(Deserialize)]
    struct LayoutJson {
        table: String,
        key: JsonSchema,
        key_fingerprint: String,
        value: ValueJson,
        splits: Vec<String>,
    }
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let is_table = |v: &serde_json::Value| v.get("table").is_some() && v.get("key").is_some();
    let tables: Vec<serde_json::Value> = match value {
        serde_json::Value::Object(mut o) if o.contains_key("tables") => match o.remove("tables") {
            Some(serde_json::Value::Array(items)) => items,
            _ => return Err("`tables` is not an array of table layouts".into()),
        },
        serde_json::Value::Array(items) if items.iter().any(is_table) => {
            items.into_iter().filter(is_table).collect()
        }
        one if is_table(&one) => vec![one],
        other => {
            let keys = schemas_from_json(&other.to_string())
                .map(|k| k.iter().map(|s| s.name).collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            return Err(format!(
                "not a table layout (rowkey::family::TableLayout as JSON){}: a table needs its \
                 families and split points beside its key (`TableLayout::of::<K, V>`, as the \
                 layouts export's `tables` holds them)",
                if keys.is_empty() {
                    String::new()
                } else {
                    format!("; it holds key layouts only ({keys})")
                }
            ));
        }
    };
    let table_name = |v: &serde_json::Value| v["table"].as_str().unwrap_or("").to_string();
    let all = || tables.iter().map(table_name).collect::<Vec<_>>().join(", ");
    let chosen = match (name, tables.as_slice()) {
        (_, []) => return Err("no table layout in the file".into()),
        // One table: a name given is the table's name on the cluster.
        (_, [one]) => one.clone(),
        (None, _) => {
            return Err(format!(
                "the file holds several table layouts; choose one with --table ({})",
                all()
            ))
        }
        (Some(name), many) => many
            .iter()
            .find(|t| table_name(t) == name)
            .cloned()
            .ok_or_else(|| format!("no table layout `{name}` in the file; it has: {}", all()))?,
    };
    let l: LayoutJson = serde_json::from_value(chosen)
        .map_err(|e| format!("not a table layout (rowkey::family::TableLayout as JSON): {e}"))?;
    let key_fingerprint = l
        .key_fingerprint
        .strip_prefix("0x")
        .and_then(|h| u64::from_str_radix(h, 16).ok())
        .ok_or_else(|| {
            format!(
                "key_fingerprint `{}` is not `0x` and hex digits",
                l.key_fingerprint
            )
        })?;
    let splits = l
        .splits
        .iter()
        .map(|s| from_hex(s).map_err(|e| format!("split point `{s}`: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(TableJson {
        table: l.table,
        key: schema_of(l.key)?,
        key_fingerprint,
        value: l.value.name,
        families: l
            .value
            .family_options
            .into_iter()
            .map(FamilyJson::into_family)
            .collect::<Result<Vec<_>, _>>()?,
        splits,
    })
}

/// What `rowkey schema` prints for `table`: the families' problems, the HBase shell's
/// `create` with the split points, and the Bigtable commands (`cbt`), with the options Bigtable
/// has no equivalent for named.
pub fn schema_report(table: &str, families: &[Family], splits: &[&[u8]]) -> String {
    let mut out = String::new();
    for f in families {
        for p in f.problems() {
            out.push_str(&format!("# family `{}`: {p}\n", f.name));
        }
    }
    out.push_str("# HBase shell\n");
    out.push_str(&rowkey::family::hbase_create(table, families, splits));
    out.push_str("\n\n# Cloud Bigtable (cbt)\n");
    let printable = splits
        .iter()
        .all(|s| s.iter().all(|b| b.is_ascii_graphic() && *b != b','));
    if splits.is_empty() || !printable {
        out.push_str(&format!("cbt createtable {table}\n"));
        if !splits.is_empty() {
            out.push_str(&format!(
                "# {} split points are binary, which cbt cannot take: create the table with BigtableStore::create_table_with, or split it later\n",
                splits.len()
            ));
        }
    } else {
        let keys: Vec<String> = splits
            .iter()
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .collect();
        out.push_str(&format!(
            "cbt createtable {table} splits={}\n",
            keys.join(",")
        ));
    }
    for f in families {
        out.push_str(&format!("cbt createfamily {table} {}\n", f.name));
        match f.gc_rule() {
            Some(rule) => out.push_str(&format!("cbt setgcpolicy {table} {} '{rule}'\n", f.name)),
            None => out.push_str(&format!("cbt setgcpolicy {table} {} never\n", f.name)),
        }
        let missing = f.without_bigtable_equivalent();
        if !missing.is_empty() {
            out.push_str(&format!(
                "# family `{}`: no Bigtable equivalent for {}\n",
                f.name,
                missing.join(", ")
            ));
        }
    }
    out
}

/// A hotspot report as JSON, for a script: the totals and skews, and each region with its keys
/// in `Bytes.toStringBinary` form and in hex, its shares, bucket, decoded start and sample.
pub fn hotspots_json(report: &rowkey::hotspot::HotspotReport) -> String {
    let hex = |k: &[u8]| k.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let regions: Vec<serde_json::Value> = report
        .regions
        .iter()
        .map(|r| {
            serde_json::json!({
                "start_hex": hex(&r.start),
                "end_hex": hex(&r.end),
                "server": r.server,
                "reads": r.reads,
                "writes": r.writes,
                "read_share": r.read_share,
                "write_share": r.write_share,
                "predicted_share": r.predicted_share,
                "bucket": r.bucket,
                "lead": r.lead.iter().map(|(n, v)| serde_json::json!({"field": n, "value": v})).collect::<Vec<_>>(),
                "sampled": r.sampled,
                "top": r.top.iter().map(|(v, n)| serde_json::json!({"value": v, "rows": n})).collect::<Vec<_>>(),
                "sampled_range": r.sampled_range.as_ref().map(|(a, b)| serde_json::json!([a, b])),
            })
        })
        .collect();
    serde_json::json!({
        "key": report.key,
        "interval_secs": report.interval.as_secs_f64(),
        "reads": report.reads,
        "writes": report.writes,
        "reads_per_sec": report.reads_per_sec(),
        "writes_per_sec": report.writes_per_sec(),
        "read_skew": report.read_skew(),
        "write_skew": report.write_skew(),
        "changed": report.changed,
        "hottest": report.hottest(),
        "monotonic_lead": report.monotonic_lead,
        "regions": regions,
    })
    .to_string()
}
