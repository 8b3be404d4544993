//! Sleeping, for worlds of loose boxes (`Settings::sleep`): a body that
//! has moved slower than [`REST_SPEED`] and turned slower than
//! [`REST_SPIN`] for [`SLEEP_FRAMES`] steps falls asleep. A sleeping body
//! gets no gravity, is not integrated, has no contacts with the ground,
//! the static world or other sleepers, and is static to the solver (its
//! contacts with awake bodies hold them up but never move it), so a
//! settled pile costs next to nothing. It wakes when an impulse hits it
//! ([`super::Body::apply_impulse`]) or when a body that moved in the
//! last step comes within reach (bounding spheres plus the contact
//! margin). Joints do not wake their bodies: worlds with joints leave
//! sleeping off.

use crate::fx::{Fx1, Fx2, Vec3};

use super::body::Body;

/// Steps below the thresholds before a body sleeps (half a second).
pub const SLEEP_FRAMES: u8 = 30;

/// Linear speed below which a body counts as resting, m/s.
pub const REST_SPEED: Fx2 = Fx2::from_raw(335_544); // 0.02 m/s

/// Angular speed below which a body counts as resting, rad/s.
pub const REST_SPIN: Fx2 = Fx2::from_raw(838_861); // 0.05 rad/s

/// The rest count a woken body starts from: awake, but not "moving", so
/// it wakes no neighbours until it really moves.
const WOKEN: u8 = 1;

/// True when `v` is below `limit` in length (exact FX4 squares).
fn slow(v: Vec3<Fx2>, limit: Fx2) -> bool {
    v.dot(v) < limit * limit
}

/// After integration: counts each awake body's resting steps, and stops
/// the ones that have rested [`SLEEP_FRAMES`] steps.
#[inline(never)]
pub fn update_rest(bodies: &mut [Body]) {
    for b in bodies.iter_mut().filter(|b| !b.is_static()) {
        if b.is_asleep() {
            continue;
        }
        if slow(b.vel, REST_SPEED) && slow(b.spin, REST_SPIN) {
            b.rest = b.rest.saturating_add(1).min(SLEEP_FRAMES);
            if b.is_asleep() {
                b.vel = Vec3::default();
                b.spin = Vec3::default();
            }
        } else {
            b.rest = 0;
        }
    }
}

/// Before contacts: wakes every sleeper within reach of a body that
/// moved in the last step (its rest count is 0).
#[inline(never)]
pub fn wake_neighbours(bodies: &mut [Body], margin: Fx1) {
    for i in 0..bodies.len() {
        let mover = &bodies[i];
        if mover.is_static() || mover.rest != 0 {
            continue;
        }
        let (p, r) = (mover.position(), mover.radius + margin);
        for (j, b) in bodies.iter_mut().enumerate() {
            if j == i || !b.is_asleep() {
                continue;
            }
            let reach = r + b.radius;
            if (b.position() - p).length_squared() <= reach * reach {
                b.rest = WOKEN;
            }
        }
    }
}
