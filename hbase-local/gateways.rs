//! Finding or starting the local HBase from Rust: shared by the HBase tests (the Kerberized
//! cluster of `tests/hbase_secure.rs` too), the benchmark and the main job
//! (`examples/log_data.rs`), included by path (`#[path = "../hbase-local/gateways.rs"]`).
#![allow(dead_code)] // each includer uses part of it

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The Thrift2 gateways of an HBase, and its ZooKeeper for HBase's Java client.
pub struct Gateways {
    /// The unframed gateway, `host:port` (as `hbase thrift2 start` serves); empty for a
    /// cluster without a gateway (HBase 3.0: `ROWKEY_HBASE_MASTER` set, `ROWKEY_HBASE_THRIFT`
    /// not).
    pub plain: String,
    /// A framed gateway, where one runs.
    pub framed: Option<String>,
    /// A gateway in HTTP mode (`hbase.regionserver.thrift.http`), `host:port`, where one runs.
    pub http: Option<String>,
    /// A gateway in HTTP mode over TLS, `host:port`, where one runs, and the PEM file of the
    /// CA that signed its certificate.
    pub https: Option<(String, String)>,
    /// ZooKeeper's `host:port`, for HBase's Java client (`hbase-local/run --tool ...`).
    pub zk: Option<String>,
    /// The local HBase's control port (fault injection: `abort-rs`, `start-rs`; `flush T`,
    /// `major-compact T`), `host:port`.
    pub control: Option<String>,
    /// The master's RPC address, `host:port`: the connection registry HBase's own RPC
    /// answers (`ROWKEY_HBASE_MASTER`).
    pub master: Option<String>,
    /// How long a scanner may sit idle before the region servers and gateways drop it
    /// (`ROWKEY_HBASE_SCANNER_LEASE_MS`, or the READY line's `scanner_lease_ms`; HBase's 60 s
    /// when neither says).
    pub scanner_lease: Duration,
    /// The HDFS HBase's root directory is on, `hdfs://host:port`, for a cluster on HDFS
    /// (`ROWKEY_HBASE_HDFS`, or the READY line's `hdfs=`): bulk loads stage files there.
    pub hdfs: Option<String>,
    /// What the local HBase said when ready.
    pub ready: Option<String>,
    // The local HBase started here: it stops when its stdin, held here, closes (when this
    // process ends, or this value is dropped).
    child: Option<Child>,
}

impl Drop for Gateways {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            drop(c.stdin.take());
            let _ = c.wait();
        }
    }
}

impl Gateways {
    /// Leaves the cluster as the next measured client should find it (benchmarks): the last
    /// table's compactions drained, the region servers' JVM collected (`settle` on the
    /// control port), then two seconds of quiet. A cluster without a control port, or an
    /// older `hbase-local`, is only waited for.
    #[allow(dead_code)] // Used by the benchmarks, not by every test that includes this file.
    pub fn settle(&self) {
        if let Some(addr) = &self.control {
            if let Err(e) = control(addr, "settle") {
                eprintln!("settle: {e} (an older hbase-local?)");
            }
        }
        std::thread::sleep(Duration::from_secs(2));
    }

    /// `ROWKEY_HBASE_THRIFT` (unframed `host:port`), with `ROWKEY_HBASE_THRIFT_FRAMED`,
    /// `ROWKEY_HBASE_THRIFT_HTTP`, `ROWKEY_HBASE_THRIFT_HTTPS` with `ROWKEY_HBASE_TLS_CA`,
    /// `ROWKEY_HBASE_ZK`, `ROWKEY_HBASE_CONTROL` and `ROWKEY_HBASE_MASTER` when
    /// `ROWKEY_HBASE_THRIFT` or `ROWKEY_HBASE_MASTER` is set (the latter alone: a cluster with
    /// no gateway); otherwise a local HBase started with `hbase-local/run` (the first run
    /// builds it: Maven downloads HBase, ~290 MB). `None` if it cannot start.
    pub fn from_env_or_start() -> Option<Gateways> {
        let plain = std::env::var("ROWKEY_HBASE_THRIFT").ok();
        if plain.is_some() || std::env::var_os("ROWKEY_HBASE_MASTER").is_some() {
            return Some(Gateways {
                plain: plain.unwrap_or_default(),
                framed: std::env::var("ROWKEY_HBASE_THRIFT_FRAMED").ok(),
                http: std::env::var("ROWKEY_HBASE_THRIFT_HTTP").ok(),
                https: std::env::var("ROWKEY_HBASE_THRIFT_HTTPS")
                    .ok()
                    .zip(std::env::var("ROWKEY_HBASE_TLS_CA").ok()),
                zk: std::env::var("ROWKEY_HBASE_ZK").ok(),
                control: std::env::var("ROWKEY_HBASE_CONTROL").ok(),
                master: std::env::var("ROWKEY_HBASE_MASTER").ok(),
                scanner_lease: lease(std::env::var("ROWKEY_HBASE_SCANNER_LEASE_MS").ok()),
                hdfs: std::env::var("ROWKEY_HBASE_HDFS").ok(),
                ready: None,
                child: None,
            });
        }
        Self::start_local()
    }

