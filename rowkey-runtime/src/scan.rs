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
const INLINE: usize = 64;

/// A key-sized byte buffer that stays on the stack up to 64 bytes.
#[derive(Clone)]
pub struct KeyBuf {
    len: usize,
    inline: [u8; INLINE],
    heap: Vec<u8>,
}

impl KeyBuf {
    /// An empty buffer.
    #[inline]
    pub const fn new() -> Self {
        KeyBuf {
            len: 0,
            inline: [0; INLINE],
            heap: Vec::new(),
        }
    }

    /// A buffer holding `bytes`.
    pub fn from_slice(bytes: &[u8]) -> Self {
        let mut b = KeyBuf::new();
        b.put(bytes);
        b
    }

    /// The bytes.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        if self.len <= INLINE {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }

    /// Appends one byte.
    #[inline]
    pub fn push(&mut self, b: u8) {
        self.put(&[b]);
    }

    /// Shortens to `len` bytes.
    pub fn truncate(&mut self, len: usize) {
        if len < self.len {
            if self.len > INLINE && len <= INLINE {
                self.inline[..len].copy_from_slice(&self.heap[..len]);
                self.heap = Vec::new();
            } else if len > INLINE {
                self.heap.truncate(len);
            }
            self.len = len;
        }
    }

    /// The smallest byte string greater than every string that starts with these bytes, or
    /// `None` when there is none (empty, or all `0xFF`).
    pub fn successor(mut self) -> Option<KeyBuf> {
        let bytes = self.as_slice();
        let keep = bytes.iter().rposition(|&b| b != 0xFF)?;
        let last = bytes[keep] + 1;
        self.truncate(keep + 1);
        if self.len <= INLINE {
            self.inline[keep] = last;
        } else {
            self.heap[keep] = last;
        }
        Some(self)
    }
}

impl Default for KeyBuf {
    fn default() -> Self {
        KeyBuf::new()
    }
}

impl Sink for KeyBuf {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        if end <= INLINE {
            self.inline[self.len..end].copy_from_slice(bytes);
        } else {
            if self.len <= INLINE {
                self.heap.reserve(end);
                self.heap.extend_from_slice(&self.inline[..self.len]);
            }
            self.heap.extend_from_slice(bytes);
        }
        self.len = end;
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

    fn is_empty(&self) -> bool {
        self.end().is_some_and(|e| e <= self.start())
    }
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

/// One end of a scan before the salt byte is added: these bytes, or their successor.
#[derive(Clone)]
struct Edge {
    bytes: KeyBuf,
    successor: bool,
}

impl Edge {
    fn with_bucket(&self, bucket: Option<u8>) -> Option<KeyBuf> {
        let mut full = KeyBuf::new();
        if let Some(b) = bucket {
            full.push(b);
        }
        full.put(self.bytes.as_slice());
        if self.successor {
            full.successor()
        } else {
            Some(full)
        }
    }
}

/// The bytes of the fields fixed so far and what is known of the salt bucket. The generated
/// builders carry one; it is not meant to be used directly.
#[derive(Clone)]
pub struct ScanState {
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
        ScanState {
            prefix: KeyBuf::new(),
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
        h.put(self.prefix.as_slice());
        self.bucket = Some(crate::salt::bucket(&h.finish(), self.buckets));
        self
    }

