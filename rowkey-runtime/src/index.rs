//! [`IndexOf`]: a key type that is a second order of another key type's fields, for
//! dual-write secondary indexes (the Flurry article's `(applicationId, userId)` table beside
//! `(userId, applicationId)`; the guide's "Secondary Indexes and Alternate Query Paths").

/// `Self` is an index of the record key `R`: the same fields, by name, in another order (and
/// possibly other encodings, such as a reversed timestamp). Derived with
/// `#[rowkey(index_of = R)]`; the derive checks at compile time that every field exists in
/// `R` with the same type and that the index has every field of `R`, so each index entry
/// names exactly one record. `IndexedTable` (in `rowkey::store`) writes, deletes and reads
/// records through it.
///
/// ```
/// use rowkey::{IndexOf, RowKey};
///
/// #[derive(RowKey, Debug, PartialEq, Clone)]
/// struct UserApp { #[salt(buckets = 8)] user_id: u64, app_id: u32 }
///
/// #[derive(RowKey, Debug, PartialEq)]
/// #[rowkey(index_of = UserApp)]
/// struct AppUser { app_id: u32, user_id: u64 }
///
/// let r = UserApp { user_id: 7, app_id: 3 };
/// let i = AppUser::from_record(&r);
/// assert_eq!(i, AppUser { app_id: 3, user_id: 7 });
/// assert_eq!(i.to_record(), r);
/// ```
pub trait IndexOf<R> {
    /// The index entry of a record.
    fn from_record(record: &R) -> Self;
    /// The record an index entry names.
    fn to_record(&self) -> R;
}
