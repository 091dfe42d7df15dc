//! Column families as data: what HBase's `ColumnFamilyDescriptor` holds that users set
//! (versions, time to live, keeping deleted cells, bloom filter, compression, block size,
//! in-memory, data block encoding), checked against the schema chapter's rules, and rendered
//! for each engine: the HBase shell's `create` and `alter`, and Bigtable's garbage-collection
//! rule.
//!
//! A [`Family`] is built in `const` context, so a table's families can be declared as
//! constants beside its key and value types:
//!
//! ```
//! use rowkey::family::{Bloom, Compression, Family, GcRule};
//!
//! // The guide's log data: keep 30 days, one version, compressed.
//! const LOG: Family = Family::new("d")
//!     .ttl_secs(30 * 24 * 3600)
//!     .compression(Compression::Snappy)
//!     .bloom(Bloom::Row);
//!
//! assert!(LOG.problems().is_empty());
//! assert_eq!(
//!     LOG.gc_rule(),
//!     Some(GcRule::Union(vec![GcRule::MaxAgeSecs(2_592_000), GcRule::MaxVersions(1)]))
//! );
//! assert_eq!(
//!     rowkey::family::hbase_create("logs", &[LOG], &[]),
//!     "create 'logs', {NAME => 'd', VERSIONS => 1, MIN_VERSIONS => 0, TTL => 2592000, \
//!      KEEP_DELETED_CELLS => 'FALSE', BLOOMFILTER => 'ROW', COMPRESSION => 'SNAPPY', \
//!      BLOCKSIZE => 65536, IN_MEMORY => 'false', DATA_BLOCK_ENCODING => 'NONE'}"
//! );
//! ```

use std::borrow::Cow;
use std::fmt;

/// Whether a family keeps deleted cells (HBase's `KEEP_DELETED_CELLS`): with `True`, a read
/// as of a time before a delete still sees the cells, until versions or TTL remove them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeepDeleted {
    /// Deleted cells go at the next major compaction (HBase's default).
    False,
    /// Deleted cells stay, subject to versions and TTL.
    True,
    /// Deleted cells stay until their TTL passes, even past `VERSIONS`.
    Ttl,
}

/// A family's bloom filter (HBase's `BLOOMFILTER`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bloom {
    /// No bloom filter.
    None,
    /// On row keys: skips store files without the row (HBase's default).
    Row,
    /// On row and column: skips store files without the cell; for narrow gets by column.
    RowCol,
    /// On a fixed-length row prefix (`ROWPREFIX_FIXED_LENGTH`; the length is a table
    /// configuration rowkey does not set).
    RowPrefixFixedLength,
    /// On the row up to a delimiter (`ROWPREFIX_DELIMITED`; the delimiter is a table
    /// configuration rowkey does not set).
    RowPrefixDelimited,
}

/// A family's block compression (HBase's `COMPRESSION`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// None (HBase's default).
    None,
    /// Snappy.
    Snappy,
    /// LZ4.
    Lz4,
    /// Zstandard.
    Zstd,
    /// Gzip.
    Gz,
    /// LZO.
    Lzo,
    /// Bzip2.
    Bzip2,
}

/// A family's data block encoding (HBase's `DATA_BLOCK_ENCODING`): how keys inside a block
/// are shortened against the previous key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockEncoding {
    /// None (HBase's default).
    None,
    /// Common prefix with the previous key.
    Prefix,
    /// Prefix, and the differences of the other key parts.
    Diff,
    /// Like `Diff`, faster to decode.
    FastDiff,
    /// `ROW_INDEX_V1`: an index of rows inside the block, for faster seeks.
    RowIndexV1,
}

