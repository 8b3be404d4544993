//! Verlet particles against a k-d tree world, in two phases.
//!
//! The **broad phase** finds, for each particle, the triangles in the box
//! its step can reach ([`reach_box`]): one tree query for the box around
//! all of them gathers the ragdoll's triangles, then each particle keeps
//! those whose bounds overlap its own box (a tree query per particle cost
//! ten times more on the DS: `make pcprofile`). Same triangles, in the
//! same (tree) order, as a query per particle would give. A ragdoll that
//! keeps its `WorldContacts` to itself ([`Ragdoll::step_in_world`]) keeps
//! each particle's list while its reach box stays inside the box the
//! list was gathered for (the reach box and a margin): a particle lying
//! still gathers nothing. The **narrow phase** sweeps each particle's sphere against its own
//! candidates, responds (slide, friction) and sweeps the rest of the
//! motion. Split so that the profiler can time each; the result is the
//! same, bit for bit, as calling [`collide_particle`] per particle (one
//! particle's narrow phase never moves another, so gathering them all
//! first changes nothing), which `nds/assetc/tests/ragdoll_worlds.rs`
//! checks.
//!
//! [`reach_box`]: crate::collision::resolve::reach_box
//! [`Ragdoll::step_in_world`]: super::Ragdoll::step_in_world
//! [`collide_particle`]: crate::collision::collide_particle

use crate::collision::resolve::{
    collide_particle_among, free_step, reach_box, CANDIDATES, REACH_SKINS,
};
use crate::collision::CollisionWorld;
use crate::collision::MAX_STEP;
use crate::fx::{Fx1, Vec3};
use kernels::reach::{self, Bounds};

use super::particles::Particles;

/// Triangles the whole-ragdoll query of the broad phase keeps; more fall
/// back to a tree query per particle.
pub const RAGDOLL_CANDIDATES: usize = 192;

/// How far beyond a particle's reach box its list of triangles is
/// gathered (raw FX1 on each side: 2 cm), so that the list serves the
/// next steps while their reach boxes stay inside (a particle lying
/// still, or rolling slowly).
pub const LIST_MARGIN: i32 = 82;

/// The count of a pinned particle, which has no list: more than
/// [`CANDIDATES`], so that a kept list is never taken for it.
const UNLISTED: u16 = u16::MAX;

/// A box of raw FX1 bounds, `lo` then `hi` (empty: `lo > hi`).
type RawBox = ([i32; 3], [i32; 3]);

/// True when `b` is empty on its first axis (the box around no box).
#[inline(always)]
fn lo_above_hi(b: &RawBox) -> bool {
    b.0[0] > b.1[0]
}

/// The box no reach box lies inside.
const NO_BOX: RawBox = ([i32::MAX; 3], [i32::MIN; 3]);

/// A list's box `listed` shrunk by a particle's radius and skins: the
/// particle's reach box ([`reach_box`]) lies inside `listed` exactly when
/// `prev -+ step` lies inside this (`kernels::reach::keeps`). Saturated,
/// so that [`NO_BOX`] stays empty.
fn inner_box((lo, hi): RawBox, radius: Fx1) -> Bounds {
    let shrink = radius.raw() + REACH_SKINS;
    Bounds {
        lo: lo.map(|c| c.saturating_add(shrink)),
        hi: hi.map(|c| c.saturating_sub(shrink)),
    }
}

/// The particles a gather lists, and where their boxes are.
#[derive(Clone, Copy)]
enum ListSet<'a, const N: usize> {
    /// Every particle, with these boxes (a pinned one's is empty, so its
    /// count is 0): the exact broad phase.
    Every(&'a [RawBox; N]),
    /// These particles, with their boxes in `listed`: the kept broad
    /// phase, which lists only the particles that need it.
    Needing(&'a [u8]),
}

impl<const N: usize> ListSet<'_, N> {
    /// How many particles.
    #[inline(always)]
    fn len(self) -> usize {
        match self {
            ListSet::Every(b) => b.len(),
            ListSet::Needing(w) => w.len(),
        }
    }

    /// Member `j`: its particle's index and box (`listed`: the
    /// `WorldContacts`' own).
    #[inline(always)]
    fn member(self, j: usize, listed: &[RawBox; N]) -> (usize, RawBox) {
        match self {
            ListSet::Every(b) => (j, b[j]),
            ListSet::Needing(w) => (w[j] as usize, listed[w[j] as usize]),
        }
    }
}

