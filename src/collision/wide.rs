//! Exact `i128` vector arithmetic on FX1 points, for the tests that must
//! not round: feature marking (build time) and the precision benchmark's
//! tunnelling check. Not for the per-frame path.

use crate::fx::Vec3;

use super::triangle::Triangle;

/// An FX1 point's raw components, widened.
pub fn wide(v: Vec3) -> [i128; 3] {
    v.raw().map(|c| c as i128)
}

pub fn sub(a: [i128; 3], b: [i128; 3]) -> [i128; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub fn cross(a: [i128; 3], b: [i128; 3]) -> [i128; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub fn dot(a: [i128; 3], b: [i128; 3]) -> i128 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// A triangle's exact normal `(v1 - v0) x (v2 - v0)` (FX2 raw,
/// unnormalised), from its FX1 vertices rather than the stored plane.
pub fn normal(t: &Triangle) -> [i128; 3] {
    let [a, b, c] = t.v.map(wide);
    cross(sub(b, a), sub(c, a))
}
