//! Checking a declared layout against keys a table already holds: before rowkey reads (or
//! re-keys) a table that other code wrote, sample its keys and see how many the declaration
//! reads, where the others fail, whether each reads back to the same bytes, and what range
//! each field takes. A declaration that fits every key of a large sample is the proof that it
//! is the table's layout.

use core::fmt;

use crate::key::RowKey;
use crate::schema::Schema;
use crate::Decode;

/// How many failing keys a [`LayoutCheck`] keeps, with their explanation.
pub const KEPT_FAILURES: usize = 10;

/// What a sample of a table's keys says of a declared layout: how many keys it reads, the
/// first that it does not (with the offset and field, as `explain` shows them), whether the
/// ones it reads encode back to the same bytes, and the range each field takes.
///
/// Fed key by key: [`LayoutCheck::add`] reads a key as the schema alone describes it (what
/// the `rowkey` program does), [`LayoutCheck::add_typed`] as the key type does, and checks the
/// round trip too. [`check_layout`](crate::store::check_layout) samples a table on any store.
///
/// ```
/// use rowkey::{LayoutCheck, RowKey};
///
/// #[derive(RowKey, Debug, PartialEq)]
/// #[rowkey(delimiter = '_')]
/// struct Visit {
///     user: String,
///     #[decimal]
///     ts: u64,
/// }
///
/// let mut check = LayoutCheck::new(Visit::SCHEMA);
/// for key in [&b"alice_1700000000000"[..], b"bob_17", b"carol_-5", b"dave_0017"] {
///     check.add_typed::<Visit>(key);
/// }
/// assert_eq!((check.sampled(), check.decoded(), check.failed()), (4, 2, 2));
/// assert!(check.failures()[0].error.contains("ts"));
/// println!("{check}");
/// ```
#[derive(Debug, Clone)]
pub struct LayoutCheck {
    schema: &'static Schema,
    sampled: u64,
    decoded: u64,
    round_trips: u64,
    typed: bool,
    failed: u64,
    failures: Vec<LayoutFailure>,
    fields: Vec<FieldRange>,
}

/// A key the declared layout does not read (or does not read back to the same bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutFailure {
    /// The key.
    pub key: Vec<u8>,
    /// Why, with the field and offset.
    pub error: String,
    /// The key explained field by field, as far as it reads.
    pub explain: String,
}

/// The values one field took over the keys that read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRange {
    /// The field's name.
    pub name: &'static str,
    /// Whether its bytes sort as its values: the least and greatest bytes are then the least
    /// and greatest values; otherwise they are only the first and last by bytes.
    pub ordered: bool,
    /// Keys in which it was read.
    pub seen: u64,
    /// The least bytes seen, and the value they hold as shown.
    pub least: Option<(Vec<u8>, String)>,
    /// The greatest bytes seen, and the value they hold as shown.
    pub greatest: Option<(Vec<u8>, String)>,
}

impl LayoutCheck {
    /// A check of keys against `schema` (`K::SCHEMA`, or one read from a layouts export).
    pub fn new(schema: &'static Schema) -> Self {
        LayoutCheck {
            schema,
            sampled: 0,
            decoded: 0,
            round_trips: 0,
            typed: false,
            failed: 0,
            failures: Vec::new(),
            fields: Vec::new(),
        }
    }

    /// Reads `key` as the schema describes it.
    pub fn add(&mut self, key: &[u8]) {
        self.sampled += 1;
        let (explain, wrong, values) = crate::dynamic::explain_fields(self.schema, key);
        match wrong {
            Some(error) => self.fail(key, error, explain),
            None => {
                self.decoded += 1;
                self.note(key, &values);
            }
        }
    }

    /// Reads `key` as the key type `K` does, and checks that it encodes back to the same
    /// bytes (a key that read but would be written otherwise is a failure too).
    pub fn add_typed<K: RowKey + for<'de> Decode<'de>>(&mut self, key: &[u8]) {
        self.typed = true;
        self.sampled += 1;
        let (explain, wrong, values) = crate::dynamic::explain_fields(self.schema, key);
        match K::decode(key) {
            Err(e) => self.fail(key, e.to_string(), explain),
            Ok(k) => match k.to_bytes() {
                Ok(b) if b[..] == *key => {
                    self.decoded += 1;
                    self.round_trips += 1;
                    // The schema's reading names the fields' bytes; a key the type reads is
                    // one the schema reads, unless a field's type is one only the type knows.
                    if wrong.is_none() {
                        self.note(key, &values);
                    }
                }
                Ok(b) => self.fail(
                    key,
                    format!(
                        "reads, but encodes back to other bytes: {}",
                        crate::fmt::binary(&b)
                    ),
                    explain,
                ),
                Err(e) => self.fail(
                    key,
                    format!("reads, but does not encode back: {e}"),
                    explain,
                ),
            },
        }
    }