/// The broad phase's results for up to `N` particles, and what they were
/// gathered for, so that a ragdoll stepping with the same
/// `WorldContacts` ([`WorldContacts::broad_phase_kept`]) keeps a
/// particle's list while its reach box stays inside the box the list was
/// gathered for. About 124 bytes a particle plus the ragdoll's triangles
/// (384 bytes). A crowd shares one and gathers every list every step
/// ([`WorldContacts::broad_phase`]).
#[derive(Clone, Debug)]
pub struct WorldContacts<const N: usize = 16> {
    /// Triangles found per particle; more than [`CANDIDATES`] means the
    /// narrow phase queries the tree itself (a particle in a dense spot).
    count: [u16; N],
    ids: [[u16; CANDIDATES]; N],
    /// The box each particle's list holds every triangle of (its bounds
    /// overlapping), in tree order, when `lists_kept`.
    listed: [RawBox; N],
    /// Each kept list's box shrunk by its particle's radius and skins
    /// (empty for a particle with no list to keep): a step keeps the list
    /// while `prev -+ step` lies inside (`kernels::reach`).
    inner: [Bounds; N],
    /// True when the last broad phase kept or gathered lists for the
    /// boxes in `listed` (false after one gathered exact lists).
    lists_kept: bool,
    /// The world the lists are about (its triangles' address and count:
    /// a list serves only there) and whose particles they were gathered
    /// for (an address: a list serves any particle whose reach box lies
    /// inside its box, but another ragdoll's seldom does, so a new owner
    /// gathers them all).
    owner: (usize, usize, usize),
    /// The triangles near the whole ragdoll, in tree order.
    near: [u16; RAGDOLL_CANDIDATES],
}

impl<const N: usize> Default for WorldContacts<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> WorldContacts<N> {
    /// Nothing gathered.
    pub const fn new() -> Self {
        WorldContacts {
            count: [0; N],
            ids: [[0; CANDIDATES]; N],
            listed: [NO_BOX; N],
            inner: [Bounds::EMPTY; N],
            lists_kept: false,
            owner: (0, 0, 0),
            near: [0; RAGDOLL_CANDIDATES],
        }
    }

    /// The broad phase: the candidate triangles of every free particle's
    /// step from `prev` to `cur`, gathered for its reach box. Every list
    /// is gathered every step (what a crowd sharing one `WorldContacts`
    /// needs); see [`WorldContacts::broad_phase_kept`] for one ragdoll.
    #[inline(never)]
    pub fn broad_phase(&mut self, world: &CollisionWorld, p: &Particles<N>) {
        const { assert!(N <= 32, "the broad phase's masks hold 32 particles") };
        // Whatever `listed` says, these lists are for other boxes.
        self.lists_kept = false;
        let (cur, prev, radius) = (p.positions(), p.prev_positions(), p.radii());
        // Raw FX1 reach boxes of the free particles (pinned ones get an
        // empty box), and the box around them all.
        let mut boxes = [([i32::MAX; 3], [i32::MIN; 3]); N];
        let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
        for (i, (b, &wi)) in boxes.iter_mut().zip(p.inv_masses()).enumerate() {
            if wi != Fx1::ZERO {
                let (a, c) = reach_box(prev[i], cur[i], radius[i]);
                *b = (a.raw(), c.raw());
                for k in 0..3 {
                    lo[k] = lo[k].min(b.0[k]);
                    hi[k] = hi[k].max(b.1[k]);
                }
            }
        }
        // Every count is written (a pinned particle's empty box finds
        // nothing).
        self.gather(world, ListSet::Every(&boxes), (lo, hi));
    }

