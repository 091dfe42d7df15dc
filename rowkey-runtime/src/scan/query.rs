//! Skip-scan queries: any field of a key constrained (equal to a value, in a list, in a range)
//! or left open, in any combination, and how a sorted store is walked for them.
//!
//! A [`Query`] holds one [`Constraint`] per *segment* of the key, in key order: the salt byte
//! (when the key is salted), each field, and (for a record-type key) the tag byte among them.
//! Each constraint is in the key's own bytes: a value's encoding, or the byte range of a field's
//! values between two bounds. Because every field's encoding is order-preserving and
//! prefix-free, comparing a stored key's segment with those bytes is comparing the values.
//!
//! Walking a sorted store ([`Query::seek`], [`Query::seek_rev`]): a key is split into its
//! segments; the first segment whose constraint it breaks decides where the next key that could
//! match starts, and the walk seeks there instead of reading what lies between (Phoenix's skip
//! scan, MySQL's loose index scan). With the leading segments fixed, the rest of the key is a
//! prefix: the next candidate is that prefix followed by the next allowed value of the broken
//! segment, or, when none is left, the prefix's successor (the next value of an earlier
//! segment).

use core::ops::Bound;
use std::fmt;

use super::build::{range, WriteScan};
pub use super::constraint::Constraint;
use super::constraint::{successor, Place};
use super::pushdown::KeyFilter;
use super::{KeyBuf, ScanBuf, ScanState};
use crate::codec::Codec;

impl KeyFilter {
    /// The filter of `query`: `None` when it would pass every key (nothing constrained that
    /// a position in the key can tell), or when the query matches nothing.
    pub fn of(query: &Query) -> Option<KeyFilter> {
        if query.is_empty() {
            return None;
        }
        KeyFilter::of_segments(query.segments(), |i| query.width(i))
    }
}

/// Where a walk goes after a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The key matches.
    Match,
    /// The key is not one of this type (it does not decode): it never matches; the next key
    /// is read as it comes.
    Foreign,
    /// Forward: the next key that could match is at or after this one. Reverse: it is before
    /// this one (an exclusive upper end).
    Seek(Vec<u8>),
    /// Reverse: the next key that could match is anywhere up to the end of the table.
    FromEnd,
    /// No later (forward) or earlier (reverse) key can match.
    Done,
}

/// Splits a stored key into the ends of its segments, in key order; `false` when the bytes
/// are not a key of the type (such a key never matches).
pub type Splitter = fn(&[u8], &mut Vec<usize>) -> bool;

/// A [`Query`] built for the key type `K` by its generated builder (`K::query()...build()`):
/// [`Table::query`](crate::store::Table::query) on a table of another key type does not
/// compile, where an untyped query would read it and match nothing. It derefs to the
/// [`Query`] (its plan, key ranges and filter); [`TypedQuery::into_query`] gives the untyped
/// query, which any table takes (a query built from a schema at run time is one).
pub struct TypedQuery<K> {
    query: Query,
    key: core::marker::PhantomData<fn() -> K>,
}

impl<K> TypedQuery<K> {
    /// `query` as a query of `K`'s keys (the generated builders' `build`): the caller vouches
    /// that it was built from `K`'s layout.
    #[doc(hidden)]
    pub fn new(query: Query) -> Self {
        TypedQuery {
            query,
            key: core::marker::PhantomData,
        }
    }

    /// The untyped query, which a table of any key type takes.
    pub fn into_query(self) -> Query {
        self.query
    }
}

impl<K: crate::key::RowKey> TypedQuery<K> {
    /// The walks a table reads for this query, each in key order: one, or, for a salted key,
    /// one per salt bucket the query allows (its salt segment fixed to that bucket). Read apart
    /// (in parallel, say) they hold the rows [`Table::query`](crate::store::Table::query)
    /// merges; an engine that reads partitions in parallel takes one each.
    pub fn walks(&self) -> Vec<Query> {
        self.query.per_bucket(K::__SALT_BUCKETS)
    }
}

