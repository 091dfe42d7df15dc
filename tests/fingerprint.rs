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
