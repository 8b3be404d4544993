//! (a) A single ragdoll dropped into the world, tumbling from a kick.

use super::{no_update, SceneDef, Sim, ROOM_CAMERA};
use dsphys::fx::Vec3;
use dsphys::scenario::tumbling_ragdoll;

pub const SCENE: SceneDef = SceneDef {
    letter: 'a',
    name: "single ragdoll drop",
    pending: None,
    reset,
    update: no_update,
    camera: ROOM_CAMERA,
};

fn reset(sim: &mut Sim) {
    sim.add(tumbling_ragdoll(Vec3::ZERO));
}
