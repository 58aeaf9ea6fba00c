//! `snapshot_fields_are_immutable`: the public API offers no mutation after
//! construction. Each file under `tests/immutability/` tries one and must not compile.

#[test]
fn snapshot_offers_no_mutation() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/immutability/*.rs");
}
