//! Swept sphere against a triangle (face, edges, vertices) and a world.
//!
//! The sphere's centre moves from `p0` to `p1 = p0 + v` over the step;
//! the time of impact is the fraction of the step in `[0, 1]`, computed as
//! an FX2 value (24 fraction bits, `Hit::t_fine`) and given as FX1
//! (`Hit::t`), both rounded **down**, so that the sphere at `t` does not
//! penetrate.
//!
//! Powers (see `fx::power`): FX1 positions and lengths; FX2 unit vectors
//! (`Dir2`), squared lengths and dot products of FX1 vectors, and times;
//! FX3 signed distances `p · n`; FX4 squared distances of FX2 offsets;
//! FX5 products of an FX3 distance with an FX2 time or direction.
//! Roundings are explicit `lower` calls: an edge's offset `u x w` is kept
//! to 2^-24 units (FX3 -> FX2) before it is squared, so the edge test is
//! as exact as the face and vertex tests; positions handed back (the
//! centre at `t`, touching points) are rounded to FX1.

use crate::fx::{Fx1, Fx2, Fx3, Fx4, Fx5, Vec3};

use super::tree::CollisionWorld;
use super::triangle::{unit_raw, Place, Triangle, ALL_FEATURES};

/// Which part of a triangle was touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// The inside of the face.
    Face,
    /// Edge `i`, from `v[i]` to `v[i+1]`.
    Edge(u8),
    /// Vertex `i`.
    Vertex(u8),
}

/// The first contact of a swept sphere with a triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hit {
    /// Time of impact as a fraction of the step, FX1 in `[0, 1]`, rounded
    /// down. Zero for a sphere that starts overlapping.
    pub t: Fx1,
    /// The same time with 24 fraction bits (FX2), rounded down; contacts
    /// are ordered by it.
    pub t_fine: Fx2,
    /// Where the centre should be: at `t` on the path, or for a sphere
    /// that starts overlapping, the start pushed out along `normal` to
    /// exactly touching.
    pub center: Vec3,
    /// Unit FX1 normal, from the triangle towards the centre.
    pub normal: Vec3,
    /// How deep the sphere started inside the triangle (zero when it did
    /// not start overlapping).
    pub depth: Fx1,
    /// The part of the triangle touched.
    pub feature: Feature,
}

impl Hit {
    /// The touching point on the triangle, for a sphere of radius `r`:
    /// the centre moved `r` against the normal (FX1; not stored, since
    /// the response never needs it and the hit is copied per candidate).
    #[inline]
    pub fn point(&self, r: Fx1) -> Vec3 {
        self.center - (self.normal * r).lower() // FX1 (FX2 lowered)
    }

    /// The order of contacts: earlier first, then the deeper overlap.
    #[inline]
    pub fn before(&self, other: &Hit) -> bool {
        self.t_fine < other.t_fine || (self.t_fine == other.t_fine && self.depth > other.depth)
    }
}

/// A [`Hit`] with the index of the world triangle it is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Contact {
    /// Index into the world's `tris`.
    pub tri: u32,
    /// The contact.
    pub hit: Hit,
}

impl Contact {
    /// The world's order of contacts: [`Hit::before`], then the lower
    /// triangle index (so the answer does not depend on the tree).
    #[inline]
    pub fn before(&self, other: &Contact) -> bool {
        if self.hit.before(&other.hit) {
            true
        } else if other.hit.before(&self.hit) {
            false
        } else {
            self.tri < other.tri
        }
    }
}

/// How far (raw FX1 steps, in the projection plane) outside its edges a
/// touching point still counts as on the face.
const FACE_TOL: i32 = 1;

/// How far behind a plane a touching centre may be and still count as in
/// front (rounding of the centre), FX5: 2 raw FX1 steps.
const FRONT_TOL: Fx5 = Fx5::from_raw(2 << 48);

/// `num / den` as an FX2 fraction in `[0, 1]`, truncated (`num`, `den`
/// FX3; `den > 0`; `num < den <= 4` units keeps the FX5 numerator in
/// range).
#[inline]
fn fraction(num: Fx3, den: Fx3) -> Fx2 {
    if num <= Fx3::ZERO {
        return Fx2::ZERO;
    }
    if num >= den {
        return Fx2::ONE;
    }
    num.raise().raise() / den // FX5 / FX3 = FX2
}

