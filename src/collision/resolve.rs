//! The Verlet response: move a particle to its contact, slide, rub.
//!
//! A Verlet particle's velocity is `cur - prev`. [`collide_particle`]
//! sweeps the particle's sphere from `prev` to `cur`; at a contact it puts
//! the sphere there (plus [`SKIN`]), removes the into-surface part of the
//! rest of the motion and of the velocity, applies Coulomb friction to the
//! tangential part, and sweeps the rest of the motion again, up to
//! [`MAX_CONTACTS`] times (sliding along a wall into a corner). A contact
//! beyond that stops the particle where it touches, so it never tunnels,
//! and zeroes its velocity.

use crate::fx::{Fx1, Fx2, Fx3, Vec3};

use super::sweep::{rests_on_kept, sweep_triangle, Contact, Feature, Hit, RestMemo, Sweep};
use super::tree::CollisionWorld;
use super::triangle::Triangle;
use super::{MAX_CONTACTS, MAX_STEP, SKIN};
use kernels::reach::step_length;

/// Collides one Verlet particle (a sphere of `radius`) with the world.
///
/// `prev` is where the particle was at the start of the step (it must not
/// be inside the world; one less than a radius deep is pushed out) and
/// `cur` where integration and constraints put it. On return `cur` is the
/// resolved position and `prev` is rewritten so that `cur - prev` is the
/// velocity after the contacts: into-surface motion removed, tangential
/// motion reduced by Coulomb friction with coefficient `friction`
/// (0 = ice; 1 stops a particle whose tangential speed is below its
/// normal speed; a particle out of contacts stops). Returns the first
/// contact of the step.
///
/// A step longer than `MAX_STEP` per axis is shortened to it.
#[inline]
pub fn collide_particle(
    world: &CollisionWorld,
    prev: &mut Vec3,
    cur: &mut Vec3,
    radius: Fx1,
    friction: Fx1,
) -> Option<Contact> {
    collide_particle_path(world, prev, cur, radius, friction, |_| {})
}

/// [`collide_particle`] with a contact hint, as a ragdoll's narrow phase
/// collides its particles: `resting_on` names the triangle whose face the
/// particle rested on after its last step ([`NO_TRIANGLE`] for none; any
/// value is safe) and is rewritten for the next. See
/// [`collide_particle_among`].
#[inline]
pub fn collide_particle_hinted(
    world: &CollisionWorld,
    resting_on: &mut u16,
    prev: &mut Vec3,
    cur: &mut Vec3,
    radius: Fx1,
    friction: Fx1,
) -> Option<Contact> {
    let mut memo = ContactMemo {
        resting_on: *resting_on,
        ..ContactMemo::NONE
    };
    let first = resolve_with(
        world,
        Some(&mut memo),
        prev,
        cur,
        radius,
        friction,
        sweep_triangle,
        |_| {},
    );
    *resting_on = memo.resting_on;
    first
}

/// [`collide_particle`], also giving `path` every position the centre
/// passes through: the start, each resolved contact, the end. The path is
/// what a tunnelling check needs.
#[inline]
pub fn collide_particle_path(
    world: &CollisionWorld,
    prev: &mut Vec3,
    cur: &mut Vec3,
    radius: Fx1,
    friction: Fx1,
    path: impl FnMut(Vec3),
) -> Option<Contact> {
    resolve_with(
        world,
        None,
        prev,
        cur,
        radius,
        friction,
        sweep_triangle,
        path,
    )
}

/// A contact hint naming no triangle.
pub const NO_TRIANGLE: u16 = u16::MAX;

/// What a particle's narrow phase remembers from one step to the next
/// ([`collide_particle_among`]), both only ever saving work, never
/// changing a result:
/// - `resting_on`, the contact hint: the triangle whose face the particle
///   rested on after its last step ([`NO_TRIANGLE`]: none). Checked
///   against the geometry before it is used, so any value is safe.
/// - `clear_at`, where a still sphere (a sweep of no length) last found
///   no contact ([`NOWHERE`]: nowhere yet). The same sweep at the same
///   place meets the same triangles (every triangle whose bounds overlap
///   its box, whichever candidates hold them) and so finds nothing again:
///   it is not swept. That holds in the world where it was found clear
///   only, for the particle's radius: [`WorldContacts`] forgets it when
///   it is given another world, and a new particle starts with none.
///
/// [`WorldContacts`]: crate::verlet::WorldContacts
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContactMemo {
    /// The contact hint.
    pub resting_on: u16,
    /// Where the still sphere was last found clear of the world.
    pub clear_at: Vec3,
    /// What the hint's test found of the last start ([`RestMemo`]).
    pub rest: RestMemo,
}