/// `name` and `from_name` for an option's enum: the spelling `#[family(...)]` takes and the
/// JSON layout writes.
macro_rules! spelled {
    ($ty:ident { $($variant:ident => $name:literal,)* }) => {
        impl $ty {
            /// The option's spelling in `#[family(...)]` and in the JSON layout.
            pub const fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)*
                }
            }

            /// The option of a spelling ([`Self::name`]).
            pub fn from_name(name: &str) -> Option<Self> {
                match name {
                    $($name => Some($ty::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

spelled!(KeepDeleted { False => "false", True => "true", Ttl => "ttl", });
spelled!(Bloom {
    None => "none",
    Row => "row",
    RowCol => "rowcol",
    RowPrefixFixedLength => "rowprefix_fixed_length",
    RowPrefixDelimited => "rowprefix_delimited",
});
spelled!(Compression {
    None => "none",
    Snappy => "snappy",
    Lz4 => "lz4",
    Zstd => "zstd",
    Gz => "gz",
    Lzo => "lzo",
    Bzip2 => "bzip2",
});
spelled!(BlockEncoding {
    None => "none",
    Prefix => "prefix",
    Diff => "diff",
    FastDiff => "fast_diff",
    RowIndexV1 => "row_index_v1",
});

/// One column family and the options users tune, with HBase's defaults from [`Family::new`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Family {
    /// The family's name: every cell carries it, so keep it short (one letter is the guide's
    /// advice). Borrowed when declared, owned when read back from a live table.
    pub name: Cow<'static, str>,
    /// Versions kept per cell (`VERSIONS`, at least 1).
    pub max_versions: u32,
    /// Versions kept even past the TTL (`MIN_VERSIONS`); meaningful only with a TTL.
    pub min_versions: u32,
    /// How long a cell lives, in seconds (`TTL`); `None` keeps it forever.
    pub ttl_secs: Option<u64>,
    /// Whether deleted cells are kept (`KEEP_DELETED_CELLS`).
    pub keep_deleted: KeepDeleted,
    /// The bloom filter (`BLOOMFILTER`).
    pub bloom: Bloom,
    /// Block compression (`COMPRESSION`).
    pub compression: Compression,
    /// The block size in bytes (`BLOCKSIZE`).
    pub block_size: u32,
    /// Whether the family's blocks get the block cache's in-memory priority (`IN_MEMORY`).
    pub in_memory: bool,
    /// Data block encoding (`DATA_BLOCK_ENCODING`).
    pub encoding: BlockEncoding,
}

impl Family {
    /// Family `name` with HBase's defaults: one version, no minimum, no TTL, deleted cells not
    /// kept, a row bloom filter, no compression, 64 KiB blocks, not in memory, no encoding.
    pub const fn new(name: &'static str) -> Self {
        Family {
            name: Cow::Borrowed(name),
            max_versions: 1,
            min_versions: 0,
            ttl_secs: None,
            keep_deleted: KeepDeleted::False,
            bloom: Bloom::Row,
            compression: Compression::None,
            block_size: 64 * 1024,
            in_memory: false,
            encoding: BlockEncoding::None,
        }
    }

    /// The same options under another name (owned: a name read back from a live table, or
    /// built at run time).
    pub fn named(mut self, name: impl Into<Cow<'static, str>>) -> Self {
        self.name = name.into();
        self
    }

    /// Keep `n` versions per cell.
    pub const fn versions(mut self, n: u32) -> Self {
        self.max_versions = n;
        self
    }

    /// Keep at least `n` versions past the TTL.
    pub const fn min_versions(mut self, n: u32) -> Self {
        self.min_versions = n;
        self
    }

    /// Cells live `secs` seconds.
    pub const fn ttl_secs(mut self, secs: u64) -> Self {
        self.ttl_secs = Some(secs);
        self
    }

    /// Whether deleted cells are kept.
    pub const fn keep_deleted(mut self, keep: KeepDeleted) -> Self {
        self.keep_deleted = keep;
        self
    }

    /// The bloom filter.
    pub const fn bloom(mut self, bloom: Bloom) -> Self {
        self.bloom = bloom;
        self
    }

    /// Block compression.
    pub const fn compression(mut self, compression: Compression) -> Self {
        self.compression = compression;
        self
    }

    /// The block size in bytes.
    pub const fn block_size(mut self, bytes: u32) -> Self {
        self.block_size = bytes;
        self
    }

    /// In-memory priority in the block cache.
    pub const fn in_memory(mut self, in_memory: bool) -> Self {
        self.in_memory = in_memory;
        self
    }

    /// Data block encoding.
    pub const fn encoding(mut self, encoding: BlockEncoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// What the schema chapter's rules say is wrong with this family, most serious first; empty
    /// when nothing is.
    pub fn problems(&self) -> Vec<FamilyProblem> {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(FamilyProblem::EmptyName);
        }
        if self.max_versions == 0 {
            out.push(FamilyProblem::NoVersions);
        }
        if self.min_versions > self.max_versions {
            out.push(FamilyProblem::MinAboveMax {
                min: self.min_versions,
                max: self.max_versions,
            });
        }
        if self.min_versions > 0 && self.ttl_secs.is_none() {
            out.push(FamilyProblem::MinWithoutTtl);
        }
        if self.keep_deleted == KeepDeleted::Ttl && self.ttl_secs.is_none() {
            out.push(FamilyProblem::KeepDeletedTtlWithoutTtl);
        }
        if self.max_versions > i32::MAX as u32 || self.min_versions > i32::MAX as u32 {
            out.push(FamilyProblem::AboveHbaseLimit("VERSIONS"));
        }
        if self.ttl_secs.is_some_and(|t| t >= i32::MAX as u64) {
            out.push(FamilyProblem::AboveHbaseLimit("TTL"));
        }
        if self.block_size > i32::MAX as u32 {
            out.push(FamilyProblem::AboveHbaseLimit("BLOCKSIZE"));
        }
        if self.name.len() > 1 {
            out.push(FamilyProblem::LongName {
                bytes_per_cell: self.name.len() - 1,
            });
        }
        out
    }

    /// Bigtable's garbage-collection rule for the family's versions and TTL, as the Bigtable
    /// HBase adapter maps them: `max_versions(VERSIONS)`, and with a TTL
    /// `union(max_age(TTL) [intersected with max_versions(MIN_VERSIONS)], max_versions(VERSIONS))`.
    /// `None`: nothing is ever collected.
    pub fn gc_rule(&self) -> Option<GcRule> {
        let versions =
            (self.max_versions != u32::MAX).then_some(GcRule::MaxVersions(self.max_versions));
        let Some(ttl) = self.ttl_secs else {
            return versions;
        };
        let mut age = GcRule::MaxAgeSecs(ttl);
        if self.min_versions > 0 {
            age = GcRule::Intersection(vec![age, GcRule::MaxVersions(self.min_versions)]);
        }
        Some(match versions {
            Some(v) => GcRule::Union(vec![age, v]),
            None => age,
        })
    }

    /// The options set to something other than HBase's default that Bigtable has no
    /// equivalent for (it manages blocks, compression and caching itself, and never keeps
    /// deleted cells), by their HBase names.
    pub fn without_bigtable_equivalent(&self) -> Vec<&'static str> {
        let d = Family::new("");
        let mut out = Vec::new();
        if self.keep_deleted != d.keep_deleted {
            out.push("KEEP_DELETED_CELLS");
        }
        if self.bloom != d.bloom {
            out.push("BLOOMFILTER");
        }
        if self.compression != d.compression {
            out.push("COMPRESSION");
        }
        if self.block_size != d.block_size {
            out.push("BLOCKSIZE");
        }
        if self.in_memory != d.in_memory {
            out.push("IN_MEMORY");
        }
        if self.encoding != d.encoding {
            out.push("DATA_BLOCK_ENCODING");
        }
        out
    }

    /// The family as the HBase shell writes a column family descriptor:
    /// `{NAME => 'd', VERSIONS => 1, ...}`, every option spelled out.
    pub fn hbase_shell(&self) -> String {
        let options: Vec<String> = self
            .shell_options()
            .iter()
            .map(|(k, v)| format!("{k} => {v}"))
            .collect();
        format!(
            "{{NAME => {}, {}}}",
            crate::fmt::ruby_single(&self.name),
            options.join(", ")
        )
    }

    /// Every option by its HBase name, with its value as the shell writes it.
    pub fn shell_options(&self) -> [(&'static str, String); 9] {
        let quoted = |s: &str| format!("'{s}'");
        [
            ("VERSIONS", self.max_versions.to_string()),
            ("MIN_VERSIONS", self.min_versions.to_string()),
            (
                "TTL",
                self.ttl_secs.map_or(quoted("FOREVER"), |t| t.to_string()),
            ),
            (
                "KEEP_DELETED_CELLS",
                quoted(match self.keep_deleted {
                    KeepDeleted::False => "FALSE",
                    KeepDeleted::True => "TRUE",
                    KeepDeleted::Ttl => "TTL",
                }),
            ),
            (
                "BLOOMFILTER",
                quoted(match self.bloom {
                    Bloom::None => "NONE",
                    Bloom::Row => "ROW",
                    Bloom::RowCol => "ROWCOL",
                    Bloom::RowPrefixFixedLength => "ROWPREFIX_FIXED_LENGTH",
                    Bloom::RowPrefixDelimited => "ROWPREFIX_DELIMITED",
                }),
            ),
            (
                "COMPRESSION",
                quoted(match self.compression {
                    Compression::None => "NONE",
                    Compression::Snappy => "SNAPPY",
                    Compression::Lz4 => "LZ4",
                    Compression::Zstd => "ZSTD",
                    Compression::Gz => "GZ",
                    Compression::Lzo => "LZO",
                    Compression::Bzip2 => "BZIP2",
                }),
            ),
            ("BLOCKSIZE", self.block_size.to_string()),
            (
                "IN_MEMORY",
                quoted(if self.in_memory { "true" } else { "false" }),
            ),
            (
                "DATA_BLOCK_ENCODING",
                quoted(match self.encoding {
                    BlockEncoding::None => "NONE",
                    BlockEncoding::Prefix => "PREFIX",
                    BlockEncoding::Diff => "DIFF",
                    BlockEncoding::FastDiff => "FAST_DIFF",
                    BlockEncoding::RowIndexV1 => "ROW_INDEX_V1",
                }),
            ),
        ]
    }
}

impl Family {
    /// The options on which `self` and `other` differ, by their HBase names (the name itself
    /// not compared).
    pub fn differences(&self, other: &Family) -> Vec<&'static str> {
        self.shell_options()
            .into_iter()
            .zip(other.shell_options())
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, _)| a.0)
            .collect()
    }
}

