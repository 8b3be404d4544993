//! The animated character as a skinned mesh on the geometry engine, as DS
//! games skin: the palette is built in the GX matrix stack, one slot per
//! joint, and the mesh's display list (compiled from the glTF by assetc's
//! `gltf_gx`, vertices in their joints' frames) restores its joint's
//! slot before each run of vertices. Lit by the hardware (light 0, one
//! colour per part). Whether the joint matrices come from the animation
//! or from the brads (a limp character), the drawing is the same.
//!
//! The CPU only writes the palette's commands (14 words a joint: RESTORE
//! the camera, MULT the joint's model matrix, STORE) and starts the DMA
//! of the list; `make bench` times the first as `anim_us.palette_cpu`.

use super::prims::ID_BODY;
use super::{DrawMode, PolyBudget, GX_SHIFT};
use crate::hw::{gx, gx_dma};
use dsphys::fx::Mat4x3;

mod mesh {
    include!(concat!(env!("OUT_DIR"), "/skinned_mesh.rs"));
}
use mesh::{SKINNED_HUMANOID, SKINNED_HUMANOID_JOINTS, SKINNED_HUMANOID_TRIANGLES};

/// The stack slot that keeps the camera while the palette is built (the
/// mesh's joints take slots `0..JOINTS`; assetc refuses more than 30).
pub const CAMERA_SLOT: u32 = 30;

/// Light 0's direction of travel, in 1.9 fields: down, from the front
/// right (the reverse of `shade`'s direction towards the light).
const LIGHT: u32 = field10(-204) | field10(-409) << 10 | field10(-230) << 20;
const WHITE: u16 = 0x7FFF;

/// A 1.9 component as a 10-bit field.
const fn field10(x: i32) -> u32 {
    x as u32 & 0x3FF
}

/// A joint's model matrix as MTX_MULT_4x3 words: rotation as is, the
/// translation in submission units.
pub fn joint_words(m: &Mat4x3) -> [i32; 12] {
    let mut w = m.to_gx_4x3();
    for t in &mut w[9..] {
        *t >>= GX_SHIFT;
    }
    w
}

/// Builds the skinning palette in the matrix stack: slot `j` becomes the
/// current matrix (the camera, with the x4 scale) times `model[j]`, and
/// the camera is current again at the end.
#[inline(never)]
pub fn load_palette(model: &[Mat4x3]) {
    gx::store(CAMERA_SLOT);
    for (j, m) in model.iter().enumerate().take(CAMERA_SLOT as usize) {
        gx::restore(CAMERA_SLOT);
        gx::mult_4x3(&joint_words(m));
        gx::store(j as u32);
    }
    gx::restore(CAMERA_SLOT);
}

/// Draws the humanoid whose joints' model (world) matrices are `model`;
/// nothing for another skeleton, or when the budget has no room.
#[inline(never)]
pub fn draw(model: &[Mat4x3], mode: DrawMode, budget: &mut PolyBudget) {
    if model.len() != SKINNED_HUMANOID_JOINTS || !budget.take(SKINNED_HUMANOID_TRIANGLES) {
        return;
    }
    load_palette(model);
    // Sent with the camera's rotation current, so the light is fixed in
    // the world.
    gx::light0(LIGHT, WHITE);
    gx::polygon_attr_lit(mode.solid_alpha(), ID_BODY);
    if let Some(t) = gx_dma::send(&SKINNED_HUMANOID) {
        t.wait();
    }
    // The list ends on a joint's matrix.
    gx::restore(CAMERA_SLOT);
}
