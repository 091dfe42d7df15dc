//! `rowkey`: the project's command line. Its first subcommand, `explain`, reads row keys in the
//! field without the code that wrote them:
//!
//! ```text
//! rowkey explain --schema layouts.json [--type Event] [--hex] [KEY ...]
//! ```
//!
//! The schema is the JSON rowkey exports (`serde_json::to_string(K::SCHEMA)`; `cargo run
//! --example layouts` writes every example's). Keys come from the arguments, or one per line on
//! standard input, as HBase's `Bytes.toStringBinary` prints them (`\x04\x00...`: the HBase
//! shell, region names) or, with `--hex` or a `0x` prefix, in hex (Bigtable's hot-tablets
//! listing). Each key is explained field by field, as the key type's own `explain` would; with
//! `--uids TABLE --hbase HOST:PORT` (or `--bigtable PROJECT/INSTANCE`), each
//! `#[uid(kind = "...")]` field's id is shown with its name from that lookup table.
//!
//! `schema` renders a table's declaration for operators: the HBase shell's `create` (every
//! family option, the split points), the Bigtable commands, and a capacity plan. The
//! declaration is a whole table as one file (`--layout`: `rowkey::family::TableLayout` as JSON,
//! key, fingerprint, families and splits), or a value layout with a key layout beside it:
//!
//! ```text
//! rowkey schema --layout table.json [--records-per-day N --bytes-per-record B ...]
//! rowkey schema --value value.json --table logs [--key key.json --regions N]
//!               [--records-per-day N --bytes-per-record B --growth 0.5 --servers 10]
//! ```
//!
//! `diff` compares a live table's families with the declaration (HBase through its Thrift2
//! gateway, or Bigtable and its emulator), prints each difference with the command that fixes
//! it, and applies them with `--apply`; it exits 0 when the table matches, 1 when it differs.
//! With `--layout`, a table that records another key layout is refused (exit 2: its rows need
//! re-keying, not an `alter`), and `--apply` creates a missing table pre-split, with the key
//! layout recorded. `regions` lists a live HBase table's regions (`--count`: and their rows),
//! or a Bigtable table's approximate tablet boundaries with the bytes in each (`SampleRowKeys`;
//! Bigtable lists no tablets to clients), with their keys explained with `--key` (or the
//! layout's key):
//!
//! ```text
//! rowkey diff (--layout table.json | --value value.json --table logs)
//!             (--hbase HOST:PORT | --bigtable PROJECT/INSTANCE [--emulator HOST:PORT]) [--apply]
//! rowkey regions --table logs (--hbase HOST:PORT [--count] | --bigtable PROJECT/INSTANCE)
//!                [--key key.json | --layout table.json]
//! ```
//!
//! `hotspots` reads a live HBase table's per-region request counters from its region servers
//! twice, `--interval` seconds apart, and reports each region's share of the reads and writes
//! read through the key layout (salt bucket, the fields its start key decodes to, the share the
//! layout predicts, the skew); `--sample N` reads up to N keys the busiest region was written
//! during the interval and names their most frequent leading values (`--json` for a script;
//! `--features hbase-rpc`):
//!
//! ```text
//! rowkey hotspots --table events (--master HOST:PORT | --zk QUORUM | --site hbase-site.xml)
//!                 (--key key.json | --layout table.json) [--interval 10] [--sample 10000] [--json]
//! ```
//!
//! `sql` runs SQL over a table's keys, read through the key layout (`--key` or `--layout`): on
//! a local fjall database (the table is its keyspace), HBase through Thrift2 or its native RPC,
//! or Bigtable (the rows with a cell in `--family`, one partition per region or sampled tablet); `--value NAME`
//! adds each row's value as a column. Without the key's Rust type nothing is pushed down: every
//! row is read and DataFusion filters. The result is printed as a table, or written as CSV,
//! JSON lines or an Arrow IPC file (`--features sql`):
//!
//! ```text
//! rowkey sql (--fjall DIR | --hbase HOST:PORT --family F | --bigtable PROJECT/INSTANCE --family F
//!            | (--master HOST:PORT | --zk QUORUM | --site hbase-site.xml) --family F)
//!            --table events (--key key.json | --layout table.json) [--value v]
//!            [--format table|csv|json|arrow] [-o FILE] "SELECT ..."
//! ```
//!
//! Arguments are parsed by clap (derive): help, versions, errors and exit codes as users of
//! Rust tools expect them, and room for the subcommands the next capabilities add.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

mod sql;

/// Row keys for HBase, Cloud Bigtable and LSM stores, from the command line.
#[derive(Parser)]
#[command(name = "rowkey", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Explains row keys field by field, from a key schema exported as JSON.
    Explain(Explain),
    /// Renders a table's families and split points as HBase shell and cbt commands, with a
    /// capacity plan.
    Schema(SchemaArgs),
    /// Compares a live table's families with the declaration; `--apply` makes them match.
    Diff(DiffArgs),
    /// Lists a live HBase table's regions (or a Bigtable table's sampled tablet boundaries),
    /// their keys explained with `--key` or `--layout`.
    Regions(RegionsArgs),
    /// Checks a key layout against a live table's keys before trusting it: how many of a
    /// sample it reads, the first it does not (explained), each field's range. Exit 0 when
    /// every key sampled fits.
    Check(CheckArgs),
    /// Runs SQL over a table's keys, read through a key layout exported as JSON, on a local
    /// fjall database, HBase (Thrift2) or Bigtable; prints a table, or writes CSV, JSON lines or
    /// an Arrow IPC file (`--features sql`).
    Sql(sql::SqlArgs),
    /// Reads a live HBase table's load from its region servers twice, an interval apart, and
    /// reports each region's share of reads and writes through the key layout: its salt
    /// bucket, the fields its start key decodes to, the layout's predicted share, the skew;
    /// `--sample N` names the busiest region's most frequent leading values among the rows it
    /// was written during the interval.
    Hotspots(HotspotsArgs),
}