/// `num / den` as an FX2 fraction, for `0 <= num <= den` in FX2
/// (`den <= 16` units keeps the FX4 numerator in range).
#[inline]
fn fraction2(num: Fx2, den: Fx2) -> Fx2 {
    if num <= Fx2::ZERO {
        return Fx2::ZERO;
    }
    num.raise().raise() / den // FX4 / FX2 = FX2
}

/// The FX1 time handed out: the FX2 time rounded down.
#[inline]
fn coarse(t: Fx2) -> Fx1 {
    Fx1::from_raw((t.raw() >> 12) as i32)
}

/// `p0 + v t` rounded to FX1 (FX1·FX2 = FX3, lowered once; `|v|` within
/// `MAX_STEP`, 2^13 raw, per axis and `t` at most 2^24 raw: each product
/// is below 2^37, in range).
#[inline]
fn at(p0: Vec3, v: Vec3, t: Fx2) -> Vec3 {
    p0 + (v * t).map(Fx3::lower_to_fx1_in_range)
}

/// `n r`, FX1 (FX2·FX1 = FX3 lowered; a unit `n`, 2^24 raw, times `r` at
/// most `MAX_RADIUS`, 2^12 raw: below 2^36, in range).
#[inline]
fn normal_times(n: Vec3<Fx2>, r: Fx1) -> Vec3 {
    (n * r).map(Fx3::lower_to_fx1_in_range)
}

/// The unit FX1 vector along an integer vector of any power.
#[inline]
fn unit(c: [i64; 3]) -> Option<Vec3> {
    unit_raw(c, 12).map(|[x, y, z]| Vec3::from_raw(x, y, z))
}

#[inline]
fn raw3<T: Copy>(v: Vec3<T>, f: impl Fn(T) -> i64) -> [i64; 3] {
    [f(v.x), f(v.y), f(v.z)]
}

/// A hit at FX2 time `t`.
#[inline]
fn hit(t: Fx2, center: Vec3, normal: Vec3, depth: Fx1, feature: Feature) -> Hit {
    Hit {
        t: coarse(t),
        t_fine: t,
        center,
        normal,
        depth,
        feature,
    }
}

/// Swept sphere (radius `r`, centre `p0 -> p1`) against one triangle.
///
/// Returns the first contact with the face, an edge or a vertex, or the
/// overlap of a sphere that starts within `r` of the triangle (`t = 0`,
/// `center` pushed out). One-sided: a centre more than `r` behind the
/// plane, or touching an edge or vertex from behind, is ignored.
///
/// Needs `r <= MAX_RADIUS`, `|p1 - p0|` at most `MAX_STEP` per axis and
/// coordinates within `WORLD_LIMIT`.
#[inline]
pub fn sweep_sphere_triangle(tri: &Triangle, p0: Vec3, p1: Vec3, r: Fx1) -> Option<Hit> {
    sweep_triangle(tri, &Sweep { p0, p1, r })
}

/// One sweep of a sphere, shared by every candidate triangle of a round
/// of the response: passed by reference, so that a call costs no copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// Where the centre starts, FX1.
    pub p0: Vec3,
    /// Where it ends, FX1.
    pub p1: Vec3,
    /// The sphere's radius, FX1.
    pub r: Fx1,
}

/// [`sweep_sphere_triangle`] for a [`Sweep`]: the plane tests that
/// reject most candidates inline in the caller's loop, the rest out of
/// line.
#[inline(always)]
pub fn sweep_triangle(tri: &Triangle, s: &Sweep) -> Option<Hit> {
    let Sweep { p0, p1, r } = *s;
    debug_assert!(r >= Fx1::ZERO && r <= super::MAX_RADIUS);
    let r3 = Fx3::from(r); // FX3: r as a distance along n (|n| = 1)
    let s0 = tri.signed_distance(p0); // FX3: signed distance of the start
    if s0 < -r3 {
        return None; // more than r behind: one-sided
    }
    let sv = (p1 - p0).dot(tri.n.fx2()); // FX3: change of the signed distance over the step
    if s0 >= r3 && s0 + sv >= r3 {
        return None; // never within r of the plane: the cheap rejection
    }
    sweep_near_plane(tri, s, s0, sv)
}