impl<K> core::ops::Deref for TypedQuery<K> {
    type Target = Query;
    fn deref(&self) -> &Query {
        &self.query
    }
}

impl<K> Clone for TypedQuery<K> {
    fn clone(&self) -> Self {
        TypedQuery::new(self.query.clone())
    }
}

impl<K> From<TypedQuery<K>> for Query {
    fn from(q: TypedQuery<K>) -> Query {
        q.query
    }
}

/// The plan, as the untyped query shows it.
impl<K> fmt::Display for TypedQuery<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.query, f)
    }
}

impl<K> fmt::Debug for TypedQuery<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.query, f)
    }
}

/// A query a table of `K` keys reads: one built for `K` ([`TypedQuery<K>`]), or an untyped
/// [`Query`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` was built for another key type: a table of `{K}` keys cannot read it",
    label = "a query of another key type",
    note = "build the query from the table's key type (`{K}::query()`), or pass an untyped `rowkey::Query` (`.into_query()`) to read the table anyway"
)]
pub trait QueryFor<K> {
    /// The query.
    fn as_query(&self) -> &Query;
}

impl<K> QueryFor<K> for Query {
    fn as_query(&self) -> &Query {
        self
    }
}

impl<K> QueryFor<K> for TypedQuery<K> {
    fn as_query(&self) -> &Query {
        &self.query
    }
}

/// A skip-scan query over the keys of one type, built by the key type's `query()` builder
/// (`#[rowkey(query)]`) and read with [`Table::query`](crate::store::Table::query).
///
/// It holds one [`Constraint`] per segment of the key (the salt byte, then each field), in the
/// key's own bytes. A walk splits each key it reads into segments; the first segment the key
/// breaks decides where the next key that could match starts, and the walk seeks there instead
/// of reading what lies between (Phoenix's skip scan, MySQL's loose index scan). `Display`
/// shows the plan: the range walked, and how each segment is treated.
#[derive(Clone)]
pub struct Query {
    segments: Vec<(&'static str, Constraint)>,
    split: Splitter,
    /// Each segment's width, when fixed (what a store-side [`KeyFilter`] can check).
    widths: Vec<Option<usize>>,
}

impl Query {
    /// The most key ranges a walk's leading lists become ([`Query::key_ranges`]); past it, a
    /// list is spanned from its first to its last value and the walk seeks between them.
    pub const MAX_RANGES: usize = 1_024;

