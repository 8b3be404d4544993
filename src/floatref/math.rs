//! The little float math the twin needs. `core` has no `f32::sqrt`
//! without `std`, so [`sqrt`] is the usual library routine: a bit-level
//! first guess and Newton steps (each a soft-float division on the DS).

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

/// `sqrt(x)` for `x >= 0` (0 for anything else), to within 1 ulp or so:
/// the exponent-halving guess (within 4 %) and three Newton steps.
pub fn sqrt(x: f32) -> f32 {
    if x <= 0.0 || !x.is_finite() {
        return if x == f32::INFINITY { x } else { 0.0 };
    }
    let mut y = f32::from_bits((x.to_bits() >> 1) + 0x1fbd_1df5);
    for _ in 0..3 {
        y = 0.5 * (y + x / y);
    }
    y
}
