//! The little float math the twin needs. `core` has no `f32::sqrt`
//! without `std`, so the square root comes from a library, chosen by a
//! [`FloatMath`] type: [`Libm`] (`libm::sqrtf`, correctly rounded, what a
//! `no_std` user reaches for first) or [`Micromath`] (`micromath`'s fast
//! approximation, what one picks for speed). The bench times the twin
//! with each (`float_vs_fixed`).

use core::ops::{Add, AddAssign, Mul, Sub, SubAssign};

/// A 3-vector of `f32` (metres).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct V3(pub [f32; 3]);

impl V3 {
    /// The zero vector.
    pub const ZERO: V3 = V3([0.0; 3]);

    /// `|v|^2`.
    #[inline]
    pub fn length_squared(self) -> f32 {
        let [x, y, z] = self.0;
        x * x + y * y + z * z
    }
}

impl Add for V3 {
    type Output = V3;
    #[inline]
    fn add(self, o: V3) -> V3 {
        V3([self.0[0] + o.0[0], self.0[1] + o.0[1], self.0[2] + o.0[2]])
    }
}

impl Sub for V3 {
    type Output = V3;
    #[inline]
    fn sub(self, o: V3) -> V3 {
        V3([self.0[0] - o.0[0], self.0[1] - o.0[1], self.0[2] - o.0[2]])
    }
}

impl Mul<f32> for V3 {
    type Output = V3;
    #[inline]
    fn mul(self, k: f32) -> V3 {
        V3([self.0[0] * k, self.0[1] * k, self.0[2] * k])
    }
}

impl AddAssign for V3 {
    #[inline]
    fn add_assign(&mut self, o: V3) {
        *self = *self + o;
    }
}

impl SubAssign for V3 {
    #[inline]
    fn sub_assign(&mut self, o: V3) {
        *self = *self - o;
    }
}

/// The float library the twin's square roots come from.
pub trait FloatMath {
    /// The library's name, for reports.
    const NAME: &'static str;
    /// `sqrt(x)` for `x >= 0` (the twin takes roots of squared lengths
    /// only).
    fn sqrt(x: f32) -> f32;
}

/// `libm`'s `sqrtf`: correctly rounded (IEEE 754), in software.
pub struct Libm;

impl FloatMath for Libm {
    const NAME: &'static str = "libm";
    #[inline]
    fn sqrt(x: f32) -> f32 {
        libm::sqrtf(x)
    }
}

/// `micromath`'s `sqrt`: a bit-level estimate, fast and rough (6.1 %
/// at worst, measured in `tests.rs`).
pub struct Micromath;

impl FloatMath for Micromath {
    const NAME: &'static str = "micromath";
    #[inline]
    fn sqrt(x: f32) -> f32 {
        micromath::F32Ext::sqrt(x)
    }
}

/// [`Libm`]'s square root, for callers that do not pick a library.
#[inline]
pub fn sqrt(x: f32) -> f32 {
    Libm::sqrt(x)
}
