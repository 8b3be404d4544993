//! (b) A box pyramid: ten 30 cm cubes in rows of 4, 3, 2 and 1, on the
//! rigid-body solver (`dsphys::rigid`). Neighbours in a row stand 4 cm
//! apart (more than the contact margin, so they only touch when pushed);
//! each upper box bridges the gap below it. Drag a box with the stylus,
//! or tap beside one to shoot it.

use super::{rigid_room, Rigid, SceneDef, Sim};
use crate::render::Camera;
use dsphys::fx;
use dsphys::fx::{Angle, Fx1, Vec3};

pub const SCENE: SceneDef = SceneDef {
    letter: 'b',
    name: "box pyramid",
    pending: None,
    stylus: super::STYLUS_BOXES,
    reset,
    update: super::no_update,
    camera: CAMERA,
};

const ROWS: i32 = 4;
const HALF: Fx1 = fx!(0.15);
const GAP: Fx1 = fx!(0.04);

/// In front of the pyramid, a little to the right and above.
const CAMERA: Camera = Camera {
    target: Vec3::new(fx!(0.0), fx!(0.55), fx!(0.0)),
    yaw: Angle::from_raw(2731),   // 15 degrees
    pitch: Angle::from_raw(3641), // 20 degrees
    distance: fx!(3.2),
};

fn reset(sim: &mut Sim) {
    let w = &mut sim.boxes;
    rigid_room::reset(w);
    let pitch = HALF * 2 + GAP;
    for level in 0..ROWS {
        let n = ROWS - level;
        for i in 0..n {
            // Centred on x = 0: offsets of -(n-1)/2 .. (n-1)/2 pitches.
            let x = Fx1::from_raw((pitch.raw() * (2 * i - (n - 1))) / 2);
            let y = HALF + HALF * (2 * level);
            w.add_body(rigid_room::cube(HALF, Vec3::new(x, y, Fx1::ZERO)));
        }
    }
    sim.rigid = Rigid::Boxes;
}
