//! Build-time checks of a character definition (issue 20: bad input is a
//! build error). A character's parts and joints are `const` tables; each
//! entry's constructor calls these `const fn`s, so a definition that
//! would make the solver's system singular or badly conditioned does not
//! compile, and the compiler's error names the file and line of the
//! entry and the message names the field.
//!
//! What is refused, and why:
//! - a part's `mass` outside [`MIN_MASS`]..[`MAX_MASS`] kg: zero or
//!   negative makes it static or breaks `1/m`, and `Body::new_box`
//!   clamps to this range anyway;
//! - a part's `half` extent that is not positive: a zero extent gives an
//!   infinite inverse inertia;
//! - a joint whose two bodies are the same, or out of the table;
//! - a joint between bodies whose masses differ by more than
//!   [`MAX_MASS_RATIO`]: Gauss-Seidel converges on a heavy body hung
//!   from a light one (or the reverse) only in very many sweeps;
//! - two joints between the same two bodies ("coincident anchors"): their
//!   rows are redundant and the system singular.

use crate::fx::{Fx1, Vec3};

/// Lightest part, kg (`Body::new_box` clamps to it).
pub const MIN_MASS: Fx1 = crate::fx!(0.05);
/// Heaviest part, kg.
pub const MAX_MASS: Fx1 = crate::fx!(1000.0);
/// The largest mass ratio across one joint.
pub const MAX_MASS_RATIO: i32 = 20;

/// Panics unless a part's mass and extents are usable.
pub const fn part(mass: Fx1, half: Vec3) {
    assert!(
        mass.raw() >= MIN_MASS.raw() && mass.raw() <= MAX_MASS.raw(),
        "character part: `mass` must lie in 0.05..=1000 kg"
    );
    assert!(
        half.x.raw() > 0 && half.y.raw() > 0 && half.z.raw() > 0,
        "character part: every `half` extent must be positive"
    );
}

/// Panics unless joint `a`-`b` joins two different parts of a table of
/// `parts` whose masses are `mass_a` and `mass_b`, within the ratio.
pub const fn joint(a: u8, b: u8, parts: usize, mass_a: Fx1, mass_b: Fx1) {
    assert!(a != b, "character joint: `a` and `b` are the same part");
    assert!(
        (a as usize) < parts && (b as usize) < parts,
        "character joint: `a` or `b` is not a part of the table"
    );
    let (lo, hi) = if mass_a.raw() < mass_b.raw() {
        (mass_a.raw() as i64, mass_b.raw() as i64)
    } else {
        (mass_b.raw() as i64, mass_a.raw() as i64)
    };
    assert!(
        hi <= lo * MAX_MASS_RATIO as i64,
        "character joint: the masses of `a` and `b` differ by more than MAX_MASS_RATIO (20)"
    );
}

/// Panics if two joints of `pairs` (each `(a, b)`) join the same parts.
pub const fn distinct_pairs(pairs: &[(u8, u8)]) {
    let mut i = 0;
    while i < pairs.len() {
        let mut j = i + 1;
        while j < pairs.len() {
            let (a, b) = pairs[i];
            let (c, d) = pairs[j];
            assert!(
                !((a == c && b == d) || (a == d && b == c)),
                "character joints: two joints join the same parts (coincident anchors)"
            );
            j += 1;
        }
        i += 1;
    }
}
