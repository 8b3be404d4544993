//! Contacts as rows: boxes against a plane and against each other. Each
//! contact is a normal row with `lambda >= 0` and two friction rows
//! bounded by `mu * lambda_normal` (seed 000: contacts push, never pull).
//!
//! Contacts are found at box corners: a corner below a plane, or inside
//! another box (the normal is that box's face of least penetration).
//! This handles resting, stacking and tumbling boxes; edge-on-edge
//! crossings with no corner inside are not detected (boxes can then
//! interpenetrate until a corner enters). Contacts within `margin` of
//! touching are speculative: they only stop the approach that would
//! close the gap this step, so nothing tunnels at rest and nothing
//! bounces (no restitution).

use crate::fx::{Fx1, Fx2, Fx3, Vec3};

use super::body::{Body, STATIC};
use super::div_dt;
use super::joint::perpendicular_basis;
use super::row::{Row, Rows, UNBOUNDED};

/// A plane `normal . x = offset` with solid below (`normal . x < offset`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plane {
    /// Unit normal, pointing out of the solid.
    pub normal: Vec3,
    /// Offset along the normal, m.
    pub offset: Fx1,
}

impl Plane {
    /// The ground `y = 0`.
    pub const GROUND: Plane = Plane {
        normal: Vec3::Y,
        offset: Fx1::ZERO,
    };
}

/// Contact settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContactSettings {
    /// Fraction of the penetration (beyond `slop`) removed per step.
    pub erp: Fx1,
    /// Penetration left alone, m (stops resting jitter).
    pub slop: Fx1,
    /// Gap within which a speculative contact is made, m.
    pub margin: Fx1,
}

impl ContactSettings {
    /// 0.2 of the error per step, 2 mm slop, 2 cm margin.
    pub const DEFAULT: ContactSettings = ContactSettings {
        erp: crate::fx!(0.2),
        slop: crate::fx!(0.002),
        margin: crate::fx!(0.02),
    };
}

/// Warm-start keys of contact rows: this bit, the feature (corner and
/// side) shifted by 2, and the row (0 normal, 1 and 2 friction).
pub const CONTACT_KEY: u16 = 0x4000;

/// The eight corners of a box in body-local coordinates.
#[inline]
pub fn corners(half: Vec3) -> [Vec3; 8] {
    let mut out = [Vec3::ZERO; 8];
    for (i, c) in out.iter_mut().enumerate() {
        let s = |bit: usize, h: Fx1| if i & bit != 0 { h } else { -h };
        *c = Vec3::new(s(1, half.x), s(2, half.y), s(4, half.z));
    }
    out
}

/// A contact normal with its two friction directions, found once for
/// all the contacts that share it (a pair's corners, a plane's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Normal {
    /// Unit normal.
    pub n: Vec3,
    /// Friction directions: unit, perpendicular to `n` and each other.
    pub t1: Vec3,
    /// See `t1`.
    pub t2: Vec3,
}

impl Normal {
    /// `n` (unit) and its friction basis ([`perpendicular_basis`]).
    pub fn new(n: Vec3) -> Normal {
        let (t1, t2) = perpendicular_basis(n);
        Normal { n, t1, t2 }
    }
}

/// Pushes a contact (normal row plus two friction rows) at world `point`
/// where body `b` touches body `a` (either may be [`STATIC`]); `normal.n`
/// points from `a` to `b`, `depth > 0` is penetration.
#[allow(clippy::too_many_arguments)]
pub fn push_contact<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    a: u8,
    b: u8,
    point: Vec3<Fx2>,
    normal: &Normal,
    depth: Fx2,
    mu: Fx1,
    s: &ContactSettings,
    feature: u16,
) {
    let lever = |i: u8| -> Vec3 {
        if i == STATIC {
            Vec3::ZERO
        } else {
            (point - bodies[i as usize].pos).lower()
        }
    };
    let (ra, rb) = (lever(a), lever(b));
    // Depth is FX2: in FX1 its 0.12 mm rounding becomes +-7 mm/s of
    // target velocity noise at 60 Hz, enough to rock a stack.
    let target = if depth > Fx2::ZERO {
        let push = (depth - s.slop.raise()).max(Fx2::ZERO);
        Fx2::from_raw(div_dt((push * s.erp).lower().raw()))
    } else {
        Fx2::from_raw(div_dt(depth.raw()))
    };
    let row = |dir: Vec3, target: Fx2| {
        Row::new(
            a,
            b,
            dir,
            -ra.cross(dir).lower(),
            rb.cross(dir).lower(),
            target,
        )
    };
    let key = CONTACT_KEY | (feature << 2);
    let normal_row = row(normal.n, target).bounded(Fx2::ZERO, UNBOUNDED);
    let Some(n) = rows.push(normal_row.keyed(key)) else {
        return;
    };
    for (k, t) in [(1, normal.t1), (2, normal.t2)] {
        let mut f = row(t, Fx2::ZERO).keyed(key | k);
        f.friction_of = n;
        f.mu = mu;
        rows.push(f);
    }
}

