//! How the generated scan builders turn the values they were given into [`KeyRanges`].
//!
//! A builder keeps only its values. When the scan ends it calls [`ranges`] or [`range`] with
//! itself as a [`WriteScan`]: the builder writes its values, in key order, into a
//! [`ScanState`]; the bound on the last field, the successors and the salt bucket are applied
//! there, and only the finished ends are copied into the returned ranges. The two ends are plain
//! [`InlineBuf`]s for a key type whose keys are at most 62 bytes (the common case: the compiler
//! keeps them in registers), [`KeyBuf`]s otherwise.

use core::ops::Bound;

use super::buf::{InlineBuf, KeyBuf, ScanBuf, INLINE};
use super::{KeyRange, KeyRanges};
use crate::codec::{BoundKind, Codec};
use crate::sink::{Md5Sink, Sink};

/// A scan builder's values, written into a [`ScanState`] in key order. The derive implements it
/// for every builder; not meant to be implemented by hand.
pub trait WriteScan<const BUCKETS: u16> {
    /// The key's `RowKey::MAX_LEN`: no stored key is longer.
    const MAX_LEN: usize;

    /// Writes the values given, in key order; `false` if it stopped early: the scan ends before
    /// the last field, or a value no key can hold was given (then the state says so).
    fn write<B: ScanBuf>(&self, st: &mut ScanState<BUCKETS, B>) -> bool;
}

/// The ends of one scan's first range under construction, and what is known of the salt
/// bucket. `BUCKETS` is the key's salt bucket count (0 for an unsalted key): a constant, so an
/// unsalted key's scans carry no fan-out code.
pub struct ScanState<const BUCKETS: u16, B> {
    /// A salted key's ends start with a slot for the bucket byte, filled in at the end.
    start: B,
    end: B,
    /// The salt bucket, once the prefix decides it.
    bucket: Option<u8>,
    /// A value no key can hold was given (a `fixed` value too long, a negative `reverse_ts`),
    /// so the scan matches nothing.
    impossible: bool,
    /// The last field fixed takes the rest of the key (`#[rest]`): the scan is that one key,
    /// its end the key followed by `00`, not its successor (which takes in its extensions).
    whole: bool,
}

/// The ranges of every key whose leading fields are the values `w` holds.
///
/// A key type whose keys all fit in an `InlineBuf` (`MAX_LEN` up to 62 bytes) is written into
/// `InlineBuf`s, any other into `KeyBuf`s: a constant choice, so each key type compiles one
/// path.
#[inline(always)]
pub fn ranges<const BUCKETS: u16, W: WriteScan<BUCKETS>>(w: &W) -> KeyRanges {
    if W::MAX_LEN <= INLINE {
        ranges_in::<BUCKETS, W, InlineBuf>(w)
    } else {
        ranges_in::<BUCKETS, W, KeyBuf>(w)
    }
}

#[inline(always)]
fn ranges_in<const BUCKETS: u16, W: WriteScan<BUCKETS>, B: ScanBuf>(w: &W) -> KeyRanges {
    let mut st = ScanState::<BUCKETS, B>::new();
    if !w.write(&mut st) && st.impossible {
        return KeyRanges::empty(BUCKETS != 0);
    }
    // A bare prefix's range is never empty: its end is the prefix's successor (or none); a
    // whole key's is the key followed by `00`.
    let edges = if st.whole {
        Edges::WHOLE
    } else {
        Edges::PREFIX
    };
    st.finish(edges, false)
}

/// The ranges of the keys whose leading fields are the values `w` holds and whose next field
/// (encoded by `C`) lies between the logical bounds `lo` and `hi`. Buffers as for [`ranges`].
#[inline(always)]
pub fn range<const BUCKETS: u16, W: WriteScan<BUCKETS>, C: Codec<T>, T>(
    w: &W,
    lo: Bound<T>,
    hi: Bound<T>,
) -> KeyRanges {
    if W::MAX_LEN <= INLINE {
        range_in::<BUCKETS, W, InlineBuf, C, T>(w, lo, hi)
    } else {
        range_in::<BUCKETS, W, KeyBuf, C, T>(w, lo, hi)
    }
}

