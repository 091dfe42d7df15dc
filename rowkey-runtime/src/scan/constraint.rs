//! [`Constraint`]: what a skip-scan query asks of one segment of a key, in the key's bytes,
//! and where a segment's bytes stand against it. What the walk (`query.rs`) and the servers'
//! key filters (`pushdown.rs`) both read.

/// What a query asks of one segment of the key, in the key's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// Any value.
    Any,
    /// One of these encodings: sorted, without duplicates, never empty.
    In(Vec<Vec<u8>>),
    /// Encodings from `start` (inclusive) to `end` (exclusive; `None`: no end).
    Range {
        /// The first encoding inside the range.
        start: Vec<u8>,
        /// The first encoding past it.
        end: Option<Vec<u8>>,
    },
    /// No value: the query matches nothing (an empty list, a range no value lies in, a value
    /// the field cannot hold).
    Nothing,
}

/// Where a constraint places a segment.
pub(super) enum Place {
    /// Inside.
    Inside,
    /// Before every allowed value; the first one after the segment (forward), or nothing
    /// before it (reverse).
    Before(Option<Vec<u8>>),
    /// After every allowed value; the last one before the segment (an exclusive upper end,
    /// reverse), or nothing after it (forward).
    After(Option<Vec<u8>>),
    /// Between two allowed values: the next one (forward) and the previous one's exclusive
    /// upper end (reverse; `None`: unbounded).
    Between(Vec<u8>, Option<Vec<u8>>),
}

impl Constraint {
    /// Whether it leaves the segment open.
    pub fn is_any(&self) -> bool {
        matches!(self, Constraint::Any)
    }

    pub(super) fn place(&self, segment: &[u8]) -> Place {
        match self {
            Constraint::Any => Place::Inside,
            Constraint::Nothing => Place::After(None),
            Constraint::In(values) => match values.binary_search_by(|v| v[..].cmp(segment)) {
                Ok(_) => Place::Inside,
                Err(0) => Place::Before(values.first().cloned()),
                Err(p) if p == values.len() => Place::After(successor(&values[p - 1])),
                Err(p) => Place::Between(values[p].clone(), successor(&values[p - 1])),
            },
            Constraint::Range { start, end } => {
                if segment < &start[..] {
                    Place::Before(Some(start.clone()))
                } else if end.as_ref().is_some_and(|e| segment >= &e[..]) {
                    Place::After(end.clone())
                } else {
                    Place::Inside
                }
            }
        }
    }

    /// The values as text for a plan: encodings in HBase's binary notation.
    pub(super) fn describe(&self) -> String {
        let b = |v: &[u8]| format!("\"{}\"", crate::fmt::binary(v));
        match self {
            Constraint::Any => "any".into(),
            Constraint::Nothing => "nothing".into(),
            Constraint::In(values) if values.len() == 1 => format!("= {}", b(&values[0])),
            Constraint::In(values) if values.len() <= 4 => format!(
                "in [{}]",
                values.iter().map(|v| b(v)).collect::<Vec<_>>().join(", ")
            ),
            Constraint::In(values) => format!(
                "in {} values, {} .. {}",
                values.len(),
                b(&values[0]),
                b(&values[values.len() - 1])
            ),
            Constraint::Range { start, end } => match end {
                Some(e) => format!("in [{}, {})", b(start), b(e)),
                None => format!("from {}", b(start)),
            },
        }
    }
}

/// The smallest byte string greater than every string that starts with `bytes`: trailing
/// `0xFF`s dropped, the last byte incremented; `None` when there is none (all `0xFF`, or empty).
pub(crate) fn successor(bytes: &[u8]) -> Option<Vec<u8>> {
    let keep = bytes.iter().rposition(|&b| b != 0xFF)?;
    let mut out = bytes[..=keep].to_vec();
    out[keep] += 1;
    Some(out)
}