    /// Whether a Thrift2 gateway serves this cluster; says why not when none does.
    pub fn has_gateway(&self) -> bool {
        if self.plain.is_empty() {
            eprintln!("SKIPPED: this cluster has no Thrift2 gateway (ROWKEY_HBASE_THRIFT)");
        }
        !self.plain.is_empty()
    }

    /// Starts `hbase-local/run` on four free loopback ports (unframed, framed, HTTP and
    /// HTTPS) and waits for its READY line.
    pub fn start_local() -> Option<Gateways> {
        let (plain, framed, http, https) = (free_port(), free_port(), free_port(), free_port());
        let (child, ready) = start_hbase_local(&[
            "--port".into(),
            plain.to_string(),
            "--framed-port".into(),
            framed.to_string(),
            "--http-port".into(),
            http.to_string(),
            "--https-port".into(),
            https.to_string(),
            // Short enough for the scanner-lease tests to outwait.
            "--scanner-lease-ms".into(),
            "10000".into(),
        ])?;
        Some(Self::from_ready(
            child,
            ready,
            format!("127.0.0.1:{plain}"),
            Some(format!("127.0.0.1:{framed}")),
            Some(format!("127.0.0.1:{http}")),
            Some(format!("127.0.0.1:{https}")),
        ))
    }

    /// Starts a local HBase of `region_servers` on a mini HDFS of its own (`--hdfs`), with one
    /// unframed gateway: for the tests of bulk loads staged on HDFS.
    pub fn start_on_hdfs(region_servers: usize) -> Option<Gateways> {
        let plain = free_port();
        let (child, ready) = start_hbase_local(&[
            "--hdfs".into(),
            "--port".into(),
            plain.to_string(),
            "--region-servers".into(),
            region_servers.to_string(),
        ])?;
        Some(Self::from_ready(
            child,
            ready,
            format!("127.0.0.1:{plain}"),
            None,
            None,
            None,
        ))
    }

    /// The cluster a READY line describes, its gateways at these addresses.
    fn from_ready(
        child: Child,
        ready: String,
        plain: String,
        framed: Option<String>,
        http: Option<String>,
        https: Option<String>,
    ) -> Gateways {
        let field = |name: &str| {
            ready
                .split_whitespace()
                .find_map(|w| w.strip_prefix(name))
                .map(str::to_string)
        };
        let zk = field("zk=");
        let control = field("control=").map(|p| format!("127.0.0.1:{p}"));
        let master = field("master=");
        let scanner_lease = lease(field("scanner_lease_ms="));
        Gateways {
            plain,
            framed,
            http,
            https: https.zip(field("tls_ca=")),
            zk,
            control,
            master,
            scanner_lease,
            hdfs: field("hdfs="),
            ready: Some(ready),
            child: Some(child),
        }
    }
}

/// Starts `hbase-local/run` with `args` and a data directory of this process's own, and waits
/// for its READY line (10 minutes at most: the first run builds it). The cluster runs until the
/// returned child's stdin closes (when the child, or this process, goes away). HBase
/// `ROWKEY_HBASE_VERSION` when set (`hbase-local/matrix` sets it), else the default 2.6.
pub fn start_hbase_local(args: &[String]) -> Option<(std::process::Child, String)> {
    static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = run_script();
    let dir = std::env::temp_dir().join(format!(
        "rowkey-hbase-{}-{}",
        std::process::id(),
        STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let version: Vec<String> = match std::env::var("ROWKEY_HBASE_VERSION") {
        Ok(v) => vec!["--hbase-version".into(), v],
        Err(_) => Vec::new(),
    };
    let mut child = Command::new("bash")
        .arg(&run)
        .args(&version)
        .args(args)
        .arg("--dir")
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let out = child.stdout.take()?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if line.starts_with("READY") {
                let _ = tx.send(line);
            }
        }
    });
    let ready = rx.recv_timeout(Duration::from_secs(600)).ok()?;
    Some((child, ready))
}

/// `hbase-local/run`, found from the crate that includes this file (the tests', the
/// examples', the benches': each one or two folders below the repository's root).
pub fn run_script() -> std::path::PathBuf {
    let crate_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir
        .ancestors()
        .map(|d| d.join("hbase-local/run"))
        .find(|run| run.is_file())
        .unwrap_or_else(|| crate_dir.join("../hbase-local/run"))
}

