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
use super::iso::{IsoPair, IsoRow};
use super::joint::perpendicular_basis;
use super::row::{Row, Rows, NO_NORMAL, UNBOUNDED};

pub use super::box_pair::{box_box, box_box_near};

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

/// The normal row of contact `c` where body `b` touches body `a` (either
/// may be [`STATIC`]); `n` points from `a` to `b`. Returns its index
/// (`None`: the buffer is full).
fn push_normal<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    (a, b): (u8, u8),
    c: &Contact,
    n: Vec3,
    s: &ContactSettings,
    key: u16,
) -> Option<u16> {
    let (point, target) = (c.point, normal_target(c.depth, s));
    rows.push_with(|row| {
        linear_row(row, bodies, (a, b), point, n, target, key);
        row.lo = Fx2::ZERO;
    })
}

/// The target velocity of a contact's normal row at penetration `depth`
/// (negative: a speculative gap).
#[inline(always)]
fn normal_target(depth: Fx2, s: &ContactSettings) -> Fx2 {
    // Depth is FX2: in FX1 its 0.12 mm rounding becomes +-7 mm/s of
    // target velocity noise at 60 Hz, enough to rock a stack.
    if depth > Fx2::ZERO {
        let push = (depth - s.slop.raise()).max(Fx2::ZERO);
        Fx2::from_raw(div_dt((push * s.erp).lower().raw()))
    } else {
        Fx2::from_raw(div_dt(depth.raw()))
    }
}

/// Writes into `out` the row along unit `dir` at world `point` between
/// `a` and `b`. Into the list's own slot ([`Rows::push_with`]): returned
/// by value, each row was built on the stack and copied, 80 bytes, into
/// the list.
fn linear_row(
    out: &mut Row,
    bodies: &[Body],
    (a, b): (u8, u8),
    point: Vec3<Fx2>,
    dir: Vec3,
    target: Fx2,
    key: u16,
) {
    let lever = |i: u8| -> [i32; 3] {
        if i == STATIC {
            [0; 3]
        } else {
            lever_of(point, bodies[i as usize].pos)
        }
    };
    *out = Row {
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
    };
}

/// The warm-start key of a contact's normal row at `feature` (its
/// friction rows add 1 and 2).
fn contact_key(feature: u16) -> u16 {
    CONTACT_KEY | (feature << 2)
}

/// The first feature of a patch's friction rows (above every corner
/// feature), plus its face: keys `| 1`, `| 2` (the tangents) and `| 3`
/// (the twist).
const PATCH_FEATURE: u16 = 16;

/// The most points a patch holds: a box-box pair has at most 3 corners of
/// one box and 8 of the other (the second box's are taken only when the
/// first gave fewer than four), a box on a plane 8.
const PATCH_POINTS: usize = 12;

/// The fewest points whose friction a patch shares.
const PATCH_MIN: usize = 3;

/// Largest in-patch offset kept, FX1 raw (8 m): `|d|^2 < 2^32`, and the
/// sums over a patch's 12 points far within `i64`.
const PATCH_REACH: i32 = 1 << 15;

/// The centre of `points` as an offset from the first (FX1), and their
/// root-mean-square distance from it (FX1). Neither the DS's divider nor
/// its square-root unit: replacing their four divisions and a root a
/// patch took about 0.1 ms off scene (c)'s worst frame in DeSmuME
/// (`make profile SCENE=c STRESS=1 EMULATOR=desmume`, `rb contacts`).
/// `points` is not empty. Out of line: one copy
/// for both forms of a patch's rows.
#[inline(never)]
fn centre_and_radius(points: &[Contact]) -> (Vec3, Fx1) {
    let origin = points[0].point;
    let (mut sum, mut square) = ([0i64; 3], 0i64);
    for c in points {
        // `(c.point - origin).lower()` clamped, in 32 bits.
        let d = [
            lowered_offset::<PATCH_REACH>(c.point.x, origin.x),
            lowered_offset::<PATCH_REACH>(c.point.y, origin.y),
            lowered_offset::<PATCH_REACH>(c.point.z, origin.z),
        ]
        .map(|x| x as i64);
        for (s, x) in sum.iter_mut().zip(d) {
            *s += x;
        }
        square += d.iter().map(|x| x * x).sum::<i64>();
    }
    // At most PATCH_POINTS (12) points, each offset below 2^15 a
    // component: |sum| < 2^19 and square < 2^36, within the reciprocal
    // division's 2^40, whose quotients are the divider's to the bit.
    let n = points.len() as u32;
    let mean = sum.map(|x| crate::divsqrt::div_small_i64(x, n));
    // E|d|^2 - |E d|^2 (Q24; not negative up to the means' rounding, and
    // below 3 * 2^30: the table root's range).
    let mean2: i64 = mean.iter().map(|x| x * x).sum();
    let spread = crate::divsqrt::div_small_i64(square, n) - mean2;
    let r = crate::fx::rsqrt::sqrt_floor_u32(spread.clamp(0, u32::MAX as i64) as u32) as i32;
    let centre = Vec3::new(mean[0] as i32, mean[1] as i32, mean[2] as i32).map(Fx1::from_raw);
    (centre, Fx1::from_raw(r))
}

