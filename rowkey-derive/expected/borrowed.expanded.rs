#[doc(hidden)]
#[allow(non_camel_case_types)]
type __RowkeyHostLogScanValues<'scan> = (
    ::rowkey::__private::Option<&'scan ::core::primitive::str>,
    ::rowkey::__private::Option<i64>,
    ::rowkey::__private::Option<&'scan [::core::primitive::u8]>,
);
/**The typed scan builder of [`HostLog`], from [`HostLog::scan`]: fix fields in key order (`host`, `ts`, `kind`), optionally end with a range on the next one, then call `ranges()`.

`STEP` counts the fields fixed so far; a field out of order has no method at that step.

# Layout of `HostLog`

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | `host` | `&'a str` | variable | natural | ascending |
| 1 | `ts` | `i64` | 8 | `#[reverse_ts]` | descending |
| 2 | `kind` | `::std::borrow::Cow<'a, [u8]>` | variable | `#[desc]` | descending |

Layout fingerprint: `0x085f14c300004f7a` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0x085f14c300004f7a)]` so that a change to the stored bytes fails the build).
*/
#[allow(non_camel_case_types, non_snake_case)]
struct HostLogScan<'scan, const STEP: ::rowkey::__private::usize> {
    __rowkey_v: __RowkeyHostLogScanValues<'scan>,
    __rowkey_lt: ::rowkey::__private::PhantomData<&'scan ()>,
}
#[automatically_derived]
impl<'scan, const STEP: ::rowkey::__private::usize> ::core::clone::Clone
for HostLogScan<'scan, STEP>
where
    ::rowkey::__private::CloneIf<
        'scan,
        __RowkeyHostLogScanValues<'scan>,
    >: ::rowkey::__private::CloneOf<__RowkeyHostLogScanValues<'scan>>,
{
    #[inline]
    fn clone(&self) -> Self {
        HostLogScan {
            __rowkey_v: <::rowkey::__private::CloneIf<
                'scan,
                __RowkeyHostLogScanValues<'scan>,
            > as ::rowkey::__private::CloneOf<
                __RowkeyHostLogScanValues<'scan>,
            >>::clone_of(&self.__rowkey_v),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
impl<'scan, const STEP: ::rowkey::__private::usize> HostLogScan<'scan, STEP> {
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
        HostLogScan {
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
    ) -> HostLogScan<'scan, __ROWKEY_N> {
        HostLogScan {
            __rowkey_v: self.__rowkey_v,
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
#[automatically_derived]
#[doc(hidden)]
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<0u16>
for HostLogScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <HostLog<
        'static,
    > as ::rowkey::__private::RowKey>::MAX_LEN;
    /// Writes the values given, in key order; `false` if the scan stops before the
    /// last field (the steps set them in order, so the first unset one ends it).
    #[inline(always)]
    fn write<__RowkeyBuf: ::rowkey::__private::ScanBuf>(
        &self,
        __rowkey_st: &mut ::rowkey::__private::ScanState<0u16, __RowkeyBuf>,
    ) -> ::rowkey::__private::bool {
        if !__rowkey_st
            .opt::<
                ::rowkey::__private::Natural,
                &'scan ::core::primitive::str,
            >(&self.__rowkey_v.0)
        {
            return false;
        }
        if !__rowkey_st.opt::<::rowkey::__private::ReverseTs, i64>(&self.__rowkey_v.1) {
            return false;
        }
        if !__rowkey_st
            .opt::<
                ::rowkey::__private::Desc<::rowkey::__private::Natural>,
                &'scan [::core::primitive::u8],
            >(&self.__rowkey_v.2)
        {
            return false;
        }
        true
    }
}
/**# Row key layout

How a `HostLog` is laid out in a row key, field by field; scan it with [`HostLog::scan`].

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | `host` | `&'a str` | variable | natural | ascending |
| 1 | `ts` | `i64` | 8 | `#[reverse_ts]` | descending |
| 2 | `kind` | `::std::borrow::Cow<'a, [u8]>` | variable | `#[desc]` | descending |

Layout fingerprint: `0x085f14c300004f7a` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0x085f14c300004f7a)]` so that a change to the stored bytes fails the build).
*/
impl<'a> HostLog<'a> {
    ///Starts a prefix scan of `HostLog` keys. With no field fixed, `ranges()` covers the whole table. The key's layout is the table above, as in [`HostLogScan`]'s docs.
    #[inline]
    #[must_use]
    fn scan<'scan>() -> HostLogScan<'scan, 0> {
        HostLogScan::__rowkey_new()
    }
}
#[doc(hidden)]
const _: () = {
    use ::rowkey::__private as __rowkey;
    impl<'scan> HostLogScan<'scan, 0> {
        ///Fixes `host` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn host<A: __rowkey::ScanArg<&'scan ::core::primitive::str>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            &'scan ::core::primitive::str,
            HostLogScan<'scan, 1>,
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
    impl<'scan> HostLogScan<'scan, 1> {
        ///Fixes `ts` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn ts<A: __rowkey::ScanArg<i64>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            i64,
            HostLogScan<'scan, 2>,
            Self,
            __rowkey::ReverseTs,
            0,
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
    impl<'scan> HostLogScan<'scan, 2> {
        ///Fixes `kind` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn kind<A: __rowkey::ScanArg<&'scan [::core::primitive::u8]>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            &'scan [::core::primitive::u8],
            HostLogScan<'scan, 3>,
            Self,
            __rowkey::Desc<__rowkey::Natural>,
            0,
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
    impl<'a> __rowkey::Encode for HostLog<'a> {
        const FIXED_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::sum(
            &[
                <__rowkey::Natural as __rowkey::Codec<&'a str>>::FIXED_WIDTH,
                <__rowkey::ReverseTs as __rowkey::Codec<i64>>::FIXED_WIDTH,
                <__rowkey::Desc<
                    __rowkey::Natural,
                > as __rowkey::Codec<::std::borrow::Cow<'a, [u8]>>>::FIXED_WIDTH,
            ],
        );
        const MAX_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::sum(
            &[
                <__rowkey::Natural as __rowkey::Codec<&'a str>>::MAX_WIDTH,
                <__rowkey::ReverseTs as __rowkey::Codec<i64>>::MAX_WIDTH,
                <__rowkey::Desc<
                    __rowkey::Natural,
                > as __rowkey::Codec<::std::borrow::Cow<'a, [u8]>>>::MAX_WIDTH,
            ],
        );
        const ENCODING: &'static __rowkey::str = "nested key `HostLog`";
        const NESTED: __rowkey::Option<&'static __rowkey::Schema> = __rowkey::Some(
            <Self as __rowkey::RowKey>::SCHEMA,
        );
        const DOMAIN: __rowkey::Domain = <__rowkey::Natural as __rowkey::Codec<
            &'a str,
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
                host: __rowkey_f_host,
                ts: __rowkey_f_ts,
                kind: __rowkey_f_kind,
                ..
            } = self;
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                &'a str,
            >(__rowkey_f_host, __rowkey_n, "host")?;
            __rowkey_n = __rowkey::width::<
                __rowkey::ReverseTs,
                i64,
            >(__rowkey_f_ts, __rowkey_n, "ts")?;
            __rowkey_n = __rowkey::width::<
                __rowkey::Desc<__rowkey::Natural>,
                ::std::borrow::Cow<'a, [u8]>,
            >(__rowkey_f_kind, __rowkey_n, "kind")?;
            __rowkey::Ok(__rowkey_n)
        }
        #[inline]
        fn write<S: __rowkey::Sink>(&self, sink: &mut S) {
            __rowkey::RowKey::__write_head(self, sink);
            __rowkey::RowKey::__write_tail(self, sink);
        }
    }
    #[automatically_derived]
    impl<'de: 'a, 'a> __rowkey::Decode<'de> for HostLog<'a> {
        #[inline(always)]
        fn read<R: __rowkey::Source<'de>>(
            src: &mut R,
        ) -> __rowkey::Result<Self, __rowkey::DecodeError> {
            let __rowkey_src = src;
            __rowkey::Ok(Self {
                host: __rowkey::read::<
                    __rowkey::Natural,
                    &'a str,
                    _,
                >(__rowkey_src, "host")?,
                ts: __rowkey::read::<__rowkey::ReverseTs, i64, _>(__rowkey_src, "ts")?,
                kind: __rowkey::read::<
                    __rowkey::Desc<__rowkey::Natural>,
                    ::std::borrow::Cow<'a, [u8]>,
                    _,
                >(__rowkey_src, "kind")?,
            })
        }
    }
    #[automatically_derived]
    impl<'a> __rowkey::RowKey for HostLog<'a> {
        const SCHEMA: &'static __rowkey::Schema = &__rowkey::Schema {
            name: "HostLog",
            fields: &__rowkey::with_offsets(
                [
                    __rowkey::field::<
                        __rowkey::Natural,
                        &'a str,
                    >("host", "&'a str", &[], false),
                    __rowkey::field::<
                        __rowkey::ReverseTs,
                        i64,
                    >("ts", "i64", &["reverse_ts"], false),
                    __rowkey::field::<
                        __rowkey::Desc<__rowkey::Natural>,
                        ::std::borrow::Cow<'a, [u8]>,
                    >("kind", "::std::borrow::Cow<'a, [u8]>", &["desc"], false),
                ],
                __rowkey::Some(0usize),
            ),
            variants: &[],
            salt: __rowkey::None,
            fixed_len: <Self as __rowkey::RowKey>::FIXED_LEN,
            max_len: <Self as __rowkey::RowKey>::MAX_LEN,
            limit: 32767usize,
            allow_hotspot: false,
        };
        const FINGERPRINT: __rowkey::u64 = 603223702842134394u64;
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
            let Self {
                host: __rowkey_f_host,
                ts: __rowkey_f_ts,
                kind: __rowkey_f_kind,
                ..
            } = self;
            <__rowkey::Natural as __rowkey::Codec<
                &'a str,
            >>::write(__rowkey_f_host, __rowkey_sink);
            <__rowkey::ReverseTs as __rowkey::Codec<
                i64,
            >>::write(__rowkey_f_ts, __rowkey_sink);
            <__rowkey::Desc<
                __rowkey::Natural,
            > as __rowkey::Codec<
                ::std::borrow::Cow<'a, [u8]>,
            >>::write(__rowkey_f_kind, __rowkey_sink);
        }
    }
    impl<'a> HostLog<'a> {
        ///Explains a `HostLog` key field by field: offsets, the raw bytes as HBase prints them, the decoded values and attributes, the salt byte checked against the salted fields, and where and why a key that does not parse stops parsing.
        #[must_use]
        #[inline]
        fn explain<'de>(bytes: &'de [::core::primitive::u8]) -> ::std::string::String {
            let mut __rowkey_ex = __rowkey::Explainer::new(
                bytes,
                <Self as __rowkey::RowKey>::SCHEMA,
            );
            __rowkey_ex
                .field::<
                    __rowkey::Natural,
                    ::std::borrow::Cow<'de, ::core::primitive::str>,
                >();
            __rowkey_ex.field::<__rowkey::ReverseTs, i64>();
            __rowkey_ex
                .field::<
                    __rowkey::Desc<__rowkey::Natural>,
                    ::std::borrow::Cow<'de, [::core::primitive::u8]>,
                >();
            __rowkey_ex.finish()
        }
    }
    #[automatically_derived]
    impl<'a> __rowkey::Explain for HostLog<'a> {
        #[inline]
        fn explain(&self, out: &mut ::std::string::String) {
            let __rowkey_out = out;
            let Self {
                host: __rowkey_f_host,
                ts: __rowkey_f_ts,
                kind: __rowkey_f_kind,
                ..
            } = self;
            __rowkey::explain_fields(
                __rowkey_out,
                "HostLog",
                &[
                    ("host", __rowkey::shown::<&'a str>(__rowkey_f_host)),
                    ("ts", __rowkey::shown::<i64>(__rowkey_f_ts)),
                    (
                        "kind",
                        __rowkey::shown::<::std::borrow::Cow<'a, [u8]>>(__rowkey_f_kind),
                    ),
                ],
            );
        }
    }
};
