//! The animated character as a skinned mesh on the geometry engine, as DS
//! games skin: the palette is built in the GX matrix stack, one slot per
//! joint, and the mesh's display list (compiled from the glTF by assetc's
//! `gltf_gx`, vertices in their joints' frames) restores its joint's
//! slot before each run of vertices. Lit by the hardware (light 0, one
//! colour per part). Whether the joint matrices come from the animation
//! or from the brads (a limp character), the drawing is the same.
//!
//! The CPU only writes the palette's commands (14 words a joint: RESTORE
//! the camera or the parent's slot, MULT the joint's model matrix or its
//! local pose, STORE) and starts the DMA of the list; `make bench` times
//! the first as `anim_us.palette_cpu`. A limp character's joints without
//! a brad are expanded on the engine, so the CPU expands nothing then.

use super::prims::ID_BODY;
use super::{DrawMode, PolyBudget, GX_SHIFT};
use crate::hw::{gx, gx_dma};
use dsphys::anim::gx_palette::{palette_ops, PaletteOp, CAMERA_SLOT};
use dsphys::anim::Character;

mod mesh {
    include!(concat!(env!("OUT_DIR"), "/skinned_mesh.rs"));
}
use mesh::{
    SKINNED_HUMANOID, SKINNED_HUMANOID_JOINTS, SKINNED_HUMANOID_TRIANGLES, SKINNED_HUMANOID_USED,
};

const WHITE: u16 = 0x7FFF;

/// What poses the palette: the character's skeleton, local pose,
/// placement and model matrices, and which joints' model matrices are
/// current (the others are expanded on the engine from their local pose;
/// see `dsphys::anim::gx_palette`).
pub struct PalettePose<'a> {
    pub character: &'a Character<'a>,
    pub from_model: u32,
    /// The local poses as GX words (`gx_palette::all_local_words`), for
    /// the joints not in `from_model`.
    pub local_words: &'a [[i32; 12]],
    /// The slots to fill: [`MESH_JOINTS`] to draw the mesh.
    pub needed: u32,
}

/// The joints the mesh's vertices are bound to (the others, the root and
/// the clavicles, get no slot of their own unless a child is expanded
/// from them).
pub const MESH_JOINTS: u32 = SKINNED_HUMANOID_USED;

/// Builds the skinning palette in the matrix stack: slot `j` becomes the
/// current matrix (the camera, with the x4 scale) times joint `j`'s model
/// matrix, and the camera is current again at the end. The CPU writes
/// the commands of `gx_palette::palette_ops` to the GX's ports.
#[inline(never)]
pub fn load_palette(pose: &PalettePose) {
    let c = pose.character;
    let n = c.joints();
    palette_ops(
        c.skeleton.parents,
        &pose.local_words[..n],
        &c.placement,
        &c.model[..n],
        pose.from_model,
        pose.needed,
        GX_SHIFT,
        |op| match op {
            PaletteOp::Store(slot) => gx::store(slot as u32),
            PaletteOp::Restore(slot) => gx::restore(slot as u32),
            PaletteOp::Mult(w) => gx::mult_4x3(w),
            PaletteOp::MultShifted(m, shift) => gx::mult_4x3_shifted(m, shift),
        },
    );
}

/// Draws the humanoid posed by `pose`; nothing for another skeleton, or
/// when the budget has no room.
#[inline(never)]
pub fn draw(pose: &PalettePose, mode: DrawMode, budget: &mut PolyBudget) {
    if pose.character.joints() != SKINNED_HUMANOID_JOINTS
        || !budget.take(SKINNED_HUMANOID_TRIANGLES)
    {
        return;
    }
    load_palette(pose);
    // Sent with the camera's rotation current, so the light is fixed in
    // the world.
    gx::light0(super::shade::LIGHT_TRAVEL, WHITE);
    gx::polygon_attr_lit(mode.solid_alpha(), ID_BODY);
    if let Some(t) = gx_dma::send(&SKINNED_HUMANOID) {
        t.wait();
    }
    // The list ends on a joint's matrix.
    gx::restore(CAMERA_SLOT as u32);
}