/// A position no particle takes (beyond every world's and the solver's
/// limits): `ContactMemo::clear_at` before anywhere was found clear.
pub const NOWHERE: Vec3 = Vec3::from_raw(i32::MIN, i32::MIN, i32::MIN);

impl ContactMemo {
    /// Nothing remembered.
    pub const NONE: ContactMemo = ContactMemo {
        resting_on: NO_TRIANGLE,
        clear_at: NOWHERE,
        rest: RestMemo::NONE,
    };
}

/// Candidate triangles gathered once per particle (more fall back to a
/// tree query per sweep).
pub const CANDIDATES: usize = 48;

/// The motion of a step, `cur - prev`, shortened to `MAX_STEP` per axis.
#[inline]
fn clamped_motion(prev: Vec3, cur: Vec3) -> Vec3 {
    let lim = MAX_STEP.raw();
    (cur - prev).map(|c| Fx1::from_raw(c.raw().clamp(-lim, lim))) // FX1
}

/// [`collide_particle_among`] for a particle with no candidate
/// triangles: no sweep finds a contact, so the step is only shortened to
/// `MAX_STEP` per axis, `prev` kept and the hint cleared, without the
/// rounds (bit for bit what the loop gives; most particles of a
/// tumbling crowd are in the air).
#[inline]
pub fn free_step(prev: &Vec3, cur: &mut Vec3, memo: &mut ContactMemo) {
    *cur = *prev + clamped_motion(*prev, *cur);
    memo.resting_on = NO_TRIANGLE;
}

/// The box every sweep of `resolve_among` stays in: every position of
/// the step stays within |v| (plus skins) of the start, since each
/// response is a projection, which only shortens the rest of the motion.
/// One tree query for that box (the broad phase) serves every sweep.
#[inline]
pub fn reach_box(prev: Vec3, cur: Vec3, radius: Fx1) -> (Vec3, Vec3) {
    // The clamped motion's L1 norm: `|clamp(v, -lim, lim)|` is
    // `min(|v|, lim)`, a compare fewer per axis.
    let step = step_length((cur - prev).raw(), MAX_STEP.raw() as u32);
    let reach = radius.raw() + step as i32 + REACH_SKINS;
    let reach = Vec3::from_raw(reach, reach, reach);
    (prev - reach, prev + reach)
}

/// What [`reach_box`] adds to a particle's radius and step (raw FX1): a
/// skin for each contact and two more, and 4 for the roundings.
pub const REACH_SKINS: i32 = (MAX_CONTACTS as i32 + 2) * SKIN.raw() + 4;

/// The broad phase of one particle: writes the triangles near its step
/// (in tree order) to `out` and returns how many there are, which may be
/// more than `out` holds (the narrow phase then queries the tree itself).
#[inline]
pub fn gather_candidates(
    world: &CollisionWorld,
    prev: Vec3,
    cur: Vec3,
    radius: Fx1,
    out: &mut [u16],
) -> usize {
    let (lo, hi) = reach_box(prev, cur, radius);
    world.list_in_box(lo, hi, out)
}

/// The resolve loop, generic over the narrow phase (the tracked sweep or
/// the naive one of the precision benchmark); the candidates are gathered
/// here.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) fn resolve_with<S, P>(
    world: &CollisionWorld,
    memo: Option<&mut ContactMemo>,
    prev: &mut Vec3,
    cur: &mut Vec3,
    radius: Fx1,
    friction: Fx1,
    narrow: S,
    path: P,
) -> Option<Contact>
where
    S: Fn(&Triangle, &Sweep) -> Option<Hit>,
    P: FnMut(Vec3),
{
    let mut cand = [0u16; CANDIDATES];
    let count = gather_candidates(world, *prev, *cur, radius, &mut cand);
    let cand = (count <= CANDIDATES).then(|| &cand[..count]);
    resolve_among(world, cand, memo, prev, cur, radius, friction, narrow, path)
}

