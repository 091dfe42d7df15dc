//! The size budget: the bytes of coordinates every cell carries (row key, family, qualifier,
//! timestamp and the store's own framing), per store, computed from a design's keys and
//! columns, so that the guide's "keep names short" is a number seen while designing.
//!
//! Per cell, before compression and block encodings:
//!
//! | store | coordinates of one cell |
//! |---|---|
//! | HBase (`KeyValue`) | 4 (key length) + 4 (value length) + 2 (row length) + row + 1 (family length) + family + qualifier + 8 (timestamp) + 1 (type) = row + family + qualifier + 20 |
//! | Cloud Bigtable | row + family + qualifier + 8 (timestamp), as its data model stores them |
//! | fjall and memory (rowkey's composite layout) | escaped row (+1 per `00` byte) + 2 + family + 2 + qualifier + about 10 (fjall's sequence number, value type and lengths) |

use std::fmt::Write as _;

use crate::key::RowKey;
use crate::rows_as_columns::RowsAsColumns;
use crate::value::{RowValue, ValueSchema};

/// How a store frames one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellFormat {
    /// HBase's `KeyValue`.
    Hbase,
    /// Cloud Bigtable's cell.
    Bigtable,
    /// rowkey's composite layout in fjall (and memory).
    Composite,
}

use crate::figures::{BIGTABLE_CELL, COMPOSITE_TERMINATORS, FJALL_ENTRY, HBASE_KEYVALUE};

impl CellFormat {
    /// Every format, in the order the tables show them.
    pub const ALL: [CellFormat; 3] = [
        CellFormat::Hbase,
        CellFormat::Bigtable,
        CellFormat::Composite,
    ];

    /// The store's name.
    pub fn name(self) -> &'static str {
        match self {
            CellFormat::Hbase => "HBase",
            CellFormat::Bigtable => "Bigtable",
            CellFormat::Composite => "fjall",
        }
    }

    /// The bytes of coordinates one cell carries in this format.
    pub fn coordinates(self, row: &[u8], family: &str, qualifier: &[u8]) -> usize {
        let zeros = |b: &[u8]| b.iter().filter(|&&x| x == 0).count();
        match self {
            CellFormat::Hbase => HBASE_KEYVALUE + row.len() + family.len() + qualifier.len(),
            CellFormat::Bigtable => BIGTABLE_CELL + row.len() + family.len() + qualifier.len(),
            CellFormat::Composite => {
                row.len()
                    + zeros(row)
                    + family.len()
                    + zeros(family.as_bytes())
                    + COMPOSITE_TERMINATORS
                    + qualifier.len()
                    + FJALL_ENTRY
            }
        }
    }
}

/// One cell of a design's record: its column and what its coordinates cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellCost {
    /// The column, `family:qualifier` (a rows-as-columns qualifier is shown by its length).
    pub column: String,
    /// The row key's length.
    pub row_len: usize,
    /// The qualifier's length.
    pub qualifier_len: usize,
    /// The value's length, when fixed.
    pub value_len: Option<usize>,
    /// Coordinates per cell, in the order of [`CellFormat::ALL`].
    pub coordinates: [usize; 3],
}

/// What one record of a design costs in coordinates, per store; see the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeBudget {
    /// The design's name.
    pub name: String,
    /// The cells one record writes.
    pub cells: Vec<CellCost>,
}

impl SizeBudget {
    fn cost(
        row: &[u8],
        family: &str,
        qualifier: &[u8],
        column: String,
        value_len: Option<usize>,
    ) -> CellCost {
        CellCost {
            column,
            row_len: row.len(),
            qualifier_len: qualifier.len(),
            value_len,
            coordinates: CellFormat::ALL.map(|f| f.coordinates(row, family, qualifier)),
        }
    }

    /// A typed row: `key`'s encoding (an example key of the design) and every column of `V`.
    pub fn of_row<K: RowKey, V: RowValue>(key: &K) -> Self {
        let row = key.to_bytes().map(|b| b.to_vec()).unwrap_or_default();
        let cells = V::SCHEMA
            .columns
            .iter()
            .map(|c| {
                let column = format!("{}:{}", c.family, c.qualifier);
                Self::cost(&row, c.family, c.qualifier.as_bytes(), column, c.width)
            })
            .collect();
        SizeBudget {
            name: format!("{} / {}", K::SCHEMA.name, V::SCHEMA.name),
            cells,
        }
    }

    /// A raw [`Table`](crate::store::Table): one cell per row, `family:v`, on Bigtable and
    /// HBase (fjall keeps the raw row alone: shown as a cell without family or qualifier).
    pub fn of_raw<K: RowKey>(key: &K, family: &str, value_len: Option<usize>) -> Self {
        let row = key.to_bytes().map(|b| b.to_vec()).unwrap_or_default();
        let mut cost = Self::cost(&row, family, b"v", format!("{family}:v"), value_len);
        // A raw fjall row: the key and fjall's framing only.
        cost.coordinates[2] = row.len() + FJALL_ENTRY;
        SizeBudget {
            name: format!("{} (raw value)", K::SCHEMA.name),
            cells: vec![cost],
        }
    }

