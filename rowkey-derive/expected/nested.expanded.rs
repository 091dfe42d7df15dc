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
#[automatically_derived]
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
}
#[automatically_derived]
#[doc(hidden)]
impl<
    'scan,
    const STEP: ::rowkey::__private::usize,
    const NEXT: ::rowkey::__private::usize,
> ::rowkey::__private::ScanStep<OuterScan<'scan, NEXT>> for OuterScan<'scan, STEP> {
    #[inline(always)]
    fn step(self) -> OuterScan<'scan, NEXT> {
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
#[automatically_derived]
impl<'scan> OuterScan<'scan, 0usize> {
    ///Fixes `at` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
    #[inline]
    #[must_use]
    pub fn at<A: ::rowkey::__private::ScanArg<u64>>(
        self,
        arg: A,
    ) -> ::rowkey::__private::ScanThen<
        A,
        u64,
        OuterScan<'scan, 1usize>,
        Self,
        ::rowkey::__private::Natural,
        0u16,
    > {
        ::rowkey::__private::scan_step(
            arg,
            self,
            |__rowkey_n: &mut OuterScan<'scan, 1usize>, __rowkey_v| {
                __rowkey_n.__rowkey_v.0 = ::rowkey::__private::Some(__rowkey_v);
            },
        )
    }
}
#[automatically_derived]
impl<'scan> OuterScan<'scan, 1usize> {
    ///Fixes `inner` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
    #[inline]
    #[must_use]
    pub fn inner<A: ::rowkey::__private::ScanArg<Inner>>(
        self,
        arg: A,
    ) -> ::rowkey::__private::ScanThen<
        A,
        Inner,
        OuterScan<'scan, 2usize>,
        Self,
        ::rowkey::__private::Natural,
        0u16,
    > {
        ::rowkey::__private::scan_step(
            arg,
            self,
            |__rowkey_n: &mut OuterScan<'scan, 2usize>, __rowkey_v| {
                __rowkey_n.__rowkey_v.1 = ::rowkey::__private::Some(__rowkey_v);
            },
        )
    }
}
#[automatically_derived]
impl<'scan> OuterScan<'scan, 2usize> {
    ///Fixes `flag` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
    #[inline]
    #[must_use]
    pub fn flag<A: ::rowkey::__private::ScanArg<Option<bool>>>(
        self,
        arg: A,
    ) -> ::rowkey::__private::ScanThen<
        A,
        Option<bool>,
        OuterScan<'scan, 3usize>,
        Self,
        ::rowkey::__private::Natural,
        0u16,
    > {
        ::rowkey::__private::scan_step(
            arg,
            self,
            |__rowkey_n: &mut OuterScan<'scan, 3usize>, __rowkey_v| {
                __rowkey_n.__rowkey_v.2 = ::rowkey::__private::Some(__rowkey_v);
            },
        )
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
#[automatically_derived]
impl Outer {
    ///Starts a prefix scan of `Outer` keys. With no field fixed, `ranges()` covers the whole table. The key's layout is the table above, as in [`OuterScan`]'s docs.
    #[inline]
    #[must_use]
    fn scan<'scan>() -> OuterScan<'scan, 0> {
        OuterScan::__rowkey_new()
    }
}
#[automatically_derived]
impl ::rowkey::__private::ScanArg<Outer> for Outer {
    type Out<N, D> = N;
    #[inline]
    fn dispatch<S, N, D>(
        self,
        state: S,
        eq: impl ::core::ops::FnOnce(S, Self) -> N,
        _range: impl ::core::ops::FnOnce(
            S,
            ::core::ops::Bound<Self>,
            ::core::ops::Bound<Self>,
        ) -> D,
    ) -> N {
        eq(state, self)
    }
}
#[doc(hidden)]
const _: () = {
    #[automatically_derived]
    impl ::rowkey::__private::Encode for Outer {
        const FIXED_WIDTH: ::rowkey::__private::Option<::rowkey::__private::usize> = ::rowkey::__private::sum(
            &[
                <::rowkey::__private::Natural as ::rowkey::__private::Codec<
                    u64,
                >>::FIXED_WIDTH,
                <::rowkey::__private::Natural as ::rowkey::__private::Codec<
                    Inner,
                >>::FIXED_WIDTH,
                <::rowkey::__private::Natural as ::rowkey::__private::Codec<
                    Option<bool>,
                >>::FIXED_WIDTH,
            ],
        );
        const MAX_WIDTH: ::rowkey::__private::Option<::rowkey::__private::usize> = ::rowkey::__private::sum(
            &[
                <::rowkey::__private::Natural as ::rowkey::__private::Codec<
                    u64,
                >>::MAX_WIDTH,
                <::rowkey::__private::Natural as ::rowkey::__private::Codec<
                    Inner,
                >>::MAX_WIDTH,
                <::rowkey::__private::Natural as ::rowkey::__private::Codec<
                    Option<bool>,
                >>::MAX_WIDTH,
            ],
        );
        const ENCODING: &'static ::rowkey::__private::str = "nested key `Outer`";
        const NESTED: ::rowkey::__private::Option<
            &'static ::rowkey::__private::Schema,
        > = ::rowkey::__private::Some(<Self as ::rowkey::__private::RowKey>::SCHEMA);
        const DOMAIN: ::rowkey::__private::Domain = <::rowkey::__private::Natural as ::rowkey::__private::Codec<
            u64,
        >>::DOMAIN;
        const LAYOUT: ::rowkey::__private::TypeLayout = ::rowkey::__private::TypeLayout::key(
            <Self as ::rowkey::__private::RowKey>::FINGERPRINT,
        );
        #[inline]
        fn encoded_width(
            &self,
        ) -> ::rowkey::__private::Result<
            ::rowkey::__private::usize,
            ::rowkey::__private::EncodeError,
        > {
            let mut __rowkey_n = 0usize;
            let Self {
                at: __rowkey_f_at,
                inner: __rowkey_f_inner,
                flag: __rowkey_f_flag,
                ..
            } = self;
            __rowkey_n = ::rowkey::__private::width::<
                ::rowkey::__private::Natural,
                u64,
            >(__rowkey_f_at, __rowkey_n, "at")?;
            __rowkey_n = ::rowkey::__private::width::<
                ::rowkey::__private::Natural,
                Inner,
            >(__rowkey_f_inner, __rowkey_n, "inner")?;
            __rowkey_n = ::rowkey::__private::width::<
                ::rowkey::__private::Natural,
                Option<bool>,
            >(__rowkey_f_flag, __rowkey_n, "flag")?;
            ::rowkey::__private::Ok(__rowkey_n)
        }
        #[inline]
        fn write<S: ::rowkey::__private::Sink>(&self, sink: &mut S) {
            ::rowkey::__private::RowKey::__write_head(self, sink);
            ::rowkey::__private::RowKey::__write_tail(self, sink);
        }
    }
    #[automatically_derived]
    impl<'de> ::rowkey::__private::Decode<'de> for Outer {
        #[inline(always)]
        fn read<R: ::rowkey::__private::Source<'de>>(
            src: &mut R,
        ) -> ::rowkey::__private::Result<Self, ::rowkey::__private::DecodeError> {
            let __rowkey_src = src;
            ::rowkey::__private::Ok(Self {
                at: ::rowkey::__private::read::<
                    ::rowkey::__private::Natural,
                    u64,
                    _,
                >(__rowkey_src, "at")?,
                inner: ::rowkey::__private::read::<
                    ::rowkey::__private::Natural,
                    Inner,
                    _,
                >(__rowkey_src, "inner")?,
                flag: ::rowkey::__private::read::<
                    ::rowkey::__private::Natural,
                    Option<bool>,
                    _,
                >(__rowkey_src, "flag")?,
            })
        }
    }
    #[automatically_derived]
    impl ::rowkey::__private::RowKey for Outer {
        const MAX_LEN: ::rowkey::__private::usize = ::rowkey::__private::max_len(
            false,
            <Self as ::rowkey::__private::Encode>::MAX_WIDTH,
            32767usize,
        );
        const FIXED_LEN: ::rowkey::__private::Option<::rowkey::__private::usize> = ::rowkey::__private::add(
            ::rowkey::__private::Some(0usize),
            <Self as ::rowkey::__private::Encode>::FIXED_WIDTH,
        );
        const SCHEMA: &'static ::rowkey::__private::Schema = &::rowkey::__private::Schema {
            name: "Outer",
            fields: &::rowkey::__private::with_offsets(
                [
                    ::rowkey::__private::field::<
                        ::rowkey::__private::Natural,
                        u64,
                    >("at", "u64", &["timestamp"], false),
                    ::rowkey::__private::field::<
                        ::rowkey::__private::Natural,
                        Inner,
                    >("inner", "Inner", &[], false),
                    ::rowkey::__private::field::<
                        ::rowkey::__private::Natural,
                        Option<bool>,
                    >("flag", "Option<bool>", &[], false),
                ],
                ::rowkey::__private::Some(0usize),
            ),
            variants: &[],
            salt: ::rowkey::__private::None,
            fixed_len: <Self as ::rowkey::__private::RowKey>::FIXED_LEN,
            max_len: <Self as ::rowkey::__private::RowKey>::MAX_LEN,
            limit: 32767usize,
            allow_hotspot: true,
        };
        const FINGERPRINT: ::rowkey::__private::u64 = ::rowkey::__private::fingerprint(
            &[
                &[::rowkey::__private::LayoutPiece::Text("no salt")],
                &[::rowkey::__private::LayoutPiece::Text("0: u64 natural")],
                &[
                    ::rowkey::__private::LayoutPiece::Text("1: "),
                    ::rowkey::__private::LayoutPiece::Type(
                        <::rowkey::__private::Natural as ::rowkey::__private::Codec<
                            Inner,
                        >>::LAYOUT,
                    ),
                    ::rowkey::__private::LayoutPiece::Text(" natural"),
                ],
                &[::rowkey::__private::LayoutPiece::Text("2: option(bool) natural")],
            ],
        );
        const __SALT_BUCKETS: ::rowkey::__private::u16 = 0u16;
        const __LIMIT: ::rowkey::__private::usize = 32767usize;
        #[inline(always)]
        fn __write_head<__RowkeySink: ::rowkey::__private::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {}
        #[inline(always)]
        fn __write_tail<__RowkeySink: ::rowkey::__private::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {
            let Self {
                at: __rowkey_f_at,
                inner: __rowkey_f_inner,
                flag: __rowkey_f_flag,
                ..
            } = self;
            <::rowkey::__private::Natural as ::rowkey::__private::Codec<
                u64,
            >>::write(__rowkey_f_at, __rowkey_sink);
            <::rowkey::__private::Natural as ::rowkey::__private::Codec<
                Inner,
            >>::write(__rowkey_f_inner, __rowkey_sink);
            <::rowkey::__private::Natural as ::rowkey::__private::Codec<
                Option<bool>,
            >>::write(__rowkey_f_flag, __rowkey_sink);
        }
    }
    const _: () = {
        if let ::rowkey::__private::Some(__rowkey_len) = <Outer as ::rowkey::__private::RowKey>::FIXED_LEN {
            if __rowkey_len > 32767usize {
                ::core::panic!(
                    "every `Outer` key is longer than its key limit of 32767 bytes; shorten the fields or raise `#[rowkey(key_limit = N)]`",
                );
            }
        }
    };
    #[automatically_derived]
    impl Outer {
        ///Explains a `Outer` key field by field: offsets, the raw bytes as HBase prints them, the decoded values and attributes, the salt byte checked against the salted fields, and where and why a key that does not parse stops parsing.
        #[must_use]
        #[inline]
        fn explain<'de>(bytes: &'de [::core::primitive::u8]) -> ::std::string::String {
            let mut __rowkey_ex = ::rowkey::__private::Explainer::new(
                bytes,
                <Self as ::rowkey::__private::RowKey>::SCHEMA,
            );
            __rowkey_ex.field::<::rowkey::__private::Natural, u64>();
            __rowkey_ex.field::<::rowkey::__private::Natural, Inner>();
            __rowkey_ex.field::<::rowkey::__private::Natural, Option<bool>>();
            __rowkey_ex.finish()
        }
    }
    #[automatically_derived]
    impl ::rowkey::__private::Explain for Outer {
        #[inline]
        fn explain(&self, out: &mut ::std::string::String) {
            let __rowkey_out = out;
            let Self {
                at: __rowkey_f_at,
                inner: __rowkey_f_inner,
                flag: __rowkey_f_flag,
                ..
            } = self;
            __rowkey_out.push_str("Outer { ");
            __rowkey_out.push_str("at: ");
            <u64 as ::rowkey::__private::Explain>::explain(__rowkey_f_at, __rowkey_out);
            __rowkey_out.push_str(", inner: ");
            <Inner as ::rowkey::__private::Explain>::explain(
                __rowkey_f_inner,
                __rowkey_out,
            );
            __rowkey_out.push_str(", flag: ");
            <Option<
                bool,
            > as ::rowkey::__private::Explain>::explain(__rowkey_f_flag, __rowkey_out);
            __rowkey_out.push_str(" }");
        }
    }
};