/// The narrow phase of one particle: sweeps and responds, as
/// [`collide_particle`], against `cand`, the triangles that
/// [`gather_candidates`] found for this same `prev`/`cur`/`radius`
/// (`None`: there were too many to hold, query the tree per sweep).
///
/// `memo` is what the particle's last steps left for this one
/// ([`ContactMemo`]), rewritten for the next. Its contact hint names the
/// triangle whose face the particle rested on after its last step. While
/// the particle still rests on that face
/// ([`rests_on_kept`]), the first round's contact is taken as that face's
/// resting contact without sweeping every candidate: the sweep would find
/// the same face, within two skins' travel of the start, and the response
/// would keep the particle still the same way (at the edge of
/// [`RESTING_GAP`](super::sweep::RESTING_GAP), a raw step or so from
/// where the sweep's contact would have put it); what else the motion
/// meets, the next round's sweep of the projected motion finds. A round
/// whose sphere stands still (a friction-stuck particle's second round,
/// every round of a settling one) where the memo found it clear is not
/// swept: it would find nothing again. A resting particle that friction
/// holds where it was found clear (most of a lying ragdoll's) so gets
/// its whole step from the hinted contact, without the rounds.
///
/// Returns whether the particle touched the world (the narrow phase only
/// counts them, so the held particle's contact is never built).
#[inline]
pub fn collide_particle_among(
    world: &CollisionWorld,
    cand: Option<&[u16]>,
    memo: &mut ContactMemo,
    prev: &mut Vec3,
    cur: &mut Vec3,
    radius: Fx1,
    friction: Fx1,
) -> bool {
    resolve_among(
        world,
        cand,
        Some(memo),
        prev,
        cur,
        radius,
        friction,
        sweep_triangle,
        |_| {},
    )
    .is_some()
}

#[allow(clippy::too_many_arguments)]
#[inline]
fn resolve_among<S, P>(
    world: &CollisionWorld,
    cand: Option<&[u16]>,
    mut memo: Option<&mut ContactMemo>,
    prev: &mut Vec3,
    cur: &mut Vec3,
    radius: Fx1,
    friction: Fx1,
    narrow: S,
    mut path: P,
) -> Option<Contact>
where
    S: Fn(&Triangle, &Sweep) -> Option<Hit>,
    P: FnMut(Vec3),
{
    let start0 = *prev;
    let v = clamped_motion(start0, *cur); // FX1: the motion
    let mut end = start0 + v;
    let mut vel = v; // FX1: the velocity, cur - prev

    let mut start = start0;
    path(start);
    // Round 0's contact when the particle still rests on the hinted face.
    let hinted = match memo.as_deref_mut() {
        Some(m) if m.resting_on != NO_TRIANGLE => {
            let sweep = Sweep {
                p0: start0,
                p1: end,
                r: radius,
            };
            resting_contact(world, m.resting_on, &mut m.rest, &sweep)
        }
        _ => None,
    };
    let mut first = None;
    // The face this step rests on, for the next step's hint.
    let mut rest = NO_TRIANGLE;
    let mut rounds = 0..=MAX_CONTACTS;
    // Round 0 taken out of the loop below must not be its last round
    // (that one stops the particle where it touches).
    const { assert!(MAX_CONTACTS >= 1) };
    if let Some(contact) = hinted {
        // Round 0, the hinted face's resting contact: as the loop below
        // would take it, the sphere stays at the start (it rests) and the
        // motion is projected and rubbed, which is the velocity's response.
        let nrm = contact.hit.normal;
        vel = respond(v, nrm, friction_scale(v, nrm, friction));
        if vel == Vec3::ZERO && memo.as_deref().is_some_and(|m| m.clear_at == start0) {
            // Held there by friction, where the still sphere was found
            // clear before: the second round would find nothing and the
            // hint would stay (most particles of a lying ragdoll).
            path(start0);
            path(start0);
            (*cur, *prev) = (start0, start0);
            return hinted;
        }
        path(start0);
        (first, rest, end) = (hinted, contact.tri as u16, start0 + vel);
        rounds = 1..=MAX_CONTACTS;
    }
    for round in rounds {
        let sweep = Sweep {
            p0: start,
            p1: end,
            r: radius,
        };
        // Each finder keeps the earliest contact in `best`, in place.
        let mut best: Option<Contact> = None;
        let still = start == end;
        if still && memo.as_deref().is_some_and(|m| m.clear_at == start) {
            // Found clear here before: nothing to meet.
        } else {
            if let Some(cand) = cand {
                first_hit(world, cand, &sweep, &narrow, &mut best);
            } else {
                let (lo, hi) = CollisionWorld::swept_box(start, end, radius);
                world.for_each_in_box(lo, hi, |ix| consider(world, ix, &sweep, &narrow, &mut best));
            }
            if let (true, None, Some(m)) = (still, &best, memo.as_deref_mut()) {
                m.clear_at = start;
            }
        }
        let Some(contact) = best else { break };
        let is_first = first.is_none();
        if is_first {
            first = Some(contact);
        }
        let nrm = contact.hit.normal; // FX1 unit
        let k = friction_scale(vel, nrm, friction); // FX1
        vel = respond(vel, nrm, k);
        // A particle that starts the sweep within two skins of the surface
        // is resting on it: it stays where it is (already a skin off) and
        // the whole motion is projected and rubbed. Otherwise it moves to
        // the contact, a skin off, and the rest of the motion is. (Moving
        // a resting particle to the contact and then a skin out along the
        // normal would creep it down every slope.)
        let before = dot_normal(contact.hit.center - start, nrm); // FX2 raw: normal motion before contact
        let resting = contact.hit.depth == Fx1::ZERO && before >= -(SKIN * 2).raise().raw() as i32;
        if is_first && resting && contact.hit.feature == Feature::Face {
            rest = contact.tri as u16;
        }
        let (at, from) = if resting {
            (start, start)
        } else {
            (
                contact.hit.center + (nrm * SKIN).map(Fx2::lower_in_range), // unit times 4 raw
                contact.hit.center,
            ) // FX1
        };
        start = at;
        path(at);
        if round == MAX_CONTACTS {
            // Out of contacts (wedged in a crevice, where each projection
            // drives it into another face): it stops where it touches,
            // and so does its velocity. A velocity its position does not
            // follow would grow by gravity every step, a phantom speed
            // that keeps a resting ragdoll awake (`tests/collision_crevice.rs`).
            end = at;
            vel = Vec3::ZERO;
            break;
        }
        end = at + respond(end - from, nrm, k);
    }
    path(end);
    *cur = end;
    *prev = end - vel;
    if let Some(m) = memo {
        m.resting_on = rest;
    }
    first
}