/// A whole table as data, in one place: its name, its key's layout and fingerprint, its value's
/// columns and families, and the split points it is created with. Serializes to JSON (serde)
/// beside the key's layout, for operators' tools and for readers in other languages.
#[derive(Clone, Debug, PartialEq)]
pub struct TableLayout {
    /// The table's name.
    pub table: String,
    /// The key's layout.
    pub key: &'static crate::Schema,
    /// The key's layout fingerprint (FORMAT.md §8).
    pub key_fingerprint: u64,
    /// The value's columns and families.
    pub value: crate::ValueSchema,
    /// The split points the table is created with (from `K::split_points`).
    pub splits: Vec<bytes::Bytes>,
}

impl TableLayout {
    /// Table `table` of rows keyed by `K` with values `V`, pre-split into `regions` regions
    /// from `K`'s layout (`K::split_points`).
    pub fn of<K: crate::RowKey, V: crate::RowValue>(table: &str, regions: usize) -> Self {
        TableLayout {
            table: table.to_string(),
            key: K::SCHEMA,
            key_fingerprint: K::FINGERPRINT,
            value: V::SCHEMA,
            splits: K::split_points(regions),
        }
    }

    /// The families the table is created with.
    pub fn families(&self) -> &'static [Family] {
        self.value.family_options
    }

    /// The HBase shell's `create` for the table: every family option and the split points.
    pub fn hbase_create(&self) -> String {
        let splits: Vec<&[u8]> = self.splits.iter().map(|s| &s[..]).collect();
        hbase_create(&self.table, self.families(), &splits)
    }
}

