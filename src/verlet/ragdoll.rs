//! A ragdoll instance: particles and constraints built from a
//! [`RagdollDef`], stepped once per frame.

use crate::fx::{Fx1, Fx2, Fx3, Vec3};

use super::constraints::Constraints;
use super::def::RagdollDef;
use super::particles::Particles;
use super::settings::{Settings, StepParams};
use super::STEPS_PER_SECOND;

/// A ragdoll with room for `N` particles and `C` constraints (the default
/// 16 / 40 holds the 15-particle, 30-constraint humanoid).
///
/// One frame is [`Ragdoll::step`] (no world) or [`Ragdoll::step_with`]
/// (with a collision callback). Per substep: integrate, relax the
/// constraints `iterations` times, collide each free particle, relax
/// `post_collision_iterations` more times, clamp velocities.
#[derive(Clone, Debug)]
pub struct Ragdoll<const N: usize = 16, const C: usize = 40> {
    /// The particles (positions, masses, radii).
    pub particles: Particles<N>,
    /// The compiled constraints.
    pub constraints: Constraints<C>,
    total_mass: Fx1,
}

impl<const N: usize, const C: usize> Ragdoll<N, C> {
    /// The ragdoll of `def`, at rest, its pose moved by `origin`.
    ///
    /// # Panics
    /// If `def` has more than `N` particles or `C` constraints, or a
    /// constraint names a particle that does not exist (`assetc` rejects
    /// such definitions at build time).
    pub fn new(def: &RagdollDef, origin: Vec3) -> Self {
        let mut particles = Particles::new();
        let mut total_mass = Fx1::ZERO;
        for p in def.particles {
            particles
                .push(p.position + origin, p.mass, p.inv_mass, p.radius)
                .expect("ragdoll: more particles than the capacity N");
            total_mass += p.mass;
        }
        let mut constraints = Constraints::new();
        for c in def.constraints {
            constraints
                .push(c, particles.inv_masses())
                .expect("ragdoll: more constraints than the capacity C, or a bad particle index");
        }
        Ragdoll {
            particles,
            constraints,
            total_mass,
        }
    }

    /// One frame without a world: per substep, integrate, relax the
    /// constraints `settings.iterations` times, clamp velocities
    /// (`post_collision_iterations` is not used).
    pub fn step(&mut self, settings: &Settings) {
        let p = self.begin_frame(settings);
        for _ in 0..p.substeps {
            self.particles.integrate(&p);
            self.relax(settings.iterations);
            self.particles.clamp_velocities(&p);
        }
    }

    /// One frame. `collide(i, prev, cur, radius)` is called for every free
    /// particle after each substep's relaxation; it may move `cur` (and
    /// `prev`, to change the implied velocity, e.g. for friction).
    pub fn step_with(
        &mut self,
        settings: &Settings,
        mut collide: impl FnMut(usize, &mut Vec3, &mut Vec3, Fx1),
    ) {
        let p = self.begin_frame(settings);
        for _ in 0..p.substeps {
            self.particles.integrate(&p);
            self.relax(settings.iterations);
            self.particles.for_each_free(&mut collide);
            self.relax(settings.post_collision_iterations);
            self.particles.clamp_velocities(&p);
        }
    }

    /// The per-substep values for `settings`; rescales the implied
    /// velocities if the substep count changed. For callers that run the
    /// phases themselves: per substep call `particles.integrate(&p)`,
    /// [`Ragdoll::relax`], `particles.for_each_free(..)`, relax again,
    /// `particles.clamp_velocities(&p)`.
    pub fn begin_frame(&mut self, settings: &Settings) -> StepParams {
        let p = StepParams::new(settings);
        self.particles.set_substeps(p.substeps);
        p
    }

    /// `iterations` relaxation passes over all constraints.
    #[inline]
    pub fn relax(&mut self, iterations: u8) {
        let (x, _) = self.particles.solver_view();
        self.constraints.relax(x, iterations as u32);
    }

    /// Current positions (m).
    #[inline]
    pub fn positions(&self) -> &[Vec3] {
        self.particles.positions()
    }

    /// Pins particle `i` (e.g. grabbed by the stylus): see
    /// [`Particles::move_pinned`] to move it.
    pub fn pin(&mut self, i: usize) {
        self.particles.pin(i);
        self.constraints.refresh(self.particles.inv_masses());
    }

    /// Releases a pinned particle.
    pub fn unpin(&mut self, i: usize) {
        self.particles.unpin(i);
        self.constraints.refresh(self.particles.inv_masses());
    }

