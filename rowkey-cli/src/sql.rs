//! `rowkey sql`: SQL over a table's keys from its key layout as data (a JSON export), on a
//! local fjall database, HBase (Thrift2) or Bigtable: an operator's `sqlline` for every store
//! rowkey speaks, through `rowkey_datafusion::SchemaTable`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::{KeyLayout, Live};

/// `rowkey sql`'s arguments.
#[derive(Args)]
pub struct SqlArgs {
    /// The statement, naming the table as `--table` (or the layout) names it: double-quote a
    /// name with `:` or `-` (`SELECT * FROM "ns:events"`).
    pub sql: String,
    #[command(flatten)]
    pub live: Live,
    /// A local fjall database's directory; the table is its keyspace.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["hbase", "bigtable", "master", "zk", "site"])]
    pub fjall: Option<PathBuf>,
    /// HBase through its native RPC: a master's (or, from HBase 2.6, a region server's)
    /// connection registry, `host:port` (`--features hbase-rpc`).
    #[arg(long, value_name = "HOST:PORT", conflicts_with_all = ["hbase", "bigtable", "zk", "site"])]
    pub master: Option<String>,
    /// HBase through its native RPC, found from its ZooKeeper quorum, `host:port[,host:port...]`.
    #[arg(long, value_name = "QUORUM", conflicts_with_all = ["hbase", "bigtable", "site"])]
    pub zk: Option<String>,
    /// HBase through its native RPC, as an `hbase-site.xml` describes the cluster (its quorum
    /// or registry, Kerberos, TLS).
    #[arg(long, value_name = "hbase-site.xml", conflicts_with_all = ["hbase", "bigtable"])]
    pub site: Option<PathBuf>,
    #[command(flatten)]
    pub key: KeyLayout,
    /// On HBase and Bigtable, the column family the rows' values are in (their cell
    /// `FAMILY:v`, as rowkey's stores write them): the rows read are the rows with a cell in it.
    #[arg(long, value_name = "FAMILY")]
    pub family: Option<String>,
    /// The row's value as a column of this name (`Binary`).
    #[arg(long, value_name = "NAME")]
    pub value: Option<String>,
    /// `#[timestamp]` and `#[reverse_ts]` fields as plain integers, not timestamps.
    #[arg(long)]
    pub raw_timestamps: bool,
    /// How the result is written.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Write the result to this file instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// How `rowkey sql` writes its result.
#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// A table for reading.
    Table,
    /// Comma-separated values, with a header line.
    Csv,
    /// One JSON object per row.
    Json,
    /// An Arrow IPC file (what pyarrow, Polars and DuckDB read).
    Arrow,
    /// A Parquet file, Snappy-compressed.
    Parquet,
}

#[cfg(feature = "sql")]
mod run {
    use std::io::Write;
    use std::sync::Arc;

    use rowkey::store::Store;
    use rowkey_datafusion::datafusion;
    use rowkey_datafusion::datafusion::arrow::record_batch::RecordBatch;
    use rowkey_datafusion::datafusion::prelude::SessionContext;
    use rowkey_datafusion::datafusion::sql::TableReference;
    use rowkey_datafusion::{Options, SchemaTable};

    use super::{Format, SqlArgs};

    /// The table a statement reads: its name, key layout and columns.
    pub struct Read {
        table: String,
        schema: &'static rowkey::Schema,
        options: Options,
    }

    /// Runs the statement; `Ok(())` when it ran and its result was written.
    pub fn sql(args: SqlArgs) -> Result<(), String> {
        let (table, schema) =
            crate::live::table_and_required_key(&args.key, args.live.table.as_deref())?;
        let mut options = Options::default().timestamps(!args.raw_timestamps);
        if let Some(name) = &args.value {
            options = options.value_column(name);
        }
        let family = || {
            args.family.clone().ok_or_else(|| {
                "say which column family the rows are in: --family FAMILY (HBase and Bigtable read \
                 the rows with a cell in it)"
                    .to_string()
            })
        };
        let read = Read {
            table,
            schema,
            options,
        };
        let native = args.master.is_some() || args.zk.is_some() || args.site.is_some();
        match (&args.fjall, &args.live.hbase, &args.live.bigtable) {
            (Some(dir), _, _) => {
                let store = rowkey::store::FjallStore::open(dir, &read.table)
                    .map_err(|e| format!("{}: {e}", dir.display()))?;
                query(&args, read, store, Vec::new())
            }
            (None, Some(addr), _) => hbase(&args, addr, &family()?, read),
            (None, None, Some(place)) => bigtable(&args, place, &family()?, read),
            (None, None, None) if native => hbase_rpc(&args, &family()?, read),
            (None, None, None) => Err(
                "say where the table is: --fjall DIR, --hbase HOST:PORT, --bigtable \
                 PROJECT/INSTANCE, or --master, --zk or --site for HBase's native RPC"
                    .into(),
            ),
        }
    }

    /// The table through HBase's Thrift2 gateway, one partition per region.
    #[cfg(feature = "hbase")]
    fn hbase(args: &SqlArgs, addr: &str, family: &str, read: Read) -> Result<(), String> {
        let mut config =
            rowkey::store::HbaseConfig::new(addr, &read.table, family).framed(args.live.framed);
        config.options.check_schema = false; // the table's own families, whatever they are
        let store = rowkey::store::HbaseStore::with_config(config).map_err(|e| e.to_string())?;
        let regions = store.regions().map_err(|e| e.to_string())?;
        query(
            args,
            read,
            store,
            regions.into_iter().map(|r| r.start).collect(),
        )
    }

