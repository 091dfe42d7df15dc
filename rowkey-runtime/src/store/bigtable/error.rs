//! Bigtable's failures as [`NetError`]s, and which of them are retried.

use crate::store::NetError;

use super::MAX_KEY_LEN;

/// A Bigtable store failure: the network stores' [`NetError`], with `store` `"bigtable"`.
pub type BigtableError = NetError;

pub(super) const STORE: &str = "bigtable";

/// What an UNAUTHENTICATED answer says (see [`refused_token`]).
const REFUSED: &str = "the server refused the access token (UNAUTHENTICATED)";

/// A call that failed with gRPC status `s`: UNAUTHENTICATED as [`NetError::Auth`], a
/// certificate the client does not trust as [`NetError::Connect`] saying so (neither retried as
/// such: see [`refused_token`]), anything else as [`NetError::Server`].
pub(super) fn status(op: &'static str, s: &tonic::Status) -> NetError {
    let code = s.code() as i32;
    if s.code() == tonic::Code::Unauthenticated {
        return NetError::Auth {
            store: STORE,
            message: format!("{op}: {REFUSED}: {}", s.message()),
            transient: false,
        };
    }
    if let Some(tls) = crate::store::net::tls::certificate_problem(&chain(s)) {
        return connect(tls);
    }
    NetError::Server {
        store: STORE,
        op,
        status: code_name(code),
        message: s.message().to_string(),
        transient: transient_status(code, s.message()),
    }
}

/// A row of a batch refused with status `code`.
pub(super) fn rejected(code: i32, message: String) -> NetError {
    NetError::Rejected {
        store: STORE,
        op: "MutateRows",
        status: code_name(code),
        transient: transient_status(code, &message),
        message,
    }
}

/// Whether `e` is the server refusing the access token: the store fetches a new one and tries
/// again, within its retry policy.
pub(super) fn refused_token(e: &NetError) -> bool {
    matches!(e, NetError::Auth { store: STORE, message, .. } if message.contains(REFUSED))
}

/// A status and its causes: tonic keeps the transport's error (rustls's certificate verdict)
/// in the source chain, not in the message.
fn chain(s: &tonic::Status) -> String {
    match std::error::Error::source(s) {
        Some(source) => format!(
            "{}: {}",
            s.message(),
            crate::store::net::error_chain(source)
        ),
        None => s.message().to_string(),
    }
}

pub(super) fn connect(message: impl Into<String>) -> NetError {
    NetError::Connect {
        store: STORE,
        message: message.into(),
    }
}

pub(super) fn protocol(message: impl Into<String>) -> NetError {
    NetError::Protocol {
        store: STORE,
        message: message.into(),
    }
}

/// A ReadRows stream the protocol does not allow.
pub(super) fn read_rows(message: String) -> NetError {
    protocol(format!("invalid ReadRows stream: {message}"))
}

pub(super) fn invalid_key(len: usize) -> NetError {
    NetError::InvalidKey {
        store: STORE,
        len,
        max: MAX_KEY_LEN,
    }
}

/// The gRPC code's name and number, `UNAVAILABLE (14)`.
fn code_name(code: i32) -> String {
    format!("{} ({code})", tonic::Code::from_i32(code).description())
}

/// Whether a status is worth another attempt: the codes Google's clients retry, a reset
/// stream, a broken transport.
fn transient_status(code: i32, message: &str) -> bool {
    transient_code(code)
        || (code == tonic::Code::Internal as i32 && message.contains("RST_STREAM"))
        || (code == tonic::Code::Unknown as i32
            && (message.contains("transport") || message.contains("connection")))
}

pub(super) fn transient_code(code: i32) -> bool {
    // CANCELLED is what tonic reports for a connection dropped under a call; rowkey never
    // cancels a call it still waits for, so here it means the transport failed.
    code == tonic::Code::Unavailable as i32
        || code == tonic::Code::Cancelled as i32
        || code == tonic::Code::DeadlineExceeded as i32
        || code == tonic::Code::Aborted as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_retried_as_googles_clients_retry_them() {
        let unavailable = status("ReadRows", &tonic::Status::unavailable("down"));
        assert!(unavailable.is_transient());
        assert_eq!(
            unavailable.to_string(),
            "bigtable: ReadRows failed: The service is currently unavailable (14): down"
        );
        let reset = status("ReadRows", &tonic::Status::internal("stream RST_STREAM"));
        assert!(reset.is_transient());
        assert!(!status("ReadRows", &tonic::Status::not_found("t")).is_transient());
        assert!(!status("ReadRows", &tonic::Status::internal("bug")).is_transient());
        let row = rejected(tonic::Code::Unavailable as i32, "busy".into());
        assert!(row.is_transient());
        assert_eq!(row.store(), "bigtable");
        assert!(!rejected(tonic::Code::InvalidArgument as i32, "bad".into()).is_transient());
        let refused = status("ReadRows", &tonic::Status::unauthenticated("expired"));
        assert!(refused_token(&refused) && !refused.is_transient());
        assert_eq!(
            refused.to_string(),
            "bigtable: authentication failed: ReadRows: the server refused the access token (UNAUTHENTICATED): expired"
        );
        assert_eq!(
            invalid_key(4097).to_string(),
            "bigtable: a row key of 4097 bytes cannot be stored (keys are 1 to 4096 bytes)"
        );
    }
}
