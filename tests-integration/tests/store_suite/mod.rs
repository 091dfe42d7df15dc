//! The store conformance suite, shared by the store tests: the public suite
//! (`src/conformance/`, feature `conformance`), included here by path so that every test build
//! runs it whatever its features, and what only the networked stores' tests need (`net`).

#![allow(dead_code)] // each test binary uses part of it

#[path = "../../../rowkey/src/conformance/mod.rs"]
mod suite;

pub use suite::*;

pub mod emulator;
pub mod large;
pub mod metered;
pub mod net;
pub mod skip;
pub mod versions;
