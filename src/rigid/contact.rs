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

/// Pushes a contact (normal row plus two friction rows) at world `point`
/// where body `b` touches body `a` (either may be [`STATIC`]); `normal`
/// points from `a` to `b`, `depth > 0` is penetration.
#[allow(clippy::too_many_arguments)]
pub fn push_contact<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    a: u8,
    b: u8,
    point: Vec3<Fx2>,
    normal: Vec3,
    depth: Fx1,
    mu: Fx1,
    s: &ContactSettings,
) {
    let lever = |i: u8| -> Vec3 {
        if i == STATIC {
            Vec3::ZERO
        } else {
            (point - bodies[i as usize].pos).lower()
        }
    };
    let (ra, rb) = (lever(a), lever(b));
    let target = if depth > Fx1::ZERO {
        let push = (depth - s.slop).max(Fx1::ZERO);
        Fx2::from_raw(div_dt((push * s.erp).raw()))
    } else {
        Fx2::from_raw(div_dt(depth.raise().raw()))
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
    let Some(n) = rows.push(row(normal, target).bounded(Fx2::ZERO, UNBOUNDED)) else {
        return;
    };
    let (t1, t2) = perpendicular_basis(normal);
    for t in [t1, t2] {
        let mut f = row(t, Fx2::ZERO);
        f.friction_of = n;
        f.mu = mu;
        rows.push(f);
    }
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
    let mut count = 0;
    for c in corners(body.half) {
        let p = body.world_point(c);
        let depth = -(plane.normal.dot(p) - Fx3::from(plane.offset)).lower_to_fx1();
        if depth > -s.margin {
            push_contact(
                rows,
                bodies,
                STATIC,
                i,
                p,
                plane.normal,
                depth,
                body.friction,
                s,
            );
            count += 1;
        }
    }
    count
}

/// Contacts between boxes `i` and `j` (each one's corners inside the
/// other); returns how many.
#[inline(never)]
pub fn box_box<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    i: u8,
    j: u8,
    s: &ContactSettings,
) -> usize {
    let (bi, bj) = (&bodies[i as usize], &bodies[j as usize]);
    let reach = bi.half.length() + bj.half.length() + s.margin;
    let d = (bi.pos - bj.pos).lower();
    if d.length_squared() > reach * reach {
        return 0;
    }
    let mu = bi.friction.min(bj.friction);
    corners_in_box(rows, bodies, i, j, mu, s) + corners_in_box(rows, bodies, j, i, mu, s)
}

/// Contacts of box `i`'s corners inside box `j` (normal from `j` to `i`).
fn corners_in_box<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    i: u8,
    j: u8,
    mu: Fx1,
    s: &ContactSettings,
) -> usize {
    let (bi, bj) = (&bodies[i as usize], &bodies[j as usize]);
    let h = bj.half.to_array();
    let mut count = 0;
    for c in corners(bi.half) {
        let p = bi.world_point(c);
        let local = bj.mat.transpose_mul_vec((p - bj.pos).lower()).to_array();
        // Distance inside each face pair; all must exceed -margin.
        let mut best = 0;
        let mut best_pen = Fx1::MAX;
        let mut inside = true;
        for k in 0..3 {
            let pen = h[k] - local[k].abs();
            if pen <= -s.margin {
                inside = false;
                break;
            }
            if pen < best_pen {
                best_pen = pen;
                best = k;
            }
        }
        if !inside {
            continue;
        }
        let n = bj.mat.cols[best];
        let n = if local[best] < Fx1::ZERO { -n } else { n };
        push_contact(rows, bodies, j, i, p, n, best_pen, mu, s);
        count += 1;
    }
    count
}
