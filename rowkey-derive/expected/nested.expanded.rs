#[doc(hidden)]
#[allow(non_camel_case_types)]
type __RowkeyOuterScanValues<'scan> = (
    ::rowkey::__private::Option<u64>,
    ::rowkey::__private::Option<Inner>,
    ::rowkey::__private::Option<Option<bool>>,
);
/**The typed scan builder of [`Outer`], from [`Outer::scan`]: fix fields in key order (`at`, `inner`, `flag`), optionally end with a range on the next one, then call `ranges()`.

`STEP` counts the fields fixed so far; a field out of order has no method at that step.

# Layout of `Outer`

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | `at` | `u64` | 8 | `#[timestamp]` | ascending |
| 1 | `inner` | `Inner` | variable | natural | ascending |
| 2 | `flag` | `Option<bool>` | variable | natural | ascending |

Layout fingerprint: `RowKey::FINGERPRINT`, computed at compile time from the field types' own layouts (print it, then pin it with `#[rowkey(fingerprint = 0x...)]` so that a change to the stored bytes fails the build).
*/
#[allow(non_camel_case_types, non_snake_case)]
struct OuterScan<'scan, const STEP: ::rowkey::__private::usize> {
    __rowkey_v: __RowkeyOuterScanValues<'scan>,
    __rowkey_lt: ::rowkey::__private::PhantomData<&'scan ()>,
}
#[automatically_derived]
impl<'scan, const STEP: ::rowkey::__private::usize> ::core::clone::Clone
for OuterScan<'scan, STEP>
where
    ::rowkey::__private::CloneIf<
        'scan,
        __RowkeyOuterScanValues<'scan>,
    >: ::rowkey::__private::CloneOf<__RowkeyOuterScanValues<'scan>>,
{
    #[inline]
    fn clone(&self) -> Self {
        OuterScan {
            __rowkey_v: <::rowkey::__private::CloneIf<
                'scan,
                __RowkeyOuterScanValues<'scan>,
            > as ::rowkey::__private::CloneOf<
                __RowkeyOuterScanValues<'scan>,
            >>::clone_of(&self.__rowkey_v),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
impl<'scan, const STEP: ::rowkey::__private::usize> OuterScan<'scan, STEP> {
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
        OuterScan {
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
    ) -> OuterScan<'scan, __ROWKEY_N> {
        OuterScan {
            __rowkey_v: self.__rowkey_v,
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
#[automatically_derived]
#[doc(hidden)]
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<0u16>
for OuterScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <Outer as ::rowkey::__private::RowKey>::MAX_LEN;
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
        if !__rowkey_st.opt::<::rowkey::__private::Natural, Inner>(&self.__rowkey_v.1) {
            return false;
        }
        if !__rowkey_st
            .opt::<::rowkey::__private::Natural, Option<bool>>(&self.__rowkey_v.2)
        {
            return false;
        }
        true
    }
}
/**# Row key layout

How a `Outer` is laid out in a row key, field by field; scan it with [`Outer::scan`].

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | `at` | `u64` | 8 | `#[timestamp]` | ascending |
| 1 | `inner` | `Inner` | variable | natural | ascending |
| 2 | `flag` | `Option<bool>` | variable | natural | ascending |

Layout fingerprint: `RowKey::FINGERPRINT`, computed at compile time from the field types' own layouts (print it, then pin it with `#[rowkey(fingerprint = 0x...)]` so that a change to the stored bytes fails the build).
*/
impl Outer {
    ///Starts a prefix scan of `Outer` keys. With no field fixed, `ranges()` covers the whole table. The key's layout is the table above, as in [`OuterScan`]'s docs.
    #[inline]
    #[must_use]
    fn scan<'scan>() -> OuterScan<'scan, 0> {
        OuterScan::__rowkey_new()
    }
}
#[doc(hidden)]
const _: () = {
    use ::rowkey::__private as __rowkey;
    impl<'scan> OuterScan<'scan, 0> {
        ///Fixes `at` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn at<A: __rowkey::ScanArg<u64>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            u64,
            OuterScan<'scan, 1>,
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
    impl<'scan> OuterScan<'scan, 1> {
        ///Fixes `inner` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn inner<A: __rowkey::ScanArg<Inner>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            Inner,
            OuterScan<'scan, 2>,
            Self,
            __rowkey::Natural,
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
    impl<'scan> OuterScan<'scan, 2> {
        ///Fixes `flag` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn flag<A: __rowkey::ScanArg<Option<bool>>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            Option<bool>,
            OuterScan<'scan, 3>,
            Self,
            __rowkey::Natural,
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
    impl __rowkey::Encode for Outer {
        const FIXED_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::sum(
            &[
                <__rowkey::Natural as __rowkey::Codec<u64>>::FIXED_WIDTH,
                <__rowkey::Natural as __rowkey::Codec<Inner>>::FIXED_WIDTH,
                <__rowkey::Natural as __rowkey::Codec<Option<bool>>>::FIXED_WIDTH,
            ],
        );
        const MAX_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::sum(
            &[
                <__rowkey::Natural as __rowkey::Codec<u64>>::MAX_WIDTH,
                <__rowkey::Natural as __rowkey::Codec<Inner>>::MAX_WIDTH,
                <__rowkey::Natural as __rowkey::Codec<Option<bool>>>::MAX_WIDTH,
            ],
        );
        const ENCODING: &'static __rowkey::str = "nested key `Outer`";
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
            let Self {
                at: __rowkey_f_at,
                inner: __rowkey_f_inner,
                flag: __rowkey_f_flag,
                ..
            } = self;
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                u64,
            >(__rowkey_f_at, __rowkey_n, "at")?;
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                Inner,
            >(__rowkey_f_inner, __rowkey_n, "inner")?;
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                Option<bool>,
            >(__rowkey_f_flag, __rowkey_n, "flag")?;
            __rowkey::Ok(__rowkey_n)
        }
        #[inline]
        fn write<S: __rowkey::Sink>(&self, sink: &mut S) {
            __rowkey::RowKey::__write_head(self, sink);
            __rowkey::RowKey::__write_tail(self, sink);
        }
    }
    #[automatically_derived]
    impl<'de> __rowkey::Decode<'de> for Outer {
        #[inline(always)]
        fn read<R: __rowkey::Source<'de>>(
            src: &mut R,
        ) -> __rowkey::Result<Self, __rowkey::DecodeError> {
            let __rowkey_src = src;
            __rowkey::Ok(Self {
                at: __rowkey::read::<__rowkey::Natural, u64, _>(__rowkey_src, "at")?,
                inner: __rowkey::read::<
                    __rowkey::Natural,
                    Inner,
                    _,
                >(__rowkey_src, "inner")?,
                flag: __rowkey::read::<
                    __rowkey::Natural,
                    Option<bool>,
                    _,
                >(__rowkey_src, "flag")?,
            })
        }
    }
    #[automatically_derived]
    impl __rowkey::RowKey for Outer {
        const SCHEMA: &'static __rowkey::Schema = &__rowkey::Schema {
            name: "Outer",
            fields: &__rowkey::with_offsets(
                [
                    __rowkey::field::<
                        __rowkey::Natural,
                        u64,
                    >("at", "u64", &["timestamp"], false),
                    __rowkey::field::<
                        __rowkey::Natural,
                        Inner,
                    >("inner", "Inner", &[], false),
                    __rowkey::field::<
                        __rowkey::Natural,
                        Option<bool>,
                    >("flag", "Option<bool>", &[], false),
                ],
                __rowkey::Some(0usize),
            ),
            variants: &[],
            salt: __rowkey::None,
            fixed_len: <Self as __rowkey::RowKey>::FIXED_LEN,
            max_len: <Self as __rowkey::RowKey>::MAX_LEN,
            limit: 32767usize,
            allow_hotspot: true,
        };
        const FINGERPRINT: __rowkey::u64 = __rowkey::fingerprint(
            &[
                &[__rowkey::LayoutPiece::Text("no salt")],
                &[__rowkey::LayoutPiece::Text("0: u64 natural")],
                &[
                    __rowkey::LayoutPiece::Text("1: "),
                    __rowkey::LayoutPiece::Type(
                        <__rowkey::Natural as __rowkey::Codec<Inner>>::LAYOUT,
                    ),
                    __rowkey::LayoutPiece::Text(" natural"),
                ],
                &[__rowkey::LayoutPiece::Text("2: option(bool) natural")],
            ],
        );
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
                at: __rowkey_f_at,
                inner: __rowkey_f_inner,
                flag: __rowkey_f_flag,
                ..
            } = self;
            <__rowkey::Natural as __rowkey::Codec<
                u64,
            >>::write(__rowkey_f_at, __rowkey_sink);
            <__rowkey::Natural as __rowkey::Codec<
                Inner,
            >>::write(__rowkey_f_inner, __rowkey_sink);
            <__rowkey::Natural as __rowkey::Codec<
                Option<bool>,
            >>::write(__rowkey_f_flag, __rowkey_sink);
        }
    }
    const _: () = {
        if let __rowkey::Some(__rowkey_len) = <Outer as __rowkey::RowKey>::FIXED_LEN {
            if __rowkey_len > 32767usize {
                ::core::panic!(
                    "every `Outer` key is longer than its key limit of 32767 bytes; shorten the fields or raise `#[rowkey(key_limit = N)]`",
                );
            }
        }
    };
    const _: &__rowkey::Schema = <Outer as __rowkey::RowKey>::SCHEMA;
    impl Outer {
        ///Explains a `Outer` key field by field: offsets, the raw bytes as HBase prints them, the decoded values and attributes, the salt byte checked against the salted fields, and where and why a key that does not parse stops parsing.
        #[must_use]
        #[inline]
        fn explain<'de>(bytes: &'de [::core::primitive::u8]) -> ::std::string::String {
            let mut __rowkey_ex = __rowkey::Explainer::new(
                bytes,
                <Self as __rowkey::RowKey>::SCHEMA,
            );
            __rowkey_ex.field::<__rowkey::Natural, u64>();
            __rowkey_ex.field::<__rowkey::Natural, Inner>();
            __rowkey_ex.field::<__rowkey::Natural, Option<bool>>();
            __rowkey_ex.finish()
        }
    }
    #[automatically_derived]
    impl __rowkey::Explain for Outer {
        #[inline]
        fn explain(&self, out: &mut ::std::string::String) {
            let __rowkey_out = out;
            let Self {
                at: __rowkey_f_at,
                inner: __rowkey_f_inner,
                flag: __rowkey_f_flag,
                ..
            } = self;
            __rowkey::explain_fields(
                __rowkey_out,
                "Outer",
                &[
                    ("at", __rowkey::shown::<u64>(__rowkey_f_at)),
                    ("inner", __rowkey::shown::<Inner>(__rowkey_f_inner)),
                    ("flag", __rowkey::shown::<Option<bool>>(__rowkey_f_flag)),
                ],
            );
        }
    }
};
