//! The guide: rowkey chapter by chapter, in the order a user meets it. Every example in it is
//! compiled and run as a doctest (the network stores' examples are compiled only where they
//! need a server). Start with the README's first example, then:
//!
//! 1. [`keys`]: the derive, every attribute, record-type tables, what is checked at compile
//!    time and at run time;
//! 2. [`scans`]: prefix scans from the key type, split points, `explain`;
//! 3. [`stores`]: the embedded store (fjall), the in-memory one, your own, typed tables, the
//!    main job;
//! 4. [`rows`]: rows of typed columns, rows as columns, the size budget, column families
//!    (versions, TTL) and the table around the rows;
//! 5. [`access_paths`]: counters, conditional writes, lookup tables, second access paths
//!    (indexes) and re-keying a table;
//! 6. [`hbase`]: the native HBase store (HBase's own RPC) and the Thrift2 store, the local
//!    HBase the tests use, interop with HBase's Java client, the measured rates;
//! 7. [`bigtable`]: Cloud Bigtable and its emulator, credentials and TLS;
//! 8. [`secured`]: Kerberos, TLS and the HTTP gateway on secured HBase clusters;
//! 9. [`phoenix`]: tables Apache Phoenix reads and writes, declared in Rust;
//! 10. [`existing_tables`]: tables Java code already fills, declared byte for byte;
//! 11. [`operating`]: the `rowkey` command line, keys explained in the field, regions;
//! 12. [`sql`]: SQL and Arrow over rowkey tables (the `rowkey-datafusion` and `rowkey-arrow`
//!     crates);
//! 13. [`performance`]: what rowkey costs against hand-written code and the peers, measured.
//!
//! The byte format itself is FORMAT.md in the repository (and the crate's package).

#[doc = include_str!("../guide/keys.md")]
pub mod keys {}
#[doc = include_str!("../guide/scans.md")]
pub mod scans {}
#[doc = include_str!("../guide/stores.md")]
pub mod stores {}
#[doc = include_str!("../guide/rows.md")]
pub mod rows {}
#[doc = include_str!("../guide/access_paths.md")]
pub mod access_paths {}
#[doc = include_str!("../guide/hbase.md")]
pub mod hbase {}
#[doc = include_str!("../guide/bigtable.md")]
pub mod bigtable {}
#[doc = include_str!("../guide/secured.md")]
pub mod secured {}
#[doc = include_str!("../guide/phoenix.md")]
pub mod phoenix {}
#[doc = include_str!("../guide/existing_tables.md")]
pub mod existing_tables {}
#[doc = include_str!("../guide/operating.md")]
pub mod operating {}
// Its examples need DataFusion, which this crate does not depend on: they run as
// `rowkey-datafusion`'s doctests instead.
#[cfg_attr(not(doctest), doc = include_str!("../guide/sql.md"))]
pub mod sql {}
#[doc = include_str!("../guide/performance.md")]
pub mod performance {}