/// The farthest a resting sphere's start may be from the plane beyond
/// `r`, FX1: two skins, as far as the response counts a contact as
/// resting (the response leaves a resting sphere a [`SKIN`] off, and the
/// passes after collision move it by a few raw steps either way). At
/// this edge the sweep's contact may lie a little more than two skins of
/// normal travel into the step (the contact's centre and the FX1 normal
/// that measures the travel are rounded; at most 8.74 raw steps in
/// `tests/collision_resting.rs`), where the response would have moved the
/// sphere to the contact and a skin out instead of keeping it still: a
/// raw step or less apart.
///
/// [`SKIN`]: super::SKIN
pub const RESTING_GAP: Fx1 = Fx1::from_raw(2 * super::SKIN.raw());

/// True when the sphere of `s` rests on `tri`'s face, so that
/// [`sweep_triangle`] would report a contact with the face, not
/// overlapping, that the response treats as resting (but at the edge of
/// [`RESTING_GAP`]): the start in front of the plane, at least `r` and at
/// most `r` plus the gap from it, the motion taking it within `r`, and
/// the start's touching point inside the face by at least the step's L1
/// length. The sweep's touching point is the start's moved by the
/// rounded `v t` (`t <= 1`), no longer per axis than `v`, so it is inside
/// the face too ([`Triangle::contains_with_margin`]). Tested over random
/// sweeps, with a case that half the margin gets wrong, in
/// `tests/collision_resting.rs`.
#[inline]
pub fn rests_on(tri: &Triangle, s: &Sweep) -> bool {
    let gap = resting_gap(tri, s.p0, s.r);
    let v = s.p1 - s.p0; // FX1
    gap >= 0 && comes_within(tri, gap, v) && tri.contains_with_margin(touching_point(tri, s), l1(v))
}

/// `s0 - r` (FX3 raw, at most [`RESTING_GAP`]: below 2^27) when the
/// sphere at `p0` is in front of `tri`'s plane, at least `r` and at most
/// `r` plus the gap from it; else -1.
#[inline]
fn resting_gap(tri: &Triangle, p0: Vec3, r: Fx1) -> i32 {
    let r3 = Fx3::from(r); // FX3
    let s0 = tri.signed_distance(p0); // FX3
    if s0 < r3 || s0 > r3 + Fx3::from(RESTING_GAP) {
        -1
    } else {
        (s0 - r3).raw() as i32
    }
}

/// True when the motion `v` takes a sphere `gap` ([`resting_gap`])
/// beyond `r` within `r` of the plane: `s0 + sv < r`.
#[inline]
fn comes_within(tri: &Triangle, gap: i32, v: Vec3) -> bool {
    let sv = v.dot(tri.n.fx2()); // FX3
    Fx3::from_raw(gap as i64) + sv < Fx3::ZERO
}

/// The touching point of the sphere at the start of `s` on `tri`'s
/// plane, FX1.
#[inline]
fn touching_point(tri: &Triangle, s: &Sweep) -> Vec3 {
    s.p0 - normal_times(tri.n.fx2(), s.r)
}

/// The L1 length of a motion, FX1 raw.
#[inline]
fn l1(v: Vec3) -> i32 {
    let [vx, vy, vz] = v.raw();
    vx.abs() + vy.abs() + vz.abs()
}

/// What [`rests_on`] found of one start alone, kept between steps by a
/// particle's [`ContactMemo`](super::resolve::ContactMemo): a particle
/// that lies still starts every step where the last one started, and
/// only the tests of the motion are made again ([`rests_on_kept`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RestMemo {
    /// The triangle it is about ([`NO_TRIANGLE`](super::resolve::NO_TRIANGLE):
    /// nothing kept).
    pub tri: u16,
    /// The start it is about.
    pub at: Vec3,
    /// `s0 - r` (FX3 raw, at most [`RESTING_GAP`]: below 2^27) when the
    /// start is in front of the plane within the resting gap, else -1.
    pub gap: i32,
    /// The start's touching point is inside the face by this L1 margin
    /// ([`Triangle::contains_with_margin`], which holds for every smaller
    /// margin once it holds for one); -1: not known.
    pub margin: i32,
}

