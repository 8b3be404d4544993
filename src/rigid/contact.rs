//! Contacts as rows: boxes against a plane and against each other. Each
//! contact is a normal row with `lambda >= 0` (seed 000: contacts push,
//! never pull); the contacts that share a normal form a [`Patch`], whose
//! friction rows are bounded by `mu` times its normal impulses.
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

    /// The face normal along column `k` of rotation `cols` (negated when
    /// `flip`), with the other two columns as its friction basis, ordered
    /// so that `t1 x t2 = n`: no square root or division, and the basis
    /// turns with the face, so that a friction impulse warm-starts along
    /// the same edges every step.
    pub fn of_face(cols: &[Vec3; 3], k: usize, flip: bool) -> Normal {
        let (n, u, v) = (cols[k % 3], cols[(k + 1) % 3], cols[(k + 2) % 3]);
        if flip {
            Normal {
                n: -n,
                t1: v,
                t2: u,
            }
        } else {
            Normal { n, t1: u, t2: v }
        }
    }
}

/// The ground plane's normal and friction basis, worked out once
/// (`Normal::new(Vec3::Y)`, which `tests/rigid_units.rs` checks).
pub const GROUND_NORMAL: Normal = Normal {
    n: Vec3::Y,
    t1: Vec3::Z,
    t2: Vec3::X,
};

/// The normal row of a contact at world `point` where body `b` touches
/// body `a` (either may be [`STATIC`]); `normal.n` points from `a` to `b`,
/// `depth > 0` is penetration. Returns its index (`None`: the buffer is
/// full).
#[allow(clippy::too_many_arguments)]
fn push_normal<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    (a, b): (u8, u8),
    point: Vec3<Fx2>,
    n: Vec3,
    depth: Fx2,
    s: &ContactSettings,
    key: u16,
) -> Option<u16> {
    // Depth is FX2: in FX1 its 0.12 mm rounding becomes +-7 mm/s of
    // target velocity noise at 60 Hz, enough to rock a stack.
    let target = if depth > Fx2::ZERO {
        let push = (depth - s.slop.raise()).max(Fx2::ZERO);
        Fx2::from_raw(div_dt((push * s.erp).lower().raw()))
    } else {
        Fx2::from_raw(div_dt(depth.raw()))
    };
    let mut row = linear_row(bodies, (a, b), point, n, target, key);
    row.lo = Fx2::ZERO;
    rows.push(row)
}

/// A row along unit `dir` at world `point` between `a` and `b`.
fn linear_row(
    bodies: &[Body],
    (a, b): (u8, u8),
    point: Vec3<Fx2>,
    dir: Vec3,
    target: Fx2,
    key: u16,
) -> Row {
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
    Row {
        a,
        b,
        lin: dir,
        ang_a: -lever_cross(lever(a), dir),
        ang_b: lever_cross(lever(b), dir),
        target,
        lo: -UNBOUNDED,
        hi: UNBOUNDED,
        friction_of: NO_NORMAL,
        normals: 0,
        mu: Fx1::ZERO,
        lambda: Fx2::ZERO,
        key,
    }
}

/// The warm-start key of a contact's normal row at `feature` (its
/// friction rows add 1 and 2).
fn contact_key(feature: u16) -> u16 {
    CONTACT_KEY | (feature << 2)
}

/// The feature of a patch's friction rows (above every corner feature):
/// keys `| 1`, `| 2` (the tangents) and `| 3` (the twist).
const PATCH_FEATURE: u16 = 16;

/// The most points a patch sums (two boxes' corners).
const PATCH_POINTS: u32 = 16;

/// The fewest points whose friction a patch shares.
const PATCH_MIN: u8 = 3;

/// The contacts that share one normal between one pair of bodies (a box
/// on the ground, a box on a box): a normal row per point, then friction
/// for the whole patch.
///
/// One point keeps its own two friction rows, bounded by `mu` times its
/// normal impulse. Two or more share three rows at the patch's centre,
/// bounded by `mu` times the sum of the patch's normal impulses: two
/// tangents, and a twist about the normal whose coefficient is `mu`
/// times the points' root-mean-square distance from the centre (for
/// corners at one distance `r` carrying equal loads, the torque that
/// stops a spin is `mu r sum lambda`, as with a pair of rows at each
/// corner). A box resting on a face has 7 rows instead of 12, so piles
/// and feet cost 40 % fewer rows to prepare and sweep (issue 20).
pub struct Patch {
    pair: (u8, u8),
    normal: Normal,
    mu: Fx1,
    /// The first point (the others are summed relative to it, so the sums
    /// stay small).
    origin: Vec3<Fx2>,
    /// Sums over the points of `p - origin` (FX1 raw) and of its square
    /// length (Q24).
    sum: [i64; 3],
    square: i64,
    /// How many points the sums hold: the pressed ones (`depth > 0`)
    /// once there is one, else the speculative ones.
    summed: i64,
    pressed: bool,
    /// The first normal row, and how many followed it.
    first: u16,
    count: u8,
    /// The first points and their features, for a patch too small to
    /// share its friction.
    points: [(Vec3<Fx2>, u16); PATCH_MIN as usize - 1],
}

