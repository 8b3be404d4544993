//! (a) A single ragdoll dropped into the world, tumbling from a kick.

use super::{no_update, SceneDef, Sim};
use crate::render::Camera;
use dsphys::fx;
use dsphys::fx::{Angle, Vec3};
use dsphys::scenario::tumbling_ragdoll;

pub const SCENE: SceneDef = SceneDef {
    letter: 'a',
    name: "single ragdoll drop",
    pending: None,
    reset,
    update: no_update,
    camera: CAMERA,
};

/// Closer than the room's view, on the side the kick sends it to.
const CAMERA: Camera = Camera {
    target: Vec3::new(fx!(0.6), fx!(0.6), fx!(-0.6)),
    yaw: Angle::from_raw(6372),   // 35 degrees
    pitch: Angle::from_raw(5461), // 30 degrees
    distance: fx!(4.2),
};

fn reset(sim: &mut Sim) {
    sim.add(tumbling_ragdoll(Vec3::ZERO));
}
