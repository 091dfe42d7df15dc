//! Column families declared on a `RowValue` (`#[family(name = "d", ...)]`): the options reach
//! `SCHEMA.family_options` exactly, every spelling the attribute takes is the runtime's, the
//! layout JSON carries them, and a table created from them renders as the HBase shell would.
//! (The compile-time rules are ui-tests, `ui-tests/value/family_*.rs`.)

use rowkey::family::{BlockEncoding, Bloom, Compression, Family, KeepDeleted};
use rowkey::RowValue;

/// The guide's log data: events kept 30 days, the newest two versions past it; counters in a
/// family of their own, in memory.
#[derive(RowValue)]
#[column(family = "d")]
#[family(
    name = "d",
    versions = 3,
    min_versions = 2,
    ttl = "30d",
    compression = "gz",
    bloom = "rowcol",
    encoding = "fast_diff",
    keep_deleted = "ttl",
    block_size = 16384
)]
#[family(name = "c", in_memory)]
#[allow(dead_code)]
struct LogRow {
    message: String,
    #[column(family = "c")]
    hits: i64,
    #[column(family = "x")]
    note: Option<String>,
}

#[test]
fn declared_options_reach_the_schema_and_undeclared_families_get_hbases_defaults() {
    assert_eq!(
        LogRow::SCHEMA.family_options,
        [
            Family::new("d")
                .versions(3)
                .min_versions(2)
                .ttl_secs(30 * 86_400)
                .compression(Compression::Gz)
                .bloom(Bloom::RowCol)
                .encoding(BlockEncoding::FastDiff)
                .keep_deleted(KeepDeleted::Ttl)
                .block_size(16384),
            Family::new("c").in_memory(true),
            Family::new("x"),
        ]
    );
    for f in LogRow::SCHEMA.family_options {
        assert!(f.problems().is_empty(), "{f:?}");
    }
    let json = serde_json::to_value(LogRow::SCHEMA).unwrap();
    assert_eq!(
        json["family_options"][0],
        serde_json::json!({
            "name": "d", "versions": 3, "min_versions": 2, "ttl_secs": 2_592_000,
            "keep_deleted": "ttl", "bloom": "rowcol", "compression": "gz",
            "block_size": 16384, "in_memory": false, "encoding": "fast_diff"
        })
    );
    assert_eq!(
        json["family_options"][2]["ttl_secs"],
        serde_json::Value::Null
    );
    assert_eq!(
        rowkey::family::hbase_create("logs", &LogRow::SCHEMA.family_options[1..2], &[]),
        "create 'logs', {NAME => 'c', VERSIONS => 1, MIN_VERSIONS => 0, TTL => 'FOREVER', \
         KEEP_DELETED_CELLS => 'FALSE', BLOOMFILTER => 'ROW', COMPRESSION => 'NONE', \
         BLOCKSIZE => 65536, IN_MEMORY => 'true', DATA_BLOCK_ENCODING => 'NONE'}"
    );
}

/// One value type per spelling: the attribute takes it, and it means what the runtime's
/// `from_name` says.
macro_rules! spellings {
    ($($module:ident: $option:ident = $spelling:literal => $ty:ident;)*) => {$(
        mod $module {
            #[derive(rowkey::RowValue)]
            #[column(family = "d")]
            #[family(name = "d", ttl = "1h", $option = $spelling)]
            #[allow(dead_code)]
            pub struct V {
                pub v: u8,
            }
        }
        assert_eq!(
            <$module::V as RowValue>::SCHEMA.family_options[0].$option,
            $ty::from_name($spelling).unwrap(),
            "{}",
            $spelling
        );
        assert_eq!($ty::from_name($spelling).unwrap().name(), $spelling);
    )*};
}

#[test]
fn every_spelling_the_attribute_takes_is_the_runtimes() {
    spellings! {
        kd_false: keep_deleted = "false" => KeepDeleted;
        kd_true: keep_deleted = "true" => KeepDeleted;
        kd_ttl: keep_deleted = "ttl" => KeepDeleted;
        b_none: bloom = "none" => Bloom;
        b_row: bloom = "row" => Bloom;
        b_rowcol: bloom = "rowcol" => Bloom;
        b_fixed: bloom = "rowprefix_fixed_length" => Bloom;
        b_delim: bloom = "rowprefix_delimited" => Bloom;
        c_none: compression = "none" => Compression;
        c_snappy: compression = "snappy" => Compression;
        c_lz4: compression = "lz4" => Compression;
        c_zstd: compression = "zstd" => Compression;
        c_gz: compression = "gz" => Compression;
        c_lzo: compression = "lzo" => Compression;
        c_bzip2: compression = "bzip2" => Compression;
        e_none: encoding = "none" => BlockEncoding;
        e_prefix: encoding = "prefix" => BlockEncoding;
        e_diff: encoding = "diff" => BlockEncoding;
        e_fast: encoding = "fast_diff" => BlockEncoding;
        e_index: encoding = "row_index_v1" => BlockEncoding;
    }
}

#[test]
fn durations_take_every_unit() {
    #[derive(RowValue)]
    #[column(family = "a")]
    #[family(name = "a", ttl = "90s")]
    #[family(name = "b", ttl = "15m")]
    #[family(name = "c", ttl = "2w")]
    #[allow(dead_code)]
    struct T {
        x: u8,
        #[column(family = "b")]
        y: u8,
        #[column(family = "c")]
        z: u8,
    }
    let ttls: Vec<Option<u64>> = T::SCHEMA
        .family_options
        .iter()
        .map(|f| f.ttl_secs)
        .collect();
    assert_eq!(ttls, [Some(90), Some(900), Some(14 * 86_400)]);
}

#[test]
fn a_table_layout_holds_key_families_and_splits_as_data() {
    use rowkey::family::TableLayout;
    use rowkey::RowKey;
    #[derive(RowKey)]
    #[allow(dead_code)]
    struct LogKey {
        #[salt(buckets = 4)]
        host: u32,
        #[reverse_ts]
        ts: u64,
    }
    let layout = TableLayout::of::<LogKey, LogRow>("logs", 4);
    assert_eq!(layout.families(), LogRow::SCHEMA.family_options);
    assert_eq!(layout.splits.len(), 3);
    assert!(layout
        .hbase_create()
        .starts_with("create 'logs', {NAME => 'd', VERSIONS => 3,"));
    assert!(layout
        .hbase_create()
        .ends_with(r#"SPLITS => ["\x01", "\x02", "\x03"]"#));
    let json = serde_json::to_value(&layout).unwrap();
    assert_eq!(json["table"], "logs");
    assert_eq!(json["key"]["name"], "LogKey");
    assert_eq!(
        json["key_fingerprint"],
        format!("{:#018x}", LogKey::FINGERPRINT)
    );
    assert_eq!(json["value"]["family_options"][1]["name"], "c");
    assert_eq!(json["splits"], serde_json::json!(["01", "02", "03"]));
}