impl Patch {
    /// An empty patch between `a` and `b` (`normal.n` from `a` to `b`).
    pub fn new(a: u8, b: u8, normal: Normal, mu: Fx1) -> Patch {
        Patch {
            pair: (a, b),
            normal,
            mu,
            origin: Vec3::default(),
            sum: [0; 3],
            square: 0,
            summed: 0,
            pressed: false,
            first: 0,
            count: 0,
            points: [(Vec3::default(), 0); PATCH_MIN as usize - 1],
        }
    }

    /// Points added.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// True before the first point.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Pushes the normal row of a contact at world `point`, `depth > 0`
    /// its penetration; `feature` (below 16, the patch's own) names it for
    /// the warm start.
    #[allow(clippy::too_many_arguments)]
    pub fn add<const R: usize>(
        &mut self,
        rows: &mut Rows<R>,
        bodies: &[Body],
        point: Vec3<Fx2>,
        depth: Fx2,
        s: &ContactSettings,
        feature: u16,
    ) {
        if self.count as u32 >= PATCH_POINTS {
            return;
        }
        let key = contact_key(feature);
        let Some(i) = push_normal(rows, bodies, self.pair, point, self.normal.n, depth, s, key)
        else {
            return;
        };
        if self.count == 0 {
            self.origin = point;
            self.first = i;
        }
        if let Some(p) = self.points.get_mut(self.count as usize) {
            *p = (point, feature);
        }
        self.count += 1;
        // The friction acts where the load is: a rocking box's speculative
        // corners carry none, and a centre among them gave the friction a
        // lever the corner rows never had.
        let pressed = depth > Fx2::ZERO;
        if pressed && !self.pressed {
            self.pressed = true;
            (self.sum, self.square, self.summed) = ([0; 3], 0, 0);
        } else if !pressed && self.pressed {
            return;
        }
        // Clamped to +-32 m (2^17 raw): a square length below 2^36, sums
        // of 16 below 2^40.
        let d = (point - self.origin)
            .lower()
            .raw()
            .map(|c| c.clamp(-MAX_LEVER, MAX_LEVER) as i64);
        for (s, c) in self.sum.iter_mut().zip(d) {
            *s += c;
        }
        self.square += d.iter().map(|c| c * c).sum::<i64>();
        self.summed += 1;
    }

    /// Pushes the patch's friction rows (none for an empty patch).
    pub fn finish<const R: usize>(self, rows: &mut Rows<R>, bodies: &[Body]) {
        let n = self.count as i64;
        if n == 0 {
            return;
        }
        let normal = &self.normal;
        if self.count < PATCH_MIN {
            // Each point its own friction, bounded by its own normal.
            for (i, &(point, feature)) in self.points[..self.count as usize].iter().enumerate() {
                let n = self.first + i as u16;
                self.push_friction(rows, bodies, point, contact_key(feature), n, 1);
            }
            return;
        }
        // The DS's divider, not a 64-bit division in software.
        let n = self.summed.max(1);
        let mean = self.sum.map(|c| crate::divsqrt::div_auto(c, n));
        // Mean square distance from the centre: E|d|^2 - |E d|^2 (Q24, not
        // negative up to the means' truncation).
        let mean2: i64 = mean.iter().map(|c| c * c).sum();
        let spread = crate::divsqrt::div_auto(self.square, n) - mean2;
        let r = Fx1::from_raw(crate::divsqrt::sqrt_u64(spread.max(0) as u64) as i32);
        let centre = Vec3::new(mean[0] as i32, mean[1] as i32, mean[2] as i32).map(Fx1::from_raw);
        let key = contact_key(PATCH_FEATURE);
        let point = self.origin + centre.raise();
        self.push_friction(rows, bodies, point, key, self.first, self.count);
        let twist = self.mu.mul_lower(r);
        let (a, b) = self.pair;
        let mut row = Row::angular(a, b, normal.n, Fx2::ZERO).keyed(key | 3);
        row.friction_of = self.first;
        row.normals = self.count;
        row.mu = twist;
        rows.push(row);
    }

    /// The two tangent rows at `point`, bounded by `mu` times the impulses
    /// of the `count` normal rows from `first` on.
    fn push_friction<const R: usize>(
        &self,
        rows: &mut Rows<R>,
        bodies: &[Body],
        point: Vec3<Fx2>,
        key: u16,
        first: u16,
        count: u8,
    ) {
        for (k, t) in [(1, &self.normal.t1), (2, &self.normal.t2)] {
            let mut row = linear_row(bodies, self.pair, point, *t, Fx2::ZERO, key | k);
            row.friction_of = first;
            row.normals = count;
            row.mu = self.mu;
            rows.push(row);
        }
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
    let normal = if plane.normal == Vec3::Y {
        GROUND_NORMAL
    } else {
        Normal::new(plane.normal)
    };
    let mut patch = Patch::new(STATIC, i, normal, body.friction);
    for (k, c) in corners(body.half).into_iter().enumerate() {
        let p = body.world_point(c);
        let depth = -(plane.normal.dot(p) - Fx3::from(plane.offset)).lower();
        if depth > -s.margin.raise() {
            patch.add(rows, bodies, p, depth, s, k as u16);
        }
    }
    let count = patch.len();
    patch.finish(rows, bodies);
    count
}
