//! Unit quaternions, stored in Q30 (`i32` with 30 fraction bits).
//!
//! Why not FX1 components: a quaternion's components never exceed 1, so
//! FX1's 19 integer bits would be wasted while its 12 fraction bits give
//! rotations in steps of about 0.03° and let `|q|` drift by `2^-12` per
//! product. Seed 004 reaches for a 27-fraction-bit "FX32e" for exactly
//! this. Q30 costs the same `i32` storage and the same `smull` per product,
//! and keeps errors near `1e-9`. Results that leave the quaternion world
//! (rotated vectors, matrices) are rounded once to FX1.
//!
//! The power types do not apply inside: every product is Q30 * Q30 = Q60,
//! rounded back to Q30 (nearest, ties away from zero) once per component.

use core::ops::{Mul, Neg};

use crate::divsqrt::{div_auto, sqrt_u64};

use super::atan::atan2_a32;
use super::mat3::Mat3;
use super::power::{round_shr, saturate_i32, Fx1};
use super::trig::{cos_q30, sin_q30, Angle};
use super::unit::normalise_raw;
use super::vec3::Vec3;

/// One in Q30.
const ONE: i64 = 1 << 30;

/// A rotation as a unit quaternion `w + xi + yj + zk`, in Q30.
///
/// Operations assume `|q|` is 1 within a few Q30 steps (every constructor
/// and operation here keeps it so); products of quaternions whose norms
/// multiply to more than 8 would overflow.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Quat {
    w: i32,
    x: i32,
    y: i32,
    z: i32,
}

impl Default for Quat {
    fn default() -> Quat {
        Quat::IDENTITY
    }
}

impl Quat {
    /// Fraction bits of the raw components.
    pub const FRAC_BITS: u32 = 30;
    /// No rotation.
    pub const IDENTITY: Quat = Quat {
        w: 1 << 30,
        x: 0,
        y: 0,
        z: 0,
    };

    /// From raw Q30 components, as given (not normalised).
    #[inline]
    pub const fn from_raw_q30(w: i32, x: i32, y: i32, z: i32) -> Quat {
        Quat { w, x, y, z }
    }

    /// Raw Q30 components `[w, x, y, z]`.
    #[inline]
    pub const fn raw_q30(self) -> [i32; 4] {
        [self.w, self.x, self.y, self.z]
    }

    /// The normalised quaternion with these FX1 components (zero gives the
    /// identity).
    #[inline]
    pub fn from_fx1(w: Fx1, v: Vec3) -> Quat {
        let [x, y, z] = v.raw();
        Quat::normalised_from([w.raw() as i64, x as i64, y as i64, z as i64])
    }

    /// The scalar part, rounded to FX1.
    #[inline]
    pub fn w(self) -> Fx1 {
        q30_to_fx1(self.w as i64)
    }

    /// The vector part, rounded to FX1.
    #[inline]
    pub fn xyz(self) -> Vec3 {
        Vec3::new(
            q30_to_fx1(self.x as i64),
            q30_to_fx1(self.y as i64),
            q30_to_fx1(self.z as i64),
        )
    }

    /// `[w, x, y, z]` as `f64`, for tests and reports only.
    pub fn to_f64(self) -> [f64; 4] {
        self.raw_q30().map(|c| c as f64 / ONE as f64)
    }

