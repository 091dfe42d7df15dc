//! Apache Phoenix on the local HBase, from Rust: starting `hbase-local/run --phoenix` and
//! speaking its SQL line server (`PhoenixSql.java`), which runs each statement through
//! Phoenix's own JDBC driver. For the Phoenix interop tests; included by path
//! (`#[path = "../hbase-local/phoenix_sql.rs"]`) after `gateways.rs`.
#![allow(dead_code)] // each includer uses part of it

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

use super::gateways::{free_port, start_hbase_local};

/// A local HBase with Phoenix: its Thrift2 gateway (for rowkey's store), ZooKeeper (for the
/// Java tools) and the SQL line server.
pub struct Phoenix {
    /// The Thrift2 gateway, `host:port`.
    pub thrift: String,
    /// ZooKeeper, `host:port`.
    pub zk: String,
    /// The SQL line server, `host:port`.
    pub sql: String,
    /// Phoenix's JDBC URL for this cluster.
    pub jdbc: String,
    /// The active master, `host:port` (for rowkey's native store).
    pub master: Option<String>,
    /// The control port, `host:port` (flushes, compactions, region moves).
    pub control: Option<String>,
    // Stops the cluster when dropped (its stdin closes); `None` for one found in the
    // environment.
    _child: Option<std::process::Child>,
}

impl Phoenix {
    /// `ROWKEY_PHOENIX_READY` (the READY line of a running `hbase-local/run --phoenix`, or a
    /// file holding it) when set; otherwise a local HBase with Phoenix started here (two
    /// region servers; the first run downloads Phoenix's jars). `None` if it cannot start.
    pub fn from_env_or_start() -> Option<Phoenix> {
        if let Ok(ready) = std::env::var("ROWKEY_PHOENIX_READY") {
            let line = std::fs::read_to_string(&ready).unwrap_or(ready);
            return Self::from_ready(line.trim(), None);
        }
        let port = free_port();
        let (child, ready) = start_hbase_local(&[
            "--phoenix".into(),
            "--port".into(),
            port.to_string(),
            "--region-servers".into(),
            "2".into(),
        ])?;
        Self::from_ready(&ready, Some(child))
    }

    fn from_ready(ready: &str, child: Option<std::process::Child>) -> Option<Phoenix> {
        let field = |name: &str| {
            ready
                .split_whitespace()
                .find_map(|w| w.strip_prefix(name))
                .map(str::to_string)
        };
        // Which versions answered, in the test's output (hbase-local/matrix keeps it).
        eprintln!(
            "Phoenix {} on HBase {}",
            field("phoenix_version=").unwrap_or_else(|| "(version not said)".into()),
            field("hbase_version=").unwrap_or_else(|| "(version not said)".into())
        );
        Some(Phoenix {
            thrift: format!("127.0.0.1:{}", field("thrift=")?),
            zk: field("zk=")?,
            sql: format!("127.0.0.1:{}", field("phoenix_sql=")?),
            jdbc: field("phoenix_jdbc=")?,
            master: field("master="),
            control: field("control=").map(|port| format!("127.0.0.1:{port}")),
            _child: child,
        })
    }

    /// A new SQL session (its own JDBC connection, auto-commit on).
    pub fn session(&self) -> Sql {
        Sql::connect(&self.sql).expect("the SQL line server answers")
    }
}

/// A value as the line server writes and reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    /// TINYINT to BIGINT, and their UNSIGNED forms.
    Int(i64),
    /// FLOAT and DOUBLE.
    Float(f64),
    /// DECIMAL, as `BigDecimal.toPlainString`.
    Decimal(String),
    /// VARCHAR and CHAR.
    Text(String),
    /// BINARY and VARBINARY.
    Bytes(Vec<u8>),
    Bool(bool),
    /// TIMESTAMP: milliseconds since the epoch and the nanoseconds within the second.
    Timestamp {
        millis: i64,
        nanos: u32,
    },
    /// DATE and TIME: milliseconds since the epoch.
    Date(i64),
}

