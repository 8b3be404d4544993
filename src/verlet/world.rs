//! Verlet particles against a k-d tree world, in two phases.
//!
//! The **broad phase** queries the tree once per particle for the box its
//! step can reach ([`reach_box`]) and keeps the triangles found; the
//! **narrow phase** sweeps each particle's sphere against its own
//! candidates, responds (slide, friction) and sweeps the rest of the
//! motion. Split so that the profiler can time each; the result is the
//! same, bit for bit, as calling [`collide_particle`] per particle (one
//! particle's narrow phase never moves another, so gathering them all
//! first changes nothing), which `tests/verlet_world.rs` checks.
//!
//! [`reach_box`]: crate::collision::resolve::reach_box
//! [`collide_particle`]: crate::collision::collide_particle

use crate::collision::resolve::{collide_particle_among, gather_candidates, CANDIDATES};
use crate::collision::CollisionWorld;
use crate::fx::Fx1;

use super::particles::Particles;

/// The broad phase's results for up to `N` particles: 96 bytes each.
#[derive(Clone, Debug)]
pub struct WorldContacts<const N: usize = 16> {
    /// Triangles found per particle; more than [`CANDIDATES`] means the
    /// narrow phase queries the tree itself (a particle in a dense spot).
    count: [u16; N],
    ids: [[u16; CANDIDATES]; N],
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
        }
    }

    /// The broad phase: the candidate triangles of every free particle's
    /// step from `prev` to `cur`.
    #[inline(never)]
    pub fn broad_phase(&mut self, world: &CollisionWorld, p: &Particles<N>) {
        let (cur, prev, radius) = (p.positions(), p.prev_positions(), p.radii());
        for (i, &w) in p.inv_masses().iter().enumerate() {
            self.count[i] = if w == Fx1::ZERO {
                0
            } else {
                let n = gather_candidates(world, prev[i], cur[i], radius[i], &mut self.ids[i]);
                n.min(u16::MAX as usize) as u16
            };
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
        p.for_each_free(|i, prev, cur, radius| {
            let n = self.count[i] as usize;
            let cand = (n <= CANDIDATES).then(|| &self.ids[i][..n]);
            touching +=
                collide_particle_among(world, cand, prev, cur, radius, friction).is_some() as usize;
        });
        touching
    }

    /// Candidates the broad phase found for particle `i` (for tests and
    /// the profiler's statistics).
    pub fn candidates(&self, i: usize) -> usize {
        self.count[i] as usize
    }
}