impl RestMemo {
    /// Nothing kept.
    pub const NONE: RestMemo = RestMemo {
        tri: u16::MAX,
        at: Vec3::ZERO,
        gap: -1,
        margin: -1,
    };
}

/// The margin a kept touching point is first tested with (FX1 raw, 1.6
/// cm), wider than a lying particle's step, so that the answer serves the
/// next steps' motions too; a point nearer an edge is tested with the
/// step's own margin.
const KEPT_MARGIN: i32 = 64;

/// [`rests_on`] for triangle `ix`, with what it finds of the start kept
/// in `memo` and taken from it when the start and triangle are the same:
/// the same answer (each test is the same; they are only made in another
/// order), but for a still particle three products of the motion instead
/// of the plane's distance and three edge tests. The memo holds for one
/// world and radius (the caller forgets it with the world).
#[inline]
pub fn rests_on_kept(tri: &Triangle, ix: u16, s: &Sweep, memo: &mut RestMemo) -> bool {
    if memo.tri != ix || memo.at != s.p0 {
        *memo = RestMemo {
            tri: ix,
            at: s.p0,
            gap: resting_gap(tri, s.p0, s.r),
            margin: -1,
        };
    }
    let v = s.p1 - s.p0; // FX1
    if memo.gap < 0 || !comes_within(tri, memo.gap, v) {
        return false;
    }
    let l1 = l1(v);
    if l1 <= memo.margin {
        return true;
    }
    let q = touching_point(tri, s);
    let wide = l1.max(KEPT_MARGIN);
    if tri.contains_with_margin(q, wide) {
        memo.margin = wide;
        return true;
    }
    wide != l1 && tri.contains_with_margin(q, l1)
}

/// The rest of [`sweep_triangle`]: the sphere comes within `r` of the
/// plane (`s0` and `sv` as there).
#[inline(never)]
fn sweep_near_plane(tri: &Triangle, s: &Sweep, s0: Fx3, sv: Fx3) -> Option<Hit> {
    let Sweep { p0, p1, r } = *s;
    let n = tri.n.fx2(); // FX2: unit normal
    let r3 = Fx3::from(r); // FX3
    let v = p1 - p0; // FX1: the motion
    let s1 = s0 + sv; // FX3: signed distance of the end
    if s0 >= r3 {
        // Touches the plane at t = (s0 - r) / (s0 - s1).
        let t = fraction(s0 - r3, -sv); // FX2
        let c = at(p0, v, t); // FX1: centre at t
        let nr = normal_times(n, r); // FX1 (FX3 lowered): n r
        let q = c - nr; // FX1: the touching point on the plane

        // A touching point within a raw step or two outside an edge counts
        // as the face (the face, edge and vertex tests round differently;
        // this keeps a gap from opening between them).
        let (far, reach) = locate_bounds(v, r);
        let place = tri.locate(q, FACE_TOL, Some(far), reach);
        match place {
            Place::Inside => return Some(hit(t, c, tri.normal(), Fx1::ZERO, Feature::Face)),
            Place::Far => return None,
            Place::Near | Place::Beside => {}
        }
        // The touching point is off the face: an edge or a vertex may be
        // hit, or the touching point may still move onto the face later
        // (the moment it does, the sphere touches the edge it crosses; the
        // exact edge test finds that contact earlier, this caps rounding).
        let mut best = sweep_features(tri, p0, v, r, s0, sv);
        if place == Place::Beside {
            return best; // the projection cannot move onto the face
        }
        // FX1: the end's projection on the plane (FX2·FX3 = FX5 lowered;
        // |s1| < 8 units). The projection moves linearly, as q does.
        let q1 = p1 - (n * s1).map(Fx5::lower_to_fx1);
        if let Some(entry) = face_entry(tri, q, q1, t, Fx2::ONE, p0, v, s0, sv) {
            if best.is_none_or(|h| entry.before(&h)) {
                best = Some(entry);
            }
        }
        return best;
    }
    // Starts within r of the plane. Inside the face: overlap, push out.
    let q = p0 - (n * s0).map(Fx5::lower_to_fx1); // FX1 (FX2·FX3 = FX5 lowered; |s0| < r <= 1)
    let (far, reach) = locate_bounds(v, r);
    // A triangle with skipped edges owns the points on them: a rounding
    // step of tolerance, so that no gap opens between it and the
    // neighbour whose face stands in for the edge.
    let tol = if tri.features == ALL_FEATURES {
        0
    } else {
        FACE_TOL
    };
    match tri.locate(q, tol, Some(far), reach) {
        Place::Inside => {
            let depth = (r3 - s0).lower_to_fx1_in_range(); // FX1 (FX3 lowered): r - s0 <= 2 r
            let nr = normal_times(n, r); // FX1
            Some(hit(Fx2::ZERO, q + nr, tri.normal(), depth, Feature::Face))
        }
        Place::Far => None,
        Place::Near => sweep_near(tri, p0, v, r, q, s0, s1, sv, true),
        Place::Beside => sweep_near(tri, p0, v, r, q, s0, s1, sv, false),
    }
}