    /// A query from each segment's name and constraint, in key order, and the function that
    /// splits stored keys into segments. Segments' widths are not known: a store-side
    /// [`KeyFilter`] checks only the leading segments constrained to values
    /// ([`Query::with_widths`] says more).
    pub fn new(segments: Vec<(&'static str, Constraint)>, split: Splitter) -> Self {
        let widths = vec![None; segments.len()];
        Query {
            segments,
            split,
            widths,
        }
    }

    /// This query with each segment's width, when fixed, in key order (the generated
    /// builders give them from the key's schema).
    pub fn with_widths(mut self, widths: Vec<Option<usize>>) -> Self {
        self.widths = widths;
        self.widths.resize(self.segments.len(), None);
        self
    }

    /// Segment `i`'s width, when fixed.
    pub fn width(&self, i: usize) -> Option<usize> {
        self.widths.get(i).copied().flatten()
    }

    /// What a store that filters rows itself (HBase, Bigtable) is asked to check of each key:
    /// a superset of this query ([`KeyFilter`]); `None` when it could not tell any key apart.
    pub fn key_filter(&self) -> Option<KeyFilter> {
        KeyFilter::of(self)
    }

    /// The segments' names and constraints, in key order.
    pub fn segments(&self) -> &[(&'static str, Constraint)] {
        &self.segments
    }

    /// This query with segment `i`'s constraint replaced (the typed table walks a salted
    /// key's buckets apart).
    pub(crate) fn with(&self, i: usize, c: Constraint) -> Query {
        let mut q = self.clone();
        q.segments[i].1 = c;
        q
    }

    /// One query per salt bucket (of `buckets`; 0: the key is not salted, and the query is
    /// its own walk) that this one allows, its salt segment fixed to the bucket.
    pub(crate) fn per_bucket(&self, buckets: u16) -> Vec<Query> {
        if buckets == 0 {
            return vec![self.clone()];
        }
        let allowed: Vec<u8> = match &self.segments[0].1 {
            Constraint::In(values) => values.iter().filter_map(|v| v.first().copied()).collect(),
            Constraint::Nothing => Vec::new(),
            other => (0..buckets)
                .filter_map(|b| u8::try_from(b).ok())
                .filter(|&b| match other {
                    Constraint::Range { start, end } => {
                        let v = [b];
                        v[..] >= start[..] && end.as_ref().is_none_or(|e| v[..] < e[..])
                    }
                    _ => true,
                })
                .collect(),
        };
        allowed
            .into_iter()
            .map(|b| self.with(0, Constraint::In(vec![vec![b]])))
            .collect()
    }

    /// Whether no key can match.
    pub fn is_empty(&self) -> bool {
        self.segments
            .iter()
            .any(|(_, c)| matches!(c, Constraint::Nothing))
    }

    /// How many segments a key must be split into to be checked: up to the last constrained.
    fn checked(&self) -> usize {
        self.segments
            .iter()
            .rposition(|(_, c)| !c.is_any())
            .map_or(0, |i| i + 1)
    }

    /// The first key a forward walk reads from: the leading constrained segments' smallest
    /// allowed values, as far as they are fixed.
    pub fn start(&self) -> Vec<u8> {
        self.key_ranges(1).swap_remove(0).0
    }

    /// The key a forward walk stops before (`None`: the end of the table): past the largest
    /// allowed values of the leading constrained segments.
    pub fn end(&self) -> Option<Vec<u8>> {
        let mut ranges = self.key_ranges(1);
        ranges.pop().and_then(|(_, end)| end)
    }

    /// The key ranges a walk reads, in key order, each `(start, end)` (`end` exclusive, `None`:
    /// the end of the table): one per combination of the values the leading segments are
    /// listed in, while there are at most `cap` combinations (a list that would pass `cap` is
    /// spanned from its first to its last value instead, the walk seeking between them), each
    /// narrowed by a range on the segment after them. Leading lists become exactly as many
    /// ranges as they have combinations, so that a store reads only between them.
    pub fn key_ranges(&self, cap: usize) -> Vec<(Vec<u8>, Option<Vec<u8>>)> {
        let join = |p: &[u8], v: &[u8]| [p, v].concat();
        let mut prefixes: Vec<Vec<u8>> = vec![Vec::new()];
        for (_, c) in &self.segments {
            match c {
                Constraint::In(values) if prefixes.len() * values.len() <= cap.max(1) => {
                    prefixes = prefixes
                        .iter()
                        .flat_map(|p| values.iter().map(move |v| join(p, v)))
                        .collect();
                }
                Constraint::In(values) => {
                    let (first, last) = (&values[0], &values[values.len() - 1]);
                    return prefixes
                        .iter()
                        .map(|p| (join(p, first), successor(&join(p, last))))
                        .collect();
                }
                Constraint::Range { start, end } => {
                    return prefixes
                        .iter()
                        .map(|p| {
                            let upper = match end {
                                Some(e) => Some(join(p, e)),
                                None => successor(p),
                            };
                            (join(p, start), upper)
                        })
                        .collect();
                }
                Constraint::Any | Constraint::Nothing => break,
            }
        }
        prefixes
            .into_iter()
            .map(|p| {
                let end = successor(&p);
                (p, end)
            })
            .collect()
    }

    /// Where a forward walk goes after reading `key` (`ends` is scratch space).
    pub fn seek(&self, key: &[u8], ends: &mut Vec<usize>) -> Step {
        self.step(key, ends, true)
    }

    /// Where a reverse walk goes after reading `key`: [`Step::Seek`] is the exclusive upper
    /// end of the next range to read backwards.
    pub fn seek_rev(&self, key: &[u8], ends: &mut Vec<usize>) -> Step {
        self.step(key, ends, false)
    }

    fn step(&self, key: &[u8], ends: &mut Vec<usize>, forward: bool) -> Step {
        let checked = self.checked();
        ends.clear();
        if !(self.split)(key, ends) {
            return Step::Foreign;
        }
        // A record of another type has other segments after its tag: the segments up to the
        // tag decide (the tag differs), and one that passes them all is never a match.
        let available = checked.min(ends.len());
        let mut begin = 0;
        for (i, (_, c)) in self.segments[..available].iter().enumerate() {
            let end = ends[i];
            let (prefix, segment) = (&key[..begin], &key[begin..end]);
            let with = |v: &[u8]| {
                let mut t = Vec::with_capacity(prefix.len() + v.len());
                t.extend_from_slice(prefix);
                t.extend_from_slice(v);
                t
            };
            // Nothing left in this segment's direction: the previous segment moves on, or,
            // at the first segment, the walk is over.
            let exhausted = || {
                if prefix.is_empty() {
                    return Step::Done;
                }
                if forward {
                    self.advance(key, ends, i)
                } else {
                    Step::Seek(prefix.to_vec())
                }
            };
            match (c.place(segment), forward) {
                (Place::Inside, _) => {}
                (Place::Before(Some(next)), true) | (Place::Between(next, _), true) => {
                    let mut target = with(&next);
                    // A listed value is a whole segment: the keys that can match start with
                    // it and the least allowed values of the constrained segments after it.
                    if matches!(c, Constraint::In(_)) {
                        self.least_after(i + 1, &mut target);
                    }
                    return Step::Seek(target);
                }
                (Place::Before(_), false) | (Place::After(_), true) => return exhausted(),
                (Place::After(upper), false) | (Place::Between(_, upper), false) => {
                    return match upper {
                        Some(u) => Step::Seek(with(&u)),
                        // The previous value is all 0xFF: its every key lies below the
                        // prefix's successor, or, without one, the end of the table.
                        None => successor(prefix).map_or(Step::FromEnd, Step::Seek),
                    };
                }
                (Place::Before(None), true) => return exhausted(),
            }
            begin = end;
        }
        if available < checked {
            return Step::Foreign;
        }
        Step::Match
    }
}

impl Query {
    /// Forward, after `key` matched (`ends` its segments' ends, as [`Query::seek`] left them):
    /// the first key after it that can match, when the constrained segments tell (a match's
    /// next possible key is past every other key with its constrained values); `None` when
    /// the key's next bytes could match too (an open segment after the constrained ones).
    pub(crate) fn next_after_match(&self, key: &[u8], ends: &[usize]) -> Option<Vec<u8>> {
        let checked = self.checked();
        if checked == 0 || ends.len() < checked {
            return None;
        }
        // Keys that extend this one past its checked segments match too.
        if ends[checked - 1] != key.len() {
            return None;
        }
        match self.advance(key, ends, checked) {
            Step::Seek(t) if t.as_slice() > key => Some(t),
            _ => None,
        }
    }

    /// Forward, when no key starting with `key`'s segments before `i` can match: the first key
    /// that can, as Phoenix's skip scan seeks, from the nearest segment before `i` that can take
    /// a next value (a listed value after its own, the successor of an open or ranged
    /// fixed-width value), followed by the least allowed values of the constrained segments
    /// after it. A segment listed to values it has passed moves the one before it; a
    /// variable-width open segment moves by the successor of the bytes up to its end.
    fn advance(&self, key: &[u8], ends: &[usize], i: usize) -> Step {
        let mut j = i;
        while j > 0 {
            j -= 1;
            let begin = if j == 0 { 0 } else { ends[j - 1] };
            let end = ends[j];
            let value = &key[begin..end];
            let next = match &self.segments[j].1 {
                Constraint::In(values) => match values.iter().find(|v| v[..] > *value) {
                    Some(v) => Some(v.clone()),
                    // No listed value after this one: the segment before moves on.
                    None => continue,
                },
                Constraint::Nothing => return Step::Done,
                c @ (Constraint::Any | Constraint::Range { .. }) => {
                    let fixed = self.width(j) == Some(value.len());
                    let next = successor(value).filter(|s| fixed && s.len() == value.len());
                    match (next, c) {
                        (Some(s), Constraint::Range { end: Some(e), .. }) if s >= *e => continue,
                        (Some(s), _) => Some(s),
                        // Variable width, or no successor of the same width: past every key
                        // that starts with the bytes so far.
                        (None, _) => {
                            return successor(&key[..end]).map_or(Step::Done, Step::Seek);
                        }
                    }
                }
            };
            let Some(next) = next else { continue };
            let mut target = Vec::with_capacity(key.len());
            target.extend_from_slice(&key[..begin]);
            target.extend_from_slice(&next);
            self.least_after(j + 1, &mut target);
            return Step::Seek(target);
        }
        Step::Done
    }

    /// Appends to `target` the least allowed value of each constrained segment from `from`
    /// on: every listed segment's first value (whole segments, so the next one follows), then
    /// a range's start (its bytes may not be a whole segment: it ends the run), stopping at
    /// the first open segment.
    fn least_after(&self, from: usize, target: &mut Vec<u8>) {
        for (_, c) in self.segments.iter().take(self.checked()).skip(from) {
            match c {
                Constraint::In(values) => target.extend_from_slice(&values[0]),
                Constraint::Range { start, .. } => {
                    target.extend_from_slice(start);
                    return;
                }
                Constraint::Any | Constraint::Nothing => return,
            }
        }
    }
}

impl fmt::Debug for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.segments.iter().map(|(n, c)| (n, c.describe())))
            .finish()
    }
}