#[inline(always)]
fn range_in<const BUCKETS: u16, W: WriteScan<BUCKETS>, B: ScanBuf, C: Codec<T>, T>(
    w: &W,
    lo: Bound<T>,
    hi: Bound<T>,
) -> KeyRanges {
    let mut st = ScanState::<BUCKETS, B>::new();
    if !w.write(&mut st) && st.impossible {
        return KeyRanges::empty(BUCKETS != 0);
    }
    match st.bound::<C, T>(&lo, &hi) {
        Some((edges, check)) => st.finish(edges, check),
        None => KeyRanges::empty(BUCKETS != 0),
    }
}

/// Which ends of a range are the successors of the bytes written for them.
#[derive(Clone, Copy)]
struct Edges {
    start_successor: bool,
    end_successor: bool,
}

impl Edges {
    /// A bare prefix: it starts at its bytes and ends at their successor.
    const PREFIX: Edges = Edges {
        start_successor: false,
        end_successor: true,
    };

    /// A whole key (the last field `#[rest]`): it starts at its bytes and ends before its
    /// bytes followed by `00`, both written.
    const WHOLE: Edges = Edges {
        start_successor: false,
        end_successor: false,
    };
}

/// Writes every byte to both ends of a range: the fixed prefix is the same in both.
struct Both<'a, B>(&'a mut B, &'a mut B);

impl<B: Sink> Sink for Both<'_, B> {
    #[inline(always)]
    fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        self.0.put_array(bytes);
        self.1.put_array(bytes);
    }

    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        self.0.put(bytes);
        self.1.put(bytes);
    }
}

impl<const BUCKETS: u16, B: ScanBuf> ScanState<BUCKETS, B> {
    /// The state of an empty prefix.
    #[inline(always)]
    fn new() -> Self {
        let mut st = ScanState {
            start: B::empty(),
            end: B::empty(),
            bucket: None,
            impossible: false,
            whole: false,
        };
        if BUCKETS != 0 {
            st.both().put_array([0]);
        }
        st
    }

    #[inline(always)]
    fn both(&mut self) -> Both<'_, B> {
        Both(&mut self.start, &mut self.end)
    }

    #[inline(always)]
    fn overflowed(&self) -> bool {
        self.start.overflowed() || self.end.overflowed()
    }

    /// Fixes the next field to `v`; `false` when no key can hold `v`, so the scan is empty and
    /// the writer should stop.
    #[inline(always)]
    pub fn eq<C: Codec<T>, T: ?Sized>(&mut self, v: &T) -> bool {
        // A prefix longer than an `InlineBuf` is longer than every stored key: none has it.
        let ok = C::write_eq(v, &mut self.both()) && !self.overflowed();
        self.impossible |= !ok;
        if C::TAKES_REST && ok {
            self.end.put_array([0]);
            self.whole = true;
        }
        ok
    }

    /// [`ScanState::eq`] for a builder's slot: `false` when the slot is empty (the scan ends
    /// before this field) or no key can hold its value.
    #[inline(always)]
    pub fn opt<C: Codec<T>, T>(&mut self, v: &Option<T>) -> bool {
        match v {
            Some(v) => self.eq::<C, T>(v),
            None => false,
        }
    }

    /// Called after the salted field is fixed: the prefix now decides the bucket (MD5).
    #[inline]
    pub fn salt_known(&mut self) {
        let mut h = Md5Sink::new();
        h.put(self.start.bytes().get(1..).unwrap_or(&[]));
        self.bucket = Some(crate::salt::bucket(&h.finish(), BUCKETS));
    }

    /// [`ScanState::salt_known`] for a key salted by another strategy.
    #[inline]
    pub fn salt_known_by(&mut self, hash: crate::salt::SaltHash) {
        let prefix = self.start.bytes().get(1..).unwrap_or(&[]);
        self.bucket = Some(crate::salt::bucket_of(hash, prefix, BUCKETS));
    }

    /// Writes the bounds on the next field (logical bounds, swapped for a descending codec);
    /// returns which ends are successors and whether the ends can cross, or `None` when no
    /// value the field can hold is inside a bound.
    #[inline(always)]
    fn bound<C: Codec<T>, T>(&mut self, lo: &Bound<T>, hi: &Bound<T>) -> Option<(Edges, bool)> {
        // Each logical bound sets one byte end, known at compile time: `lo` the start unless
        // the codec is descending. Written as two direct calls (no loop choosing a buffer at
        // run time) so the ends stay in registers.
        let (lo_end, hi_end) = if C::DESCENDING {
            (
                bound_end::<C, T>(&mut self.end, lo, true, false)?,
                bound_end::<C, T>(&mut self.start, hi, false, true)?,
            )
        } else {
            (
                bound_end::<C, T>(&mut self.start, lo, true, true)?,
                bound_end::<C, T>(&mut self.end, hi, false, false)?,
            )
        };
        let (start, end) = if C::DESCENDING {
            (hi_end, lo_end)
        } else {
            (lo_end, hi_end)
        };
        let edges = Edges {
            start_successor: start.unwrap_or(false),
            end_successor: end.unwrap_or(true),
        };
        // Only bounds on both ends, or a start moved past a value, can cross.
        let check = edges.start_successor || (start.is_some() && end.is_some());
        Some((edges, check))
    }

    /// The finished ranges, per bucket as needed.
    #[inline(always)]
    fn finish(&mut self, edges: Edges, check: bool) -> KeyRanges {
        let salted = BUCKETS != 0;
        if self.impossible {
            return KeyRanges::empty(salted);
        }
        let bucket = match (BUCKETS, self.bucket) {
            (0, _) => None,
            (_, Some(b)) => Some(b),
            (_, None) => return fan_out(&self.start, &self.end, BUCKETS, edges, check),
        };
        // The ends are finished where they were written, then copied once, into the result.
        match finish_one(&mut self.start, &mut self.end, bucket, edges, check) {
            Some(has_end) => KeyRanges {
                first: KeyRange {
                    start: self.start.take(),
                    end: self.end.take(),
                    has_end,
                },
                has_first: true,
                rest: Vec::new(),
                salted,
            },
            None => KeyRanges::empty(salted),
        }
    }
}

