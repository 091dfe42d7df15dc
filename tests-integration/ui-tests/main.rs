//! trybuild ui-tests: every compile-time rule of the derive, with its exact message and span
//! snapshotted in the `.stderr` beside each case. Regenerate with `TRYBUILD=overwrite`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui-tests/attr/*.rs");
    t.compile_fail("ui-tests/types/*.rs");
    t.compile_fail("ui-tests/layout/*.rs");
    t.compile_fail("ui-tests/scan/*.rs");
    t.compile_fail("ui-tests/query/*.rs");
    t.compile_fail("ui-tests/records/*.rs");
    t.compile_fail("ui-tests/index/*.rs");
    t.compile_fail("ui-tests/value/*.rs");
    t.compile_fail("ui-tests/rows/*.rs");
    t.compile_fail("ui-tests/phoenix/*.rs");
    // Mistakes rustc reports itself: its error alone, nothing of the derives' beside it.
    t.compile_fail("ui-tests/rust_errors/*.rs");
    // rustc lists `ColumnValue`'s implementors in this message, and `Json<T>` is one only with
    // the `json` feature: checked in the builds without it (CI's `--no-default-features` run).
    #[cfg(not(feature = "json"))]
    t.compile_fail("ui-tests/value_types/*.rs");
    // Likewise `Encode`'s implementors: the conformance suite's keys are among them with the
    // `conformance` feature.
    #[cfg(not(feature = "conformance"))]
    t.compile_fail("ui-tests/foreign/*.rs");
    t.pass("ui-tests/pass/*.rs");
}
