//! A closed Catmull-Rom curve through a few control points, sampled by a
//! phase that runs through `[0, N)` (one unit per segment) and wraps.

use crate::fx::{Fx1, Fx2, Vec3};

/// The point at `phase` (wrapped into `[0, N)`) on the closed curve.
pub fn sample_closed<const N: usize>(points: &[Vec3; N], phase: Fx1) -> Vec3 {
    let n = N as i32;
    let p = phase.raw().rem_euclid(n << 12);
    let i = p >> 12;
    let t = Fx1::from_raw(p & 0xfff);
    let at = |k: i32| points[k.rem_euclid(n) as usize];
    let (p0, p1, p2, p3) = (at(i - 1), at(i), at(i + 1), at(i + 2));
    // 0.5 (2 p1 + (p2 - p0) t + (2p0 - 5p1 + 4p2 - p3) t^2 + (3p1 - p0 - 3p2 + p3) t^3)
    let t2 = t.mul_lower(t);
    let t3 = t2.mul_lower(t);
    let a = p1.scale_int(2);
    let b = p2 - p0;
    let c = p0.scale_int(2) - p1.scale_int(5) + p2.scale_int(4) - p3;
    let d = p1.scale_int(3) - p0 - p2.scale_int(3) + p3;
    let sum: Vec3<Fx2> = a.raise() + b * t + c * t2 + d * t3;
    (sum.lower()).map(|x| Fx1::from_raw(x.raw() / 2))
}
