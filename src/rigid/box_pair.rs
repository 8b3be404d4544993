//! Contacts between two boxes, found in the boxes' own frames.
//!
//! The normal is the face axis (of either box) with the least overlap,
//! the separating-axis test without the edge-edge axes. Corners of `i`
//! inside `j` (grown by the margin) then give contacts, with their depth
//! below `j`'s extent along the normal; when fewer than four are found (a
//! small box under a big one, an edge across a face), corners of `j`
//! inside `i` are added the same way.
//!
//! Everything is worked out from the relative rotation `C = B_j^T B_i`
//! and the offset of the centres in each box's frame, as in Gottschalk's
//! OBB test: nine dot products give every axis's overlap, and the eight
//! corners of one box in the other's frame are sums of three scaled
//! columns of `C`, with no matrix product per corner. Only a corner that
//! passes the inside test is carried to world space, where its depth is
//! taken as before: the frames' rotations are rounded twice, which is
//! harmless in a test with a 2 cm margin but moves a depth by up to 0.1
//! mm, enough to rock a stack (the box of boxes then never slept).
//! Taking every corner to world space and back was a fifth of the box
//! scenes' step (`make pcprofile PCPROFILE=boxes`, docs/rigid-solver.md).
//!
//! # Formats and why they fit
//! | value | format | bound |
//! |---|---|---|
//! | `C` | Q24 `i32` | unit columns: below `2^25` |
//! | centre offset `d` | Q24 `i32` (saturated) | within reach, a few m |
//! | half extents `h` | Q12 `i32` | boxes below 64 m: `2^18` |
//! | `h C`, corners, overlaps | Q24 `i64` | below `2^45` |

use crate::fx::power::saturate_i32;
use crate::fx::{Fx1, Fx2, Vec3};

use super::body::Body;
use super::contact::{corner, ContactSettings, Normal, Patch};
use super::iso::IsoRow;
use super::row::Rows;

/// A Q36 value rounded to Q24 (half up).
#[inline(always)]
fn q24(x: i64) -> i64 {
    (x + (1 << 11)) >> 12
}

/// `a . b` for Q12 `a` and Q12 or Q24 `b` (Q24 or Q36).
#[inline(always)]
fn dot(a: [i32; 3], b: [i32; 3]) -> i64 {
    a[0] as i64 * b[0] as i64 + a[1] as i64 * b[1] as i64 + a[2] as i64 * b[2] as i64
}

/// One box's view of the other: the other's corners in this box's frame.
struct View<'a> {
    /// The box whose corners are tested.
    corner_box: &'a Body,
    /// The other box's centre-to-corner-box offset in the other's frame
    /// (Q24).
    offset: [i64; 3],
    /// The corner box's axes scaled by its half extents, in the other's
    /// frame: `axes[m][k]` is component `k` of axis `m` (Q24).
    axes: [[i64; 3]; 3],
    /// The other box's half extents (Q24).
    half: [i64; 3],
}

impl View<'_> {
    /// Corner `k` (bit 0: +x, bit 1: +y, bit 2: +z, as [`corner`]) in
    /// the other box's frame (Q24).
    #[inline(always)]
    fn corner(&self, k: usize) -> [i64; 3] {
        let mut c = self.offset;
        for (m, axis) in self.axes.iter().enumerate() {
            let sign = if k >> m & 1 == 1 { 1 } else { -1 };
            for (c, a) in c.iter_mut().zip(axis) {
                *c += sign * a;
            }
        }
        c
    }

    /// True when `c` lies inside the other box grown by `margin` (Q24).
    #[inline(always)]
    fn inside(&self, c: &[i64; 3], margin: i64) -> bool {
        (0..3).all(|k| c[k].abs() - self.half[k] < margin)
    }
}

/// Contacts between boxes `i` and `j`; returns how many (module docs).
#[inline(always)]
pub fn box_box<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    i: u8,
    j: u8,
    s: &ContactSettings,
) -> usize {
    let mut patch = Patch::new(0, 0, super::contact::GROUND_NORMAL, Fx1::ZERO);
    box_box_near(rows, &mut [], &mut patch, bodies, i, j, s)
}