/// The plan, one line per segment: its constraint and how a walk treats it.
impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let checked = self.checked();
        // The leading lists the ranges spell out.
        let mut combinations = 1usize;
        let fixed = self
            .segments
            .iter()
            .take_while(|(_, c)| match c {
                Constraint::In(v) if combinations * v.len() <= Query::MAX_RANGES => {
                    combinations *= v.len();
                    true
                }
                _ => false,
            })
            .count();
        let ranges = self.key_ranges(Query::MAX_RANGES);
        let (start, end) = (&ranges[0].0, &ranges[ranges.len() - 1].1);
        writeln!(
            f,
            "skip scan from \"{}\" to {}{}",
            crate::fmt::binary(start),
            end.as_ref()
                .map_or("the end of the table".into(), |e| format!(
                    "\"{}\"",
                    crate::fmt::binary(e)
                )),
            if ranges.len() > 1 {
                format!(
                    ", in {} ranges (one per combination of the leading lists)",
                    ranges.len()
                )
            } else {
                String::new()
            }
        )?;
        for (i, (name, c)) in self.segments.iter().enumerate() {
            let how = if i >= checked {
                "not read"
            } else if i < fixed {
                "the ranges' prefix"
            } else if c.is_any() {
                "open: every value visited, the rest sought within it"
            } else {
                "sought: a key outside seeks to the next value allowed"
            };
            writeln!(f, "  {name}: {} ({how})", c.describe())?;
        }
        match self.key_filter() {
            Some(k) => {
                let fuzzy = k
                    .fuzzy(KeyFilter::FUZZY_RULES)
                    .map_or(String::new(), |rules| {
                        format!(" (HBase: {} FuzzyRowFilter rule(s), seeking)", rules.len())
                    });
                writeln!(
                    f,
                    "  on HBase and Bigtable, filtered by the servers: {k}{fuzzy}"
                )
            }
            None => writeln!(
                f,
                "  on HBase and Bigtable: no key filter (nothing a position can check), seeks"
            ),
        }
    }
}

