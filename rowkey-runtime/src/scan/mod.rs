//! Prefix-scan ranges: [`KeyRange`], [`KeyRanges`], and the state behind the generated typed
//! builders (`T::scan()`).
//!
//! A scan fixes a leading prefix of the key's fields to values and optionally bounds the next
//! field. Because every field's encoding is order-preserving and prefix-free, "the first k fields
//! equal these values" is exactly "the key starts with these bytes", and a range on the next
//! field is a byte range after them. Three details make it exact:
//!
//! - the end of a prefix is its *successor*: trailing `0xFF` bytes dropped, then the last byte
//!   incremented (`[0x20, 0xFF]` ends at `[0x21]`; all-`0xFF` has no end), never `prefix + 0x00`;
//! - a bound outside the field's domain (a `fixed(4)` bound of 6 bytes, a `reverse_ts` bound
//!   below zero) is first rewritten as the equivalent bound on the values that can exist;
//! - on a descending field (`desc`, `reverse_ts`) the logical bounds swap ends.
//!
//! A salted key's scan is one range when the prefix covers the salted fields (the bucket is
//! known) and one range per bucket, in bucket order, otherwise.

use core::marker::PhantomData;
use core::ops::{Bound, Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};
use std::fmt;

mod buf;
mod build;
mod constraint;
pub mod dyn_query;
pub mod pushdown;
pub mod query;

pub use buf::KeyBuf;
#[doc(hidden)]
pub use buf::ScanBuf;
#[doc(hidden)]
pub use build::{ranges, ScanState, WriteScan};

use crate::sink::Sink;

/// A half-open key range with the semantics of HBase's `Scan.withStartRow(start)` /
/// `withStopRow(end)`: `start` inclusive, `end` exclusive, no end meaning the end of the table.
#[derive(Clone, Default)]
pub struct KeyRange {
    start: KeyBuf,
    /// Meaningful only when `has_end`. The builders write both ends in place, from the first
    /// field to the last, and decide only at the end whether the range has one.
    end: KeyBuf,
    has_end: bool,
}

impl KeyRange {
    /// A range from `start` (inclusive) to `end` (exclusive, `None` = end of table).
    pub fn new(start: &[u8], end: Option<&[u8]>) -> Self {
        KeyRange {
            start: KeyBuf::from_slice(start),
            end: KeyBuf::from_slice(end.unwrap_or_default()),
            has_end: end.is_some(),
        }
    }

    /// The first key of the range (inclusive); empty means the start of the table.
    #[inline]
    pub fn start(&self) -> &[u8] {
        self.start.as_slice()
    }

    /// The key the range stops before (exclusive); `None` means to the end of the table.
    #[inline]
    pub fn end(&self) -> Option<&[u8]> {
        self.has_end.then(|| self.end.as_slice())
    }

    /// Whether `key` lies in the range.
    #[inline]
    pub fn contains(&self, key: &[u8]) -> bool {
        self.start() <= key && self.end().is_none_or(|e| key < e)
    }

    /// The keys in both this range and `other`; `None` when they share none (a walk's range
    /// narrowed to a region).
    pub fn intersection(&self, other: &KeyRange) -> Option<KeyRange> {
        let start = self.start().max(other.start());
        let end = match (self.end(), other.end()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        end.is_none_or(|e| start < e)
            .then(|| KeyRange::new(start, end))
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.has_end && key_cmp(self.end.as_slice(), self.start.as_slice()).is_le()
    }
}

impl PartialEq for KeyRange {
    fn eq(&self, other: &Self) -> bool {
        self.start() == other.start() && self.end() == other.end()
    }
}

impl Eq for KeyRange {}

/// Byte-string order without a `memcmp` call: keys are short, so 16 bytes at a time as
/// big-endian integers, the zero-padded tail compared the same way, then length (a proper prefix
/// sorts first).
#[inline]
fn key_cmp(a: &[u8], b: &[u8]) -> core::cmp::Ordering {
    let (mut a, mut b) = (a, b);
    while let (Some((x, ra)), Some((y, rb))) =
        (a.split_first_chunk::<16>(), b.split_first_chunk::<16>())
    {
        if x != y {
            return u128::from_be_bytes(*x).cmp(&u128::from_be_bytes(*y));
        }
        (a, b) = (ra, rb);
    }
    // Zero-padded without a variable-length copy (a `memcpy` call).
    let pad = |t: &[u8]| u128::from_be_bytes(crate::codec::pad::<16>(t));
    pad(a).cmp(&pad(b)).then(a.len().cmp(&b.len()))
}

impl fmt::Debug for KeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.end() {
            Some(e) => write!(f, "[{:?}, {:?})", self.start, KeyBuf::from_slice(e)),
            None => write!(f, "[{:?}, end of table)", self.start),
        }
    }
}