/// Writes one logical bound on the next field into the byte end `buf` it sets (the start
/// when `byte_start`). Returns `Some(Some(successor))` when the bound constrains the end,
/// `Some(None)` when it does not (with `buf` back at the bare prefix), and `None` when no value
/// the field can hold is inside the bound.
#[inline(always)]
fn bound_end<C: Codec<T>, T>(
    buf: &mut impl ScanBuf,
    bound: &Bound<T>,
    lower: bool,
    byte_start: bool,
) -> Option<Option<bool>> {
    let (value, inclusive) = match bound {
        Bound::Unbounded => return Some(None),
        Bound::Included(v) => (v, true),
        Bound::Excluded(v) => (v, false),
    };
    let len = buf.bytes().len();
    match C::write_bound(value, lower, inclusive, buf) {
        BoundKind::Unbounded => {
            if let (false, Some(w @ ..=16)) = (byte_start, C::FIXED_WIDTH) {
                // An end with no constraint is the prefix's successor, which is also the
                // successor of the prefix followed by `w` 0xFF bytes: written that way, the
                // end has the same length on every path, a constant the successor can use.
                // Up to 16 bytes (the widest integer); a wider field goes back to the prefix.
                buf.truncate(len);
                buf.put(&[0xFF; 16][..w]);
                return Some(Some(true));
            }
        }
        BoundKind::Empty => return None,
        // A start at an included value is the value's bytes; at an excluded one, past every
        // key holding it. An end is the reverse. A bound that overflowed an `InlineBuf` is
        // longer than every stored key, so no key starts with it: a key is below it exactly
        // when it is below the successor of the bytes kept (its first 62), whichever end and
        // inclusion it was.
        kind => {
            return Some(Some(
                buf.overflowed() || byte_start != (kind == BoundKind::Inclusive),
            ))
        }
    }
    // Nothing constrained: back to the bare prefix.
    buf.truncate(len);
    Some(None)
}

/// Turns the bytes written into a range's ends, in place: the salt `bucket` written into the
/// first byte of both, then each end flagged for it replaced by its successor. Returns whether
/// the range has an end, or `None` when no key is left: the start has no successor (it was all
/// `0xFF`), or, when `check` asks, the start is not before the end.
#[inline(always)]
fn finish_one<B: ScanBuf>(
    start: &mut B,
    end: &mut B,
    bucket: Option<u8>,
    edges: Edges,
    check: bool,
) -> Option<bool> {
    if let Some(b) = bucket {
        start.set_first(b);
        end.set_first(b);
    }
    if edges.start_successor && !start.make_successor() {
        return None;
    }
    // An all-0xFF end has no successor: the range runs to the end of the table.
    let has_end = !edges.end_successor || end.make_successor();
    if check && has_end && !start.precedes(end) {
        return None;
    }
    Some(has_end)
}

