//! What only the network backends (`bigtable/`, `hbase/`) share, written once: one error type
//! ([`NetError`]), the options every backend takes ([`NetOptions`]), retries with backoff and
//! deadlines ([`RetryPolicy`]), paging of streamed scans (`pages`), batch bookkeeping and
//! splitting (`batch`), and the checks a store makes once (`checked`).

pub(crate) mod batch;
pub(crate) mod checked;
mod error;
mod options;
pub(crate) mod pages;
pub(crate) mod retry;

pub use error::NetError;
pub use options::NetOptions;
pub use retry::RetryPolicy;

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