/// The two distances (raw FX1) a sweep gives [`Triangle::locate`], from
/// the step's L1 norm (at least `|v|`): `far`, r plus the motion plus
/// rounding, beyond which the sphere never touches the triangle; and the
/// reach, how far the centre's projection on the plane can move over the
/// step, plus the roundings of the two projected points (a few raw steps
/// each). A projection farther than the reach outside an edge cannot
/// move onto the face ([`Place::Beside`]), and the face-entry test, which
/// would find no entry, is skipped.
#[inline]
fn locate_bounds(v: Vec3, r: Fx1) -> (i32, i32) {
    let [vx, vy, vz] = v.raw();
    let step = vx.abs() + vy.abs() + vz.abs(); // FX1: >= |v|
    (r.raw() + step + 2, step + 16)
}

/// A sphere starting within r of the plane, its centre's projection `q`
/// off the face but near: the edges and vertices, and (if `enterable`,
/// see [`locate_bounds`]) the face if the projection moves onto it while
/// still within r.
#[allow(clippy::too_many_arguments)]
fn sweep_near(
    tri: &Triangle,
    p0: Vec3,
    v: Vec3,
    r: Fx1,
    q: Vec3,
    s0: Fx3,
    s1: Fx3,
    sv: Fx3,
    enterable: bool,
) -> Option<Hit> {
    let n = tri.n.fx2(); // FX2
    let r3 = Fx3::from(r); // FX3
    let mut best = sweep_features(tri, p0, v, r, s0, sv);
    if enterable && s0 >= Fx3::ZERO {
        // Within the slab until the end of the step or until it leaves it.
        let tb = if s1 < r3 {
            Fx2::ONE
        } else {
            fraction(r3 - s0, sv)
        }; // FX2
        let cb = at(p0, v, tb); // FX1: centre at tb
        let sb = tri.signed_distance(cb); // FX3, |sb| <= r + a step
        let qb = cb - (n * sb).map(Fx5::lower_to_fx1); // FX1: its projection
        if let Some(entry) = face_entry(tri, q, qb, Fx2::ZERO, tb, p0, v, s0, sv) {
            if best.is_none_or(|h| entry.before(&h)) {
                best = Some(entry);
            }
        }
    }
    best
}

/// True when the centre at FX2 time `t` is in front of the plane (to
/// `FRONT_TOL`): FX5 `s0 + sv t`, exact.
#[inline]
fn in_front(s0: Fx3, sv: Fx3, t: Fx2) -> bool {
    s0.raise().raise() + sv * t >= -FRONT_TOL
}

