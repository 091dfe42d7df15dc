//! A skip scan's key filter for stores that filter rows themselves (HBase's region servers,
//! Bigtable's tablet servers): what a [`Query`](super::query::Query) asks of a key, in the forms those servers'
//! filters take, so that rows which cannot match never cross the network.
//!
//! A [`KeyFilter`] is a *superset* of the query: every key the query matches passes it, some
//! keys it does not match may pass too (a range on a field is checked on its bytes' common
//! prefix and next byte only; a segment whose width varies ends what the filter checks). The
//! walk checks every row the store hands over again, so a looser filter costs rows read,
//! never correctness.
//!
//! It is built from the key's segments up to the last constrained one:
//! - a segment constrained to values (`=`, `in`) is one of their encodings (each field's
//!   encoding is prefix-free, so a literal match is the whole segment);
//! - a fixed-width segment that is open, or in a range, is its width in bytes, the range's
//!   common leading bytes fixed and the next byte within the range's;
//! - the first open or ranged segment whose width varies ends the filter.

use std::fmt::{self, Write};

use super::constraint::Constraint;

/// At most this many values of one segment are spelled out; a longer list is checked as the
/// range from its first to its last value.
const MAX_ALTERNATIVES: usize = 256;

/// One segment of a [`KeyFilter`], in key order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyPiece {
    /// The segment is one of these byte strings (sorted; each a whole segment).
    OneOf(Vec<Vec<u8>>),
    /// `width` bytes: the first ones `prefix`, the next one (when `next` is set) within
    /// `lo..=hi`, the rest any.
    Bytes {
        /// The segment's width.
        width: usize,
        /// Its fixed leading bytes.
        prefix: Vec<u8>,
        /// The range of the byte after the prefix.
        next: Option<(u8, u8)>,
    },
}

impl KeyPiece {
    /// Whether it constrains anything.
    fn constrains(&self) -> bool {
        match self {
            KeyPiece::OneOf(_) => true,
            KeyPiece::Bytes { prefix, next, .. } => {
                !prefix.is_empty() || next.is_some_and(|(lo, hi)| (lo, hi) != (0x00, 0xFF))
            }
        }
    }

    /// The width when every key it passes has the same one.
    fn width(&self) -> Option<usize> {
        match self {
            KeyPiece::OneOf(values) => {
                let w = values[0].len();
                values.iter().all(|v| v.len() == w).then_some(w)
            }
            KeyPiece::Bytes { width, .. } => Some(*width),
        }
    }
}

/// What a skip scan asks a store that filters rows itself (HBase's region servers, Bigtable's
/// tablet servers) to check of each key, so that rows which cannot match never cross the
/// network.
///
/// It is a *superset* of the query: every key the query matches passes, and some keys it does
/// not match may pass too, since it checks by position: a segment constrained to values is one
/// of their encodings; a fixed-width segment that is open or in a range is its width in bytes
/// (a range's common leading bytes fixed, the next byte within the range's); the first open or
/// ranged segment whose width varies ends what it checks. The walk checks every row the store
/// hands over again, so a looser filter costs rows read, never correctness.
///
/// Built by [`KeyFilter::of`] ([`Query::key_filter`](super::query::Query::key_filter)); the HBase stores send it as a
/// `FuzzyRowFilter` ([`KeyFilter::fuzzy`]) or a `RowFilter` with a Java regular expression
/// ([`KeyFilter::java_regex`]), Bigtable as a row-key regular expression
/// ([`KeyFilter::re2_regex`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyFilter {
    pieces: Vec<KeyPiece>,
}

impl KeyFilter {
    /// The most `FuzzyRowFilter` rules the HBase stores send for one filter (a region server
    /// tries each on every row it reads); past it, the regular expression.
    pub const FUZZY_RULES: usize = 64;

