//! A character as rigid segments: each bone is a box placed by its own
//! matrix on the GX matrix stack (push, multiply, draw the one unit box,
//! pop; a slot of the frame's [`LitList`], lit by the hardware): rigid
//! skinning, as DS games do it. Until the brads land, a bone's matrix is
//! built from the two particles at its ends; the brads' joint matrices
//! will take its place unchanged (`bone_frame` is the seam).
//!
//! Level of detail, chosen by distance and then by what the polygon
//! budget has left: six faces per bone, four (no end caps), or one line.

use super::lit_list::{LitList, Mesh};
use super::prims::{Batch, ID_OVERLAY};
use super::shade::{material, Rgb};
use super::{to_gx, DrawMode, PolyBudget, GX_SHIFT};
use crate::hw::video::rgb;
use dsphys::fx;
use dsphys::fx::rsqrt::unit_fx1;
use dsphys::fx::{Fx1, Fx2, Vec3};
use dsphys::verlet::Ragdoll;

/// At most this many bones per character.
pub const MAX_BONES: usize = 24;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lod {
    Boxes,
    OpenBoxes,
    Lines,
    /// Not drawn: the budget had no room even for lines.
    Skipped,
}

impl Lod {
    pub fn polys_per_bone(self) -> u32 {
        match self {
            Lod::Boxes => 6,
            Lod::OpenBoxes => 4,
            Lod::Lines => 1,
            Lod::Skipped => 0,
        }
    }

    fn coarser(self) -> Lod {
        match self {
            Lod::Boxes => Lod::OpenBoxes,
            Lod::OpenBoxes => Lod::Lines,
            _ => Lod::Skipped,
        }
    }
}

/// Distances (camera to head) where the detail drops.
const OPEN_BOXES_FROM: Fx1 = fx!(9.0);
const LINES_FROM: Fx1 = fx!(18.0);

/// The particle pairs drawn as bones: the ragdoll's sticks (fixed-length
/// links) that reach a particle no earlier bone reached, in definition
/// order. For the humanoid that is its 14-bone skeleton, without the
/// torso's cross braces.
pub fn bones(r: &Ragdoll, out: &mut [(u8, u8); MAX_BONES]) -> usize {
    let mut reached = 0u32;
    let mut n = 0;
    for l in r.constraints.links().iter().filter(|l| l.min == l.max) {
        let (ba, bb) = (1u32 << (l.a & 31), 1u32 << (l.b & 31));
        if reached & ba != 0 && reached & bb != 0 {
            continue;
        }
        if n == MAX_BONES {
            break;
        }
        reached |= ba | bb;
        out[n] = (l.a, l.b);
        n += 1;
    }
    n
}

/// `v / |v|` (FX1) and `|v|` (FX1 raw) for a vector within 128 m, with
/// the engine's table reciprocal square root (no divider or square-root
/// unit: in DeSmuME each of those cost about 9 us a bone in register
/// writes and polls, `fx::rsqrt`). `None` below 1 mm.
fn unit_and_length(v: Vec3) -> Option<(Vec3, i32)> {
    let c = v.raw().map(|c| c.clamp(-(1 << 19), 1 << 19));
    let [x, y, z] = unit_fx1(c)?;
    // The unit's components are within a step of exact: the length along
    // it is within a few steps of |v| (< 2^20 m * 2^12).
    let len =
        ((x as i64 * c[0] as i64 + y as i64 * c[1] as i64 + z as i64 * c[2] as i64) >> 12) as i32;
    if len < 4 {
        return None;
    }
    Some((Vec3::from_raw(x, y, z), len))
}

/// A bone's frame, for the unit bone box (x, y in -1..1, z in 0..1):
/// MTX_MULT_4x3's words (its unit axes, then `a` in submission units)
/// and the scale that stretches the box to a `half_width` square section
/// from `a` to `b`. `None` for a bone shorter than 1 mm. The brads'
/// joint matrices will replace this (the box then follows the joint, not
/// the particle pair).
pub fn bone_frame(a: Vec3, b: Vec3, half_width: Fx1) -> Option<([i32; 12], [i32; 3])> {
    let d = b - a;
    let (dir, len) = unit_and_length(d)?;
    // side = helper x dir, with helper the world axis least along the bone.
    let side = if dir.y.abs() < fx!(0.9) {
        Vec3::new(dir.z, Fx1::ZERO, -dir.x) // y x dir
    } else {
        Vec3::new(Fx1::ZERO, -dir.z, dir.y) // x x dir
    };
    let (side, _) = unit_and_length(side)?;
    let up = dir.cross(side).lower();
    let (x, y, z) = (side.raw(), up.raw(), dir.raw());
    let t = a.raw().map(|c| c >> GX_SHIFT);
    let w = half_width.raw() >> GX_SHIFT;
    Some((
        [
            x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2], t[0], t[1], t[2],
        ],
        [w, w, len >> GX_SHIFT],
    ))
}