/// The ranges of one scan, in key order: one for an unsalted key or a prefix that decides the
/// salt bucket, one per bucket otherwise, none when no key can match. The first range is kept
/// inline, so a one-range scan over keys of up to 62 bytes allocates nothing.
#[derive(Clone, Default)]
pub struct KeyRanges {
    /// A range only when `has_first`; the builders construct it in place.
    first: KeyRange,
    has_first: bool,
    rest: Vec<KeyRange>,
    salted: bool,
}

/// Iterator over `&KeyRange`, in key order.
pub type Iter<'a> =
    core::iter::Chain<core::slice::Iter<'a, KeyRange>, core::slice::Iter<'a, KeyRange>>;

impl KeyRanges {
    /// No range yet; `salted` says whether the key has a salt byte.
    #[inline(always)]
    fn empty(salted: bool) -> Self {
        KeyRanges {
            salted,
            ..KeyRanges::default()
        }
    }

    fn from_iter(ranges: impl Iterator<Item = KeyRange>, salted: bool) -> Self {
        let mut out = KeyRanges::empty(salted);
        for r in ranges {
            out.push(r);
        }
        out
    }

    fn push(&mut self, r: KeyRange) {
        if self.has_first {
            self.rest.push(r);
        } else {
            self.first = r;
            self.has_first = true;
        }
    }

    /// How many ranges.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.has_first) + self.rest.len()
    }

    /// Whether no key can match.
    #[inline]
    pub fn is_empty(&self) -> bool {
        !self.has_first
    }

    /// The ranges, in key order.
    pub fn iter(&self) -> Iter<'_> {
        let first: &[KeyRange] = if self.has_first {
            core::slice::from_ref(&self.first)
        } else {
            &[]
        };
        first.iter().chain(self.rest.iter())
    }

    /// Whether any range contains `key`.
    pub fn contains(&self, key: &[u8]) -> bool {
        self.iter().any(|r| r.contains(key))
    }

    /// The same scan continued strictly after `key` (the last key a previous page returned), as
    /// in the HBase guide's list-data case study. For a salted key, each bucket continues after
    /// the same unsalted key, which is how a merged, logically ordered listing pages.
    pub fn after(&self, key: &[u8]) -> KeyRanges {
        let ranges = self.iter().filter_map(|r| {
            let mut next = KeyBuf::new();
            match (self.salted, r.start().first()) {
                (true, Some(&bucket)) => {
                    next.push(bucket);
                    next.put(key.get(1..).unwrap_or(&[]));
                }
                _ => next.put(key),
            }
            // The smallest key strictly greater than `next` is `next` followed by 0x00.
            next.push(0);
            let mut range = r.clone();
            if next.as_slice() > r.start() {
                range.start = next;
            }
            (!range.is_empty()).then_some(range)
        });
        KeyRanges::from_iter(ranges, self.salted)
    }
}

impl PartialEq for KeyRanges {
    fn eq(&self, other: &Self) -> bool {
        self.salted == other.salted && self.iter().eq(other.iter())
    }
}

impl Eq for KeyRanges {}

impl fmt::Debug for KeyRanges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a KeyRanges {
    type Item = &'a KeyRange;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl IntoIterator for KeyRanges {
    type Item = KeyRange;
    type IntoIter =
        core::iter::Chain<core::option::IntoIter<KeyRange>, std::vec::IntoIter<KeyRange>>;
    fn into_iter(self) -> Self::IntoIter {
        self.has_first
            .then_some(self.first)
            .into_iter()
            .chain(self.rest)
    }
}

/// Clones a scan builder's value when its type is `Clone`. The generated `Clone` impls bound
/// their fields through this type rather than with `Option<Field>: Clone`, because a bound
/// that names no generic parameter is checked where the impl is declared (rust-lang/rust#48214)
/// and would refuse a key nesting a non-`Clone` key; the lifetime makes the bound generic, so
/// such a builder is simply not `Clone`.
pub struct CloneIf<'a, T>(PhantomData<(&'a (), T)>);

/// See [`CloneIf`].
pub trait CloneOf<T> {
    /// A clone of `v`.
    fn clone_of(v: &T) -> T;
}

impl<T: Clone> CloneOf<T> for CloneIf<'_, T> {
    #[inline(always)]
    fn clone_of(v: &T) -> T {
        v.clone()
    }
}

/// What a step method on an ordered field returns for an argument `A`: the next step's builder
/// `N` after a value, the [`ScanRange`] of builder `S` after a range.
pub type ScanThen<A, T, N, S, C, const BUCKETS: u16> =
    <A as ScanArg<T>>::Out<N, ScanRange<S, C, T, BUCKETS>>;