/// One difference between the families a table is declared with and the ones it has.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FamilyChange {
    /// The table lacks a declared family: add it.
    Add(Family),
    /// A family's options differ from its declaration.
    Modify {
        /// The family as the table has it.
        live: Family,
        /// The family as declared.
        declared: Family,
        /// The options that differ, by their HBase names.
        options: Vec<&'static str>,
    },
    /// The table has a family nobody declared. Reported, never dropped: its cells would go.
    Undeclared(String),
}

impl FamilyChange {
    /// The HBase shell command that makes the table match the declaration; for an undeclared
    /// family, a comment naming the command that would drop it (and its data).
    pub fn hbase_shell(&self, table: &str) -> String {
        match self {
            FamilyChange::Add(f) | FamilyChange::Modify { declared: f, .. } => hbase_alter(table, f),
            FamilyChange::Undeclared(name) => format!(
                "# not declared, kept: {name} (drop it and its cells with: alter {}, 'delete' => {})",
                crate::fmt::ruby_single(table),
                crate::fmt::ruby_single(name)
            ),
        }
    }
}

impl fmt::Display for FamilyChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FamilyChange::Add(fam) => write!(f, "family `{}` is missing", fam.name),
            FamilyChange::Modify {
                live,
                declared,
                options,
            } => {
                write!(f, "family `{}` differs:", declared.name)?;
                let (from, to) = (live.shell_options(), declared.shell_options());
                for ((name, a), (_, b)) in from.iter().zip(&to) {
                    if options.contains(name) {
                        write!(f, " {name} {a} -> {b}")?;
                    }
                }
                Ok(())
            }
            FamilyChange::Undeclared(name) => write!(f, "family `{name}` is not declared"),
        }
    }
}