    /// [`WorldContacts::broad_phase`] for a ragdoll that keeps this
    /// `WorldContacts` to itself: when the same particles stepped last,
    /// in the same world, a particle whose reach box lies inside the box
    /// its list was gathered for keeps the list. Every triangle the step
    /// can meet is in it, in tree order, and the narrow phase tests each
    /// against each sweep's box, so the same triangles meet the same
    /// sweeps as with a list gathered for the reach box itself: the
    /// results are the same, bit for bit. The others gather theirs for
    /// their reach box grown by [`LIST_MARGIN`]. Lists serve only in the
    /// world they were gathered in ([`CollisionWorld::key`]); whose
    /// particles they were is told by address, to save time only (a list
    /// serves any particle whose reach box lies inside its box).
    #[inline(never)]
    pub fn broad_phase_kept(&mut self, world: &CollisionWorld, p: &Particles<N>) {
        const { assert!(N <= 32, "the broad phase's masks hold 32 particles") };
        let (tris, count) = world.key();
        let owner = (tris, count, p as *const Particles<N> as usize);
        let check = owner == self.owner && self.lists_kept;
        self.owner = owner;
        self.lists_kept = true;
        // The particles that need a list, in order (their boxes go to
        // `listed`), and the box around them. With lists to keep, the
        // kernel marks those that need one.
        let mut which = [0u8; N];
        let mut k = 0;
        let mut around = NO_BOX;
        let (motion, inv_mass) = p.motion();
        let mut left = if check {
            reach::to_gather(
                motion,
                inv_mass,
                &self.inner,
                p.len(),
                MAX_STEP.raw() as u32,
            )
        } else {
            // Every particle (`N <= 32`).
            ((1u64 << p.len()) - 1) as u32
        };
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            if inv_mass[i] == Fx1::ZERO {
                // Pinned: never collides; no list, so that one is
                // gathered again once it is free.
                self.count[i] = UNLISTED;
                self.inner[i] = Bounds::EMPTY;
                continue;
            }
            let (a, c) = reach_box(motion.prev[i], motion.cur[i], p.radii()[i]);
            let m = LIST_MARGIN;
            let (a, c) = (a.raw(), c.raw());
            let b = (
                [a[0] - m, a[1] - m, a[2] - m],
                [c[0] + m, c[1] + m, c[2] + m],
            );
            self.listed[i] = b;
            which[k] = i as u8;
            k += 1;
            for k in 0..3 {
                around.0[k] = around.0[k].min(b.0[k]);
                around.1[k] = around.1[k].max(b.1[k]);
            }
        }
        let which = &which[..k];
        if self.gather(world, ListSet::Needing(which), around) {
            self.list_around(which, around);
        }
        // What the kernel tests next step: each new list's box less the
        // particle's radius and skins (none for a list too long to keep).
        let radii = p.radii();
        for &i in which {
            let i = i as usize;
            self.inner[i] = if self.count[i] as usize <= CANDIDATES {
                inner_box(self.listed[i], radii[i])
            } else {
                Bounds::EMPTY
            };
        }
    }

    /// Nothing near the particles in `which`: each empty list is complete
    /// for the whole box `around` them, which a falling ragdoll's
    /// particles take some steps to leave. Out of line (and out of the
    /// ITCM overlay): only a ragdoll in the air gets here, once in some
    /// steps.
    #[cold]
    #[inline(never)]
    fn list_around(&mut self, which: &[u8], around: RawBox) {
        for &i in which {
            self.listed[i as usize] = around;
        }
    }

    /// The lists of the particles in `set`, `around` them all: one tree
    /// query for that, then each near triangle's stored bounds against
    /// each particle's box. True when the query found no triangle in
    /// `around` (every list written is empty then).
    #[inline(always)]
    fn gather(&mut self, world: &CollisionWorld, set: ListSet<'_, N>, around: RawBox) -> bool {
        if lo_above_hi(&around) {
            // No box: every particle pinned, or every list kept (the
            // kept path has marked the pinned ones `UNLISTED`; the exact
            // one zeroes every count).
            if let ListSet::Every(_) = set {
                self.count = [0; N];
            }
            return false;
        }
        let (lo, hi) = around;
        let (lo, hi) = (
            Vec3::from_raw(lo[0], lo[1], lo[2]),
            Vec3::from_raw(hi[0], hi[1], hi[2]),
        );
        // `list_in_box` written out: this way the tree walk is inlined
        // into the broad phase (through the shared `list_in_box` it was
        // not, and the crowd's broad phase took 5 % more model cycles).
        let mut near = 0usize;
        world.for_each_in_box(lo, hi, |ix| {
            if let Some(slot) = self.near.get_mut(near) {
                *slot = ix as u16;
            }
            near += 1;
        });
        if near > RAGDOLL_CANDIDATES {
            self.gather_each(world, set);
            return false;
        }
        // Triangles outer, in tree order, so that each particle's list is
        // in tree order.
        let mut count = [0usize; N];
        for &ix in &self.near[..near] {
            let tri = &world.tris[ix as usize];
            for (j, n) in count[..set.len()].iter_mut().enumerate() {
                let (i, (lo, hi)) = set.member(j, &self.listed);
                if tri.overlaps_box(&lo, &hi) {
                    if let Some(slot) = self.ids[i].get_mut(*n) {
                        *slot = ix;
                    }
                    *n += 1;
                }
            }
        }
        for (j, &n) in count[..set.len()].iter().enumerate() {
            self.count[set.member(j, &self.listed).0] = n as u16;
        }
        near == 0
    }

    /// A dense spot (more near triangles than the ragdoll's list holds):
    /// each particle of `set` queries the tree for its box. Cold: out of
    /// the ITCM overlay.
    #[cold]
    #[inline(never)]
    fn gather_each(&mut self, world: &CollisionWorld, set: ListSet<'_, N>) {
        for j in 0..set.len() {
            let (i, (a, c)) = set.member(j, &self.listed);
            let (a, c) = (
                Vec3::from_raw(a[0], a[1], a[2]),
                Vec3::from_raw(c[0], c[1], c[2]),
            );
            let n = world.list_in_box(a, c, &mut self.ids[i]);
            self.count[i] = n.min(UNLISTED as usize - 1) as u16;
        }
    }

    /// The narrow phase: collides every free particle with its candidates
    /// (friction as in [`collide_particle`]). Returns how many particles
    /// touched the world.
    ///
    /// [`collide_particle`]: crate::collision::collide_particle
    #[inline(never)]
    pub fn narrow_phase(
        &self,
        world: &CollisionWorld,
        p: &mut Particles<N>,
        friction: Fx1,
    ) -> usize {
        let mut touching = 0;
        // The memos are about one world.
        p.memos_for(world.key());
        p.for_each_free_resting(|i, prev, cur, radius, memo| {
            let n = self.count[i] as usize;
            if n == 0 {
                free_step(prev, cur, memo);
                return;
            }
            let cand = (n <= CANDIDATES).then(|| &self.ids[i][..n]);
            touching +=
                collide_particle_among(world, cand, memo, prev, cur, radius, friction) as usize;
        });
        touching
    }

    /// Candidates the broad phase found for particle `i` (for tests and
    /// the profiler's statistics; none for a pinned one).
    pub fn candidates(&self, i: usize) -> usize {
        if self.count[i] == UNLISTED {
            0
        } else {
            self.count[i] as usize
        }
    }
}

