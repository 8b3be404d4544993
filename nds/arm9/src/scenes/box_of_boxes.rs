//! (c) Box of boxes (`dsphys::rigid::box_of_boxes`): 27 cubes in three
//! layers of 3 x 3 in the room, which is their container (the engine's
//! own container walls would be static boxes, and the renderer draws no
//! static boxes, so they would be invisible). Resting, they make 189
//! solver rows, and a shot pile 200-340, too many to solve every frame
//! in DeSmuME's time, so the world sleeps: cubes that rest for half a
//! second stop being integrated and solved until a shot or a moving
//! neighbour wakes them (`dsphys::rigid::sleep`). Placed at rest, the
//! pile starts asleep. Drag a cube out, or shoot one: the pile wakes (and
//! DeSmuME slows down) until it has settled again, 1.5 to 20 s later
//! (`cargo run --release --example box_of_boxes_shots`).

use super::{Rigid, SceneDef, Sim};
use crate::render::Camera;
use dsphys::fx;
use dsphys::fx::{Angle, Vec3};
use dsphys::rigid::room;

pub const SCENE: SceneDef = SceneDef {
    letter: 'c',
    name: "box of boxes (3 layers of 3x3)",
    pending: None,
    stylus: super::STYLUS_BOXES,
    reset,
    update: super::no_update,
    camera: CAMERA,
};

/// In front of the container, a little to the right and above.
const CAMERA: Camera = Camera {
    target: Vec3::new(fx!(0.0), fx!(0.4), fx!(0.0)),
    yaw: Angle::from_raw(4096),   // 22.5 degrees
    pitch: Angle::from_raw(5461), // 30 degrees
    distance: fx!(3.2),
};

fn reset(sim: &mut Sim) {
    // The room and the cubes, asleep (`BoxWorld` is sized for them).
    room::box_of_boxes(&mut sim.boxes).expect("box of boxes: BoxWorld too small");
    sim.rigid = Rigid::Boxes;
}
