//! The generated code names everything by full path: it compiles in a module without the
//! prelude, where `Result`, `Ok`, `Option`, `Some`, `None`, `Vec`, `String` and `Err` mean
//! something else, and under strict lints in user code.

#![deny(
    missing_docs,
    unused_qualifications,
    unsafe_code,
    clippy::all,
    clippy::pedantic
)]
#![allow(clippy::missing_panics_doc)]

//! (crate docs for `missing_docs`)

/// A module where the usual names are taken.
pub mod shadowed {
    #![no_implicit_prelude]
    #![allow(dead_code, non_camel_case_types, missing_docs)]
    // The user's own field name, chosen to collide with the expansion's locals.
    #![allow(clippy::pub_underscore_fields)]

    pub struct Result;
    pub struct Ok;
    pub struct Err;
    pub struct Option;
    pub struct Some;
    pub struct None;
    pub struct Vec;
    pub struct String;
    pub struct usize;
    pub struct u16;
    pub struct str;
    pub struct Sink;
    pub struct Source;
    pub trait RowKey {}
    pub trait Encode {}
    pub trait Decode {}
    pub mod core {}
    pub mod std {}

    /// A key whose fields are named after things the expansion might use.
    #[derive(::rowkey::RowKey, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    pub struct Shadowed<'de> {
        #[salt(buckets = 4)]
        pub sink: u64,
        #[fixed(8)]
        pub src: ::std::string::String,
        pub __rowkey_n: &'de ::core::primitive::str,
        #[reverse_ts]
        pub ts: u64,
        pub read: ::std::option::Option<::std::vec::Vec<u8>>,
        #[desc]
        pub write: i32,
    }

    /// A record-type enum under the same conditions.
    #[derive(::rowkey::RowKey, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    #[rowkey(prefix(sink))]
    pub enum Records {
        #[tag(1)]
        A {
            #[salt(buckets = 4)]
            sink: u64,
        },
        #[tag(2)]
        B {
            #[salt(buckets = 4)]
            sink: u64,
            src: ::std::string::String,
        },
    }
}

use rowkey::RowKey;
use shadowed::Shadowed;

#[test]
fn expansion_is_hygienic() {
    let k = Shadowed {
        sink: 1,
        src: "s".into(),
        __rowkey_n: "n",
        ts: 2,
        read: Some(vec![0, 1]),
        write: -3,
    };
    let bytes = k.to_bytes().unwrap();
    assert_eq!(Shadowed::decode(&bytes).unwrap(), k);
    let r = shadowed::Records::B {
        sink: 1,
        src: "x".into(),
    };
    assert_eq!(
        shadowed::Records::decode(&r.to_bytes().unwrap()).unwrap(),
        r
    );
    assert_eq!(Shadowed::scan().sink(1).src("s").ranges().len(), 1);
    assert!(Shadowed::explain(&bytes).contains("src"));
}