/// One range per bucket, in bucket order, from the ends written with a bucket slot (one
/// allocation for all but the first).
#[inline(never)]
fn fan_out<B: ScanBuf>(start: &B, end: &B, buckets: u16, edges: Edges, check: bool) -> KeyRanges {
    let mut out = KeyRanges::empty(true);
    out.rest.reserve(usize::from(buckets) - 1);
    for b in 0..buckets {
        let (mut start, mut end) = (start.clone(), end.clone());
        if let Some(has_end) = finish_one(&mut start, &mut end, Some(b as u8), edges, check) {
            out.push(KeyRange {
                start: start.take(),
                end: end.take(),
                has_end,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{Desc, Fixed, MaxLen, Natural, ReverseTs};
    use core::marker::PhantomData;
    use proptest::prelude::{any, Just};

    /// A builder of one field, written with codec `C`.
    struct One<C, T: ?Sized + 'static>(&'static T, PhantomData<C>);

    impl<const BUCKETS: u16, C: Codec<T>, T: ?Sized> WriteScan<BUCKETS> for One<C, T> {
        const MAX_LEN: usize = 300;
        fn write<B: ScanBuf>(&self, st: &mut ScanState<BUCKETS, B>) -> bool {
            st.eq::<C, T>(self.0)
        }
    }

    fn one<C, T: ?Sized>(v: &'static T) -> One<C, T> {
        One(v, PhantomData)
    }

    /// A prefix of one `u16`, short enough for an `InlineBuf`.
    struct Prefix(u16);

    impl<const BUCKETS: u16> WriteScan<BUCKETS> for Prefix {
        const MAX_LEN: usize = 40;
        fn write<B: ScanBuf>(&self, st: &mut ScanState<BUCKETS, B>) -> bool {
            st.eq::<Natural, u16>(&self.0)
        }
    }

    fn bound<T>(v: T, kind: u8) -> Bound<T> {
        match kind % 3 {
            0 => Bound::Unbounded,
            1 => Bound::Included(v),
            _ => Bound::Excluded(v),
        }
    }

    /// The ranges of `p` then `lo..hi` on a field encoded by `C`, built in `InlineBuf`s and in
    /// `KeyBuf`s: they must be the same.
    fn same_in_both<const BUCKETS: u16, C: Codec<T>, T: Clone>(
        p: u16,
        lo: Bound<T>,
        hi: Bound<T>,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let w = Prefix(p);
        let inline = range_in::<BUCKETS, _, InlineBuf, C, T>(&w, lo.clone(), hi.clone());
        let heap = range_in::<BUCKETS, _, KeyBuf, C, T>(&w, lo, hi);
        proptest::prop_assert_eq!(inline, heap);
        let inline = ranges_in::<BUCKETS, _, InlineBuf>(&w);
        proptest::prop_assert_eq!(inline, ranges_in::<BUCKETS, _, KeyBuf>(&w));
        Ok(())
    }

    proptest::proptest! {
        /// The word-wise `InlineBuf` (successor, comparison, the 0xFF-filled free end) builds
        /// exactly the ranges the plain byte-wise `KeyBuf` builds, at the carries and type
        /// limits included, salted (fan-out) or not.
        #[test]
        fn inline_and_heap_buffers_build_the_same_ranges(
            p in proptest::prop_oneof![Just(0u16), Just(0xFF), Just(0xFFFF), any::<u16>()],
            ts in proptest::array::uniform2(proptest::prop_oneof![
                Just(0i64), Just(-1), Just(1), Just(i64::MAX), Just(i64::MIN), any::<i64>()
            ]),
            small in proptest::array::uniform2(proptest::prop_oneof![
                Just(0i16), Just(-1), Just(i16::MAX), Just(i16::MIN), any::<i16>()
            ]),
            byte in proptest::array::uniform2(proptest::prop_oneof![Just(0u8), Just(0xFF), any::<u8>()]),
            text in proptest::array::uniform2(proptest::collection::vec(
                proptest::prop_oneof![Just(0u8), Just(0xFF), any::<u8>()], 0..5
            )),
            kinds in proptest::array::uniform2(0u8..3),
        ) {
            let [k0, k1] = kinds;
            same_in_both::<0, ReverseTs, i64>(p, bound(ts[0], k0), bound(ts[1], k1))?;
            same_in_both::<3, ReverseTs, i64>(p, bound(ts[0], k0), bound(ts[1], k1))?;
            same_in_both::<0, Desc<Natural>, i16>(p, bound(small[0], k0), bound(small[1], k1))?;
            same_in_both::<0, Natural, u8>(p, bound(byte[0], k0), bound(byte[1], k1))?;
            same_in_both::<2, Desc<Natural>, u8>(p, bound(byte[0], k0), bound(byte[1], k1))?;
            let [t0, t1] = text;
            same_in_both::<0, Fixed<3>, Vec<u8>>(p, bound(t0.clone(), k0), bound(t1.clone(), k1))?;
            same_in_both::<0, Desc<Fixed<3>>, Vec<u8>>(p, bound(t0, k0), bound(t1, k1))?;
        }
    }

    /// The builders leave bytes in an end they then drop; equality and `Debug` must not see
    /// them.
    #[test]
    fn a_dropped_end_is_invisible() {
        // The successor of an all-0xFF prefix does not exist: the range runs to the end.
        let r = ranges::<0, _>(&one::<Natural, u16>(&0xFFFF));
        let only = r.iter().next().unwrap();
        assert_eq!(only.end(), None);
        assert_eq!(*only, KeyRange::new(&[0xFF, 0xFF], None));
        assert_eq!(format!("{only:?}"), r"[\xFF\xFF, end of table)");
        assert_eq!(r.len(), 1);
    }

    #[test]
    fn an_impossible_value_gives_no_range_and_keeps_the_salt_flag() {
        let r = ranges::<4, _>(&one::<Fixed<2>, &str>(&"long"));
        assert!(r.is_empty());
        assert_eq!(r, KeyRanges::from_iter(core::iter::empty(), true));
        assert_ne!(r, KeyRanges::default());
    }

    #[test]
    fn fan_out_gives_one_range_per_bucket_in_order() {
        let r = ranges::<3, _>(&one::<Natural, u8>(&7));
        let got: Vec<_> = r
            .iter()
            .map(|r| (r.start().to_vec(), r.end().map(<[u8]>::to_vec)))
            .collect();
        let want: Vec<_> = (0..3u8).map(|b| (vec![b, 7], Some(vec![b, 8]))).collect();
        assert_eq!(got, want);
    }

    /// Keys longer than an `InlineBuf` are built in `KeyBuf`s, exactly, across the boundary.
    #[test]
    fn keys_longer_than_the_inline_buffer_are_built_on_the_heap() {
        for n in [0usize, 1, 55, 56, 57, 58, 59, 60, 61, 62, 63, 100] {
            let text: &'static str = "x".repeat(n).leak();
            let mut enc = vec![0u8]; // the salt slot, bucket 0
            enc.extend_from_slice(text.as_bytes());
            enc.extend_from_slice(&[0, 1]);
            let mut succ = enc.clone();
            *succ.last_mut().unwrap() += 1;
            let text: &'static &'static str = Box::leak(Box::new(text));
            let r = ranges::<2, _>(&one::<MaxLen<200>, &str>(text));
            let got: Vec<_> = r.iter().map(|r| (r.start(), r.end())).collect();
            let mut succ1 = succ.clone();
            succ1[0] = 1;
            let mut enc1 = enc.clone();
            enc1[0] = 1;
            assert_eq!(
                got,
                [(&enc[..], Some(&succ[..])), (&enc1[..], Some(&succ1[..]))],
                "{n} bytes"
            );
            // A range after the text: `u8` in 3..=250 on a key of `[salt][text][u8]`.
            struct Then(&'static &'static str);
            impl WriteScan<0> for Then {
                const MAX_LEN: usize = 300;
                fn write<B: ScanBuf>(&self, st: &mut ScanState<0, B>) -> bool {
                    st.eq::<MaxLen<200>, &str>(self.0)
                }
            }
            let r =
                range::<0, _, Natural, u8>(&Then(text), Bound::Included(3), Bound::Included(250));
            let only = r.iter().next().unwrap();
            let prefix = &enc[1..];
            assert_eq!(only.start(), [prefix, &[3]].concat(), "{n} bytes");
            assert_eq!(
                only.end(),
                Some(&[prefix, &[251]].concat()[..]),
                "{n} bytes"
            );
        }
    }
}