/// The bodies with a contact row among `rows`, a bit each (indices from
/// 32 on are left out).
pub fn touching(rows: &[Row]) -> u32 {
    let mut bodies = 0u32;
    for r in rows.iter().filter(|r| r.key & CONTACT_KEY != 0) {
        for i in [r.a, r.b] {
            if i < 32 {
                bodies |= 1 << i;
            }
        }
    }
    bodies
}

/// Contacts of box `i`'s corners with `plane`; returns how many.
#[inline(never)]
pub fn box_plane<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    i: u8,
    plane: &Plane,
    s: &ContactSettings,
) -> usize {
    let body = &bodies[i as usize];
    // The lowest point of the box's bounding box along the normal is
    // beyond the margin: no corner can touch (exact, FX2).
    let reach = body.bound.dot(plane.normal.map(Fx1::abs)) + s.margin.raise();
    let centre = plane.normal.dot(body.pos) - Fx3::from(plane.offset);
    if centre > reach.raise() {
        return 0;
    }
    let normal = Normal::new(plane.normal);
    let mut count = 0;
    for (k, c) in corners(body.half).into_iter().enumerate() {
        let p = body.world_point(c);
        let depth = -(plane.normal.dot(p) - Fx3::from(plane.offset)).lower();
        if depth > -s.margin.raise() {
            let (mu, f) = (body.friction, k as u16);
            push_contact(rows, bodies, STATIC, i, p, &normal, depth, mu, s, f);
            count += 1;
        }
    }
    count
}

/// Contacts between boxes `i` and `j`; returns how many.
///
/// The normal is the face axis (of either box) with the least overlap,
/// the separating-axis test without the edge-edge axes. Corners of `i`
/// inside `j` then give contacts with their depth below `j`'s extent
/// along the normal; when fewer than four are found (a small box under a
/// big one, an edge across a face), corners of `j` inside `i` are added
/// the same way.
#[inline(never)]
pub fn box_box<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    i: u8,
    j: u8,
    s: &ContactSettings,
) -> usize {
    let (bi, bj) = (&bodies[i as usize], &bodies[j as usize]);
    let d = (bi.pos - bj.pos).lower();
    // A corner found below is inside the other box grown by the margin
    // along its own axes, so within sqrt(3) margins of it along any world
    // axis: world bounding boxes further apart than 2 margins give none.
    // (Exact: the same contacts as without this test, for less work.)
    let gap = d.map(Fx1::abs) - (bi.bound + bj.bound);
    let far = s.margin * 2;
    if gap.x >= far || gap.y >= far || gap.z >= far {
        return 0;
    }
    let reach = bi.half.length() + bj.half.length() + s.margin;
    if d.length_squared() > reach * reach {
        return 0;
    }
    // The axis of least overlap; `n` points from j to i.
    let mut best_pen = Fx1::MAX;
    let mut n = Vec3::Y;
    for axis in bi.mat.cols.into_iter().chain(bj.mat.cols) {
        let along = d.dot(axis).lower();
        let pen = (extent(bi, axis) + extent(bj, axis)).lower() - along.abs();
        if pen < -s.margin {
            return 0;
        }
        if pen < best_pen {
            best_pen = pen;
            n = if along < Fx1::ZERO { -axis } else { axis };
        }
    }
    let mu = bi.friction.min(bj.friction);
    let normal = Normal::new(n);
    let top_j = extent(bj, n).raise() + n.dot(bj.pos);
    let mut count = corners_inside(rows, bodies, i, j, (j, i), 0, &normal, mu, s, |p| {
        (top_j - n.dot(p)).lower()
    });
    if count < 4 {
        let bottom_i = n.dot(bi.pos) - extent(bi, n).raise();
        count += corners_inside(rows, bodies, j, i, (j, i), 8, &normal, mu, s, |p| {
            (n.dot(p) - bottom_i).lower()
        });
    }
    count
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

/// Contacts of `corner_box`'s corners that lie inside `other` (within the
/// margin), as rows between `pair = (a, b)` with `normal.n` from `a` to `b`;
/// `depth` gives a corner's penetration.
#[allow(clippy::too_many_arguments)]
fn corners_inside<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    corner_box: u8,
    other: u8,
    pair: (u8, u8),
    side: u16,
    normal: &Normal,
    mu: Fx1,
    s: &ContactSettings,
    depth: impl Fn(Vec3<Fx2>) -> Fx2,
) -> usize {
    let (bc, bo) = (&bodies[corner_box as usize], &bodies[other as usize]);
    // `n` always points from the pair's j to its i.
    let (a, b) = pair;
    let h = bo.half.to_array();
    let mut count = 0;
    for (k, c) in corners(bc.half).into_iter().enumerate() {
        let p = bc.world_point(c);
        let local = bo.mat.transpose_mul_vec((p - bo.pos).lower()).to_array();
        if (0..3).any(|k| local[k].abs() - h[k] >= s.margin) {
            continue;
        }
        let dep = depth(p);
        if dep <= -s.margin.raise() {
            continue;
        }
        push_contact(rows, bodies, a, b, p, normal, dep, mu, s, side | k as u16);
        count += 1;
    }
    count
}
