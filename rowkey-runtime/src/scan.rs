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

    /// Replaces the bytes by the smallest byte string greater than every string that starts
    /// with them: trailing `0xFF` bytes dropped, then the last byte incremented. `false` (and
    /// the bytes left as they were) when there is none: empty, or all `0xFF`.
    #[inline]
    pub fn to_successor(&mut self) -> bool {
        let bytes = self.as_mut_slice();
        let len = bytes.len();
        // The last eight bytes as one big-endian word: unless they are all 0xFF, adding one
        // increments the last byte below 0xFF and zeroes the 0xFF bytes after it (a byte below
        // 0xFF plus one is never zero), which are the bytes to drop. No byte loop, which
        // compilers turn into one branch per byte.
        if let Some(tail) = bytes.last_chunk_mut::<8>() {
            let word = u64::from_be_bytes(*tail);
            if let Some(next) = word.checked_add(1) {
                *tail = next.to_be_bytes();
                self.truncate(len - (next.trailing_zeros() / 8) as usize);
                return true;
            }
        }
        let Some(n) = bytes.iter().rposition(|&b| b != 0xFF) else {
            return false;
        };
        bytes[n] += 1;
        self.truncate(n + 1);
        true
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

    #[inline]
    fn is_empty(&self) -> bool {
        self.has_end && key_cmp(self.end.as_slice(), self.start.as_slice()).is_le()
    }

    /// Turns the bytes written so far into the range: the salt `bucket` written into the
    /// first byte of both ends, then each end flagged for it replaced by its successor. Returns
    /// `false` when no key is left: the start has no successor (it was all `0xFF`), or, when
    /// `check` asks, the start is not before the end.
    #[inline(always)]
    fn finish(&mut self, bucket: Option<u8>, edges: Edges, check: bool) -> bool {
        if let Some(b) = bucket {
            self.start.set_first(b);
            self.end.set_first(b);
        }
        if edges.start_successor && !self.start.to_successor() {
            return false;
        }
        // An all-0xFF end has no successor: the range runs to the end of the table.
        self.has_end = !edges.end_successor || self.end.to_successor();
        !(check && self.is_empty())
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
    fn from_iter(ranges: impl Iterator<Item = KeyRange>, salted: bool) -> Self {
        let mut out = KeyRanges {
            salted,
            ..KeyRanges::default()
        };
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

    /// Turns the template range in `first` into one range per bucket (one allocation for all).
    #[inline(never)]
    fn fan_out(&mut self, buckets: u16, edges: Edges, check: bool) {
        let template = self.first.clone();
        self.rest.reserve(usize::from(buckets) - 1);
        self.has_first = self.first.finish(Some(0), edges, check);
        for b in 1..buckets {
            let mut r = template.clone();
            if r.finish(Some(b as u8), edges, check) {
                self.push(r);
            }
        }
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
}

/// Writes every byte to both ends of a range: the fixed prefix is the same in both.
struct Both<'a>(&'a mut KeyBuf, &'a mut KeyBuf);

impl Sink for Both<'_> {
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

/// The ranges of one scan under construction, and what is known of its salt bucket. The
/// generated builders keep only the values they are given and write them here, all at once,
/// when the scan ends (`ranges()` or a range on the last field); it is not meant to be used
/// directly.
///
/// Both ends of the first range are written in place (the same bytes to each), so finishing a
/// scan copies no key: the ranges are returned where they were built.
///
/// `BUCKETS` is the key's salt bucket count (0 for an unsalted key): a constant, so an unsalted
/// key's scans carry no fan-out code.
pub struct ScanState<const BUCKETS: u16> {
    /// A salted key's ends start with a slot for the bucket byte, filled in at the end.
    out: KeyRanges,
    /// The salt bucket, once the prefix decides it.
    bucket: Option<u8>,
    /// A value no key can hold was given (a `fixed` value too long, a negative `reverse_ts`),
    /// so the scan matches nothing.
    impossible: bool,
}

impl<const BUCKETS: u16> Default for ScanState<BUCKETS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const BUCKETS: u16> ScanState<BUCKETS> {
    /// The state of an empty prefix.
    #[inline(always)]
    pub fn new() -> Self {
        let mut st = ScanState {
            out: KeyRanges {
                salted: BUCKETS != 0,
                ..KeyRanges::default()
            },
            bucket: None,
            impossible: false,
        };
        if BUCKETS != 0 {
            st.both().put_array([0]);
        }
        st
    }

    #[inline(always)]
    fn both(&mut self) -> Both<'_> {
        let r = &mut self.out.first;
        Both(&mut r.start, &mut r.end)
    }

    /// Fixes the next field to `v`.
    #[inline(always)]
    pub fn eq<C: Codec<T>, T: ?Sized>(&mut self, v: &T) {
        if !C::write_eq(v, &mut self.both()) {
            self.impossible = true;
        }
    }

    /// Called after the salted field is fixed: the prefix now decides the bucket.
    #[inline]
    pub fn salt_known(&mut self) {
        let mut h = Md5Sink::new();
        h.put(self.out.first.start().get(1..).unwrap_or(&[]));
        self.bucket = Some(crate::salt::bucket(&h.finish(), BUCKETS));
    }

    /// Bounds the next field (logical bounds; swapped for a descending codec) and ends the scan.
    #[inline(always)]
    pub fn range<C: Codec<T>, T>(mut self, lo: Bound<T>, hi: Bound<T>) -> ScanRange {
        let mut edges = Edges::PREFIX;
        let mut bounded = 0u8;
        for (bound, lower) in [(lo, true), (hi, false)] {
            let (value, inclusive) = match &bound {
                Bound::Unbounded => continue,
                Bound::Included(v) => (v, true),
                Bound::Excluded(v) => (v, false),
            };
            // The end of the byte range this logical bound sets.
            let byte_start = lower != C::DESCENDING;
            let r = &mut self.out.first;
            let buf = if byte_start { &mut r.start } else { &mut r.end };
            let len = buf.len();
            match C::write_bound(value, lower, inclusive, buf) {
                BoundKind::Unbounded => {}
                BoundKind::Empty => self.impossible = true,
                kind => {
                    // A start at an included value is the value's bytes; at an excluded one,
                    // past every key holding it. An end is the reverse.
                    let successor = byte_start != (kind == BoundKind::Inclusive);
                    if byte_start {
                        edges.start_successor = successor;
                    } else {
                        edges.end_successor = successor;
                    }
                    bounded += 1;
                    continue;
                }
            }
            // Nothing constrained (or nothing can match): back to the bare prefix.
            buf.truncate(len);
        }
        // Only bounds on both ends, or a start moved past a value, can cross.
        let check = edges.start_successor || bounded == 2;
        ScanRange(self.finish(edges, check))
    }

    /// The ranges of every key whose leading fields are the ones fixed so far.
    #[inline(always)]
    pub fn ranges(self) -> KeyRanges {
        // A bare prefix's range is never empty: its end is the prefix's successor (or none).
        self.finish(Edges::PREFIX, false)
    }

    /// The finished ranges, per bucket as needed.
    #[inline(always)]
    fn finish(mut self, edges: Edges, check: bool) -> KeyRanges {
        if self.impossible {
            return KeyRanges {
                salted: self.out.salted,
                ..KeyRanges::default()
            };
        }
        match (BUCKETS, self.bucket) {
            (0, _) => self.out.has_first = self.out.first.finish(None, edges, check),
            (_, Some(b)) => self.out.has_first = self.out.first.finish(Some(b), edges, check),
            (_, None) => self.out.fan_out(BUCKETS, edges, check),
        }
        self.out
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

/// A scan ended by a range on its last field; [`ScanRange::ranges`] gives its key ranges.
#[derive(Clone)]
pub struct ScanRange(KeyRanges);

impl ScanRange {
    /// The key ranges of the scan, in key order.
    #[inline]
    pub fn ranges(self) -> KeyRanges {
        self.0
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
            let ok = b.to_successor();
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

#[cfg(test)]
mod in_place_tests {
    use super::*;
    use crate::codec::{Fixed, Natural};

    /// The builders leave bytes in an end they then drop; equality and `Debug` must not see
    /// them.
    #[test]
    fn a_dropped_end_is_invisible() {
        // The successor of an all-0xFF prefix does not exist: the range runs to the end.
        let mut st = ScanState::<0>::new();
        st.eq::<Natural, u16>(&0xFFFF);
        let r = st.ranges();
        let only = r.iter().next().unwrap();
        assert_eq!(only.end(), None);
        assert_eq!(*only, KeyRange::new(&[0xFF, 0xFF], None));
        assert_eq!(format!("{only:?}"), r"[\xFF\xFF, end of table)");
        assert_eq!(r.len(), 1);
    }

    #[test]
    fn an_impossible_value_gives_no_range_and_keeps_the_salt_flag() {
        let mut st = ScanState::<4>::new();
        st.eq::<Fixed<2>, &str>(&"long");
        let r = st.ranges();
        assert!(r.is_empty());
        assert_eq!(r, KeyRanges::from_iter(core::iter::empty(), true));
        assert_ne!(r, KeyRanges::default());
    }

    #[test]
    fn fan_out_gives_one_range_per_bucket_in_order() {
        let mut st = ScanState::<3>::new();
        st.eq::<Natural, u8>(&7);
        let r = st.ranges();
        let got: Vec<_> = r
            .iter()
            .map(|r| (r.start().to_vec(), r.end().map(<[u8]>::to_vec)))
            .collect();
        let want: Vec<_> = (0..3u8).map(|b| (vec![b, 7], Some(vec![b, 8]))).collect();
        assert_eq!(got, want);
    }
}
