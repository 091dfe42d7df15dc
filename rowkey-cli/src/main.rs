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
//! listing). Each key is explained field by field, as the key type's own `explain` would.
//!
//! `schema` renders a table's declaration for operators: the HBase shell's `create` (every
//! family option, the split points), the Bigtable commands, and a capacity plan:
//!
//! ```text
//! rowkey schema --value value.json --table logs [--key key.json --regions N]
//!               [--records-per-day N --bytes-per-record B --growth 0.5 --servers 10]
//! ```
//!
//! `diff` compares a live table's families with the declaration (HBase through its Thrift2
//! gateway, or Bigtable and its emulator), prints each difference with the command that fixes
//! it, and applies them with `--apply`; it exits 0 when the table matches, 1 when it differs.
//! `regions` lists a live HBase table's regions with their keys, explained with `--key`:
//!
//! ```text
//! rowkey diff --value value.json --table logs (--hbase HOST:PORT | --bigtable PROJECT/INSTANCE
//!             [--emulator HOST:PORT]) [--apply]
//! rowkey regions --table logs --hbase HOST:PORT [--key key.json]
//! ```
//!
//! Arguments are parsed by clap (derive): help, versions, errors and exit codes as users of
//! Rust tools expect them, and room for the subcommands the next capabilities add.

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

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
    /// Lists a live HBase table's regions, their keys explained with `--key`.
    Regions(RegionsArgs),
}

/// Where a live table is.
#[derive(Args)]
struct Live {
    /// The table's name.
    #[arg(long)]
    table: String,
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
    /// The value layout (`V::SCHEMA` as JSON, with its `family_options`).
    #[arg(long, value_name = "VALUE.json")]
    value: PathBuf,
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
    /// The key layout (`K::SCHEMA` as JSON): each region's start key is explained.
    #[arg(long, value_name = "KEY.json")]
    key: Option<PathBuf>,
    /// Count each region's rows: reads every row key of the table (long on a large one; a
    /// progress bar on a terminal).
    #[arg(long)]
    count: bool,
}

#[derive(Args)]
struct SchemaArgs {
    /// The value layout (`V::SCHEMA` as JSON, with its `family_options`).
    #[arg(long, value_name = "VALUE.json")]
    value: PathBuf,
    /// Which value layout of the file, by its type's name (needed when it holds several).
    #[arg(long = "type", value_name = "NAME")]
    type_name: Option<String>,
    /// The table's name.
    #[arg(long)]
    table: String,
    /// The key layout (`K::SCHEMA` as JSON), for split points.
    #[arg(long, value_name = "KEY.json")]
    key: Option<PathBuf>,
    /// Pre-split into this many regions (from the key layout); without it, the capacity plan's
    /// count when it is asked for.
    #[arg(long, requires = "key")]
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
}

