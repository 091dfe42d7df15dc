#[doc(hidden)]
#[allow(non_camel_case_types)]
type __RowkeyEventScanValues<'scan> = (
    ::rowkey::__private::Option<u64>,
    ::rowkey::__private::Option<&'scan ::core::primitive::str>,
    ::rowkey::__private::Option<u64>,
);
/**The typed scan builder of [`Event`], from [`Event::scan`]: fix fields in key order (`user_id`, `event_type`, `ts`), optionally end with a range on the next one, then call `ranges()`.

`STEP` counts the fields fixed so far; a field out of order has no method at that step.

# Layout of `Event`

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | salt | `u8` | 1 | md5(`user_id`) % 16 | bucket |
| 1 | `user_id` | `u64` | 8 | `#[salt(buckets = 16)]` | ascending |
| 2 | `event_type` | `String` | 16 | `#[fixed(16)]` | ascending |
| 3 | `ts` | `u64` | 8 | `#[reverse_ts]` | descending |

Layout fingerprint: `0x898d96ef0000e9bf` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0x898d96ef0000e9bf)]` so that a change to the stored bytes fails the build).
*/
#[allow(non_camel_case_types, non_snake_case)]
struct EventScan<'scan, const STEP: ::rowkey::__private::usize> {
    __rowkey_v: __RowkeyEventScanValues<'scan>,
    __rowkey_lt: ::rowkey::__private::PhantomData<&'scan ()>,
}
#[automatically_derived]
impl<'scan, const STEP: ::rowkey::__private::usize> ::core::clone::Clone
for EventScan<'scan, STEP>
where
    ::rowkey::__private::CloneIf<
        'scan,
        __RowkeyEventScanValues<'scan>,
    >: ::rowkey::__private::CloneOf<__RowkeyEventScanValues<'scan>>,
{
    #[inline]
    fn clone(&self) -> Self {
        EventScan {
            __rowkey_v: <::rowkey::__private::CloneIf<
                'scan,
                __RowkeyEventScanValues<'scan>,
            > as ::rowkey::__private::CloneOf<
                __RowkeyEventScanValues<'scan>,
            >>::clone_of(&self.__rowkey_v),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
impl<'scan, const STEP: ::rowkey::__private::usize> EventScan<'scan, STEP> {
    /// The key ranges of every key whose leading fields are the ones fixed so far, in
    /// key order.
    #[inline]
    #[must_use]
    pub fn ranges(self) -> ::rowkey::__private::KeyRanges {
        ::rowkey::__private::scan_ranges::<16u16, Self>(&self)
    }
    #[inline(always)]
    #[allow(dead_code)]
    fn __rowkey_new() -> Self {
        EventScan {
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
    ) -> EventScan<'scan, __ROWKEY_N> {
        EventScan {
            __rowkey_v: self.__rowkey_v,
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
#[automatically_derived]
#[doc(hidden)]
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<16u16>
for EventScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <Event as ::rowkey::__private::RowKey>::MAX_LEN;
    /// Writes the values given, in key order; `false` if the scan stops before the
    /// last field (the steps set them in order, so the first unset one ends it).
    #[inline(always)]
    fn write<__RowkeyBuf: ::rowkey::__private::ScanBuf>(
        &self,
        __rowkey_st: &mut ::rowkey::__private::ScanState<16u16, __RowkeyBuf>,
    ) -> ::rowkey::__private::bool {
        if !__rowkey_st.opt::<::rowkey::__private::Natural, u64>(&self.__rowkey_v.0) {
            return false;
        }
        __rowkey_st.salt_known();
        if !__rowkey_st
            .opt::<
                ::rowkey::__private::Fixed<16usize>,
                &'scan ::core::primitive::str,
            >(&self.__rowkey_v.1)
        {
            return false;
        }
        if !__rowkey_st.opt::<::rowkey::__private::ReverseTs, u64>(&self.__rowkey_v.2) {
            return false;
        }
        true
    }
}
/**# Row key layout

How a `Event` is laid out in a row key, field by field; scan it with [`Event::scan`].

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | salt | `u8` | 1 | md5(`user_id`) % 16 | bucket |
| 1 | `user_id` | `u64` | 8 | `#[salt(buckets = 16)]` | ascending |
| 2 | `event_type` | `String` | 16 | `#[fixed(16)]` | ascending |
| 3 | `ts` | `u64` | 8 | `#[reverse_ts]` | descending |

Layout fingerprint: `0x898d96ef0000e9bf` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0x898d96ef0000e9bf)]` so that a change to the stored bytes fails the build).
*/
impl Event {
    ///Starts a prefix scan of `Event` keys. With no field fixed, `ranges()` covers the whole table (one range per salt bucket, 16). The key's layout is the table above, as in [`EventScan`]'s docs.
    #[inline]
    #[must_use]
    fn scan<'scan>() -> EventScan<'scan, 0> {
        EventScan::__rowkey_new()
    }
}
#[doc(hidden)]
const _: () = {
    use ::rowkey::__private as __rowkey;
    impl<'scan> EventScan<'scan, 0> {
        ///Fixes `user_id` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn user_id<A: __rowkey::ScanArg<u64>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            u64,
            EventScan<'scan, 1>,
            Self,
            __rowkey::Natural,
            16,
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
    impl<'scan> EventScan<'scan, 1> {
        ///Fixes `event_type` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn event_type<A: __rowkey::ScanArg<&'scan ::core::primitive::str>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            &'scan ::core::primitive::str,
            EventScan<'scan, 2>,
            Self,
            __rowkey::Fixed<16usize>,
            16,
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
    impl<'scan> EventScan<'scan, 2> {
        ///Fixes `ts` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn ts<A: __rowkey::ScanArg<u64>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            u64,
            EventScan<'scan, 3>,
            Self,
            __rowkey::ReverseTs,
            16,
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
    impl __rowkey::Encode for Event {
        const FIXED_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::sum(
            &[
                <__rowkey::Natural as __rowkey::Codec<u64>>::FIXED_WIDTH,
                <__rowkey::Fixed<16usize> as __rowkey::Codec<String>>::FIXED_WIDTH,
                <__rowkey::ReverseTs as __rowkey::Codec<u64>>::FIXED_WIDTH,
            ],
        );
        const MAX_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::sum(
            &[
                <__rowkey::Natural as __rowkey::Codec<u64>>::MAX_WIDTH,
                <__rowkey::Fixed<16usize> as __rowkey::Codec<String>>::MAX_WIDTH,
                <__rowkey::ReverseTs as __rowkey::Codec<u64>>::MAX_WIDTH,
            ],
        );
        const ENCODING: &'static __rowkey::str = "nested key `Event`";
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
                user_id: __rowkey_f_user_id,
                event_type: __rowkey_f_event_type,
                ts: __rowkey_f_ts,
                ..
            } = self;
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                u64,
            >(__rowkey_f_user_id, __rowkey_n, "user_id")?;
            __rowkey_n = __rowkey::width::<
                __rowkey::Fixed<16usize>,
                String,
            >(__rowkey_f_event_type, __rowkey_n, "event_type")?;
            __rowkey_n = __rowkey::width::<
                __rowkey::ReverseTs,
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
    impl<'de> __rowkey::Decode<'de> for Event {
        #[inline(always)]
        fn read<R: __rowkey::Source<'de>>(
            src: &mut R,
        ) -> __rowkey::Result<Self, __rowkey::DecodeError> {
            let __rowkey_src = src;
            __rowkey::Ok(Self {
                user_id: __rowkey::read::<
                    __rowkey::Natural,
                    u64,
                    _,
                >(__rowkey_src, "user_id")?,
                event_type: __rowkey::read::<
                    __rowkey::Fixed<16usize>,
                    String,
                    _,
                >(__rowkey_src, "event_type")?,
                ts: __rowkey::read::<__rowkey::ReverseTs, u64, _>(__rowkey_src, "ts")?,
            })
        }
    }
    #[automatically_derived]
    impl __rowkey::RowKey for Event {
        const SCHEMA: &'static __rowkey::Schema = &__rowkey::Schema {
            name: "Event",
            fields: &__rowkey::with_offsets(
                [
                    __rowkey::field::<
                        __rowkey::Natural,
                        u64,
                    >("user_id", "u64", &["salt(buckets = 16)"], true),
                    __rowkey::field::<
                        __rowkey::Fixed<16usize>,
                        String,
                    >("event_type", "String", &["fixed(16)"], false),
                    __rowkey::field::<
                        __rowkey::ReverseTs,
                        u64,
                    >("ts", "u64", &["reverse_ts"], false),
                ],
                __rowkey::Some(1usize),
            ),
            variants: &[],
            salt: __rowkey::Some(__rowkey::SaltSchema {
                buckets: 16u16,
                hash: "md5",
                fields: &["user_id"],
            }),
            fixed_len: <Self as __rowkey::RowKey>::FIXED_LEN,
            max_len: <Self as __rowkey::RowKey>::MAX_LEN,
            limit: 32767usize,
            allow_hotspot: false,
        };
        const FINGERPRINT: __rowkey::u64 = 9911744308153739711u64;
        const __SALT_BUCKETS: __rowkey::u16 = 16u16;
        #[inline(always)]
        fn __write_head<__RowkeySink: __rowkey::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {
            let Self { user_id: __rowkey_f_user_id, .. } = self;
            <__rowkey::Natural as __rowkey::Codec<
                u64,
            >>::write(__rowkey_f_user_id, __rowkey_sink);
        }
        #[inline(always)]
        fn __write_tail<__RowkeySink: __rowkey::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {
            let Self { event_type: __rowkey_f_event_type, ts: __rowkey_f_ts, .. } = self;
            <__rowkey::Fixed<
                16usize,
            > as __rowkey::Codec<String>>::write(__rowkey_f_event_type, __rowkey_sink);
            <__rowkey::ReverseTs as __rowkey::Codec<
                u64,
            >>::write(__rowkey_f_ts, __rowkey_sink);
        }
    }
    const _: () = {
        if let __rowkey::Some(__rowkey_len) = <Event as __rowkey::RowKey>::FIXED_LEN {
            if __rowkey_len > 32767usize {
                ::core::panic!(
                    "every `Event` key is longer than its key limit of 32767 bytes; shorten the fields or raise `#[rowkey(key_limit = N)]`",
                );
            }
        }
    };
    impl Event {
        ///Explains a `Event` key field by field: offsets, the raw bytes as HBase prints them, the decoded values and attributes, the salt byte checked against the salted fields, and where and why a key that does not parse stops parsing.
        #[must_use]
        #[inline]
        fn explain<'de>(bytes: &'de [::core::primitive::u8]) -> ::std::string::String {
            let mut __rowkey_ex = __rowkey::Explainer::new(
                bytes,
                <Self as __rowkey::RowKey>::SCHEMA,
            );
            __rowkey_ex.field::<__rowkey::Natural, u64>();
            __rowkey_ex
                .field::<
                    __rowkey::Fixed<16usize>,
                    ::std::borrow::Cow<'de, ::core::primitive::str>,
                >();
            __rowkey_ex.field::<__rowkey::ReverseTs, u64>();
            __rowkey_ex.finish()
        }
    }
    #[automatically_derived]
    impl __rowkey::Explain for Event {
        #[inline]
        fn explain(&self, out: &mut ::std::string::String) {
            let __rowkey_out = out;
            let Self {
                user_id: __rowkey_f_user_id,
                event_type: __rowkey_f_event_type,
                ts: __rowkey_f_ts,
                ..
            } = self;
            __rowkey::explain_fields(
                __rowkey_out,
                "Event",
                &[
                    ("user_id", __rowkey::shown::<u64>(__rowkey_f_user_id)),
                    ("event_type", __rowkey::shown::<String>(__rowkey_f_event_type)),
                    ("ts", __rowkey::shown::<u64>(__rowkey_f_ts)),
                ],
            );
        }
    }
};