/// The contacts that share one normal between one pair of bodies (a box
/// on the ground, a box on a box), gathered, then pushed as rows.
///
/// One or two points keep their own two friction rows each, bounded by
/// `mu` times their normal impulse. Three or more share three rows,
/// bounded by `mu` times the sum of the patch's normal impulses: two
/// tangents at the patch's centre, and a twist about the normal whose
/// coefficient is `mu` times the points' root-mean-square distance from
/// that centre (for corners at one distance `r` carrying equal loads,
/// the torque that stops a spin along a tangent is `mu r sum lambda`, as
/// with a pair of rows at each corner). A box resting on a face has 7
/// rows instead of 12, so piles and feet cost 40 % fewer rows to prepare
/// and sweep (issue 20).
///
/// The centre and the radius are the points' own, speculative ones
/// included: a centre of the pressed points alone (`depth > 0`), or one
/// weighed by the normals' warm starts, tumbled the Armed Mine in its
/// basic crawl (`tests/rigid_armed_mine.rs`).
///
/// A shared patch's friction rows go before its normal rows, so they are
/// swept first, as Box2D orders them. After its normals, a shot pile of
/// cubes kept rocking at 0.05 m/s and fell asleep 167 frames after the
/// shot, not 80 (`cargo run --release --example box_of_boxes_settle`).
/// One or two points push their normals, then their friction rows: the
/// friction first there put the powered ragdoll's worst joint drift over
/// a minute of pushes at 10.1 cm, over its test's 10 cm.
pub struct Patch {
    pair: (u8, u8),
    normal: Normal,
    mu: Fx1,
    /// Which face gave the normal and its friction basis (0-5, part of
    /// the friction rows' keys).
    face: u8,
    points: [Contact; PATCH_POINTS],
    count: u8,
}

/// One point of a [`Patch`].
#[derive(Clone, Copy)]
struct Contact {
    point: Vec3<Fx2>,
    depth: Fx2,
    feature: u16,
}

impl Contact {
    /// An unused slot: a constant, so that a patch's slots are cleared
    /// with one `memset`, not twelve calls of 34 bytes.
    const ZERO: Contact = Contact {
        point: Vec3::new(Fx2::ZERO, Fx2::ZERO, Fx2::ZERO),
        depth: Fx2::ZERO,
        feature: 0,
    };
}

impl Patch {
    /// An empty patch between `a` and `b` (`normal.n` from `a` to `b`).
    pub fn new(a: u8, b: u8, normal: Normal, mu: Fx1) -> Patch {
        Patch {
            pair: (a, b),
            normal,
            mu,
            face: 0,
            points: [Contact::ZERO; PATCH_POINTS],
            count: 0,
        }
    }

    /// Empties `self` as [`Patch::new`] would make it, in place: the
    /// points beyond the count are never read, so they are not cleared
    /// (a step's pairs reuse one patch instead of clearing 500 bytes
    /// each; `make insn-count PCPROFILE=boxes`).
    #[inline(always)]
    pub fn restart(&mut self, a: u8, b: u8, normal: Normal, mu: Fx1) {
        self.pair = (a, b);
        self.normal = normal;
        self.mu = mu;
        self.face = 0;
        self.count = 0;
    }

    /// Puts the patch on face `face` (0-5) of a pair: its friction rows
    /// are keyed by it, so that a normal that moves to another face, whose
    /// basis differs, starts its friction afresh instead of warm-starting
    /// along the old basis. (A setter, not a builder: the patch is 500
    /// bytes, and a builder copied it.)
    pub fn set_face(&mut self, face: usize) {
        self.face = face as u8;
    }

    /// Points added.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// True before the first point.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Adds a contact at world `point`, `depth > 0` its penetration;
    /// `feature` (below 16, the patch's own) names it for the warm start.
    /// Points beyond the twelfth are dropped (no pair of boxes has more).
    pub fn add(&mut self, point: Vec3<Fx2>, depth: Fx2, feature: u16) {
        if let Some(c) = self.points.get_mut(self.count as usize) {
            *c = Contact {
                point,
                depth,
                feature,
            };
            self.count += 1;
        }
    }

