//! Sine and cosine from a 4096-step table with linear interpolation, like
//! the DS SDK, and the [`Angle`] type (a 16-bit binary angle).
//!
//! The table holds a quarter wave in Q30 (4 KiB). Plain linear
//! interpolation would be off by up to `(2 pi / 4096)^2 / 8 ≈ 3e-7`; a
//! second-order "sag" term brings that to about `1e-9`, so the quaternion
//! code can use the Q30 values (with 32-bit angles) directly, and the FX1
//! results are within half a step of the exact value.

use core::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use super::power::{round_shr, Fx1};
use super::tables::{QUARTER_STEPS, SIN_Q30};

/// `round(pi * 2^29)`.
pub(crate) const PI_Q29: i64 = 1_686_629_713;
/// `round(pi * 2^12)`: pi in FX1.
pub(crate) const PI_FX1: i32 = 12868;
/// `round(2^51 / pi)`: FX1 radians times this, over `2^32`, is a 32-bit
/// binary angle.
const RAD_Q12_TO_A32: i64 = 716_770_142_402_832;

/// An angle as a binary fraction of a turn: 65536 per turn, wrapping.
///
/// `Angle::from_raw(16384)` is a quarter turn (90°). Addition and
/// subtraction wrap, which is exactly angle arithmetic modulo a turn.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Angle(u16);

impl Angle {
    /// 0°.
    pub const ZERO: Angle = Angle(0);
    /// 90°.
    pub const QUARTER: Angle = Angle(0x4000);
    /// 180°.
    pub const HALF: Angle = Angle(0x8000);

    /// From turns times 65536.
    #[inline]
    pub const fn from_raw(raw: u16) -> Angle {
        Angle(raw)
    }

    /// Turns times 65536.
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// The nearest angle to `r` radians (any value; wraps).
    #[inline]
    pub fn from_radians(r: Fx1) -> Angle {
        Angle(a32_to_a16(radians_to_a32(r)))
    }

    /// Radians in `[-pi, pi)`, rounded to nearest.
    #[inline]
    pub fn to_radians(self) -> Fx1 {
        // a * 2 pi / 65536 radians = a * pi / 8 in FX1.
        Fx1::from_raw(round_shr(self.0 as i16 as i64 * PI_Q29, 32) as i32)
    }

    /// The angle as a 32-bit binary angle.
    #[inline]
    pub const fn to_a32(self) -> u32 {
        (self.0 as u32) << 16
    }

    /// `sin(self)`, interpolated from the table.
    #[inline]
    pub fn sin(self) -> Fx1 {
        q30_to_fx1(sin_q30(self.to_a32()))
    }

    /// `cos(self)`, interpolated from the table.
    #[inline]
    pub fn cos(self) -> Fx1 {
        q30_to_fx1(cos_q30(self.to_a32()))
    }

    /// `(sin, cos)`.
    #[inline]
    pub fn sin_cos(self) -> (Fx1, Fx1) {
        (self.sin(), self.cos())
    }
}

impl Add for Angle {
    type Output = Angle;
    #[inline]
    fn add(self, o: Angle) -> Angle {
        Angle(self.0.wrapping_add(o.0))
    }
}

impl Sub for Angle {
    type Output = Angle;
    #[inline]
    fn sub(self, o: Angle) -> Angle {
        Angle(self.0.wrapping_sub(o.0))
    }
}

impl Neg for Angle {
    type Output = Angle;
    #[inline]
    fn neg(self) -> Angle {
        Angle(self.0.wrapping_neg())
    }
}

impl AddAssign for Angle {
    #[inline]
    fn add_assign(&mut self, o: Angle) {
        *self = *self + o;
    }
}

impl SubAssign for Angle {
    #[inline]
    fn sub_assign(&mut self, o: Angle) {
        *self = *self - o;
    }
}

/// `(sin r, cos r)` for `r` in FX1 radians, without rounding `r` to an
/// [`Angle`] first (a 32-bit angle keeps the full FX1 precision).
#[inline]
pub fn sin_cos_radians(r: Fx1) -> (Fx1, Fx1) {
    let a = radians_to_a32(r);
    (q30_to_fx1(sin_q30(a)), q30_to_fx1(cos_q30(a)))
}

/// FX1 radians to a 32-bit binary angle, rounded, wrapping.
#[inline]
pub(crate) fn radians_to_a32(r: Fx1) -> u32 {
    // Wrapping is right: only the low 32 bits of the angle matter.
    ((r.raw() as i64)
        .wrapping_mul(RAD_Q12_TO_A32)
        .wrapping_add(1 << 31)
        >> 32) as u32
}

/// A 32-bit binary angle to FX1 radians in `(-pi, pi]`.
#[inline]
pub(crate) fn a32_to_radians(a: u32) -> Fx1 {
    if a == 1 << 31 {
        return Fx1::from_raw(PI_FX1);
    }
    // a * 2 pi / 2^32 radians = a * pi / 2^19 in FX1.
    Fx1::from_raw(round_shr(a as i32 as i64 * PI_Q29, 48) as i32)
}

/// A 32-bit binary angle to the nearest 16-bit one.
#[inline]
pub(crate) fn a32_to_a16(a: u32) -> u16 {
    (a.wrapping_add(1 << 15) >> 16) as u16
}

/// Q30 to FX1, rounded.
#[inline]
fn q30_to_fx1(v: i32) -> Fx1 {
    Fx1::from_raw(round_shr(v as i64, 18) as i32)
}

/// `h^2 / 2` in Q40 for the table step `h = (pi/2) / 1024`.
const HALF_STEP_SQUARED_Q40: i64 = 1_293_629;

/// `sin(a)` in Q30 for a 32-bit binary angle: table step by the top 12
/// bits, linear interpolation by the next 20, plus a second-order term.
#[inline]
pub(crate) fn sin_q30(a: u32) -> i32 {
    let quadrant = a >> 30;
    let mut p = a & 0x3FFF_FFFF;
    if quadrant & 1 == 1 {
        // Second and fourth quadrants run the quarter wave backwards.
        p = (1 << 30) - p;
    }
    let i = ((p >> 20) as usize).min(QUARTER_STEPS);
    let f = (p & 0xF_FFFF) as i64;
    let lo = SIN_Q30[i] as i64;
    let hi = SIN_Q30[(i + 1).min(QUARTER_STEPS)] as i64;
    // The quarter wave rises, so the difference is never negative.
    let v = lo + (((hi - lo) * f + (1 << 19)) >> 20);
    // The chord lies below the arc by sin(x) * s(1-s) * h^2/2 (s the
    // fraction, h the step): adding it back takes the error from 3e-7 to
    // about 1e-9 for three multiplies.
    let s1s = (f * ((1 << 20) - f)) >> 20;
    let sag = (s1s * HALF_STEP_SQUARED_Q40) >> 20;
    let v = (v + ((v * sag + (1 << 39)) >> 40)) as i32;
    if quadrant >= 2 {
        -v
    } else {
        v
    }
}

/// `cos(a)` in Q30 for a 32-bit binary angle.
#[inline]
pub(crate) fn cos_q30(a: u32) -> i32 {
    sin_q30(a.wrapping_add(1 << 30))
}