    /// Bounds the next field (logical bounds; swapped for a descending codec) and ends the scan.
    pub fn range<C: Codec<T>, T>(self, lo: Bound<T>, hi: Bound<T>) -> ScanRange {
        let mut start = Edge {
            bytes: self.prefix.clone(),
            successor: false,
        };
        let mut end = Edge {
            bytes: self.prefix.clone(),
            successor: true,
        };
        let mut impossible = self.impossible;
        // (logical bound, is it the lower one)
        for (bound, lower) in [(lo, true), (hi, false)] {
            let (value, inclusive) = match &bound {
                Bound::Unbounded => continue,
                Bound::Included(v) => (v, true),
                Bound::Excluded(v) => (v, false),
            };
            // The edge of the byte range this logical bound sets.
            let byte_start = lower != C::DESCENDING;
            let edge = if byte_start { &mut start } else { &mut end };
            let mut bytes = self.prefix.clone();
            let kind = C::write_bound(value, lower, inclusive, &mut bytes);
            match kind {
                BoundKind::Unbounded => {}
                BoundKind::Empty => impossible = true,
                BoundKind::Inclusive | BoundKind::Exclusive => {
                    let inclusive = kind == BoundKind::Inclusive;
                    // A start at an included value is the value's bytes; at an excluded one,
                    // past every key holding it. An end is the reverse.
                    *edge = Edge {
                        bytes,
                        successor: byte_start != inclusive,
                    };
                }
            }
        }
        ScanRange {
            state: ScanState { impossible, ..self },
            start,
            end,
        }
    }

    /// The ranges of every key whose leading fields are the ones fixed so far.
    pub fn ranges(&self) -> KeyRanges {
        let start = Edge {
            bytes: self.prefix.clone(),
            successor: false,
        };
        let end = Edge {
            bytes: self.prefix.clone(),
            successor: true,
        };
        self.materialize(&start, &end)
    }

    fn materialize(&self, start: &Edge, end: &Edge) -> KeyRanges {
        let salted = self.buckets != 0;
        let mut ranges = KeyRanges {
            first: None,
            rest: Vec::new(),
            salted,
        };
        if salted && self.bucket.is_none() && !self.impossible {
            // One allocation for all the buckets' ranges.
            ranges.rest.reserve(usize::from(self.buckets) - 1);
        }
        if !self.impossible {
            let mut add = |bucket: Option<u8>| {
                // No start means past every key: the range is empty.
                if let Some(start) = start.with_bucket(bucket) {
                    let range = KeyRange {
                        start,
                        end: end.with_bucket(bucket),
                    };
                    if !range.is_empty() {
                        ranges.push(range);
                    }
                }
            };
            match (salted, self.bucket) {
                (false, _) => add(None),
                (true, Some(b)) => add(Some(b)),
                (true, None) => (0..self.buckets).for_each(|b| add(Some(b as u8))),
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
}

impl ScanRange {
    /// The key ranges of the scan, in key order.
    pub fn ranges(&self) -> KeyRanges {
        self.state.materialize(&self.start, &self.end)
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
    ($($ty:ty => |$r:ident| ($lo:expr, $hi:expr);)*) => {$(
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
                range(state, $lo, $hi)
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
}

impl<V> ScanArg<V> for RangeInclusive<V> {
    type Out<N, D> = D;
    #[inline]
    fn dispatch<S, N, D>(
        self,
        state: S,
        _eq: impl FnOnce(S, V) -> N,
        range: impl FnOnce(S, Bound<V>, Bound<V>) -> D,
    ) -> D {
        let (lo, hi) = self.into_inner();
        range(state, Bound::Included(lo), Bound::Included(hi))
    }
}

impl<V> ScanArg<V> for RangeFull {
    type Out<N, D> = D;
    #[inline]
    fn dispatch<S, N, D>(
        self,
        state: S,
        _eq: impl FnOnce(S, V) -> N,
        range: impl FnOnce(S, Bound<V>, Bound<V>) -> D,
    ) -> D {
        range(state, Bound::Unbounded, Bound::Unbounded)
    }
}

/// Implements [`ScanArg`] and [`ScanValue`] for a value type: `value_arg!(V; Self => |s| v)`.
/// The derive emits the same for each key type, so keys nest in scans.
#[macro_export]
#[doc(hidden)]
macro_rules! __value_arg {
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

        impl<$($g)*> $crate::scan::ScanValue<$v> for $ty {
            #[inline]
            fn into_value(self) -> $v {
                let $s = self;
                $e
            }
        }
    )*};
}

__value_arg! {
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
