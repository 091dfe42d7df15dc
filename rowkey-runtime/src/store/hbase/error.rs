//! [`HbaseError`]: what an HBase call can fail with, and which failures are retried.

use std::fmt;
use std::time::Duration;

use super::api::Refused;
use super::conn::TransportError;
use super::MAX_KEY_LEN;

/// An HBase store failure.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum HbaseError {
    /// The connection failed or closed (the gateway is down, or a network cut).
    Transport {
        /// The call (`get`, `putMultiple`, ...).
        op: &'static str,
        /// What the socket said.
        message: String,
    },
    /// A call passed its deadline.
    Timeout {
        /// The call.
        op: &'static str,
        /// The deadline.
        after: Duration,
    },
    /// HBase failed the operation (`TIOError`).
    Server {
        /// The call.
        op: &'static str,
        /// HBase's message (usually a Java exception and its text).
        message: String,
        /// Whether HBase says repeating it may succeed.
        can_retry: bool,
    },
    /// The gateway refused the call's arguments (`TIllegalArgument`), or could not run it
    /// (a `TApplicationException`: an unknown method or a malformed call).
    Refused {
        /// The call.
        op: &'static str,
        /// The gateway's message.
        message: String,
    },
    /// The gateway's bytes do not follow the Thrift protocol: often a transport mismatch
    /// (framed against unframed) or the compact protocol.
    Protocol(String),
    /// The table does not exist.
    MissingTable(String),
    /// The table exists but has no such column family.
    MissingFamily {
        /// The table.
        table: String,
        /// The family asked for.
        family: String,
        /// The families it has.
        families: Vec<String>,
    },
    /// A key HBase cannot store: empty, or longer than 32,767 bytes; nothing was sent.
    InvalidKey {
        /// The key's length.
        len: usize,
    },
    /// The store's runtime failed to start.
    Runtime(String),
}

impl fmt::Display for HbaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HbaseError::Transport { op, message } => {
                write!(f, "hbase: {op}: connection to the Thrift2 gateway failed: {message}")
            }
            HbaseError::Timeout { op, after } => {
                write!(f, "hbase: {op} got no answer within {after:?}")
            }
            HbaseError::Server { op, message, .. } => write!(f, "hbase: {op} failed: {message}"),
            HbaseError::Refused { op, message } => {
                write!(f, "hbase: the gateway refused {op}: {message}")
            }
            HbaseError::Protocol(e) => write!(f, "hbase: invalid reply from the gateway: {e}"),
            HbaseError::MissingTable(t) => write!(f, "hbase: table `{t}` does not exist"),
            HbaseError::MissingFamily {
                table,
                family,
                families,
            } => write!(
                f,
                "hbase: table `{table}` has no column family `{family}` (it has: {})",
                families.join(", ")
            ),
            HbaseError::InvalidKey { len } => write!(
                f,
                "hbase: a row key of {len} bytes cannot be stored (keys are 1 to {MAX_KEY_LEN} bytes)"
            ),
            HbaseError::Runtime(e) => write!(f, "hbase store runtime: {e}"),
        }
    }
}

impl std::error::Error for HbaseError {}

impl From<std::io::Error> for HbaseError {
    fn from(e: std::io::Error) -> Self {
        HbaseError::Runtime(e.to_string())
    }
}

impl HbaseError {
    /// Whether repeating the call may succeed: a dropped connection, a deadline, or a failure
    /// HBase marks retriable.
    pub fn is_transient(&self) -> bool {
        match self {
            HbaseError::Transport { .. } | HbaseError::Timeout { .. } => true,
            HbaseError::Server { can_retry, .. } => *can_retry,
            _ => false,
        }
    }

    pub(super) fn transport(op: &'static str, e: TransportError) -> Self {
        match e {
            TransportError::Io(e) => HbaseError::Transport {
                op,
                message: e.to_string(),
            },
            TransportError::Protocol(m) => HbaseError::Protocol(m),
        }
    }

    pub(super) fn refused(op: &'static str, r: Refused) -> Self {
        match r {
            Refused::Io { message, can_retry } => HbaseError::Server {
                op,
                message,
                can_retry,
            },
            Refused::IllegalArgument(message) => HbaseError::Refused { op, message },
            Refused::Application { message, kind } => HbaseError::Refused {
                op,
                message: format!("{message} (application error {kind})"),
            },
        }
    }
}