fn main() -> ExitCode {
    let (name, outcome) = match Cli::parse().command {
        Command::Explain(args) => ("explain", explain(args).map(|()| true)),
        Command::Schema(args) => ("schema", schema(args).map(|()| true)),
        Command::Diff(args) => ("diff", live::diff(args)),
        Command::Regions(args) => ("regions", live::regions(args).map(|()| true)),
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

fn schema(args: SchemaArgs) -> Result<(), String> {
    let path = args.value.display().to_string();
    let json = std::fs::read_to_string(&args.value).map_err(|e| format!("{path}: {e}"))?;
    let (name, families) = rowkey_cli::families_from_json(&json, args.type_name.as_deref())
        .map_err(|e| format!("{path}: {e}"))?;
    if families.is_empty() {
        return Err(format!("{path}: `{name}` has no column families"));
    }
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
    let regions = args.regions.or(plan.as_ref().map(|p| p.regions));
    let splits = match (&args.key, regions) {
        (Some(key), Some(n)) => {
            let kpath = key.display().to_string();
            let kjson = std::fs::read_to_string(key).map_err(|e| format!("{kpath}: {e}"))?;
            let schemas =
                rowkey_cli::schemas_from_json(&kjson).map_err(|e| format!("{kpath}: {e}"))?;
            let [schema] = schemas.as_slice() else {
                return Err(format!("{kpath}: expected one key layout"));
            };
            rowkey::split::split_points(schema, n)
        }
        _ => Vec::new(),
    };
    let split_refs: Vec<&[u8]> = splits.iter().map(|s| &s[..]).collect();
    print!(
        "{}",
        rowkey_cli::schema_report(&args.table, &families, &split_refs)
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

fn explain(args: Explain) -> Result<(), String> {
    let path = args.schema.display().to_string();
    let json = std::fs::read_to_string(&args.schema).map_err(|e| format!("{path}: {e}"))?;
    let schemas = rowkey_cli::schemas_from_json(&json).map_err(|e| format!("{path}: {e}"))?;
    let schema = match (&args.type_name, schemas.as_slice()) {
        (None, [one]) => *one,
        (None, many) => {
            let names: Vec<&str> = many.iter().map(|s| s.name).collect();
            return Err(format!(
                "{path} holds several schemas; choose one with --type ({})",
                names.join(", ")
            ));
        }
        (Some(name), all) => *all
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| format!("{path} has no schema `{name}`"))?,
    };
    let mut keys = args.keys;
    if keys.is_empty() {
        for line in std::io::stdin().lock().lines() {
            let line = line.map_err(|e| e.to_string())?;
            if !line.trim().is_empty() {
                keys.push(line.trim_end_matches(['\r', '\n']).to_string());
            }
        }
    }
    for k in keys {
        let bytes = if args.hex || k.starts_with("0x") {
            rowkey_cli::from_hex(&k)?
        } else {
            rowkey_cli::from_string_binary(&k)?
        };
        println!("{}", rowkey::explain_schema(schema, &bytes));
    }
    Ok(())
}

/// The subcommands that talk to live tables.
mod live {
    use super::{DiffArgs, RegionsArgs};
    use rowkey::family::Family;
    // What only the store-backed subcommands use (features `hbase`, `bigtable`).
    #[cfg(feature = "hbase")]
    use super::Live;
    #[cfg(feature = "hbase")]
    use rowkey::family::{diff as family_diff, FamilyChange};

    fn read(path: &std::path::Path) -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// `true` when the table matches the declaration (after `--apply`, if given).
    pub fn diff(args: DiffArgs) -> Result<bool, String> {
        let json = read(&args.value)?;
        let (_, declared) = rowkey_cli::families_from_json(&json, args.type_name.as_deref())
            .map_err(|e| format!("{}: {e}", args.value.display()))?;
        let Some(first) = declared.first() else {
            return Err("the value layout has no column families".into());
        };
        match (&args.live.hbase, &args.live.bigtable) {
            (Some(addr), _) => hbase_diff(&args, addr, first, &declared),
            (None, Some(place)) => bigtable_diff(&args, place, first, &declared),
            (None, None) => Err(
                "say where the table is: --hbase HOST:PORT or --bigtable PROJECT/INSTANCE".into(),
            ),
        }
    }

    #[cfg(feature = "hbase")]
    fn hbase_store(
        live: &Live,
        addr: &str,
        family: &str,
    ) -> Result<rowkey::store::HbaseStore, String> {
        let config = rowkey::store::HbaseConfig::new(addr, &live.table, family).framed(live.framed);
        rowkey::store::HbaseStore::with_config(config).map_err(|e| e.to_string())
    }

    #[cfg(feature = "hbase")]
    fn hbase_diff(
        args: &DiffArgs,
        addr: &str,
        first: &Family,
        declared: &[Family],
    ) -> Result<bool, String> {
        let store = hbase_store(&args.live, addr, &first.name)?;
        let live = store.families().map_err(|e| e.to_string())?;
        let changes = family_diff(declared, &live);
        if changes.is_empty() {
            println!("table {}: families as declared", args.live.table);
            return Ok(true);
        }
        for c in &changes {
            println!("{c}\n  {}", c.hbase_shell(&args.live.table));
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
            "applied; table {}: {}",
            args.live.table,
            if after.is_empty() {
                "families as declared".to_string()
            } else {
                format!("{} difference(s) left", after.len())
            }
        );
        Ok(after.is_empty() || undeclared_only)
    }

    #[cfg(not(feature = "hbase"))]
    fn hbase_diff(_: &DiffArgs, _: &str, _: &Family, _: &[Family]) -> Result<bool, String> {
        Err("this build has no HBase support (feature `hbase`)".into())
    }

    #[cfg(feature = "bigtable")]
    fn bigtable_diff(
        args: &DiffArgs,
        place: &str,
        first: &Family,
        declared: &[Family],
    ) -> Result<bool, String> {
        let (project, instance) = place
            .split_once('/')
            .ok_or_else(|| format!("--bigtable takes PROJECT/INSTANCE, not `{place}`"))?;
        let mut config =
            rowkey::store::BigtableConfig::new(project, instance, &args.live.table, &first.name);
        if let Some(host) = &args.live.emulator {
            config = config.emulator(host);
        }
        let store = rowkey::store::BigtableStore::with_config(config).map_err(|e| e.to_string())?;
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
                    println!(
                        "family `{}`: GC rule {now} -> {}\n  cbt setgcpolicy {} {} {}",
                        f.name,
                        want.as_ref()
                            .map_or("never".to_string(), |r| format!("'{r}'")),
                        args.live.table,
                        f.name,
                        want.as_ref()
                            .map_or("never".to_string(), |r| format!("'{r}'")),
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
            println!("table {}: GC rules as declared", args.live.table);
            return Ok(true);
        }
        if !args.apply {
            return Ok(false);
        }
        for f in &differ {
            store.set_gc_rule(f).map_err(|e| e.to_string())?;
        }
        println!("applied; table {}: GC rules as declared", args.live.table);
        Ok(true)
    }

    #[cfg(not(feature = "bigtable"))]
    fn bigtable_diff(_: &DiffArgs, _: &str, _: &Family, _: &[Family]) -> Result<bool, String> {
        Err("this build has no Bigtable support (feature `bigtable`)".into())
    }

    #[cfg(feature = "hbase")]
    pub fn regions(args: RegionsArgs) -> Result<(), String> {
        let Some(addr) = &args.live.hbase else {
            return Err("regions reads HBase tables (--hbase HOST:PORT); Bigtable does not list its tablets to clients".into());
        };
        let schema = match &args.key {
            Some(path) => {
                let json = read(path)?;
                let schemas = rowkey_cli::schemas_from_json(&json)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                match schemas.as_slice() {
                    [one] => Some(*one),
                    _ => return Err(format!("{}: expected one key layout", path.display())),
                }
            }
            None => None,
        };
        let store = hbase_store(&args.live, addr, "d")?;
        let regions = store.regions().map_err(|e| e.to_string())?;
        println!("table {}: {} region(s)", args.live.table, regions.len());
        let counts = if args.count {
            Some(count(&store, &regions)?)
        } else {
            None
        };
        for (i, r) in regions.iter().enumerate() {
            if let Some(counts) = &counts {
                println!("{i:>4}  {} row(s)", counts[i]);
            }
            let show = |k: &[u8], empty: &str| {
                if k.is_empty() {
                    empty.to_string()
                } else {
                    rowkey::fmt::binary(k)
                }
            };
            println!(
                "{i:>4}  {} .. {}  on {}",
                show(&r.start, "(start)"),
                show(&r.end, "(end)"),
                r.server
            );
            if let (Some(schema), false) = (schema, r.start.is_empty()) {
                for line in rowkey::explain_schema(schema, &r.start).lines() {
                    println!("        {line}");
                }
            }
        }
        Ok(())
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

    #[cfg(not(feature = "hbase"))]
    pub fn regions(_: RegionsArgs) -> Result<(), String> {
        Err("this build has no HBase support (feature `hbase`)".into())
    }
}