    /// A rows-as-columns record ([`WideTable`](crate::store::WideTable)): the row key's part
    /// of `key`, the rest as the qualifier, in `family`.
    pub fn of_wide<K: RowsAsColumns>(key: &K, family: &str, value_len: Option<usize>) -> Self {
        let bytes = key.to_bytes().map(|b| b.to_vec()).unwrap_or_default();
        let (row, qualifier) = K::split_key(&bytes).unwrap_or((&bytes, &[]));
        let column = format!("{family}:({} bytes of key)", qualifier.len());
        SizeBudget {
            name: format!("{} (rows as columns)", K::SCHEMA.name),
            cells: vec![Self::cost(row, family, qualifier, column, value_len)],
        }
    }

    /// Coordinates per record in `format`.
    pub fn per_record(&self, format: CellFormat) -> usize {
        let i = CellFormat::ALL
            .iter()
            .position(|f| *f == format)
            .unwrap_or(0);
        self.cells.iter().map(|c| c.coordinates[i]).sum()
    }

    /// Coordinates of `records` records in `format`.
    pub fn for_records(&self, records: u64, format: CellFormat) -> u64 {
        records.saturating_mul(self.per_record(format) as u64)
    }

    /// The budget as a Markdown table, with the total for `records` records.
    pub fn to_markdown(&self, records: u64) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "`{}`: coordinates per cell, before compression\n",
            self.name
        );
        out.push_str("| column | row key | qualifier | value | HBase | Bigtable | fjall |\n|---|---|---|---|---|---|---|\n");
        for c in &self.cells {
            let value = c
                .value_len
                .map_or_else(|| "variable".to_string(), |n| n.to_string());
            let [h, b, f] = c.coordinates;
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {value} | {h} | {b} | {f} |",
                c.column, c.row_len, c.qualifier_len
            );
        }
        let totals = CellFormat::ALL.map(|f| human_bytes(self.for_records(records, f)));
        let _ = writeln!(
            out,
            "| **{} records** | | | | {} | {} | {} |",
            grouped(records),
            totals[0],
            totals[1],
            totals[2]
        );
        out
    }
}

/// `10000000` as `10,000,000`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Bytes in binary units, one decimal.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// The value side's layout table carries the budget's per-cell figures, so it is written here
/// (the value side does not depend on the budget).
impl ValueSchema {
    /// The columns as a Markdown table, with the bytes of coordinates each cell adds to its
    /// row key in each store (see [`SizeBudget`](crate::SizeBudget) for whole designs).
    pub fn to_markdown(&self) -> String {
        use std::fmt::Write as _;
        let mut out = format!(
            "`{}`: {} column(s) in {} family(ies)\n\n",
            self.name,
            self.columns.len(),
            self.families().len()
        );
        out.push_str("| field | column | type | value | HBase | Bigtable | fjall |\n|---|---|---|---|---|---|---|\n");
        for c in self.columns {
            let value = match (c.width, c.optional) {
                (Some(w), false) => format!("{w} bytes"),
                (Some(w), true) => format!("{w} bytes, optional"),
                (None, false) => "variable".to_string(),
                (None, true) => "variable, optional".to_string(),
            };
            let [h, b, f] =
                CellFormat::ALL.map(|fmt| fmt.coordinates(&[], c.family, c.qualifier.as_bytes()));
            let _ = writeln!(
                out,
                "| `{}` | `{}:{}` | `{}` | {value} | key + {h} | key + {b} | key + {f} |",
                c.field, c.family, c.qualifier, c.rust_type
            );
        }
        let _ = writeln!(
            out,
            "\nEach cell carries its row key, family, qualifier and timestamp (HBase: `KeyValue` framing of {HBASE_KEYVALUE} bytes; fjall: +1 per `00` byte of the key)."
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hbase_keyvalue_framing_is_twenty_bytes() {
        // The guide's example: a 100-byte key over 10 million rows is ~1 GB of keys alone.
        let row = [7u8; 100];
        assert_eq!(CellFormat::Hbase.coordinates(&row, "d", b"v"), 122);
        assert_eq!(CellFormat::Bigtable.coordinates(&row, "d", b"v"), 110);
        assert_eq!(
            CellFormat::Composite.coordinates(&[0, 1], "d", b"q"),
            3 + 2 + 1 + 2 + 1 + 10
        );
        assert_eq!(human_bytes(1_000_000_000), "953.7 MiB");
        assert_eq!(human_bytes(10), "10 B");
        assert_eq!(grouped(10_000_000), "10,000,000");
        assert_eq!(grouped(999), "999");
    }
}