/// The resting contact with the face of triangle `hint` ([`rests_on_kept`])
/// at the start of `sweep`, if the sphere rests on it: at time 0, the
/// centre where it starts. The response then keeps the sphere there and
/// projects the motion, as for the contact the sweep would find.
/// Inlined: out of line, its contact and the sweep went through memory
/// on every held particle's step.
#[inline(always)]
fn resting_contact(
    world: &CollisionWorld,
    hint: u16,
    rest: &mut RestMemo,
    sweep: &Sweep,
) -> Option<Contact> {
    let tri = world.tris.get(hint as usize)?;
    if !rests_on_kept(tri, hint, sweep, rest) {
        return None;
    }
    Some(Contact {
        tri: hint as u32,
        hit: Hit {
            t: Fx1::ZERO,
            t_fine: Fx2::ZERO,
            center: sweep.p0,
            normal: tri.normal(),
            depth: Fx1::ZERO,
            feature: Feature::Face,
        },
    })
}

#[inline]
fn first_hit<S>(
    world: &CollisionWorld,
    cand: &[u16],
    sweep: &Sweep,
    narrow: &S,
    best: &mut Option<Contact>,
) where
    S: Fn(&Triangle, &Sweep) -> Option<Hit>,
{
    let (lo, hi) = CollisionWorld::swept_box(sweep.p0, sweep.p1, sweep.r);
    let (lo, hi) = (lo.raw(), hi.raw());
    for &ix in cand {
        if world.tris[ix as usize].overlaps_box(&lo, &hi) {
            consider(world, ix as u32, sweep, narrow, best);
        }
    }
}

#[inline]
fn consider<S>(
    world: &CollisionWorld,
    ix: u32,
    sweep: &Sweep,
    narrow: &S,
    best: &mut Option<Contact>,
) where
    S: Fn(&Triangle, &Sweep) -> Option<Hit>,
{
    if let Some(hit) = narrow(&world.tris[ix as usize], sweep) {
        let c = Contact { tri: ix, hit };
        if best.is_none_or(|b| c.before(&b)) {
            *best = Some(c);
        }
    }
}

