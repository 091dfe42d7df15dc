#[doc(hidden)]
#[allow(non_camel_case_types)]
type __RowkeyPointScanValues<'scan> = (
    ::rowkey::__private::Option<u32>,
    ::rowkey::__private::Option<&'scan ::core::primitive::str>,
    ::rowkey::__private::Option<u64>,
);
/**The typed scan builder of [`Point`], from [`Point::scan`]: fix fields in key order (`metric`, `tags`, `ts`), optionally end with a range on the next one, then call `ranges()`.

`STEP` counts the fields fixed so far; a field out of order has no method at that step.

# Layout of `Point`

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | salt | `u8` | 1 | abs(java_hash(`metric`, `tags`) % 20) | bucket |
| 1 | `metric` | `u32` | 4 | natural | ascending |
| 2 | `tags` | `String` | variable | `#[salt(buckets = 20, hash = "java")]` | ascending |
| 3 | `ts` | `u64` | 8 | `#[timestamp]` | ascending |

Layout fingerprint: `0x19a66aab00005483` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0x19a66aab00005483)]` so that a change to the stored bytes fails the build).
*/
#[allow(non_camel_case_types, non_snake_case)]
struct PointScan<'scan, const STEP: ::rowkey::__private::usize> {
    __rowkey_v: __RowkeyPointScanValues<'scan>,
    __rowkey_lt: ::rowkey::__private::PhantomData<&'scan ()>,
}
#[automatically_derived]
impl<'scan, const STEP: ::rowkey::__private::usize> ::core::clone::Clone
for PointScan<'scan, STEP>
where
    ::rowkey::__private::CloneIf<
        'scan,
        __RowkeyPointScanValues<'scan>,
    >: ::rowkey::__private::CloneOf<__RowkeyPointScanValues<'scan>>,
{
    #[inline]
    fn clone(&self) -> Self {
        PointScan {
            __rowkey_v: <::rowkey::__private::CloneIf<
                'scan,
                __RowkeyPointScanValues<'scan>,
            > as ::rowkey::__private::CloneOf<
                __RowkeyPointScanValues<'scan>,
            >>::clone_of(&self.__rowkey_v),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
impl<'scan, const STEP: ::rowkey::__private::usize> PointScan<'scan, STEP> {
    /// The key ranges of every key whose leading fields are the ones fixed so far, in
    /// key order.
    #[inline]
    #[must_use]
    pub fn ranges(self) -> ::rowkey::__private::KeyRanges {
        ::rowkey::__private::scan_ranges::<20u16, Self>(&self)
    }
    #[inline(always)]
    #[allow(dead_code)]
    fn __rowkey_new() -> Self {
        PointScan {
            __rowkey_v: (
                ::rowkey::__private::None,
                ::rowkey::__private::None,
                ::rowkey::__private::None,
            ),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
    #[inline(always)]
    #[allow(dead_code)]
    fn __rowkey_to<const __ROWKEY_N: ::rowkey::__private::usize>(
        self,
    ) -> PointScan<'scan, __ROWKEY_N> {
        PointScan {
            __rowkey_v: self.__rowkey_v,
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
#[automatically_derived]
#[doc(hidden)]
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<20u16>
for PointScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <Point as ::rowkey::__private::RowKey>::MAX_LEN;
    /// Writes the values given, in key order; `false` if the scan stops before the
    /// last field (the steps set them in order, so the first unset one ends it).
    #[inline(always)]
    fn write<__RowkeyBuf: ::rowkey::__private::ScanBuf>(
        &self,
        __rowkey_st: &mut ::rowkey::__private::ScanState<20u16, __RowkeyBuf>,
    ) -> ::rowkey::__private::bool {
        if !__rowkey_st.opt::<::rowkey::__private::Natural, u32>(&self.__rowkey_v.0) {
            return false;
        }
        if !__rowkey_st
            .opt::<
                ::rowkey::__private::Natural,
                &'scan ::core::primitive::str,
            >(&self.__rowkey_v.1)
        {
            return false;
        }
        __rowkey_st.salt_known_by(::rowkey::__private::SaltHash::Java);
        if !__rowkey_st.opt::<::rowkey::__private::Natural, u64>(&self.__rowkey_v.2) {
            return false;
        }
        true
    }
}
/**# Row key layout

How a `Point` is laid out in a row key, field by field; scan it with [`Point::scan`].

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | salt | `u8` | 1 | abs(java_hash(`metric`, `tags`) % 20) | bucket |
| 1 | `metric` | `u32` | 4 | natural | ascending |
| 2 | `tags` | `String` | variable | `#[salt(buckets = 20, hash = "java")]` | ascending |
| 3 | `ts` | `u64` | 8 | `#[timestamp]` | ascending |

Layout fingerprint: `0x19a66aab00005483` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0x19a66aab00005483)]` so that a change to the stored bytes fails the build).
*/
impl Point {
    ///Starts a prefix scan of `Point` keys. With no field fixed, `ranges()` covers the whole table (one range per salt bucket, 20). The key's layout is the table above, as in [`PointScan`]'s docs.
    #[inline]
    #[must_use]
    fn scan<'scan>() -> PointScan<'scan, 0> {
        PointScan::__rowkey_new()
    }
}
#[doc(hidden)]
const _: () = {
    use ::rowkey::__private as __rowkey;
    impl<'scan> PointScan<'scan, 0> {
        ///Fixes `metric` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn metric<A: __rowkey::ScanArg<u32>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            u32,
            PointScan<'scan, 1>,
            Self,
            __rowkey::Natural,
            20,
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
    impl<'scan> PointScan<'scan, 1> {
        ///Fixes `tags` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn tags<A: __rowkey::ScanArg<&'scan ::core::primitive::str>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            &'scan ::core::primitive::str,
            PointScan<'scan, 2>,
            Self,
            __rowkey::Natural,
            20,
        > {
            __rowkey::scan_step(
                arg,
                self,
                |mut __rowkey_s: Self, __rowkey_x| {
                    __rowkey_s.__rowkey_v.1 = __rowkey::Some(__rowkey_x);
                    __rowkey_s.__rowkey_to()
                },
            )
        }
    }
    impl<'scan> PointScan<'scan, 2> {
        ///Fixes `ts` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn ts<A: __rowkey::ScanArg<u64>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            u64,
            PointScan<'scan, 3>,
            Self,
            __rowkey::Natural,
            20,
        > {
            __rowkey::scan_step(
                arg,
                self,
                |mut __rowkey_s: Self, __rowkey_x| {
                    __rowkey_s.__rowkey_v.2 = __rowkey::Some(__rowkey_x);
                    __rowkey_s.__rowkey_to()
                },
            )
        }
    }
    #[automatically_derived]
    impl __rowkey::Encode for Point {
        const FIXED_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::sum(
            &[
                <__rowkey::Natural as __rowkey::Codec<u32>>::FIXED_WIDTH,
                <__rowkey::Natural as __rowkey::Codec<String>>::FIXED_WIDTH,
                <__rowkey::Natural as __rowkey::Codec<u64>>::FIXED_WIDTH,
            ],
        );
        const MAX_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::sum(
            &[
                <__rowkey::Natural as __rowkey::Codec<u32>>::MAX_WIDTH,
                <__rowkey::Natural as __rowkey::Codec<String>>::MAX_WIDTH,
                <__rowkey::Natural as __rowkey::Codec<u64>>::MAX_WIDTH,
            ],
        );
        const ENCODING: &'static __rowkey::str = "nested key `Point`";
        const NESTED: __rowkey::Option<&'static __rowkey::Schema> = __rowkey::Some(
            <Self as __rowkey::RowKey>::SCHEMA,
        );
        const DOMAIN: __rowkey::Domain = <__rowkey::Natural as __rowkey::Codec<
            u32,
        >>::DOMAIN;
        const LAYOUT: __rowkey::TypeLayout = __rowkey::TypeLayout::key(
            <Self as __rowkey::RowKey>::FINGERPRINT,
        );
        #[inline]
        fn encoded_width(
            &self,
        ) -> __rowkey::Result<__rowkey::usize, __rowkey::EncodeError> {
            let mut __rowkey_n = 0usize;
            let Self {
                metric: __rowkey_f_metric,
                tags: __rowkey_f_tags,
                ts: __rowkey_f_ts,
                ..
            } = self;
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                u32,
            >(__rowkey_f_metric, __rowkey_n, "metric")?;
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                String,
            >(__rowkey_f_tags, __rowkey_n, "tags")?;
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                u64,
            >(__rowkey_f_ts, __rowkey_n, "ts")?;
            __rowkey::Ok(__rowkey_n)
        }
        #[inline]
        fn write<S: __rowkey::Sink>(&self, sink: &mut S) {
            __rowkey::RowKey::__write_head(self, sink);
            __rowkey::RowKey::__write_tail(self, sink);
        }
    }
    #[automatically_derived]
    impl<'de> __rowkey::Decode<'de> for Point {
        #[inline(always)]
        fn read<R: __rowkey::Source<'de>>(
            src: &mut R,
        ) -> __rowkey::Result<Self, __rowkey::DecodeError> {
            let __rowkey_src = src;
            __rowkey::Ok(Self {
                metric: __rowkey::read::<
                    __rowkey::Natural,
                    u32,
                    _,
                >(__rowkey_src, "metric")?,
                tags: __rowkey::read::<
                    __rowkey::Natural,
                    String,
                    _,
                >(__rowkey_src, "tags")?,
                ts: __rowkey::read::<__rowkey::Natural, u64, _>(__rowkey_src, "ts")?,
            })
        }
    }
    #[automatically_derived]
    impl __rowkey::RowKey for Point {
        const SCHEMA: &'static __rowkey::Schema = &__rowkey::Schema {
            name: "Point",
            fields: &__rowkey::with_offsets(
                [
                    __rowkey::field::<
                        __rowkey::Natural,
                        u32,
                    >("metric", "u32", &[], true),
                    __rowkey::field::<
                        __rowkey::Natural,
                        String,
                    >("tags", "String", &["salt(buckets = 20, hash = \"java\")"], true),
                    __rowkey::field::<
                        __rowkey::Natural,
                        u64,
                    >("ts", "u64", &["timestamp"], false),
                ],
                __rowkey::Some(1usize),
            ),
            variants: &[],
            salt: __rowkey::Some(__rowkey::SaltSchema {
                buckets: 20u16,
                hash: "java",
                fields: &["metric", "tags"],
            }),
            fixed_len: <Self as __rowkey::RowKey>::FIXED_LEN,
            max_len: <Self as __rowkey::RowKey>::MAX_LEN,
            limit: 32767usize,
            allow_hotspot: false,
        };
        const FINGERPRINT: __rowkey::u64 = 1848281979754140803u64;
        const __SALT_BUCKETS: __rowkey::u16 = 20u16;
        const __SALT_HASH: __rowkey::SaltHash = __rowkey::SaltHash::Java;
        #[inline(always)]
        fn __write_head<__RowkeySink: __rowkey::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {
            let Self { metric: __rowkey_f_metric, tags: __rowkey_f_tags, .. } = self;
            <__rowkey::Natural as __rowkey::Codec<
                u32,
            >>::write(__rowkey_f_metric, __rowkey_sink);
            <__rowkey::Natural as __rowkey::Codec<
                String,
            >>::write(__rowkey_f_tags, __rowkey_sink);
        }
        #[inline(always)]
        fn __write_tail<__RowkeySink: __rowkey::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {
            let Self { ts: __rowkey_f_ts, .. } = self;
            <__rowkey::Natural as __rowkey::Codec<
                u64,
            >>::write(__rowkey_f_ts, __rowkey_sink);
        }
    }
    impl Point {
        ///Explains a `Point` key field by field: offsets, the raw bytes as HBase prints them, the decoded values and attributes, the salt byte checked against the salted fields, and where and why a key that does not parse stops parsing.
        #[must_use]
        #[inline]
        fn explain<'de>(bytes: &'de [::core::primitive::u8]) -> ::std::string::String {
            let mut __rowkey_ex = __rowkey::Explainer::new(
                bytes,
                <Self as __rowkey::RowKey>::SCHEMA,
            );
            __rowkey_ex.field::<__rowkey::Natural, u32>();
            __rowkey_ex
                .field::<
                    __rowkey::Natural,
                    ::std::borrow::Cow<'de, ::core::primitive::str>,
                >();
            __rowkey_ex.field::<__rowkey::Natural, u64>();
            __rowkey_ex.finish()
        }
    }
    #[automatically_derived]
    impl __rowkey::Explain for Point {
        #[inline]
        fn explain(&self, out: &mut ::std::string::String) {
            let __rowkey_out = out;
            let Self {
                metric: __rowkey_f_metric,
                tags: __rowkey_f_tags,
                ts: __rowkey_f_ts,
                ..
            } = self;
            __rowkey::explain_fields(
                __rowkey_out,
                "Point",
                &[
                    ("metric", __rowkey::shown::<u32>(__rowkey_f_metric)),
                    ("tags", __rowkey::shown::<String>(__rowkey_f_tags)),
                    ("ts", __rowkey::shown::<u64>(__rowkey_f_ts)),
                ],
            );
        }
    }
};
