#[doc(hidden)]
#[allow(non_camel_case_types)]
type __RowkeyCustomerRowScanValues<'scan> = (::rowkey::__private::Option<u64>,);
/**The typed scan builder of [`CustomerRow`], from [`CustomerRow::scan`]: fix fields in key order (the shared prefix `customer_id`, then a record type (`customer()`, `order()` or `tag(n)`) and its own fields), optionally end with a range on the next one, then call `ranges()`.

`STEP` counts the fields fixed so far; a field out of order has no method at that step.

# Layout of `CustomerRow`

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | salt | `u8` | 1 | md5(`customer_id`) % 8 | bucket |
| 1 | `customer_id` | `u64` | 8 | `#[salt(buckets = 8)]` | ascending |
| 2 | tag | `u8` | 1 | 1 = `Customer`, 2 = `Order` | by tag |

`Customer` (tag 1) then: nothing

`Order` (tag 2) then: `note: String`

Layout fingerprint: `0xbf496597000092b8` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0xbf496597000092b8)]` so that a change to the stored bytes fails the build).
*/
#[allow(non_camel_case_types, non_snake_case)]
struct CustomerRowScan<'scan, const STEP: ::rowkey::__private::usize> {
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
        ::rowkey::__private::scan_ranges::<8u16, Self>(&self)
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
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<8u16>
for CustomerRowScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <CustomerRow as ::rowkey::__private::RowKey>::MAX_LEN;
    /// Writes the values given, in key order; `false` if the scan stops before the
    /// last field (the steps set them in order, so the first unset one ends it).
    #[inline(always)]
    fn write<__RowkeyBuf: ::rowkey::__private::ScanBuf>(
        &self,
        __rowkey_st: &mut ::rowkey::__private::ScanState<8u16, __RowkeyBuf>,
    ) -> ::rowkey::__private::bool {
        if !__rowkey_st.opt::<::rowkey::__private::Natural, u64>(&self.__rowkey_v.0) {
            return false;
        }
        __rowkey_st.salt_known();
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
    ///Narrows the scan to `Order` records (tag 2) and continues with their own fields (`note`).
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
        8u16,
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
struct CustomerRowCustomerScan<'scan, const STEP: ::rowkey::__private::usize> {
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
        ::rowkey::__private::scan_ranges::<8u16, Self>(&self)
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
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<8u16>
for CustomerRowCustomerScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <CustomerRow as ::rowkey::__private::RowKey>::MAX_LEN;
    /// Writes the values given, in key order; `false` if the scan stops before the
    /// last field (the steps set them in order, so the first unset one ends it).
    #[inline(always)]
    fn write<__RowkeyBuf: ::rowkey::__private::ScanBuf>(
        &self,
        __rowkey_st: &mut ::rowkey::__private::ScanState<8u16, __RowkeyBuf>,
    ) -> ::rowkey::__private::bool {
        if !::rowkey::__private::WriteScan::write(&self.__rowkey_prefix, __rowkey_st) {
            return false;
        }
        true
    }
}
#[doc(hidden)]
#[allow(non_camel_case_types)]
type __RowkeyCustomerRowOrderScanValues<'scan> = (
    ::rowkey::__private::Option<&'scan ::core::primitive::str>,
);
///The typed scan builder of `CustomerRow::Order` records, from [`CustomerRowScan::order`]: fix its fields in order, optionally end with a range, then call `ranges()`.
#[allow(non_camel_case_types, non_snake_case)]
struct CustomerRowOrderScan<'scan, const STEP: ::rowkey::__private::usize> {
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
        ::rowkey::__private::scan_ranges::<8u16, Self>(&self)
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
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<8u16>
for CustomerRowOrderScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <CustomerRow as ::rowkey::__private::RowKey>::MAX_LEN;
    /// Writes the values given, in key order; `false` if the scan stops before the
    /// last field (the steps set them in order, so the first unset one ends it).
    #[inline(always)]
    fn write<__RowkeyBuf: ::rowkey::__private::ScanBuf>(
        &self,
        __rowkey_st: &mut ::rowkey::__private::ScanState<8u16, __RowkeyBuf>,
    ) -> ::rowkey::__private::bool {
        if !::rowkey::__private::WriteScan::write(&self.__rowkey_prefix, __rowkey_st) {
            return false;
        }
        if !__rowkey_st
            .opt::<
                ::rowkey::__private::MaxLen<12usize>,
                &'scan ::core::primitive::str,
            >(&self.__rowkey_v.0)
        {
            return false;
        }
        true
    }
}
/**# Row key layout

How a `CustomerRow` is laid out in a row key, field by field; scan it with [`CustomerRow::scan`].

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | salt | `u8` | 1 | md5(`customer_id`) % 8 | bucket |
| 1 | `customer_id` | `u64` | 8 | `#[salt(buckets = 8)]` | ascending |
| 2 | tag | `u8` | 1 | 1 = `Customer`, 2 = `Order` | by tag |

`Customer` (tag 1) then: nothing

`Order` (tag 2) then: `note: String`

Layout fingerprint: `0xbf496597000092b8` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0xbf496597000092b8)]` so that a change to the stored bytes fails the build).
*/
impl CustomerRow {
    ///Starts a prefix scan of `CustomerRow` keys. With no field fixed, `ranges()` covers the whole table (one range per salt bucket, 8). The key's layout is the table above, as in [`CustomerRowScan`]'s docs.
    #[inline]
    #[must_use]
    fn scan<'scan>() -> CustomerRowScan<'scan, 0> {
        CustomerRowScan::__rowkey_new()
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
            8,
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
        ///Fixes `note` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn note<A: __rowkey::ScanArg<&'scan ::core::primitive::str>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            &'scan ::core::primitive::str,
            CustomerRowOrderScan<'scan, 1>,
            Self,
            __rowkey::MaxLen<12usize>,
            8,
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
                        &[
                            <__rowkey::MaxLen<
                                12usize,
                            > as __rowkey::Codec<String>>::FIXED_WIDTH,
                        ],
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
                        &[
                            <__rowkey::MaxLen<
                                12usize,
                            > as __rowkey::Codec<String>>::MAX_WIDTH,
                        ],
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
                Self::Order { note: __rowkey_f_note, .. } => {
                    __rowkey_n = __rowkey::width::<
                        __rowkey::MaxLen<12usize>,
                        String,
                    >(__rowkey_f_note, __rowkey_n, "note")?;
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
                        note: __rowkey::read::<
                            __rowkey::MaxLen<12usize>,
                            String,
                            _,
                        >(__rowkey_src, "note")?,
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
                    >("customer_id", "u64", &["salt(buckets = 8)"], true),
                ],
                __rowkey::Some(1usize),
            ),
            variants: &[
                __rowkey::VariantSchema {
                    name: "Customer",
                    tag: 1u8,
                    fields: &__rowkey::with_offsets(
                        [],
                        __rowkey::add(
                            __rowkey::add(
                                __rowkey::Some(1usize),
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
                                __rowkey::MaxLen<12usize>,
                                String,
                            >("note", "String", &["max_len(12)"], false),
                        ],
                        __rowkey::add(
                            __rowkey::add(
                                __rowkey::Some(1usize),
                                __rowkey::sum(
                                    &[<__rowkey::Natural as __rowkey::Codec<u64>>::FIXED_WIDTH],
                                ),
                            ),
                            __rowkey::Some(1usize),
                        ),
                    ),
                },
            ],
            salt: __rowkey::Some(__rowkey::SaltSchema {
                buckets: 8u16,
                hash: "md5",
                fields: &["customer_id"],
            }),
            fixed_len: <Self as __rowkey::RowKey>::FIXED_LEN,
            max_len: <Self as __rowkey::RowKey>::MAX_LEN,
            limit: 32767usize,
            allow_hotspot: false,
        };
        const FINGERPRINT: __rowkey::u64 = 13783659833758618296u64;
        const __SALT_BUCKETS: __rowkey::u16 = 8u16;
        #[inline(always)]
        fn __write_head<__RowkeySink: __rowkey::Sink>(
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
        }
        #[inline(always)]
        fn __write_tail<__RowkeySink: __rowkey::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {
            match self {
                Self::Customer { .. } => {
                    __rowkey::Sink::put_array(__rowkey_sink, [1u8]);
                }
                Self::Order { note: __rowkey_f_note, .. } => {
                    __rowkey::Sink::put_array(__rowkey_sink, [2u8]);
                    <__rowkey::MaxLen<
                        12usize,
                    > as __rowkey::Codec<String>>::write(__rowkey_f_note, __rowkey_sink);
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
        fn explain<'de>(bytes: &'de [::core::primitive::u8]) -> ::std::string::String {
            let mut __rowkey_ex = __rowkey::Explainer::new(
                bytes,
                <Self as __rowkey::RowKey>::SCHEMA,
            );
            __rowkey_ex.field::<__rowkey::Natural, u64>();
            match __rowkey_ex.tag() {
                __rowkey::Some(1u8) => {}
                __rowkey::Some(2u8) => {
                    __rowkey_ex
                        .field::<
                            __rowkey::MaxLen<12usize>,
                            ::std::borrow::Cow<'de, ::core::primitive::str>,
                        >();
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
                    note: __rowkey_f_note,
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
                            ("note", __rowkey::shown::<String>(__rowkey_f_note)),
                        ],
                    );
                }
            }
        }
    }
};
