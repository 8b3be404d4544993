//! The box of boxes (seed 003's demo scene): 27 cubes in three layers of
//! 3 x 3 inside an open container of four static walls, resting face to
//! face. Neighbours in a layer stand [`GAP`] apart, more than the contact
//! margin, so at rest only the faces between layers touch: 108 contacts
//! in 27 patches, 189 solver rows (324 before patch friction). Shared by the host test (`tests/rigid_sleep.rs`) and
//! the demo's scene (c).

use crate::fx;
use crate::fx::{Fx1, Quat, Vec3};

use super::body::Body;
use super::world::World;

/// Half the side of a cube, m.
pub const HALF: Fx1 = fx!(0.15);
/// Space between neighbouring cubes and between cubes and walls, m.
pub const GAP: Fx1 = fx!(0.03);
/// Cubes per side of a layer, and layers.
pub const SIDE: i32 = 3;
/// Cubes in all.
pub const CUBES: usize = (SIDE * SIDE * SIDE) as usize;
/// The container's walls: half thickness and half height, m.
const WALL_HALF: Fx1 = fx!(0.05);
const WALL_HALF_HEIGHT: Fx1 = fx!(0.3);

/// Adds the container (four static walls, when `container`) and the 27
/// cubes, standing on the ground at `centre` (y is ignored: the floor is
/// y = 0). Returns the index of the first cube (the cubes follow in
/// layers, bottom up); `None` when the world is full.
pub fn build<const B: usize, const J: usize, const R: usize>(
    w: &mut World<B, J, R>,
    centre: Vec3,
    container: bool,
) -> Option<u8> {
    let pitch = HALF * 2 + GAP;
    // Inner half width: three cubes, two gaps between, one to each wall.
    let inner = HALF * 3 + GAP * 2;
    let off = inner + WALL_HALF;
    let (cx, cz) = (centre.x, centre.z);
    let long = inner + WALL_HALF * 2;
    let walls = [
        (
            Vec3::new(WALL_HALF, WALL_HALF_HEIGHT, long),
            (off, Fx1::ZERO),
        ),
        (
            Vec3::new(WALL_HALF, WALL_HALF_HEIGHT, long),
            (-off, Fx1::ZERO),
        ),
        (
            Vec3::new(long, WALL_HALF_HEIGHT, WALL_HALF),
            (Fx1::ZERO, off),
        ),
        (
            Vec3::new(long, WALL_HALF_HEIGHT, WALL_HALF),
            (Fx1::ZERO, -off),
        ),
    ];
    for (half, (x, z)) in walls.into_iter().filter(|_| container) {
        let pos = Vec3::new(cx + x, WALL_HALF_HEIGHT, cz + z);
        w.add_body(Body::new_box(half, Fx1::ZERO, pos, Quat::IDENTITY))?;
    }
    let first = w.bodies().len() as u8;
    for layer in 0..SIDE {
        for row in 0..SIDE {
            for col in 0..SIDE {
                let at = |k: i32| pitch * (k - 1);
                let pos = Vec3::new(cx + at(col), HALF * (2 * layer + 1), cz + at(row));
                let cube =
                    Body::new_box(Vec3::new(HALF, HALF, HALF), fx!(1.0), pos, Quat::IDENTITY);
                w.add_body(cube)?;
            }
        }
    }
    Some(first)
}