    /// Pushes the patch's rows: straight in solver form when the list
    /// takes them so ([`Rows::begin_contacts`]; into the DTCM buffer
    /// `near` while it has room), else as [`Row`]s.
    #[inline(always)]
    pub fn finish<const R: usize>(
        &self,
        rows: &mut Rows<R>,
        near: &mut [IsoRow],
        bodies: &[Body],
        s: &ContactSettings,
    ) {
        if rows.direct() {
            self.finish_iso(rows, near, bodies, s);
        } else {
            self.finish_rows(rows, bodies, s);
        }
    }

    /// [`Patch::finish`] as [`Row`]s.
    #[inline(never)]
    fn finish_rows<const R: usize>(
        &self,
        rows: &mut Rows<R>,
        bodies: &[Body],
        s: &ContactSettings,
    ) {
        let points = &self.points[..self.count as usize];
        if points.len() < PATCH_MIN {
            // Each point its own friction, bounded by its own normal,
            // after both normals.
            let first = rows.len() as u16;
            self.push_normals(rows, bodies, s);
            for (n, c) in (first..).zip(points) {
                let key = contact_key(c.feature);
                self.push_friction(rows, bodies, c.point, key, n, 1);
            }
            return;
        }
        let (centre, r) = centre_and_radius(points);
        // The normal rows follow the three friction rows.
        let first = (rows.len() + 3).min(u16::MAX as usize) as u16;
        let count = points.len() as u8;
        let key = contact_key(PATCH_FEATURE + self.face as u16);
        let point = points[0].point + centre.raise();
        self.push_friction(rows, bodies, point, key, first, count);
        let (a, b) = self.pair;
        let mut twist = Row::angular(a, b, self.normal.n, Fx2::ZERO).keyed(key | 3);
        twist.friction_of = first;
        twist.normals = count;
        twist.mu = self.mu.mul_lower(r);
        rows.push(twist);
        self.push_normals(rows, bodies, s);
    }

    /// [`Patch::finish_rows`] straight into the isotropic solver form: the
    /// same rows in the same order, each built from its point's levers
    /// (found once a point) without a [`Row`] between.
    #[inline(never)]
    fn finish_iso<const R: usize>(
        &self,
        rows: &mut Rows<R>,
        near: &mut [IsoRow],
        bodies: &[Body],
        s: &ContactSettings,
    ) {
        let points = &self.points[..self.count as usize];
        // The patch's rows, all in the DTCM buffer or none.
        let shared = points.len() >= PATCH_MIN;
        let count = if shared {
            3 + points.len()
        } else {
            3 * points.len()
        };
        rows.reserve_near(count, near.len());
        let Some(pair) = rows.iso_pair(self.pair) else {
            return;
        };
        let (a, b) = self.pair;
        let centre = |i: u8| (i != STATIC).then(|| bodies[i as usize].pos);
        let (ca, cb) = (centre(a), centre(b));
        let levers = |point: Vec3<Fx2>| -> Levers {
            let of = |c: Option<Vec3<Fx2>>| c.map_or([0; 3], |c| lever_of(point, c));
            [of(ca), of(cb)]
        };
        let mut at = [[[0; 3]; 2]; PATCH_POINTS];
        for (l, c) in at.iter_mut().zip(points) {
            *l = levers(c.point);
        }
        let at = &at[..points.len()];
        let tangents = [(1, &self.normal.t1), (2, &self.normal.t2)];
        if !shared {
            // As `finish_rows`: both normals, then each point's friction.
            let first = rows.len() as u16;
            self.push_iso_normals(rows, near, &pair, at, s);
            for ((k, c), lever) in (first..).zip(points).zip(at) {
                for (bit, t) in tangents {
                    let key = contact_key(c.feature) | bit;
                    let row = ContactRow::linear(lever, t, 0, key, Some((k, 1, self.mu)));
                    rows.push_contact(near, &pair, &row);
                }
            }
            return;
        }
        let (offset, r) = centre_and_radius(points);
        let first = (rows.len() + 3).min(u16::MAX as usize) as u16;
        let count = points.len() as u8;
        let key = contact_key(PATCH_FEATURE + self.face as u16);
        let lever = levers(points[0].point + offset.raise());
        for (bit, t) in tangents {
            let row = ContactRow::linear(&lever, t, 0, key | bit, Some((first, count, self.mu)));
            rows.push_contact(near, &pair, &row);
        }
        let axis = self.normal.n.raw();
        let twist = ContactRow {
            jacobian: [[0; 3], axis.map(|c| -c), axis],
            target: 0,
            key: key | 3,
            link: Some((first, count, self.mu.mul_lower(r))),
        };
        rows.push_contact(near, &pair, &twist);
        self.push_iso_normals(rows, near, &pair, at, s);
    }