/// What it takes to bring a table with families `live` to the declaration `declared`: the
/// missing families, the ones whose options differ, then the undeclared ones, each in the
/// order given. Empty when the table matches.
pub fn diff(declared: &[Family], live: &[Family]) -> Vec<FamilyChange> {
    let mut out = Vec::new();
    for d in declared {
        match live.iter().find(|l| l.name == d.name) {
            None => out.push(FamilyChange::Add(d.clone())),
            Some(l) => {
                let options = l.differences(d);
                if !options.is_empty() {
                    out.push(FamilyChange::Modify {
                        live: l.clone(),
                        declared: d.clone(),
                        options,
                    });
                }
            }
        }
    }
    for l in live {
        if !declared.iter().any(|d| d.name == l.name) {
            out.push(FamilyChange::Undeclared(l.name.to_string()));
        }
    }
    out
}

/// A rule of the schema chapter a [`Family`] breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FamilyProblem {
    /// The family has no name.
    EmptyName,
    /// `VERSIONS` is 0: HBase refuses it.
    NoVersions,
    /// `MIN_VERSIONS` above `VERSIONS`: HBase refuses it.
    MinAboveMax {
        /// `MIN_VERSIONS`.
        min: u32,
        /// `VERSIONS`.
        max: u32,
    },
    /// `MIN_VERSIONS` without a TTL: HBase ignores it (it only keeps versions past a TTL).
    MinWithoutTtl,
    /// `KEEP_DELETED_CELLS => 'TTL'` without a TTL: deleted cells would be kept forever.
    KeepDeletedTtlWithoutTtl,
    /// An option above what HBase stores (a 32-bit signed integer; a TTL of `i32::MAX`
    /// seconds is HBase's "forever"): the option's name.
    AboveHbaseLimit(&'static str),
    /// A name longer than one byte: every cell stores it, so it costs this many bytes per
    /// cell over a one-letter name.
    LongName {
        /// The bytes per cell a one-letter name would save.
        bytes_per_cell: usize,
    },
}

