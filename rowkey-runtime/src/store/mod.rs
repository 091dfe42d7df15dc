//! Stores: the operations rowkey needs of a sorted key-value store, in two flavours, and typed
//! tables over them whose salted scans merge the buckets back into key order.
//!
//! - [`Store`] is blocking: [`MemStore`], the embedded LSM store `FjallStore` (feature
//!   `fjall`), and any async store through `Blocking`; [`Table`] is typed over it.
//! - `AsyncStore` (feature `async`) is the async one: [`MemStore`], the Cloud Bigtable
//!   store `AsyncBigtableStore` (feature `bigtable`) and the HBase stores `AsyncHbaseStore`
//!   (feature `hbase`, through HBase's Thrift2 gateway) and `AsyncHbaseRpcStore` (feature
//!   `hbase-rpc`, HBase's own RPC); `AsyncTable` is typed over it.
//!
//! Every store keeps rows of cells too (family, qualifier, value; the model is
//! `crate::cell`'s): Bigtable and HBase natively, memory and fjall in the composite layout
//! (FORMAT.md §7). [`CellTable`] (and `AsyncCellTable`) holds typed rows (a
//! [`RowKey`](crate::RowKey) and a [`RowValue`](crate::RowValue)); [`WideTable`] (and
//! `AsyncWideTable`) holds rows as columns (a [`RowsAsColumns`](crate::RowsAsColumns) key, one
//! cell per record). The names without a link are behind the features named.
//!
//! **Where things are.** As `object_store` lays out its trait, backends, `client/` and
//! `integration.rs`, the folder says what a file is:
//!
//! - backends, one file or folder each, beside the traits they implement (`traits.rs`):
//!   `memory.rs`, `fjall.rs`, `blocking.rs` (the blocking face over any async store, which owns
//!   its runtime on a thread of its own, so it never panics inside or outside a runtime),
//!   `composite.rs` (the layout key-value stores keep cells in), `bigtable/`, `hbase/`. A
//!   backend only translates requests and streams;
//! - `net/`: what only the network backends share, written once: retries and deadlines
//!   (`RetryPolicy`), paging of streamed scans, batch bookkeeping and splitting, the
//!   once-per-store checks. It is compiled only with a network backend;
//! - `table/`: the typed tables, each blocking table beside its async twin (`raw.rs` and
//!   `raw_async.rs` for [`Table`] and `AsyncTable`, `cells*.rs`, `wide*.rs`), the salted
//!   merge they share (`merge.rs`), indexes and re-keying.
//!
//! A new backend goes beside `memory.rs` (and, if it is networked, uses `net/`); a new typed
//! table goes in `table/`, with its twin. `tests-integration/tests/store_suite/` states the behaviours once and
//! runs them against every store.
//!
//! **Observability.** The stores speak `tracing` (target `rowkey::store`): each network call is
//! a `debug` span (store and operation), each retry a `warn` event with its cause and backoff,
//! a batch with unconfirmed rows a `warn` event, a fjall bulk load a `debug` event; `rekey`
//! reports its start, each checkpoint and its end as `info` events (target `rowkey::rekey`).
//! Nothing is printed unless the application installs a subscriber.
//!
//! The encoding core does not depend on this module; the stores' dependencies come with their
//! cargo features.

mod atomic;
mod check;
mod composite;
mod memory;
mod skip;
mod table;
mod traits;

#[cfg(feature = "async")]
mod blocking;
#[cfg(feature = "fjall")]
mod fjall;
#[cfg(any(feature = "bigtable", feature = "hbase", feature = "hbase-rpc"))]
mod net;

#[cfg(feature = "bigtable")]
mod bigtable;
#[cfg(feature = "hbase")]
mod hbase;
#[cfg(feature = "hbase-rpc")]
mod hbase_rpc;
#[cfg(feature = "async")]
mod versioned;

#[doc(hidden)]
pub use crate::cell::LentCells;
pub use crate::cell::{Cell, CellRow, CellVersion, Column, Columns, RowWrite, Versions};
#[cfg(feature = "async")]
pub use atomic::AsyncAtomicStore;
pub use atomic::{counter_bytes, counter_value, AtomicError, AtomicStore, COUNTER_WIDTH};
pub use check::{check_layout, check_schema, check_schema_with_progress};
#[cfg(feature = "async")]
pub use check::{check_layout_async, check_schema_async};
#[cfg(feature = "async")]
pub use composite::CellStream;
pub use composite::{CellError, CellScan, MalformedCell};
pub use memory::{MemScan, MemStore};
#[cfg(feature = "async")]
pub use skip::SkipStream;
pub use skip::{SkipScan, SkipStats};
pub use table::{
    rekey, verify_rekey, CellMerged, CellTable, DualWriteError, DualWriter, IndexProgress,
    IndexReport, IndexStep, IndexedTable, LentRows, Merged, PhoenixRows, PhoenixRowsError,
    PhoenixScan, QueryRows, RekeyDiff, RekeyError, RekeyFailure, RekeyOptions, RekeyReport, Table,
    TableError, UidError, UidReport, UidTable, Unconverted, WideMerged, WideTable, UID_ID_FAMILY,
    UID_NAME_FAMILY,
};
#[cfg(feature = "async")]
pub use table::{
    rekey_async, verify_rekey_async, AsyncCellTable, AsyncDualWriter, AsyncIndexedTable,
    AsyncTable, AsyncUidTable, AsyncWideTable, CellMergedStream, LentStream, MergedStream,
    QueryStream, RawMergedStream, WideMergedStream,
};
#[cfg(feature = "async")]
pub use traits::{AsyncStore, KeyStream, RowStream};
pub use traits::{BatchError, KeyScan, LentRow, LentScan, Row, Store};
#[cfg(feature = "async")]
pub use versioned::AsyncVersions;