    /// Sets one inverse mass (1/kg, 0 pins).
    pub fn set_inv_mass(&mut self, i: usize, inv_mass: Fx1) {
        self.particles.set_inv_mass(i, inv_mass);
        self.constraints.refresh(self.particles.inv_masses());
    }

    /// Moves a pinned particle (see [`Particles::move_pinned`]).
    pub fn move_pinned(&mut self, i: usize, position: Vec3) {
        self.particles.move_pinned(i, position);
    }

    /// Adds an impulse (kg m/s) to particle `i`.
    pub fn apply_impulse(&mut self, i: usize, impulse: Vec3) {
        self.particles.apply_impulse(i, impulse);
    }

    /// Sets the velocity (m/s) of particle `i`.
    pub fn set_velocity(&mut self, i: usize, v: Vec3) {
        self.particles.set_velocity(i, v);
    }

    /// Gives every particle the velocity `v` (m/s), e.g. inherited from
    /// the animation at the switch to ragdoll.
    pub fn set_velocity_all(&mut self, v: Vec3) {
        for i in 0..self.particles.len() {
            self.particles.set_velocity(i, v);
        }
    }

    /// Total mass (kg).
    pub fn total_mass(&self) -> Fx1 {
        self.total_mass
    }

    /// `sum m_i v(i)`.
    fn mass_weighted(&self, v: impl Fn(usize) -> Vec3) -> Vec3<Fx2> {
        let m = self.particles.masses();
        let mut s = Vec3::new(Fx2::ZERO, Fx2::ZERO, Fx2::ZERO);
        for (i, &mi) in m.iter().enumerate() {
            s += v(i) * mi;
        }
        s
    }

    /// Centre of mass (m). Pinned-by-definition (mass 0) particles do not
    /// count.
    pub fn centre_of_mass(&self) -> Vec3 {
        let x = self.particles.positions();
        let s = self.mass_weighted(|i| x[i]);
        s.map(|c| c / self.total_mass)
    }

    /// Velocity of the centre of mass (m/s), from the last substep.
    pub fn com_velocity(&self) -> Vec3 {
        let (x, xp) = (self.particles.positions(), self.particles.prev_positions());
        let s = self.mass_weighted(|i| x[i] - xp[i]);
        let rate = STEPS_PER_SECOND * self.particles.substeps() as i32;
        s.map(|c| (c * rate) / self.total_mass)
    }

    /// Kinetic energy `sum m_i |v_i|^2 / 2` in joules (FX2), with each
    /// `v_i` the Verlet velocity `(cur - prev) / dt` of the last substep.
    pub fn kinetic_energy(&self) -> Fx2 {
        let (x, xp) = (self.particles.positions(), self.particles.prev_positions());
        let m = self.particles.masses();
        let mut s = Fx3::ZERO;
        for i in 0..x.len() {
            s += m[i] * (x[i] - xp[i]).length_squared();
        }
        let rate = STEPS_PER_SECOND * self.particles.substeps() as i32;
        (s * (rate * rate / 2)).lower()
    }

    /// The largest particle speed (m/s), from the last substep.
    pub fn max_speed(&self) -> Fx1 {
        let (x, xp) = (self.particles.positions(), self.particles.prev_positions());
        let mut best = Fx2::ZERO;
        for i in 0..x.len() {
            best = best.max((x[i] - xp[i]).length_squared());
        }
        best.sqrt() * (STEPS_PER_SECOND * self.particles.substeps() as i32)
    }

    /// FNV-1a (32-bit) over the raw bits of the whole state: every
    /// particle's current and previous position (x, y, z as little-endian
    /// `i32`) and integration remainder (little-endian `i64`). The ROM
    /// runs the same simulation and compares.
    pub fn state_hash(&self) -> u32 {
        let mut h = Fnv1a::new();
        let (x, xp, r) = (
            self.particles.positions(),
            self.particles.prev_positions(),
            self.particles.remainders(),
        );
        for i in 0..x.len() {
            for c in x[i].raw().into_iter().chain(xp[i].raw()) {
                h.write(&c.to_le_bytes());
            }
            for c in r[i].to_array() {
                h.write(&c.raw().to_le_bytes());
            }
        }
        h.finish()
    }
}

/// 32-bit FNV-1a.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u32);

impl Default for Fnv1a {
    fn default() -> Self {
        Self::new()
    }
}

impl Fnv1a {
    /// The offset basis.
    pub const fn new() -> Self {
        Fnv1a(0x811c_9dc5)
    }

    /// Hashes `bytes`.
    #[inline]
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u32;
            self.0 = self.0.wrapping_mul(0x0100_0193);
        }
    }

    /// The hash.
    pub fn finish(self) -> u32 {
        self.0
    }
}
