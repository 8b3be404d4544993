//! (a) A single ragdoll thrown down the stairs (`assets/worlds/stairs.obj`).

use super::{no_update, SceneDef, Sim};
use crate::render::world::Shape;
use crate::render::Camera;
use dsphys::fx;
use dsphys::fx::{Angle, Vec3};
use dsphys::scenario::stairs_drop_into;

pub const SCENE: SceneDef = SceneDef {
    letter: 'a',
    name: "single ragdoll drop",
    pending: None,
    stylus: super::STYLUS_GRAB_SHOOT,
    reset,
    update: no_update,
    camera: CAMERA,
};

/// The flight of stairs (x 5.2..8, z 1..3, up to 1.6 m) from the side.
const CAMERA: Camera = Camera {
    target: Vec3::new(fx!(6.2), fx!(0.7), fx!(2.0)),
    yaw: Angle::from_raw(6372),   // 35 degrees
    pitch: Angle::from_raw(5461), // 30 degrees
    distance: fx!(4.2),
};

fn reset(sim: &mut Sim) {
    sim.world = Shape::Mesh(&crate::worlds::STAIRS);
    sim.add_with(stairs_drop_into);
}
