//! Phoenix's row keys (`PTableImpl.newKey`): the primary-key columns' values one after another,
//! a variable-width column followed by a separator (`0x00`, or `0xFF` after a non-null `DESC`
//! value, which keeps it even as the last column), trailing nulls left out, a `DESC` column's
//! bytes inverted, and with `SALT_BUCKETS` a first byte hashed from all the rest.

use std::borrow::Cow;

use super::types::{decode_value, encode_value, Datum, PhoenixError, PhoenixType};
use crate::salt::{bucket_of, SaltHash};
use crate::scan::KeyRange;

/// A key column's sort order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SortOrder {
    /// Ascending (Phoenix's default).
    #[default]
    Asc,
    /// Descending: the column's bytes inverted.
    Desc,
}

/// A primary-key column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyColumn {
    /// The column's name, as the DDL gives it (case kept: it is quoted there).
    pub name: Cow<'static, str>,
    /// Its type.
    pub ty: PhoenixType,
    /// Its sort order.
    pub order: SortOrder,
    /// Whether it may be null: Phoenix allows it for variable-width columns only, and a null
    /// at the end of a key is left out.
    pub nullable: bool,
}

impl KeyColumn {
    /// A `NOT NULL` column, ascending.
    pub fn new(name: impl Into<Cow<'static, str>>, ty: PhoenixType) -> Self {
        KeyColumn {
            name: name.into(),
            ty,
            order: SortOrder::Asc,
            nullable: false,
        }
    }

    /// The column in descending order.
    pub fn desc(mut self) -> Self {
        self.order = SortOrder::Desc;
        self
    }

    /// The column nullable.
    pub fn nullable(mut self) -> Self {
        self.nullable = true;
        self
    }
}

/// A Phoenix table's row key: its primary-key columns and salt buckets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhoenixKey {
    columns: Vec<KeyColumn>,
    salt_buckets: Option<u8>,
}

/// The smallest byte string after every string that starts with `bytes`; `None` when there
/// is none (all 0xFF).
fn successor(bytes: &[u8]) -> Option<Vec<u8>> {
    let keep = bytes.iter().rposition(|&b| b != 0xFF)?;
    let mut out = bytes[..=keep].to_vec();
    out[keep] += 1;
    Some(out)
}

/// A `DESC` column's bytes from its ascending ones, and back: every byte inverted.
fn invert(bytes: &mut [u8]) {
    bytes.iter_mut().for_each(|b| *b = !*b);
}

const SEPARATOR: u8 = 0x00;
const DESC_SEPARATOR: u8 = 0xFF;

impl PhoenixKey {
    /// A key of `columns` in order, with `SALT_BUCKETS = salt_buckets` when given (1 to 256
    /// in Phoenix; 1 to 255 buckets fit a byte here). Refuses what Phoenix refuses in a primary
    /// key: no columns, a nullable fixed-width column, `VARBINARY` anywhere but last or
    /// descending, `CHAR(0)`/`BINARY(0)`, two columns of one name, no buckets.
    pub fn new(columns: Vec<KeyColumn>, salt_buckets: Option<u8>) -> Result<Self, PhoenixError> {
        if columns.is_empty() {
            return Err(PhoenixError::new("a primary key needs a column"));
        }
        if salt_buckets == Some(0) {
            return Err(PhoenixError::new("SALT_BUCKETS must be 1 or more"));
        }
        let last = columns.len() - 1;
        for (i, c) in columns.iter().enumerate() {
            let err = |reason: &str| Err(PhoenixError::new(reason).at(&c.name));
            if c.nullable && c.ty.fixed_width().is_some() {
                return err("a fixed-width key column cannot be nullable (Phoenix refuses it)");
            }
            if c.ty == PhoenixType::Varbinary && (i != last || c.order == SortOrder::Desc) {
                return err("VARBINARY can only be the last key column, ascending");
            }
            if c.ty == PhoenixType::Boolean && c.order == SortOrder::Desc {
                // Checked on the local HBase: UPSERT writes the inverted byte (0xFE for true),
                // which PBoolean.toObject reads back as false, whatever the value.
                return err(
                    "a DESC BOOLEAN key column reads back as false in Phoenix 5.2.1 \
                            (its own bug): declare it ASC",
                );
            }
            if c.ty.fixed_width() == Some(0) {
                return err("CHAR and BINARY need a width of 1 or more");
            }
            if columns[..i].iter().any(|o| o.name == c.name) {
                return err("two key columns of this name");
            }
        }
        Ok(PhoenixKey {
            columns,
            salt_buckets,
        })
    }

