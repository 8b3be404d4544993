//! A grab (a "mouse joint"): a point of one body pulled towards a target
//! point in the world, as three velocity-level rows in the solver, each
//! with its impulse bounded by `max_force * dt`. It is a soft ball joint
//! between the body and a moving point of the static world:
//!
//! ```text
//! v_anchor . axis = -erp * (anchor - target) . axis / dt   (per world axis)
//! |lambda_axis| <= max_force * dt
//! ```
//!
//! so the anchor closes `erp` of its distance to the target per step
//! unless that takes more than `max_force` along some world axis (the
//! force's magnitude is then at most `sqrt(3) max_force`). The rest of the
//! body is free: it swings about the anchor, collides (contact rows come
//! after the grab's, so they have the last word in each sweep), and keeps
//! its velocity when the grab ends. The pull's approach speed is capped at
//! [`MAX_SPEED`] per axis, so a target far away is reached at a steady
//! speed rather than in one violent step.
//!
//! [`super::World`] holds at most one grab ([`super::World::grab`]) and
//! pushes its rows after the joints'. A grabbed body is kept awake.

use crate::fx::{Fx1, Fx2, Vec3};

use super::body::{Body, STATIC};
use super::row::{Row, Rows, JOINT_KEY};
use super::{div_dt, mul_dt, raise};

/// The warm-start key of the grab's rows (plus the axis, 0-2): a joint
/// key no world reaches (joint 2047), so its warm start decays like the
/// joints' ([`super::row::Rows::joint_warm_fraction`]).
pub const GRAB_KEY: u16 = JOINT_KEY | 0x7ff0;

/// The fastest the grab pulls its anchor towards the target, per world
/// axis (m/s).
pub const MAX_SPEED: Fx2 = Fx2::from_raw(10 << 24);

/// The fraction of the anchor's distance to the target closed per step
/// by default.
pub const DEFAULT_ERP: Fx1 = crate::fx!(0.2);

/// A point of a body pulled towards a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grab {
    /// The grabbed body.
    pub body: u8,
    /// The grabbed point, in the body's frame.
    pub anchor: Vec3,
    /// Where the point is pulled to (world, m).
    pub target: Vec3,
    /// The largest force along each world axis (N).
    pub max_force: Fx1,
    /// The fraction of the distance closed per step.
    pub erp: Fx1,
}

impl Grab {
    /// Grabs `bodies[body]` at world point `point` (its target, until
    /// moved), pulling with at most `max_force` N per axis. `None` for a
    /// static body or an index out of range.
    pub fn at(bodies: &[Body], body: u8, point: Vec3, max_force: Fx1) -> Option<Grab> {
        let b = bodies.get(body as usize).filter(|b| !b.is_static())?;
        Some(Grab {
            body,
            anchor: b.mat.transpose_mul_vec(point - b.position()),
            target: point,
            max_force,
            erp: DEFAULT_ERP,
        })
    }

    /// The grabbed point in the world (m).
    pub fn anchor_world(&self, bodies: &[Body]) -> Vec3<Fx2> {
        bodies
            .get(self.body as usize)
            .map_or(raise(self.target), |b| b.world_point(self.anchor))
    }

    /// The impulse bound of each row: `max_force * dt` (N s).
    pub fn impulse_limit(&self) -> Fx2 {
        Fx2::from_raw(mul_dt(self.max_force.raise().raw()))
    }

    /// Pushes the three rows (x, y, z) between the static world and the
    /// body; nothing for a static body or an index out of range.
    pub fn push_rows<const R: usize>(&self, bodies: &[Body], rows: &mut Rows<R>) {
        let Some(b) = bodies.get(self.body as usize).filter(|b| !b.is_static()) else {
            return;
        };
        let lever = b.mat.mul_vec(self.anchor);
        let err = b.world_point(self.anchor) - raise(self.target);
        let limit = self.impulse_limit();
        let axes = [(Vec3::X, err.x), (Vec3::Y, err.y), (Vec3::Z, err.z)];
        for (k, (axis, e)) in axes.into_iter().enumerate() {
            let speed = Fx2::from_raw(-div_dt((e * self.erp).lower().raw()));
            let target = speed.clamp(-MAX_SPEED, MAX_SPEED);
            let ang = lever.cross(axis).lower();
            let row = Row::new(STATIC, self.body, axis, Vec3::ZERO, ang, target)
                .bounded(-limit, limit)
                .keyed(GRAB_KEY | k as u16);
            rows.push(row);
        }
    }
}