/// The constraint "equal to one of `values`" on a field encoded by `C`: each value's encoding,
/// sorted; a value the field cannot hold matches nothing.
pub fn values<C: Codec<T>, T>(values: impl IntoIterator<Item = T>) -> Constraint {
    let mut out: Vec<Vec<u8>> = Vec::new();
    for v in values {
        let mut buf = KeyBuf::empty();
        if C::write_eq(&v, &mut buf) {
            out.push(buf.as_slice().to_vec());
        }
    }
    out.sort();
    out.dedup();
    if out.is_empty() {
        Constraint::Nothing
    } else {
        Constraint::In(out)
    }
}

/// No prefix: a range on the first field, in the field's own bytes.
struct Alone;

impl WriteScan<0> for Alone {
    const MAX_LEN: usize = usize::MAX;

    fn write<B: ScanBuf>(&self, _st: &mut ScanState<0, B>) -> bool {
        true
    }
}

/// The constraint "between `lo` and `hi`" on a field encoded by `C`: the byte range of the
/// values inside, as the prefix scan computes it (bounds outside the field's domain rewritten,
/// a descending field's ends swapped).
pub fn between<C: Codec<T>, T>(lo: Bound<T>, hi: Bound<T>) -> Constraint {
    let ranges = range::<0, Alone, C, T>(&Alone, lo, hi);
    match ranges.iter().next() {
        None => Constraint::Nothing,
        Some(r) if r.start().is_empty() && r.end().is_none() => Constraint::Any,
        Some(r) => Constraint::Range {
            start: r.start().to_vec(),
            end: r.end().map(<[u8]>::to_vec),
        },
    }
}

