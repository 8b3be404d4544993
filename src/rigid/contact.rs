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

use crate::fx::power::round_shr32;
use crate::fx::{Fx1, Fx2, Fx3, Vec3};

use super::body::{Body, STATIC};
use super::div_dt;
use super::joint::perpendicular_basis;
use super::row::{Row, Rows, NO_NORMAL, UNBOUNDED};

pub use super::box_pair::box_box;

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

/// Corner `k` of a box in body-local coordinates: bit 0 of `k` picks
/// `+x`, bit 1 `+y`, bit 2 `+z` (clear: the minus side).
#[inline]
pub fn corner(half: Vec3, k: usize) -> Vec3 {
    let s = |bit: usize, h: Fx1| if k & bit != 0 { h } else { -h };
    Vec3::new(s(1, half.x), s(2, half.y), s(4, half.z))
}

/// The eight corners of a box in body-local coordinates ([`corner`]).
#[inline]
pub fn corners(half: Vec3) -> [Vec3; 8] {
    let mut out = [Vec3::ZERO; 8];
    for (k, c) in out.iter_mut().enumerate() {
        *c = corner(half, k);
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
    let lever = |i: u8| -> [i32; 3] {
        if i == STATIC {
            [0; 3]
        } else {
            // Clamped to +-32 m, so that `lever_cross` fits 32 bits (a
            // contact point is inside its box: levers are box-sized).
            (point - bodies[i as usize].pos)
                .lower()
                .raw()
                .map(|c| c.clamp(-MAX_LEVER, MAX_LEVER))
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
    let key = CONTACT_KEY | (feature << 2);
    let row = |dir: Vec3, target: Fx2, key: u16| Row {
        a,
        b,
        lin: dir,
        ang_a: -lever_cross(ra, dir),
        ang_b: lever_cross(rb, dir),
        target,
        lo: -UNBOUNDED,
        hi: UNBOUNDED,
        friction_of: NO_NORMAL,
        mu: Fx1::ZERO,
        lambda: Fx2::ZERO,
        key,
    };
    let mut normal_row = row(normal.n, target, key);
    normal_row.lo = Fx2::ZERO;
    let Some(n) = rows.push(normal_row) else {
        return;
    };
    for (k, t) in [(1, &normal.t1), (2, &normal.t2)] {
        let mut f = row(*t, Fx2::ZERO, key | k);
        f.friction_of = n;
        f.mu = mu;
        rows.push(f);
    }
}

/// Largest lever component of a contact row, FX1 raw (32 m).
const MAX_LEVER: i32 = 1 << 17;

/// `r x d` lowered to FX1 (rounded as `lower`), for a lever `r` within
/// [`MAX_LEVER`] and a unit `d` (components at most `2^12`): each product
/// is below `2^29`, each difference below `2^30`, so 32 bits hold it and
/// the result equals `Vec3::cross(..).lower()` in 64 bits.
#[inline(always)]
fn lever_cross(r: [i32; 3], d: Vec3) -> Vec3 {
    let [x, y, z] = d.raw();
    let low = |v: i32| Fx1::from_raw(round_shr32(v, 12));
    Vec3::new(
        low(r[1] * z - r[2] * y),
        low(r[2] * x - r[0] * z),
        low(r[0] * y - r[1] * x),
    )
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
