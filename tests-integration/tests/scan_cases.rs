//! The classic row-key scan bugs, each as a named test: `"10"` matching `"100"`, `prefix + 0x00`
//! stop rows, negative bounds after positive ones, reverse-timestamp bounds, type maxima, salt
//! fan-out, impossible values, and builders that branch. (The property tests are `scan.rs`.)

mod scan_keys;

use rowkey::RowKey;
use scan_keys::{Plain, SaltFirst, SaltSecond};

#[test]
fn ten_does_not_match_one_hundred() {
    #[derive(RowKey)]
    struct User {
        user: String,
        n: u8,
    }
    let r = User::scan().user("10").ranges();
    assert!(r.contains(
        &User {
            user: "10".into(),
            n: 0
        }
        .to_bytes()
        .unwrap()
    ));
    assert!(!r.contains(
        &User {
            user: "100".into(),
            n: 0
        }
        .to_bytes()
        .unwrap()
    ));
    assert!(!r.contains(
        &User {
            user: "1".into(),
            n: 0
        }
        .to_bytes()
        .unwrap()
    ));
}

#[test]
fn stop_row_is_the_prefix_successor_not_plus_zero() {
    #[derive(RowKey)]
    struct Raw {
        a: u8,
        b: u8,
        c: u8,
    }
    let r = Raw::scan().a(0x20).b(0xFF).ranges();
    let only = r.iter().next().unwrap();
    assert_eq!(only.start(), [0x20, 0xFF]);
    assert_eq!(only.end(), Some(&[0x21][..]));
    let all_ff = Raw::scan().a(0xFF).b(0xFF).ranges();
    assert_eq!(
        all_ff.iter().next().unwrap().end(),
        None,
        "all-0xFF prefix runs to the end of the table"
    );
}

#[test]
fn negative_bounds_sort_before_positive() {
    #[derive(RowKey)]
    struct T {
        v: i32,
    }
    let r = T::scan().v(-10..5).ranges();
    for (v, inside) in [
        (-11, false),
        (-10, true),
        (-1, true),
        (0, true),
        (4, true),
        (5, false),
        (i32::MIN, false),
    ] {
        assert_eq!(r.contains(&T { v }.to_bytes().unwrap()), inside, "{v}");
    }
}

#[test]
fn empty_string_prefix_is_a_value_not_a_wildcard() {
    #[derive(RowKey)]
    struct T {
        s: String,
        n: u8,
    }
    let r = T::scan().s("").ranges();
    assert!(r.contains(
        &T {
            s: String::new(),
            n: 3
        }
        .to_bytes()
        .unwrap()
    ));
    assert!(!r.contains(
        &T {
            s: "a".into(),
            n: 3
        }
        .to_bytes()
        .unwrap()
    ));
}

#[test]
fn reverse_ts_range_means_t0_to_t1() {
    #[derive(RowKey)]
    struct Log {
        host: String,
        #[reverse_ts]
        ts: u64,
    }
    let r = Log::scan().host("h").ts(100..200).ranges();
    for (ts, inside) in [
        (99, false),
        (100, true),
        (150, true),
        (199, true),
        (200, false),
    ] {
        assert_eq!(
            r.contains(
                &Log {
                    host: "h".into(),
                    ts
                }
                .to_bytes()
                .unwrap()
            ),
            inside,
            "{ts}"
        );
    }
}

/// A bound every stored value satisfies gives the same bytes as no bound at all, whichever end
/// of the range it lands on, and a bound no stored value satisfies gives no range.
#[test]
#[allow(clippy::reversed_empty_ranges)] // an empty range is one of the cases
fn reverse_ts_bounds_outside_the_stored_domain() {
    #[derive(RowKey)]
    struct Log {
        host: u64,
        #[reverse_ts]
        ts: u64,
    }
    let max = i64::MAX as u64;
    let scan = || Log::scan().host(u64::MAX);
    // `ts >= 0` sets the stop row (reverse order): the prefix's successor, none here.
    assert_eq!(scan().ts(0..500).ranges(), scan().ts(..500).ranges());
    assert_eq!(scan().ts(0..).ranges(), scan().ranges());
    // `ts <= i64::MAX` sets the start row: the prefix.
    assert_eq!(scan().ts(7..=max).ranges(), scan().ts(7..).ranges());
    assert_eq!(scan().ts(7..u64::MAX).ranges(), scan().ts(7..).ranges());
    assert_eq!(
        Log::scan().host(3).ts(0..).ranges(),
        Log::scan().host(3).ranges()
    );
    assert_eq!(
        Log::scan().host(3).ts(0..=max).ranges(),
        Log::scan().host(3).ranges()
    );
    for empty in [scan().ts(max + 1..), scan().ts(5..0), scan().ts(5..5)] {
        assert!(empty.ranges().is_empty());
    }
    assert!(scan().ts(..0).ranges().is_empty());
}

