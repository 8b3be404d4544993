//! Verlet particles against a k-d tree world, in two phases.
//!
//! The **broad phase** finds, for each particle, the triangles in the box
//! its step can reach ([`reach_box`]): one tree query for the box around
//! all of them gathers the ragdoll's triangles, then each particle keeps
//! those whose bounds overlap its own box (a tree query per particle cost
//! ten times more on the DS: `make pcprofile`). Same triangles, in the
//! same (tree) order, as a query per particle would give. The
//! **narrow phase** sweeps each particle's sphere against its own
//! candidates, responds (slide, friction) and sweeps the rest of the
//! motion. Split so that the profiler can time each; the result is the
//! same, bit for bit, as calling [`collide_particle`] per particle (one
//! particle's narrow phase never moves another, so gathering them all
//! first changes nothing), which `nds/assetc/tests/ragdoll_worlds.rs`
//! checks.
//!
//! [`reach_box`]: crate::collision::resolve::reach_box
//! [`collide_particle`]: crate::collision::collide_particle

use crate::collision::resolve::{
    collide_particle_among, free_step, gather_candidates, reach_box, CANDIDATES,
};
use crate::collision::CollisionWorld;
use crate::fx::{Fx1, Vec3};

use super::particles::Particles;

/// Triangles the whole-ragdoll query of the broad phase keeps; more fall
/// back to a tree query per particle.
pub const RAGDOLL_CANDIDATES: usize = 192;

/// The broad phase's results for up to `N` particles: 96 bytes each, plus
/// the ragdoll's triangles (384 bytes).
#[derive(Clone, Debug)]
pub struct WorldContacts<const N: usize = 16> {
    /// Triangles found per particle; more than [`CANDIDATES`] means the
    /// narrow phase queries the tree itself (a particle in a dense spot).
    count: [u16; N],
    ids: [[u16; CANDIDATES]; N],
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
            near: [0; RAGDOLL_CANDIDATES],
        }
    }

    /// The broad phase: the candidate triangles of every free particle's
    /// step from `prev` to `cur`.
    #[inline(never)]
    pub fn broad_phase(&mut self, world: &CollisionWorld, p: &Particles<N>) {
        let (cur, prev, radius) = (p.positions(), p.prev_positions(), p.radii());
        let w = p.inv_masses();
        // Raw FX1 reach boxes of the free particles (pinned ones get an
        // empty box), and the box around them all.
        let mut boxes = [([i32::MAX; 3], [i32::MIN; 3]); N];
        let (mut lo, mut hi) = ([i32::MAX; 3], [i32::MIN; 3]);
        for (i, (b, &wi)) in boxes.iter_mut().zip(w).enumerate() {
            if wi != Fx1::ZERO {
                let (a, c) = reach_box(prev[i], cur[i], radius[i]);
                *b = (a.raw(), c.raw());
                for k in 0..3 {
                    lo[k] = lo[k].min(b.0[k]);
                    hi[k] = hi[k].max(b.1[k]);
                }
            }
        }
        if lo[0] > hi[0] {
            self.count = [0; N]; // every particle pinned
            return;
        }
        let (lo, hi) = (
            Vec3::from_raw(lo[0], lo[1], lo[2]),
            Vec3::from_raw(hi[0], hi[1], hi[2]),
        );
        let mut near = 0usize;
        world.for_each_in_box(lo, hi, |ix| {
            if let Some(slot) = self.near.get_mut(near) {
                *slot = ix as u16;
            }
            near += 1;
        });
        if near > RAGDOLL_CANDIDATES {
            // A dense spot: each particle queries the tree itself.
            for (i, &wi) in w.iter().enumerate() {
                self.count[i] = if wi == Fx1::ZERO {
                    0
                } else {
                    let n = gather_candidates(world, prev[i], cur[i], radius[i], &mut self.ids[i]);
                    n.min(u16::MAX as usize) as u16
                };
            }
            return;
        }
        // Each near triangle's stored bounds against every particle's
        // box. Triangles outer, in tree order, so that each particle's
        // list is in tree order.
        let mut count = [0usize; N];
        for &ix in &self.near[..near] {
            let tri = &world.tris[ix as usize];
            for (i, (lo, hi)) in boxes.iter().enumerate() {
                if tri.overlaps_box(lo, hi) {
                    if let Some(slot) = self.ids[i].get_mut(count[i]) {
                        *slot = ix;
                    }
                    count[i] += 1;
                }
            }
        }
        for (c, n) in self.count.iter_mut().zip(count) {
            *c = n as u16;
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
        // The memos are about one world (the address and count of its
        // triangles; the DS's worlds are statics).
        p.memos_for((world.tris.as_ptr() as usize, world.tris.len()));
        p.for_each_free_resting(|i, prev, cur, radius, memo| {
            let n = self.count[i] as usize;
            if n == 0 {
                free_step(prev, cur, memo);
                return;
            }
            let cand = (n <= CANDIDATES).then(|| &self.ids[i][..n]);
            touching += collide_particle_among(world, cand, memo, prev, cur, radius, friction)
                .is_some() as usize;
        });
        touching
    }

    /// Candidates the broad phase found for particle `i` (for tests and
    /// the profiler's statistics).
    pub fn candidates(&self, i: usize) -> usize {
        self.count[i] as usize
    }
}