    /// The normal row of each point, in order, at its levers `at`.
    #[inline(never)]
    fn push_iso_normals<const R: usize>(
        &self,
        rows: &mut Rows<R>,
        near: &mut [IsoRow],
        pair: &IsoPair,
        at: &[Levers],
        s: &ContactSettings,
    ) {
        for (c, lever) in self.points.iter().zip(at) {
            let target = normal_target(c.depth, s).raw();
            let row =
                ContactRow::linear(lever, &self.normal.n, target, contact_key(c.feature), None);
            rows.push_contact(near, pair, &row);
        }
    }

    /// A normal row for each point, in order.
    fn push_normals<const R: usize>(
        &self,
        rows: &mut Rows<R>,
        bodies: &[Body],
        s: &ContactSettings,
    ) {
        for c in &self.points[..self.count as usize] {
            let key = contact_key(c.feature);
            push_normal(rows, bodies, self.pair, c, self.normal.n, s, key);
        }
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
            rows.push_with(|row| {
                linear_row(row, bodies, self.pair, point, *t, Fx2::ZERO, key | k);
                row.friction_of = first;
                row.normals = count;
                row.mu = self.mu;
            });
        }
    }
}

/// A contact point's levers from the centres of bodies `a` and `b` (FX1
/// raw, [`lever_of`]; zero for the static world).
type Levers = [[i32; 3]; 2];

/// A contact row as `Rows::push_contact` builds it in solver form: its
/// Jacobian (`lin`, `ang_a`, `ang_b`, FX1 raw), target (FX2 raw), key,
/// and for a friction row its first normal row, their count and `mu`.
pub struct ContactRow {
    /// `lin`, `ang_a`, `ang_b`.
    pub jacobian: [[i32; 3]; 3],
    /// Target `J v`, FX2 raw.
    pub target: i64,
    /// Warm-start key.
    pub key: u16,
    /// A friction row's normal rows and `mu` (`None`: a normal row).
    pub link: Option<(u16, u8, Fx1)>,
}

impl ContactRow {
    /// The row along unit `dir` at `levers`, as [`linear_row`] builds it.
    #[inline(never)]
    fn linear(
        [ra, rb]: &Levers,
        dir: &Vec3,
        target: i64,
        key: u16,
        link: Option<(u16, u8, Fx1)>,
    ) -> ContactRow {
        let ang_a = lever_cross_raw(*ra, dir).map(|c| -c);
        ContactRow {
            jacobian: [dir.raw(), ang_a, lever_cross_raw(*rb, dir)],
            target,
            key,
            link,
        }
    }
}

/// Largest lever component of a contact row, FX1 raw (32 m).
const MAX_LEVER: i32 = 1 << 17;

/// `point - centre` lowered to FX1 and clamped to +-[`MAX_LEVER`] (so
/// that `lever_cross` fits 32 bits; a contact point is inside its box:
/// levers are box-sized). In 32-bit instructions where the difference
/// fits an `i32` (128 m), which is every lever short of the clamp: the
/// same values as `(point - centre).lower()` clamped, for a fifth of the
/// instructions of the 64-bit roundings and saturations (`make
/// insn-count PCPROFILE=boxes`).
#[inline(always)]
fn lever_of(point: Vec3<Fx2>, centre: Vec3<Fx2>) -> [i32; 3] {
    // Component by component, not `array::map`: that was a call a
    // component, from main RAM.
    [
        lever_component(point.x, centre.x),
        lever_component(point.y, centre.y),
        lever_component(point.z, centre.z),
    ]
}

/// One component of [`lever_of`].
#[inline(always)]
fn lever_component(p: Fx2, c: Fx2) -> i32 {
    lowered_offset::<MAX_LEVER>(p, c)
}

/// `(p - c).lower()` clamped to `+-LIMIT` (FX1 raw, at most `2^19`), in
/// 32-bit instructions where the difference fits an `i32`.
#[inline(always)]
fn lowered_offset<const LIMIT: i32>(p: Fx2, c: Fx2) -> i32 {
    const { assert!(LIMIT <= 1 << 19) };
    let d = p.raw().wrapping_sub(c.raw());
    let low = d as i32;
    if low as i64 == d {
        round_shr32(low, 12).clamp(-LIMIT, LIMIT)
    } else if d > 0 {
        // At least 2^31 Q24, 2^19 once lowered: past the clamp.
        LIMIT
    } else {
        -LIMIT
    }
}

