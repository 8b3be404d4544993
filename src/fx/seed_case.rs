//! Seed 004's sphere-intersection listings, side by side: the naive one
//! shifts every product back to FX1, the tracked one compares in FX2.
//! `tests/fx_seed_case.rs` counts how often each gets small spheres wrong.

use super::power::Fx1;
use super::vec3::Vec3;

/// The SDK's `FX_MUL(X, Y) (X * Y) >> 12`: the product floored back to
/// FX1 (computed in 64 bits, so it is only wrong by the shift).
#[inline]
fn fx_mul(a: Fx1, b: Fx1) -> Fx1 {
    Fx1::from_raw(((a.raw() as i64 * b.raw() as i64) >> 12) as i32)
}

/// The seed's first listing: `d2 = FX_Mul(d.x, d.x) + ...`,
/// `r2 = FX_Mul(r, r)`, `d2 <= r2`, all in FX1. Every product drops its
/// low 12 bits, so small spheres (radius ~0.01) are often misjudged.
pub fn spheres_touch_naive(c1: Vec3, r1: Fx1, c2: Vec3, r2: Fx1) -> bool {
    let d = c1 - c2;
    let r = r1 + r2;
    let d2 = fx_mul(d.x, d.x) + fx_mul(d.y, d.y) + fx_mul(d.z, d.z);
    d2 <= fx_mul(r, r)
}

/// The seed's second listing: plain integer products compared in FX2.
/// Exact: the answer is right for every input whose `|d|` fits FX2.
pub fn spheres_touch_tracked(c1: Vec3, r1: Fx1, c2: Vec3, r2: Fx1) -> bool {
    let d = c1 - c2;
    let r = r1 + r2;
    // Both sides are Fx2; comparing `d.length_squared()` with an Fx1
    // would not compile.
    d.length_squared() <= r * r
}
