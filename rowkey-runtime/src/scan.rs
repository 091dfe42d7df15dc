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

use core::ops::{Bound, Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};
use std::fmt;

use crate::codec::{BoundKind, Codec};
use crate::sink::{Md5Sink, Sink};

/// Bytes kept inline up to this length: ranges over keys this short allocate nothing.
const INLINE: usize = 62;

/// A key-sized byte buffer that stays on the stack up to 62 bytes (64 bytes in all).
#[derive(Clone)]
pub struct KeyBuf(Repr);

#[derive(Clone)]
enum Repr {
    Inline(Inline),
    Heap(Vec<u8>),
}

/// Data first and 8-aligned, so 8-byte field writes and whole-buffer copies stay aligned
/// (a misaligned layout costs store-forwarding stalls on every range built).
#[derive(Clone, Copy)]
#[repr(C, align(8))]
struct Inline {
    data: [u8; INLINE],
    len: u8,
}

impl KeyBuf {
    /// An empty buffer.
    #[inline]
    pub const fn new() -> Self {
        KeyBuf(Repr::Inline(Inline {
            data: [0; INLINE],
            len: 0,
        }))
    }

    /// A buffer holding `bytes`.
    pub fn from_slice(bytes: &[u8]) -> Self {
        let mut b = KeyBuf::new();
        b.put(bytes);
        b
    }

    /// The bytes.
    #[inline(always)]
    pub fn as_slice(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline(Inline { len, data }) => &data[..usize::from(*len).min(INLINE)],
            Repr::Heap(v) => v,
        }
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Repr::Inline(Inline { len, data }) => &mut data[..usize::from(*len).min(INLINE)],
            Repr::Heap(v) => v,
        }
    }

    /// The number of bytes.
    #[inline(always)]
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Inline(Inline { len, .. }) => usize::from(*len),
            Repr::Heap(v) => v.len(),
        }
    }

    /// Whether there are no bytes.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Overwrites the first byte (a salted key's bucket slot).
    #[inline(always)]
    fn set_first(&mut self, b: u8) {
        if let Some(first) = self.as_mut_slice().first_mut() {
            *first = b;
        }
    }

    /// Appends one byte.
    #[inline]
    pub fn push(&mut self, b: u8) {
        self.put_array([b]);
    }

    /// Shortens to `len` bytes.
    #[inline]
    pub fn truncate(&mut self, new_len: usize) {
        match &mut self.0 {
            Repr::Inline(Inline { len, .. }) => {
                if new_len < usize::from(*len) {
                    *len = new_len as u8;
                }
            }
            Repr::Heap(v) => v.truncate(new_len),
        }
    }

    /// The smallest byte string greater than every string that starts with these bytes, or
    /// `None` when there is none (empty, or all `0xFF`).
    #[inline]
    pub fn successor(mut self) -> Option<KeyBuf> {
        let bytes = self.as_mut_slice();
        let mut n = bytes.len();
        while n > 0 {
            if bytes[n - 1] != 0xFF {
                bytes[n - 1] += 1;
                self.truncate(n);
                return Some(self);
            }
            n -= 1;
        }
        None
    }
}

impl Default for KeyBuf {
    fn default() -> Self {
        KeyBuf::new()
    }
}

impl Sink for KeyBuf {
    #[inline(always)]
    fn put_array<const N: usize>(&mut self, bytes: [u8; N]) {
        // A constant-length copy stays in registers; the general path handles the spill.
        if let Repr::Inline(Inline { len, data }) = &mut self.0 {
            let at = usize::from(*len);
            if let Some(dst) = data.get_mut(at..at + N) {
                dst.copy_from_slice(&bytes);
                *len = (at + N) as u8;
                return;
            }
        }
        self.put(&bytes);
    }

    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        match &mut self.0 {
            Repr::Inline(Inline { len, data }) => {
                let at = usize::from(*len);
                if let Some(dst) = data.get_mut(at..at + bytes.len()) {
                    dst.copy_from_slice(bytes);
                    *len = (at + bytes.len()) as u8;
                } else {
                    let mut v = Vec::with_capacity(at + bytes.len());
                    v.extend_from_slice(&data[..at]);
                    v.extend_from_slice(bytes);
                    self.0 = Repr::Heap(v);
                }
            }
            Repr::Heap(v) => v.extend_from_slice(bytes),
        }
    }
}

impl PartialEq for KeyBuf {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for KeyBuf {}

impl fmt::Debug for KeyBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::fmt::binary(self.as_slice()))
    }
}

/// A half-open key range with the semantics of HBase's `Scan.withStartRow(start)` /
/// `withStopRow(end)`: `start` inclusive, `end` exclusive, no end meaning the end of the table.
#[derive(Clone, PartialEq, Eq)]
pub struct KeyRange {
    start: KeyBuf,
    end: Option<KeyBuf>,
}