/// The key layout a verb reads keys with: a key layout file, or a whole table's.
#[derive(Args)]
struct KeyLayout {
    /// The key layout (`K::SCHEMA` as JSON, or any export holding it).
    #[arg(
        long,
        value_name = "KEY.json",
        conflicts_with = "layout",
        required_unless_present = "layout"
    )]
    key: Option<PathBuf>,
    /// Which key layout of the `--key` file, by its type's name (needed when it holds several).
    #[arg(long = "type", value_name = "NAME", requires = "key")]
    type_name: Option<String>,
    /// The whole table (`rowkey::family::TableLayout` as JSON): its key layout, and its name as
    /// the default table.
    #[arg(long, value_name = "TABLE.json")]
    layout: Option<PathBuf>,
}

#[derive(Args)]
struct HotspotsArgs {
    /// The table's name (default: the layout's).
    #[arg(long, required_unless_present = "layout")]
    table: Option<String>,
    /// The cluster through a master's (or, from HBase 2.6, a region server's) connection
    /// registry, `host:port`.
    #[arg(long, value_name = "HOST:PORT", conflicts_with_all = ["zk", "site"])]
    master: Option<String>,
    /// The cluster through its ZooKeeper quorum, `host:port[,host:port...]`.
    #[arg(long, value_name = "QUORUM", conflicts_with = "site")]
    zk: Option<String>,
    /// The cluster as an `hbase-site.xml` describes it (its quorum or registry, Kerberos, TLS).
    #[arg(long, value_name = "hbase-site.xml")]
    site: Option<PathBuf>,
    #[command(flatten)]
    key: KeyLayout,
    /// Seconds between the two samples of the region servers' counters.
    #[arg(long, default_value_t = 10.0)]
    interval: f64,
    /// Read up to this many row keys the busiest region was written during the interval, and
    /// name their most frequent leading values.
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// The report as JSON, for a script.
    #[arg(long)]
    json: bool,
}

/// The family a store for `check` is opened with: it reads keys only (`Store::scan_keys`),
/// whatever columns the rows hold, so no family is named by the user.
#[cfg(any(feature = "hbase", feature = "bigtable", feature = "hbase-rpc"))]
const ANY_FAMILY: &str = "d";

#[derive(Args)]
struct CheckArgs {
    #[command(flatten)]
    live: Live,
    #[command(flatten)]
    key: KeyLayout,
    /// How many keys to read, spread over the key space.
    #[arg(long, default_value_t = 100_000)]
    sample: usize,
}

/// Where a live table is.
#[derive(Args)]
struct Live {
    /// The table's name (default: the layout's).
    #[arg(long, required_unless_present = "layout")]
    table: Option<String>,
    /// An HBase Thrift2 gateway, `host:port`.
    #[arg(long, value_name = "HOST:PORT", conflicts_with = "bigtable")]
    hbase: Option<String>,
    /// The gateway uses framed transport.
    #[arg(long, requires = "hbase")]
    framed: bool,
    /// A Bigtable instance, `project/instance`.
    #[arg(long, value_name = "PROJECT/INSTANCE")]
    bigtable: Option<String>,
    /// The Bigtable emulator, `host:port` (default: `BIGTABLE_EMULATOR_HOST`).
    #[arg(long, value_name = "HOST:PORT", requires = "bigtable")]
    emulator: Option<String>,
}

#[derive(Args)]
struct DiffArgs {
    /// The whole table (`rowkey::family::TableLayout` as JSON): families, key layout and its
    /// fingerprint, split points.
    #[arg(long, value_name = "TABLE.json", conflicts_with = "value")]
    layout: Option<PathBuf>,
    /// The value layout (`V::SCHEMA` as JSON, with its `family_options`).
    #[arg(long, value_name = "VALUE.json", required_unless_present = "layout")]
    value: Option<PathBuf>,
    /// Which value layout of the file, by its type's name.
    #[arg(long = "type", value_name = "NAME")]
    type_name: Option<String>,
    #[command(flatten)]
    live: Live,
    /// Apply the changes (add missing families, change differing ones; undeclared families
    /// are reported, never dropped).
    #[arg(long)]
    apply: bool,
}

#[derive(Args)]
struct RegionsArgs {
    #[command(flatten)]
    live: Live,
    /// The key layout (`K::SCHEMA` as JSON, or any export holding it): each region's start
    /// key is explained.
    #[arg(long, value_name = "KEY.json", conflicts_with = "layout")]
    key: Option<PathBuf>,
    /// Which key layout of the `--key` file, by its type's name (needed when it holds several).
    #[arg(long = "type", value_name = "NAME", requires = "key")]
    type_name: Option<String>,
    /// The whole table (`rowkey::family::TableLayout` as JSON): its key layout explains each
    /// region's start key, and its name is the default table.
    #[arg(long, value_name = "TABLE.json")]
    layout: Option<PathBuf>,
    /// Count each region's rows: reads every row key of the table (long on a large one; a
    /// progress bar on a terminal).
    #[arg(long)]
    count: bool,
}

