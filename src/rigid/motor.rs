//! Motor drives, as seed 000 derives them: angular rows
//! `(w_b - w_a) . e = c` with `c = -r eps / dt`, where `eps` is the
//! rotation error of body `b` (axis times angle), and the impulse clamped
//! to `+-tau_max dt`, so the motor never applies more than `tau_max`
//! (N m) per axis and yields to anything stronger.
//!
//! - Ball-and-socket: three rows along the world axes towards the target
//!   orientation `q_b^ = q_a N S`, with `eps = log(q_b q_b^*)` (the
//!   inverse exponential map, [`Quat::log`]).
//! - Hinge: one row along the hinge axis towards a target angle.
//!
//! `tau_max` can be changed at any time (a wounded character gets weak);
//! zero turns the drive into a free joint.

use crate::fx::{Fx1, Fx2, Quat, Vec3};

use super::body::Body;
use super::joint::{frame, Joint, JointKind};
use super::row::{Row, Rows};
use super::{div_dt, mul_dt};

/// The drive of one joint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Motor {
    /// Off: no rows.
    pub enabled: bool,
    /// Torque limit per axis, N m.
    pub tau_max: Fx1,
    /// The error-reduction factor `r` in `(0, 1]`: the fraction of the
    /// error to remove in one step (seed 000 suggests 0.5).
    pub rate: Fx1,
    /// Ball target `S`: the rotation of `b` from the neutral pose, in
    /// `b`'s neutral frame relative to `a`.
    pub target: Quat,
    /// Hinge target angle, radians.
    pub angle: Fx1,
}

/// The default error-reduction factor (seed 000: "e.g. 0.5").
pub const DEFAULT_RATE: Fx1 = crate::fx!(0.5);

impl Motor {
    /// No drive.
    pub const OFF: Motor = Motor {
        enabled: false,
        tau_max: Fx1::ZERO,
        rate: DEFAULT_RATE,
        target: Quat::IDENTITY,
        angle: Fx1::ZERO,
    };

    /// A drive with torque limit `tau_max` (N m), holding the neutral pose.
    pub const fn with_strength(tau_max: Fx1) -> Motor {
        Motor {
            enabled: true,
            tau_max,
            ..Motor::OFF
        }
    }

    /// The impulse bound `tau_max * dt` in N m s.
    #[inline]
    pub fn impulse_limit(&self) -> Fx2 {
        Fx2::from_raw(mul_dt(self.tau_max.max(Fx1::ZERO).raise().raw()))
    }
}

/// The world-space rotation error of body `b` (axis times angle, rad):
/// `log(q_b (q_a N S)^*)`.
pub fn ball_error(joint: &Joint, bodies: &[Body]) -> Vec3 {
    let qa = frame(bodies, joint.a).2;
    let qb = frame(bodies, joint.b).2;
    let want = qa * joint.neutral * joint.motor.target;
    (qb * want.conjugate()).log()
}

/// The hinge angle error `angle - target`, wrapped into `[-pi, pi]`.
pub fn hinge_error(joint: &Joint, bodies: &[Body]) -> Fx1 {
    wrap_angle(joint.hinge_angle(bodies) - joint.motor.angle)
}

/// `x` wrapped into `[-pi, pi]`.
pub fn wrap_angle(x: Fx1) -> Fx1 {
    const PI: i32 = 12868;
    let mut r = x.raw();
    while r > PI {
        r -= 2 * PI;
    }
    while r < -PI {
        r += 2 * PI;
    }
    Fx1::from_raw(r)
}

/// Pushes the motor rows of `joint` (none when disabled).
pub fn push_motor_rows<const R: usize>(
    joint: &Joint,
    bodies: &[Body],
    rows: &mut Rows<R>,
    key: u16,
) {
    push_motor_rows_at(joint, bodies, rows, key, joint.hinge_angle(bodies));
}

/// [`push_motor_rows`] with the hinge's angle already known (ignored for
/// a ball joint).
#[inline(never)]
pub fn push_motor_rows_at<const R: usize>(
    joint: &Joint,
    bodies: &[Body],
    rows: &mut Rows<R>,
    key: u16,
    hinge_angle: Fx1,
) {
    let m = &joint.motor;
    if !m.enabled {
        return;
    }
    let limit = m.impulse_limit();
    let target = |e: Fx1| Fx2::from_raw(-div_dt((e * m.rate).raw()));
    match joint.kind {
        JointKind::Ball { .. } => {
            let eps = ball_error(joint, bodies);
            let axes = [(Vec3::X, eps.x), (Vec3::Y, eps.y), (Vec3::Z, eps.z)];
            for (k, (axis, e)) in axes.into_iter().enumerate() {
                let row = Row::angular(joint.a, joint.b, axis, target(e)).bounded(-limit, limit);
                rows.push(row.keyed(key | 8 | k as u16));
            }
        }
        JointKind::Hinge { .. } => {
            let axis = joint.world_axis(bodies).unwrap_or(Vec3::Y);
            let e = wrap_angle(hinge_angle - joint.motor.angle);
            let row = Row::angular(joint.a, joint.b, axis, target(e)).bounded(-limit, limit);
            rows.push(row.keyed(key | 8));
        }
    }
}
