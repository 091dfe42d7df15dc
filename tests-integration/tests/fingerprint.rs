//! `RowKey::FINGERPRINT`, the immutability guard: the same for every declaration that stores
//! the same bytes, different for every change that alters them, and itself permanent (golden
//! values: a pinned fingerprint must keep compiling in every later version of rowkey). The
//! compile-time side (`#[rowkey(fingerprint = ...)]` failing at the attribute) is in
//! `ui-tests/layout/fingerprint_changed.rs` and `ui-tests/pass/fingerprint_pinned.rs`.

use rowkey::RowKey;

#[derive(RowKey)]
struct Event {
    #[salt(buckets = 16)]
    user_id: u64,
    #[fixed(16)]
    event_type: String,
    #[reverse_ts]
    ts: u64,
}

#[derive(RowKey)]
#[rowkey(prefix(customer))]
enum Row {
    #[tag(1)]
    Customer {
        #[salt(buckets = 8)]
        customer: u64,
    },
    #[tag(2)]
    Order {
        #[salt(buckets = 8)]
        customer: u64,
        #[reverse_ts]
        placed: u64,
    },
}

/// The same record types declared in another order, with other names.
#[derive(RowKey)]
#[rowkey(prefix(cust))]
enum Reordered {
    #[tag(2)]
    Purchase {
        #[salt(buckets = 8)]
        cust: u64,
        #[reverse_ts]
        when: u64,
    },
    #[tag(1)]
    Person {
        #[salt(buckets = 8)]
        cust: u64,
    },
}

#[derive(RowKey)]
struct Point {
    metric: u32,
    #[salt(buckets = 20, hash = "java")]
    tags: String,
    #[timestamp]
    ts: u64,
}

/// `#[timestamp]`, `key_limit` and `max_len` bounds do not change bytes.
#[derive(RowKey)]
#[rowkey(key_limit = 4096)]
struct PointBounded {
    metric: u32,
    #[salt(buckets = 20, hash = "java")]
    #[max_len(64)]
    tags: String,
    ts: u64,
}

#[derive(RowKey)]
struct Point2 {
    metric: u32,
    #[salt(buckets = 20, hash = "java")]
    tags: String,
    #[timestamp]
    #[desc]
    ts: u64,
}

