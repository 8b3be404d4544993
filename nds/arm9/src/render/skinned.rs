//! The animated character as a skinned mesh on the geometry engine, as DS
//! games skin: the palette is built in the GX matrix stack, one slot per
//! joint, and the mesh's display list (compiled from the glTF by assetc's
//! `gltf_gx`, vertices in their joints' frames) restores its joint's
//! slot before each run of vertices. Lit by the hardware (light 0, one
//! colour per part). Whether the joint matrices come from the animation
//! or from the brads (a limp character), the drawing is the same.
//!
//! The CPU only builds the palette's command list ([`PaletteList`], 14
//! words a joint: RESTORE the camera, MULT the joint's model matrix,
//! STORE) and starts the DMA of both lists; `make bench` times the first
//! as `anim_us.palette_cpu`.

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
const CAMERA_SLOT: u32 = 30;

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
fn joint_words(m: &Mat4x3) -> [i32; 12] {
    let mut w = m.to_gx_4x3();
    for t in &mut w[9..] {
        *t >>= GX_SHIFT;
    }
    w
}

/// GX command numbers (GBATEK "DS 3D Geometry Commands").
const MTX_STORE: u32 = 0x13;
const MTX_RESTORE: u32 = 0x14;
const MTX_MULT_4X3: u32 = 0x19;

/// Palette commands: STORE the camera, then RESTORE, MULT, STORE per
/// joint, then RESTORE the camera.
const PALETTE_COMMANDS: usize = 2 + 3 * SKINNED_HUMANOID_JOINTS;
/// Their words: a header per four commands, and 1, 12 and 1 parameters.
const PALETTE_WORDS: usize = PALETTE_COMMANDS.div_ceil(4) + 2 + 14 * SKINNED_HUMANOID_JOINTS;

/// The palette's commands as a packed list, built on the CPU after the
/// expand phase and sent by DMA when the character is drawn: the CPU
/// writes about 390 words to RAM instead of stalling on the GXFIFO while
/// the engine runs each product (writing the ports directly cost 49 us in
/// DeSmuME, `make bench`'s `anim_us.palette_cpu` at 4ed1634). It must
/// live in main RAM, where DMA reads (a static, not the DTCM stack).
pub struct PaletteList {
    words: [u32; PALETTE_WORDS],
    len: usize,
    header: usize,
    in_header: u32,
}

impl PaletteList {
    pub const fn new() -> Self {
        PaletteList {
            words: [0; PALETTE_WORDS],
            len: 0,
            header: 0,
            in_header: 4,
        }
    }

    /// The packed words.
    pub fn words(&self) -> &[u32] {
        &self.words[..self.len]
    }

    /// Appends one command (every palette command has parameters, so no
    /// header ends on a parameterless one; unused slots stay NOP).
    #[inline(always)]
    fn command(&mut self, op: u32, params: &[u32]) {
        if self.in_header == 4 {
            self.header = self.len;
            self.words[self.len] = 0;
            self.len += 1;
            self.in_header = 0;
        }
        self.words[self.header] |= op << (8 * self.in_header);
        self.in_header += 1;
        self.words[self.len..self.len + params.len()].copy_from_slice(params);
        self.len += params.len();
    }

    /// Rebuilds the list for the joints' model (world) matrices `model`:
    /// run with the camera (and the x4 scale) current, it leaves slot `j`
    /// holding the camera times `model[j]` and the camera current again.
    /// Joints beyond the mesh's are left out.
    #[inline(never)]
    pub fn build(&mut self, model: &[Mat4x3]) {
        self.len = 0;
        self.in_header = 4;
        self.command(MTX_STORE, &[CAMERA_SLOT]);
        for (j, m) in model.iter().enumerate().take(SKINNED_HUMANOID_JOINTS) {
            self.command(MTX_RESTORE, &[CAMERA_SLOT]);
            self.command(MTX_MULT_4X3, &joint_words(m).map(|w| w as u32));
            self.command(MTX_STORE, &[j as u32]);
        }
        self.command(MTX_RESTORE, &[CAMERA_SLOT]);
    }

    /// True when the list holds a palette for every joint of the mesh.
    pub fn complete(&self) -> bool {
        self.len == PALETTE_WORDS
    }
}

/// Sends `palette` to the geometry engine and waits until the DMA has
/// fed it to the FIFO (the engine may still be running it).
pub fn load_palette(palette: &PaletteList) {
    if let Some(t) = gx_dma::send(palette.words()) {
        t.wait();
    }
}

/// Draws the humanoid posed by `palette` (built from its joints' model
/// matrices); nothing for an incomplete palette (another skeleton), or
/// when the budget has no room.
#[inline(never)]
pub fn draw(palette: &PaletteList, mode: DrawMode, budget: &mut PolyBudget) {
    if !palette.complete() || !budget.take(SKINNED_HUMANOID_TRIANGLES) {
        return;
    }
    load_palette(palette);
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