    /// The key's columns.
    pub fn columns(&self) -> &[KeyColumn] {
        &self.columns
    }

    /// `SALT_BUCKETS`, if salted.
    pub fn salt_buckets(&self) -> Option<u8> {
        self.salt_buckets
    }

    /// The key of a row: one value per column (`None` for null). Refuses a null in a `NOT
    /// NULL` column, an empty `VARCHAR` or `VARBINARY` (Phoenix's null: write `None`), and
    /// what [`encode_value`] refuses; the error names the column.
    pub fn encode(&self, values: &[Option<Datum<'_>>]) -> Result<Vec<u8>, PhoenixError> {
        if values.len() != self.columns.len() {
            return Err(PhoenixError::new(format!(
                "{} values for {} key columns",
                values.len(),
                self.columns.len()
            )));
        }
        if let Some(c) = self
            .columns
            .iter()
            .zip(values)
            .find_map(|(c, v)| (v.is_none() && !c.nullable).then_some(c))
        {
            return Err(PhoenixError::new("NOT NULL, and given no value").at(&c.name));
        }
        // Trailing nulls are left out, as Phoenix leaves them.
        let written = values
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |i| i + 1);
        let mut out = Vec::with_capacity(64);
        if self.salt_buckets.is_some() {
            out.push(0);
        }
        for (i, (c, v)) in self.columns.iter().zip(values).enumerate().take(written) {
            let start = out.len();
            match v {
                None => {}
                Some(v) => {
                    let empty = matches!(v, Datum::Text(t) if t.is_empty())
                        || matches!(v, Datum::Bytes(b) if b.is_empty() && c.ty.fixed_width().is_none());
                    if empty {
                        return Err(PhoenixError::new(
                            "empty text or bytes are Phoenix's NULL: give None instead",
                        )
                        .at(&c.name));
                    }
                    if c.ty == PhoenixType::Varbinary
                        && matches!(v, Datum::Bytes(b) if b.last() == Some(&DESC_SEPARATOR))
                    {
                        // Checked on the local HBase: Phoenix reads the key's last 0xFF as a
                        // separator and drops it (01 FF comes back as 01).
                        return Err(PhoenixError::new(
                            "a VARBINARY key value ending in 0xFF loses it when Phoenix 5.2.1 \
                             reads it back",
                        )
                        .at(&c.name));
                    }
                    encode_value(c.ty, v, &mut out).map_err(|e| e.at(&c.name))?;
                }
            }
            if c.order == SortOrder::Desc {
                invert(&mut out[start..]);
            }
            if c.ty.fixed_width().is_none() && c.ty != PhoenixType::Varbinary {
                let last = i + 1 == written;
                let separator = if c.order == SortOrder::Desc && v.is_some() {
                    Some(DESC_SEPARATOR)
                } else if last {
                    None
                } else {
                    Some(SEPARATOR)
                };
                out.extend(separator);
            }
        }
        if written == 0 {
            return Err(PhoenixError::new("a primary key cannot be all null"));
        }
        if let Some(buckets) = self.salt_buckets {
            out[0] = bucket_of(SaltHash::Phoenix, &out[1..], u16::from(buckets));
        }
        Ok(out)
    }

