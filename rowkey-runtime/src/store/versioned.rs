//! [`AsyncVersions`]: the stores that keep several timestamped versions of a cell (HBase over
//! both protocols, Bigtable), and their blocking face, written once over the trait.

use std::future::Future;

use super::{AsyncStore, Blocking, CellVersion, Versions};

/// A store that keeps several timestamped versions of each cell: HBase (both stores) and
/// Bigtable. Timestamps are milliseconds (Bigtable's microseconds at millisecond granularity);
/// what is kept is what the family declares ([`Family`](crate::family::Family): versions, TTL,
/// minimum versions, deleted cells kept), applied as the server applies it. The blocking stores
/// ([`Blocking`]) offer the same two methods.
pub trait AsyncVersions: AsyncStore {
    /// The versions of cell `family:qualifier` of row `key` that `versions` selects, newest
    /// first, with their timestamps.
    fn read_versions(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        versions: &Versions,
    ) -> impl Future<Output = Result<Vec<CellVersion>, Self::Error>> + Send;

    /// Writes `value` to cell `family:qualifier` of row `key` as the version at
    /// `timestamp_ms` (an explicit timestamp: repeating it writes the same version again).
    fn write_version(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        value: &[u8],
        timestamp_ms: i64,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send;
}

impl<S: AsyncVersions> Blocking<S>
where
    S::Error: From<std::io::Error>,
{
    /// [`AsyncVersions::read_versions`]: a cell's versions, newest first.
    pub fn read_versions(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        versions: &Versions,
    ) -> Result<Vec<CellVersion>, S::Error> {
        let (key, family, qualifier, versions) = (
            key.to_vec(),
            family.to_string(),
            qualifier.to_vec(),
            *versions,
        );
        self.call(|s| async move { s.read_versions(&key, &family, &qualifier, &versions).await })
    }

    /// [`AsyncVersions::write_version`]: a cell's value at an explicit timestamp.
    pub fn write_version(
        &self,
        key: &[u8],
        family: &str,
        qualifier: &[u8],
        value: &[u8],
        timestamp_ms: i64,
    ) -> Result<(), S::Error> {
        let (key, family, qualifier, value) = (
            key.to_vec(),
            family.to_string(),
            qualifier.to_vec(),
            value.to_vec(),
        );
        self.call(|s| async move {
            s.write_version(&key, &family, &qualifier, &value, timestamp_ms)
                .await
        })
    }
}
