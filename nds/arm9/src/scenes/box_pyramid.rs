//! (b) A box pyramid: ten 30 cm cubes in rows of 4, 3, 2 and 1, on the
//! rigid-body solver (`dsphys::rigid::room::pyramid`). Neighbours in a
//! row stand 4 cm apart (more than the contact margin, so they only touch
//! when pushed); each upper box bridges the gap below it. Drag a box with
//! the stylus, or tap beside one to shoot it.

use super::{Rigid, SceneDef, Sim};
use crate::render::Camera;
use dsphys::fx;
use dsphys::fx::{Angle, Vec3};
use dsphys::rigid::room;

pub const SCENE: SceneDef = SceneDef {
    letter: 'b',
    name: "box pyramid",
    pending: None,
    stylus: super::STYLUS_BOXES,
    reset,
    update: super::no_update,
    camera: CAMERA,
};

/// In front of the pyramid, a little to the right and above.
const CAMERA: Camera = Camera {
    target: Vec3::new(fx!(0.0), fx!(0.55), fx!(0.0)),
    yaw: Angle::from_raw(2731),   // 15 degrees
    pitch: Angle::from_raw(3641), // 20 degrees
    distance: fx!(3.2),
};

fn reset(sim: &mut Sim) {
    room::pyramid(&mut sim.boxes);
    // Placed at rest, it starts asleep, as the box of boxes does: settling
    // from the placement took 30 frames of about 25 ms in DeSmuME, an
    // overrun every time the scene was entered or reset (make profile
    // SCENE=b). A shot or a grab wakes it. (The engine's own test, in
    // tests/rigid_pyramid.rs, still lets it settle by itself.)
    sim.boxes.put_to_sleep();
    sim.rigid = Rigid::Boxes;
}
