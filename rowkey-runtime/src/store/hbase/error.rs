//! HBase's failures (through the Thrift2 gateway) as [`NetError`]s, which are retried, and
//! how a connection failed ([`TransportError`], shared by the socket and HTTP transports).

use crate::store::NetError;

use super::api::Refused;

/// How a connection failed.
#[derive(Debug)]
pub(super) enum TransportError {
    /// The socket failed or closed.
    Io(std::io::Error),
    /// The bytes received are not a Thrift message.
    Protocol(String),
    /// The connection cannot be made as configured (an untrusted TLS certificate); not
    /// retried.
    #[cfg_attr(not(feature = "hbase-http"), allow(dead_code))]
    Connect(String),
    /// An HTTP gateway answered with an error status.
    #[cfg_attr(not(feature = "hbase-http"), allow(dead_code))]
    Http {
        /// The status code.
        status: u16,
        /// What it said.
        message: String,
        /// Whether another attempt may succeed (a proxy's 502, 503, 504).
        transient: bool,
    },
    /// Authentication failed (`transient`: the KDC was unreachable).
    #[cfg_attr(not(feature = "kerberos"), allow(dead_code))]
    Auth {
        /// What failed, with GSSAPI's or the gateway's words.
        message: String,
        /// Whether another attempt may succeed.
        transient: bool,
    },
}

impl From<std::io::Error> for TransportError {
    fn from(e: std::io::Error) -> Self {
        TransportError::Io(e)
    }
}

/// An HBase store failure: the network stores' [`NetError`], with `store` `"hbase"`.
pub type HbaseError = NetError;

pub(super) const STORE: &str = "hbase";

/// The connection to the gateway failed under call `op`, or its bytes broke the protocol.
pub(super) fn transport(op: &'static str, e: TransportError) -> NetError {
    match e {
        TransportError::Io(e) => NetError::Transport {
            store: STORE,
            op,
            message: format!("the Thrift2 gateway: {e}"),
        },
        TransportError::Protocol(m) => protocol(m),
        TransportError::Auth { message, transient } => NetError::Auth {
            store: STORE,
            message,
            transient,
        },
        TransportError::Connect(message) => NetError::Connect {
            store: STORE,
            message,
        },
        TransportError::Http {
            status,
            message,
            transient,
        } => NetError::Server {
            store: STORE,
            op,
            status: format!("HTTP {status}"),
            message,
            transient,
        },
    }
}

/// The gateway's refusal of call `op`: HBase failed it (`TIOError`, retried when HBase says
/// it can be), or the gateway refused its arguments or could not run it.
pub(super) fn refused(op: &'static str, r: Refused) -> NetError {
    match r {
        Refused::Io { message, can_retry } => NetError::Server {
            store: STORE,
            op,
            status: "TIOError".into(),
            message,
            transient: can_retry,
        },
        Refused::IllegalArgument(message) => NetError::Rejected {
            store: STORE,
            op,
            status: "TIllegalArgument".into(),
            message,
            transient: false,
        },
        Refused::Application { message, kind } => NetError::Rejected {
            store: STORE,
            op,
            status: format!("TApplicationException ({kind})"),
            message,
            transient: false,
        },
    }
}

/// The gateway's bytes do not follow the Thrift protocol: often a transport mismatch (framed
/// against unframed) or the compact protocol.
pub(super) fn protocol(message: impl Into<String>) -> NetError {
    NetError::Protocol {
        store: STORE,
        message: format!("invalid reply from the Thrift2 gateway: {}", message.into()),
    }
}

/// HBase failed call `op` with `message`.
pub(super) fn server(op: &'static str, message: String, transient: bool) -> NetError {
    NetError::Server {
        store: STORE,
        op,
        status: "TIOError".into(),
        message,
        transient,
    }
}

/// Whether `e` says the scanner a page was read from is gone (not the data or the cluster):
/// the gateway dropped it after its lease (`hbase.client.scanner.timeout.period`, 60 s by
/// default; "Invalid scanner Id"), or HBase reset, expired or lost step with the scanner
/// under it. A scan reopens after the last row delivered: nothing is lost or repeated.
pub(super) fn scanner_gone(e: &NetError) -> bool {
    const HBASE: [&str; 4] = [
        "UnknownScannerException",
        "ScannerResetException",
        "LeaseException",
        "OutOfOrderScannerNextException",
    ];
    match e {
        NetError::Rejected {
            status, message, ..
        } => status == "TIllegalArgument" && message.contains("Invalid scanner Id"),
        NetError::Server { message, .. } => HBASE.iter().any(|name| message.contains(name)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_keep_hbases_retry_flag() {
        let io = refused(
            "get",
            Refused::Io {
                message: "NotServingRegionException".into(),
                can_retry: true,
            },
        );
        assert!(io.is_transient());
        assert_eq!(
            io.to_string(),
            "hbase: get failed: TIOError: NotServingRegionException"
        );
        let arg = refused("put", Refused::IllegalArgument("empty row".into()));
        assert!(!arg.is_transient());
        assert!(matches!(
            arg,
            NetError::Rejected {
                store: "hbase",
                op: "put",
                ..
            }
        ));
        assert!(!server("deleteMultiple", "1 delete(s) not applied".into(), false).is_transient());
        let expired = refused(
            "getScannerRows",
            Refused::IllegalArgument("Invalid scanner Id".into()),
        );
        assert!(scanner_gone(&expired));
        assert!(!scanner_gone(&arg));
        assert!(scanner_gone(&server(
            "getScannerRows",
            "org.apache.hadoop.hbase.UnknownScannerException: Unknown scanner '7'".into(),
            false
        )));
        assert!(!scanner_gone(&io));
        assert_eq!(
            protocol("bad frame").to_string(),
            "hbase: the server's reply breaks the protocol: invalid reply from the Thrift2 gateway: bad frame"
        );
    }
}
