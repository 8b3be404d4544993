//! Normalised linear interpolation of Q30 quaternions without the
//! divider: the sample and blend stages' one operation per joint.
//!
//! `Quat::nlerp` normalises with the DS's square-root unit and divider
//! (register writes, a busy poll and reads, twice per quaternion). Here
//! the reciprocal length comes from [`super::rsqrt`]'s table and two
//! Newton steps, in 32 x 32 multiplies: within about `2^-29` of exact,
//! so the result is unit to a few Q30 steps, as `Quat::nlerp`'s is
//! (`tests/anim_qlerp.rs` measures both against f64).

use crate::fx::{Fx1, Quat};

/// `a` towards `b` by `t` in `(0, 1)` (FX1, clamped to `[0, 1]`) along the
/// shorter arc, normalised. `t = 0` gives `a`'s direction, `t = 1` `b`'s
/// (callers that need the keys bit for bit skip those weights).
#[inline]
pub fn nlerp(a: Quat, b: Quat, t: Fx1) -> Quat {
    let t = t.raw().clamp(0, 1 << 12) as i64;
    let (a, mut b) = (a.raw_q30(), b.raw_q30());
    let dot: i64 = (0..4).map(|i| a[i] as i64 * b[i] as i64).sum();
    if dot < 0 {
        b = b.map(|c| -c);
    }
    // a + (b - a) t, rounded to nearest (ties away from zero) once.
    let c: [i64; 4] = core::array::from_fn(|i| {
        let d = (b[i] as i64 - a[i] as i64) * t;
        a[i] as i64 + ((d + (1 << 11) + (d >> 63)) >> 12)
    });
    Quat::normalised_q30(c)
}