    /// The key ranges of every row whose leading key columns hold `prefix` (all rows for an
    /// empty prefix), one per salt bucket when salted (each starting with its bucket byte),
    /// in bucket order: what a prefix scan reads, merged on the key after its salt byte.
    /// A row whose later columns are all null ends right after the prefix; it is included.
    pub fn prefix_ranges(&self, prefix: &[Datum<'_>]) -> Result<Vec<KeyRange>, PhoenixError> {
        if prefix.len() > self.columns.len() {
            return Err(PhoenixError::new(format!(
                "a prefix of {} values for {} key columns",
                prefix.len(),
                self.columns.len()
            )));
        }
        let lead = PhoenixKey {
            columns: self.columns[..prefix.len()].to_vec(),
            salt_buckets: None,
        };
        let values: Vec<Option<Datum<'_>>> = prefix.iter().cloned().map(Some).collect();
        let (start, end) = if prefix.is_empty() {
            (Vec::new(), None)
        } else {
            let start = lead.encode(&values)?;
            // An ascending variable-width value last: the rows that end there and those whose
            // next byte is its 0x00 separator, not a longer value's next byte.
            let open_var = lead.columns.last().is_some_and(|c| {
                c.order == SortOrder::Asc
                    && c.ty.fixed_width().is_none()
                    && c.ty != PhoenixType::Varbinary
            });
            let end = if open_var {
                let mut e = start.clone();
                e.push(SEPARATOR + 1);
                Some(e)
            } else {
                successor(&start)
            };
            (start, end)
        };
        Ok(match self.salt_buckets {
            None => vec![KeyRange::new(&start, end.as_deref())],
            Some(buckets) => (0..buckets)
                .map(|b| {
                    let with = |bytes: &[u8]| [&[b][..], bytes].concat();
                    let end = match &end {
                        Some(e) => with(e),
                        None => vec![b + 1],
                    };
                    // The last bucket's end: 0xFF + 1 has no byte; `b + 1` cannot overflow
                    // since b < buckets <= 255.
                    KeyRange::new(&with(&start), Some(&end))
                })
                .collect(),
        })
    }

    /// The values of a key this layout wrote (`None` for null), checking its salt byte, every
    /// value's bytes and the end of the key.
    pub fn decode(&self, key: &[u8]) -> Result<Vec<Option<Datum<'static>>>, PhoenixError> {
        let mut rest = key;
        if let Some(buckets) = self.salt_buckets {
            let Some((&salt, body)) = key.split_first() else {
                return Err(PhoenixError::new("an empty key"));
            };
            let want = bucket_of(SaltHash::Phoenix, body, u16::from(buckets));
            if salt != want {
                return Err(PhoenixError::new(format!(
                    "salt byte {salt}, where the rest of the key hashes to {want}"
                )));
            }
            rest = body;
        }
        let mut values = Vec::with_capacity(self.columns.len());
        let last = self.columns.len() - 1;
        for (i, c) in self.columns.iter().enumerate() {
            if rest.is_empty() {
                // The rest were trailing nulls.
                if !c.nullable {
                    return Err(
                        PhoenixError::new("the key ends before this NOT NULL column").at(&c.name),
                    );
                }
                values.push(None);
                continue;
            }
            let desc = c.order == SortOrder::Desc;
            let (stored, after) = match c.ty.fixed_width() {
                Some(w) => {
                    if rest.len() < w {
                        return Err(
                            PhoenixError::new("the key ends inside this column").at(&c.name)
                        );
                    }
                    rest.split_at(w)
                }
                None if c.ty == PhoenixType::Varbinary => (rest, &[][..]),
                None => {
                    // A null (in the middle) is an empty value and 0x00, in either order.
                    if rest[0] == SEPARATOR {
                        values.push(None);
                        rest = &rest[1..];
                        continue;
                    }
                    let sep = if desc { DESC_SEPARATOR } else { SEPARATOR };
                    match rest.iter().position(|&b| b == sep) {
                        Some(at) => (&rest[..at], &rest[at + 1..]),
                        // Only an ascending value may end the key without one.
                        None if !desc => (rest, &[][..]),
                        None => {
                            return Err(PhoenixError::new(
                                "a DESC value without its 0xFF separator",
                            )
                            .at(&c.name))
                        }
                    }
                }
            };
            let value = if desc {
                let mut inverted = stored.to_vec();
                invert(&mut inverted);
                decode_value(c.ty, &inverted)
            } else {
                decode_value(c.ty, stored)
            }
            .map_err(|e| e.at(&c.name))?;
            values.push(Some(value));
            rest = after;
            if i == last && !rest.is_empty() {
                return Err(PhoenixError::new(format!(
                    "{} bytes after the last key column",
                    rest.len()
                )));
            }
        }
        // A key Phoenix would not have written this way (a null written out at the end, a
        // separator too many) is not one of this layout's.
        if self.encode(&values)? != key {
            return Err(PhoenixError::new(
                "not the key Phoenix writes for these values (a trailing null or separator)",
            ));
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use PhoenixType::*;

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    }

    fn text(s: &str) -> Option<Datum<'_>> {
        Some(Datum::Text(s.into()))
    }