impl fmt::Display for FamilyProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FamilyProblem::EmptyName => write!(f, "a column family needs a name"),
            FamilyProblem::NoVersions => write!(f, "VERSIONS must be at least 1"),
            FamilyProblem::MinAboveMax { min, max } => {
                write!(f, "MIN_VERSIONS ({min}) is above VERSIONS ({max})")
            }
            FamilyProblem::MinWithoutTtl => write!(
                f,
                "MIN_VERSIONS without a TTL does nothing: HBase keeps minimum versions only past a TTL"
            ),
            FamilyProblem::KeepDeletedTtlWithoutTtl => write!(
                f,
                "KEEP_DELETED_CELLS => 'TTL' without a TTL keeps deleted cells forever"
            ),
            FamilyProblem::AboveHbaseLimit(option) => write!(
                f,
                "{option} is above HBase's limit of 2,147,483,646 (TTL: use no TTL for forever)"
            ),
            FamilyProblem::LongName { bytes_per_cell } => write!(
                f,
                "the family name is stored in every cell: a one-letter name saves {bytes_per_cell} byte(s) per cell"
            ),
        }
    }
}

/// A Bigtable garbage-collection rule: a cell is collected when the rule matches it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GcRule {
    /// Cells beyond the newest `n` of their column.
    MaxVersions(u32),
    /// Cells older than this many seconds.
    MaxAgeSecs(u64),
    /// Cells every rule matches.
    Intersection(Vec<GcRule>),
    /// Cells any rule matches.
    Union(Vec<GcRule>),
}

impl fmt::Display for GcRule {
    /// The rule as `cbt setgcpolicy` reads it: `maxage=30d or maxversions=1`,
    /// `(maxage=7d and maxversions=2) or maxversions=5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GcRule::MaxVersions(n) => write!(f, "maxversions={n}"),
            GcRule::MaxAgeSecs(s) => {
                if s % 86_400 == 0 {
                    write!(f, "maxage={}d", s / 86_400)
                } else if s % 3600 == 0 {
                    write!(f, "maxage={}h", s / 3600)
                } else {
                    write!(f, "maxage={s}s")
                }
            }
            GcRule::Intersection(rules) | GcRule::Union(rules) => {
                let op = if matches!(self, GcRule::Union(_)) {
                    " or "
                } else {
                    " and "
                };
                for (i, r) in rules.iter().enumerate() {
                    if i > 0 {
                        f.write_str(op)?;
                    }
                    match r {
                        GcRule::Intersection(_) | GcRule::Union(_) => write!(f, "({r})")?,
                        _ => write!(f, "{r}")?,
                    }
                }
                Ok(())
            }
        }
    }
}

/// The HBase shell's `create` for table `table` with `families`, pre-split at `splits`
/// (from `split_points`, as `SPLITS => [...]`).
pub fn hbase_create(table: &str, families: &[Family], splits: &[&[u8]]) -> String {
    let mut out = format!("create {}", crate::fmt::ruby_single(table));
    for f in families {
        out.push_str(", ");
        out.push_str(&f.hbase_shell());
    }
    if !splits.is_empty() {
        let keys: Vec<String> = splits.iter().map(|s| crate::fmt::ruby_string(s)).collect();
        out.push_str(&format!(", SPLITS => [{}]", keys.join(", ")));
    }
    out
}

