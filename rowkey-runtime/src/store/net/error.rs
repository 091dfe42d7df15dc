//! [`NetError`]: what a network store's call can fail with, one type for every network backend.

use std::fmt;
use std::time::Duration;

/// A network store's failure: the same type for every network backend (`BigtableError` and
/// `HbaseError` name it), so code that handles failures handles them all, and
/// [`NetError::is_transient`] says for each whether repeating the call may succeed. Every
/// variant names the `store` it came from (`"bigtable"`, `"hbase"`); no variant carries a
/// credential.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NetError {
    /// The configuration or the connection is unusable: a bad address, TLS, credentials.
    Connect {
        /// The backend.
        store: &'static str,
        /// What is wrong.
        message: String,
    },
    /// Authentication failed: Kerberos (no or expired tickets, a wrong keytab or principal,
    /// the KDC unreachable, no quality of protection in common), or the server refused the
    /// client's credentials. The message says which; it never holds a secret.
    Auth {
        /// The backend.
        store: &'static str,
        /// What failed and why.
        message: String,
        /// Whether trying again may succeed (the KDC was unreachable).
        transient: bool,
    },
    /// The connection failed or closed under a call (the server is down, a network cut).
    Transport {
        /// The backend.
        store: &'static str,
        /// The call (`get`, `MutateRows`, ...).
        op: &'static str,
        /// What the transport said.
        message: String,
    },
    /// An attempt passed its deadline.
    Timeout {
        /// The backend.
        store: &'static str,
        /// The call.
        op: &'static str,
        /// The deadline.
        after: Duration,
    },
    /// The server failed the call.
    Server {
        /// The backend.
        store: &'static str,
        /// The call.
        op: &'static str,
        /// The server's name for the failure: a gRPC code (`UNAVAILABLE`), a Thrift exception
        /// (`TIOError`).
        status: String,
        /// The server's message (for HBase, usually a Java exception and its text).
        message: String,
        /// Whether the server or the protocol says repeating the call may succeed.
        transient: bool,
    },
    /// The server refused the call's arguments, or one row of a batch.
    Rejected {
        /// The backend.
        store: &'static str,
        /// The call.
        op: &'static str,
        /// The server's name for the refusal (as for [`NetError::Server`]).
        status: String,
        /// The server's message.
        message: String,
        /// Whether repeating it may succeed (a row of a batch refused as UNAVAILABLE).
        transient: bool,
    },
    /// The server's bytes do not follow the protocol.
    Protocol {
        /// The backend.
        store: &'static str,
        /// What was wrong with them.
        message: String,
    },
    /// The table does not exist.
    MissingTable {
        /// The backend.
        store: &'static str,
        /// The table.
        table: String,
    },
    /// The table exists but has no such column family.
    MissingFamily {
        /// The backend.
        store: &'static str,
        /// The table.
        table: String,
        /// The family asked for.
        family: String,
        /// The families it has.
        families: Vec<String>,
    },
    /// A key the store cannot hold (empty, or longer than its limit); nothing was sent.
    InvalidKey {
        /// The backend.
        store: &'static str,
        /// The key's length.
        len: usize,
        /// The longest key the store takes.
        max: usize,
    },
    /// The store's own runtime failed (its thread or its async runtime did not start).
    Runtime {
        /// The backend.
        store: &'static str,
        /// What failed.
        message: String,
    },
    /// A step on this machine failed (writing a bulk load's files to its staging directory).
    Local {
        /// The backend.
        store: &'static str,
        /// What failed, with the path.
        message: String,
    },
}

impl NetError {
    /// The backend the failure came from.
    pub fn store(&self) -> &'static str {
        match self {
            NetError::Connect { store, .. }
            | NetError::Auth { store, .. }
            | NetError::Transport { store, .. }
            | NetError::Timeout { store, .. }
            | NetError::Server { store, .. }
            | NetError::Rejected { store, .. }
            | NetError::Protocol { store, .. }
            | NetError::MissingTable { store, .. }
            | NetError::MissingFamily { store, .. }
            | NetError::InvalidKey { store, .. }
            | NetError::Runtime { store, .. }
            | NetError::Local { store, .. } => store,
        }
    }

    /// Whether repeating the call may succeed: a dropped connection, a deadline, or a failure
    /// the server marks as passing. The stores retry these themselves, per their
    /// `RetryPolicy`; an error that reaches the caller has used its attempts.
    pub fn is_transient(&self) -> bool {
        match self {
            NetError::Transport { .. } | NetError::Timeout { .. } => true,
            NetError::Server { transient, .. }
            | NetError::Rejected { transient, .. }
            | NetError::Auth { transient, .. } => *transient,
            _ => false,
        }
    }
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let store = self.store();
        match self {
            NetError::Connect { message, .. } => write!(f, "{store}: cannot connect: {message}"),
            NetError::Auth { message, .. } => {
                write!(f, "{store}: authentication failed: {message}")
            }
            NetError::Transport { op, message, .. } => {
                write!(f, "{store}: {op}: the connection failed: {message}")
            }
            NetError::Timeout { op, after, .. } => {
                write!(f, "{store}: {op} got no answer within {after:?}")
            }
            NetError::Server {
                op,
                status,
                message,
                ..
            } => write!(f, "{store}: {op} failed: {status}: {message}"),
            NetError::Rejected {
                op,
                status,
                message,
                ..
            } => write!(f, "{store}: {op} refused: {status}: {message}"),
            NetError::Protocol { message, .. } => {
                write!(
                    f,
                    "{store}: the server's reply breaks the protocol: {message}"
                )
            }
            NetError::MissingTable { table, .. } => {
                write!(f, "{store}: table `{table}` does not exist")
            }
            NetError::MissingFamily {
                table,
                family,
                families,
                ..
            } => write!(
                f,
                "{store}: table `{table}` has no column family `{family}` (it has: {})",
                families.join(", ")
            ),
            NetError::InvalidKey { len, max, .. } => write!(
                f,
                "{store}: a row key of {len} bytes cannot be stored (keys are 1 to {max} bytes)"
            ),
            NetError::Runtime { message, .. } => write!(f, "{store}: store runtime: {message}"),
            NetError::Local { message, .. } => write!(f, "{store}: {message}"),
        }
    }
}

impl std::error::Error for NetError {}

/// The blocking face's own failures (its runtime thread did not start, or stopped), which
/// come before any backend is involved.
impl From<std::io::Error> for NetError {
    fn from(e: std::io::Error) -> Self {
        NetError::Runtime {
            store: "rowkey",
            message: e.to_string(),
        }
    }
}