/// The body of a generated step method on an ordered field: a value moves the builder `s` on
/// to its next step `N` (`next` sets the field's slot and builds it); a range ends the scan as a
/// [`ScanRange`]. Written once here, so each key field costs the derive one call.
#[inline(always)]
pub fn scan_step<A, T, N, S, C, const BUCKETS: u16>(
    arg: A,
    s: S,
    next: impl FnOnce(S, T) -> N,
) -> ScanThen<A, T, N, S, C, BUCKETS>
where
    A: ScanArg<T>,
{
    arg.dispatch(s, next, ScanRange::__new)
}

/// A scan ended by a range on its last field; [`ScanRange::ranges`] gives its key ranges.
///
/// It keeps the builder `W` and the logical bounds on the field (of type `T`, encoded by `C`)
/// and writes the ranges only when asked, straight into the value `ranges` returns.
pub struct ScanRange<W, C, T, const BUCKETS: u16> {
    builder: W,
    lo: Bound<T>,
    hi: Bound<T>,
    codec: PhantomData<fn() -> C>,
}

impl<W, C, T, const BUCKETS: u16> ScanRange<W, C, T, BUCKETS> {
    /// The scan `builder` has fixed, then `lo..hi` on the next field. Called by the generated
    /// builders.
    #[doc(hidden)]
    #[inline(always)]
    pub fn __new(builder: W, lo: Bound<T>, hi: Bound<T>) -> Self {
        ScanRange {
            builder,
            lo,
            hi,
            codec: PhantomData,
        }
    }
}

impl<W: WriteScan<BUCKETS>, C: crate::codec::Codec<T>, T, const BUCKETS: u16>
    ScanRange<W, C, T, BUCKETS>
{
    /// The key ranges of the scan, in key order.
    // Always inlined: which kind each bound is (`a..b`, `a..=b`, `a..`) is known only at the
    // call site, and folding it there is what removes the other kinds' code.
    #[inline(always)]
    #[must_use]
    pub fn ranges(self) -> KeyRanges {
        build::range::<BUCKETS, W, C, T>(&self.builder, self.lo, self.hi)
    }
}

impl<W: Clone, C, T: Clone, const BUCKETS: u16> Clone for ScanRange<W, C, T, BUCKETS> {
    #[inline]
    fn clone(&self) -> Self {
        ScanRange::__new(self.builder.clone(), self.lo.clone(), self.hi.clone())
    }
}

/// What a scan-builder method accepts for a field whose values are `V`: a value (the prefix
/// continues with the next field) or, as the last call, a range of values.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is neither a value nor a range of `{V}`",
    note = "pass the field's value (integers by value, `&str` for text, `&[u8]` for bytes) or a range of it: `a..b`, `a..=b`, `a..`, `..b`, `..=b`, `..`"
)]
pub trait ScanArg<V> {
    /// The builder's next state: `N` after a value, `D` after a range.
    type Out<N, D>;

    /// Calls `eq` with a value, or `range` with the logical bounds of a range.
    fn dispatch<S, N, D>(
        self,
        state: S,
        eq: impl FnOnce(S, V) -> N,
        range: impl FnOnce(S, Bound<V>, Bound<V>) -> D,
    ) -> Self::Out<N, D>;
}

/// A single value for a scan-builder method on a field that does not keep order (`#[reverse]`,
/// `#[hash]`): such a field can be fixed to a value but not ranged over.
#[diagnostic::on_unimplemented(
    message = "this field's bytes do not keep its values' order (`#[reverse]`, `#[hash]`; a signed or float `#[java]` field, whose negative values sort after positive ones; `#[java(utf)]`, whose length sorts first; in a text key, unpadded or signed `#[decimal]`/`#[hex]` digits, and text followed by the delimiter), so a scan can fix it to one value but not range over it",
    label = "expected one `{V}`"
)]
pub trait ScanValue<V> {
    /// The value.
    fn into_value(self) -> V;
}

macro_rules! range_arg {
    ($($ty:ty => |$r:ident| $bounds:expr;)*) => {$(
        impl<V> ScanArg<V> for $ty {
            type Out<N, D> = D;
            #[inline]
            fn dispatch<S, N, D>(
                self,
                state: S,
                _eq: impl FnOnce(S, V) -> N,
                range: impl FnOnce(S, Bound<V>, Bound<V>) -> D,
            ) -> D {
                let $r = self;
                let (lo, hi) = $bounds;
                range(state, lo, hi)
            }
        }
    )*};
}
range_arg! {
    Range<V> => |r| (Bound::Included(r.start), Bound::Excluded(r.end));
    RangeFrom<V> => |r| (Bound::Included(r.start), Bound::Unbounded);
    RangeTo<V> => |r| (Bound::Unbounded, Bound::Excluded(r.end));
    RangeToInclusive<V> => |r| (Bound::Unbounded, Bound::Included(r.end));
    (Bound<V>, Bound<V>) => |r| (r.0, r.1);
    RangeInclusive<V> => |r| {
        let (lo, hi) = r.into_inner();
        (Bound::Included(lo), Bound::Included(hi))
    };
    RangeFull => |r| {
        let RangeFull = r;
        (Bound::Unbounded, Bound::Unbounded)
    };
}

