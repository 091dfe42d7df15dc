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

/// A key Java wrote (`writeLong` + `writeUTF`), through the renamed dependency, with a query.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(crate = "keys", query)]
pub struct Install {
    /// The user, a Java long that is never negative.
    #[java]
    pub user_id: u64,
    /// The application, as `writeUTF` wrote it.
    #[java(utf)]
    pub application_id: String,
}

/// The salting article's text key with its hash prefix, through the re-export path.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(
    crate = "crate::facade::rowkey",
    delimiter = ':',
    hash_prefix(md5, of = message_id, upper),
    query
)]
pub struct Message {
    /// yyMMdd.
    #[decimal(width = 6)]
    pub date: u32,
    /// The message id.
    #[decimal]
    pub message_id: u64,
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

        let i = Install {
            user_id: 1,
            application_id: "abc".into(),
        };
        let bytes = i.to_bytes().unwrap();
        assert_eq!(&bytes[..], b"\0\0\0\0\0\0\0\x01\0\x03abc");
        assert_eq!(Install::decode(&bytes).unwrap(), i);
        assert!(Install::scan().user_id(0u64..5).ranges().contains(&bytes));
        let _ = Install::query().application_id("abc").build();

        let m = Message {
            date: 230_611,
            message_id: 42,
        };
        let bytes = m.to_bytes().unwrap();
        assert_eq!(&bytes[32..], b":230611:42");
        assert_eq!(Message::decode(&bytes).unwrap(), m);
        let _ = Message::query().message_id(42u64).build();
    }
}
