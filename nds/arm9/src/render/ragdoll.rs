//! A character as rigid segments: each bone is a box placed by its own
//! matrix on the GX matrix stack (push, multiply, draw the one unit box,
//! pop): rigid skinning, as DS games do it. Until the brads land, a bone's
//! matrix is built from the two particles at its ends; the brads' joint
//! matrices will take its place unchanged (`bone_matrix` is the seam).
//!
//! Level of detail, chosen by distance and then by what the polygon
//! budget has left: six faces per bone, four (no end caps), or one line.

use super::prims::{quad, Batch, ID_BODY, ID_OVERLAY, VTX10_ONE as P};
use super::shade::{lit, Rgb};
use super::{Camera, DrawMode, PolyBudget, GX_SHIFT};
use crate::hw::gx;
use crate::hw::video::rgb;
use dsphys::divsqrt::{div_i32, sqrt_u32};
use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
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

/// `v / |v|` for a vector shorter than 8 m, in the 32-bit modes of the
/// square-root unit and divider (13 + 18 bus cycles, against 47 + 34 for
/// the engine's 64-bit `try_normalise`). Good to about 2^-11: plenty for
/// drawing, which needs no bit-exactness. `None` below 1 mm.
fn unit32(v: Vec3) -> Option<Vec3> {
    let [x, y, z] = v.raw().map(|c| c.clamp(-(1 << 15), 1 << 15) as i64);
    let len2 = (x * x + y * y + z * z) as u32; // < 3 * 2^30
    let len = sqrt_u32(len2) as i32; // FX1 raw
    if len < 4 {
        return None;
    }
    let inv = div_i32(1 << 24, len); // 1/len, FX1 raw
    Some(Vec3::from_raw(
        ((x * inv as i64) >> 12) as i32,
        ((y * inv as i64) >> 12) as i32,
        ((z * inv as i64) >> 12) as i32,
    ))
}

/// A bone's frame: the unit box (x, y in -1..1, z in 0..1) stretched to a
/// `half_width` square section from `a` to `b`, in submission units, as
/// MTX_MULT_4x3 words; and its three world axes (for lighting). `None`
/// for a bone shorter than 1 mm. The brads' joint matrices will replace
/// this (the box then follows the joint, not the particle pair).
pub fn bone_matrix(a: Vec3, b: Vec3, half_width: Fx1) -> Option<([i32; 12], [Vec3; 3])> {
    let d = b - a;
    let dir = unit32(d)?;
    // side = helper x dir, with helper the world axis least along the bone.
    let side = if dir.y.abs() < fx!(0.9) {
        Vec3::new(dir.z, Fx1::ZERO, -dir.x) // y x dir
    } else {
        Vec3::new(Fx1::ZERO, -dir.z, dir.y) // x x dir
    };
    let side = unit32(side)?;
    let up = dir.cross(side).lower();
    let s = |v: Vec3| v.scale(half_width).raw().map(|c| c >> GX_SHIFT);
    let (x, y) = (s(side), s(up));
    let (z, t) = (
        d.raw().map(|c| c >> GX_SHIFT),
        a.raw().map(|c| c >> GX_SHIFT),
    );
    Some((
        [
            x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2], t[0], t[1], t[2],
        ],
        [side, up, dir],
    ))
}

/// The unit box's faces, anticlockwise seen from outside, with their
/// outward normals as (axis, sign): sides first, then the two end caps.
pub const FACES: [([u32; 4], usize, bool); 6] = [
    (
        quad([[P, -P, 0], [P, P, 0], [P, P, P], [P, -P, P]]),
        0,
        false,
    ),
    (
        quad([[-P, -P, 0], [-P, -P, P], [-P, P, P], [-P, P, 0]]),
        0,
        true,
    ),
    (
        quad([[-P, P, 0], [-P, P, P], [P, P, P], [P, P, 0]]),
        1,
        false,
    ),
    (
        quad([[-P, -P, 0], [P, -P, 0], [P, -P, P], [-P, -P, P]]),
        1,
        true,
    ),
    (
        quad([[-P, -P, P], [P, -P, P], [P, P, P], [-P, P, P]]),
        2,
        false,
    ),
    (
        quad([[-P, -P, 0], [-P, P, 0], [P, P, 0], [P, -P, 0]]),
        2,
        true,
    ),
];

const OVERLAY_STICK: u16 = rgb(255, 70, 60);
const OVERLAY_SOFT: u16 = rgb(255, 210, 60);
const OVERLAY_PARTICLE: u16 = rgb(120, 255, 255);

/// How much detail the `rank`-th nearest character may have: a boxed
/// bone costs about 35 us of CPU and GX time (DeSmuME and melonDS alike:
/// two square roots and divisions for its frame, 47 FIFO words), a line
/// about 3 us, so a crowd is drawn in boxes only near the camera.
pub fn detail_for_rank(rank: usize) -> Lod {
    match rank {
        0..4 => Lod::Boxes,
        4..10 => Lod::OpenBoxes,
        _ => Lod::Lines,
    }
}

/// Draws one character, with at most `max_detail`; returns the detail it
/// was drawn at. In cached main RAM: ITCM holds the physics, which costs
/// more per frame (`make bench`).
#[inline(never)]
pub fn draw(
    r: &Ragdoll,
    color: Rgb,
    cam: &Camera,
    mode: DrawMode,
    max_detail: Lod,
    budget: &mut PolyBudget,
) -> Lod {
    if mode == DrawMode::Constraints {
        draw_overlay(r, budget);
        return Lod::Lines;
    }
    let mut list = [(0u8, 0u8); MAX_BONES];
    let n = bones(r, &mut list);
    let x = r.positions();
    let dist = (cam.eye() - x[0]).length();
    let mut lod = if dist >= LINES_FROM {
        Lod::Lines
    } else if dist >= OPEN_BOXES_FROM {
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
        let mut b = Batch::lines(budget, ID_BODY, n as u32);
        for &(i, j) in &list[..n] {
            b.line(x[i as usize], x[j as usize], color.bgr555());
        }
        return lod;
    }
    let radii = r.particles.radii();
    let faces = lod.polys_per_bone() as usize;
    for &(i, j) in &list[..n] {
        let (i, j) = (i as usize, j as usize);
        let half = radii[i].min(radii[j]);
        let Some((m, axes)) = bone_matrix(x[i], x[j], half) else {
            continue;
        };
        // Each face's colour: the three axes lit, and their opposites.
        let shades = axes.map(|a| {
            let n = a.raw();
            (lit(color, n, 12), lit(color, n.map(|c| -c), 12))
        });
        gx::push();
        gx::mult_4x3(&m);
        {
            let mut b = Batch::quads(budget, mode.solid_alpha(), ID_BODY, faces as u32);
            for (v, axis, negative) in FACES.iter().take(faces) {
                let (pos, neg) = shades[*axis];
                b.quad_packed(v, if *negative { neg } else { pos });
            }
        }
        gx::pop(1);
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