    /// The conjugate `w - xi - yj - zk`.
    #[inline]
    pub fn conjugate(self) -> Quat {
        Quat {
            w: self.w,
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }

    /// The inverse rotation: the conjugate, since `|q| = 1`.
    #[inline]
    pub fn inverse(self) -> Quat {
        self.conjugate()
    }

    /// The 4D dot product in Q60 (the cosine of half the angle between
    /// two rotations).
    #[inline]
    pub fn dot_q60(self, o: Quat) -> i64 {
        self.w as i64 * o.w as i64
            + self.x as i64 * o.x as i64
            + self.y as i64 * o.y as i64
            + self.z as i64 * o.z as i64
    }

    /// `q / |q|` (one square root, one division); zero gives the identity.
    #[inline]
    pub fn normalise(self) -> Quat {
        Quat::normalised_from(self.raw_q30().map(|c| c as i64))
    }

    /// Normalises components of any common scale.
    #[inline]
    pub(crate) fn normalised_from(c: [i64; 4]) -> Quat {
        match normalise_raw(c, 30) {
            Some([w, x, y, z]) => Quat { w, x, y, z },
            None => Quat::IDENTITY,
        }
    }

    /// `c / |c|` in Q30 for components within `±2^30` (near a unit
    /// quaternion: a mix of two on the shorter arc, or one turned by a
    /// step, so `|c| >= 1/sqrt 2`); the identity for zero. The table
    /// reciprocal root ([`super::rsqrt`]), to about `2^-29`, in place of
    /// the square-root unit and the divider.
    #[inline(always)]
    pub(crate) fn normalised_q30(c: [i64; 4]) -> Quat {
        let len2 = c.iter().map(|&v| (v * v) as u64).sum::<u64>();
        if len2 == 0 {
            return Quat::IDENTITY;
        }
        // Up by an even shift into [2^60, 2^62).
        let e = (len2.leading_zeros().saturating_sub(2)) & !1;
        // (Clamped below 2^62 for inputs that are not near unit.)
        let inv = super::rsqrt::inv_sqrt_fine((len2 << e).min((1 << 62) - 1)) as i64;
        // c / |c| * 2^30 = c * inv * 2^(e/2) / 2^31, rounded once.
        let shift = 31 - e / 2;
        let r = |v: i64| {
            let p = v * inv;
            ((p + (1 << (shift - 1)) + (p >> 63)) >> shift) as i32
        };
        Quat::from_raw_q30(r(c[0]), r(c[1]), r(c[2]), r(c[3]))
    }

    /// The rotation about `axis` (any length; zero gives the identity) by
    /// `angle`. The axis is normalised straight to Q30, so the result is
    /// unit to about `1e-9`.
    #[inline]
    pub fn from_axis_angle(axis: Vec3, angle: Angle) -> Quat {
        let [x, y, z] = axis.raw();
        let Some(u) = normalise_raw([x as i64, y as i64, z as i64], 30) else {
            return Quat::IDENTITY;
        };
        let half = (angle.raw() as u32) << 15;
        let (s, c) = (sin_q30(half) as i64, cos_q30(half));
        let [x, y, z] = u.map(|u| round_shr(u as i64 * s, 30) as i32);
        Quat { w: c, x, y, z }
    }

    /// The rotation matrix rows in Q30.
    #[inline]
    fn rows_q30(self) -> [[i64; 3]; 3] {
        let (w, x, y, z) = (self.w as i64, self.x as i64, self.y as i64, self.z as i64);
        let two = |p: i64| round_shr(2 * p, 30);
        let diag = |p: i64| round_shr((1i64 << 60) - 2 * p, 30);
        [
            [diag(y * y + z * z), two(x * y - w * z), two(x * z + w * y)],
            [two(x * y + w * z), diag(x * x + z * z), two(y * z - w * x)],
            [two(x * z - w * y), two(y * z + w * x), diag(x * x + y * y)],
        ]
    }

    /// `q v q*`: the rotated vector, through the Q30 matrix, rounded once
    /// per component (measured: within 0.511 FX1 steps for components up
    /// to 1024 units; 0.5 is the final rounding).
    #[inline]
    pub fn rotate(self, v: Vec3) -> Vec3 {
        let m = self.rows_q30();
        let v = v.raw().map(|c| c as i64);
        let r =
            m.map(|row| saturate_i32(round_shr(row[0] * v[0] + row[1] * v[1] + row[2] * v[2], 30)));
        Vec3::from_raw(r[0], r[1], r[2])
    }

    /// The rotation matrix in FX1 (each entry rounded once).
    #[inline]
    pub fn to_mat3(self) -> Mat3 {
        let m = self.rows_q30();
        let col = |c: usize| {
            Vec3::from_raw(
                q30_to_fx1(m[0][c]).raw(),
                q30_to_fx1(m[1][c]).raw(),
                q30_to_fx1(m[2][c]).raw(),
            )
        };
        Mat3::from_cols(col(0), col(1), col(2))
    }

    /// The quaternion of a rotation matrix (Shepperd's method: the largest
    /// of `|w|, |x|, |y|, |z|` from the diagonal, the rest from the
    /// off-diagonal terms over it; then normalised). The matrix must be a
    /// rotation up to FX1 rounding; other matrices give some unit
    /// quaternion, without overflow.
    pub fn from_mat3(m: &Mat3) -> Quat {
        let e = |r: usize, c: usize| m.at(r, c).raw() as i64;
        let one = 1i64 << 12;
        let (d0, d1, d2) = (e(0, 0), e(1, 1), e(2, 2));
        // 4w^2, 4x^2, 4y^2, 4z^2 in FX1.
        let s = [
            one + d0 + d1 + d2,
            one + d0 - d1 - d2,
            one - d0 + d1 - d2,
            one - d0 - d1 + d2,
        ];
        let mut k = 0;
        for i in 1..4 {
            if s[i] > s[k] {
                k = i;
            }
        }
        // r = 2|q_k| in Q30; the largest of the four is at least 1/4 (r >= 2^30).
        let r = sqrt_u64((s[k].clamp(0, 1 << 15) as u64) << 48) as i64;
        let (wx, yz) = (e(2, 1) - e(1, 2), e(0, 2) - e(2, 0));
        let zw = e(1, 0) - e(0, 1);
        let (xy, xz, yz_sum) = (e(0, 1) + e(1, 0), e(0, 2) + e(2, 0), e(1, 2) + e(2, 1));
        // The other components are D / (4 q_k) = D * 2^47 / r in Q30.
        let over = |d: i64| div_auto(d.clamp(-(1 << 15), 1 << 15) << 47, r);
        let big = r / 2;
        let q = match k {
            0 => [big, over(wx), over(yz), over(zw)],
            1 => [over(wx), big, over(xy), over(xz)],
            2 => [over(yz), over(xy), big, over(yz_sum)],
            _ => [over(zw), over(xz), over(yz_sum), big],
        };
        Quat::normalised_from(q)
    }

    /// Normalised linear interpolation from `self` (t = 0) to `b` (t = 1)
    /// along the shorter arc; `t` is clamped to `[0, 1]`.
    #[inline]
    pub fn nlerp(self, b: Quat, t: Fx1) -> Quat {
        let t = t.raw().clamp(0, 1 << 12) as i64;
        let b = if self.dot_q60(b) < 0 { -b } else { b };
        let lerp = |a: i32, b: i32| a as i64 + round_shr((b as i64 - a as i64) * t, 12);
        Quat::normalised_from([
            lerp(self.w, b.w),
            lerp(self.x, b.x),
            lerp(self.y, b.y),
            lerp(self.z, b.z),
        ])
    }

    /// Spherical linear interpolation from `self` (t = 0) to `b` (t = 1)
    /// along the shorter arc, at constant angular speed; `t` is clamped to
    /// `[0, 1]`. For rotations less than 1.15° apart it is
    /// [`Quat::nlerp`] (the two then differ by less than `4e-8` rad), which
    /// avoids dividing by a tiny `sin`.
    pub fn slerp(self, b: Quat, t: Fx1) -> Quat {
        // cos(0.01) in Q30: half of 1.15°.
        const NLERP_ABOVE: i64 = 1_073_688_137;
        let mut d = round_shr(self.dot_q60(b), 30);
        let b = if d < 0 {
            d = -d;
            -b
        } else {
            b
        };
        let d = d.min(ONE);
        if d > NLERP_ABOVE {
            return self.nlerp(b, t);
        }
        let t = t.raw().clamp(0, 1 << 12) as u64;
        let sin_theta = sqrt_u64(((1i64 << 60) - d * d) as u64) as i64;
        let theta = atan2_a32(sin_theta, d);
        let theta_t = ((theta as u64 * t + (1 << 11)) >> 12) as u32;
        let w_a = div_auto((sin_q30(theta - theta_t) as i64) << 30, sin_theta);
        let w_b = div_auto((sin_q30(theta_t) as i64) << 30, sin_theta);
        let mix = |a: i32, b: i32| round_shr(w_a * a as i64 + w_b * b as i64, 30);
        Quat::normalised_from([
            mix(self.w, b.w),
            mix(self.x, b.x),
            mix(self.y, b.y),
            mix(self.z, b.z),
        ])
    }
}

/// Q30 (in an `i64`) to FX1, rounded.
#[inline]
fn q30_to_fx1(v: i64) -> Fx1 {
    Fx1::from_raw(saturate_i32(round_shr(v, 18)))
}

impl Neg for Quat {
    type Output = Quat;
    /// The same rotation, the other sign.
    #[inline]
    fn neg(self) -> Quat {
        Quat {
            w: -self.w,
            x: -self.x,
            y: -self.y,
            z: -self.z,
        }
    }
}

impl Mul for Quat {
    type Output = Quat;
    /// The Hamilton product: `(a * b)` rotates by `b`, then by `a`. Each
    /// component is four exact Q60 products rounded once; the result is
    /// not renormalised (its norm drifts by about `2^-30` per product;
    /// call [`Quat::normalise`] now and then).
    #[inline]
    fn mul(self, b: Quat) -> Quat {
        let (aw, ax, ay, az) = (self.w as i64, self.x as i64, self.y as i64, self.z as i64);
        let (bw, bx, by, bz) = (b.w as i64, b.x as i64, b.y as i64, b.z as i64);
        let r = |v: i64| round_shr(v, 30) as i32;
        Quat {
            w: r(aw * bw - ax * bx - ay * by - az * bz),
            x: r(aw * bx + ax * bw + ay * bz - az * by),
            y: r(aw * by - ax * bz + ay * bw + az * bx),
            z: r(aw * bz + ax * by - ay * bx + az * bw),
        }
    }
}

impl Mul<Vec3> for Quat {
    type Output = Vec3;
    /// Same as [`Quat::rotate`].
    #[inline]
    fn mul(self, v: Vec3) -> Vec3 {
        self.rotate(v)
    }
}