    /// The keys Phoenix 5.2.1 wrote for these rows (tests/phoenix.rs reads them from HBase).
    #[test]
    fn phoenix_keys_as_phoenix_writes_them() {
        let salted = PhoenixKey::new(
            vec![
                KeyColumn::new("A", BigInt),
                KeyColumn::new("B", Varchar).desc(),
                KeyColumn::new("C", Varchar).nullable(),
            ],
            Some(4),
        )
        .unwrap();
        for (row, rest) in [
            (
                [Some(Datum::Int(5)), text("z"), None],
                "800000000000000585ff",
            ),
            (
                [Some(Datum::Int(-2)), text("ab"), text("c")],
                "7ffffffffffffffe9e9dff63",
            ),
        ] {
            let key = salted.encode(&row).unwrap();
            assert_eq!(key[1..], hex(rest)[..]);
            assert_eq!(
                salted.decode(&key).unwrap(),
                row.map(|v| v.map(Datum::into_owned))
            );
        }
        let types = PhoenixKey::new(
            vec![
                KeyColumn::new("K1", TinyInt).desc(),
                KeyColumn::new("K2", UnsignedInt),
                KeyColumn::new("K3", Char(4)),
                KeyColumn::new("K4", Binary(3)),
                KeyColumn::new("K5", Date),
                KeyColumn::new("K6", Timestamp),
                KeyColumn::new("K7", Boolean),
                KeyColumn::new("K8", SmallInt).desc(),
                KeyColumn::new("K9", Varchar).desc(),
            ],
            None,
        )
        .unwrap();
        let row = [
            Some(Datum::Int(-1)),
            Some(Datum::Int(3)),
            text("ab"),
            Some(Datum::Bytes(vec![1, 2, 0].into())),
            Some(Datum::Date(1000)),
            Some(Datum::Timestamp {
                millis: 2123,
                nanos: 456_789,
            }),
            Some(Datum::Bool(true)),
            Some(Datum::Int(2)),
            text("ab"),
        ];
        let key = types.encode(&row).unwrap();
        let want = "80000000036162202001020080000000000003e8800000000000084b0006f855017ffd9e9dff";
        assert_eq!(key, hex(want));
        assert_eq!(types.decode(&key).unwrap(), row.to_vec());
        // Cell values: DOUBLE -1.5, BIGINT -2, TIMESTAMP (0 ms, 1,000 ns).
        let mut out = Vec::new();
        encode_value(Double, &Datum::Float(-1.5), &mut out).unwrap();
        encode_value(BigInt, &Datum::Int(-2), &mut out).unwrap();
        let ts = Datum::Timestamp {
            millis: 0,
            nanos: 1000,
        };
        encode_value(Timestamp, &ts, &mut out).unwrap();
        assert_eq!(
            out,
            hex("40080000000000007ffffffffffffffe8000000000000000000003e8")
        );
    }