/// The moment the centre's projection, moving from `qa` (at time `ta`) to
/// `qb` (at `tb`) in the plane while the sphere is within `r` of it,
/// first lies on the face: the sphere then touches the edge it crossed.
#[allow(clippy::too_many_arguments)]
#[inline]
fn face_entry(
    tri: &Triangle,
    qa: Vec3,
    qb: Vec3,
    ta: Fx2,
    tb: Fx2,
    p0: Vec3,
    v: Vec3,
    s0: Fx3,
    sv: Fx3,
) -> Option<Hit> {
    let (f, edge) = tri.clip_entry(qa, qb)?;
    let t = ta + ((tb - ta) * f).lower(); // FX2 (FX3 lowered)
    if !in_front(s0, sv, t) {
        return None; // from behind
    }
    let center = at(p0, v, t); // FX1
    let normal = tri.normal();
    let feature = match edge {
        Some(e) => Feature::Edge(e),
        None => Feature::Face,
    };
    Some(hit(t, center, normal, Fx1::ZERO, feature))
}

/// The edges and vertices. Each is a quadratic in t, solved without a
/// discriminant above FX4.
///
/// One out-of-line call per edge and per vertex, and the rare overlap
/// cases out of line again: unrolled, the six bodies were 8.7 KB of ARM
/// code, more than the instruction cache, and too big for ITCM.
fn sweep_features(tri: &Triangle, p0: Vec3, v: Vec3, r: Fx1, s0: Fx3, sv: Fx3) -> Option<Hit> {
    let [vx, vy, vz] = v.raw();
    let vmax = vx.abs().max(vy.abs()).max(vz.abs());
    // A contact within the step needs an offset of at most r + |v|, and
    // |v| < 2 max|v_k|: a larger offset component rejects with no
    // product, and this bound keeps every product below in range
    // (offsets <= 5 units per axis: FX4 squares of FX2 offsets stay
    // below 2^56, FX4 products of FX1 ones below 2^58).
    let bound = r.raw() + 2 * vmax + 2;
    let mut best: Option<Hit> = None;
    let p = p0.raw();
    for i in 0..3 {
        // A flat or concave edge is never touched before a face
        // (`features`).
        if !tri.tests_edge(i) {
            continue;
        }
        // Farther than `bound` from the edge's bounding box along an axis
        // is farther from the segment: no contact, no overlap. Comparisons
        // only, before the products (most edges of a candidate end here).
        let (ar, br) = (tri.v[i].raw(), tri.v[(i + 1) % 3].raw());
        if (0..3).any(|k| p[k] < ar[k].min(br[k]) - bound || p[k] > ar[k].max(br[k]) + bound) {
            continue;
        }
        sweep_edge(tri, i, p0, v, r, s0, sv, bound, &mut best);
    }
    for i in 0..3 {
        if !tri.tests_vertex(i) {
            continue;
        }
        if (tri.v[i].raw().iter().zip(p)).any(|(&a, p)| (p - a).abs() > bound) {
            continue;
        }
        sweep_vertex(tri, i, p0, v, r, s0, sv, &mut best);
    }
    best
}

