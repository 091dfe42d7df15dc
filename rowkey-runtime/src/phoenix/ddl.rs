//! A Phoenix table as data ([`PhoenixTable`]: its key, its value columns and their families)
//! and the DDL that declares it, so the same declaration drives rowkey's reads and writes and
//! Phoenix's SQL.

use std::borrow::Cow;

use super::key::{PhoenixKey, SortOrder};
use super::types::{PhoenixError, PhoenixType};

/// A value column: a cell in `family` under the qualifier `name` (`COLUMN_ENCODED_BYTES=0`:
/// the qualifier is the name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueColumn {
    /// The column family.
    pub family: Cow<'static, str>,
    /// The column's name, which is its qualifier.
    pub name: Cow<'static, str>,
    /// Its type.
    pub ty: PhoenixType,
}

/// The qualifier of the empty marker cell Phoenix writes in every row (`_0`), so a row of
/// nulls still exists.
pub const EMPTY_COLUMN: &str = "_0";
/// The empty marker cell's value (`x`).
pub const EMPTY_VALUE: &[u8] = b"x";

/// A Phoenix table: its name, row key and value columns. The empty marker cell lives in the
/// default family ([`PhoenixTable::default_family`]), which the DDL names explicitly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhoenixTable {
    name: Cow<'static, str>,
    key: PhoenixKey,
    columns: Vec<ValueColumn>,
}

impl PhoenixTable {
    /// A table named `name` (case kept: the DDL quotes it, and the HBase table has this name)
    /// with the key `key` and the value columns `columns`. Refuses a column named like a key
    /// column, two columns of one name in one family, the marker's qualifier `_0`, and names
    /// with a double quote.
    pub fn new(
        name: impl Into<Cow<'static, str>>,
        key: PhoenixKey,
        columns: Vec<ValueColumn>,
    ) -> Result<Self, PhoenixError> {
        let name = name.into();
        let quoted = |n: &str| n.contains('"') || n.is_empty();
        if quoted(&name) {
            return Err(PhoenixError::new(format!(
                "table name {name:?}: empty or with a quote"
            )));
        }
        for (i, c) in columns.iter().enumerate() {
            let err = |reason: &str| Err(PhoenixError::new(reason).at(&c.name));
            if quoted(&c.name) || quoted(&c.family) {
                return err("an empty name, or one with a double quote");
            }
            if c.name == EMPTY_COLUMN {
                return err("`_0` is Phoenix's empty marker cell");
            }
            if key.columns().iter().any(|k| k.name == c.name) {
                return err("named like a key column");
            }
            if columns[..i]
                .iter()
                .any(|o| o.name == c.name && o.family == c.family)
            {
                return err("two columns of this name in one family");
            }
        }
        if key.columns().iter().any(|k| quoted(&k.name)) {
            return Err(PhoenixError::new(
                "a key column name empty or with a double quote",
            ));
        }
        Ok(PhoenixTable { name, key, columns })
    }

    /// The table's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The same table under the name `name`: a second table of one declaration, or a table
    /// created under another name than the one a `#[derive(PhoenixRow)]` declares (the same
    /// checks as [`PhoenixTable::new`]).
    pub fn renamed(&self, name: impl Into<Cow<'static, str>>) -> Result<Self, PhoenixError> {
        PhoenixTable::new(name, self.key.clone(), self.columns.clone())
    }

    /// Where Phoenix splits the table when it creates it: for a salted table, one region per
    /// bucket, split at each salt byte from 1 to `SALT_BUCKETS - 1` (Phoenix's
    /// `SaltingUtil.getSalteByteSplitPoints`), each padded with zero bytes as Phoenix pads a
    /// split key that ends inside the key's columns (`SchemaUtil.processSplit`: the rest of a
    /// fixed-width column, or a variable-width column's separator, then for every later column
    /// its width or one separator byte); none for an unsalted table (Phoenix creates it as one
    /// region unless `SPLIT ON` says otherwise). Checked against the regions Phoenix 5.2.1
    /// creates. Create the HBase table with these when rowkey creates it, so that each
    /// bucket's writes land on a region of their own.
    pub fn split_points(&self) -> Vec<bytes::Bytes> {
        let Some(n) = self.key.salt_buckets() else {
            return Vec::new();
        };
        let columns = self.key.columns();
        // Every column after the first: its width, or one separator byte.
        let rest: usize = columns
            .iter()
            .skip(1)
            .map(|c| c.ty.fixed_width().unwrap_or(1))
            .sum();
        let fill = match columns.first() {
            None => 0,
            Some(first) => match first.ty.fixed_width() {
                Some(w) => w + rest,
                // A lone variable-width column needs no separator: nothing to fill.
                None if columns.len() == 1 => 0,
                None => 1 + rest,
            },
        };
        (1..n)
            .map(|b| {
                let mut split = vec![0u8; 1 + fill];
                split[0] = b;
                bytes::Bytes::from(split)
            })
            .collect()
    }