impl KeyRange {
    /// A range from `start` (inclusive) to `end` (exclusive, `None` = end of table).
    pub fn new(start: &[u8], end: Option<&[u8]>) -> Self {
        KeyRange {
            start: KeyBuf::from_slice(start),
            end: end.map(KeyBuf::from_slice),
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
        self.end.as_ref().map(KeyBuf::as_slice)
    }

    /// Whether `key` lies in the range.
    #[inline]
    pub fn contains(&self, key: &[u8]) -> bool {
        self.start() <= key && self.end().is_none_or(|e| key < e)
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.end().is_some_and(|e| key_cmp(e, self.start()).is_le())
    }
}

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
    let pad = |t: &[u8]| {
        let mut w = [0u8; 16];
        let n = t.len().min(16);
        w[..n].copy_from_slice(&t[..n]);
        u128::from_be_bytes(w)
    };
    pad(a).cmp(&pad(b)).then(a.len().cmp(&b.len()))
}

impl fmt::Debug for KeyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.end {
            Some(e) => write!(f, "[{:?}, {:?})", self.start, e),
            None => write!(f, "[{:?}, end of table)", self.start),
        }
    }
}

/// The ranges of one scan, in key order: one for an unsalted key or a prefix that decides the
/// salt bucket, one per bucket otherwise, none when no key can match. The first range is kept
/// inline, so a one-range scan over keys of up to 64 bytes allocates nothing.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct KeyRanges {
    first: Option<KeyRange>,
    rest: Vec<KeyRange>,
    salted: bool,
}

/// Iterator over `&KeyRange`, in key order.
pub type Iter<'a> =
    core::iter::Chain<core::option::Iter<'a, KeyRange>, core::slice::Iter<'a, KeyRange>>;

impl KeyRanges {
    fn from_iter(ranges: impl Iterator<Item = KeyRange>, salted: bool) -> Self {
        let mut out = KeyRanges {
            first: None,
            rest: Vec::new(),
            salted,
        };
        for r in ranges {
            out.push(r);
        }
        out
    }

    fn push(&mut self, r: KeyRange) {
        if self.first.is_none() {
            self.first = Some(r);
        } else {
            self.rest.push(r);
        }
    }

    /// How many ranges.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.first.is_some()) + self.rest.len()
    }

    /// Whether no key can match.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.first.is_none()
    }

    /// The ranges, in key order.
    pub fn iter(&self) -> Iter<'_> {
        self.first.iter().chain(self.rest.iter())
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
            let start = if next.as_slice() > r.start() {
                next
            } else {
                r.start.clone()
            };
            let range = KeyRange {
                start,
                end: r.end.clone(),
            };
            (!range.is_empty()).then_some(range)
        });
        KeyRanges::from_iter(ranges, self.salted)
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
        self.first.into_iter().chain(self.rest)
    }
}

/// One end of a scan: these bytes (a salted key's first byte is the bucket's slot), or their
/// successor.
#[derive(Clone)]
struct Edge {
    bytes: KeyBuf,
    successor: bool,
}

impl Edge {
    /// The edge's key in `bucket` (a salted key's slot byte set), or `None` for the successor
    /// of an all-0xFF key.
    #[inline(always)]
    fn finish(mut self, bucket: Option<u8>) -> Option<KeyBuf> {
        // (`truncate` to a length inside the inline buffer keeps it inline.)
        if let Some(b) = bucket {
            self.bytes.set_first(b);
        }
        if self.successor {
            self.bytes.successor()
        } else {
            Some(self.bytes)
        }
    }
}

/// The bytes of the fields fixed so far and what is known of the salt bucket. The generated
/// builders carry one; it is not meant to be used directly.
#[derive(Clone)]
pub struct ScanState {
    /// A salted key's prefix starts with a slot for the bucket byte, filled in at the end.
    prefix: KeyBuf,
    buckets: u16,
    bucket: Option<u8>,
    /// A value no key can hold was given (a `fixed` value too long, a negative `reverse_ts`):
    /// the scan matches nothing.
    impossible: bool,
}

impl ScanState {
    /// The state of an empty prefix; `buckets` is 0 for an unsalted key.
    #[inline]
    pub fn new(buckets: u16) -> Self {
        let mut prefix = KeyBuf::new();
        if buckets != 0 {
            prefix.push(0);
        }
        ScanState {
            prefix,
            buckets,
            bucket: None,
            impossible: false,
        }
    }

    /// Fixes the next field to `v`.
    #[inline]
    pub fn eq<C: Codec<T>, T: ?Sized>(mut self, v: &T) -> Self {
        if !C::write_eq(v, &mut self.prefix) {
            self.impossible = true;
        }
        self
    }