    #[cfg(not(feature = "hbase"))]
    fn hbase(_: &SqlArgs, _: &str, _: &str, _: Read) -> Result<(), String> {
        Err("this build has no HBase support (feature `hbase`)".into())
    }

    /// The table through HBase's native RPC, one partition per region.
    #[cfg(feature = "hbase-rpc")]
    fn hbase_rpc(args: &SqlArgs, family: &str, read: Read) -> Result<(), String> {
        let (master, zk) = (args.master.as_deref(), args.zk.as_deref());
        let mut config =
            crate::live::rpc_config(master, zk, args.site.as_deref(), &read.table, family)?;
        config.options.check_schema = false; // the table's own families, whatever they are
        let store = rowkey::store::HbaseRpcStore::with_config(config).map_err(|e| e.to_string())?;
        let regions = store.regions().map_err(|e| e.to_string())?;
        query(
            args,
            read,
            store,
            regions.into_iter().map(|r| r.start).collect(),
        )
    }

    #[cfg(not(feature = "hbase-rpc"))]
    fn hbase_rpc(_: &SqlArgs, _: &str, _: Read) -> Result<(), String> {
        Err("this build has no native HBase client (feature `hbase-rpc`)".into())
    }

    /// The table on Bigtable, one partition per sampled tablet boundary.
    #[cfg(feature = "bigtable")]
    fn bigtable(args: &SqlArgs, place: &str, family: &str, read: Read) -> Result<(), String> {
        let emulator = args.live.emulator.as_deref();
        let mut config = crate::live::bigtable_config(place, &read.table, family, emulator)?;
        config.options.check_schema = false; // the table's own families, whatever they are
        let store = rowkey::store::BigtableStore::with_config(config).map_err(|e| e.to_string())?;
        let samples = store.sample_row_keys().map_err(|e| e.to_string())?;
        query(
            args,
            read,
            store,
            samples.into_iter().map(|(k, _)| k.to_vec()).collect(),
        )
    }

    #[cfg(not(feature = "bigtable"))]
    fn bigtable(_: &SqlArgs, _: &str, _: &str, _: Read) -> Result<(), String> {
        Err("this build has no Bigtable support (feature `bigtable`)".into())
    }

    /// Registers the table under its name, runs the statement, writes the result.
    fn query<S: Store + Send + Sync + 'static>(
        args: &SqlArgs,
        read: Read,
        store: S,
        splits: Vec<Vec<u8>>,
    ) -> Result<(), String> {
        let table = read.table.as_str();
        let provider = SchemaTable::new(Arc::new(store), read.schema, read.options)
            .map_err(|e| e.to_string())?
            .split_at(splits);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let batches = runtime.block_on(async {
            let ctx = SessionContext::new();
            ctx.register_table(TableReference::bare(table), Arc::new(provider))?;
            ctx.sql(&args.sql).await?.collect().await
        });
        let batches = batches.map_err(|e| e.to_string())?;
        let schema = match batches.first() {
            Some(b) => b.schema(),
            None => Arc::new(datafusion::arrow::datatypes::Schema::empty()),
        };
        match &args.output {
            Some(path) => {
                let file =
                    std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
                let mut out = std::io::BufWriter::new(file);
                write(args.format, &schema, &batches, &mut out)
                    .and_then(|()| out.flush().map_err(|e| e.to_string()))
                    .map_err(|e| format!("{}: {e}", path.display()))
            }
            None => {
                let mut out = std::io::BufWriter::new(std::io::stdout());
                write(args.format, &schema, &batches, &mut out)
                    .and_then(|()| out.flush().map_err(|e| e.to_string()))
            }
        }
    }

    fn write(
        format: Format,
        schema: &datafusion::arrow::datatypes::SchemaRef,
        batches: &[RecordBatch],
        out: &mut (impl Write + Send),
    ) -> Result<(), String> {
        use datafusion::arrow;
        let e = |e: arrow::error::ArrowError| e.to_string();
        match format {
            Format::Table => {
                let shown = arrow::util::pretty::pretty_format_batches(batches).map_err(e)?;
                writeln!(out, "{shown}").map_err(|e| e.to_string())?;
                let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
                writeln!(out, "{rows} row{}", if rows == 1 { "" } else { "s" })
                    .map_err(|e| e.to_string())
            }
            Format::Csv => {
                let mut w = arrow::csv::Writer::new(out);
                batches.iter().try_for_each(|b| w.write(b)).map_err(e)
            }
            Format::Json => {
                let mut w = arrow::json::LineDelimitedWriter::new(out);
                batches.iter().try_for_each(|b| w.write(b)).map_err(e)?;
                w.finish().map_err(e)
            }
            Format::Arrow => {
                let mut w = arrow::ipc::writer::FileWriter::try_new(out, schema).map_err(e)?;
                batches.iter().try_for_each(|b| w.write(b)).map_err(e)?;
                w.finish().map_err(e)
            }
            Format::Parquet => {
                use parquet::arrow::ArrowWriter;
                use parquet::basic::Compression;
                use parquet::file::properties::WriterProperties;
                let p = |e: parquet::errors::ParquetError| e.to_string();
                let properties = WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .build();
                let mut w =
                    ArrowWriter::try_new(out, schema.clone(), Some(properties)).map_err(p)?;
                batches.iter().try_for_each(|b| w.write(b)).map_err(p)?;
                w.close().map(drop).map_err(p)
            }
        }
    }
}

/// `rowkey sql`.
pub fn sql(args: SqlArgs) -> Result<(), String> {
    #[cfg(feature = "sql")]
    return run::sql(args);
    #[cfg(not(feature = "sql"))]
    {
        let _ = (args.sql, args.format, args.output);
        Err("this rowkey was built without SQL: install it with `--features sql`".into())
    }
}