#[derive(Args)]
struct SchemaArgs {
    /// The whole table (`rowkey::family::TableLayout` as JSON, or the layouts export holding
    /// it: choose with `--table` when it holds several): families, key layout, split points.
    #[arg(long, value_name = "TABLE.json", conflicts_with_all = ["value", "key"])]
    layout: Option<PathBuf>,
    /// The value layout (`V::SCHEMA` as JSON, with its `family_options`).
    #[arg(long, value_name = "VALUE.json", required_unless_present = "layout")]
    value: Option<PathBuf>,
    /// Which value layout of the file, by its type's name (needed when it holds several).
    #[arg(long = "type", value_name = "NAME")]
    type_name: Option<String>,
    /// The table's name (default: the layout's); which of the layout file's tables, when it
    /// holds several.
    #[arg(long, required_unless_present = "layout")]
    table: Option<String>,
    /// The key layout (`K::SCHEMA` as JSON, or any export holding it), for split points.
    #[arg(long, value_name = "KEY.json")]
    key: Option<PathBuf>,
    /// Which key layout of the `--key` file, by its type's name (needed when it holds several).
    #[arg(long, value_name = "NAME", requires = "key")]
    key_type: Option<String>,
    /// Pre-split into this many regions (from the key layout); without it, the layout's split
    /// points, or the capacity plan's count when it is asked for.
    #[arg(long)]
    regions: Option<usize>,
    /// Records written a day: asks for a capacity plan.
    #[arg(long, requires = "bytes_per_record")]
    records_per_day: Option<u64>,
    /// Bytes a record stores (its cells' coordinates and values; the size budget's figure).
    #[arg(long)]
    bytes_per_record: Option<u64>,
    /// Growth of the daily rate a year (0.5: +50 %).
    #[arg(long, default_value_t = 0.0)]
    growth: f64,
    /// Region servers in the cluster.
    #[arg(long, default_value_t = 10)]
    servers: usize,
    /// The day the plan is for.
    #[arg(long, default_value_t = 365)]
    horizon_days: u64,
}

#[derive(Args)]
struct Explain {
    /// The schema file: one key schema, or an array of them, as rowkey exports them.
    #[arg(long, value_name = "SCHEMA.json")]
    schema: PathBuf,
    /// Which schema of the file, by its type's name (needed when it holds several).
    #[arg(long = "type", value_name = "NAME")]
    type_name: Option<String>,
    /// Read every key as hex (a key starting with `0x` is read as hex anyway).
    #[arg(long)]
    hex: bool,
    /// Keys as HBase's `toStringBinary` prints them (`\x04\x00...`), or hex; without any, one
    /// per line on standard input.
    #[arg(allow_hyphen_values = true)]
    keys: Vec<String>,
    /// A lookup table (`rowkey::store::UidTable`) on `--hbase` or `--bigtable`: each
    /// `#[uid(kind = "...")]` field's id is shown with its name.
    #[arg(long, value_name = "TABLE")]
    uids: Option<String>,
    /// The lookup table's HBase Thrift2 gateway, `host:port`.
    #[arg(
        long,
        value_name = "HOST:PORT",
        requires = "uids",
        conflicts_with = "bigtable"
    )]
    hbase: Option<String>,
    /// The gateway uses framed transport.
    #[arg(long, requires = "hbase")]
    framed: bool,
    /// The lookup table's Bigtable instance, `project/instance`.
    #[arg(long, value_name = "PROJECT/INSTANCE", requires = "uids")]
    bigtable: Option<String>,
    /// The Bigtable emulator, `host:port`.
    #[arg(long, value_name = "HOST:PORT", requires = "bigtable")]
    emulator: Option<String>,
}

fn main() -> ExitCode {
    let (name, outcome) = match Cli::parse().command {
        Command::Explain(args) => ("explain", explain(args)),
        Command::Schema(args) => ("schema", schema(args).map(|()| true)),
        Command::Diff(args) => ("diff", live::diff(args)),
        Command::Regions(args) => ("regions", live::regions(args).map(|()| true)),
        Command::Check(args) => ("check", live::check(args)),
        Command::Hotspots(args) => ("hotspots", live::hotspots(args).map(|()| true)),
        Command::Sql(args) => ("sql", sql::sql(args).map(|()| true)),
    };
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("rowkey {name}: {e}");
            ExitCode::from(2)
        }
    }
}

/// A declaration read from the files the arguments name: a whole table (`--layout`), or a
/// value layout with an optional key layout beside it.
struct Declared {
    table: String,
    families: Vec<rowkey::family::Family>,
    key: Option<&'static rowkey::Schema>,
    /// The key layout's fingerprint, when the file is a whole table's layout.
    #[cfg_attr(
        not(any(feature = "hbase", feature = "bigtable")),
        allow(dead_code, reason = "only the live subcommands check it")
    )]
    key_fingerprint: Option<u64>,
    /// The layout's split points.
    splits: Vec<Vec<u8>>,
}