/// What a query builder's field method takes for a field of type `T`: one value, or a range
/// of values (`a..b`, `a..=b`, `a..`, `..b`, `..`, or a `(Bound, Bound)` pair), as the prefix
/// scan builder takes.
#[diagnostic::on_unimplemented(
    message = "a query on a `{T}` field takes a `{T}` or a range of them, not `{Self}`",
    label = "expected a `{T}` or a range of `{T}`"
)]
pub trait QueryArg<T>: super::ScanArg<T, Out<Constraint, Constraint> = Constraint> {}

impl<T, A: super::ScanArg<T, Out<Constraint, Constraint> = Constraint>> QueryArg<T> for A {}

/// The state behind the generated `T::query()` builders: one constraint per segment of the
/// key, every one open at first. Not meant to be used by hand.
#[doc(hidden)]
#[derive(Clone)]
pub struct QueryBuilder {
    segments: Vec<(&'static str, Constraint)>,
    split: Splitter,
    widths: Vec<Option<usize>>,
    schema: &'static crate::schema::Schema,
    /// The salt: buckets, strategy, and how many fields it hashes (the first ones).
    salt: Option<(u16, crate::salt::SaltHash, usize)>,
    /// A hash-prefixed key's hashed field (its number) and the prefix of one of its values in
    /// the key's bytes (`None`: bytes that do not decode as the field).
    hashed: Option<(usize, HashPrefixOf)>,
}

/// The hash prefix a key starts with when the hashed field's encoding in the key is the bytes
/// given (`None`: they are not one value of the field); generated for a hash-prefixed key.
pub type HashPrefixOf = fn(&[u8]) -> Option<Vec<u8>>;

/// The hash prefix (`#[rowkey(hash_prefix(...))]`) of a key whose hashed field is encoded in
/// the key as `encoded` by `C` (`H` its own bytes, as the prefix hashes them): what a
/// hash-prefixed key's query builder fixes the prefix to when the field is fixed to values.
/// Generated code calls it; not meant to be called by hand.
#[doc(hidden)]
pub fn hash_prefix_of<C, H, T>(
    encoded: &[u8],
    len: usize,
    hex: u8,
    delimiter: Option<u8>,
) -> Option<Vec<u8>>
where
    C: for<'de> crate::codec::CodecDecode<'de, T>,
    H: Codec<T>,
{
    let mut src = crate::source::Reader::new(encoded);
    let value = <C as crate::codec::CodecDecode<'_, T>>::read(&mut src).ok()?;
    src.finish().ok()?;
    let mut out = KeyBuf::empty();
    crate::generated::write_hash_prefix::<H, T, KeyBuf>(&value, len, hex, delimiter, &mut out);
    Some(out.as_slice().to_vec())
}

/// The segment name of a salted key's salt byte.
pub const SALT_SEGMENT: &str = "salt";

/// The segment name of a record-type key's tag byte.
pub const TAG_SEGMENT: &str = "tag";

impl QueryBuilder {
    /// Every segment of `schema`'s keys open.
    pub fn new(
        schema: &'static crate::schema::Schema,
        hash: crate::salt::SaltHash,
        split: Splitter,
    ) -> Self {
        let mut segments = Vec::new();
        let mut widths = Vec::new();
        if schema.salt.is_some() {
            segments.push((SALT_SEGMENT, Constraint::Any));
            widths.push(Some(1));
        }
        segments.extend(schema.fields.iter().map(|f| (f.name, Constraint::Any)));
        widths.extend(schema.fields.iter().map(|f| f.width));
        if !schema.variants.is_empty() {
            // A record-type key: the tag byte after the prefix; a record type's own fields
            // are added when one is chosen (`record`).
            segments.push((TAG_SEGMENT, Constraint::Any));
            widths.push(Some(1));
        }
        QueryBuilder {
            segments,
            split,
            widths,
            salt: schema.salt.map(|s| (s.buckets, hash, s.fields.len())),
            schema,
            hashed: None,
        }
    }