#[cfg(feature = "fjall")]
pub use self::fjall::FjallStore;

#[cfg(feature = "async")]
pub use blocking::{Blocking, BlockingScan};
/// The network stores' client metrics: their names, labels and meaning.
#[cfg(any(feature = "bigtable", feature = "hbase", feature = "hbase-rpc"))]
pub use net::metrics;
#[cfg(all(feature = "kerberos", any(feature = "hbase", feature = "hbase-rpc")))]
pub use net::{Kerberos, Protection};
#[cfg(any(feature = "bigtable", feature = "hbase", feature = "hbase-rpc"))]
pub use net::{NetError, NetOptions, RetryPolicy};

#[cfg(feature = "bigtable")]
pub use bigtable::{
    AccessToken, AsyncBigtableStore, BigtableConfig, BigtableError, BigtableStore, Credentials,
    ServiceAccountKey, TokenError, TokenFuture, TokenSource,
};
#[cfg(any(feature = "bigtable", feature = "hbase-rpc", feature = "hbase-http"))]
pub use net::{ClientIdentity, Tls};

#[cfg(feature = "hbase")]
pub use hbase::{AsyncHbaseStore, HbaseConfig, HbaseError, HbaseStore};
#[cfg(all(feature = "hbase-rpc", feature = "kerberos"))]
pub use hbase_rpc::ZkSasl;
#[cfg(feature = "hbase-rpc")]
pub use hbase_rpc::{
    AddressMap, AsyncHbaseRpcStore, BulkLoadReport, BulkProgress, HFileCell, HFileCellType,
    HFileCompression, HFileError, HFileOptions, HFileSummary, HFileWriter, HbaseRpcConfig,
    HbaseRpcError, HbaseRpcStore, Staging, ZooKeeper,
};
#[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
pub use net::hbase_rules::Region;
#[cfg(any(feature = "hbase", feature = "hbase-rpc"))]
pub use net::HbaseSite;
#[cfg(feature = "hbase-http")]
pub use net::HttpProxy;

/// The two HBase stores cannot drift: the Thrift2 store and the native store offer the same
/// public operations, blocking and async, and implement the same store traits. An operation
/// added to one fails this test until the other has it too.
#[cfg(all(test, feature = "hbase", feature = "hbase-rpc"))]
mod hbase_twins {
    use std::collections::BTreeSet;

    /// The public methods of the inherent `impl <target> {` blocks in `sources`, and the
    /// traits implemented for `target` (`impl Trait for <target> {`).
    fn surface(sources: &[&str], target: &str) -> (BTreeSet<String>, BTreeSet<String>) {
        let (mut methods, mut traits) = (BTreeSet::new(), BTreeSet::new());
        for src in sources {
            let mut inside = false;
            for line in src.lines() {
                if let Some(head) = line.strip_prefix("impl") {
                    let head = head.trim_end_matches('{').trim();
                    inside = head == target;
                    if let Some(t) = head.strip_suffix(&format!(" for {target}")) {
                        traits.insert(t.to_string());
                    }
                    continue;
                }
                if line.starts_with('}') {
                    inside = false;
                }
                let rest = line
                    .strip_prefix("    pub async fn ")
                    .or_else(|| line.strip_prefix("    pub fn "));
                if let (true, Some(rest)) = (inside, rest) {
                    let end = rest
                        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .unwrap_or(rest.len());
                    methods.insert(rest[..end].to_string());
                }
            }
        }
        (methods, traits)
    }

    #[test]
    fn both_hbase_stores_have_the_same_operations() {
        let thrift = [include_str!("hbase/mod.rs"), include_str!("hbase/scan.rs")];
        let native = [
            include_str!("hbase_rpc/mod.rs"),
            include_str!("hbase_rpc/admin.rs"),
            include_str!("hbase_rpc/scan.rs"),
            include_str!("hbase_rpc/bulk.rs"),
        ];
        // What only HBase's own RPC can do: the Thrift2 gateway has no bulk load call and no
        // region load call (`region_loads`, which a hotspot report samples, and the sample of
        // the keys written since a time that goes with it).
        let native_only = [
            "bulk_load",
            "bulk_load_with_progress",
            "region_loads",
            "scan_keys_since",
        ];
        for (thrift_target, native_target) in [
            ("Blocking<AsyncHbaseStore>", "Blocking<AsyncHbaseRpcStore>"),
            ("AsyncHbaseStore", "AsyncHbaseRpcStore"),
        ] {
            let (tm, tt) = surface(&thrift, thrift_target);
            let (mut nm, nt) = surface(&native, native_target);
            for only in native_only {
                assert!(nm.remove(only), "{native_target} lost `{only}`");
            }
            assert!(tm.len() >= 15, "{thrift_target}: the parser found {tm:?}");
            assert_eq!(
                tm.difference(&nm).collect::<Vec<_>>(),
                Vec::<&String>::new(),
                "{thrift_target} has operations {native_target} lacks"
            );
            assert_eq!(
                nm.difference(&tm).collect::<Vec<_>>(),
                Vec::<&String>::new(),
                "{native_target} has operations {thrift_target} lacks"
            );
            assert_eq!(
                tt, nt,
                "{thrift_target} and {native_target} implement other traits"
            );
        }
    }
}
