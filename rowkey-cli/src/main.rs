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
        Command::Explain(args) => ("explain", explain(args)),
        Command::Schema(args) => ("schema", schema(args)),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
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
