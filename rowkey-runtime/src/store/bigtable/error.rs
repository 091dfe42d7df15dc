//! [`BigtableError`]: what a Bigtable call can fail with, and which failures are retried.

use std::fmt;
use std::time::Duration;

use super::MAX_KEY_LEN;

/// A Bigtable store failure.
#[derive(Debug)]
#[non_exhaustive]
pub enum BigtableError {
    /// The configuration or the connection is unusable (bad address, TLS, no credentials).
    Connect(String),
    /// A call failed with a gRPC status.
    Status {
        /// The call (`ReadRows`, `MutateRows`, ...).
        op: &'static str,
        /// The gRPC status code.
        code: i32,
        /// The server's (or transport's) message.
        message: String,
    },
    /// An attempt passed its deadline.
    Timeout {
        /// The call.
        op: &'static str,
        /// The deadline.
        after: Duration,
    },
    /// The server sent a ReadRows stream the protocol does not allow.
    Protocol(String),
    /// A row in a batch was rejected with this status.
    Rejected {
        /// The gRPC status code.
        code: i32,
        /// The server's message.
        message: String,
    },
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
    /// A key Bigtable cannot store: empty, or longer than 4,096 bytes; nothing was sent.
    InvalidKey {
        /// The key's length.
        len: usize,
    },
    /// The store's runtime failed.
    Runtime(std::io::Error),
}

impl fmt::Display for BigtableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BigtableError::Connect(e) => write!(f, "bigtable: cannot connect: {e}"),
            BigtableError::Status { op, code, message } => write!(
                f,
                "bigtable: {op} failed: {} ({code}): {message}",
                tonic::Code::from_i32(*code).description()
            ),
            BigtableError::Timeout { op, after } => {
                write!(f, "bigtable: {op} got no answer within {after:?}")
            }
            BigtableError::Protocol(e) => write!(f, "bigtable: invalid ReadRows stream: {e}"),
            BigtableError::Rejected { code, message } => write!(
                f,
                "bigtable rejected the row: {} ({code}): {message}",
                tonic::Code::from_i32(*code).description()
            ),
            BigtableError::MissingTable(t) => write!(f, "bigtable: table `{t}` does not exist"),
            BigtableError::MissingFamily {
                table,
                family,
                families,
            } => write!(
                f,
                "bigtable: table `{table}` has no column family `{family}` (it has: {})",
                families.join(", ")
            ),
            BigtableError::InvalidKey { len } => write!(
                f,
                "bigtable: a row key of {len} bytes cannot be stored (keys are 1 to {MAX_KEY_LEN} bytes)"
            ),
            BigtableError::Runtime(e) => write!(f, "bigtable runtime: {e}"),
        }
    }
}

impl std::error::Error for BigtableError {}

// By hand: the I/O error inside `Runtime` is not `Clone`; its copy keeps the kind and message.
impl Clone for BigtableError {
    fn clone(&self) -> Self {
        match self {
            BigtableError::Connect(e) => BigtableError::Connect(e.clone()),
            BigtableError::Status { op, code, message } => BigtableError::Status {
                op,
                code: *code,
                message: message.clone(),
            },
            BigtableError::Timeout { op, after } => BigtableError::Timeout { op, after: *after },
            BigtableError::Protocol(e) => BigtableError::Protocol(e.clone()),
            BigtableError::Rejected { code, message } => BigtableError::Rejected {
                code: *code,
                message: message.clone(),
            },
            BigtableError::MissingTable(t) => BigtableError::MissingTable(t.clone()),
            BigtableError::MissingFamily {
                table,
                family,
                families,
            } => BigtableError::MissingFamily {
                table: table.clone(),
                family: family.clone(),
                families: families.clone(),
            },
            BigtableError::InvalidKey { len } => BigtableError::InvalidKey { len: *len },
            BigtableError::Runtime(e) => {
                BigtableError::Runtime(std::io::Error::new(e.kind(), e.to_string()))
            }
        }
    }
}

impl From<std::io::Error> for BigtableError {
    fn from(e: std::io::Error) -> Self {
        BigtableError::Runtime(e)
    }
}

impl BigtableError {
    pub(super) fn status(op: &'static str, s: &tonic::Status) -> Self {
        BigtableError::Status {
            op,
            code: s.code() as i32,
            message: s.message().to_string(),
        }
    }

    /// Whether repeating the call may succeed: the statuses Google's clients retry, a dropped
    /// connection, a deadline.
    pub fn is_transient(&self) -> bool {
        match self {
            BigtableError::Status { code, message, .. }
            | BigtableError::Rejected { code, message } => {
                transient_code(*code)
                    || (*code == tonic::Code::Internal as i32 && message.contains("RST_STREAM"))
                    || (*code == tonic::Code::Unknown as i32
                        && (message.contains("transport") || message.contains("connection")))
            }
            BigtableError::Timeout { .. } => true,
            _ => false,
        }
    }
}

pub(super) fn transient_code(code: i32) -> bool {
    // CANCELLED is what tonic reports for a connection dropped under a call; rowkey never
    // cancels a call it still waits for, so here it means the transport failed.
    code == tonic::Code::Unavailable as i32
        || code == tonic::Code::Cancelled as i32
        || code == tonic::Code::DeadlineExceeded as i32
        || code == tonic::Code::Aborted as i32
}
