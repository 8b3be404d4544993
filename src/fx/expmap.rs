//! The exponential map and its inverse: rotation vectors (axis times angle,
//! in FX1 radians) to and from unit quaternions. A PD controller works on
//! `log(target * current^-1)`, a rotation vector it can scale and add.

use crate::divsqrt::{div_auto, sqrt_u64};

use super::atan::atan2_a32;
use super::power::{round_shr, saturate_i32};
use super::quat::Quat;
use super::trig::{cos_q30, sin_q30, PI_Q29};
use super::vec3::Vec3;

/// `round(2^33 / pi)`: turns a length `theta * 2^n` into the half-angle
/// as a 32-bit binary angle, `theta * 2^30 / pi`, after a shift.
const HALF_A32_PER_RAD_Q33: u64 = 2_734_261_102;

impl Quat {
    /// `exp(rv / 2)`: the rotation by `|rv|` radians about `rv`
    /// (any length; the angle wraps). Zero gives the identity.
    ///
    /// `|rv|` is found to 31 significant bits (one square root of the
    /// squared length shifted to full scale), then
    /// `q = (cos(|rv|/2), rv * sin(|rv|/2) / |rv|)` in Q30 with one
    /// division. The result is unit to a few Q30 steps without a
    /// normalisation.
    pub fn exp(rv: Vec3) -> Quat {
        let raw = rv.raw().map(|c| c as i64);
        let len2 = raw.iter().map(|&c| (c * c) as u64).sum::<u64>();
        if len2 == 0 {
            return Quat::IDENTITY;
        }
        // theta_s = |rv| * 2^(12 + k) in [2^30, 2^31); k = -1 only for
        // absurd vectors (|rv| >= 2^19 rad), which are halved first.
        let e = (len2.leading_zeros() as i32 - 2) & !1;
        let (theta_s, k) = if e >= 0 {
            (sqrt_u64(len2 << e) as u64, e / 2)
        } else {
            (sqrt_u64(len2 >> 2) as u64, -1)
        };
        // The half-angle theta * 2^30 / pi, wrapping (only its low 32
        // bits matter); the product is below 2^63.
        let half = ((theta_s * HALF_A32_PER_RAD_Q33 + (1 << (14 + k))) >> (15 + k)) as u32;
        let (s, c) = (sin_q30(half) as i64, cos_q30(half));
        // sin(theta/2) / theta_s, scaled by 2^62; then
        // v = rv * sin(theta/2) / theta in Q30 = rv * g * 2^k / 2^32.
        let g = div_auto(s << 32, theta_s as i64);
        let (raw, shift) = if k >= 0 {
            (raw, 32 - k as u32)
        } else {
            (raw.map(|c| c >> 1), 32)
        };
        let [x, y, z] = raw.map(|c| round_shr(c * g, shift) as i32);
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