    /// A hash-prefixed key's builder: field number `field` is the one hashed, and `prefix`
    /// gives the prefix of each of its encodings. When the query fixes that field to values,
    /// the prefix segment is fixed to their prefixes, and the walk reads only their keys.
    pub fn hashed(mut self, field: usize, prefix: HashPrefixOf) -> Self {
        self.hashed = Some((field, prefix));
        self
    }

    /// Narrows a record-type key's query to the record type with tag `tag` (its tag segment
    /// constrained to it) and adds that record type's own fields, open, after the tag: they are
    /// fields number `prefix + 1 ..` for [`QueryBuilder::arg`]. The generated record selectors
    /// call it once.
    pub fn record(&mut self, tag: u8) {
        let prefix = self.schema.fields.len();
        self.and(prefix, Constraint::In(vec![vec![tag]]));
        if let Some(v) = self.schema.variants.iter().find(|v| v.tag == tag) {
            self.segments
                .extend(v.fields.iter().map(|f| (f.name, Constraint::Any)));
            self.widths.extend(v.fields.iter().map(|f| f.width));
        }
    }

    /// The segment of field number `field` (after the salt byte or the hash prefix).
    fn segment(&self, field: usize) -> usize {
        let prefix = self
            .schema
            .fields
            .first()
            .is_some_and(|f| f.name == crate::schema::HASH_PREFIX_FIELD);
        field + usize::from(self.salt.is_some()) + usize::from(prefix)
    }

    /// Constrains field number `field` (encoded by `C`) to a value or a range.
    pub fn arg<C: Codec<T>, T, A: QueryArg<T>>(&mut self, field: usize, arg: A) {
        let c = arg.dispatch(
            (),
            |(), v| values::<C, T>([v]),
            |(), lo, hi| between::<C, T>(lo, hi),
        );
        self.and(field, c);
    }

    /// Constrains field number `field` to one value (a field that does not keep order).
    pub fn value<C: Codec<T>, T, A: super::ScanValue<T>>(&mut self, field: usize, value: A) {
        self.and(field, values::<C, T>([value.into_value()]));
    }