/// Edge `i` of [`sweep_features`], its start within `bound` of the
/// edge's box: keeps an earlier contact in `best`.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn sweep_edge(
    tri: &Triangle,
    i: usize,
    p0: Vec3,
    v: Vec3,
    r: Fx1,
    s0: Fx3,
    sv: Fx3,
    bound: i32,
    best: &mut Option<Hit>,
) {
    let r2 = r.raise(); // FX2
    let r4 = r2 * r2; // FX4: r^2
    let bound2 = Fx2::from_raw((bound as i64) << 12); // FX2
    let a = tri.v[i];
    let w = p0 - a; // FX1: start relative to the edge's first vertex
    let u = tri.u[i].fx2(); // FX2: unit edge direction

    // FX2 (FX3 lowered one power, 2^-24 units): u x w, the start's
    // offset from the edge line, turned 90 degrees about u. A component
    // that rounds beyond `bound2` is one at or beyond `bound2 + 1/2` in
    // FX3 (ties round away from zero): rejected before the rounding, and
    // the rest (below 2^27, `bound` being below 2^15) round in 32 bits.
    let c = u.cross(w); // FX3, exact
    let limit = (bound2.raw() << 12) + (1 << 11); // FX3
    if c.to_array()
        .iter()
        .any(|x| x.raw() >= limit || x.raw() <= -limit)
    {
        return;
    }
    let am = c.map(Fx3::lower_in_range);
    let aa = am.dot(am); // FX4: squared distance of the start from the line
    if aa <= r4 {
        // Starts inside the edge's cylinder: an overlap if beside the
        // segment and in front.
        edge_overlap(tri, i, p0, r, s0, aa, best);
        return;
    }
    // FX2: change of am over the step (|u x v| <= |v| < 2^14.8 raw FX1,
    // so below 2^38.8 in FX3: in range).
    let bm = u.cross(v).map(Fx3::lower_in_range);
    let ab = am.dot(bm); // FX4
    if ab >= Fx4::ZERO {
        return; // moving away from the line, or along it
    }
    let bb = bm.dot(bm); // FX4: |bm|^2

    // Still approaching the line at the end of the step (ab + bb <= 0:
    // the closest approach is at t >= 1) and still outside the cylinder
    // there (|am + bm|^2 > r^2): no contact within the step. Exact FX4
    // (each term below 2^55), and it spares the two roots and the division
    // below: it is where most edges that get this far end.
    if ab + bb <= Fx4::ZERO && aa + ab * 2 + bb > r4 {
        return;
    }
    // Solve |am + t bm| = r without an FX8 discriminant: along bm's
    // direction the offset is beta, across it sqrt(d2).
    let len = bb.sqrt(); // FX2: |bm| (FX4 root)
    if len <= Fx2::ZERO {
        return;
    }
    let beta = ab / len; // FX4 / FX2 = FX2: am's component along bm (< 0)
    let d2 = aa - beta * beta; // FX4: squared closest approach
    let h2 = r4 - d2; // FX4
    if h2.is_negative() {
        return; // passes the line farther than r
    }
    let h = h2.sqrt() + Fx2::EPSILON; // FX2, rounded up: t errs early
    let num = -beta - h; // FX2: t * len
    if num > len {
        return; // after the step
    }
    let t = fraction2(num, len); // FX2
    if best.is_some_and(|b| t > b.t_fine) {
        return;
    }
    let e = tri.edge(i); // FX1: the edge
    let ee = e.dot(e); // FX2: |e|^2
    let wt = w.map(Fx3::from) + v * t; // FX3: centre at t minus a, exact
    let along = wt.dot(e); // FX4: position along the edge times |e|

    // An eighth of a raw step of slack beyond each end for the
    // rounding of t (FX4: 2^-15 units * |e|, |e| <= its L1 norm).
    let e1 = e.raw().iter().map(|x| x.abs() as i64).sum::<i64>();
    let tol = Fx4::from_raw(e1 << 21);
    if along < -tol || along > ee.raise().raise() + tol {
        return; // touches the line beyond the segment: a vertex's case
    }
    if !in_front(s0, sv, t) {
        return;
    }
    let Some(normal) = edge_normal(u, wt.lower()) else {
        return;
    };
    let center = at(p0, v, t); // FX1
    keep(
        best,
        hit(t, center, normal, Fx1::ZERO, Feature::Edge(i as u8)),
    );
}

/// A sphere that starts within `r` of edge `i`'s line (`aa`, FX4, the
/// squared distance): an overlap if beside the segment and in front.
#[cold]
#[inline(never)]
fn edge_overlap(
    tri: &Triangle,
    i: usize,
    p0: Vec3,
    r: Fx1,
    s0: Fx3,
    aa: Fx4,
    best: &mut Option<Hit>,
) {
    let w = p0 - tri.v[i]; // FX1
    let e = tri.edge(i); // FX1
    let along = w.dot(e); // FX2: position along the edge times |e|
    if along >= Fx2::ZERO && along <= e.dot(e) && s0 >= Fx3::ZERO {
        let depth = r - aa.sqrt().lower(); // FX1 (FX4 -> FX2 root, lowered)
        let normal = edge_normal(tri.u[i].fx2(), w.raise()).unwrap_or(tri.normal());
        let center = p0 + (normal * depth).lower(); // FX1
        keep(
            best,
            hit(Fx2::ZERO, center, normal, depth, Feature::Edge(i as u8)),
        );
    }
}