    /// The filter of a query's segments (each with its width, when fixed): `None` when it
    /// would pass every key, or when a segment allows nothing. [`KeyFilter::of`] reads them
    /// from a [`Query`](super::query::Query).
    pub(super) fn of_segments(
        segments: &[(&'static str, Constraint)],
        width: impl Fn(usize) -> Option<usize>,
    ) -> Option<KeyFilter> {
        let mut pieces = Vec::new();
        for (i, (_, c)) in segments.iter().enumerate() {
            let width = width(i);
            let piece = match c {
                Constraint::In(values) if values.len() <= MAX_ALTERNATIVES => {
                    Some(KeyPiece::OneOf(values.clone()))
                }
                Constraint::In(values) => width.map(|w| {
                    let last = &values[values.len() - 1];
                    bytes_between(w, &values[0], Some(last), true)
                }),
                Constraint::Range { start, end } => {
                    width.map(|w| bytes_between(w, start, end.as_deref(), false))
                }
                Constraint::Any => width.map(|w| KeyPiece::Bytes {
                    width: w,
                    prefix: Vec::new(),
                    next: None,
                }),
                Constraint::Nothing => return None,
            };
            match (piece, pieces.last_mut()) {
                // Open fixed-width segments in a row are one run of any bytes.
                (
                    Some(KeyPiece::Bytes {
                        width,
                        prefix,
                        next: None,
                    }),
                    Some(KeyPiece::Bytes {
                        width: run,
                        prefix: run_prefix,
                        next: None,
                    }),
                ) if prefix.is_empty() && run_prefix.is_empty() => *run += width,
                (Some(p), _) => pieces.push(p),
                (None, _) => break,
            }
        }
        while pieces.last().is_some_and(|p| !p.constrains()) {
            pieces.pop();
        }
        (!pieces.is_empty()).then_some(KeyFilter { pieces })
    }

    /// The segments it checks, in key order.
    pub fn pieces(&self) -> &[KeyPiece] {
        &self.pieces
    }

    /// Whether `key` passes (what a server's filter decides; for tests and for stores that
    /// filter in process).
    pub fn matches(&self, key: &[u8]) -> bool {
        let mut at = 0;
        for piece in &self.pieces {
            let rest = &key[at..];
            match piece {
                KeyPiece::OneOf(values) => match values.iter().find(|v| rest.starts_with(v)) {
                    Some(v) => at += v.len(),
                    None => return false,
                },
                KeyPiece::Bytes {
                    width,
                    prefix,
                    next,
                } => {
                    if rest.len() < *width || !rest.starts_with(prefix) {
                        return false;
                    }
                    if let Some((lo, hi)) = next {
                        let b = rest[prefix.len()];
                        if b < *lo || b > *hi {
                            return false;
                        }
                    }
                    at += width;
                }
            }
        }
        true
    }

    /// The filter as `FuzzyRowFilter` rules (HBase) that pass exactly the keys
    /// [`KeyFilter::matches`] passes: one `(template, mask)` pair per combination of the
    /// listed values and of the values a range's next byte may take, mask byte 0 where the
    /// key's byte must equal the template's, 1 where it may be anything. A rule lets the region
    /// server seek to the next key that could match instead of reading the gap.
    ///
    /// `None` when a segment's width varies, when there would be more than `cap` rules, or
    /// when they would fix no byte: a store then sends the regular expression, which checks a
    /// range's next byte as one character class (a fuzzy rule with that byte left open would
    /// let every key of the range cross the network).
    pub fn fuzzy(&self, cap: usize) -> Option<Vec<(Vec<u8>, Vec<u8>)>> {
        let mut rules: Vec<(Vec<u8>, Vec<u8>)> = vec![(Vec::new(), Vec::new())];
        // Appends each of `choices` (bytes fixed, then `open` bytes of any value) to every rule.
        let extend = |rules: &mut Vec<(Vec<u8>, Vec<u8>)>, choices: &[Vec<u8>], open: usize| {
            if rules.len() * choices.len() > cap {
                return None;
            }
            *rules = rules
                .iter()
                .flat_map(|(t, m)| {
                    choices.iter().map(move |v| {
                        let (mut t, mut m) = (t.clone(), m.clone());
                        t.extend_from_slice(v);
                        m.resize(m.len() + v.len(), 0);
                        t.resize(t.len() + open, 0);
                        m.resize(m.len() + open, 1);
                        (t, m)
                    })
                })
                .collect();
            Some(())
        };
        for piece in &self.pieces {
            piece.width()?;
            match piece {
                KeyPiece::OneOf(values) => extend(&mut rules, values, 0)?,
                KeyPiece::Bytes {
                    width,
                    prefix,
                    next,
                } => match next {
                    Some((lo, hi)) if (*lo, *hi) != (0x00, 0xFF) => {
                        let choices: Vec<Vec<u8>> = (*lo..=*hi)
                            .map(|b| [prefix.as_slice(), &[b]].concat())
                            .collect();
                        extend(&mut rules, &choices, width - prefix.len() - 1)?
                    }
                    _ => extend(
                        &mut rules,
                        std::slice::from_ref(prefix),
                        width - prefix.len(),
                    )?,
                },
            }
        }
        for (t, m) in &mut rules {
            let keep = m.iter().rposition(|&b| b == 0).map_or(0, |i| i + 1);
            t.truncate(keep);
            m.truncate(keep);
        }
        // A rule that fixes no byte passes every key.
        rules.iter().all(|(t, _)| !t.is_empty()).then_some(rules)
    }

    /// The filter as a Java regular expression over the key's bytes read as ISO-8859-1, for
    /// HBase's `RegexStringComparator` (which matches with `find`, so it starts with `^`; every
    /// byte that is not a letter or digit is written `\xHH`, so the pattern is ASCII and
    /// survives HBase's filter language, which reads it as UTF-8).
    pub fn java_regex(&self) -> String {
        self.regex("(?s)^", ".", "")
    }

    /// The filter as an RE2 regular expression over the key's bytes, for Bigtable's
    /// `row_key_regex_filter` (which must match the whole key: it ends with `\C*`; `\C` is any
    /// byte, as Bigtable's documentation asks for binary keys; bytes are written `\xHH`).
    pub fn re2_regex(&self) -> String {
        self.regex("", "\\C", "\\C*")
    }

    fn regex(&self, head: &str, any: &str, tail: &str) -> String {
        let mut out = String::from(head);
        for piece in &self.pieces {
            match piece {
                KeyPiece::OneOf(values) => {
                    out.push_str("(?:");
                    for (i, v) in values.iter().enumerate() {
                        if i > 0 {
                            out.push('|');
                        }
                        literal(&mut out, v);
                    }
                    out.push(')');
                }
                KeyPiece::Bytes {
                    width,
                    prefix,
                    next,
                } => {
                    literal(&mut out, prefix);
                    let mut left = width - prefix.len();
                    if let Some((lo, hi)) = next {
                        if lo == hi {
                            literal(&mut out, &[*lo]);
                        } else {
                            let _ = write!(out, "[\\x{lo:02X}-\\x{hi:02X}]");
                        }
                        left -= 1;
                    }
                    match left {
                        0 => {}
                        1 => out.push_str(any),
                        n => {
                            let _ = write!(out, "(?:{any}){{{n}}}");
                        }
                    }
                }
            }
        }
        out.push_str(tail);
        out
    }
}

/// The filter as its Java regular expression.
impl fmt::Display for KeyFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.java_regex())
    }
}