    /// Constrains field number `field` to any of `values`.
    pub fn any_of<C: Codec<T>, T>(&mut self, field: usize, values: impl IntoIterator<Item = T>) {
        let c = self::values::<C, T>(values);
        self.and(field, c);
    }

    /// Adds `c` to what segment `field` already has: both must hold.
    pub(crate) fn and(&mut self, field: usize, c: Constraint) {
        let i = self.segment(field);
        let old = core::mem::replace(&mut self.segments[i].1, Constraint::Any);
        self.segments[i].1 = intersect(old, c);
    }

    /// The query. A salted key whose hashed fields are all fixed to lists of values (at most
    /// 256 combinations) has its salt byte fixed to the buckets they hash to.
    pub fn build(mut self) -> Query {
        if let Some((buckets, hash, hashed)) = self.salt {
            if let Some(picked) = self.buckets(buckets, hash, hashed) {
                let old = core::mem::replace(&mut self.segments[0].1, Constraint::Any);
                self.segments[0].1 = intersect(old, picked);
            }
        }
        if let Some((field, prefix_of)) = self.hashed {
            // The prefix is the first segment; the hashed field's values fix it.
            if let Constraint::In(values) = &self.segments[self.segment(field)].1 {
                let mut prefixes: Vec<Vec<u8>> =
                    values.iter().filter_map(|v| prefix_of(v)).collect();
                prefixes.sort();
                prefixes.dedup();
                let picked = if prefixes.is_empty() {
                    Constraint::Nothing
                } else {
                    Constraint::In(prefixes)
                };
                let old = core::mem::replace(&mut self.segments[0].1, Constraint::Any);
                self.segments[0].1 = intersect(old, picked);
            }
        }
        Query {
            segments: self.segments,
            split: self.split,
            widths: self.widths,
        }
    }

    /// The salt buckets of every combination of the hashed fields' values, when each is a list.
    fn buckets(
        &self,
        buckets: u16,
        hash: crate::salt::SaltHash,
        hashed: usize,
    ) -> Option<Constraint> {
        let mut combos: Vec<Vec<u8>> = vec![Vec::new()];
        for (_, c) in &self.segments[1..=hashed] {
            let Constraint::In(values) = c else {
                return None;
            };
            if combos.len() * values.len() > 256 {
                return None;
            }
            combos = combos
                .iter()
                .flat_map(|p| {
                    values.iter().map(move |v| {
                        let mut next = p.clone();
                        next.extend_from_slice(v);
                        next
                    })
                })
                .collect();
        }
        let mut picked: Vec<Vec<u8>> = combos
            .iter()
            .map(|bytes| vec![crate::salt::bucket_of(hash, bytes, buckets)])
            .collect();
        picked.sort();
        picked.dedup();
        Some(Constraint::In(picked))
    }
}

/// Both constraints at once.
fn intersect(a: Constraint, b: Constraint) -> Constraint {
    use Constraint::*;
    let inside = |v: &[u8], start: &[u8], end: &Option<Vec<u8>>| {
        v >= start && end.as_ref().is_none_or(|e| v < &e[..])
    };
    let nonempty = |values: Vec<Vec<u8>>| {
        if values.is_empty() {
            Nothing
        } else {
            In(values)
        }
    };
    match (a, b) {
        (Nothing, _) | (_, Nothing) => Nothing,
        (Any, c) | (c, Any) => c,
        (In(x), In(y)) => nonempty(x.into_iter().filter(|v| y.contains(v)).collect()),
        (In(x), Range { start, end }) | (Range { start, end }, In(x)) => {
            nonempty(x.into_iter().filter(|v| inside(v, &start, &end)).collect())
        }
        (Range { start: s1, end: e1 }, Range { start: s2, end: e2 }) => {
            let start = s1.max(s2);
            let end = match (e1, e2) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            if end.as_ref().is_some_and(|e| *e <= start) {
                Nothing
            } else {
                Range { start, end }
            }
        }
    }
}
