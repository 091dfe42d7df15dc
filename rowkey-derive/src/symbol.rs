//! Every attribute name and key the derive reads, spelled once (serde's `symbol.rs`). Parsing,
//! validation messages and the "did you mean" suggestions use these; the `attributes(...)` list
//! of `#[proc_macro_derive]` in `lib.rs` must be literal, so a test checks it against them.

/// `#[rowkey(...)]` on the key type.
pub const ROWKEY: &str = "rowkey";
/// `#[tag(N)]` on a record type.
pub const TAG: &str = "tag";

/// `#[salt(buckets = N)]`.
pub const SALT: &str = "salt";
/// `#[fixed(N)]`.
pub const FIXED: &str = "fixed";
/// `#[max_len(N)]` on a field (and the deprecated spelling of `#[rowkey(key_limit = N)]`).
pub const MAX_LEN: &str = "max_len";
/// `#[rowkey(key_limit = N)]`: the longest key the type may encode.
pub const KEY_LIMIT: &str = "key_limit";
/// `#[hash(md5)]`.
pub const HASH: &str = "hash";
/// `#[reverse_ts]`.
pub const REVERSE_TS: &str = "reverse_ts";
/// `#[desc]`.
pub const DESC: &str = "desc";
/// `#[reverse]`.
pub const REVERSE: &str = "reverse";
/// `#[timestamp]`.
pub const TIMESTAMP: &str = "timestamp";
/// `#[row_span(N)]`: rows as columns.
pub const ROW_SPAN: &str = "row_span";
/// `#[uid(kind = "host")]`: the field holds an id from a lookup table (`UidTable`).
pub const UID: &str = "uid";
/// `#[java]`: Java's `Bytes.toBytes` / `DataOutput` bytes; `#[java(utf)]`: `writeUTF`.
pub const JAVA: &str = "java";
/// The argument of `#[java(utf)]`.
pub const UTF: &str = "utf";
/// `#[rest]`: the last field takes the rest of the key, as written.
pub const REST: &str = "rest";
/// `#[decimal]`, `#[decimal(width = N)]`: an integer as decimal text in a text key.
pub const DECIMAL: &str = "decimal";
/// `#[hex]`, `#[hex(width = N, upper)]`: an integer as hex text in a text key.
pub const HEX: &str = "hex";
/// The width key of `#[decimal(width = N)]` and `#[hex(width = N)]`.
pub const WIDTH: &str = "width";
/// `upper` in `#[hex(upper)]`.
pub const UPPER: &str = "upper";
/// `#[rowkey(delimiter = ':')]`: a text key, its fields joined by the delimiter.
pub const DELIMITER: &str = "delimiter";
/// `#[rowkey(hash_prefix(md5, of = field, upper, len = N))]`: the key starts with a hash of a
/// field.
pub const HASH_PREFIX: &str = "hash_prefix";
/// The field a hash prefix hashes, in `hash_prefix(..., of = field)`.
pub const OF: &str = "of";
/// The key inside `#[uid(...)]`.
pub const KIND: &str = "kind";

/// The field attributes, in the order the docs list them.
pub const FIELD_ATTRS: &[&str] = &[
    SALT, FIXED, MAX_LEN, HASH, REVERSE_TS, DESC, REVERSE, TIMESTAMP, ROW_SPAN, UID, JAVA, REST,
    DECIMAL, HEX,
];

/// Keys inside `#[salt(...)]`.
pub const BUCKETS: &str = "buckets";
/// Keys inside `#[hash(...)]`.
pub const MD5: &str = "md5";
/// The digest length key of `#[hash(md5, len = N)]`.
pub const LEN: &str = "len";

/// Keys inside `#[rowkey(...)]`.
pub const ALLOW_HOTSPOT: &str = "allow_hotspot";
/// `#[rowkey(prefix(a, b))]` on a record-type enum.
pub const PREFIX: &str = "prefix";
/// `#[rowkey(crate = "path")]`.
pub const CRATE: &str = "crate";
/// `#[rowkey(fingerprint = 0x...)]`: the pinned layout fingerprint.
pub const FINGERPRINT: &str = "fingerprint";
/// `#[rowkey(index_of = Record)]`: the key is a second order of `Record`'s fields.
pub const INDEX_OF: &str = "index_of";
/// `#[rowkey(query)]`: a skip-scan query builder (`T::query()`).
pub const QUERY: &str = "query";
/// The keys `#[rowkey(...)]` accepts.
pub const CONTAINER_KEYS: &[&str] = &[
    KEY_LIMIT,
    ALLOW_HOTSPOT,
    QUERY,
    PREFIX,
    CRATE,
    FINGERPRINT,
    INDEX_OF,
    DELIMITER,
    HASH_PREFIX,
];

#[cfg(test)]
mod tests {
    /// The literal list in `#[proc_macro_derive(RowKey, attributes(...))]` is every attribute.
    #[test]
    fn the_derive_declares_every_attribute() {
        let lib = include_str!("lib.rs");
        let start = lib.find("attributes(").expect("an attributes list") + "attributes(".len();
        let end = start + lib[start..].find(')').expect("closed");
        let mut declared: Vec<&str> = lib[start..end].split(',').map(str::trim).collect();
        declared.sort_unstable();
        let mut known: Vec<&str> = super::FIELD_ATTRS.to_vec();
        known.extend([super::ROWKEY, super::TAG]);
        known.sort_unstable();
        assert_eq!(declared, known);
    }
}