/// Flushes and major-compacts `table` through the control port `control` (`None`: no control
/// port, nothing to run).
#[allow(dead_code)] // not every test binary compacts
pub fn compactor(control: Option<&str>, table: &str) -> Option<impl Fn()> {
    let (control, table) = (control?.to_string(), table.to_string());
    Some(move || {
        control_or_panic(&control, &format!("flush {table}"));
        control_or_panic(&control, &format!("major-compact {table}"));
    })
}

fn control_or_panic(addr: &str, command: &str) {
    if let Err(e) = control(addr, command) {
        panic!("{command}: {e}");
    }
}

/// A lease in milliseconds, as text; HBase's default (60 s) when absent.
fn lease(ms: Option<String>) -> Duration {
    Duration::from_millis(ms.and_then(|m| m.parse().ok()).unwrap_or(60_000))
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(0)
}

/// Runs HBase's Java client (`hbase-local/run --tool ARGS`, see `Tool.java`) with `stdin`, and
/// returns the fields of its output lines that start with `tag` (the tag removed). The client
/// of HBase `ROWKEY_HBASE_VERSION` when set (`hbase-local/matrix` sets it), else 2.6's. A
/// client still running after `ROWKEY_JAVA_TOOL_TIMEOUT_S` seconds (600) is stopped and
/// reported.
pub fn java(args: &[&str], stdin: &str, tag: &str) -> Result<Vec<Vec<String>>, String> {
    use std::io::{Read, Write};
    use std::os::unix::process::CommandExt;
    let run = run_script();
    let version: Vec<String> = match std::env::var("ROWKEY_HBASE_VERSION") {
        Ok(v) => vec!["--hbase-version".into(), v],
        Err(_) => Vec::new(),
    };
    // Its own process group: on a deadline the JVM the script starts is stopped with it.
    let mut child = Command::new("bash")
        .arg(run)
        .args(&version)
        .arg("--tool")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("hbase-local/run: {e}"))?;
    // Input and both outputs on threads of their own: a client that writes more than a pipe
    // holds (its log on stderr) before it has read all its input would otherwise wait on us
    // while we wait on it.
    let input = child.stdin.take().map(|mut pipe| {
        let stdin = stdin.to_string();
        std::thread::spawn(move || pipe.write_all(stdin.as_bytes()))
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut buf);
            }
            buf
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let limit = Duration::from_secs(
        std::env::var("ROWKEY_JAVA_TOOL_TIMEOUT_S")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(600),
    );
    let started = std::time::Instant::now();
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) => break Some(status),
            None if started.elapsed() >= limit => {
                let _ = Command::new("kill")
                    .args(["-KILL", &format!("-{}", child.id())])
                    .status();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(50)),
        }
    };
    if let Some(Ok(Err(e))) = input.map(|t| t.join()) {
        if status.is_none_or(|s| s.success()) {
            return Err(format!("Tool {args:?}: writing its input: {e}"));
        }
    }
    let out = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    let failed = match status {
        Some(s) if s.success() => None,
        Some(s) => Some(format!("failed ({s})")),
        None => Some(format!("did not finish within {limit:?} and was stopped")),
    };
    if let Some(failed) = failed {
        // What the client said last (its exception), without the JVM's and Maven's chatter.
        let said = String::from_utf8_lossy(&err);
        let tail: Vec<&str> = said
            .lines()
            .filter(|l| !l.trim_start().starts_with("at ") && !l.contains(" INFO "))
            .collect();
        let tail = tail[tail.len().saturating_sub(12)..].join("\n");
        return Err(format!("Tool {args:?} {failed}:\n{tail}"));
    }
    Ok(String::from_utf8_lossy(&out)
        .lines()
        .filter_map(|l| l.strip_prefix(tag))
        .map(|l| l.split(' ').map(str::to_string).collect())
        .collect())
}

/// Sends one command to the local HBase's control port and returns its reply line.
pub fn control(addr: &str, command: &str) -> Result<String, String> {
    use std::io::Write;
    let mut s = std::net::TcpStream::connect(addr).map_err(|e| format!("control {addr}: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(120)))
        .map_err(|e| e.to_string())?;
    writeln!(s, "{command}").map_err(|e| e.to_string())?;
    let mut line = String::new();
    std::io::BufReader::new(s)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    match line.trim().strip_prefix("OK") {
        Some(rest) => Ok(rest.trim().to_string()),
        None => Err(format!("control `{command}`: {}", line.trim())),
    }
}
