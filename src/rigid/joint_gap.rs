//! Joint gaps closed in the positions after integration, where they are
//! wider than a tolerance (`Settings::joint_gap`; the powered ragdoll).
//!
//! A joint's velocity rows close its anchor gap by `erp` of it a step, and
//! only as far as the sweeps converge. A 30 N s strike opens the powered
//! ragdoll's joints faster than that: up to 1.6 cm in the second after it,
//! where issue 20 asks for under 1 cm (`cargo run --release --example
//! powered_strike_drift`). This pass is the position solve of Box2D's
//! joints (nonlinear Gauss-Seidel on the point constraint): for each
//! joint whose gap is wider than the tolerance, the position impulse
//! `lambda = -gap / k` along each world axis (`k = J M^-1 J^T`, the
//! velocity row's) moves and turns the two bodies as an impulse would
//! change their velocities, the three axes at once. Only the widest
//! [`MAX_CLOSED`] are closed in a step, which bounds the pass's cost in a
//! fall's impact. Velocities are not touched, so the pass adds no
//! energy.
//!
//! # Ranges
//! A gap is clamped to +-1 m (a wider one is an explosion, not drift),
//! so `gap * 2^36` fits an `i64`. `lambda = gap / k` with `k` at least the
//! lighter side's inverse mass, so at most 1 m times 1000 kg (the top of
//! the mass range; Q24 below 2^34); times a `J` component below 2^15 (Q12,
//! levers under 8 m) it stays below 2^49. A turn is at most 1/4 rad per
//! axis ([`super::integrate::turn_by`]).

use crate::fx::{Fx1, Fx2, Fx3, Fx4, Vec3};
use divsqrt::div_auto;

use super::body::{mul_mat_fx2, Body};
use super::integrate::turn_by;
use super::joint::{frame, Joint};
use super::joint_bit;
use super::kernel::solved_body;
use super::row::{inverse_effective_mass, Row};

/// The widest gap a step corrects along one axis (m, FX2 raw).
const MAX_GAP: i64 = 1 << 24;

/// The most joints closed in one step, the widest first: a fall's impact
/// opens most of the figure's joints at once, and closing all of them
/// cost scene (e) up to 3 ms of DeSmuME's frame (`make profile SCENE=e
/// STRESS=1`); the widest few are what the drift is.
pub const MAX_CLOSED: usize = 4;

/// The most joints [`close_joint_gaps`] looks at (more are left alone).
const MAX_JOINTS: usize = 32;

/// Closes the gaps of up to [`MAX_CLOSED`] of `joints`, the widest of
/// those wider than `tolerance` (FX2 m) first; returns how many it
/// closed.
#[inline(never)]
pub fn close_joint_gaps(bodies: &mut [Body], joints: &[Joint], tolerance: Fx2) -> usize {
    close_joint_gaps_of(bodies, joints, tolerance, u32::MAX)
}

/// [`close_joint_gaps`] of the joints in `which` ([`super::joint_bit`]):
/// a partly folded figure's dynamic joints.
pub fn close_joint_gaps_of(
    bodies: &mut [Body],
    joints: &[Joint],
    tolerance: Fx2,
    which: u32,
) -> usize {
    // (|gap|^2 in FX4, joint) of the wide ones.
    let mut wide = [(Fx4::ZERO, 0u8); MAX_JOINTS];
    let mut n = 0;
    let limit = tolerance * tolerance;
    for (k, j) in joints.iter().enumerate().take(MAX_JOINTS) {
        if which & joint_bit(k) == 0 {
            continue;
        }
        let gap = j.separation(bodies);
        let g2 = gap.dot(gap);
        if g2 > limit {
            wide[n] = (g2, k as u8);
            n += 1;
        }
    }
    // The widest first (ties in joint order: deterministic).
    wide[..n].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, k) in &wide[..n.min(MAX_CLOSED)] {
        close(bodies, &joints[k as usize]);
    }
    n.min(MAX_CLOSED)
}

/// Closes joint `j`'s gap: its three axes solved together from the gap
/// (their position impulses from the diagonal of `J M^-1 J^T`; what
/// their coupling leaves, the next step's rows see), then each body moved
/// and turned once.
fn close(bodies: &mut [Body], j: &Joint) {
    // Found again, not taken from the ranking: a wider joint closed before
    // this one may have moved a body they share.
    let gap = j.separation(bodies);
    let ra = frame(bodies, j.a).1.mul_vec(j.anchor_a);
    let rb = frame(bodies, j.b).1.mul_vec(j.anchor_b);
    let mut push = [Side::default(), Side::default()];
    for (axis, g) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().zip(gap.to_array()) {
        let (ang_a, ang_b) = (-ra.cross(axis).lower(), rb.cross(axis).lower());
        let row = Row::new(j.a, j.b, axis, ang_a, ang_b, Fx2::ZERO);
        let kk = inverse_effective_mass(&row, bodies);
        if kk <= Fx3::ZERO || g.raw() == 0 {
            continue;
        }
        // Q24 * 2^36 / Q36 = Q24 (kg m).
        let lambda = -div_auto(g.raw().clamp(-MAX_GAP, MAX_GAP) << 36, kk.raw());
        push[0].add(-1, axis, ang_a, lambda);
        push[1].add(1, axis, ang_b, lambda);
    }
    push[0].apply(bodies, j.a);
    push[1].apply(bodies, j.b);
}

/// One body's share of a joint's position impulses: the linear direction
/// times impulse (FX2 kg m) and the angular impulse (FX2 kg m^2).
#[derive(Clone, Copy, Default)]
struct Side {
    lin: Vec3<Fx2>,
    ang: Vec3<Fx2>,
}

impl Side {
    /// Adds the impulse `lambda` (Q24) of a row whose linear part is
    /// `sign * axis` and angular part `ang` on this side.
    fn add(&mut self, sign: i64, axis: Vec3, ang: Vec3, lambda: i64) {
        // Q12 * Q24 = Q36, to Q24.
        let q24 = |c: Fx1, s: i64| Fx2::from_raw((c.raw() as i64 * lambda * s) >> 12);
        self.lin += axis.map(|c| q24(c, sign));
        self.ang += ang.map(|c| q24(c, 1));
    }

    /// Moves body `i` by `M^-1` of these impulses, as a displacement and
    /// a turn, and refreshes its derived data once.
    fn apply(&self, bodies: &mut [Body], i: u8) {
        if solved_body(bodies, i).is_none() {
            return;
        }
        let b = &mut bodies[i as usize];
        b.pos += (self.lin * b.inv_mass).lower();
        let theta = mul_mat_fx2(&b.inv_inertia_world, self.ang).lower();
        b.rot = turn_by(b.rot, theta);
        b.update_pose();
    }
}