/// [`box_box`] with the DTCM buffer `near` ([`Rows::begin_contacts`])
/// and a scratch `patch`.
#[inline(never)]
pub fn box_box_near<const R: usize>(
    rows: &mut Rows<R>,
    near: &mut [IsoRow],
    patch: &mut Patch,
    bodies: &[Body],
    i: u8,
    j: u8,
    s: &ContactSettings,
) -> usize {
    let (bi, bj) = (&bodies[i as usize], &bodies[j as usize]);
    let between = bi.pos - bj.pos;
    let d = between.lower();
    // A corner found below is inside the other box grown by the margin
    // along its own axes, so within sqrt(3) margins of it along any world
    // axis: world bounding boxes further apart than 2 margins give none.
    let gap = d.map(Fx1::abs) - (bi.bound + bj.bound);
    let far = s.margin * 2;
    if gap.x >= far || gap.y >= far || gap.z >= far {
        return 0;
    }
    let reach = bi.radius + bj.radius + s.margin;
    if d.length_squared() > reach * reach {
        return 0;
    }
    let d24 = between.to_array().map(|c| saturate_i32(c.raw()));
    let (ai, aj) = (bi.mat.cols.map(|c| c.raw()), bj.mat.cols.map(|c| c.raw()));
    // c[k][m] = j's axis k . i's axis m (Q24).
    let c: [[i32; 3]; 3] = aj.map(|k| ai.map(|m| dot(k, m) as i32));
    let di = ai.map(|m| q24(dot(m, d24)));
    let dj = aj.map(|k| q24(dot(k, d24)));
    let (hi, hj) = (bi.half.raw(), bj.half.raw());
    let margin = (s.margin.raw() as i64) << 12;
    // Overlap along each face axis (Q24): i's three, then j's.
    let mut best = (i64::MAX, 0usize, false);
    for axis in 0..6 {
        let (own, other, along) = if axis < 3 {
            let m = axis;
            let other: i64 = (0..3).map(|k| hj[k] as i64 * c[k][m].abs() as i64).sum();
            (hi[m], other, di[m])
        } else {
            let k = axis - 3;
            let other: i64 = (0..3).map(|m| hi[m] as i64 * c[k][m].abs() as i64).sum();
            (hj[k], other, dj[k])
        };
        let pen = ((own as i64) << 12) + q24(other) - along.abs();
        if pen < -margin {
            return 0;
        }
        // Compared in FX1 steps (0.24 mm), so that near ties, such as a
        // cube's bottom face and the top face of the cube it stands on,
        // go to the first axis every step: a normal that flipped between
        // the two with rounding noise would warm-start friction along
        // another basis each step, and a pile would never rest.
        let pen = pen >> 12;
        if pen < best.0 {
            best = (pen, axis, along < 0);
        }
    }
    // The normal, pointing from j to i.
    let (_, axis, flip) = best;
    let cols = if axis < 3 { &bi.mat.cols } else { &bj.mat.cols };
    let normal = Normal::of_face(cols, axis % 3, flip);
    let n = normal.n;
    let mu = bi.friction.min(bj.friction);
    let q24h = |h: [i32; 3]| h.map(|x| (x as i64) << 12);
    // Axes (each a row of `axes`, Q24) scaled by half extents `h` (Q12).
    let scaled = |axes: [[i32; 3]; 3], h: [i32; 3]| -> [[i64; 3]; 3] {
        [0, 1, 2].map(|m| axes[m].map(|x| q24(x as i64 * h[m] as i64)))
    };
    // i's corners in j's frame (i's axis m in j's frame is column m of
    // `c`); a corner inside j has its depth below j's face along `n`.
    let i_axes_in_j = [0, 1, 2].map(|m| c.map(|row| row[m]));
    let view_i = View {
        corner_box: bi,
        offset: dj,
        axes: scaled(i_axes_in_j, hi),
        half: q24h(hj),
    };
    let top_j = extent(bj, n).raise() + n.dot(bj.pos);
    patch.restart(j, i, normal, mu);
    patch.set_face(axis);
    corners_inside(&view_i, patch, 0, s, |p| (top_j - n.dot(p)).lower());
    if patch.len() < 4 {
        // j's corners in i's frame (j's axis k in i's frame is row k of
        // `c`); a corner inside i has its depth above i's bottom along `n`.
        let view_j = View {
            corner_box: bj,
            offset: di.map(|x| -x),
            axes: scaled(c, hj),
            half: q24h(hi),
        };
        let bottom_i = n.dot(bi.pos) - extent(bi, n).raise();
        corners_inside(&view_j, patch, 8, s, |p| (n.dot(p) - bottom_i).lower());
    }
    patch.finish(rows, near, bodies, s);
    patch.len()
}

/// Half the box's extent along unit `axis`: `sum h_m |col_m . axis|`.
#[inline]
fn extent(b: &Body, axis: Vec3) -> Fx2 {
    let mut e = Fx2::ZERO;
    for (col, h) in b.mat.cols.iter().zip(b.half.to_array()) {
        e += col.dot(axis).lower().abs() * h;
    }
    e
}

/// Adds to `patch` the contacts of `view`'s corners that lie inside the
/// other box (within the margin); `depth` gives a corner's penetration
/// from its world point.
fn corners_inside(
    view: &View,
    patch: &mut Patch,
    side: u16,
    s: &ContactSettings,
    depth: impl Fn(Vec3<Fx2>) -> Fx2,
) {
    let margin = (s.margin.raw() as i64) << 12;
    let half = view.corner_box.half;
    for k in 0..8 {
        let c = view.corner(k);
        if !view.inside(&c, margin) {
            continue;
        }
        // The world point exactly as the body places its corner, and the
        // depth from it: the frames above are good for the tests with a
        // margin, but their rotations are rounded twice, which moves a
        // depth by up to 0.1 mm, enough to rock a stack.
        let p = view.corner_box.world_point(corner(half, k));
        let dep = depth(p);
        if dep <= -s.margin.raise() {
            continue;
        }
        patch.add(p, dep, side | k as u16);
    }
}
