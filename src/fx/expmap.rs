//! The exponential map and its inverse: rotation vectors (axis times angle,
//! in FX1 radians) to and from unit quaternions. A PD controller works on
//! `log(target * current^-1)`, a rotation vector it can scale and add.

use crate::divsqrt::{div_auto, sqrt_u64};

use super::atan::atan2_a32;
use super::power::{round_shr, saturate_i32};
use super::quat::Quat;
use super::trig::{cos_q30, sin_q30, PI_Q29};
use super::vec3::Vec3;

/// `round(2^38 / pi)`: an angle in Q24 radians times this, over `2^32`, is
/// half that angle as a 32-bit binary angle.
const RAD_Q24_TO_HALF_A32: i64 = 87_496_355_274;

impl Quat {
    /// `exp(rv / 2)`: the rotation by `|rv|` radians about `rv`
    /// (any length; the angle wraps). Zero gives the identity.
    ///
    /// `|rv|` is taken in Q24 (Q12 above 128 rad), then
    /// `q = (cos(|rv|/2), rv * sin(|rv|/2) / |rv|)`, all in Q30; the result
    /// is unit to about `1e-9` without a normalisation.
    pub fn exp(rv: Vec3) -> Quat {
        let raw = rv.raw().map(|c| c as i64);
        let len2 = raw.iter().map(|&c| (c * c) as u64).sum::<u64>();
        let theta_q24 = if len2 < 1 << 38 {
            sqrt_u64(len2 << 24) as i64
        } else {
            (sqrt_u64(len2) as i64) << 12
        };
        if theta_q24 == 0 {
            return Quat::IDENTITY;
        }
        // Only the low 32 bits of the half-angle matter (it wraps).
        let half = (theta_q24.wrapping_mul(RAD_Q24_TO_HALF_A32).wrapping_add(1 << 31) >> 32) as u32;
        let (s, c) = (sin_q30(half) as i64, cos_q30(half));
        // sin(theta/2) / theta, scaled by 2^38.
        let f = div_auto(s << 32, theta_q24);
        let [x, y, z] = raw.map(|c| round_shr(c * f, 20) as i32);
        Quat::from_raw_q30(c, x, y, z)
    }

    /// `2 log(q)`: the rotation vector (axis times angle, in FX1 radians)
    /// of this rotation, with the angle in `[0, pi]` (`q` and `-q` give the
    /// same vector). The identity gives zero.
    pub fn log(self) -> Vec3 {
        let q = if self.raw_q30()[0] < 0 { -self } else { self };
        let [w, x, y, z] = q.raw_q30().map(|c| c as i64);
        let v_len = sqrt_u64((x * x + y * y + z * z) as u64) as i64;
        if v_len == 0 {
            return Vec3::ZERO;
        }
        // The half-angle in [0, 2^30] (a quarter turn), as theta * 2^30 / pi.
        let half = atan2_a32(v_len, w) as i64;
        // theta / |v| / pi in Q30, then times pi: theta / |v| in Q30.
        let g = div_auto(half << 30, v_len);
        let h = round_shr(g * PI_Q29, 29);
        let [x, y, z] = [x, y, z].map(|c| saturate_i32(round_shr(c * h, 48)));
        Vec3::from_raw(x, y, z)
    }
}

/// The exponential map: see [`Quat::exp`].
#[inline]
pub fn exp_map(rv: Vec3) -> Quat {
    Quat::exp(rv)
}

/// The log map: see [`Quat::log`].
#[inline]
pub fn log_map(q: Quat) -> Vec3 {
    q.log()
}
