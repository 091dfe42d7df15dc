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
    let Command::Explain(args) = Cli::parse().command;
    match explain(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rowkey explain: {e}");
            ExitCode::from(2)
        }
    }
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
