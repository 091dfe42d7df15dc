//! trybuild ui-tests: every compile-time rule of the derive, with its exact message and span
//! snapshotted in the `.stderr` beside each case. Regenerate with `TRYBUILD=overwrite`.
//!
//! This crate depends on rowkey without features, and trybuild builds the cases against that:
//! the messages that list a trait's implementors (`ColumnValue`'s in `value_types/`, `Encode`'s
//! in `foreign/`) are rowkey's core's, whatever features the workspace's build enables.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("attr/*.rs");
    t.compile_fail("types/*.rs");
    t.compile_fail("layout/*.rs");
    t.compile_fail("scan/*.rs");
    t.compile_fail("query/*.rs");
    t.compile_fail("records/*.rs");
    t.compile_fail("index/*.rs");
    t.compile_fail("value/*.rs");
    t.compile_fail("rows/*.rs");
    t.compile_fail("phoenix/*.rs");
    // Mistakes rustc reports itself: its error alone, nothing of the derives' beside it.
    t.compile_fail("rust_errors/*.rs");
    t.compile_fail("value_types/*.rs");
    t.compile_fail("foreign/*.rs");
    t.pass("pass/*.rs");
}