const OVERLAY_STICK: u16 = rgb(255, 70, 60);
const OVERLAY_SOFT: u16 = rgb(255, 210, 60);
const OVERLAY_PARTICLE: u16 = rgb(120, 255, 255);

/// How much detail the `rank`-th nearest character may have: a boxed
/// bone cost about 35 us of CPU and GX time when its commands were
/// written to the ports (DeSmuME and melonDS alike: two square roots and
/// divisions for its frame, 47 FIFO words), a line about 3 us, so a crowd
/// is drawn in boxes only near the camera.
pub fn detail_for_rank(rank: usize) -> Lod {
    match rank {
        0..4 => Lod::Boxes,
        4..10 => Lod::OpenBoxes,
        _ => Lod::Lines,
    }
}

/// Draws one character whose head is `dist2` (m^2) from the eye, with at
/// most `max_detail`; returns the detail it was drawn at. In cached main
/// RAM: ITCM holds the physics, which costs more per frame (`make bench`).
#[inline(never)]
pub fn draw(
    r: &Ragdoll,
    color: Rgb,
    dist2: Fx2,
    mode: DrawMode,
    max_detail: Lod,
    budget: &mut PolyBudget,
    lit: &mut LitList,
) -> Lod {
    if mode == DrawMode::Constraints {
        draw_overlay(r, budget);
        return Lod::Lines;
    }
    let mut list = [(0u8, 0u8); MAX_BONES];
    let n = bones(r, &mut list);
    let x = r.positions();
    let mut lod = if dist2 >= LINES_FROM * LINES_FROM {
        Lod::Lines
    } else if dist2 >= OPEN_BOXES_FROM * OPEN_BOXES_FROM {
        Lod::OpenBoxes
    } else {
        Lod::Boxes
    }
    .max(max_detail);
    while lod != Lod::Skipped && lod.polys_per_bone() * n as u32 > budget.left() {
        lod = lod.coarser();
    }
    if lod == Lod::Skipped {
        budget.refused += n as u32;
        return lod;
    }
    if lod == Lod::Lines {
        let granted = budget.take_up_to(n as u32);
        let gx = |p: Vec3| p.to_array().map(to_gx);
        for &(i, j) in &list[..granted as usize] {
            if !lit.line(gx(x[i as usize]), gx(x[j as usize]), color.bgr555()) {
                budget.refuse(1);
            }
        }
        return lod;
    }
    let radii = r.particles.radii();
    let mesh = if lod == Lod::Boxes {
        Mesh::Bone
    } else {
        Mesh::OpenBone
    };
    let material = material(color);
    for &(i, j) in &list[..n] {
        let (i, j) = (i as usize, j as usize);
        let half = radii[i].min(radii[j]);
        let Some((frame, scale)) = bone_frame(x[i], x[j], half) else {
            continue;
        };
        if !budget.take(mesh.polygons()) {
            continue;
        }
        if !lit.add(mesh, &frame, scale, material) {
            budget.refuse(mesh.polygons());
        }
    }
    lod
}

/// Every constraint as a line (sticks red, range links yellow) and every
/// particle as a small three-axis cross of its collision radius.
fn draw_overlay(r: &Ragdoll, budget: &mut PolyBudget) {
    let links = r.constraints.links();
    let x = r.positions();
    let want = links.len() as u32 + 3 * x.len() as u32;
    let mut b = Batch::lines(budget, ID_OVERLAY, want);
    for l in links {
        let color = if l.min == l.max {
            OVERLAY_STICK
        } else {
            OVERLAY_SOFT
        };
        b.line(x[l.a as usize], x[l.b as usize], color);
    }
    for (&p, &rad) in x.iter().zip(r.particles.radii()) {
        for axis in 0..3 {
            let mut d = [Fx1::ZERO; 3];
            d[axis] = rad;
            let d = Vec3::from_array(d);
            b.line(p - d, p + d, OVERLAY_PARTICLE);
        }
    }
}

/// A marker on one particle (the one the stylus holds): a cross.
pub fn marker(p: Vec3, size: Fx1, color: u16, budget: &mut PolyBudget) {
    let mut b = Batch::lines(budget, ID_OVERLAY, 3);
    for axis in 0..3 {
        let mut d = [Fx1::ZERO; 3];
        d[axis] = size;
        let d = Vec3::from_array(d);
        b.line(p - d, p + d, color);
    }
}
