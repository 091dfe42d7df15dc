//! Queries built from values known only at run time (a SQL engine's literals, a command
//! line's arguments): [`DynQuery`], over the keys whose derive generated a query builder
//! (`#[rowkey(query)]`, which implements [`QueryKey`]). Each field is constrained through the
//! same typed codec the generated builder uses: a run-time value is converted to the field's
//! Rust type first (exactly, or not at all), so a dynamic query's bytes are the typed one's.

use core::marker::PhantomData;
use core::ops::Bound;

use crate::codec::Codec;
use crate::dynamic::DynValue;
use crate::key::RowKey;
use crate::scan::query::{between, QueryBuilder, TypedQuery};
use crate::schema::HASH_PREFIX_FIELD;

/// What a run-time query asks of one key field.
#[derive(Clone, Copy, Debug)]
pub enum DynArg<'v> {
    /// Equal to one of these values (none: no key matches).
    Values(&'v [DynValue<'v>]),
    /// Between these bounds, in the field's own order.
    Range(Bound<&'v DynValue<'v>>, Bound<&'v DynValue<'v>>),
}

/// A key whose queries can be built from run-time values ([`DynQuery`]): implemented by
/// `#[derive(RowKey)]` for keys declared with `#[rowkey(query)]`.
pub trait QueryKey: RowKey + for<'de> crate::field::Decode<'de> {
    /// Every segment open (what `K::query()` starts from).
    #[doc(hidden)]
    fn __query() -> QueryBuilder;

    /// Constrains field number `field` as `arg` asks; `false` (and `q` unchanged) when the
    /// field cannot take it (a value of another type, a range on a field that keeps no order,
    /// a field whose type has no run-time form).
    #[doc(hidden)]
    fn __constrain(q: &mut QueryBuilder, field: usize, arg: DynArg<'_>) -> bool;
}

/// A skip-scan query of `K`'s keys built from run-time values: the untyped twin of the
/// generated `K::query()` builder, for engines that learn the constraints as data (DataFusion's
/// filters, a CLI's `--where`). Each method says whether it took the constraint: one it did
/// not take is not part of the query (the caller filters those rows itself), and the query is
/// unchanged by it.
///
/// ```
/// use rowkey::{DynQuery, DynValue, RowKey};
/// use std::ops::Bound;
///
/// #[derive(RowKey, Debug, PartialEq)]
/// #[rowkey(query)]
/// struct Install {
///     user: u32,
///     app: u16,
/// }
///
/// let mut q = DynQuery::<Install>::new();
/// let app = DynQuery::<Install>::field("app").unwrap();
/// assert!(q.eq(app, &DynValue::U16(3)));
/// // A value the field's type cannot hold exactly is refused, not rounded.
/// assert!(!q.eq(app, &DynValue::I64(-1)));
/// let user = DynQuery::<Install>::field("user").unwrap();
/// assert!(q.between(user, Bound::Included(&DynValue::U32(10)), Bound::Excluded(&DynValue::U32(20))));
/// let typed = Install::query().app(3u16).user(10u32..20).build();
/// assert_eq!(q.build().to_string(), typed.to_string());
/// ```
pub struct DynQuery<K> {
    q: QueryBuilder,
    key: PhantomData<fn() -> K>,
}

impl<K: QueryKey> Default for DynQuery<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: QueryKey> Clone for DynQuery<K> {
    fn clone(&self) -> Self {
        DynQuery {
            q: self.q.clone(),
            key: PhantomData,
        }
    }
}

impl<K> core::fmt::Debug for DynQuery<K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DynQuery").finish_non_exhaustive()
    }
}

impl<K: QueryKey> DynQuery<K> {
    /// Every field open.
    pub fn new() -> Self {
        DynQuery {
            q: K::__query(),
            key: PhantomData,
        }
    }

