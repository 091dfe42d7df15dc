//! `rowkey-explain`: reads row keys in the field, without the code that wrote them.
//!
//! ```text
//! rowkey-explain --schema layouts.json [--type Event] [--hex] [KEY ...]
//! ```
//!
//! The schema is the JSON rowkey exports (`serde_json::to_string(K::SCHEMA)`; `cargo run
//! --example layouts` writes every example's). Keys come from the arguments, or one per line on
//! standard input, as HBase's `Bytes.toStringBinary` prints them (`\x04\x00...`: the HBase
//! shell, region names) or, with `--hex` or a `0x` prefix, in hex (Bigtable's hot-tablets
//! listing). Each key is explained field by field, as the key type's own `explain` would.

use std::io::BufRead;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rowkey-explain: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let (mut schema_path, mut type_name, mut hex, mut keys) = (None, None, false, Vec::new());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--schema" => schema_path = args.next(),
            "--type" => type_name = args.next(),
            "--hex" => hex = true,
            "-h" | "--help" => {
                println!("usage: rowkey-explain --schema SCHEMA.json [--type NAME] [--hex] [KEY ...]\n\nKEY: as HBase's toStringBinary prints it (\\x04\\x00...), or hex with --hex or a 0x prefix;\nwithout KEYs, one per line on standard input.");
                return Ok(());
            }
            _ => keys.push(a),
        }
    }
    let path = schema_path.ok_or("--schema SCHEMA.json is required")?;
    let json = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let schemas = rowkey_cli::schemas_from_json(&json).map_err(|e| format!("{path}: {e}"))?;
    let schema = match (&type_name, schemas.as_slice()) {
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
    if keys.is_empty() {
        for line in std::io::stdin().lock().lines() {
            let line = line.map_err(|e| e.to_string())?;
            if !line.trim().is_empty() {
                keys.push(line.trim_end_matches(['\r', '\n']).to_string());
            }
        }
    }
    for k in keys {
        let bytes = if hex || k.starts_with("0x") {
            rowkey_cli::from_hex(&k)?
        } else {
            rowkey_cli::from_string_binary(&k)?
        };
        println!("{}", rowkey::explain_schema(schema, &bytes));
    }
    Ok(())
}