#[cfg(test)]
mod inner_box_tests {
    use super::*;
    use crate::xorshift::XorShift32;
    use kernels::integrate::Motion;

    /// The kernel's test on the shrunk box keeps a list exactly when the
    /// reach box lies inside the list's box: random steps (some beyond
    /// `MAX_STEP` on an axis), radii, and boxes that hold the reach box
    /// or miss it by a little on a random side.
    #[test]
    fn shrunk_boxes_keep_exactly_the_reach_boxes_inside() {
        let mut rng = XorShift32::new(0x1b0c_5eed);
        let mut r = |m: u32| (rng.next_u32() % m) as i32;
        let (mut kept, mut dropped) = (0, 0);
        for _ in 0..20_000 {
            let mut m = Motion::<16>::ZERO;
            let prev = [0; 3].map(|_| r(1 << 20) - (1 << 19));
            let speed = [64, 1024, 8192][r(3) as usize] as u32;
            let v = [0; 3].map(|_| r(2 * speed) - speed as i32);
            m.prev[0] = Vec3::from_raw(prev[0], prev[1], prev[2]);
            m.cur[0] = Vec3::from_raw(prev[0] + v[0], prev[1] + v[1], prev[2] + v[2]);
            let radius = Fx1::from_raw(r(1000));
            let (a, c) = reach_box(m.prev[0], m.cur[0], radius);
            let (a, c) = (a.raw(), c.raw());
            let slack = |r: &mut dyn FnMut(u32) -> i32| r(8) - 2;
            let listed = (
                [0, 1, 2].map(|k| a[k] - slack(&mut r)),
                [0, 1, 2].map(|k| c[k] + slack(&mut r)),
            );
            let inside = (0..3).all(|k| listed.0[k] <= a[k] && c[k] <= listed.1[k]);
            let mut inner = [Bounds::EMPTY; 16];
            inner[0] = inner_box(listed, radius);
            let mut inv = [Fx1::ZERO; 16];
            inv[0] = Fx1::ONE;
            let keeps = reach::keeps(&m, &inv, &inner, 0, MAX_STEP.raw() as u32);
            assert_eq!(
                keeps, inside,
                "prev {prev:?} v {v:?} radius {radius:?} box {listed:?}"
            );
            kept += keeps as u32;
            dropped += !keeps as u32;
        }
        assert!(
            kept > 2000 && dropped > 2000,
            "{kept} kept, {dropped} dropped"
        );
        assert!(
            inner_box(NO_BOX, Fx1::ONE).lo[0] == i32::MAX,
            "NO_BOX stays empty"
        );
    }
}
