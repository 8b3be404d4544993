//! The power types turn seed 004's rules into compile errors: each case in
//! `tests/compile_fail/` must fail to build, with the committed message.

#[test]
fn mixing_fx_powers_does_not_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_fail/fx_*.rs");
}