/// Implements [`ScanArg`] for a value type: `[generics] V, Self => |s| value;`.
macro_rules! __scan_arg {
    ($([$($g:tt)*] $v:ty, $ty:ty => |$s:ident| $e:expr;)*) => {$(
        impl<$($g)*> crate::__private::ScanArg<$v> for $ty {
            type Out<__N, __D> = __N;
            #[inline]
            fn dispatch<__S, __N, __D>(
                self,
                state: __S,
                eq: impl ::core::ops::FnOnce(__S, $v) -> __N,
                _range: impl ::core::ops::FnOnce(__S, ::core::ops::Bound<$v>, ::core::ops::Bound<$v>) -> __D,
            ) -> __N {
                let $s = self;
                eq(state, $e)
            }
        }
    )*};
}

// A key is a value of its own in an enclosing key's scan builder (a field that nests it): one
// blanket impl, not one per derived key.
__scan_arg! { [K: crate::RowKey] K, K => |s| s; }

/// [`ScanArg`] and [`ScanValue`] for the runtime's value types.
macro_rules! value_arg {
    ($([$($g:tt)*] $v:ty, $ty:ty => |$s:ident| $e:expr;)*) => {$(
        __scan_arg! { [$($g)*] $v, $ty => |$s| $e; }

        impl<$($g)*> ScanValue<$v> for $ty {
            #[inline]
            fn into_value(self) -> $v {
                let $s = self;
                $e
            }
        }
    )*};
}

value_arg! {
    [] u8, u8 => |s| s;
    [] u16, u16 => |s| s;
    [] u32, u32 => |s| s;
    [] u64, u64 => |s| s;
    [] u128, u128 => |s| s;
    [] i8, i8 => |s| s;
    [] i16, i16 => |s| s;
    [] i32, i32 => |s| s;
    [] i64, i64 => |s| s;
    [] i128, i128 => |s| s;
    [] bool, bool => |s| s;
    [] f32, f32 => |s| s;
    [] f64, f64 => |s| s;
    ['a] &'a str, &'a str => |s| s;
    ['a] &'a str, &'a String => |s| s.as_str();
    [] String, String => |s| s;
    ['a] &'a [u8], &'a [u8] => |s| s;
    ['a] &'a [u8], &'a Vec<u8> => |s| s.as_slice();
    ['a, const N: usize] &'a [u8], &'a [u8; N] => |s| s.as_slice();
    [] Vec<u8>, Vec<u8> => |s| s;
    [const N: usize] [u8; N], [u8; N] => |s| s;
    [T] Option<T>, Option<T> => |s| s;
    [T, const N: usize] crate::Hashed<T, N>, crate::Hashed<T, N> => |s| s;
}

#[cfg(test)]
mod key_cmp_tests {
    use super::{key_cmp, KeyBuf};
    use proptest::prelude::*;

    /// The successor by definition: drop trailing 0xFF, increment the last byte.
    fn successor_by_bytes(bytes: &[u8]) -> Option<Vec<u8>> {
        let mut v = bytes.to_vec();
        while v.last() == Some(&0xFF) {
            v.pop();
        }
        *v.last_mut()? += 1;
        Some(v)
    }

    proptest! {
        /// The word-at-a-time successor agrees with the definition, runs of 0xFF across the
        /// eight-byte window and all-0xFF keys included, on the stack and on the heap.
        #[test]
        fn successor_is_the_definition(bytes in prop::collection::vec(prop_oneof![Just(0u8), Just(0xFE), Just(0xFF), any::<u8>()], 0..80)) {
            let mut b = KeyBuf::from_slice(&bytes);
            let ok = b.make_successor();
            match successor_by_bytes(&bytes) {
                Some(want) => {
                    prop_assert!(ok);
                    prop_assert_eq!(b.as_slice(), &want[..]);
                }
                None => {
                    prop_assert!(!ok);
                    prop_assert_eq!(b.as_slice(), &bytes[..]);
                }
            }
        }

        #[test]
        fn key_cmp_is_byte_order(a in prop::collection::vec(prop_oneof![Just(0u8), Just(0xFF), any::<u8>()], 0..40),
                                 b in prop::collection::vec(prop_oneof![Just(0u8), Just(0xFF), any::<u8>()], 0..40)) {
            prop_assert_eq!(key_cmp(&a, &b), a.cmp(&b));
            let mut c = a.clone();
            c.extend_from_slice(&b);
            prop_assert_eq!(key_cmp(&a, &c), a.cmp(&c));
        }
    }
}
