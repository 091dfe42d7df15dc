//! What only the network backends (`bigtable/`, `hbase/`) share, written once: retries with
//! backoff and deadlines ([`RetryPolicy`]), paging of streamed scans (`pages`), batch
//! bookkeeping and splitting (`batch`), and the checks a store makes once (`checked`).

pub(crate) mod batch;
pub(crate) mod checked;
pub(crate) mod pages;
pub(crate) mod retry;

pub use retry::RetryPolicy;
