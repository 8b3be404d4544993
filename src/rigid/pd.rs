//! PD controllers, as seed 002 gives them.
//!
//! The explicit controller `a = ks (q_des - q) + kd (v_des - v)`, applied
//! for a whole 1/60 s step, is single-step explicit Euler and diverges once
//! the gains are large (`kd dt > 2` or so). The backward-Euler controller
//! evaluates the spring at the end of the step; solving for the
//! acceleration gives
//!
//! ```text
//! g   = 1 / (1 + kd dt + ks dt^2)
//! ksg = ks g,  kdg = (kd + ks dt) g
//! a   = ksg (q_des - q) + kdg (v_des - v)
//! ```
//!
//! which is stable for every `ks, kd >= 0` and costs the same per step
//! once `ksg, kdg` are computed. Gains are per unit mass (accelerations);
//! multiply by the mass or inertia for a force or torque, then clamp it to
//! `tau_max`. For rotations, the error is the rotation vector of
//! `q_des q^-1` (the inverse exponential map).
//!
//! Ranges: `ks, kd` are FX2 (up to 5e11); `ksg <= 1/dt^2 = 3600` and
//! `kdg <= 1/dt = 60` (plus `kd`'s share when `ks` is small) fit FX1.

use crate::divsqrt::div_auto;
use crate::fx::power::saturate_i32;
use crate::fx::{Fx1, Fx2, Quat, Vec3};

use super::mul_dt;

/// Spring and damper gains per unit mass: `ks` in 1/s^2, `kd` in 1/s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gains {
    /// Stiffness.
    pub ks: Fx2,
    /// Damping.
    pub kd: Fx2,
}

impl Gains {
    /// Gains from frequency (1/s: about 1/time to reach 95 % when
    /// critically damped) and damping ratio (1: critical), by seed 002's
    /// conversion `ks = (6 f)^2 / 4`, `kd = 4.5 f zeta`.
    pub fn from_frequency(frequency: Fx1, damping: Fx1) -> Gains {
        let f = frequency.max(Fx1::ZERO);
        Gains {
            ks: (f * f) * 9,
            kd: ((f * damping.max(Fx1::ZERO)) * 9) / 2,
        }
    }

    /// Gains from integers (tests and tuning).
    pub fn new(ks: i64, kd: i64) -> Gains {
        Gains {
            ks: Fx2::from_raw(ks << 24),
            kd: Fx2::from_raw(kd << 24),
        }
    }
}

/// The backward-Euler (stable) PD controller, precomputed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StablePd {
    /// `ks g`, 1/s^2.
    pub ksg: Fx1,
    /// `(kd + ks dt) g`, 1/s.
    pub kdg: Fx1,
}

impl StablePd {
    /// Precomputes `ksg` and `kdg` for a 1/60 s step (two divisions).
    pub fn new(g: Gains) -> StablePd {
        let ks = g.ks.raw().max(0);
        let kd = g.kd.raw().max(0);
        let ks_dt = mul_dt(ks);
        // 1 + kd dt + ks dt^2, in FX2 raw.
        let denom = (1i64 << 24) + mul_dt(kd) + mul_dt(ks_dt);
        let over = |x: i64| Fx1::from_raw(saturate_i32(div_auto(x << 12, denom)));
        StablePd {
            ksg: over(ks),
            kdg: over(kd + ks_dt),
        }
    }

    /// The acceleration for position error `q_des - q` and velocity error
    /// `v_des - v`.
    #[inline]
    pub fn accel(&self, err: Fx1, derr: Fx1) -> Fx1 {
        (self.ksg * err + self.kdg * derr).lower()
    }

    /// The angular acceleration (rad/s^2, world axes) that turns `q`
    /// towards `q_des`: `ksg log(q_des q^-1) + kdg (w_des - w)`.
    #[inline]
    pub fn quat_accel(&self, q: Quat, q_des: Quat, w: Vec3<Fx2>, w_des: Vec3<Fx2>) -> Vec3<Fx2> {
        let err = (q_des * q.conjugate()).log();
        err * self.ksg + ((w_des - w) * self.kdg).lower()
    }
}

/// The explicit PD controller `ks err + kd derr`, saturating to FX1 (it is
/// here to show the instability the stable form removes).
#[inline]
pub fn explicit_accel(g: Gains, err: Fx1, derr: Fx1) -> Fx1 {
    let a = g.ks.raw() as i128 * err.raw() as i128 + g.kd.raw() as i128 * derr.raw() as i128;
    // FX3 (36 fraction bits) to FX1.
    let a = (a + (1 << 23)) >> 24;
    Fx1::from_raw(a.clamp(i32::MIN as i128, i32::MAX as i128) as i32)
}

/// `v` scaled down to length `max` if it is longer (direction kept): a
/// torque clamped to `tau_max`.
pub fn clamp_length(v: Vec3<Fx2>, max: Fx1) -> Vec3<Fx2> {
    let len = v.lower().length();
    if len <= max || len == Fx1::ZERO {
        return v;
    }
    let s = max.div_fx1(len);
    (v * s).lower()
}
