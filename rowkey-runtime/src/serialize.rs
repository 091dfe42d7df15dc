//! `serde::Serialize` for the layout types ([`Schema`] and its parts, [`Domain`], the value
//! side's [`ValueSchema`] and the [`SizeBudget`]), written by
//! hand: the encoding core then needs no `serde_derive`, which (from serde 1.0.220 on) would
//! bring a second major version of `syn` into every build that uses rowkey. The output is what
//! `#[derive(Serialize)]` gave: structs as maps of their fields, `Order` as a snake_case string,
//! `Domain::hi` as a decimal string.

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::budget::{CellCost, SizeBudget};
use crate::family::Family;
use crate::schema::{Domain, FieldSchema, Order, SaltSchema, Schema, VariantSchema};
use crate::value::{ColumnSchema, ValueSchema};

/// `impl Serialize` for a struct, as a map of the listed fields in order.
macro_rules! serialize_struct {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                // Destructured without `..`: a field added to the type and not listed here
                // is a compile error, not a field silently missing from the output.
                let $ty { $($field),* } = self;
                const FIELDS: &[&str] = &[$(stringify!($field)),*];
                let mut st = serializer.serialize_struct(stringify!($ty), FIELDS.len())?;
                $(st.serialize_field(stringify!($field), $field)?;)*
                st.end()
            }
        }
    };
}

serialize_struct!(Schema {
    name,
    fields,
    variants,
    salt,
    fixed_len,
    max_len,
    limit,
    allow_hotspot,
});
serialize_struct!(FieldSchema {
    name,
    rust_type,
    offset,
    width,
    max_width,
    encoding,
    order,
    attributes,
    salted,
    nested,
    domain,
});
serialize_struct!(VariantSchema { name, tag, fields });
serialize_struct!(SaltSchema {
    buckets,
    hash,
    fields
});

// The value side and the size budget, as data for tools.
serialize_struct!(ValueSchema {
    name,
    columns,
    family_options
});
serialize_struct!(ColumnSchema {
    field,
    family,
    qualifier,
    rust_type,
    encoding,
    width,
    optional,
});
serialize_struct!(SizeBudget { name, cells });
serialize_struct!(CellCost {
    column,
    row_len,
    qualifier_len,
    value_len,
    coordinates,
});

impl Serialize for Order {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (index, name) = match self {
            Order::Ascending => (0, "ascending"),
            Order::Descending => (1, "descending"),
            Order::Unordered => (2, "unordered"),
        };
        serializer.serialize_unit_variant("Order", index, name)
    }
}

impl Serialize for Domain {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut st = serializer.serialize_struct("Domain", 3)?;
        st.serialize_field("bytes", &self.bytes)?;
        st.serialize_field("lo", &self.lo)?;
        st.serialize_field("hi", &self.hi.to_string())?;
        st.end()
    }
}

/// A family as a map of its options, each enum by its attribute spelling (`"rowcol"`,
/// `"fast_diff"`), the TTL in seconds or `null` for forever.
impl Serialize for Family {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut st = serializer.serialize_struct("Family", 10)?;
        st.serialize_field("name", &self.name)?;
        st.serialize_field("versions", &self.max_versions)?;
        st.serialize_field("min_versions", &self.min_versions)?;
        st.serialize_field("ttl_secs", &self.ttl_secs)?;
        st.serialize_field("keep_deleted", self.keep_deleted.name())?;
        st.serialize_field("bloom", self.bloom.name())?;
        st.serialize_field("compression", self.compression.name())?;
        st.serialize_field("block_size", &self.block_size)?;
        st.serialize_field("in_memory", &self.in_memory)?;
        st.serialize_field("encoding", self.encoding.name())?;
        st.end()
    }
}

/// The table layout: name, key layout, the key fingerprint as `0x` and 16 hex digits, the
/// value layout, and the split points in hex.
impl Serialize for crate::family::TableLayout {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let splits: Vec<String> = self
            .splits
            .iter()
            .map(|s| s.iter().map(|b| format!("{b:02x}")).collect())
            .collect();
        let mut st = serializer.serialize_struct("TableLayout", 5)?;
        st.serialize_field("table", &self.table)?;
        st.serialize_field("key", self.key)?;
        st.serialize_field(
            "key_fingerprint",
            &format!("{:#018x}", self.key_fingerprint),
        )?;
        st.serialize_field("value", &self.value)?;
        st.serialize_field("splits", &splits)?;
        st.end()
    }
}