#[test]
fn golden_fingerprints_never_change() {
    // Pinned by users in their code: a change here breaks their builds.
    assert_eq!(Event::FINGERPRINT, 0x898d96ef0000e9bf);
    assert_eq!(Row::FINGERPRINT, 0x991b5691000042b8);
    assert_eq!(Point::FINGERPRINT, 0x19a66aab00005483);
    assert_eq!(Row::FINGERPRINT, Reordered::FINGERPRINT);
    assert_eq!(Point::FINGERPRINT, PointBounded::FINGERPRINT);
    let all = [
        Event::FINGERPRINT,
        Row::FINGERPRINT,
        Point::FINGERPRINT,
        Point2::FINGERPRINT,
    ];
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

// ---- what the fingerprint follows: the resolved type, not its spelling ----

mod spelled {
    /// An alias of the width the key was written with.
    pub type Millis = u64;
}

#[derive(RowKey)]
struct Spelled {
    #[salt(buckets = 4)]
    host: String,
    ts: u64,
}

#[derive(RowKey)]
struct ThroughAlias {
    #[salt(buckets = 4)]
    host: String,
    ts: spelled::Millis,
}

#[derive(RowKey)]
struct OptionalAlias {
    #[salt(buckets = 4)]
    host: String,
    ts: Option<spelled::Millis>,
}

#[derive(RowKey)]
struct OptionalSpelled {
    #[salt(buckets = 4)]
    host: String,
    ts: Option<u64>,
}

#[derive(RowKey)]
struct ReversedAlias {
    #[salt(buckets = 4)]
    host: String,
    #[reverse_ts]
    ts: spelled::Millis,
}

#[derive(RowKey)]
struct ReversedSpelled {
    #[salt(buckets = 4)]
    host: String,
    #[reverse_ts]
    ts: u64,
}

/// Nested keys: two of one layout under different names, one of another.
mod nested {
    use rowkey::RowKey;

    #[derive(RowKey, Debug, Clone, PartialEq)]
    pub struct Inner {
        pub region: u16,
        pub shard: u32,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    pub struct SameLayout {
        pub r: u16,
        pub s: u32,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    pub struct Widened {
        pub region: u32,
        pub shard: u32,
    }
}

#[derive(RowKey)]
struct HoldsInner {
    at: u64,
    inner: nested::Inner,
}

#[derive(RowKey)]
struct HoldsInnerByPath {
    at: u64,
    inner: crate::nested::Inner,
}

#[derive(RowKey)]
struct HoldsSameLayout {
    at: u64,
    inner: nested::SameLayout,
}

#[derive(RowKey)]
struct HoldsWidened {
    at: u64,
    inner: nested::Widened,
}

#[derive(RowKey)]
struct HashedSpelled {
    #[hash(md5, len = 8)]
    id: rowkey::Hashed<u64, 8>,
}

#[derive(RowKey)]
struct HashedAlias {
    #[hash(md5, len = 8)]
    id: rowkey::Hashed<spelled::Millis, 8>,
}

#[test]
fn an_alias_has_the_fingerprint_of_the_type_it_names() {
    assert_eq!(ThroughAlias::FINGERPRINT, Spelled::FINGERPRINT);
    assert_eq!(OptionalAlias::FINGERPRINT, OptionalSpelled::FINGERPRINT);
    assert_eq!(ReversedAlias::FINGERPRINT, ReversedSpelled::FINGERPRINT);
    assert_eq!(HashedAlias::FINGERPRINT, HashedSpelled::FINGERPRINT);
}

/// The same declaration, token for token, before and after `type Millis = u64` became `u32`.
macro_rules! millis_key {
    ($width:ty) => {
        pub type Millis = $width;

        #[derive(rowkey::RowKey)]
        pub struct Key {
            pub ts: Millis,
            pub seq: u32,
        }

        #[derive(rowkey::RowKey)]
        pub struct HashedKey {
            #[hash(md5, len = 8)]
            pub id: rowkey::Hashed<Millis, 8>,
        }

        #[derive(rowkey::RowKey)]
        pub struct Outer {
            pub inner: Key,
        }
    };
}

#[allow(dead_code)] // the keys' scan builders and explain
mod before {
    millis_key!(u64);
}

#[allow(dead_code)]
mod after {
    millis_key!(u32);
}

#[test]
fn an_alias_narrowed_changes_the_fingerprint() {
    // Every stored key goes from 12 to 8 bytes, with the declaration unchanged.
    assert_eq!(before::Key::FIXED_LEN, Some(12));
    assert_eq!(after::Key::FIXED_LEN, Some(8));
    assert_ne!(before::Key::FINGERPRINT, after::Key::FINGERPRINT);
    assert_ne!(
        before::HashedKey::FINGERPRINT,
        after::HashedKey::FINGERPRINT
    );
    // And it reaches a key that nests it.
    assert_ne!(before::Outer::FINGERPRINT, after::Outer::FINGERPRINT);
}

#[test]
fn a_nested_key_counts_by_its_layout_not_its_name_or_path() {
    assert_eq!(HoldsInner::FINGERPRINT, HoldsInnerByPath::FINGERPRINT);
    assert_eq!(HoldsInner::FINGERPRINT, HoldsSameLayout::FINGERPRINT);
    assert_ne!(HoldsInner::FINGERPRINT, HoldsWidened::FINGERPRINT);
    assert_eq!(nested::Inner::FINGERPRINT, nested::SameLayout::FINGERPRINT);
}

/// `#[uid(kind = ...)]` says where a field's values come from, not how they are stored: the
/// bytes and the layout fingerprint are the plain integer's, so a key can gain the attribute
/// without re-keying.
#[test]
fn a_uid_field_is_stored_and_fingerprinted_as_its_integer() {
    #[derive(RowKey)]
    struct Plain {
        host: u16,
        event: u8,
        #[reverse_ts]
        ts: u64,
    }
    #[derive(RowKey)]
    struct WithIds {
        #[uid(kind = "host")]
        host: u16,
        #[uid(kind = "event")]
        event: u8,
        #[reverse_ts]
        ts: u64,
    }
    assert_eq!(WithIds::FINGERPRINT, Plain::FINGERPRINT);
    let (a, b) = (
        Plain {
            host: 513,
            event: 7,
            ts: 9,
        }
        .to_bytes()
        .unwrap(),
        WithIds {
            host: 513,
            event: 7,
            ts: 9,
        }
        .to_bytes()
        .unwrap(),
    );
    assert_eq!(a, b);
    assert_eq!(&b[..3], [2, 1, 7]);
    assert_eq!(
        WithIds::SCHEMA.fields[0].attributes,
        ["uid(kind = \"host\")"]
    );
}
