//! Pre-split points: evenly spaced over what each leading field can actually hold, at salt
//! bucket boundaries for salted keys, and every region receives keys.

mod common;

use common::Event;
use rowkey::{fmt::hbase_create, RowKey};

fn count_per_region(splits: &[rowkey::bytes::Bytes], keys: &[Vec<u8>]) -> Vec<usize> {
    let mut counts = vec![0usize; splits.len() + 1];
    for k in keys {
        let region = splits.partition_point(|s| s.as_ref() <= k.as_slice());
        counts[region] += 1;
    }
    counts
}

#[test]
fn salted_keys_split_at_bucket_boundaries() {
    let same: Vec<Vec<u8>> = Event::split_points(16).iter().map(|b| b.to_vec()).collect();
    assert_eq!(same, (1..16u8).map(|b| vec![b]).collect::<Vec<_>>());
    let fewer: Vec<Vec<u8>> = Event::split_points(4).iter().map(|b| b.to_vec()).collect();
    assert_eq!(fewer, [vec![4], vec![8], vec![12]]);
    // More regions than buckets: each bucket halved over the user id's domain.
    let more = Event::split_points(32);
    assert_eq!(more.len(), 31);
    assert_eq!(&more[0][..], [0x00, 0x80, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(&more[1][..], [0x01]);
    assert!(more.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn salted_writes_spread_evenly_over_regions() {
    let keys: Vec<Vec<u8>> = (0..16_000u64)
        .map(|i| {
            Event {
                user_id: i,
                event_type: "e".into(),
                ts: 1,
            }
            .to_bytes()
            .unwrap()
            .to_vec()
        })
        .collect();
    let counts = count_per_region(&Event::split_points(16), &keys);
    let (min, max) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
    assert!(*min > 800 && *max < 1200, "{counts:?}");
}

#[derive(RowKey)]
struct ById {
    id: u16,
    name: String,
}

#[test]
fn unsalted_keys_split_over_the_leading_fields_domain() {
    let splits: Vec<Vec<u8>> = ById::split_points(4).iter().map(|b| b.to_vec()).collect();
    assert_eq!(
        splits,
        [vec![0x40, 0x00], vec![0x80, 0x00], vec![0xC0, 0x00]]
    );
    let keys: Vec<Vec<u8>> = (0..=u16::MAX)
        .step_by(7)
        .map(|id| {
            ById {
                id,
                name: String::new(),
            }
            .to_bytes()
            .unwrap()
            .to_vec()
        })
        .collect();
    let counts = count_per_region(&ById::split_points(4), &keys);
    assert!(
        counts.iter().all(|&c| c.abs_diff(keys.len() / 4) < 10),
        "{counts:?}"
    );
}

#[derive(RowKey)]
#[rowkey(allow_hotspot)]
struct Newest {
    #[reverse_ts]
    ts: u64,
}

#[test]
fn reverse_timestamps_split_within_their_real_range() {
    // `i64::MAX - ts` never sets the top bit: splitting the whole 8-byte space would leave
    // the upper regions empty (the guide's hex-split lesson).
    let splits = Newest::split_points(4);
    assert_eq!(&splits[0][..], [0x20, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(&splits[2][..], [0x60, 0, 0, 0, 0, 0, 0, 0]);
    let keys: Vec<Vec<u8>> = (0..4000u64)
        .map(|i| {
            Newest {
                ts: i * (i64::MAX as u64 / 4000),
            }
            .to_bytes()
            .unwrap()
            .to_vec()
        })
        .collect();
    let counts = count_per_region(&splits, &keys);
    assert!(counts.iter().all(|&c| c.abs_diff(1000) < 10), "{counts:?}");
}

#[derive(RowKey)]
struct Flag {
    on: bool,
    n: u8,
}

#[test]
fn small_domains_give_fewer_splits_rather_than_empty_regions() {
    let splits = Flag::split_points(4);
    assert_eq!(splits.len(), 1, "a bool lead has two prefixes: {splits:?}");
    assert_eq!(&splits[0][..], [0x01]);
}

#[test]
fn hbase_shell_line() {
    let line = hbase_create("events", "d", &Event::split_points(4));
    assert_eq!(
        line,
        r#"create 'events', 'd', SPLITS => ["\x04", "\x08", "\x0C"]"#
    );
}

/// A record-type enum whose tag leads (no entity prefix), with tags far apart.
#[derive(RowKey, Debug, Clone, PartialEq)]
enum Sparse {
    #[tag(0)]
    Low { id: u32 },
    #[tag(9)]
    High { id: u32 },
    #[tag(200)]
    Top { id: u32 },
}

#[test]
fn a_leading_tag_splits_over_the_tags_that_exist() {
    let splits = Sparse::split_points(4);
    assert_eq!(splits, [vec![9u8], vec![200]]);
    let keys: Vec<Vec<u8>> = (0..300u32)
        .map(|i| match i % 3 {
            0 => Sparse::Low { id: i },
            1 => Sparse::High { id: i },
            _ => Sparse::Top { id: i },
        })
        .map(|k| k.to_bytes().unwrap().to_vec())
        .collect();
    let counts = count_per_region(&splits, &keys);
    assert!(
        counts.iter().all(|&c| c == 100),
        "every region holds keys: {counts:?}"
    );
    assert_eq!(Sparse::split_points(2), [vec![9u8]]);
}

#[test]
fn absurd_region_counts_are_clamped_not_a_panic() {
    let splits = Event::split_points(usize::MAX);
    assert_eq!(splits.len(), rowkey::split::MAX_REGIONS - 1);
    assert!(splits.windows(2).all(|w| w[0] < w[1]));
    assert!(Event::split_points(0).is_empty());
    assert_eq!(Sparse::split_points(usize::MAX).len(), 2);
}
