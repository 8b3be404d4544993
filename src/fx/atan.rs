//! `atan2`, `asin` and `acos`: one division on the DS divider to reduce to
//! `atan(t)`, `t` in `[0, 1]`, then a 1024-step table with linear
//! interpolation (error at most `(1/1024)^2 / 8 * 0.65 ≈ 8e-8` rad, well
//! below an FX1 step).

use crate::divsqrt::{div_auto, sqrt_u64};

use super::power::Fx1;
use super::tables::{ATAN_A32, ATAN_STEPS};
use super::trig::{a32_to_a16, a32_to_radians, Angle};

/// `atan(t)` for `t` in Q30, `[0, 2^30]`, as a 32-bit binary angle.
#[inline]
fn atan_unit(t: u64) -> u32 {
    // The clamps let the compiler drop the bounds checks (t <= 2^30).
    let i = ((t >> 20) as usize).min(ATAN_STEPS);
    let f = t & 0xF_FFFF;
    let lo = ATAN_A32[i];
    let hi = ATAN_A32[(i + 1).min(ATAN_STEPS)];
    lo + (((hi - lo) as u64 * f + (1 << 19)) >> 20) as u32
}

/// `atan2(y, x)` as a 32-bit binary angle (`2^32` per turn), for any
/// integers of the same scale. `atan2(0, 0)` is zero.
#[inline]
pub(crate) fn atan2_a32(y: i64, x: i64) -> u32 {
    let (ax, ay) = (x.unsigned_abs(), y.unsigned_abs());
    let (big, small) = if ay > ax { (ay, ax) } else { (ax, ay) };
    if big == 0 {
        return 0;
    }
    // Keep `small << 30` inside i64: 32 significant bits are plenty.
    let pre = (64 - big.leading_zeros()).saturating_sub(32);
    let (big, small) = (big >> pre, small >> pre);
    let t = div_auto((small << 30) as i64, big as i64) as u64;
    let oct = atan_unit(t);
    let mut a = if ay > ax { (1u32 << 30) - oct } else { oct };
    if x < 0 {
        a = (1u32 << 31) - a;
    }
    if y < 0 {
        a = a.wrapping_neg();
    }
    a
}

/// `sqrt(1 - x^2)` in Q30 for `x` in FX1, clamped to `[-1, 1]`.
#[inline]
fn cofunction_q30(x: Fx1) -> i64 {
    let x = x.raw().clamp(-4096, 4096) as i64;
    // (1 - x^2) is exact in Q24; shifted to Q60 its root is Q30.
    sqrt_u64(((1i64 << 24) - x * x) as u64 * (1 << 36)) as i64
}

/// `atan2(y, x)` as an [`Angle`], rounded; `atan2(0, 0)` is zero.
#[inline]
pub fn atan2(y: Fx1, x: Fx1) -> Angle {
    Angle::from_raw(a32_to_a16(atan2_a32(y.raw() as i64, x.raw() as i64)))
}

/// `atan2(y, x)` in FX1 radians, `(-pi, pi]`, rounded, with no 16-bit angle
/// rounding in between.
#[inline]
pub fn atan2_radians(y: Fx1, x: Fx1) -> Fx1 {
    a32_to_radians(atan2_a32(y.raw() as i64, x.raw() as i64))
}

/// `asin(x)` as an [`Angle`] in `[-90°, 90°]`; `x` is clamped to `[-1, 1]`.
#[inline]
pub fn asin(x: Fx1) -> Angle {
    Angle::from_raw(a32_to_a16(asin_a32(x)))
}

/// `acos(x)` as an [`Angle`] in `[0°, 180°]`; `x` is clamped to `[-1, 1]`.
#[inline]
pub fn acos(x: Fx1) -> Angle {
    Angle::from_raw(a32_to_a16(acos_a32(x)))
}

/// `asin(x)` in FX1 radians; `x` is clamped to `[-1, 1]`.
#[inline]
pub fn asin_radians(x: Fx1) -> Fx1 {
    a32_to_radians(asin_a32(x))
}

/// `acos(x)` in FX1 radians, `[0, pi]`; `x` is clamped to `[-1, 1]`.
#[inline]
pub fn acos_radians(x: Fx1) -> Fx1 {
    a32_to_radians(acos_a32(x))
}

#[inline]
fn asin_a32(x: Fx1) -> u32 {
    let xc = x.raw().clamp(-4096, 4096) as i64;
    atan2_a32(xc << 18, cofunction_q30(x))
}

#[inline]
fn acos_a32(x: Fx1) -> u32 {
    let xc = x.raw().clamp(-4096, 4096) as i64;
    atan2_a32(cofunction_q30(x), xc << 18)
}