/// `bytes` in a regular expression: letters and digits as themselves, every other byte `\xHH`.
fn literal(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        if b.is_ascii_alphanumeric() {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
}

/// The bytes of a `width`-byte segment between `start` and `end` (exclusive, or inclusive when
/// `inclusive`; `None`: no end): their common leading bytes fixed, the next byte's range. A
/// next byte that can take one value only is fixed too, and the range moves on to the byte
/// after it.
fn bytes_between(width: usize, start: &[u8], end: Option<&[u8]>, inclusive: bool) -> KeyPiece {
    let common = end.map_or(0, |e| {
        start.iter().zip(e).take_while(|(a, b)| a == b).count()
    });
    let mut p = common.min(width);
    let mut prefix = start[..p.min(start.len())].to_vec();
    let mut end = end;
    while p < width {
        let lo = start.get(p).copied().unwrap_or(0x00);
        let hi = match end.and_then(|e| e.get(p).map(|&b| (b, e.len() == p + 1))) {
            Some((b, _)) if inclusive => b,
            // Exclusive, and `end` stops at this byte: a key with the same prefix and this
            // byte equal to `end`'s is `end` or longer, so not below it.
            Some((b, true)) => b.saturating_sub(1),
            // Exclusive with bytes after: a key with this byte equal to `end`'s and smaller
            // later bytes is below it.
            Some((b, false)) => b,
            None => 0xFF,
        };
        let hi = hi.max(lo);
        if lo != hi {
            return KeyPiece::Bytes {
                width,
                prefix,
                next: Some((lo, hi)),
            };
        }
        // One value: every key of the range has it (below `end`'s byte, the rest of the
        // segment is bounded by `start` alone from here on; `start` may have run out, then
        // there is no lower bound but 0).
        if end.is_some_and(|e| e.get(p) != Some(&lo)) {
            end = None;
        }
        prefix.push(lo);
        p += 1;
    }
    KeyPiece::Bytes {
        width,
        prefix,
        next: None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::query::Query;
    use super::*;

    fn query(segments: Vec<Constraint>, widths: Vec<Option<usize>>) -> Query {
        let named = segments.into_iter().map(|c| ("f", c)).collect();
        Query::new(named, |_, _| true).with_widths(widths)
    }

    #[test]
    fn a_value_after_a_fixed_gap_is_a_fuzzy_rule_and_a_regex() {
        let q = query(
            vec![
                Constraint::Any,
                Constraint::In(vec![vec![0x00, 0x2A]]),
                Constraint::Any,
            ],
            vec![Some(8), Some(2), Some(4)],
        );
        let f = KeyFilter::of(&q).expect("a filter");
        assert_eq!(f.java_regex(), "(?s)^(?:.){8}(?:\\x00\\x2A)");
        assert_eq!(f.re2_regex(), "(?:\\C){8}(?:\\x00\\x2A)\\C*");
        let rules = f.fuzzy(64).expect("fixed widths");
        assert_eq!(
            rules,
            vec![(
                vec![0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x2A],
                vec![1, 1, 1, 1, 1, 1, 1, 1, 0, 0]
            )]
        );
        assert!(f.matches(&[9, 9, 9, 9, 9, 9, 9, 9, 0x00, 0x2A, 1, 2, 3, 4]));
        assert!(!f.matches(&[9, 9, 9, 9, 9, 9, 9, 9, 0x00, 0x2B, 1, 2, 3, 4]));
    }

    #[test]
    fn a_variable_open_segment_ends_the_filter_and_lists_multiply_rules() {
        let q = query(
            vec![
                Constraint::In(vec![vec![1], vec![2]]),
                Constraint::Any,
                Constraint::In(vec![vec![7]]),
            ],
            vec![Some(1), None, Some(1)],
        );
        let f = KeyFilter::of(&q).expect("a filter");
        assert_eq!(f.pieces().len(), 1);
        assert_eq!(f.fuzzy(64).expect("rules").len(), 2);
        assert_eq!(f.fuzzy(1), None);
        // Nothing a position can tell: no filter.
        let open = query(
            vec![Constraint::Any, Constraint::In(vec![vec![7]])],
            vec![None, Some(1)],
        );
        assert_eq!(KeyFilter::of(&open), None);
    }

    #[test]
    fn a_range_keeps_its_common_bytes_and_the_next_ones_span() {
        let q = query(
            vec![Constraint::Range {
                start: vec![0x80, 0x00, 0x10, 0x00],
                end: Some(vec![0x80, 0x00, 0x20]),
            }],
            vec![Some(4)],
        );
        let f = KeyFilter::of(&q).expect("a filter");
        // The end is exclusive and stops at the next byte: 0x20 itself is out.
        assert_eq!(f.java_regex(), "(?s)^\\x80\\x00[\\x10-\\x1F].");
        for v in 0x1000u16..0x2000 {
            let [a, b] = v.to_be_bytes();
            assert!(f.matches(&[0x80, 0x00, a, b]));
        }
        assert!(!f.matches(&[0x80, 0x01, 0x10, 0x00]));
    }

    /// Whether `key` passes one of `rules` as HBase's `FuzzyRowFilter` decides.
    fn fuzzy_passes(rules: &[(Vec<u8>, Vec<u8>)], key: &[u8]) -> bool {
        rules.iter().any(|(t, m)| {
            key.len() >= t.len()
                && t.iter()
                    .zip(m)
                    .zip(key)
                    .all(|((t, m), k)| *m == 1 || t == k)
        })
    }

    #[test]
    fn fuzzy_rules_pass_exactly_what_the_filter_passes() {
        // Ranges of every shape on a 2-byte segment after a listed one, and before an open one:
        // the rules enumerate a range's next byte, so a key passes them exactly when it passes
        // the filter (and so the regular expression).
        let ranges: Vec<(Vec<u8>, Option<Vec<u8>>)> = vec![
            (vec![0x00, 0x00], Some(vec![0x00, 0x02])),
            (vec![0x10, 0x00], Some(vec![0x12, 0x00])),
            (vec![0x10, 0x05], Some(vec![0x11])),
            (vec![0x10, 0x05], None),
            (vec![0x61, 0x61], Some(vec![0x63, 0x6C])),
            (vec![0x00, 0x00], Some(vec![0x00, 0x01, 0x00])),
        ];
        for (start, end) in ranges {
            let q = query(
                vec![
                    Constraint::In(vec![vec![1], vec![3]]),
                    Constraint::Range {
                        start: start.clone(),
                        end: end.clone(),
                    },
                    Constraint::Any,
                ],
                vec![Some(1), Some(2), Some(1)],
            );
            let f = KeyFilter::of(&q).expect("a filter");
            let rules = f.fuzzy(4096).expect("few enough rules");
            for a in 0u8..=4 {
                for b in 0..=255u8 {
                    for c in [0u8, 1, 5, 0x6C, 0xFF] {
                        let key = [a, b, c, 9];
                        assert_eq!(
                            fuzzy_passes(&rules, &key),
                            f.matches(&key),
                            "{key:?} against {start:?}..{end:?}: {rules:?}"
                        );
                        // The filter is a superset of the range.
                        let inside = key[1..3] >= start[..]
                            && end.as_ref().is_none_or(|e| &key[1..3] < e.as_slice());
                        if (a == 1 || a == 3) && inside {
                            assert!(f.matches(&key), "{key:?} in {start:?}..{end:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_range_with_one_value_in_its_next_byte_fixes_it() {
        // `reverse_ts` values 0 and 1 (`ts >= i64::MAX - 1`): seven bytes fixed, the eighth
        // 0 or 1, where the end stopped the rule at the seventh and left the eighth open.
        let q = query(
            vec![Constraint::Range {
                start: vec![0; 8],
                end: Some(vec![0, 0, 0, 0, 0, 0, 0, 2]),
            }],
            vec![Some(8)],
        );
        let f = KeyFilter::of(&q).expect("a filter");
        assert_eq!(
            f.java_regex(),
            "(?s)^\\x00\\x00\\x00\\x00\\x00\\x00\\x00[\\x00-\\x01]"
        );
        assert_eq!(f.fuzzy(64).expect("rules").len(), 2);
        // A range whose next byte allows one value: fixed, and the byte after it ranged.
        let q = query(
            vec![Constraint::Range {
                start: vec![0x41, 0x10],
                end: Some(vec![0x42]),
            }],
            vec![Some(2)],
        );
        let f = KeyFilter::of(&q).expect("a filter");
        assert_eq!(
            f.pieces(),
            &[KeyPiece::Bytes {
                width: 2,
                prefix: vec![0x41],
                next: Some((0x10, 0xFF)),
            }]
        );
        // Too many values of the next byte for the cap: no rules (the regex instead).
        assert_eq!(f.fuzzy(64), None);
    }
}