    #[test]
    fn what_phoenix_cannot_hold_is_refused() {
        let key = PhoenixKey::new(
            vec![
                KeyColumn::new("A", Varchar),
                KeyColumn::new("B", UnsignedTinyInt),
                KeyColumn::new("C", Char(2)).nullable(),
            ],
            None,
        );
        assert!(key
            .unwrap_err()
            .reason
            .contains("fixed-width key column cannot be nullable"));
        let k = PhoenixKey::new(
            vec![
                KeyColumn::new("A", Varchar),
                KeyColumn::new("B", UnsignedTinyInt),
            ],
            None,
        )
        .unwrap();
        let refused = |row: [Option<Datum<'_>>; 2]| k.encode(&row).unwrap_err().to_string();
        assert!(refused([text(""), Some(Datum::Int(1))]).contains("give None"));
        assert!(refused([text("a\0b"), Some(Datum::Int(1))]).contains("NUL"));
        assert!(refused([text("a"), Some(Datum::Int(128))]).contains("out of UNSIGNED_TINYINT"));
        assert!(refused([text("a"), None]).contains("column B: NOT NULL"));
        assert!(refused([text("a"), Some(Datum::Bool(true))]).contains("cannot hold"));
        let last_bytes = PhoenixKey::new(
            vec![KeyColumn::new("A", BigInt), KeyColumn::new("B", Varbinary)],
            None,
        )
        .unwrap();
        let ends_ff = [
            Some(Datum::Int(1)),
            Some(Datum::Bytes(vec![1, 0xff].into())),
        ];
        assert!(last_bytes
            .encode(&ends_ff)
            .unwrap_err()
            .reason
            .contains("ending in 0xFF"));
        let desc_bool = PhoenixKey::new(vec![KeyColumn::new("A", Boolean).desc()], None);
        assert!(desc_bool
            .unwrap_err()
            .reason
            .contains("reads back as false"));
        let varbinary_first = PhoenixKey::new(
            vec![KeyColumn::new("A", Varbinary), KeyColumn::new("B", BigInt)],
            None,
        );
        assert!(varbinary_first.is_err());
        let mut out = Vec::new();
        let long = Datum::Text("abc".into());
        assert!(encode_value(Char(2), &long, &mut out).is_err());
        assert!(encode_value(Char(4), &Datum::Text("ab ".into()), &mut out).is_err());
        assert!(encode_value(Binary(1), &Datum::Bytes(vec![1, 2].into()), &mut out).is_err());
        assert!(out.is_empty(), "nothing written for a refused value");
        // A key with a null written out at the end is not Phoenix's.
        let opt = PhoenixKey::new(
            vec![
                KeyColumn::new("A", BigInt),
                KeyColumn::new("B", Varchar).nullable(),
            ],
            None,
        )
        .unwrap();
        let mut key = opt.encode(&[Some(Datum::Int(1)), None]).unwrap();
        key.push(0);
        assert!(opt.decode(&key).is_err());
    }

    fn datum(ty: PhoenixType) -> BoxedStrategy<Datum<'static>> {
        match ty {
            TinyInt => any::<i8>().prop_map(|v| Datum::Int(v.into())).boxed(),
            SmallInt => any::<i16>().prop_map(|v| Datum::Int(v.into())).boxed(),
            Integer => any::<i32>().prop_map(|v| Datum::Int(v.into())).boxed(),
            BigInt => any::<i64>().prop_map(Datum::Int).boxed(),
            UnsignedLong => (0..=i64::MAX).prop_map(Datum::Int).boxed(),
            Double => any::<f64>()
                .prop_filter("NaN has no order", |v| !v.is_nan())
                .prop_map(Datum::Float)
                .boxed(),
            Boolean => any::<bool>().prop_map(Datum::Bool).boxed(),
            Varchar => "[a-zé\u{1F600}]{1,6}"
                .prop_map(|s| Datum::Text(s.into()))
                .boxed(),
            Char(_) => "[a-z]{1,3}".prop_map(|s| Datum::Text(s.into())).boxed(),
            Timestamp => (any::<i64>(), 0..1_000_000u32)
                .prop_map(|(millis, nanos)| Datum::Timestamp { millis, nanos })
                .boxed(),
            _ => unreachable!(),
        }
    }