/// `a · n` (FX2 raw) in 32 bits, exact: `n` is a unit FX1 normal
/// (`|n_k|` about 2^12; below 2^13 leaves room for any rounding of it,
/// the naive sweep of the precision benchmark's included) and `a` a
/// motion of the step or an offset of the contact from the sweep's
/// start, within `2^15` per axis (`MAX_STEP` is 2^13, `MAX_RADIUS`
/// 2^12), so each product is below 2^28 and the sum below 2^29.6. Two
/// multiply-accumulates instead of three 64-bit ones and a 64-bit
/// compare per use.
#[inline]
fn dot_normal(a: Vec3, n: Vec3) -> i32 {
    let (a, n) = (a.raw(), n.raw());
    debug_assert!(a.iter().all(|c| c.unsigned_abs() < 1 << 15));
    debug_assert!(n.iter().all(|c| c.unsigned_abs() < 1 << 13));
    a[0] * n[0] + a[1] * n[1] + a[2] * n[2]
}

/// Coulomb friction as a scale for the tangential part of `vel` at a
/// surface with unit normal `nrm`: `1 - mu |v_n| / |v_t|`, clamped to
/// `[0, 1]`; 1 when `vel` does not move into the surface. `vel` is a
/// motion of the step, so within `MAX_STEP` per axis (see [`tangential`]).
#[inline]
fn friction_scale(vel: Vec3, nrm: Vec3, mu: Fx1) -> Fx1 {
    let vn = dot_normal(vel, nrm); // FX2 raw: normal speed, negative into the surface
    if vn >= 0 || mu <= Fx1::ZERO {
        return Fx1::ONE;
    }
    // FX1: the tangential part. Its square, FX2: within |vel| + 3 raw
    // per axis, below 2^28, exact in 32 bits.
    let [x, y, z] = tangential(vel, nrm, vn).raw();
    let vt2 = Fx2::from_raw((x * x + y * y + z * z) as i64);
    let budget = (mu * -Fx2::from_raw(vn as i64)).lower_to_fx1(); // FX1 (FX3 lowered): speed friction can take away
    if vt2 <= budget * budget {
        return Fx1::ZERO; // FX2 <= FX2: sticks
    }
    sliding_scale(vt2, budget)
}

/// `1 - budget / |v_t|` for a sliding contact (`|v_t|^2 = vt2`, above
/// `budget^2`). Out of line: its square root and division are most of
/// [`friction_scale`]'s code, which the resting round and the loop of
/// `resolve_among` each inline.
#[inline(never)]
fn sliding_scale(vt2: Fx2, budget: Fx1) -> Fx1 {
    let len = vt2.sqrt(); // FX1: |v_t| > budget >= 0
    Fx1::ONE - budget.div_fx1(len) // FX1
}

/// `x - nrm (x · nrm)`, FX1, for `xn = x · nrm` (FX2 raw), `x` within
/// `MAX_STEP` per axis (every motion and velocity of a step is clamped
/// to it, and a response only shortens them) and `nrm` unit: `|xn| <=
/// |x| < 2^14.8` raw FX1 times 2^12, so each FX3 product is below 2^38.8
/// and lowers in range.
#[inline]
fn tangential(x: Vec3, nrm: Vec3, xn: i32) -> Vec3 {
    let xn = Fx2::from_raw(xn as i64);
    x - (nrm * xn).map(Fx3::lower_to_fx1_in_range) // FX1 (FX1·FX2 = FX3 lowered)
}

/// `x` with its into-surface part removed and its tangential part scaled
/// by `k`; unchanged when `x` does not move into the surface. `x` is
/// within `MAX_STEP` per axis and `0 <= k <= 1`.
#[inline(always)]
fn respond(x: Vec3, nrm: Vec3, k: Fx1) -> Vec3 {
    let xn = dot_normal(x, nrm); // FX2 raw
    if xn >= 0 {
        return x;
    }
    if k == Fx1::ZERO {
        return Vec3::ZERO; // sticks: what the products below would give
    }
    let xt = tangential(x, nrm, xn); // FX1: tangential part
    if k == Fx1::ONE {
        xt
    } else {
        // FX1 (FX2 lowered): |xt| <= |x| + 3 raw, times k <= 2^12.
        (xt * k).map(Fx2::lower_in_range)
    }
}