fn read(path: &std::path::Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The declaration from `--layout`, or from `--value` (and `--key`); `table` overrides the
/// layout's name.
fn declared(
    layout: Option<&std::path::Path>,
    value: Option<&std::path::Path>,
    type_name: Option<&str>,
    key: Option<&std::path::Path>,
    key_type: Option<&str>,
    table: Option<&str>,
) -> Result<Declared, String> {
    let at = |path: &std::path::Path, e: String| format!("{}: {e}", path.display());
    let key = match key {
        Some(path) => {
            let schemas = rowkey_cli::schemas_from_json(&read(path)?).map_err(|e| at(path, e))?;
            Some(rowkey_cli::pick_schema(
                &schemas,
                key_type,
                &path.display().to_string(),
            )?)
        }
        None => None,
    };
    let declared = match (layout, value) {
        (Some(path), _) => {
            let t = rowkey_cli::table_from_json(&read(path)?, table).map_err(|e| at(path, e))?;
            Declared {
                table: table.map_or(t.table, str::to_string),
                families: t.families,
                key: Some(t.key),
                key_fingerprint: Some(t.key_fingerprint),
                splits: t.splits,
            }
        }
        (None, Some(path)) => {
            let (_, families) =
                rowkey_cli::families_from_json(&read(path)?, type_name).map_err(|e| at(path, e))?;
            Declared {
                table: table.unwrap_or_default().to_string(),
                families,
                key,
                key_fingerprint: None,
                splits: Vec::new(),
            }
        }
        (None, None) => {
            return Err("give the declaration: --layout TABLE.json or --value VALUE.json".into())
        }
    };
    if declared.families.is_empty() {
        return Err(format!(
            "table `{}` declares no column families",
            declared.table
        ));
    }
    Ok(declared)
}

fn schema(args: SchemaArgs) -> Result<(), String> {
    let d = declared(
        args.layout.as_deref(),
        args.value.as_deref(),
        args.type_name.as_deref(),
        args.key.as_deref(),
        args.key_type.as_deref(),
        args.table.as_deref(),
    )?;
    let families = &d.families;
    let workload = args
        .records_per_day
        .map(|records_per_day| rowkey::capacity::Workload {
            records_per_day,
            bytes_per_record: args.bytes_per_record.unwrap_or(0),
            retention_days: families[0].ttl_secs.map(|s| s.div_ceil(86_400)),
            growth_per_year: args.growth,
            horizon_days: args.horizon_days,
            families: families.len(),
            region_servers: args.servers,
            ..rowkey::capacity::Workload::default()
        });
    let plan = workload.as_ref().map(rowkey::capacity::plan);
    // Explicit regions first, then the layout's own split points, then the plan's count.
    let regions = args.regions.or(if d.splits.is_empty() {
        plan.as_ref().map(|p| p.regions)
    } else {
        None
    });
    let splits: Vec<Vec<u8>> = match (d.key, regions) {
        (Some(key), Some(n)) => rowkey::split::split_points(key, n)
            .into_iter()
            .map(|b| b.to_vec())
            .collect(),
        (None, Some(_)) => return Err("--regions needs a key layout (--key or --layout)".into()),
        (_, None) => d.splits,
    };
    let split_refs: Vec<&[u8]> = splits.iter().map(|s| &s[..]).collect();
    print!(
        "{}",
        rowkey_cli::schema_report(&d.table, families, &split_refs)
    );
    if let (Some(w), Some(p)) = (&workload, &plan) {
        println!(
            "
# Capacity plan (day {} from now)
{}",
            w.horizon_days,
            p.to_markdown(w)
        );
    }
    Ok(())
}

/// Explains each key; `Ok(false)` (exit status 1) when a key does not decode as the schema
/// says, after every key is shown.
fn explain(mut args: Explain) -> Result<bool, String> {
    let path = args.schema.display().to_string();
    let json = std::fs::read_to_string(&args.schema).map_err(|e| format!("{path}: {e}"))?;
    let schemas = rowkey_cli::schemas_from_json(&json).map_err(|e| format!("{path}: {e}"))?;
    let schema = rowkey_cli::pick_schema(&schemas, args.type_name.as_deref(), &path)?;
    let mut keys = std::mem::take(&mut args.keys);
    if keys.is_empty() {
        for line in std::io::stdin().lock().lines() {
            let line = line.map_err(|e| e.to_string())?;
            if !line.trim().is_empty() {
                keys.push(line.trim_end_matches(['\r', '\n']).to_string());
            }
        }
    }
    let names = live::uid_names(&args)?;
    let mut refused = 0usize;
    let total = keys.len();
    for k in keys {
        let bytes = if args.hex || k.starts_with("0x") {
            rowkey_cli::from_hex(&k)?
        } else {
            rowkey_cli::from_string_binary(&k)?
        };
        let (text, problem) = match &names {
            Some(names) => {
                rowkey::explain_schema_with_names_checked(schema, &bytes, names.as_ref())
            }
            None => rowkey::explain_schema_checked(schema, &bytes),
        };
        println!("{text}");
        refused += usize::from(problem.is_some());
    }
    if refused > 0 {
        eprintln!(
            "rowkey explain: {refused} of {total} keys are not `{}` keys as written",
            schema.name
        );
    }
    Ok(refused == 0)
}

/// The subcommands that talk to live tables.
mod live {
    #[cfg(any(feature = "hbase", feature = "bigtable", feature = "hbase-rpc"))]
    use super::ANY_FAMILY;
    use super::{
        declared, CheckArgs, Declared, DiffArgs, Explain, HotspotsArgs, KeyLayout, RegionsArgs,
    };

    /// Looks up a `#[uid]` field's name: `(kind, id bytes)` to the name.
    pub type Names = Box<dyn Fn(&str, &[u8]) -> Option<String>>;

    /// The names of the lookup table `--uids` on `--hbase` or `--bigtable`, if one is given.
    pub fn uid_names(args: &Explain) -> Result<Option<Names>, String> {
        let Some(table) = &args.uids else {
            return Ok(None);
        };
        match (&args.hbase, &args.bigtable) {
            (Some(addr), _) => hbase_names(table, addr, args.framed).map(Some),
            (None, Some(place)) => bigtable_names(table, place, args.emulator.as_deref()).map(Some),
            (None, None) => Err("--uids needs the lookup table's store: --hbase HOST:PORT or --bigtable PROJECT/INSTANCE".into()),
        }
    }

    /// A name from a lookup table in `store`; a store failure is said on stderr.
    #[cfg(any(feature = "hbase", feature = "bigtable"))]
    fn names_in<S>(store: S) -> Names
    where
        S: rowkey::store::AtomicStore + 'static,
    {
        Box::new(move |kind, id| {
            let table = rowkey::store::UidTable::new(&store, kind, id.len()).ok()?;
            let number = id.iter().fold(0u64, |n, &b| n << 8 | u64::from(b));
            match table.name(number) {
                Ok(name) => name,
                Err(e) => {
                    eprintln!("rowkey explain: lookup table: {e}");
                    None
                }
            }
        })
    }

    #[cfg(feature = "hbase")]
    fn hbase_names(table: &str, addr: &str, framed: bool) -> Result<Names, String> {
        use rowkey::store::{HbaseConfig, HbaseStore, UID_ID_FAMILY, UID_NAME_FAMILY};
        let config = HbaseConfig::new(addr, table, UID_ID_FAMILY)
            .families([UID_NAME_FAMILY])
            .framed(framed);
        Ok(names_in(
            HbaseStore::with_config(config).map_err(|e| e.to_string())?,
        ))
    }

    #[cfg(not(feature = "hbase"))]
    fn hbase_names(_: &str, _: &str, _: bool) -> Result<Names, String> {
        Err("this build has no HBase support (feature `hbase`)".into())
    }

    /// The Bigtable table `table` at `place` (`PROJECT/INSTANCE`), its values in `family`,
    /// through the emulator at `emulator` when given.
    #[cfg(feature = "bigtable")]
    pub(crate) fn bigtable_config(
        place: &str,
        table: &str,
        family: &str,
        emulator: Option<&str>,
    ) -> Result<rowkey::store::BigtableConfig, String> {
        let (project, instance) = place
            .split_once('/')
            .ok_or_else(|| format!("--bigtable takes PROJECT/INSTANCE, not `{place}`"))?;
        let config = rowkey::store::BigtableConfig::new(project, instance, table, family);
        Ok(match emulator {
            Some(host) => config.emulator(host),
            None => config,
        })
    }

    #[cfg(feature = "bigtable")]
    fn bigtable_names(table: &str, place: &str, emulator: Option<&str>) -> Result<Names, String> {
        use rowkey::store::{BigtableStore, UID_ID_FAMILY, UID_NAME_FAMILY};
        let config =
            bigtable_config(place, table, UID_ID_FAMILY, emulator)?.families([UID_NAME_FAMILY]);
        Ok(names_in(
            BigtableStore::with_config(config).map_err(|e| e.to_string())?,
        ))
    }

    #[cfg(not(feature = "bigtable"))]
    fn bigtable_names(_: &str, _: &str, _: Option<&str>) -> Result<Names, String> {
        Err("this build has no Bigtable support (feature `bigtable`)".into())
    }
    // What only the store-backed subcommands use (features `hbase`, `bigtable`).
    #[cfg(feature = "hbase")]
    use super::Live;
    #[cfg(feature = "hbase")]
    use rowkey::family::{diff as family_diff, FamilyChange};

    /// `true` when the table matches the declaration (after `--apply`, if given).
    pub fn diff(args: DiffArgs) -> Result<bool, String> {
        let d = declared(
            args.layout.as_deref(),
            args.value.as_deref(),
            args.type_name.as_deref(),
            None,
            None,
            args.live.table.as_deref(),
        )?;
        match (&args.live.hbase, &args.live.bigtable) {
            (Some(addr), _) => hbase_diff(&args, addr, &d),
            (None, Some(place)) => bigtable_diff(&args, place, &d),
            (None, None) => Err(
                "say where the table is: --hbase HOST:PORT or --bigtable PROJECT/INSTANCE".into(),
            ),
        }
    }

    /// The split points as the stores take them.
    #[cfg(any(feature = "hbase", feature = "bigtable"))]
    fn splits(d: &Declared) -> Vec<rowkey::bytes::Bytes> {
        d.splits.iter().map(|s| s.clone().into()).collect()
    }

    #[cfg(feature = "hbase")]
    fn hbase_store(
        live: &Live,
        table: &str,
        addr: &str,
        family: &str,
    ) -> Result<rowkey::store::HbaseStore, String> {
        let config = rowkey::store::HbaseConfig::new(addr, table, family).framed(live.framed);
        rowkey::store::HbaseStore::with_config(config).map_err(|e| e.to_string())
    }

    #[cfg(feature = "hbase")]
    fn hbase_diff(args: &DiffArgs, addr: &str, d: &Declared) -> Result<bool, String> {
        let table = &d.table;
        let store = hbase_store(&args.live, table, addr, &d.families[0].name)?;
        if let (Some(fingerprint), Some(key)) = (d.key_fingerprint, d.key) {
            if args.apply {
                // Left as it is when the table exists.
                store
                    .create_table_keyed(&d.families, &splits(d), fingerprint)
                    .map_err(|e| e.to_string())?;
            }
            store
                .check_key_fingerprint(key.name, fingerprint)
                .map_err(|e| e.to_string())?;
        }
        let declared = &d.families;
        let live = store.families().map_err(|e| e.to_string())?;
        let changes = family_diff(declared, &live);
        if changes.is_empty() {
            println!("table {table}: families as declared");
            return Ok(true);
        }
        for c in &changes {
            println!("{c}\n  {}", c.hbase_shell(table));
        }
        if !args.apply {
            return Ok(false);
        }
        for c in &changes {
            if let FamilyChange::Add(f) | FamilyChange::Modify { declared: f, .. } = c {
                store.alter_family(f).map_err(|e| e.to_string())?;
            }
        }
        let after = family_diff(declared, &store.families().map_err(|e| e.to_string())?);
        let undeclared_only = after
            .iter()
            .all(|c| matches!(c, FamilyChange::Undeclared(_)));
        println!(
            "applied; table {table}: {}",
            if after.is_empty() {
                "families as declared".to_string()
            } else {
                format!("{} difference(s) left", after.len())
            }
        );
        Ok(after.is_empty() || undeclared_only)
    }

    #[cfg(not(feature = "hbase"))]
    fn hbase_diff(_: &DiffArgs, _: &str, _: &Declared) -> Result<bool, String> {
        Err("this build has no HBase support (feature `hbase`)".into())
    }

    #[cfg(feature = "bigtable")]
    fn bigtable_diff(args: &DiffArgs, place: &str, d: &Declared) -> Result<bool, String> {
        let table = &d.table;
        let emulator = args.live.emulator.as_deref();
        let config = bigtable_config(place, table, &d.families[0].name, emulator)?;
        let store = rowkey::store::BigtableStore::with_config(config).map_err(|e| e.to_string())?;
        if let (Some(fingerprint), Some(key)) = (d.key_fingerprint, d.key) {
            if args.apply {
                store
                    .create_table_keyed(&d.families, &splits(d), fingerprint)
                    .map_err(|e| e.to_string())?;
            }
            store
                .check_key_fingerprint(key.name, fingerprint)
                .map_err(|e| e.to_string())?;
        }
        let declared = &d.families;
        let live = store.gc_rules().map_err(|e| e.to_string())?;
        let mut differ = Vec::new();
        for f in declared {
            let want = f.gc_rule();
            match live.iter().find(|(n, _)| *n == f.name) {
                Some((_, rule)) if *rule == want => {}
                found => {
                    let now = match found {
                        Some((_, Some(r))) => format!("'{r}'"),
                        Some((_, None)) => "never".into(),
                        None => "missing".into(),
                    };
                    let want = want
                        .as_ref()
                        .map_or("never".to_string(), |r| format!("'{r}'"));
                    println!(
                        "family `{}`: GC rule {now} -> {want}\n  cbt setgcpolicy {table} {} {want}",
                        f.name, f.name,
                    );
                    differ.push(f.clone());
                }
            }
        }
        for (name, _) in &live {
            if !declared.iter().any(|f| f.name == *name) {
                println!("family `{name}` is not declared (kept)");
            }
        }
        if differ.is_empty() {
            println!("table {table}: GC rules as declared");
            return Ok(true);
        }
        if !args.apply {
            return Ok(false);
        }
        for f in &differ {
            store.set_gc_rule(f).map_err(|e| e.to_string())?;
        }
        println!("applied; table {table}: GC rules as declared");
        Ok(true)
    }

    #[cfg(not(feature = "bigtable"))]
    fn bigtable_diff(_: &DiffArgs, _: &str, _: &Declared) -> Result<bool, String> {
        Err("this build has no Bigtable support (feature `bigtable`)".into())
    }

    /// The table and key layout a live subcommand names: a whole table's layout (`--layout`,
    /// its name the default table), or a key layout (`--key`, `--type`) beside `--table`.
    fn table_and_key(
        layout: Option<&std::path::Path>,
        key: Option<&std::path::Path>,
        type_name: Option<&str>,
        table: Option<&str>,
    ) -> Result<(String, Option<&'static rowkey::Schema>), String> {
        if let Some(path) = layout {
            let d = declared(Some(path), None, None, None, None, table)?;
            return Ok((d.table, d.key));
        }
        let key = match key {
            Some(path) => {
                let schemas = rowkey_cli::schemas_from_json(&super::read(path)?)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let file = path.display().to_string();
                Some(rowkey_cli::pick_schema(&schemas, type_name, &file)?)
            }
            None => None,
        };
        Ok((table.unwrap_or_default().to_string(), key))
    }

    /// A live table's regions (HBase) or sampled tablet boundaries (Bigtable), keys explained.
    pub fn regions(args: RegionsArgs) -> Result<(), String> {
        let (table, schema) = table_and_key(
            args.layout.as_deref(),
            args.key.as_deref(),
            args.type_name.as_deref(),
            args.live.table.as_deref(),
        )?;
        match (&args.live.hbase, &args.live.bigtable) {
            (Some(addr), _) => hbase_regions(&args, addr, &table, schema),
            (None, Some(place)) => bigtable_samples(&args, place, &table, schema),
            (None, None) => Err(
                "say where the table is: --hbase HOST:PORT or --bigtable PROJECT/INSTANCE".into(),
            ),
        }
    }

    /// The table (`--table`, or the layout's name) and the key layout it is read with.
    pub(crate) fn table_and_required_key(
        key: &KeyLayout,
        table: Option<&str>,
    ) -> Result<(String, &'static rowkey::Schema), String> {
        let (table, schema) = table_and_key(
            key.layout.as_deref(),
            key.key.as_deref(),
            key.type_name.as_deref(),
            table,
        )?;
        let schema = schema.ok_or("the layout holds no key layout: give --key KEY.json")?;
        if table.is_empty() {
            return Err("say which table: --table NAME".into());
        }
        Ok((table, schema))
    }

    /// `rowkey hotspots`.
    pub fn hotspots(args: HotspotsArgs) -> Result<(), String> {
        let (table, schema) = table_and_required_key(&args.key, args.table.as_deref())?;
        if !(args.interval > 0.0 && args.interval.is_finite()) {
            return Err(format!(
                "--interval {}: give a number of seconds above 0",
                args.interval
            ));
        }
        hbase_hotspots(&args, &table, schema)
    }

    #[cfg(feature = "hbase-rpc")]
    fn hbase_hotspots(
        args: &HotspotsArgs,
        table: &str,
        schema: &'static rowkey::Schema,
    ) -> Result<(), String> {
        use rowkey::hotspot::HotspotReport;
        let config = rpc_config(
            args.master.as_deref(),
            args.zk.as_deref(),
            args.site.as_deref(),
            table,
            ANY_FAMILY,
        )?;
        let store = rowkey::store::HbaseRpcStore::with_config(config).map_err(|e| e.to_string())?;
        let before = store.region_loads().map_err(|e| e.to_string())?;
        let since = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let started = std::time::Instant::now();
        eprintln!(
            "sampling {} region(s) of {table} for {} s...",
            before.len(),
            args.interval
        );
        waiting(std::time::Duration::from_secs_f64(args.interval))?;
        let after = store.region_loads().map_err(|e| e.to_string())?;
        let mut report = HotspotReport::between(schema, &before, &after, started.elapsed());
        if let (Some(n), Some(hot)) = (args.sample, report.hottest()) {
            let r = &report.regions[hot];
            let range = rowkey::KeyRange::new(&r.start, (!r.end.is_empty()).then_some(&r.end[..]));
            let reading = indicatif::ProgressBar::new_spinner().with_message(format!(
                "reading up to {n} keys written to region {hot} during the interval"
            ));
            reading.enable_steady_tick(std::time::Duration::from_millis(200));
            let keys = store.scan_keys_since(&range, since, n);
            reading.finish_and_clear();
            let keys = keys.map_err(|e| e.to_string())?;
            report.sample(schema, hot, keys.iter().map(|k| &k[..]));
        }
        if args.json {
            println!("{}", rowkey_cli::hotspots_json(&report));
        } else {
            print!("{report}");
        }
        Ok(())
    }

    /// The native client's configuration for `table` (its values in `family`), from the first
    /// of a master's (or region server's) address, a ZooKeeper quorum and an `hbase-site.xml`.
    #[cfg(feature = "hbase-rpc")]
    pub(crate) fn rpc_config(
        master: Option<&str>,
        zk: Option<&str>,
        site: Option<&std::path::Path>,
        table: &str,
        family: &str,
    ) -> Result<rowkey::store::HbaseRpcConfig, String> {
        use rowkey::store::{HbaseRpcConfig, HbaseSite};
        match (master, zk, site) {
            (Some(master), _, _) => Ok(HbaseRpcConfig::new(master, table, family)),
            (None, Some(quorum), _) => Ok(HbaseRpcConfig::from_zookeeper(quorum, table, family)),
            (None, None, Some(site)) => HbaseSite::load(site)
                .and_then(|s| s.rpc_config(table, family))
                .map_err(|e| e.to_string()),
            (None, None, None) => Err(
                "say where the cluster is: --master HOST:PORT, --zk QUORUM or --site hbase-site.xml"
                    .into(),
            ),
        }
    }

    /// Waits `interval` between the two samples, with a bar of the time gone and left on a
    /// terminal (nothing is drawn when standard error is not one).
    #[cfg(feature = "hbase-rpc")]
    fn waiting(interval: std::time::Duration) -> Result<(), String> {
        let tenths = (interval.as_millis() / 100).max(1) as u64;
        let bar = indicatif::ProgressBar::new(tenths).with_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {elapsed} of the interval, {eta} left",
            )
            .map_err(|e| e.to_string())?,
        );
        let started = std::time::Instant::now();
        while let Some(left) = interval.checked_sub(started.elapsed()) {
            std::thread::sleep(left.min(std::time::Duration::from_millis(100)));
            bar.set_position((started.elapsed().as_millis() / 100) as u64);
        }
        bar.finish_and_clear();
        Ok(())
    }

    #[cfg(not(feature = "hbase-rpc"))]
    fn hbase_hotspots(_: &HotspotsArgs, _: &str, _: &'static rowkey::Schema) -> Result<(), String> {
        Err("this rowkey was built without HBase's native client: install it with `--features hbase-rpc`".into())
    }

    /// `rowkey check`: `true` when every key of the sample fits the layout.
    pub fn check(args: CheckArgs) -> Result<bool, String> {
        let (table, schema) = table_and_required_key(&args.key, args.live.table.as_deref())?;
        match (&args.live.hbase, &args.live.bigtable) {
            (Some(addr), _) => hbase_check(&args, addr, &table, schema),
            (None, Some(place)) => bigtable_check(&args, place, &table, schema),
            (None, None) => Err(
                "say where the table is: --hbase HOST:PORT or --bigtable PROJECT/INSTANCE".into(),
            ),
        }
    }

    #[cfg(feature = "hbase")]
    fn hbase_check(
        args: &CheckArgs,
        addr: &str,
        table: &str,
        schema: &'static rowkey::Schema,
    ) -> Result<bool, String> {
        let mut config =
            rowkey::store::HbaseConfig::new(addr, table, ANY_FAMILY).framed(args.live.framed);
        config.options.check_schema = false; // the table's own families, whatever they are
        let store = rowkey::store::HbaseStore::with_config(config).map_err(|e| e.to_string())?;
        let check = checked(args.sample, |progress| {
            rowkey::store::check_schema_with_progress(&store, schema, args.sample, progress)
        })?;
        print!("table {table}: {check}");
        Ok(check.fits())
    }

    #[cfg(not(feature = "hbase"))]
    fn hbase_check(
        _: &CheckArgs,
        _: &str,
        _: &str,
        _: &'static rowkey::Schema,
    ) -> Result<bool, String> {
        Err("this build has no HBase support (feature `hbase`)".into())
    }

    #[cfg(feature = "bigtable")]
    fn bigtable_check(
        args: &CheckArgs,
        place: &str,
        table: &str,
        schema: &'static rowkey::Schema,
    ) -> Result<bool, String> {
        let mut config = bigtable_config(place, table, ANY_FAMILY, args.live.emulator.as_deref())?;
        config.options.check_schema = false; // the table's own families, whatever they are
        let store = rowkey::store::BigtableStore::with_config(config).map_err(|e| e.to_string())?;
        let check = checked(args.sample, |progress| {
            rowkey::store::check_schema_with_progress(&store, schema, args.sample, progress)
        })?;
        print!("table {table}: {check}");
        Ok(check.fits())
    }

    #[cfg(not(feature = "bigtable"))]
    fn bigtable_check(
        _: &CheckArgs,
        _: &str,
        _: &str,
        _: &'static rowkey::Schema,
    ) -> Result<bool, String> {
        Err("this build has no Bigtable support (feature `bigtable`)".into())
    }

    /// Runs a declaration check with a progress bar (keys read, rate, time left) on a terminal;
    /// nothing is drawn when standard error is not one.
    #[cfg(any(feature = "hbase", feature = "bigtable"))]
    fn checked<E: std::fmt::Display>(
        sample: usize,
        run: impl FnOnce(&mut dyn FnMut(usize)) -> Result<rowkey::LayoutCheck, E>,
    ) -> Result<rowkey::LayoutCheck, String> {
        let bar = indicatif::ProgressBar::new(sample as u64).with_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} keys, {per_sec}, {eta} left",
            )
            .map_err(|e| e.to_string())?,
        );
        let result = run(&mut |n| bar.set_position(n as u64));
        bar.finish_and_clear();
        result.map_err(|e| e.to_string())
    }

    /// A boundary key as printed, and explained under it when a layout is given.
    #[cfg(any(feature = "hbase", feature = "bigtable"))]
    fn show_key(k: &[u8], empty: &str) -> String {
        if k.is_empty() {
            empty.to_string()
        } else {
            rowkey::fmt::binary(k)
        }
    }

    #[cfg(any(feature = "hbase", feature = "bigtable"))]
    fn explain_under(schema: Option<&'static rowkey::Schema>, key: &[u8]) {
        if let (Some(schema), false) = (schema, key.is_empty()) {
            for line in rowkey::explain_schema(schema, key).lines() {
                println!("        {line}");
            }
        }
    }

    #[cfg(feature = "hbase")]
    fn hbase_regions(
        args: &RegionsArgs,
        addr: &str,
        table: &str,
        schema: Option<&'static rowkey::Schema>,
    ) -> Result<(), String> {
        let store = hbase_store(&args.live, table, addr, "d")?;
        let regions = store.regions().map_err(|e| e.to_string())?;
        println!("table {table}: {} region(s)", regions.len());
        let counts = if args.count {
            Some(count(&store, &regions)?)
        } else {
            None
        };
        for (i, r) in regions.iter().enumerate() {
            if let Some(counts) = &counts {
                println!("{i:>4}  {} row(s)", counts[i]);
            }
            println!(
                "{i:>4}  {} .. {}  on {}",
                show_key(&r.start, "(start)"),
                show_key(&r.end, "(end)"),
                r.server
            );
            explain_under(schema, &r.start);
        }
        Ok(())
    }

    #[cfg(not(feature = "hbase"))]
    fn hbase_regions(
        _: &RegionsArgs,
        _: &str,
        _: &str,
        _: Option<&'static rowkey::Schema>,
    ) -> Result<(), String> {
        Err("this build has no HBase support (feature `hbase`)".into())
    }

    /// Bigtable does not list its tablets to clients; `SampleRowKeys` gives keys near their
    /// boundaries with the bytes before each, which is what its own clients split work by.
    #[cfg(feature = "bigtable")]
    fn bigtable_samples(
        args: &RegionsArgs,
        place: &str,
        table: &str,
        schema: Option<&'static rowkey::Schema>,
    ) -> Result<(), String> {
        if args.count {
            return Err(
                "--count reads HBase tables; Bigtable's samples give bytes, not rows".into(),
            );
        }
        let mut config = bigtable_config(place, table, "d", args.live.emulator.as_deref())?;
        config.options.check_schema = false; // any family will do: nothing is read
        let store = rowkey::store::BigtableStore::with_config(config).map_err(|e| e.to_string())?;
        let samples = store.sample_row_keys().map_err(|e| e.to_string())?;
        println!(
            "table {table}: {} piece(s) from SampleRowKeys (approximate tablet boundaries)",
            samples.len()
        );
        let mut start: &[u8] = &[];
        let mut before = 0u64;
        for (i, (end, offset)) in samples.iter().enumerate() {
            println!(
                "{i:>4}  {} .. {}  {}",
                show_key(start, "(start)"),
                show_key(end, "(end)"),
                rowkey::human_bytes(offset.saturating_sub(before))
            );
            explain_under(schema, start);
            start = end;
            before = *offset;
        }
        Ok(())
    }

    #[cfg(not(feature = "bigtable"))]
    fn bigtable_samples(
        _: &RegionsArgs,
        _: &str,
        _: &str,
        _: Option<&'static rowkey::Schema>,
    ) -> Result<(), String> {
        Err("this build has no Bigtable support (feature `bigtable`)".into())
    }

    /// Each region's rows, counted, with a progress bar (regions done, rows so far) on a
    /// terminal.
    #[cfg(feature = "hbase")]
    fn count(
        store: &rowkey::store::HbaseStore,
        regions: &[rowkey::store::Region],
    ) -> Result<Vec<u64>, String> {
        let bar = indicatif::ProgressBar::new(regions.len() as u64).with_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {pos}/{len} regions, {msg} rows, {elapsed}",
            )
            .map_err(|e| e.to_string())?,
        );
        let mut counts = Vec::with_capacity(regions.len());
        let mut before = 0u64;
        for r in regions {
            let range = rowkey::KeyRange::new(&r.start, (!r.end.is_empty()).then_some(&r.end[..]));
            let shown = bar.clone();
            let n = store
                .count_rows(&range, move |n| shown.set_message((before + n).to_string()))
                .map_err(|e| e.to_string())?;
            before += n;
            counts.push(n);
            bar.inc(1);
        }
        bar.finish_and_clear();
        Ok(counts)
    }
}
