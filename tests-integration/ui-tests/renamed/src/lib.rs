//! `#[rowkey(crate = "...")]`: this crate knows `rowkey` only as `keys` (and through a
//! re-export), so any generated path that names `::rowkey` would fail to compile here.

/// A facade re-exporting the library, as a company-internal crate might.
pub mod facade {
    pub use keys as rowkey;
}

use keys::RowKey;

/// A struct key reaching the runtime through the renamed dependency.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(crate = "keys")]
pub struct Visit {
    /// The site; salted.
    #[salt(buckets = 4)]
    pub site: u32,
    /// The page.
    pub page: String,
    /// When, newest first.
    #[reverse_ts]
    pub ts: u64,
}

/// A record-type key reaching the runtime through a re-export path.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(crate = "crate::facade::rowkey", prefix(site))]
pub enum SiteRow {
    /// The site itself.
    #[tag(1)]
    Site {
        /// The site.
        site: u32,
    },
    /// One page of it.
    #[tag(2)]
    Page {
        /// The site.
        site: u32,
        /// The page's path.
        path: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_scan_through_a_renamed_dependency() {
        let v = Visit {
            site: 7,
            page: "/a".into(),
            ts: 1_700_000_000_000,
        };
        let bytes = v.to_bytes().unwrap();
        assert_eq!(Visit::decode(&bytes).unwrap(), v);
        assert!(Visit::scan().site(7).ranges().contains(&bytes));

        let row = SiteRow::Page {
            site: 7,
            path: "/a".into(),
        };
        let bytes = row.to_bytes().unwrap();
        assert_eq!(SiteRow::decode(&bytes).unwrap(), row);
        assert!(SiteRow::scan().site(7).page().ranges().contains(&bytes));
        assert!(!SiteRow::scan().site(7).site().ranges().contains(&bytes));
    }
}
