//! A skinned mesh compiled to a geometry-engine display list: packed GX
//! commands (GBATEK "DS 3D Geometry Commands") that the ROM sends by DMA
//! once the palette is in the matrix stack (slot `j` holding the camera
//! times joint `j`'s model matrix).
//!
//! Each vertex is stored in its joint's own frame (the inverse bind
//! applied here, at build time), so the palette the hardware needs is
//! the joint's model matrix alone: the product by the inverse bind that a
//! glTF skin implies costs nothing at run time. Per vertex the list has
//! MTX_RESTORE (only when the joint changes), NORMAL and VTX_16; per
//! part DIF_AMB and SPE_EMI (its colour, lit by the hardware) and
//! BEGIN_VTXS. Each triangle's vertices are rotated (keeping their
//! winding) to start with the joint already restored, which halves the
//! restores of a tube between two joints.
//!
//! Units: positions in 4 m steps of 4.12 (the ROM draws under a x4
//! scale, `render::GX_SHIFT`), normals in 1.9.

use crate::gltf::SkeletonSrc;
use crate::gltf_math::{scale, V3};
use crate::gltf_mesh::MeshSrc;

/// GX command numbers.
const MTX_RESTORE: u32 = 0x14;
const NORMAL: u32 = 0x21;
const VTX_16: u32 = 0x23;
const DIF_AMB: u32 = 0x30;
const SPE_EMI: u32 = 0x31;
const BEGIN_VTXS: u32 = 0x40;

/// Metres per submission unit (the ROM's `x4` scale).
const UNIT_M: f64 = 4.0;
/// Ambient share of a part's colour (the rest is lit by the light).
const AMBIENT: f64 = 0.35;

/// The compiled list and what it asks of the hardware.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkinnedGx {
    /// Packed command words.
    pub words: Vec<u32>,
    /// Triangles (polygons before clipping).
    pub triangles: usize,
    /// Vertices sent.
    pub vertices: usize,
    /// MTX_RESTORE commands.
    pub restores: usize,
    /// Joints of the skin (palette slots: `0..joints`).
    pub joints: usize,
    /// The joints that carry vertices (a bit each): the palette slots
    /// the list restores.
    pub used: u32,
}

/// Builds packed words: four command bytes in a header word, then their
/// parameters. Every command here has parameters, so no header ends on a
/// parameterless command; unused slots stay 0 (NOP).
struct Packer {
    words: Vec<u32>,
    header: usize,
    in_header: u32,
}

impl Packer {
    fn command(&mut self, op: u32, params: &[u32]) {
        if self.in_header == 4 {
            self.header = self.words.len();
            self.words.push(0);
            self.in_header = 0;
        }
        self.words[self.header] |= op << (8 * self.in_header);
        self.in_header += 1;
        self.words.extend_from_slice(params);
    }
}

/// A BGR555 colour from linear 0..1 components.
fn bgr555(c: V3) -> u32 {
    let ch = |x: f64| (x.clamp(0.0, 1.0) * 31.0).round() as u32;
    ch(c[0]) | ch(c[1]) << 5 | ch(c[2]) << 10
}

/// A unit vector as three 1.9 fields (NORMAL's and LIGHT_VECTOR's form).
pub fn pack_normal(n: V3) -> u32 {
    let f = |x: f64| ((x * 512.0).round() as i32).clamp(-512, 511) as u32 & 0x3FF;
    f(n[0]) | f(n[1]) << 10 | f(n[2]) << 20
}

/// A position in joint space as VTX_16's two words (4.12 submission
/// units; the caller has bounded it within +-8 units).
fn vtx16(p: V3) -> [u32; 2] {
    let f = |x: f64| ((x / UNIT_M * 4096.0).round() as i32).clamp(-32768, 32767) as u16 as u32;
    [f(p[0]) | f(p[1]) << 16, f(p[2])]
}

/// Compiles `mesh` (validated against `skel` by `gltf_mesh`).
pub fn compile_skinned(mesh: &MeshSrc, skel: &SkeletonSrc) -> SkinnedGx {
    let mut p = Packer {
        words: Vec::new(),
        header: 0,
        in_header: 4,
    };
    let (mut triangles, mut vertices, mut restores) = (0, 0, 0);
    let mut current = usize::MAX;
    let mut used = 0u32;
    for part in &mesh.parts {
        let diffuse = bgr555(scale(part.color, 1.0 - AMBIENT));
        let ambient = bgr555(scale(part.color, AMBIENT));
        // Bit 15: the diffuse colour is also the vertex colour.
        p.command(DIF_AMB, &[diffuse | 1 << 15 | ambient << 16]);
        p.command(SPE_EMI, &[0]);
        p.command(BEGIN_VTXS, &[0]);
        for t in &part.triangles {
            let start = (0..3).find(|&k| part.joints[t[k]] == current).unwrap_or(0);
            for k in 0..3 {
                let v = t[(start + k) % 3];
                let j = part.joints[v];
                if j != current {
                    p.command(MTX_RESTORE, &[j as u32]);
                    current = j;
                    restores += 1;
                    used |= 1 << j;
                }
                let ib = &skel.inverse_bind[j];
                p.command(NORMAL, &[pack_normal(ib.rot.apply(part.normals[v]))]);
                p.command(VTX_16, &vtx16(ib.apply(part.positions[v])));
                vertices += 1;
            }
            triangles += 1;
        }
    }
    SkinnedGx {
        words: p.words,
        triangles,
        vertices,
        restores,
        joints: skel.joints.len(),
        used,
    }
}

/// The list as Rust source for the ROM: `SKINNED_<NAME>` words and its
/// counts.
pub fn emit_skinned_rs(name: &str, source: &str, gx: &SkinnedGx) -> String {
    let upper = name.to_uppercase();
    let mut s = format!(
        "// Generated by assetc::gltf_gx from {source}: {} triangles, {} vertices, \
         {} restores, {} joints.\n",
        gx.triangles, gx.vertices, gx.restores, gx.joints
    );
    s += &format!(
        "pub const SKINNED_{upper}_TRIANGLES: u32 = {};\n",
        gx.triangles
    );
    s += &format!("pub const SKINNED_{upper}_JOINTS: usize = {};\n", gx.joints);
    s += &format!("pub const SKINNED_{upper}_USED: u32 = {:#010x};\n", gx.used);
    s += &format!(
        "pub static SKINNED_{upper}: [u32; {}] = [\n",
        gx.words.len()
    );
    for chunk in gx.words.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|w| format!("{w:#010x}")).collect();
        s += &format!("    {},\n", line.join(", "));
    }
    s += "];\n";
    s
}
