//! A character definition that would make the solver's system singular
//! or badly conditioned does not build (issue 20): each case in
//! `tests/compile_fail/rigid_*.rs` must fail with the committed message.
//! The shipped characters pass the same checks (they build).

use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::characters::check;

#[test]
fn bad_character_definitions_do_not_compile() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_fail/rigid_*.rs");
}

#[test]
fn the_limits_themselves_pass() {
    // At the edges: the lightest and heaviest masses, a ratio of exactly
    // MAX_MASS_RATIO, distinct pairs.
    let half = Vec3::new(Fx1::ONE, Fx1::ONE, Fx1::ONE);
    check::part(check::MIN_MASS, half);
    check::part(check::MAX_MASS, half);
    check::joint(0, 1, 2, Fx1::from_int(check::MAX_MASS_RATIO), Fx1::ONE);
    check::distinct_pairs(&[(0, 1), (1, 2), (0, 2)]);
}

#[test]
#[should_panic(expected = "MAX_MASS_RATIO")]
fn one_step_past_the_ratio_is_refused() {
    let heavy = Fx1::from_raw(check::MAX_MASS_RATIO * 4096 + 1);
    check::joint(0, 1, 2, heavy, Fx1::ONE);
}
