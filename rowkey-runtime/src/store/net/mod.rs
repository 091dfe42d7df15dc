//! What only the network backends (`bigtable/`, `hbase/`, `hbase_rpc/`) share, written once: one error type
//! ([`NetError`]), the options every backend takes ([`NetOptions`]), retries with backoff and
//! deadlines ([`RetryPolicy`]), paging of streamed scans (`pages`), batch bookkeeping and
//! splitting (`batch`), the checks a store makes once (`checked`), the key layout a table
//! records (`key_layout`), what both HBase stores share (`hbase_rules`), and the TLS trust
//! settings ([`Tls`]).

pub(crate) mod batch;
pub(crate) mod checked;
mod error;
#[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
pub(crate) mod hbase_rules;
#[cfg(all(feature = "kerberos", any(feature = "hbase", feature = "hbase-rpc")))]
pub(crate) mod kerberos;
pub(crate) mod key_layout;
mod options;
pub(crate) mod pages;
pub(crate) mod retry;
#[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
mod site;
#[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
pub use site::HbaseSite;
#[cfg(any(feature = "bigtable", feature = "hbase-rpc", feature = "hbase-http"))]
pub(crate) mod tls;

pub use error::NetError;
#[cfg(all(feature = "kerberos", any(feature = "hbase", feature = "hbase-rpc")))]
pub use kerberos::{Kerberos, Protection};
pub use options::NetOptions;
pub use retry::RetryPolicy;
#[cfg(any(feature = "bigtable", feature = "hbase-rpc", feature = "hbase-http"))]
pub use tls::Tls;

/// The host part of `host:port` (`[v6]:port` without its brackets): the name a server is
/// known by, for its Kerberos principal.
#[cfg(any(feature = "hbase-rpc", all(feature = "hbase", feature = "kerberos")))]
pub(crate) fn host_of(addr: &str) -> &str {
    addr.rsplit_once(':')
        .map_or(addr, |(h, _)| h)
        .trim_start_matches('[')
        .trim_end_matches(']')
}

/// An error and its causes, `: `-separated, each cause once (transports repeat their
/// source's text in their own).
#[cfg(any(feature = "bigtable", feature = "hbase-rpc", feature = "hbase-http"))]
pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = s.source();
    }
    text
}

/// Every family a table needs: `family` (the values'), then `families` (without repeats).
pub(crate) fn all_families(family: &str, families: &[String]) -> Vec<String> {
    let mut out = vec![family.to_string()];
    for f in families {
        if !out.contains(f) {
            out.push(f.clone());
        }
    }
    out
}

#[cfg(all(
    test,
    any(feature = "hbase-rpc", all(feature = "hbase", feature = "kerberos"))
))]
mod tests {
    #[test]
    fn host_of_strips_the_port_and_brackets() {
        assert_eq!(super::host_of("rs1.example.com:16020"), "rs1.example.com");
        assert_eq!(super::host_of("[::1]:9090"), "::1");
        assert_eq!(super::host_of("localhost"), "localhost");
    }
}