    /// The row key.
    pub fn key(&self) -> &PhoenixKey {
        &self.key
    }

    /// The value columns.
    pub fn columns(&self) -> &[ValueColumn] {
        &self.columns
    }

    /// The family of the empty marker cell: the first value column's family, or Phoenix's
    /// default `0` for a table of key columns only.
    pub fn default_family(&self) -> &str {
        self.columns.first().map_or("0", |c| &c.family)
    }

    /// Every family, the default first.
    pub fn families(&self) -> Vec<&str> {
        let mut out = vec![self.default_family()];
        for c in &self.columns {
            if !out.contains(&&*c.family) {
                out.push(&c.family);
            }
        }
        out
    }

    /// `CREATE TABLE` for this table: every name quoted (its case kept), the primary-key
    /// constraint with each column's sort order, `SALT_BUCKETS`, the default family, and
    /// `COLUMN_ENCODED_BYTES=0` (qualifiers are the column names, as rowkey writes them).
    pub fn create_table(&self) -> String {
        let mut options = Vec::new();
        if let Some(n) = self.key.salt_buckets() {
            options.push(format!("SALT_BUCKETS={n}"));
        }
        options.push(format!("DEFAULT_COLUMN_FAMILY='{}'", self.default_family()));
        options.push("COLUMN_ENCODED_BYTES=0".to_string());
        self.ddl("CREATE TABLE", &options)
    }

    /// `CREATE VIEW` mapping an HBase table of this name that rowkey made and writes: Phoenix
    /// reads its rows in place (each with the empty marker cell in the default family, as
    /// rowkey writes them for this table). A salted key is refused: Phoenix cannot salt a
    /// view, so it would not read the salt byte; create such a table with
    /// [`PhoenixTable::create_table`] instead.
    pub fn create_view(&self) -> Result<String, PhoenixError> {
        if self.key.salt_buckets().is_some() {
            return Err(PhoenixError::new(
                "Phoenix cannot map a salted table as a view: create it with create_table",
            ));
        }
        Ok(self.ddl("CREATE VIEW", &["COLUMN_ENCODED_BYTES=0".to_string()]))
    }

    fn ddl(&self, verb: &str, options: &[String]) -> String {
        let mut cols: Vec<String> = self
            .key
            .columns()
            .iter()
            .map(|k| {
                format!(
                    "\"{}\" {}{}",
                    k.name,
                    k.ty.sql(),
                    if k.nullable { "" } else { " NOT NULL" }
                )
            })
            .collect();
        cols.extend(
            self.columns
                .iter()
                .map(|c| format!("\"{}\".\"{}\" {}", c.family, c.name, c.ty.sql())),
        );
        let pk: Vec<String> = self
            .key
            .columns()
            .iter()
            .map(|k| match k.order {
                SortOrder::Asc => format!("\"{}\"", k.name),
                SortOrder::Desc => format!("\"{}\" DESC", k.name),
            })
            .collect();
        format!(
            "{verb} \"{}\" ({}, CONSTRAINT \"pk\" PRIMARY KEY ({})) {}",
            self.name,
            cols.join(", "),
            pk.join(", "),
            options.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::key::{KeyColumn, PhoenixKey};
    use super::*;

    fn splits(columns: Vec<KeyColumn>, buckets: Option<u8>) -> Vec<Vec<u8>> {
        let key = PhoenixKey::new(columns, buckets).unwrap();
        PhoenixTable::new("t", key, Vec::new())
            .unwrap()
            .split_points()
            .iter()
            .map(|b| b.to_vec())
            .collect()
    }

    /// Phoenix's padding of a salt byte split (`SchemaUtil.processSplit`); the first layout is
    /// the one tests/phoenix.rs checks against the regions Phoenix 5.2.1 creates.
    #[test]
    fn salted_split_points_are_padded_as_phoenix_pads_them() {
        use PhoenixType::*;
        let col = KeyColumn::new;
        // VARCHAR then BIGINT: a separator and 8 bytes.
        assert_eq!(
            splits(vec![col("h", Varchar), col("t", BigInt)], Some(3)),
            [
                [&[1u8][..], &[0; 9]].concat(),
                [&[2u8][..], &[0; 9]].concat()
            ]
        );
        // INTEGER then VARCHAR then CHAR(2): 4 bytes, a separator byte, 2 bytes.
        assert_eq!(
            splits(
                vec![col("a", Integer), col("b", Varchar), col("c", Char(2))],
                Some(2)
            ),
            [[&[1u8][..], &[0; 7]].concat()]
        );
        // A lone VARCHAR: the salt byte alone.
        assert_eq!(splits(vec![col("a", Varchar)], Some(2)), [vec![1u8]]);
        // Unsalted: none.
        assert!(splits(vec![col("a", BigInt)], None).is_empty());
    }
}