    fn fail(&mut self, key: &[u8], error: String, explain: String) {
        self.failed += 1;
        if self.failures.len() < KEPT_FAILURES {
            self.failures.push(LayoutFailure {
                key: key.to_vec(),
                error,
                explain,
            });
        }
    }

    fn note(&mut self, key: &[u8], values: &[crate::explain::FieldValue]) {
        for v in values {
            let bytes = key.get(v.bytes.clone()).unwrap_or_default();
            let range = match self.fields.iter_mut().find(|f| f.name == v.name) {
                Some(r) => r,
                None => {
                    self.fields.push(FieldRange {
                        name: v.name,
                        ordered: v.ordered,
                        seen: 0,
                        least: None,
                        greatest: None,
                    });
                    self.fields.last_mut().expect("just pushed")
                }
            };
            range.seen += 1;
            if range
                .least
                .as_ref()
                .is_none_or(|(b, _)| bytes < b.as_slice())
            {
                range.least = Some((bytes.to_vec(), v.shown.clone()));
            }
            if range
                .greatest
                .as_ref()
                .is_none_or(|(b, _)| bytes > b.as_slice())
            {
                range.greatest = Some((bytes.to_vec(), v.shown.clone()));
            }
        }
    }

    /// Keys checked.
    pub fn sampled(&self) -> u64 {
        self.sampled
    }

    /// Keys the layout reads (and, for [`LayoutCheck::add_typed`], encodes back to the same
    /// bytes).
    pub fn decoded(&self) -> u64 {
        self.decoded
    }

    /// Keys it does not.
    pub fn failed(&self) -> u64 {
        self.failed
    }

    /// The first failing keys (at most [`KEPT_FAILURES`]).
    pub fn failures(&self) -> &[LayoutFailure] {
        &self.failures
    }

    /// The range each field took, in the order fields were first seen.
    pub fn fields(&self) -> &[FieldRange] {
        &self.fields
    }

    /// Whether every key of a non-empty sample fits.
    pub fn fits(&self) -> bool {
        self.sampled > 0 && self.failed == 0
    }
}

/// A report for a person: the counts, each field's range, the first failures explained.
impl fmt::Display for LayoutCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |n: u64| {
            if self.sampled == 0 {
                0.0
            } else {
                100.0 * n as f64 / self.sampled as f64
            }
        };
        writeln!(
            f,
            "{}: {} key(s) sampled, {} read ({:.2}%), {} not ({:.2}%){}",
            self.schema.name,
            self.sampled,
            self.decoded,
            pct(self.decoded),
            self.failed,
            pct(self.failed),
            if self.typed {
                "; every key read encodes back to its own bytes"
            } else {
                ""
            }
        )?;
        for r in &self.fields {
            let shown = |v: &Option<(Vec<u8>, String)>| {
                v.as_ref().map_or(String::from("-"), |(_, s)| s.clone())
            };
            writeln!(
                f,
                "  {}: {} .. {}  ({} key(s){})",
                r.name,
                shown(&r.least),
                shown(&r.greatest),
                r.seen,
                if r.ordered {
                    ""
                } else {
                    "; unordered: first and last by bytes"
                }
            )?;
        }
        for (i, fail) in self.failures.iter().enumerate() {
            writeln!(f, "failure {}: {}", i + 1, fail.error)?;
            for line in fail.explain.lines() {
                writeln!(f, "    {line}")?;
            }
        }
        if self.failed > self.failures.len() as u64 {
            writeln!(
                f,
                "... and {} more failure(s)",
                self.failed - self.failures.len() as u64
            )?;
        }
        if self.fits() {
            writeln!(f, "the declaration fits every key sampled")?;
        }
        Ok(())
    }
}