    /// Called after the salted field is fixed: the prefix now decides the bucket.
    #[inline]
    pub fn salt_known(mut self) -> Self {
        let mut h = Md5Sink::new();
        h.put(self.prefix.as_slice().get(1..).unwrap_or(&[]));
        self.bucket = Some(crate::salt::bucket(&h.finish(), self.buckets));
        self
    }

    /// Bounds the next field (logical bounds; swapped for a descending codec) and ends the scan.
    #[inline]
    pub fn range<C: Codec<T>, T>(self, lo: Bound<T>, hi: Bound<T>) -> ScanRange {
        let mut impossible = self.impossible;
        let mut bounded = 0u8;
        let mut start = Edge {
            bytes: self.prefix.clone(),
            successor: false,
        };
        let mut end = Edge {
            bytes: self.prefix,
            successor: true,
        };
        for (bound, lower) in [(lo, true), (hi, false)] {
            let (value, inclusive) = match &bound {
                Bound::Unbounded => continue,
                Bound::Included(v) => (v, true),
                Bound::Excluded(v) => (v, false),
            };
            // The edge of the byte range this logical bound sets.
            let byte_start = lower != C::DESCENDING;
            let edge = if byte_start { &mut start } else { &mut end };
            let len = edge.bytes.len();
            match C::write_bound(value, lower, inclusive, &mut edge.bytes) {
                BoundKind::Unbounded => {}
                BoundKind::Empty => impossible = true,
                kind => {
                    // A start at an included value is the value's bytes; at an excluded one,
                    // past every key holding it. An end is the reverse.
                    edge.successor = byte_start != (kind == BoundKind::Inclusive);
                    bounded += 1;
                    continue;
                }
            }
            // Nothing constrained (or nothing can match): back to the bare prefix.
            edge.bytes.truncate(len);
        }
        ScanRange {
            state: ScanState {
                impossible,
                prefix: KeyBuf::new(),
                ..self
            },
            start,
            end,
            bounded,
        }
    }

    /// The ranges of every key whose leading fields are the ones fixed so far.
    #[inline]
    pub fn ranges(self) -> KeyRanges {
        let start = Edge {
            bytes: self.prefix.clone(),
            successor: false,
        };
        let end = Edge {
            bytes: self.prefix.clone(),
            successor: true,
        };
        // A bare prefix's range is never empty: its end is the prefix's successor (or none).
        self.materialize(start, end, false)
    }

    /// The ranges from `start` to `end`, per bucket as needed; `may_be_empty` asks for the
    /// start-before-end check, which only bounds on both ends or a start moved past a value need.
    #[inline(always)]
    fn materialize(&self, start: Edge, end: Edge, may_be_empty: bool) -> KeyRanges {
        let salted = self.buckets != 0;
        let mut ranges = KeyRanges {
            first: None,
            rest: Vec::new(),
            salted,
        };
        if self.impossible {
            return ranges;
        }
        let one = |start: Edge, end: Edge, bucket: Option<u8>| {
            // No start means past every key: the range is empty.
            let start = start.finish(bucket)?;
            let range = KeyRange {
                start,
                end: end.finish(bucket),
            };
            (!(may_be_empty && range.is_empty())).then_some(range)
        };
        match (salted, self.bucket) {
            (false, _) => ranges.first = one(start, end, None),
            (true, Some(b)) => ranges.first = one(start, end, Some(b)),
            (true, None) => {
                // One allocation for all the buckets' ranges.
                ranges.rest.reserve(usize::from(self.buckets) - 1);
                for b in 0..self.buckets {
                    if let Some(r) = one(start.clone(), end.clone(), Some(b as u8)) {
                        ranges.push(r);
                    }
                }
            }
        }
        ranges
    }
}

/// A scan ended by a range on its last field; [`ScanRange::ranges`] gives its key ranges.
#[derive(Clone)]
pub struct ScanRange {
    state: ScanState,
    start: Edge,
    end: Edge,
    /// How many ends a bound constrains (0..=2).
    bounded: u8,
}

impl ScanRange {
    /// The key ranges of the scan, in key order.
    #[inline]
    pub fn ranges(self) -> KeyRanges {
        let check = self.start.successor || self.bounded == 2;
        self.state.materialize(self.start, self.end, check)
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
    message = "a `#[reverse]` or `#[hash]` field does not keep its values' order, so a scan can fix it to one value but not range over it",
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

/// Implements [`ScanArg`] for a value type: `[generics] V, Self => |s| value;`. The derive
/// emits it for each key type, so keys nest in scans.
#[macro_export]
#[doc(hidden)]
macro_rules! __scan_arg {
    ($([$($g:tt)*] $v:ty, $ty:ty => |$s:ident| $e:expr;)*) => {$(
        impl<$($g)*> $crate::scan::ScanArg<$v> for $ty {
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
    use super::key_cmp;
    use proptest::prelude::*;

    proptest! {
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