    /// The number of `K`'s field named `name` (its leading fields, shared by every record
    /// type of a record-type key), as the other methods take it.
    pub fn field(name: &str) -> Option<usize> {
        K::SCHEMA
            .fields
            .iter()
            .filter(|f| f.name != HASH_PREFIX_FIELD)
            .position(|f| f.name == name)
    }

    /// Only keys whose field `field` is `value` (`DynValue::Null` for an `Option` that is
    /// `None`).
    pub fn eq(&mut self, field: usize, value: &DynValue<'_>) -> bool {
        self.any_of(field, core::slice::from_ref(value))
    }

    /// Only keys whose field `field` is one of `values` (none: no key matches).
    pub fn any_of(&mut self, field: usize, values: &[DynValue<'_>]) -> bool {
        K::__constrain(&mut self.q, field, DynArg::Values(values))
    }

    /// Only keys whose field `field` lies between `lo` and `hi` (in the field's Rust type's
    /// order); refused for a field that keeps no order.
    pub fn between(
        &mut self,
        field: usize,
        lo: Bound<&DynValue<'_>>,
        hi: Bound<&DynValue<'_>>,
    ) -> bool {
        K::__constrain(&mut self.q, field, DynArg::Range(lo, hi))
    }

    /// Only the records of a record-type key's record type `name`; `false` when `K` has no
    /// record type of that name.
    pub fn record(&mut self, name: &str) -> bool {
        match K::SCHEMA.variants.iter().find(|v| v.name == name) {
            Some(v) => {
                self.q.record(v.tag);
                true
            }
            None => false,
        }
    }

    /// The query.
    pub fn build(self) -> TypedQuery<K> {
        TypedQuery::new(self.q.build())
    }
}

/// A run-time value converted to a field's Rust type: exactly, or not at all (`None`).
#[doc(hidden)]
pub trait FromDyn<'v>: Sized {
    /// The value as `Self`, when it is one.
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self>;
}

macro_rules! from_dyn_int {
    ($($t:ty),*) => {$(
        impl<'v> FromDyn<'v> for $t {
            fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
                match *v {
                    DynValue::U8(x) => <$t>::try_from(x).ok(),
                    DynValue::U16(x) => <$t>::try_from(x).ok(),
                    DynValue::U32(x) => <$t>::try_from(x).ok(),
                    DynValue::U64(x) => <$t>::try_from(x).ok(),
                    DynValue::U128(x) => <$t>::try_from(x).ok(),
                    DynValue::I8(x) => <$t>::try_from(x).ok(),
                    DynValue::I16(x) => <$t>::try_from(x).ok(),
                    DynValue::I32(x) => <$t>::try_from(x).ok(),
                    DynValue::I64(x) => <$t>::try_from(x).ok(),
                    DynValue::I128(x) => <$t>::try_from(x).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
from_dyn_int!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);

impl<'v> FromDyn<'v> for f64 {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        match *v {
            DynValue::F64(x) => Some(x),
            DynValue::F32(x) => Some(f64::from(x)),
            _ => None,
        }
    }
}

impl<'v> FromDyn<'v> for f32 {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        match *v {
            DynValue::F32(x) => Some(x),
            // Only an f64 that is an f32 exactly (NaN stays NaN).
            #[allow(clippy::cast_possible_truncation)]
            DynValue::F64(x) => {
                let narrow = x as f32;
                (f64::from(narrow).to_bits() == x.to_bits() || x.is_nan()).then_some(narrow)
            }
            _ => None,
        }
    }
}

impl<'v> FromDyn<'v> for bool {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        match *v {
            DynValue::Bool(x) => Some(x),
            _ => None,
        }
    }
}

impl<'v> FromDyn<'v> for char {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        match v {
            DynValue::Str(s) => {
                let mut chars = s.chars();
                let c = chars.next()?;
                chars.next().is_none().then_some(c)
            }
            _ => None,
        }
    }
}

impl<'v> FromDyn<'v> for &'v str {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        match v {
            DynValue::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl<'v> FromDyn<'v> for String {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        <&str>::from_dyn(v).map(str::to_owned)
    }
}

