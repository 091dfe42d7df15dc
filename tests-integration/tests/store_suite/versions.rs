//! Versions as data on the HBase stores: explicit timestamps, reads of a count, a time range
//! and as of a time, and what a family's `VERSIONS`, `TTL`, `MIN_VERSIONS` and
//! `KEEP_DELETED_CELLS` keep, before and after a major compaction. One suite, run on the
//! Thrift2 store (`tests/hbase.rs`) and on the native store (`tests/hbase_rpc.rs`), so that
//! the two cannot drift.

use std::time::Duration;

use rowkey::family::{Family, KeepDeleted};
use rowkey::store::{CellVersion, Versions};

/// What the suite needs of a store: the operations both HBase stores offer.
pub trait Versioned {
    fn create_table_with(&self, families: &[Family]);
    fn write_version(&self, key: &[u8], family: &str, qualifier: &[u8], value: &[u8], ts: i64);
    fn read_versions(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        v: &Versions,
    ) -> Vec<CellVersion>;
    fn delete_row(&self, key: &[u8]);
    fn drop_table(&self);
}

#[allow(unused_macros)] // used by the builds with an HBase store
macro_rules! versioned {
    ($store:ty) => {
        impl Versioned for $store {
            fn create_table_with(&self, families: &[Family]) {
                <$store>::create_table_with(self, families, &[]).unwrap()
            }
            fn write_version(&self, key: &[u8], f: &str, q: &[u8], value: &[u8], ts: i64) {
                <$store>::write_version(self, key, f, q, value, ts).unwrap()
            }
            fn read_versions(
                &self,
                key: &[u8],
                f: &str,
                q: &[u8],
                v: &Versions,
            ) -> Vec<CellVersion> {
                <$store>::read_versions(self, key, f, q, v).unwrap()
            }
            fn delete_row(&self, key: &[u8]) {
                rowkey::store::Store::delete_row(self, key).unwrap()
            }
            fn drop_table(&self) {
                <$store>::drop_table(self).unwrap()
            }
        }
    };
}

#[cfg(feature = "hbase")]
versioned!(rowkey::store::HbaseStore);
#[cfg(feature = "hbase-rpc")]
versioned!(rowkey::store::HbaseRpcStore);

/// HBase's clock, near enough: the test's.
fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// The suite, on a store whose table does not exist yet; `compact` flushes and major-compacts
/// the table (`None`: that part is skipped).
pub fn behave_as_hbase_documents<S: Versioned>(store: &S, compact: Option<impl Fn()>) {
    store.create_table_with(&[
        // Five versions, kept forever.
        Family::new("d").versions(5),
        // Cells live two seconds.
        Family::new("t").ttl_secs(2),
        // Three versions, two seconds, the newest kept past them.
        Family::new("m").versions(3).min_versions(1).ttl_secs(2),
        // Deleted cells stay readable as of a time before the delete.
        Family::new("k").versions(3).keep_deleted(KeepDeleted::True),
    ]);
    let v = |s: &rowkey::store::CellVersion| (s.timestamp_ms, s.value.to_vec());

    // Versions as data: explicit timestamps, newest first, a count, a time range, as of.
    let t0 = now_ms() - 60_000;
    for i in 0..4 {
        store.write_version(b"r", "d", b"q", format!("v{i}").as_bytes(), t0 + i * 1000);
    }
    let all = store.read_versions(b"r", "d", b"q", &Versions::latest(10));
    assert_eq!(
        all.iter().map(v).collect::<Vec<_>>(),
        (0..4)
            .rev()
            .map(|i| (t0 + i * 1000, format!("v{i}").into_bytes()))
            .collect::<Vec<_>>(),
        "every version, newest first, with its timestamp"
    );
    assert_eq!(
        store
            .read_versions(b"r", "d", b"q", &Versions::latest(2))
            .len(),
        2
    );
    let as_of = store.read_versions(b"r", "d", b"q", &Versions::as_of(t0 + 1500));
    assert_eq!(
        as_of.iter().map(v).collect::<Vec<_>>(),
        [(t0 + 1000, b"v1".to_vec())]
    );
    let window = store.read_versions(
        b"r",
        "d",
        b"q",
        &Versions::between(t0 + 1000, t0 + 3000, 10),
    );
    assert_eq!(
        window.iter().map(|s| s.timestamp_ms).collect::<Vec<_>>(),
        [t0 + 2000, t0 + 1000]
    );

    // TTL and min versions, on HBase's clock: written now, gone (or reduced) after the TTL.
    let now = now_ms();
    store.write_version(b"r", "t", b"q", b"short", now);
    for i in 0..3 {
        store.write_version(b"r", "m", b"q", format!("m{i}").as_bytes(), now + i);
    }
    assert_eq!(
        store
            .read_versions(b"r", "t", b"q", &Versions::latest(1))
            .len(),
        1
    );
    assert_eq!(
        store
            .read_versions(b"r", "m", b"q", &Versions::latest(10))
            .len(),
        3
    );
    std::thread::sleep(Duration::from_millis(3500));
    assert!(
        store
            .read_versions(b"r", "t", b"q", &Versions::latest(1))
            .is_empty(),
        "past its TTL a cell is gone at read"
    );
    let kept = store.read_versions(b"r", "m", b"q", &Versions::latest(10));
    assert_eq!(
        kept.iter().map(v).collect::<Vec<_>>(),
        [(now + 2, b"m2".to_vec())],
        "MIN_VERSIONS keeps the newest past the TTL"
    );

    // KEEP_DELETED_CELLS: a read as of before the delete still sees the value; in a family
    // without it, the delete hides it.
    let before = now_ms() - 10_000;
    store.write_version(b"x", "k", b"q", b"kept", before);
    store.write_version(b"x", "d", b"q", b"hidden", before);
    store.delete_row(b"x");
    assert!(store
        .read_versions(b"x", "k", b"q", &Versions::latest(1))
        .is_empty());
    let seen = store.read_versions(b"x", "k", b"q", &Versions::as_of(before));
    assert_eq!(
        seen.iter().map(v).collect::<Vec<_>>(),
        [(before, b"kept".to_vec())]
    );
    assert!(store
        .read_versions(b"x", "d", b"q", &Versions::as_of(before))
        .is_empty());

    // The same after a flush and a major compaction, which apply TTL, versions and deletes to
    // the store files: nothing that was hidden comes back, and what the families keep stays.
    let Some(compact) = compact else {
        eprintln!("SKIPPED the compaction part: no control port (ROWKEY_HBASE_CONTROL)");
        return;
    };
    compact();
    let read = |row: &[u8], family: &str, which: Versions| -> Vec<(i64, Vec<u8>)> {
        store
            .read_versions(row, family, b"q", &which)
            .iter()
            .map(v)
            .collect()
    };
    assert!(read(b"r", "t", Versions::latest(1)).is_empty());
    assert_eq!(
        read(b"r", "m", Versions::latest(10)),
        [(now + 2, b"m2".to_vec())]
    );
    assert_eq!(read(b"r", "d", Versions::latest(10)).len(), 4);
    assert_eq!(
        read(b"x", "k", Versions::as_of(before)),
        [(before, b"kept".to_vec())],
        "KEEP_DELETED_CELLS keeps the deleted cell through a major compaction"
    );
    assert!(read(b"x", "d", Versions::as_of(before)).is_empty());
    store.drop_table();
}