impl Value {
    fn param(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Int(v) => format!("i:{v}"),
            Value::Float(v) => format!("f:{v:?}"),
            Value::Decimal(v) => format!("n:{v}"),
            Value::Text(v) => format!("s:{}", hex(v.as_bytes())),
            Value::Bytes(v) => format!("b:{}", hex(v)),
            Value::Bool(v) => format!("z:{v}"),
            Value::Timestamp { millis, nanos } => format!("t:{millis}:{nanos}"),
            Value::Date(v) => format!("d:{v}"),
        }
    }

    fn parse(text: &str) -> Result<Value, String> {
        if text == "null" {
            return Ok(Value::Null);
        }
        let bad = || format!("a value the line server should not write: {text:?}");
        let (kind, v) = text.split_once(':').ok_or_else(bad)?;
        Ok(match kind {
            "i" => Value::Int(v.parse().map_err(|_| bad())?),
            "f" => Value::Float(v.parse().map_err(|_| bad())?),
            "n" => Value::Decimal(v.to_string()),
            "s" => Value::Text(String::from_utf8(unhex(v).ok_or_else(bad)?).map_err(|_| bad())?),
            "b" => Value::Bytes(unhex(v).ok_or_else(bad)?),
            "z" => Value::Bool(v == "true"),
            "t" => {
                let (m, n) = v.split_once(':').ok_or_else(bad)?;
                Value::Timestamp {
                    millis: m.parse().map_err(|_| bad())?,
                    nanos: n.parse().map_err(|_| bad())?,
                }
            }
            "d" => Value::Date(v.parse().map_err(|_| bad())?),
            _ => return Err(bad()),
        })
    }
}

/// What a statement returned.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// A query's column labels and rows.
    Rows {
        columns: Vec<String>,
        rows: Vec<Vec<Value>>,
    },
    /// An update's count.
    Updated(u64),
}

/// One session of the SQL line server.
pub struct Sql {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Sql {
    /// Connects to the line server at `addr`.
    pub fn connect(addr: &str) -> std::io::Result<Sql> {
        let writer = TcpStream::connect(addr)?;
        // DDL on a fresh cluster can take a while (a salted table's regions are created).
        writer.set_read_timeout(Some(Duration::from_secs(300)))?;
        Ok(Sql {
            reader: BufReader::new(writer.try_clone()?),
            writer,
        })
    }

    /// Runs one statement (on one line: newlines become spaces) with `params` bound to its
    /// `?`s; a statement Phoenix refuses is `Err` with Phoenix's message.
    pub fn run(&mut self, sql: &str, params: &[Value]) -> Result<Reply, String> {
        let mut line = sql.replace(['\n', '\r', '\t'], " ");
        for p in params {
            line.push('\t');
            line.push_str(&p.param());
        }
        line.push('\n');
        self.writer
            .write_all(line.as_bytes())
            .map_err(|e| format!("sending to the line server: {e}"))?;
        let mut columns = None;
        let mut rows = Vec::new();
        loop {
            let mut reply = String::new();
            match self.reader.read_line(&mut reply) {
                Ok(0) => return Err("the line server closed the connection".into()),
                Ok(_) => {}
                Err(e) => return Err(format!("reading from the line server: {e}")),
            }
            let mut parts = reply.trim_end_matches('\n').split('\t');
            match parts.next() {
                Some("ERROR") => return Err(parts.collect::<Vec<_>>().join(" ")),
                Some("UPDATED") => {
                    let n = parts.next().and_then(|n| n.parse().ok()).unwrap_or(0);
                    return Ok(Reply::Updated(n));
                }
                Some("COLS") => columns = Some(parts.map(str::to_string).collect()),
                Some("ROW") => rows.push(parts.map(Value::parse).collect::<Result<_, _>>()?),
                Some("END") => {
                    return Ok(Reply::Rows {
                        columns: columns.unwrap_or_default(),
                        rows,
                    })
                }
                _ => return Err(format!("an unexpected line: {reply:?}")),
            }
        }
    }

    /// Runs a query; its rows.
    pub fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Vec<Value>>, String> {
        match self.run(sql, params)? {
            Reply::Rows { rows, .. } => Ok(rows),
            Reply::Updated(_) => Err(format!("not a query: {sql}")),
        }
    }

    /// Runs an update (DDL, UPSERT, DELETE); its count.
    pub fn update(&mut self, sql: &str, params: &[Value]) -> Result<u64, String> {
        match self.run(sql, params)? {
            Reply::Updated(n) => Ok(n),
            Reply::Rows { .. } => Err(format!("not an update: {sql}")),
        }
    }

    /// The plan Phoenix's `EXPLAIN` gives for `sql`, one step a line.
    pub fn explain(&mut self, sql: &str, params: &[Value]) -> Result<String, String> {
        let rows = self.query(&format!("EXPLAIN {sql}"), params)?;
        let steps: Vec<String> = rows
            .into_iter()
            .filter_map(|r| match r.into_iter().next() {
                Some(Value::Text(step)) => Some(step),
                _ => None,
            })
            .collect();
        Ok(steps.join("\n"))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}