impl<'v> FromDyn<'v> for Box<str> {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        <&str>::from_dyn(v).map(Box::from)
    }
}

impl<'v> FromDyn<'v> for &'v [u8] {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        match v {
            DynValue::Bytes(b) => Some(b),
            _ => None,
        }
    }
}

impl<'v> FromDyn<'v> for Vec<u8> {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        <&[u8]>::from_dyn(v).map(<[u8]>::to_vec)
    }
}

impl<'v> FromDyn<'v> for Box<[u8]> {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        <&[u8]>::from_dyn(v).map(Box::from)
    }
}

impl<'v, const N: usize> FromDyn<'v> for [u8; N] {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        <&[u8]>::from_dyn(v).and_then(|b| b.try_into().ok())
    }
}

impl<'v, T: FromDyn<'v>> FromDyn<'v> for Option<T> {
    fn from_dyn(v: &'v DynValue<'v>) -> Option<Self> {
        match v {
            DynValue::Null => Some(None),
            other => T::from_dyn(other).map(Some),
        }
    }
}

/// Picks, for a field encoded by `C` as a `T`, whether a run-time value can constrain it: the
/// generated hook calls `(&DynProbe::<C, T>::NEW).__rowkey_constrain(..)`, which resolves to
/// [`DynConstrain`] when `T` converts from a [`DynValue`] and to [`DynRefuse`] (nothing
/// taken) otherwise (a user's own key type, a nested key).
#[doc(hidden)]
pub struct DynProbe<C: ?Sized, T: ?Sized>(PhantomData<fn() -> (*const C, *const T)>);

impl<C: ?Sized, T: ?Sized> DynProbe<C, T> {
    /// The probe.
    pub const NEW: Self = DynProbe(PhantomData);
}

/// See [`DynProbe`]: a field whose type converts from a run-time value.
#[doc(hidden)]
pub trait DynConstrain<'v> {
    /// Constrains the field (`ordered`: whether it takes ranges).
    fn __rowkey_constrain(
        &self,
        q: &mut QueryBuilder,
        field: usize,
        arg: DynArg<'v>,
        ordered: bool,
    ) -> bool;
}

impl<'v, C: Codec<T>, T: FromDyn<'v>> DynConstrain<'v> for DynProbe<C, T> {
    fn __rowkey_constrain(
        &self,
        q: &mut QueryBuilder,
        field: usize,
        arg: DynArg<'v>,
        ordered: bool,
    ) -> bool {
        match arg {
            DynArg::Values(values) => {
                let Some(typed) = values.iter().map(T::from_dyn).collect::<Option<Vec<T>>>() else {
                    return false;
                };
                q.any_of::<C, T>(field, typed);
                true
            }
            DynArg::Range(lo, hi) if ordered => {
                let (Some(lo), Some(hi)) = (bound::<T>(lo), bound::<T>(hi)) else {
                    return false;
                };
                q.and(field, between::<C, T>(lo, hi));
                true
            }
            DynArg::Range(..) => false,
        }
    }
}

fn bound<'v, T: FromDyn<'v>>(b: Bound<&'v DynValue<'v>>) -> Option<Bound<T>> {
    Some(match b {
        Bound::Included(v) => Bound::Included(T::from_dyn(v)?),
        Bound::Excluded(v) => Bound::Excluded(T::from_dyn(v)?),
        Bound::Unbounded => Bound::Unbounded,
    })
}

/// See [`DynProbe`]: a field whose type has no run-time form takes nothing.
#[doc(hidden)]
pub trait DynRefuse<'v> {
    /// Takes nothing.
    fn __rowkey_constrain(
        &self,
        _q: &mut QueryBuilder,
        _field: usize,
        _arg: DynArg<'v>,
        _ordered: bool,
    ) -> bool {
        false
    }
}

impl<'v, C: ?Sized, T: ?Sized> DynRefuse<'v> for &DynProbe<C, T> {}
