//! Hybrid dynamics, the physics level of detail of seed 002 (scheme
//! 0.5): each step, inverse dynamics gives the torque every driven hinge
//! needs for its commanded acceleration, with the external forces of the
//! step (gravity, damping, any push already in the velocities) included.
//!
//! - A DOF whose torque is within its limit is **kinematic**: its motion
//!   is known before the forward dynamics. Its torque is applied and it
//!   becomes one unbounded velocity row, `(w_b - w_a) . axis = rate +
//!   accel dt`, so the solver takes its rate as given rather than finding
//!   it from a torque (the row only removes what the sweeps leave over:
//!   without the torque, 16 sweeps let an 8 N s push bend an arm of
//!   unlimited strength by 0.18 rad, with it 0.04 rad).
//! - A DOF whose torque is over its limit is **dynamic**: the clamped
//!   torque is applied and the DOF is left free; the solver finds its
//!   motion, so a hard push moves the character.
//!
//! The modes are chosen afresh every step, so a DOF goes back to
//! kinematic as soon as following the animation needs no more than its
//! strength. As the seed says, clamping one torque makes the others no
//! longer optimal (the coupling); a kinematic row then takes whatever
//! extra impulse keeps its rate (with the solver's unconverged share),
//! which [`Hybrid::kinematic_extra`] reports.
//!
//! Limits: hinge joints, as in [`super::inverse_dynamics`].

use crate::fx::{Fx1, Fx2};

use super::body::Body;
use super::inverse_dynamics::{apply_torque, begin_driven_step, joint_torques, MAX_JOINTS};
use super::row::{Row, JOINT_KEY};
use super::world::joint_key;
use super::{div_dt, World};

/// A DOF's mode for one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Known motion: a velocity row at the commanded rate.
    #[default]
    Kinematic,
    /// Unknown motion: the clamped torque, the DOF free.
    Dynamic,
}

/// The last step's modes and torques.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hybrid {
    /// Each joint's mode.
    pub modes: [Mode; MAX_JOINTS],
    /// Each joint's inverse-dynamics torque, N m (unclamped).
    pub torques: [Fx1; MAX_JOINTS],
    /// The largest torque (N m) a kinematic row applied on top of its
    /// inverse-dynamics torque.
    pub kinematic_extra: Fx1,
}

/// The slot of a joint's kinematic row among the joint's warm-start keys
/// (its own rows use 0-4, its motor 8-10).
const KINEMATIC_SLOT: u16 = 12;

/// True for the key of a joint's kinematic row.
fn is_kinematic_key(key: u16) -> bool {
    key & JOINT_KEY != 0 && key & 0xf == KINEMATIC_SLOT
}

/// One world step in hybrid dynamics: `accel` (rad/s^2) and `tau_max`
/// (N m) per joint; `external` applies the step's external impulses
/// (pushes, hits) after the joint rates are read, so that the commanded
/// rates start from the consistent state. The joints' own motors should
/// be off.
pub fn step_hybrid<const B: usize, const J: usize, const R: usize>(
    world: &mut World<B, J, R>,
    accel: &[Fx1],
    tau_max: &[Fx1],
    external: impl FnOnce(&mut [Body]),
) -> Hybrid {
    let mut out = Hybrid::default();
    let (rates, n) = begin_driven_step(world, accel, external);
    let erp = world.settings.joint_erp;
    joint_torques(
        world.bodies(),
        world.joints(),
        &rates[..n],
        erp,
        &mut out.torques[..n],
    );
    for k in 0..n {
        let jt = world.joints()[k];
        let Some(axis) = jt.world_axis(world.bodies()) else {
            continue;
        };
        let t = out.torques[k];
        if t.abs() <= tau_max[k] {
            out.modes[k] = Mode::Kinematic;
            // The torque puts the momentum where it belongs; the row only
            // removes what the solver's sweeps leave over.
            apply_torque(world.bodies_mut(), jt.a, jt.b, axis, t);
            let row = Row::angular(jt.a, jt.b, axis, rates[k]).keyed(joint_key(k) | KINEMATIC_SLOT);
            world.rows.push(row);
        } else {
            out.modes[k] = Mode::Dynamic;
            let t = t.clamp(-tau_max[k], tau_max[k]);
            apply_torque(world.bodies_mut(), jt.a, jt.b, axis, t);
        }
    }
    world.push_joint_rows();
    world.push_contact_rows();
    world.solve();
    // The kinematic rows' impulses (N m s) as torques.
    for row in world.rows.as_slice() {
        if is_kinematic_key(row.key) {
            let t = Fx2::from_raw(div_dt(row.lambda.raw())).lower().abs();
            out.kinematic_extra = out.kinematic_extra.max(t);
        }
    }
    world.integrate();
    out
}
