//! Rigid bodies as lit cubes in the frame's [`LitList`]: per box its
//! rotation and centre, its half extents as the scale. Static bodies
//! (the room's walls) are part of the drawn world already and are
//! skipped.

use super::lit_list::{LitList, Mesh};
use super::shade::{material, Rgb};
use super::{PolyBudget, GX_SHIFT};
use dsphys::rigid::Body;

/// Adds every dynamic body in `bodies` to `list`, colour `colors[i %
/// len]`; a box the budget or the list has no room for is left out (and
/// counted as refused).
#[inline(never)]
pub fn draw(bodies: &[Body], colors: &[Rgb], budget: &mut PolyBudget, list: &mut LitList) {
    let faces = Mesh::Cube.polygons();
    for (i, b) in bodies.iter().enumerate().filter(|(_, b)| !b.is_static()) {
        if !budget.take(faces) {
            continue;
        }
        // Rotation, then the centre in submission units (truncated: a
        // 4.12 step of 4 m is 1 mm).
        let pos = b.pos.to_array().map(|c| c.raw());
        let mut frame = [0i32; 12];
        for (k, col) in b.mat.cols.iter().enumerate() {
            frame[3 * k..3 * k + 3].copy_from_slice(&col.raw());
            frame[9 + k] = (pos[k] >> (24 - 12 + GX_SHIFT)) as i32;
        }
        let scale = b.half.raw().map(|h| h >> GX_SHIFT);
        if !list.add(
            Mesh::Cube,
            &frame,
            scale,
            material(colors[i % colors.len()]),
        ) {
            budget.refuse(faces);
        }
    }
}
