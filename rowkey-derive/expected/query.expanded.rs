#[doc(hidden)]
#[allow(non_camel_case_types)]
type __RowkeyInstallScanValues<'scan> = (
    ::rowkey::__private::Option<u64>,
    ::rowkey::__private::Option<&'scan ::core::primitive::str>,
    ::rowkey::__private::Option<u32>,
);
/**The typed scan builder of [`Install`], from [`Install::scan`]: fix fields in key order (`user`, `app`, `seq`), optionally end with a range on the next one, then call `ranges()`.

`STEP` counts the fields fixed so far; a field out of order has no method at that step.

# Layout of `Install`

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | salt | `u8` | 1 | md5(`user`) % 8 | bucket |
| 1 | `user` | `u64` | 8 | `#[salt(buckets = 8)]` | ascending |
| 2 | `app` | `String` | variable | natural | ascending |
| 3 | `seq` | `u32` | 4 | `#[reverse]` | equality only |

Layout fingerprint: `0x07597f44000054b8` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0x07597f44000054b8)]` so that a change to the stored bytes fails the build).
*/
#[allow(non_camel_case_types, non_snake_case)]
pub struct InstallScan<'scan, const STEP: ::rowkey::__private::usize> {
    __rowkey_v: __RowkeyInstallScanValues<'scan>,
    __rowkey_lt: ::rowkey::__private::PhantomData<&'scan ()>,
}
#[automatically_derived]
impl<'scan, const STEP: ::rowkey::__private::usize> ::core::clone::Clone
for InstallScan<'scan, STEP>
where
    ::rowkey::__private::CloneIf<
        'scan,
        __RowkeyInstallScanValues<'scan>,
    >: ::rowkey::__private::CloneOf<__RowkeyInstallScanValues<'scan>>,
{
    #[inline]
    fn clone(&self) -> Self {
        InstallScan {
            __rowkey_v: <::rowkey::__private::CloneIf<
                'scan,
                __RowkeyInstallScanValues<'scan>,
            > as ::rowkey::__private::CloneOf<
                __RowkeyInstallScanValues<'scan>,
            >>::clone_of(&self.__rowkey_v),
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
impl<'scan, const STEP: ::rowkey::__private::usize> InstallScan<'scan, STEP> {
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
        InstallScan {
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
    ) -> InstallScan<'scan, __ROWKEY_N> {
        InstallScan {
            __rowkey_v: self.__rowkey_v,
            __rowkey_lt: ::rowkey::__private::PhantomData,
        }
    }
}
#[automatically_derived]
#[doc(hidden)]
impl<'scan, const STEP: ::rowkey::__private::usize> ::rowkey::__private::WriteScan<8u16>
for InstallScan<'scan, STEP> {
    const MAX_LEN: ::rowkey::__private::usize = <Install as ::rowkey::__private::RowKey>::MAX_LEN;
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
                &'scan ::core::primitive::str,
            >(&self.__rowkey_v.1)
        {
            return false;
        }
        if !__rowkey_st.opt::<::rowkey::__private::Reverse, u32>(&self.__rowkey_v.2) {
            return false;
        }
        true
    }
}
/**# Row key layout

How a `Install` is laid out in a row key, field by field; scan it with [`Install::scan`].

| # | field | type | width | encoding | order |
|---|---|---|---|---|---|
| 0 | salt | `u8` | 1 | md5(`user`) % 8 | bucket |
| 1 | `user` | `u64` | 8 | `#[salt(buckets = 8)]` | ascending |
| 2 | `app` | `String` | variable | natural | ascending |
| 3 | `seq` | `u32` | 4 | `#[reverse]` | equality only |

Layout fingerprint: `0x07597f44000054b8` (`RowKey::FINGERPRINT`; pin it with `#[rowkey(fingerprint = 0x07597f44000054b8)]` so that a change to the stored bytes fails the build).
*/
impl Install {
    ///Starts a prefix scan of `Install` keys. With no field fixed, `ranges()` covers the whole table (one range per salt bucket, 8). The key's layout is the table above, as in [`InstallScan`]'s docs.
    #[inline]
    #[must_use]
    pub fn scan<'scan>() -> InstallScan<'scan, 0> {
        InstallScan::__rowkey_new()
    }
}
///A skip-scan query over [`Install`] keys, from [`Install::query`]: any fields, in any order, each equal to a value, in a list (`field_in`) or in a range; then `build()`, and read it with `Table::query`. Keys outside the query are sought past, not read: a field left open before constrained ones costs a seek per value it holds.
#[derive(Clone)]
pub struct InstallQuery {
    __rowkey_q: ::rowkey::__private::QueryBuilder,
}
impl Install {
    ///Starts a skip-scan query of `Install` keys: every field open until constrained (see [`InstallQuery`]).
    #[inline]
    #[must_use]
    pub fn query() -> InstallQuery {
        InstallQuery {
            __rowkey_q: <Install as ::rowkey::QueryKey>::__query(),
        }
    }
}
impl ::rowkey::QueryKey for Install {
    fn __query() -> ::rowkey::__private::QueryBuilder {
        ::rowkey::__private::QueryBuilder::new(
            <Install as ::rowkey::__private::RowKey>::SCHEMA,
            <Install as ::rowkey::__private::RowKey>::__SALT_HASH,
            ::rowkey::__private::segment_ends::<Install>,
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
            1usize => {
                (&::rowkey::__private::DynProbe::<
                    ::rowkey::__private::Natural,
                    &'scan ::core::primitive::str,
                >::NEW)
                    .__rowkey_constrain(__rowkey_q, 1usize, __rowkey_arg, true)
            }
            _ => false,
        }
    }
}
impl InstallQuery {
    ///Only keys whose `user` is `arg`, or lies in it when it is a range (`a..b`, `a..=b`, `a..`, `..b`). The other fields stay open unless constrained too; a field constrained twice keeps what both allow.
    #[inline]
    #[must_use]
    pub fn user<A: ::rowkey::QueryArg<u64>>(mut self, arg: A) -> Self {
        self.__rowkey_q.arg::<::rowkey::__private::Natural, u64, A>(0usize, arg);
        self
    }
    ///Only keys whose `user` is one of `values` (none given: no key matches).
    #[inline]
    #[must_use]
    pub fn user_in<I: ::core::iter::IntoIterator<Item = u64>>(
        mut self,
        values: I,
    ) -> Self {
        self.__rowkey_q.any_of::<::rowkey::__private::Natural, u64>(0usize, values);
        self
    }
    ///Only keys whose `app` is `arg`, or lies in it when it is a range (`a..b`, `a..=b`, `a..`, `..b`). The other fields stay open unless constrained too; a field constrained twice keeps what both allow.
    #[inline]
    #[must_use]
    pub fn app<'scan, A: ::rowkey::QueryArg<&'scan ::core::primitive::str>>(
        mut self,
        arg: A,
    ) -> Self {
        self.__rowkey_q
            .arg::<
                ::rowkey::__private::Natural,
                &'scan ::core::primitive::str,
                A,
            >(1usize, arg);
        self
    }
    ///Only keys whose `app` is one of `values` (none given: no key matches).
    #[inline]
    #[must_use]
    pub fn app_in<
        'scan,
        I: ::core::iter::IntoIterator<Item = &'scan ::core::primitive::str>,
    >(mut self, values: I) -> Self {
        self.__rowkey_q
            .any_of::<
                ::rowkey::__private::Natural,
                &'scan ::core::primitive::str,
            >(1usize, values);
        self
    }
    ///Only keys whose `seq` is `value` (this field does not keep order, so it takes no range). The other fields stay open unless constrained too; a field constrained twice keeps what both allow.
    #[inline]
    #[must_use]
    pub fn seq<A: ::rowkey::__private::ScanValue<u32>>(mut self, value: A) -> Self {
        self.__rowkey_q.value::<::rowkey::__private::Reverse, u32, A>(2usize, value);
        self
    }
    ///Only keys whose `seq` is one of `values` (none given: no key matches).
    #[inline]
    #[must_use]
    pub fn seq_in<I: ::core::iter::IntoIterator<Item = u32>>(
        mut self,
        values: I,
    ) -> Self {
        self.__rowkey_q.any_of::<::rowkey::__private::Reverse, u32>(2usize, values);
        self
    }
    /// The query, its plan shown by `Display`; a table of another key type refuses it.
    #[inline]
    #[must_use]
    pub fn build(self) -> ::rowkey::TypedQuery<Install> {
        ::rowkey::TypedQuery::new(self.__rowkey_q.build())
    }
}
#[doc(hidden)]
const _: () = {
    use ::rowkey::__private as __rowkey;
    impl<'scan> InstallScan<'scan, 0> {
        ///Fixes `user` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn user<A: __rowkey::ScanArg<u64>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            u64,
            InstallScan<'scan, 1>,
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
    impl<'scan> InstallScan<'scan, 1> {
        ///Fixes `app` to a value and continues with the next field, or, given a range (`a..b`, `a..=b`, `a..`, `..b`, `..`), bounds it and ends the scan.
        #[inline]
        #[must_use]
        pub fn app<A: __rowkey::ScanArg<&'scan ::core::primitive::str>>(
            self,
            arg: A,
        ) -> __rowkey::ScanThen<
            A,
            &'scan ::core::primitive::str,
            InstallScan<'scan, 2>,
            Self,
            __rowkey::Natural,
            8,
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
    impl<'scan> InstallScan<'scan, 2> {
        ///Fixes `seq` to a value and continues with the next field; this field does not keep order, so it takes no range.
        #[inline]
        #[must_use]
        pub fn seq<A: __rowkey::ScanValue<u32>>(
            self,
            value: A,
        ) -> InstallScan<'scan, 3> {
            let mut __rowkey_s = self;
            __rowkey_s.__rowkey_v.2 = __rowkey::Some(
                __rowkey::ScanValue::into_value(value),
            );
            __rowkey_s.__rowkey_to()
        }
    }
    #[automatically_derived]
    impl __rowkey::Encode for Install {
        const FIXED_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::sum(
            &[
                <__rowkey::Natural as __rowkey::Codec<u64>>::FIXED_WIDTH,
                <__rowkey::Natural as __rowkey::Codec<String>>::FIXED_WIDTH,
                <__rowkey::Reverse as __rowkey::Codec<u32>>::FIXED_WIDTH,
            ],
        );
        const MAX_WIDTH: __rowkey::Option<__rowkey::usize> = __rowkey::sum(
            &[
                <__rowkey::Natural as __rowkey::Codec<u64>>::MAX_WIDTH,
                <__rowkey::Natural as __rowkey::Codec<String>>::MAX_WIDTH,
                <__rowkey::Reverse as __rowkey::Codec<u32>>::MAX_WIDTH,
            ],
        );
        const ENCODING: &'static __rowkey::str = "nested key `Install`";
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
                user: __rowkey_f_user,
                app: __rowkey_f_app,
                seq: __rowkey_f_seq,
                ..
            } = self;
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                u64,
            >(__rowkey_f_user, __rowkey_n, "user")?;
            __rowkey_n = __rowkey::width::<
                __rowkey::Natural,
                String,
            >(__rowkey_f_app, __rowkey_n, "app")?;
            __rowkey_n = __rowkey::width::<
                __rowkey::Reverse,
                u32,
            >(__rowkey_f_seq, __rowkey_n, "seq")?;
            __rowkey::Ok(__rowkey_n)
        }
        #[inline]
        fn write<S: __rowkey::Sink>(&self, sink: &mut S) {
            __rowkey::RowKey::__write_head(self, sink);
            __rowkey::RowKey::__write_tail(self, sink);
        }
    }
    #[automatically_derived]
    impl<'de> __rowkey::Decode<'de> for Install {
        #[inline(always)]
        fn read<R: __rowkey::Source<'de>>(
            src: &mut R,
        ) -> __rowkey::Result<Self, __rowkey::DecodeError> {
            let __rowkey_src = src;
            __rowkey::Ok(Self {
                user: __rowkey::read::<__rowkey::Natural, u64, _>(__rowkey_src, "user")?,
                app: __rowkey::read::<
                    __rowkey::Natural,
                    String,
                    _,
                >(__rowkey_src, "app")?,
                seq: __rowkey::read::<__rowkey::Reverse, u32, _>(__rowkey_src, "seq")?,
            })
        }
    }
    #[automatically_derived]
    impl __rowkey::RowKey for Install {
        const SCHEMA: &'static __rowkey::Schema = &__rowkey::Schema {
            name: "Install",
            fields: &__rowkey::with_offsets(
                [
                    __rowkey::field::<
                        __rowkey::Natural,
                        u64,
                    >("user", "u64", &["salt(buckets = 8)"], true),
                    __rowkey::field::<
                        __rowkey::Natural,
                        String,
                    >("app", "String", &[], false),
                    __rowkey::field::<
                        __rowkey::Reverse,
                        u32,
                    >("seq", "u32", &["reverse"], false),
                ],
                __rowkey::Some(1usize),
            ),
            variants: &[],
            salt: __rowkey::Some(__rowkey::SaltSchema {
                buckets: 8u16,
                hash: "md5",
                fields: &["user"],
            }),
            fixed_len: <Self as __rowkey::RowKey>::FIXED_LEN,
            max_len: <Self as __rowkey::RowKey>::MAX_LEN,
            limit: 32767usize,
            allow_hotspot: false,
        };
        const FINGERPRINT: __rowkey::u64 = 529594361227269304u64;
        const __SALT_BUCKETS: __rowkey::u16 = 8u16;
        #[inline(always)]
        fn __write_head<__RowkeySink: __rowkey::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {
            let Self { user: __rowkey_f_user, .. } = self;
            <__rowkey::Natural as __rowkey::Codec<
                u64,
            >>::write(__rowkey_f_user, __rowkey_sink);
        }
        #[inline(always)]
        fn __write_tail<__RowkeySink: __rowkey::Sink>(
            &self,
            __rowkey_sink: &mut __RowkeySink,
        ) {
            let Self { app: __rowkey_f_app, seq: __rowkey_f_seq, .. } = self;
            <__rowkey::Natural as __rowkey::Codec<
                String,
            >>::write(__rowkey_f_app, __rowkey_sink);
            <__rowkey::Reverse as __rowkey::Codec<
                u32,
            >>::write(__rowkey_f_seq, __rowkey_sink);
        }
    }
    impl Install {
        ///Explains a `Install` key field by field: offsets, the raw bytes as HBase prints them, the decoded values and attributes, the salt byte checked against the salted fields, and where and why a key that does not parse stops parsing.
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
            __rowkey_ex
                .field::<
                    __rowkey::Natural,
                    ::std::borrow::Cow<'de, ::core::primitive::str>,
                >();
            __rowkey_ex.field::<__rowkey::Reverse, u32>();
            __rowkey_ex.finish()
        }
    }
    #[automatically_derived]
    impl __rowkey::Explain for Install {
        #[inline]
        fn explain(&self, out: &mut ::std::string::String) {
            let __rowkey_out = out;
            let Self {
                user: __rowkey_f_user,
                app: __rowkey_f_app,
                seq: __rowkey_f_seq,
                ..
            } = self;
            __rowkey::explain_fields(
                __rowkey_out,
                "Install",
                &[
                    ("user", __rowkey::shown::<u64>(__rowkey_f_user)),
                    ("app", __rowkey::shown::<String>(__rowkey_f_app)),
                    ("seq", __rowkey::shown::<u32>(__rowkey_f_seq)),
                ],
            );
        }
    }
};