/// The HBase shell's `alter` that gives family `family` of table `table` these options (it
/// adds the family when the table lacks it).
pub fn hbase_alter(table: &str, family: &Family) -> String {
    format!(
        "alter {}, {}",
        crate::fmt::ruby_single(table),
        family.hbase_shell()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gc_rules_follow_the_bigtable_hbase_adapter() {
        assert_eq!(Family::new("d").gc_rule(), Some(GcRule::MaxVersions(1)));
        assert_eq!(Family::new("d").versions(u32::MAX).gc_rule(), None);
        let f = Family::new("d")
            .versions(5)
            .min_versions(2)
            .ttl_secs(7 * 86_400);
        let rule = f.gc_rule().unwrap();
        assert_eq!(
            rule,
            GcRule::Union(vec![
                GcRule::Intersection(vec![GcRule::MaxAgeSecs(604_800), GcRule::MaxVersions(2)]),
                GcRule::MaxVersions(5),
            ])
        );
        assert_eq!(
            rule.to_string(),
            "(maxage=7d and maxversions=2) or maxversions=5"
        );
        assert_eq!(
            Family::new("d").versions(u32::MAX).ttl_secs(90).gc_rule(),
            Some(GcRule::MaxAgeSecs(90))
        );
        assert_eq!(GcRule::MaxAgeSecs(7200).to_string(), "maxage=2h");
    }

    #[test]
    fn the_chapters_rules_are_checked() {
        assert!(Family::new("d").problems().is_empty());
        assert_eq!(
            Family::new("d")
                .versions(1)
                .min_versions(2)
                .ttl_secs(60)
                .problems(),
            [FamilyProblem::MinAboveMax { min: 2, max: 1 }]
        );
        assert_eq!(
            Family::new("d").versions(3).min_versions(1).problems(),
            [FamilyProblem::MinWithoutTtl]
        );
        assert_eq!(
            Family::new("data").problems(),
            [FamilyProblem::LongName { bytes_per_cell: 3 }]
        );
        assert_eq!(
            Family::new("d").keep_deleted(KeepDeleted::Ttl).problems(),
            [FamilyProblem::KeepDeletedTtlWithoutTtl]
        );
        assert_eq!(
            Family::new("d").versions(0).problems(),
            [FamilyProblem::NoVersions]
        );
    }

    #[test]
    fn a_diff_lists_exactly_what_differs() {
        let declared = [
            Family::new("d").ttl_secs(86_400),
            Family::new("x").versions(3),
        ];
        assert!(diff(&declared, &declared).is_empty());
        let live = [Family::new("d"), Family::new("old")];
        let changes = diff(&declared, &live);
        assert_eq!(
            changes,
            [
                FamilyChange::Modify {
                    live: Family::new("d"),
                    declared: Family::new("d").ttl_secs(86_400),
                    options: vec!["TTL"],
                },
                FamilyChange::Add(Family::new("x").versions(3)),
                FamilyChange::Undeclared("old".into()),
            ]
        );
        assert_eq!(
            changes[0].to_string(),
            "family `d` differs: TTL 'FOREVER' -> 86400"
        );
        assert!(changes[1]
            .hbase_shell("t")
            .starts_with("alter 't', {NAME => 'x', VERSIONS => 3,"));
        assert_eq!(
            changes[2].hbase_shell("t"),
            "# not declared, kept: old (drop it and its cells with: alter 't', 'delete' => 'old')"
        );
    }

    #[test]
    fn the_shell_gets_every_option_and_the_splits() {
        let f = Family::new("d")
            .versions(3)
            .keep_deleted(KeepDeleted::True)
            .bloom(Bloom::RowCol)
            .compression(Compression::Zstd)
            .block_size(16 * 1024)
            .in_memory(true)
            .encoding(BlockEncoding::FastDiff);
        assert_eq!(
            hbase_create("ns:t", std::slice::from_ref(&f), &[b"\x40", b"\x80"]),
            "create 'ns:t', {NAME => 'd', VERSIONS => 3, MIN_VERSIONS => 0, TTL => 'FOREVER', \
             KEEP_DELETED_CELLS => 'TRUE', BLOOMFILTER => 'ROWCOL', COMPRESSION => 'ZSTD', \
             BLOCKSIZE => 16384, IN_MEMORY => 'true', DATA_BLOCK_ENCODING => 'FAST_DIFF'}, \
             SPLITS => [\"@\", \"\\x80\"]"
        );
        assert_eq!(
            f.without_bigtable_equivalent(),
            [
                "KEEP_DELETED_CELLS",
                "BLOOMFILTER",
                "COMPRESSION",
                "BLOCKSIZE",
                "IN_MEMORY",
                "DATA_BLOCK_ENCODING"
            ]
        );
        assert!(Family::new("d")
            .ttl_secs(5)
            .without_bigtable_equivalent()
            .is_empty());
        assert!(hbase_alter("t", &Family::new("d").ttl_secs(5))
            .starts_with("alter 't', {NAME => 'd', VERSIONS => 1, MIN_VERSIONS => 0, TTL => 5,"));
    }
}