    /// The order of two values of one column, as SQL compares them.
    fn cmp(a: &Option<Datum<'_>>, b: &Option<Datum<'_>>) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        match (a, b) {
            (None, None) => Equal,
            (None, _) => Less,
            (_, None) => Greater,
            (Some(Datum::Int(x)), Some(Datum::Int(y))) => x.cmp(y),
            (Some(Datum::Float(x)), Some(Datum::Float(y))) => x.total_cmp(y),
            (Some(Datum::Bool(x)), Some(Datum::Bool(y))) => x.cmp(y),
            (Some(Datum::Text(x)), Some(Datum::Text(y))) => x.as_bytes().cmp(y.as_bytes()),
            (
                Some(Datum::Timestamp {
                    millis: a,
                    nanos: n,
                }),
                Some(Datum::Timestamp {
                    millis: b,
                    nanos: m,
                }),
            ) => (a, n).cmp(&(b, m)),
            _ => unreachable!(),
        }
    }

    const TYPES: [PhoenixType; 10] = [
        TinyInt,
        SmallInt,
        Integer,
        BigInt,
        UnsignedLong,
        Double,
        Boolean,
        Varchar,
        Char(3),
        Timestamp,
    ];

    fn layout() -> impl Strategy<Value = Vec<(PhoenixType, bool, bool)>> {
        // (type, descending, nullable where the type allows it), up to four columns.
        // Half the columns VARCHAR, the type with separators and nulls.
        let ty = prop_oneof![Just(7usize), 0..TYPES.len()];
        proptest::collection::vec((ty, any::<bool>(), any::<bool>()), 1..=4).prop_map(|cols| {
            cols.into_iter()
                .map(|(t, d, n)| (TYPES[t], d && TYPES[t] != Boolean, n && TYPES[t] == Varchar))
                .collect()
        })
    }

    proptest! {
        /// Any layout: keys decode to their values, and sort as the values do (column by
        /// column, a `DESC` column reversed, nulls first in either order).
        #[test]
        fn keys_round_trip_and_sort_as_their_values(
            (cols, rows) in layout().prop_flat_map(|cols| {
                let row: Vec<BoxedStrategy<Option<Datum<'static>>>> = cols
                    .iter()
                    .map(|&(ty, _, nullable)| {
                        if nullable {
                            proptest::option::of(datum(ty)).boxed()
                        } else {
                            datum(ty).prop_map(Some).boxed()
                        }
                    })
                    .collect();
                (Just(cols), proptest::collection::vec(row, 2..8))
            }),
            salt in proptest::option::of(1u8..=16),
        ) {
            let columns = cols
                .iter()
                .enumerate()
                .map(|(i, &(ty, desc, nullable))| {
                    let c = KeyColumn::new(format!("C{i}"), ty);
                    let c = if desc { c.desc() } else { c };
                    if nullable { c.nullable() } else { c }
                })
                .collect();
            let key = PhoenixKey::new(columns, salt).unwrap();
            let rows: Vec<Vec<Option<Datum<'static>>>> = rows
                .into_iter()
                .filter(|r| r.iter().any(Option::is_some))
                .collect();
            let mut encoded = Vec::new();
            for row in &rows {
                let bytes = key.encode(row).unwrap();
                prop_assert_eq!(&key.decode(&bytes).unwrap(), row);
                encoded.push((bytes, row));
            }
            // Prefix ranges: a key lies in one exactly when its leading values are the prefix.
            for (_, first) in encoded.iter().take(1) {
                for m in 0..=first.len() {
                    let Some(prefix) = first[..m].iter().cloned().collect::<Option<Vec<_>>>()
                    else {
                        continue;
                    };
                    let ranges = key.prefix_ranges(&prefix).unwrap();
                    for (bytes, row) in &encoded {
                        let inside = ranges.iter().any(|r| r.contains(bytes));
                        // Equal values (-0.0 and 0.0 are two DOUBLEs, as in Phoenix).
                        let matches = row[..m]
                            .iter()
                            .zip(&first[..m])
                            .all(|(a, b)| cmp(a, b).is_eq());
                        prop_assert_eq!(inside, matches, "prefix {:?} and {:?}", &prefix, row);
                    }
                }
            }
            for (a, ra) in &encoded {
                for (b, rb) in &encoded {
                    let by_value = cols
                        .iter()
                        .zip(ra.iter().zip(rb.iter()))
                        .map(|(&(_, desc, _), (x, y))| {
                            // Nulls first in either order (an empty value and 0x00).
                            match (x, y) {
                                (Some(_), Some(_)) if desc => cmp(x, y).reverse(),
                                _ => cmp(x, y),
                            }
                        })
                        .find(|o| o.is_ne())
                        .unwrap_or(std::cmp::Ordering::Equal);
                    // Salted keys sort within their bucket only.
                    let (a, b) = if salt.is_some() {
                        if a[0] != b[0] { continue; }
                        (&a[1..], &b[1..])
                    } else {
                        (&a[..], &b[..])
                    };
                    prop_assert_eq!(a.cmp(b), by_value, "{:?} vs {:?}", ra, rb);
                }
            }
        }
    }
}