/// `r x d` lowered to FX1 (rounded as `lower`), for a lever `r` within
/// [`MAX_LEVER`] and a unit `d` (components at most `2^12`): each product
/// is below `2^29`, each difference below `2^30`, so 32 bits hold it and
/// the result equals `Vec3::cross(..).lower()` in 64 bits.
#[inline(always)]
fn lever_cross(r: [i32; 3], d: Vec3) -> Vec3 {
    let [x, y, z] = lever_cross_raw(r, &d);
    Vec3::new(x, y, z).map(Fx1::from_raw)
}

/// [`lever_cross`] as raw FX1 components.
#[inline(always)]
fn lever_cross_raw(r: [i32; 3], d: &Vec3) -> [i32; 3] {
    let [x, y, z] = d.raw();
    let low = |v: i32| round_shr32(v, 12);
    [
        low(r[1] * z - r[2] * y),
        low(r[2] * x - r[0] * z),
        low(r[0] * y - r[1] * x),
    ]
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
#[inline(always)]
pub fn box_plane<const R: usize>(
    rows: &mut Rows<R>,
    bodies: &[Body],
    i: u8,
    plane: &Plane,
    s: &ContactSettings,
) -> usize {
    let mut patch = Patch::new(0, 0, GROUND_NORMAL, Fx1::ZERO);
    box_plane_near(rows, &mut [], &mut patch, bodies, i, plane, s)
}

/// [`box_plane`] with the DTCM buffer `near` ([`Rows::begin_contacts`])
/// and a scratch `patch`.
#[inline(never)]
pub fn box_plane_near<const R: usize>(
    rows: &mut Rows<R>,
    near: &mut [IsoRow],
    patch: &mut Patch,
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
    patch.restart(STATIC, i, normal, body.friction);
    for (k, c) in corners(body.half).into_iter().enumerate() {
        let p = body.world_point(c);
        let depth = -(plane.normal.dot(p) - Fx3::from(plane.offset)).lower();
        if depth > -s.margin.raise() {
            patch.add(p, depth, k as u16);
        }
    }
    patch.finish(rows, near, bodies, s);
    patch.len()
}

#[cfg(test)]
mod tests {
    use super::{lever_of, lowered_offset, MAX_LEVER, PATCH_REACH};
    use crate::fx::{Fx2, Vec3};

    /// The form `lever_of` replaced: 64-bit lowering, then the clamp.
    fn wide(point: Vec3<Fx2>, centre: Vec3<Fx2>) -> [i32; 3] {
        (point - centre)
            .lower()
            .raw()
            .map(|c| c.clamp(-MAX_LEVER, MAX_LEVER))
    }

    #[test]
    fn lever_of_is_the_wide_lever() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // Q24 positions within +-1000 m (2^34), differences from a few
        // units to past the 32-bit and clamp bounds, ties included.
        let edges = [
            0i64,
            2048,
            -2048,
            2047,
            -2049,
            (1 << 31) - 1,
            -(1 << 31),
            1 << 31,
            -(1 << 31) - 1,
            (MAX_LEVER as i64) << 12,
            -((MAX_LEVER as i64) << 12) - 2048,
            (PATCH_REACH as i64) << 12,
            ((PATCH_REACH as i64) << 12) + 2048,
            -((PATCH_REACH as i64) << 12) - 2049,
        ];
        let mut cases = 0;
        for _ in 0..100_000 {
            let base = (next() as i64) >> 30;
            let diff = ((next() as i64) >> (next() % 64)).clamp(-(1 << 35), 1 << 35);
            let pick = edges[(next() % edges.len() as u64) as usize];
            for d in [diff, pick] {
                let c = Vec3::new(base, -base, base / 3).map(Fx2::from_raw);
                let p = Vec3::new(base + d, -base - d, base / 3 + d / 2).map(Fx2::from_raw);
                assert_eq!(lever_of(p, c), wide(p, c), "{d}");
                // The patch centre's offsets: the same, clamped tighter.
                let near = (p - c).lower().raw()[0].clamp(-PATCH_REACH, PATCH_REACH);
                assert_eq!(lowered_offset::<PATCH_REACH>(p.x, c.x), near, "{d}");
                cases += 1;
            }
        }
        assert!(cases >= 200_000);
    }
}