/// Vertex `i` of [`sweep_features`], the start within `bound` of it per
/// axis: keeps an earlier contact in `best`. Cold, so that it stays in
/// main RAM (`.text.unlikely`) and the Verlet ITCM overlay keeps its room
/// for the every-step code: about one sweep in ten calls it.
#[allow(clippy::too_many_arguments)]
#[cold]
#[inline(never)]
fn sweep_vertex(
    tri: &Triangle,
    i: usize,
    p0: Vec3,
    v: Vec3,
    r: Fx1,
    s0: Fx3,
    sv: Fx3,
    best: &mut Option<Hit>,
) {
    let a = tri.v[i];
    let w = p0 - a; // FX1
    let ww = w.dot(w); // FX2: squared distance of the start
    let c = ww - r * r; // FX2: minus r^2
    if c <= Fx2::ZERO {
        if s0 >= Fx3::ZERO {
            vertex_overlap(tri, i, p0, r, ww, best);
        }
        return;
    }
    let wv = w.dot(v); // FX2
    if wv >= Fx2::ZERO {
        return;
    }
    let vv = v.dot(v); // FX2: |v|^2
    let disc = wv * wv - vv * c; // FX4: quarter discriminant, exact
    if disc.is_negative() {
        return;
    }
    let root = disc.sqrt() + Fx2::EPSILON; // FX2, rounded up
    let num = -wv - root; // FX2: t * vv
    if num > vv {
        return;
    }
    let t = fraction2(num, vv); // FX2
    if best.is_some_and(|b| t > b.t_fine) {
        return;
    }
    if !in_front(s0, sv, t) {
        return;
    }
    let wt = w.map(Fx3::from) + v * t; // FX3: centre at t minus the vertex, exact
    let Some(normal) = unit(raw3(wt, |x| x.raw())) else {
        return;
    };
    let center = at(p0, v, t); // FX1
    keep(
        best,
        hit(t, center, normal, Fx1::ZERO, Feature::Vertex(i as u8)),
    );
}

/// A sphere that starts within `r` of vertex `i` (`ww`, FX2, the squared
/// distance), in front: pushed out along the offset.
#[cold]
#[inline(never)]
fn vertex_overlap(tri: &Triangle, i: usize, p0: Vec3, r: Fx1, ww: Fx2, best: &mut Option<Hit>) {
    let a = tri.v[i];
    let w = p0 - a; // FX1
    let depth = r - ww.sqrt(); // FX1
    let normal = unit(raw3(w, |x| x.raw() as i64)).unwrap_or(tri.normal());
    let center = p0 + (normal * depth).lower(); // FX1
    keep(
        best,
        hit(Fx2::ZERO, center, normal, depth, Feature::Vertex(i as u8)),
    );
}

#[inline]
fn keep(best: &mut Option<Hit>, h: Hit) {
    if best.is_none_or(|b| h.before(&b)) {
        *best = Some(h);
    }
}

/// The unit normal from an edge line (unit direction `u`, FX2) to a point
/// `w` (FX2, relative to a point of the line): `(u x w) x u`, computed as
/// FX4 lowered once to FX3, then FX5. Needs `|u x w| < 8` units (it is
/// about `r` here).
#[inline]
fn edge_normal(u: Vec3<Fx2>, w: Vec3<Fx2>) -> Option<Vec3> {
    let perp = u.cross(w).lower(); // FX3 (FX4 lowered): offset from the line, turned
    let dir = perp.cross(u); // FX5: the offset itself
    unit(raw3(dir, |x| x.raw()))
}

impl CollisionWorld<'_> {
    /// The first contact of a sphere (radius `r`) swept from `p0` to `p1`
    /// with any triangle of the world (ties go to the lower triangle
    /// index), or `None`. Same limits as [`sweep_sphere_triangle`].
    pub fn sweep_sphere(&self, p0: Vec3, p1: Vec3, r: Fx1) -> Option<Contact> {
        let (lo, hi) = CollisionWorld::swept_box(p0, p1, r);
        let mut best: Option<Contact> = None;
        self.for_each_in_box(lo, hi, |ix| {
            if let Some(hit) = sweep_sphere_triangle(&self.tris[ix as usize], p0, p1, r) {
                let c = Contact { tri: ix, hit };
                if best.is_none_or(|b| c.before(&b)) {
                    best = Some(c);
                }
            }
        });
        best
    }
}
