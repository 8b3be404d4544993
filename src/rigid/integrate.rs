//! The per-step integration: gravity into velocity, velocity caps, and
//! positions and orientations from velocities (semi-implicit Euler; the
//! gyroscopic term is left out, as in most game engines).

use crate::fx::power::round_shr;
use crate::fx::{Fx1, Fx2, Quat, Vec3};

use super::body::Body;
use super::{clamp_vec, mul_dt, vec_mul_dt, MAX_SPEED, MAX_SPIN};

/// `round(2^32 / 60) >> 5` folded into the shift: `w * dt / 2` in Q30
/// from an FX2 angular velocity is `w_raw * DT_Q32 >> 27`.
const DT_Q32: i64 = 71_582_788;

/// Adds `g * dt` downwards (m/s^2) to every dynamic body's velocity.
#[inline(never)]
pub fn apply_gravity(bodies: &mut [Body], g: Fx1) {
    let dv = Fx2::from_raw(mul_dt(g.raise().raw()));
    for b in bodies
        .iter_mut()
        .filter(|b| !b.is_static() && !b.is_asleep())
    {
        b.vel.y -= dv;
    }
}

/// Keeps each body's velocity `fraction` (FX1, at most 1) per step: a
/// little linear and angular damping.
#[inline(never)]
pub fn damp(bodies: &mut [Body], linear: Fx1, angular: Fx1) {
    for b in bodies.iter_mut() {
        b.vel = (b.vel * linear).lower();
        b.spin = (b.spin * angular).lower();
    }
}

/// Moves every dynamic body by its velocity over one step, turns it by
/// its angular velocity (`q += dt/2 (0, w) q`, then renormalised), caps
/// speeds, and refreshes the derived data.
#[inline(never)]
pub fn integrate(bodies: &mut [Body]) {
    for b in bodies
        .iter_mut()
        .filter(|b| !b.is_static() && !b.is_asleep())
    {
        b.vel = clamp_vec(b.vel, MAX_SPEED);
        b.spin = clamp_vec(b.spin, MAX_SPIN);
        b.pos += vec_mul_dt(b.vel);
        b.rot = turn(b.rot, b.spin);
        b.update_pose();
    }
}

/// `normalise(q + dt/2 (0, w) q)` with `w` in FX2 rad/s: the products are
/// Q60, summed exactly and renormalised once (error about 3 Q30 steps
/// plus the first-order truncation, `|w dt|^2 / 8` per step).
#[inline]
pub fn turn(q: Quat, w: Vec3<Fx2>) -> Quat {
    turn_half(q, w.to_array().map(|c| round_shr(c.raw() * DT_Q32, 27)))
}

/// `q` turned by the small rotation vector `theta` (FX2 rad, each
/// component clamped to 1/4 rad, where the first-order step is still
/// within 1 % of the angle): `normalise(q + (0, theta / 2) q)`.
#[inline]
pub fn turn_by(q: Quat, theta: Vec3<Fx2>) -> Quat {
    const QUARTER: i64 = 1 << 22;
    // theta / 2 in Q30 from Q24: a shift by 5.
    turn_half(
        q,
        theta
            .to_array()
            .map(|c| c.raw().clamp(-QUARTER, QUARTER) << 5),
    )
}

/// `normalise(q + (0, h) q)` for `h` in Q30.
#[inline]
fn turn_half(q: Quat, h: [i64; 3]) -> Quat {
    let [qw, qx, qy, qz] = q.raw_q30().map(|c| c as i64);
    let [hx, hy, hz] = h;
    // (0, h) * (qw, qv) = (-h.qv, qw h + h x qv), in Q60.
    let dw = -(hx * qx + hy * qy + hz * qz);
    let dx = qw * hx + (hy * qz - hz * qy);
    let dy = qw * hy + (hz * qx - hx * qz);
    let dz = qw * hz + (hx * qy - hy * qx);
    // The Q60 sum floored to Q30 (as the divider's normalisation
    // prescaled it) and renormalised by the table root: the normalisation
    // through the square-root unit and the divider (`normalise_raw`) was
    // 4.5 us a body a step in DeSmuME.
    let up = |c: i64, d: i64| ((c << 30) + d) >> 30;
    Quat::normalised_q30([up(qw, dw), up(qx, dx), up(qy, dy), up(qz, dz)])
}
