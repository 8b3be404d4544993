//! (e) The powered ragdoll (`dsphys::rigid::characters::powered`): 13
//! boxes and 12 motorised joints standing in the room, following the idle
//! pose (arms swinging, head turning) through torque-limited motors. Drag
//! a body with the stylus (the grab can lift the whole figure), or tap
//! beside one to strike it: it reels and recovers its pose. Y + L / Y + R
//! lower / raise its strength in quarters; at zero it falls limp. X
//! stands it up again.

use super::{Rigid, SceneDef, Sim, ROOM_CAMERA};
use crate::render::Camera;
use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};

pub const SCENE: SceneDef = SceneDef {
    letter: 'e',
    name: "powered ragdoll",
    pending: None,
    stylus: "drag a body, tap by it; Y+L/R: strength",
    reset,
    update: super::no_update,
    camera: CAMERA,
};

/// The strike a stylus tap gives the touched body (N s): the host test's
/// push, which it recovers from (`tests/rigid_powered.rs`).
pub const STRIKE: Fx1 = fx!(30.0);

/// One press of Y + L or Y + R changes the strength by this.
pub const STRENGTH_STEP: Fx1 = fx!(0.25);

/// The whole figure, from the front right.
const CAMERA: Camera = Camera {
    target: Vec3::new(fx!(0.0), fx!(0.9), fx!(0.0)),
    distance: fx!(3.6),
    ..ROOM_CAMERA
};

fn reset(sim: &mut Sim) {
    sim.powered.reset(Vec3::ZERO);
    sim.rigid = Rigid::Powered;
}

/// Changes the strength by `steps` quarters (Y + L: -1, Y + R: +1).
pub fn change_strength(sim: &mut Sim, steps: i32) {
    if sim.rigid == Rigid::Powered && steps != 0 {
        let s = sim.powered.strength + Fx1::from_raw(STRENGTH_STEP.raw() * steps);
        sim.powered.set_strength(s);
    }
}