#[test]
fn inclusive_upper_bound_at_the_type_maximum() {
    #[derive(RowKey)]
    struct T {
        a: u16,
        b: u16,
    }
    let r = T::scan().a(5..=u16::MAX).ranges();
    assert!(r.contains(
        &T {
            a: u16::MAX,
            b: u16::MAX
        }
        .to_bytes()
        .unwrap()
    ));
    assert!(!r.contains(&T { a: 4, b: u16::MAX }.to_bytes().unwrap()));
    assert_eq!(r.iter().next().unwrap().end(), None);
}

#[test]
fn salt_fans_out_only_when_the_prefix_cannot_decide_it() {
    let all = SaltFirst::scan().ranges();
    assert_eq!(all.len(), 4);
    let starts: Vec<u8> = all.iter().map(|r| r.start()[0]).collect();
    assert_eq!(
        starts,
        [0, 1, 2, 3],
        "one range per bucket, in bucket order"
    );
    let one = SaltFirst::scan().a(7).ranges();
    assert_eq!(one.len(), 1);
    let k = SaltFirst {
        a: 7,
        b: "x".into(),
        c: 1,
        d: vec![],
    };
    assert_eq!(
        one.iter().next().unwrap().start()[0],
        k.salt_bucket().unwrap()
    );
    // A range on the salted field itself cannot decide the bucket.
    assert_eq!(SaltFirst::scan().a(1..3).ranges().len(), 4);
    // Salted on the second field: the first alone is not enough.
    assert_eq!(SaltSecond::scan().a(1).ranges().len(), 3);
    assert_eq!(SaltSecond::scan().a(1).b(2).ranges().len(), 1);
}

#[test]
fn whole_table_of_an_unsalted_key_is_one_unbounded_range() {
    let all = Plain::scan().ranges();
    assert_eq!(all.len(), 1);
    let r = all.iter().next().unwrap();
    assert_eq!((r.start(), r.end()), (&[][..], None));
}

#[test]
fn impossible_values_match_nothing() {
    // Longer than `fixed(3)`: no stored key holds it.
    assert!(SaltFirst::scan().a(1).b("abcd").ranges().is_empty());
    // A reverse timestamp range entirely below zero.
    assert!(SaltSecond::scan()
        .a(0)
        .b(0)
        .c(&[][..])
        .d(..0)
        .ranges()
        .is_empty());
}

#[test]
fn a_builder_clones_to_branch_a_shared_prefix() {
    let user = SaltSecond::scan().a(3).b(-9);
    let text = String::from("xy");
    let base = Plain::scan().a(-1).b(text.as_str());
    // A scan ended by a range is kept, not yet written: it clones too.
    let ranged = base.clone().ts(5..9);
    for (branch, direct) in [
        (
            ranged.clone().ranges(),
            Plain::scan().a(-1).b("xy").ts(5..9).ranges(),
        ),
        (
            ranged.ranges(),
            Plain::scan().a(-1).b("xy").ts(5..9).ranges(),
        ),
        (
            base.clone().ts(5..9).ranges(),
            Plain::scan().a(-1).b("xy").ts(5..9).ranges(),
        ),
        (
            base.clone().ts(7).ranges(),
            Plain::scan().a(-1).b("xy").ts(7).ranges(),
        ),
        (base.ranges(), Plain::scan().a(-1).b("xy").ranges()),
        (
            user.clone().c(&b"q"[..]).ranges(),
            SaltSecond::scan().a(3).b(-9).c(&b"q"[..]).ranges(),
        ),
        (user.ranges(), SaltSecond::scan().a(3).b(-9).ranges()),
    ] {
        assert_eq!(branch, direct);
    }
    // The branches differ from each other, so the comparison above sees the values.
    assert_ne!(
        Plain::scan().a(-1).b("xy").ts(5..9).ranges(),
        Plain::scan().a(-1).b("xy").ts(7).ranges()
    );
}

#[test]
fn a_key_nesting_a_key_that_is_not_clone_still_scans() {
    // Not `Clone`: the outer builder, which has a slot for an `Inner` value, is then not
    // `Clone` either, and that must not be an error where the builder is declared.
    #[derive(RowKey, PartialEq, Debug)]
    struct Inner {
        a: u16,
    }
    #[derive(RowKey)]
    struct Outer {
        inner: Inner,
        b: u32,
    }
    let r = Outer::scan().inner(Inner { a: 7 }).b(1..3).ranges();
    let key = |a, b| {
        Outer {
            inner: Inner { a },
            b,
        }
        .to_bytes()
        .unwrap()
    };
    assert!(r.contains(&key(7, 1)) && r.contains(&key(7, 2)));
    assert!(!r.contains(&key(7, 3)) && !r.contains(&key(6, 2)));
}
