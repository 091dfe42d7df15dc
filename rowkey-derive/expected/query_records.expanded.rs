#[doc(hidden)]
#[allow(non_camel_case_types)]
type __RowkeyCustomerRowScanValues<'scan> = (::rowkey::__private::Option<u64>,);
/**The typed scan builder of [`CustomerRow`], from [`CustomerRow::scan`]: fix fields in key order (the shared prefix `customer_id`, then a record type (`customer()`, `order()` or `tag(n)`) and its own fields), optionally end with a range on the next one, then call `ranges()`.

`STEP` counts the fields fixed so far; a field out of order has no method at that step.

# Layout of `CustomerRow`

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | `customer_id` | `u64` | 8 | natural | ascending |
| 1 | tag | `u8` | 1 | 1 = `Customer`, 2 = `Order` | by tag |

`Customer` (tag 1) then: nothing

`Order` (tag 2) then: `order_id: u64`

Layout fingerprint: `0x769b11cf0000b2ba` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0x769b11cf0000b2ba)]` so that a change to the stored bytes fails the build).
*/
#[allow(non_camel_case_types, non_snake_case)]
pub struct CustomerRowScan<'scan, const STEP: ::rowkey::__private::usize> {
    __rowkey_v: __RowkeyCustomerRowScanValues<'scan>,
    __rowkey_tag: ::rowkey::__private::Option<::rowkey::__private::u8>,
    __rowkey_lt: ::rowkey::__private::PhantomData<&'scan ()>,
}
#[automatically_derived]
impl<'scan, const STEP: ::rowkey::__private::usize> ::core::clone::Clone
for CustomerRowScan<'scan, STEP>
where
    ::rowkey::__private::CloneIf<
        'scan,
        __RowkeyCustomerRowScanValues<'scan>,
    >: ::rowkey::__private::CloneOf<__RowkeyCustomerRowScanValues<'scan>>,
    ::rowkey::__private::CloneIf<
        'scan,
        ::rowkey::__private::Option<::rowkey::__private::u8>,
    >: ::rowkey::__private::CloneOf<
        ::rowkey::__private::Option<::rowkey::__private::u8>,
    >,
{
    #[inline]
    fn clone(&self) -> Self {
        CustomerRowScan {
            __rowkey_v: <::rowkey::__private::CloneIf<
                'scan,
                __RowkeyCustomerRowScanValues<'scan>,
            > as ::rowkey::__private::CloneOf<
                __RowkeyCustomerRowScanValues<'scan>,
            >>::clone_of(&self.__rowkey_v),
            __rowkey_tag: <::rowkey::__private::CloneIf<
                'scan,
                ::rowkey::__private::Option<::rowkey::__private::u8>,
            > as ::rowkey::__private::CloneOf<
                ::rowkey::__private::Option<::rowkey::__private::u8>,
            >>::clone_of(&self.__rowkey_tag),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
impl<'scan, const STEP: ::rowkey::__private::usize> CustomerRowScan<'scan, STEP> {
    /// The key ranges of every key whose leading fields are the ones fixed so far, in
    /// key order.
    #[inline]
    #[must_use]
    pub fn ranges(self) -> ::rowkey::__private::KeyRanges {
        ::rowkey::__private::scan_ranges::<0u16, Self>(&self)
    }
    #[inline(always)]
    #[allow(dead_code)]
    fn __rowkey_new() -> Self {
        CustomerRowScan {
            __rowkey_v: (::rowkey::__private::None,),
            __rowkey_tag: ::rowkey::__private::None,
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
    #[inline(always)]
    #[allow(dead_code)]
    fn __rowkey_to<const __ROWKEY_N: ::rowkey::__private::usize>(
        self,
    ) -> CustomerRowScan<'scan, __ROWKEY_N> {
        CustomerRowScan {
            __rowkey_v: self.__rowkey_v,
            __rowkey_tag: self.__rowkey_tag,
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
#[automatically_derived]
#[doc(hidden)]
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<0u16>
for CustomerRowScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <CustomerRow as ::rowkey::__private::RowKey>::MAX_LEN;
    /// Writes the values given, in key order; `false` if the scan stops before the
    /// last field (the steps set them in order, so the first unset one ends it).
    #[inline(always)]
    fn write<__RowkeyBuf: ::rowkey::__private::ScanBuf>(
        &self,
        __rowkey_st: &mut ::rowkey::__private::ScanState<0u16, __RowkeyBuf>,
    ) -> ::rowkey::__private::bool {
        if !__rowkey_st.opt::<::rowkey::__private::Natural, u64>(&self.__rowkey_v.0) {
            return false;
        }
        if !__rowkey_st
            .opt::<
                ::rowkey::__private::Natural,
                ::rowkey::__private::u8,
            >(&self.__rowkey_tag)
        {
            return false;
        }
        true
    }
}
impl<'scan> CustomerRowScan<'scan, 1usize> {
    ///Narrows the scan to `Customer` records (tag 1) and continues with their own fields (none).
    #[inline]
    #[must_use]
    pub fn customer(self) -> CustomerRowCustomerScan<'scan, 0> {
        CustomerRowCustomerScan::__rowkey_new(CustomerRowScan::<'scan, { 1usize + 1 }> {
            __rowkey_v: self.__rowkey_v,
            __rowkey_tag: ::rowkey::__private::Some(1u8),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        })
    }
    ///Narrows the scan to `Order` records (tag 2) and continues with their own fields (`order_id`).
    #[inline]
    #[must_use]
    pub fn order(self) -> CustomerRowOrderScan<'scan, 0> {
        CustomerRowOrderScan::__rowkey_new(CustomerRowScan::<'scan, { 1usize + 1 }> {
            __rowkey_v: self.__rowkey_v,
            __rowkey_tag: ::rowkey::__private::Some(2u8),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        })
    }
    ///Narrows the scan to one record type by its tag byte, or, given a range of tags, to several; ends the scan.
    #[inline]
    #[must_use]
    pub fn tag<A: ::rowkey::__private::ScanArg<::rowkey::__private::u8>>(
        self,
        arg: A,
    ) -> ::rowkey::__private::ScanThen<
        A,
        ::rowkey::__private::u8,
        CustomerRowScan<'scan, { 1usize + 1 }>,
        Self,
        ::rowkey::__private::Natural,
        0u16,
    > {
        ::rowkey::__private::scan_step(
            arg,
            self,
            |__rowkey_s: Self, __rowkey_x| {
                CustomerRowScan {
                    __rowkey_v: __rowkey_s.__rowkey_v,
                    __rowkey_tag: ::rowkey::__private::Some(__rowkey_x),
                    __rowkey_lt: ::rowkey::__private::PhantomData,
                }
            },
        )
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
type __RowkeyCustomerRowCustomerScanValues<'scan> = ();
///The typed scan builder of `CustomerRow::Customer` records, from [`CustomerRowScan::customer`]: fix its fields in order, optionally end with a range, then call `ranges()`.
#[allow(non_camel_case_types, non_snake_case)]
pub struct CustomerRowCustomerScan<'scan, const STEP: ::rowkey::__private::usize> {
    __rowkey_v: __RowkeyCustomerRowCustomerScanValues<'scan>,
    __rowkey_prefix: CustomerRowScan<'scan, 2usize>,
    __rowkey_lt: ::rowkey::__private::PhantomData<&'scan ()>,
}
#[automatically_derived]
impl<'scan, const STEP: ::rowkey::__private::usize> ::core::clone::Clone
for CustomerRowCustomerScan<'scan, STEP>
where
    ::rowkey::__private::CloneIf<
        'scan,
        __RowkeyCustomerRowCustomerScanValues<'scan>,
    >: ::rowkey::__private::CloneOf<__RowkeyCustomerRowCustomerScanValues<'scan>>,
    ::rowkey::__private::CloneIf<
        'scan,
        CustomerRowScan<'scan, 2usize>,
    >: ::rowkey::__private::CloneOf<CustomerRowScan<'scan, 2usize>>,
{
    #[inline]
    fn clone(&self) -> Self {
        CustomerRowCustomerScan {
            __rowkey_v: <::rowkey::__private::CloneIf<
                'scan,
                __RowkeyCustomerRowCustomerScanValues<'scan>,
            > as ::rowkey::__private::CloneOf<
                __RowkeyCustomerRowCustomerScanValues<'scan>,
            >>::clone_of(&self.__rowkey_v),
            __rowkey_prefix: <::rowkey::__private::CloneIf<
                'scan,
                CustomerRowScan<'scan, 2usize>,
            > as ::rowkey::__private::CloneOf<
                CustomerRowScan<'scan, 2usize>,
            >>::clone_of(&self.__rowkey_prefix),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
impl<
    'scan,
    const STEP: ::rowkey::__private::usize,
> CustomerRowCustomerScan<'scan, STEP> {
    /// The key ranges of every key whose leading fields are the ones fixed so far, in
    /// key order.
    #[inline]
    #[must_use]
    pub fn ranges(self) -> ::rowkey::__private::KeyRanges {
        ::rowkey::__private::scan_ranges::<0u16, Self>(&self)
    }
    #[inline(always)]
    #[allow(dead_code)]
    fn __rowkey_new(__rowkey_prefix: CustomerRowScan<'scan, 2usize>) -> Self {
        CustomerRowCustomerScan {
            __rowkey_prefix,
            __rowkey_v: (),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
    #[inline(always)]
    #[allow(dead_code)]
    fn __rowkey_to<const __ROWKEY_N: ::rowkey::__private::usize>(
        self,
    ) -> CustomerRowCustomerScan<'scan, __ROWKEY_N> {
        CustomerRowCustomerScan {
            __rowkey_v: self.__rowkey_v,
            __rowkey_prefix: self.__rowkey_prefix,
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
#[automatically_derived]
#[doc(hidden)]
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<0u16>
for CustomerRowCustomerScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <CustomerRow as ::rowkey::__private::RowKey>::MAX_LEN;
    /// Writes the values given, in key order; `false` if the scan stops before the
    /// last field (the steps set them in order, so the first unset one ends it).
    #[inline(always)]
    fn write<__RowkeyBuf: ::rowkey::__private::ScanBuf>(
        &self,
        __rowkey_st: &mut ::rowkey::__private::ScanState<0u16, __RowkeyBuf>,
    ) -> ::rowkey::__private::bool {
        if !::rowkey::__private::WriteScan::write(&self.__rowkey_prefix, __rowkey_st) {
            return false;
        }
        true
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
type __RowkeyCustomerRowOrderScanValues<'scan> = (::rowkey::__private::Option<u64>,);
///The typed scan builder of `CustomerRow::Order` records, from [`CustomerRowScan::order`]: fix its fields in order, optionally end with a range, then call `ranges()`.
#[allow(non_camel_case_types, non_snake_case)]
pub struct CustomerRowOrderScan<'scan, const STEP: ::rowkey::__private::usize> {
    __rowkey_v: __RowkeyCustomerRowOrderScanValues<'scan>,
    __rowkey_prefix: CustomerRowScan<'scan, 2usize>,
    __rowkey_lt: ::rowkey::__private::PhantomData<&'scan ()>,
}
#[automatically_derived]
impl<'scan, const STEP: ::rowkey::__private::usize> ::core::clone::Clone
for CustomerRowOrderScan<'scan, STEP>
where
    ::rowkey::__private::CloneIf<
        'scan,
        __RowkeyCustomerRowOrderScanValues<'scan>,
    >: ::rowkey::__private::CloneOf<__RowkeyCustomerRowOrderScanValues<'scan>>,
    ::rowkey::__private::CloneIf<
        'scan,
        CustomerRowScan<'scan, 2usize>,
    >: ::rowkey::__private::CloneOf<CustomerRowScan<'scan, 2usize>>,
{
    #[inline]
    fn clone(&self) -> Self {
        CustomerRowOrderScan {
            __rowkey_v: <::rowkey::__private::CloneIf<
                'scan,
                __RowkeyCustomerRowOrderScanValues<'scan>,
            > as ::rowkey::__private::CloneOf<
                __RowkeyCustomerRowOrderScanValues<'scan>,
            >>::clone_of(&self.__rowkey_v),
            __rowkey_prefix: <::rowkey::__private::CloneIf<
                'scan,
                CustomerRowScan<'scan, 2usize>,
            > as ::rowkey::__private::CloneOf<
                CustomerRowScan<'scan, 2usize>,
            >>::clone_of(&self.__rowkey_prefix),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
impl<'scan, const STEP: ::rowkey::__private::usize> CustomerRowOrderScan<'scan, STEP> {
    /// The key ranges of every key whose leading fields are the ones fixed so far, in
    /// key order.
    #[inline]
    #[must_use]
    pub fn ranges(self) -> ::rowkey::__private::KeyRanges {
        ::rowkey::__private::scan_ranges::<0u16, Self>(&self)
    }
    #[inline(always)]
    #[allow(dead_code)]
    fn __rowkey_new(__rowkey_prefix: CustomerRowScan<'scan, 2usize>) -> Self {
        CustomerRowOrderScan {
            __rowkey_prefix,
            __rowkey_v: (::rowkey::__private::None,),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
    #[inline(always)]
    #[allow(dead_code)]
    fn __rowkey_to<const __ROWKEY_N: ::rowkey::__private::usize>(
        self,
    ) -> CustomerRowOrderScan<'scan, __ROWKEY_N> {
        CustomerRowOrderScan {
            __rowkey_v: self.__rowkey_v,
            __rowkey_prefix: self.__rowkey_prefix,
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
#[automatically_derived]
#[doc(hidden)]
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<0u16>
for CustomerRowOrderScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <CustomerRow as ::rowkey::__private::RowKey>::MAX_LEN;
    /// Writes the values given, in key order; `false` if the scan stops before the
    /// last field (the steps set them in order, so the first unset one ends it).
    #[inline(always)]
    fn write<__RowkeyBuf: ::rowkey::__private::ScanBuf>(
        &self,
        __rowkey_st: &mut ::rowkey::__private::ScanState<0u16, __RowkeyBuf>,
    ) -> ::rowkey::__private::bool {
        if !::rowkey::__private::WriteScan::write(&self.__rowkey_prefix, __rowkey_st) {
            return false;
        }
        if !__rowkey_st.opt::<::rowkey::__private::Natural, u64>(&self.__rowkey_v.0) {
            return false;
        }
        true
    }
}
/**# Row key layout

How a `CustomerRow` is laid out in a row key, field by field; scan it with [`CustomerRow::scan`].

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | `customer_id` | `u64` | 8 | natural | ascending |
| 1 | tag | `u8` | 1 | 1 = `Customer`, 2 = `Order` | by tag |

`Customer` (tag 1) then: nothing

`Order` (tag 2) then: `order_id: u64`

Layout fingerprint: `0x769b11cf0000b2ba` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0x769b11cf0000b2ba)]` so that a change to the stored bytes fails the build).
*/
impl CustomerRow {
    ///Starts a prefix scan of `CustomerRow` keys. With no field fixed, `ranges()` covers the whole table. The key's layout is the table above, as in [`CustomerRowScan`]'s docs.
    #[inline]
    #[must_use]
    pub fn scan<'scan>() -> CustomerRowScan<'scan, 0> {
        CustomerRowScan::__rowkey_new()
    }
}
///A skip-scan query over [`CustomerRow`] keys, from [`CustomerRow::query`]: any fields, in any order, each equal to a value, in a list (`field_in`) or in a range; then `build()`, and read it with `Table::query`. Keys outside the query are sought past, not read: a field left open before constrained ones costs a seek per value it holds.
#[derive(Clone)]
pub struct CustomerRowQuery {
    __rowkey_q: ::rowkey::__private::QueryBuilder,
}
impl CustomerRow {
    ///Starts a skip-scan query of `CustomerRow` keys: every field open until constrained (see [`CustomerRowQuery`]).
    #[inline]
    #[must_use]
    pub fn query() -> CustomerRowQuery {
        CustomerRowQuery {
            __rowkey_q: <CustomerRow as ::rowkey::QueryKey>::__query(),
        }
    }
}
impl ::rowkey::QueryKey for CustomerRow {
    fn __query() -> ::rowkey::__private::QueryBuilder {
        ::rowkey::__private::QueryBuilder::new(
            <CustomerRow as ::rowkey::__private::RowKey>::SCHEMA,
            <CustomerRow as ::rowkey::__private::RowKey>::__SALT_HASH,
            ::rowkey::__private::segment_ends::<CustomerRow>,
        )
    }
    fn __constrain<'scan>(
        __rowkey_q: &mut ::rowkey::__private::QueryBuilder,
        __rowkey_field: ::rowkey::__private::usize,
        __rowkey_arg: ::rowkey::DynArg<'scan>,
    ) -> ::rowkey::__private::bool {
        #[allow(unused_imports)]
        use ::rowkey::__private::{DynConstrain as _, DynRefuse as _};
        match __rowkey_field {
            0usize => {
                (&::rowkey::__private::DynProbe::<
                    ::rowkey::__private::Natural,
                    u64,
                >::NEW)
                    .__rowkey_constrain(__rowkey_q, 0usize, __rowkey_arg, true)
            }
            _ => false,
        }
    }
}
impl CustomerRowQuery {
    ///Only keys whose `customer_id` is `arg`, or lies in it when it is a range (`a..b`, `a..=b`, `a..`, `..b`). The other fields stay open unless constrained too; a field constrained twice keeps what both allow.
    #[inline]
    #[must_use]
    pub fn customer_id<A: ::rowkey::QueryArg<u64>>(mut self, arg: A) -> Self {
        self.__rowkey_q.arg::<::rowkey::__private::Natural, u64, A>(0usize, arg);
        self
    }
    ///Only keys whose `customer_id` is one of `values` (none given: no key matches).
    #[inline]
    #[must_use]
    pub fn customer_id_in<I: ::core::iter::IntoIterator<Item = u64>>(
        mut self,
        values: I,
    ) -> Self {
        self.__rowkey_q.any_of::<::rowkey::__private::Natural, u64>(0usize, values);
        self
    }
    ///Only `Customer` records (tag 1); continues with their own fields.
    #[inline]
    #[must_use]
    pub fn customer(mut self) -> CustomerRowQueryCustomer {
        self.__rowkey_q.record(1u8);
        CustomerRowQueryCustomer {
            __rowkey_q: self.__rowkey_q,
        }
    }
    ///Only `Order` records (tag 2); continues with their own fields.
    #[inline]
    #[must_use]
    pub fn order(mut self) -> CustomerRowQueryOrder {
        self.__rowkey_q.record(2u8);
        CustomerRowQueryOrder {
            __rowkey_q: self.__rowkey_q,
        }
    }
    /// Only records whose tag byte is `arg`, or lies in it when it is a range.
    #[inline]
    #[must_use]
    pub fn tag<A: ::rowkey::QueryArg<::rowkey::__private::u8>>(
        mut self,
        arg: A,
    ) -> Self {
        self.__rowkey_q
            .arg::<
                ::rowkey::__private::Natural,
                ::rowkey::__private::u8,
                A,
            >(1usize, arg);
        self
    }
    /// Only records whose tag byte is one of `values`.
    #[inline]
    #[must_use]
    pub fn tag_in<I: ::core::iter::IntoIterator<Item = ::rowkey::__private::u8>>(
        mut self,
        values: I,
    ) -> Self {
        self.__rowkey_q
            .any_of::<
                ::rowkey::__private::Natural,
                ::rowkey::__private::u8,
            >(1usize, values);
        self
    }
    /// The query, its plan shown by `Display`; a table of another key type refuses it.
    #[inline]
    #[must_use]
    pub fn build(self) -> ::rowkey::TypedQuery<CustomerRow> {
        ::rowkey::TypedQuery::new(self.__rowkey_q.build())
    }
}
///A skip-scan query over the `Customer` records of [`CustomerRow`] keys, from [`CustomerRowQuery::customer`]: the shared prefix's fields and the record's own, in any order, each equal to a value, in a list or in a range; then `build()`.
#[derive(Clone)]
pub struct CustomerRowQueryCustomer {
    __rowkey_q: ::rowkey::__private::QueryBuilder,
}
impl CustomerRowQueryCustomer {
    ///Only keys whose `customer_id` is `arg`, or lies in it when it is a range (`a..b`, `a..=b`, `a..`, `..b`). The other fields stay open unless constrained too; a field constrained twice keeps what both allow.
    #[inline]
    #[must_use]
    pub fn customer_id<A: ::rowkey::QueryArg<u64>>(mut self, arg: A) -> Self {
        self.__rowkey_q.arg::<::rowkey::__private::Natural, u64, A>(0usize, arg);
        self
    }
    ///Only keys whose `customer_id` is one of `values` (none given: no key matches).
    #[inline]
    #[must_use]
    pub fn customer_id_in<I: ::core::iter::IntoIterator<Item = u64>>(
        mut self,
        values: I,
    ) -> Self {
        self.__rowkey_q.any_of::<::rowkey::__private::Natural, u64>(0usize, values);
        self
    }
    /// The query, its plan shown by `Display`; a table of another key type refuses it.
    #[inline]
    #[must_use]
    pub fn build(self) -> ::rowkey::TypedQuery<CustomerRow> {
        ::rowkey::TypedQuery::new(self.__rowkey_q.build())
    }
}
///A skip-scan query over the `Order` records of [`CustomerRow`] keys, from [`CustomerRowQuery::order`]: the shared prefix's fields and the record's own, in any order, each equal to a value, in a list or in a range; then `build()`.
#[derive(Clone)]
pub struct CustomerRowQueryOrder {
    __rowkey_q: ::rowkey::__private::QueryBuilder,
}
impl CustomerRowQueryOrder {
    ///Only keys whose `customer_id` is `arg`, or lies in it when it is a range (`a..b`, `a..=b`, `a..`, `..b`). The other fields stay open unless constrained too; a field constrained twice keeps what both allow.
    #[inline]
    #[must_use]
    pub fn customer_id<A: ::rowkey::QueryArg<u64>>(mut self, arg: A) -> Self {
        self.__rowkey_q.arg::<::rowkey::__private::Natural, u64, A>(0usize, arg);
        self
    }
    ///Only keys whose `customer_id` is one of `values` (none given: no key matches).
    #[inline]
    #[must_use]
    pub fn customer_id_in<I: ::core::iter::IntoIterator<Item = u64>>(
        mut self,
        values: I,
    ) -> Self {
        self.__rowkey_q.any_of::<::rowkey::__private::Natural, u64>(0usize, values);
        self
    }
    ///Only keys whose `order_id` is `arg`, or lies in it when it is a range (`a..b`, `a..=b`, `a..`, `..b`). The other fields stay open unless constrained too; a field constrained twice keeps what both allow.
    #[inline]
    #[must_use]
    pub fn order_id<A: ::rowkey::QueryArg<u64>>(mut self, arg: A) -> Self {
        self.__rowkey_q.arg::<::rowkey::__private::Natural, u64, A>(2usize, arg);
        self
    }
    ///Only keys whose `order_id` is one of `values` (none given: no key matches).
    #[inline]
    #[must_use]
    pub fn order_id_in<I: ::core::iter::IntoIterator<Item = u64>>(
        mut self,
        values: I,
    ) -> Self {
        self.__rowkey_q.any_of::<::rowkey::__private::Natural, u64>(2usize, values);
        self
    }
    /// The query, its plan shown by `Display`; a table of another key type refuses it.
    #[inline]
    #[must_use]
    pub fn build(self) -> ::rowkey::TypedQuery<CustomerRow> {
        ::rowkey::TypedQuery::new(self.__rowkey_q.build())
    }
}
#[doc(hidden)]
const _: () = {
    use ::rowkey::__private as __rowkey;
    impl<'scan> CustomerRowScan<'scan, 0> {
        ///Fixes `customer_id` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn customer_id<A: __rowkey::ScanArg<u64>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            u64,
            CustomerRowScan<'scan, 1>,
            Self,
            __rowkey::Natural,
            0,
        > {
            __rowkey::scan_step(
                arg,
                self,
                |mut __rowkey_s: Self, __rowkey_x| {
                    __rowkey_s.__rowkey_v.0 = __rowkey::Some(__rowkey_x);
                    __rowkey_s.__rowkey_to()
                },
            )
        }
    }
    impl<'scan> CustomerRowOrderScan<'scan, 0> {
        ///Fixes `order_id` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn order_id<A: __rowkey::ScanArg<u64>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            u64,
            CustomerRowOrderScan<'scan, 1>,
            Self,
            __rowkey::Natural,
            0,
        > {
            __rowkey::scan_step(
                arg,
                self,
                |mut __rowkey_s: Self, __rowkey_x| {
                    __rowkey_s.__rowkey_v.0 = __rowkey::Some(__rowkey_x);
                    __rowkey_s.__rowkey_to()
                },
            )
        }
    }
    #[automatically_derived]
    impl __rowkey::Encode for CustomerRow {
        const FIXED_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::add(
            __rowkey::sum(&[<__rowkey::Natural as __rowkey::Codec<u64>>::FIXED_WIDTH]),
            __rowkey::add(
                __rowkey::Some(1usize),
                __rowkey::same(
                    __rowkey::sum(&[]),
                    __rowkey::sum(
                        &[<__rowkey::Natural as __rowkey::Codec<u64>>::FIXED_WIDTH],
                    ),
                ),
            ),
        );
        const MAX_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::add(
            __rowkey::sum(&[<__rowkey::Natural as __rowkey::Codec<u64>>::MAX_WIDTH]),
            __rowkey::add(
                __rowkey::Some(1usize),
                __rowkey::most(
                    __rowkey::most(__rowkey::Some(0usize), __rowkey::sum(&[])),
                    __rowkey::sum(
                        &[<__rowkey::Natural as __rowkey::Codec<u64>>::MAX_WIDTH],
                    ),
                ),
            ),
        );
        const ENCODING: &'static __rowkey::str = "nested key `CustomerRow`";
        const NESTED: __rowkey::Option<&'static __rowkey::Schema> = __rowkey::Some(
            <Self as __rowkey::RowKey>::SCHEMA,
        );
        const DOMAIN: __rowkey::Domain = <__rowkey::Natural as __rowkey::Codec<
            u64,
        >>::DOMAIN;
        const LAYOUT: __rowkey::TypeLayout = __rowkey::TypeLayout::key(
            <Self as __rowkey::RowKey>::FINGERPRINT,
        );
        #[inline]
        fn encoded_width(
            &self,
        ) -> __rowkey::Result<__rowkey::usize, __rowkey::EncodeError> {
            let mut __rowkey_n = 0usize;
            let (__rowkey_f_customer_id,) = match self {
                Self::Customer { customer_id: __rowkey_f_customer_id, .. } => {
                    (__rowkey_f_customer_id,)
                }
                Self::Order { customer_id: __rowkey_f_customer_id, .. } => {
                    (__rowkey_f_customer_id,)
                }
            };
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                u64,
            >(__rowkey_f_customer_id, __rowkey_n, "customer_id")?;
            __rowkey_n += 1;
            match self {
                Self::Customer { .. } => {}
                Self::Order { order_id: __rowkey_f_order_id, .. } => {
                    __rowkey_n = __rowkey::width::<
                        __rowkey::Natural,
                        u64,
                    >(__rowkey_f_order_id, __rowkey_n, "order_id")?;
                }
            }
            __rowkey::Ok(__rowkey_n)
        }
        #[inline]
        fn write<S: __rowkey::Sink>(&self, sink: &mut S) {
            __rowkey::RowKey::__write_head(self, sink);
            __rowkey::RowKey::__write_tail(self, sink);
        }
    }
    #[automatically_derived]
    impl<'de> __rowkey::Decode<'de> for CustomerRow {
        #[inline(always)]
        fn read<R: __rowkey::Source<'de>>(
            src: &mut R,
        ) -> __rowkey::Result<Self, __rowkey::DecodeError> {
            let __rowkey_src = src;
            let __rowkey_f_customer_id = __rowkey::read::<
                __rowkey::Natural,
                u64,
                _,
            >(__rowkey_src, "customer_id")?;
            let (__rowkey_at, __rowkey_tag) = __rowkey::read_tag(__rowkey_src)?;
            match __rowkey_tag {
                1u8 => {
                    __rowkey::Ok(Self::Customer {
                        customer_id: __rowkey_f_customer_id,
                    })
                }
                2u8 => {
                    __rowkey::Ok(Self::Order {
                        customer_id: __rowkey_f_customer_id,
                        order_id: __rowkey::read::<
                            __rowkey::Natural,
                            u64,
                            _,
                        >(__rowkey_src, "order_id")?,
                    })
                }
                __rowkey_tag => {
                    __rowkey::Err(__rowkey::unknown_tag(__rowkey_at, __rowkey_tag))
                }
            }
        }
    }
    #[automatically_derived]
    impl __rowkey::RowKey for CustomerRow {
        const SCHEMA: &'static __rowkey::Schema = &__rowkey::Schema {
            name: "CustomerRow",
            fields: &__rowkey::with_offsets(
                [
                    __rowkey::field::<
                        __rowkey::Natural,
                        u64,
                    >("customer_id", "u64", &[], false),
                ],
                __rowkey::Some(0usize),
            ),
            variants: &[
                __rowkey::VariantSchema {
                    name: "Customer",
                    tag: 1u8,
                    fields: &__rowkey::with_offsets(
                        [],
                        __rowkey::add(
                            __rowkey::add(
                                __rowkey::Some(0usize),
                                __rowkey::sum(
                                    &[<__rowkey::Natural as __rowkey::Codec<u64>>::FIXED_WIDTH],
                                ),
                            ),
                            __rowkey::Some(1usize),
                        ),
                    ),
                },
                __rowkey::VariantSchema {
                    name: "Order",
                    tag: 2u8,
                    fields: &__rowkey::with_offsets(
                        [
                            __rowkey::field::<
                                __rowkey::Natural,
                                u64,
                            >("order_id", "u64", &[], false),
                        ],
                        __rowkey::add(
                            __rowkey::add(
                                __rowkey::Some(0usize),
                                __rowkey::sum(
                                    &[<__rowkey::Natural as __rowkey::Codec<u64>>::FIXED_WIDTH],
                                ),
                            ),
                            __rowkey::Some(1usize),
                        ),
                    ),
                },
            ],
            salt: __rowkey::None,
            fixed_len: <Self as __rowkey::RowKey>::FIXED_LEN,
            max_len: <Self as __rowkey::RowKey>::MAX_LEN,
            limit: 32767usize,
            allow_hotspot: false,
        };
        const FINGERPRINT: __rowkey::u64 = 8546444298621596346u64;
        #[inline(always)]
        fn __write_head<__RowkeySink: __rowkey::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {}
        #[inline(always)]
        fn __write_tail<__RowkeySink: __rowkey::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {
            let (__rowkey_f_customer_id,) = match self {
                Self::Customer { customer_id: __rowkey_f_customer_id, .. } => {
                    (__rowkey_f_customer_id,)
                }
                Self::Order { customer_id: __rowkey_f_customer_id, .. } => {
                    (__rowkey_f_customer_id,)
                }
            };
            <__rowkey::Natural as __rowkey::Codec<
                u64,
            >>::write(__rowkey_f_customer_id, __rowkey_sink);
            match self {
                Self::Customer { .. } => {
                    __rowkey::Sink::put_array(__rowkey_sink, [1u8]);
                }
                Self::Order { order_id: __rowkey_f_order_id, .. } => {
                    __rowkey::Sink::put_array(__rowkey_sink, [2u8]);
                    <__rowkey::Natural as __rowkey::Codec<
                        u64,
                    >>::write(__rowkey_f_order_id, __rowkey_sink);
                }
            }
        }
    }
    const _: () = {
        if let __rowkey::Some(__rowkey_len) = <CustomerRow as __rowkey::RowKey>::FIXED_LEN {
            if __rowkey_len > 32767usize {
                ::core::panic!(
                    "every `CustomerRow` key is longer than its key limit of 32767 bytes; shorten the fields or raise `#[rowkey(key_limit = N)]`",
                );
            }
        }
    };
    impl CustomerRow {
        ///Explains a `CustomerRow` key field by field: offsets, the raw bytes as HBase prints them, the decoded values and attributes, the salt byte checked against the salted fields, and where and why a key that does not parse stops parsing.
        #[must_use]
        #[inline]
        pub fn explain<'de>(
            bytes: &'de [::core::primitive::u8],
        ) -> ::std::string::String {
            let mut __rowkey_ex = __rowkey::Explainer::new(
                bytes,
                <Self as __rowkey::RowKey>::SCHEMA,
            );
            __rowkey_ex.field::<__rowkey::Natural, u64>();
            match __rowkey_ex.tag() {
                __rowkey::Some(1u8) => {}
                __rowkey::Some(2u8) => {
                    __rowkey_ex.field::<__rowkey::Natural, u64>();
                }
                _ => {}
            }
            __rowkey_ex.finish()
        }
    }
    #[automatically_derived]
    impl __rowkey::Explain for CustomerRow {
        #[inline]
        fn explain(&self, out: &mut ::std::string::String) {
            let __rowkey_out = out;
            match self {
                Self::Customer { customer_id: __rowkey_f_customer_id, .. } => {
                    __rowkey::explain_fields(
                        __rowkey_out,
                        "CustomerRow::Customer",
                        &[
                            (
                                "customer_id",
                                __rowkey::shown::<u64>(__rowkey_f_customer_id),
                            ),
                        ],
                    );
                }
                Self::Order {
                    customer_id: __rowkey_f_customer_id,
                    order_id: __rowkey_f_order_id,
                    ..
                } => {
                    __rowkey::explain_fields(
                        __rowkey_out,
                        "CustomerRow::Order",
                        &[
                            (
                                "customer_id",
                                __rowkey::shown::<u64>(__rowkey_f_customer_id),
                            ),
                            ("order_id", __rowkey::shown::<u64>(__rowkey_f_order_id)),
                        ],
                    );
                }
            }
        }
    }
};
