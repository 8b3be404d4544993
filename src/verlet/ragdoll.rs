//! A ragdoll instance: particles and constraints built from a
//! [`RagdollDef`], stepped once per frame.

use core::mem::MaybeUninit;

use crate::fx::{Fx1, Fx2, Fx3, Vec3};

use super::constraints::Constraints;
use super::def::RagdollDef;
use super::particles::Particles;
use super::plane::BoxRoom;
use super::settings::{Settings, StepParams};
use super::timing::{timed, PhaseTimer, StepPhase, Untimed};
use super::world::WorldContacts;
use super::STEPS_PER_SECOND;
use crate::collision::CollisionWorld;

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
    /// Restore the momentum that rounding in the constraint solver
    /// changes (see [`Ragdoll::relax`]); on by default.
    pub conserve_momentum: bool,
    total_mass: Fx1,
    /// Momentum (as `sum m x`, Q32 kg m: FX1 raw mass times Q20 metres)
    /// the solver has added and not yet given back.
    drift: [i64; 3],
    /// Some particle is pinned (then momentum is not conserved anyway).
    any_pinned: bool,
    /// Frames in a row that the ragdoll touched the world and no particle
    /// moved faster than [`SLEEP_SPEED`].
    still_frames: u8,
    /// Some particle moved faster than [`WAKE_SPEED`] in the last frame.
    shoving: bool,
    /// Asleep: [`Ragdoll::step_in_world`] leaves it as it is.
    asleep: bool,
    /// Raw FX1 bounds (particles and radii) as the crowd's pair test last
    /// measured them: once per pass, and again after a push, not per pair.
    pub(super) crowd_box: ([i32; 3], [i32; 3]),
}

/// A ragdoll in a world falls asleep after [`SLEEP_FRAMES`] frames in
/// contact with every particle slower than this (m/s, per axis). At rest
/// the solver's rounding (a correction is rounded to 1/4096 m, and in
/// Verlet a position error is a velocity error) keeps particles
/// trembling at up to 0.06 m/s (`cargo test -p assetc --test
/// ragdoll_worlds`); sleeping stops that and saves the frame's work.
pub const SLEEP_SPEED: Fx1 = crate::fx!(0.1);

/// A ragdoll wakes a sleeper it pushes only while some particle of it
/// moves faster than this (m/s, per axis): a pile shaken by a landing
/// wakes where the landing moves it, not all through.
pub const WAKE_SPEED: Fx1 = crate::fx!(0.5);

/// See [`SLEEP_SPEED`]: 0.75 s.
pub const SLEEP_FRAMES: u8 = 45;

/// The last frames of the [`SLEEP_FRAMES`] a ragdoll lies still before
/// it sleeps, in which it settles. A settling frame is an awake one
/// without integration: velocities zeroed, no gravity, the usual passes
/// and collision. Awake, each step's gravity sags what the two passes a
/// step do not take back (2.6 % on the worst stick in the box room);
/// settling, the passes converge on the lengths, and the ragdoll sleeps
/// with its sticks within 0.4 % (`cargo run --release --example
/// verlet_rest_braces`). It costs no more than the awake frames it
/// replaces (a resting particle's sweep no longer hits the ground), and
/// moves particles by a few millimetres in all. Only a push faster than
/// [`WAKE_SPEED`] ends it.
pub const SETTLE_FRAMES: u8 = 16;

impl<const N: usize, const C: usize> Ragdoll<N, C> {
    /// A ragdoll with no particles: a slot for [`Ragdoll::rebuild`] to
    /// fill in place.
    pub const EMPTY: Self = Ragdoll {
        particles: Particles::new(),
        constraints: Constraints::new(),
        conserve_momentum: true,
        total_mass: Fx1::ZERO,
        drift: [0; 3],
        any_pinned: false,
        still_frames: 0,
        shoving: true,
        asleep: false,
        crowd_box: ([i32::MAX; 3], [i32::MIN; 3]),
    };

    /// The ragdoll of `def`, at rest, its pose moved by `origin`.
    ///
    /// It is returned by value: about 3 KiB for the default capacities. On
    /// the DS, where the stack is the 16 KiB of DTCM, build it in place
    /// with [`Ragdoll::rebuild`] instead.
    ///
    /// # Panics
    /// As [`Ragdoll::rebuild`].
    pub fn new(def: &RagdollDef, origin: Vec3) -> Self {
        let mut r = Self::EMPTY;
        r.rebuild(def, origin);
        r
    }

    /// The ragdoll in `slot`, an [`Ragdoll::EMPTY`] one put there first if
    /// it holds none: for [`Ragdoll::rebuild`] in a slot of a crowd without
    /// a stack copy (`slot.insert(Ragdoll::new(..))` may make two).
    pub fn in_slot(slot: &mut Option<Self>) -> &mut Self {
        if slot.is_none() {
            *slot = Some(Self::EMPTY);
        }
        match slot {
            Some(r) => r,
            None => unreachable!("filled above"),
        }
    }

    /// Makes this the ragdoll of `def`, at rest, its pose moved by
    /// `origin`, exactly as [`Ragdoll::new`] would, without a copy on the
    /// stack. Every setting is reset too (`conserve_momentum` is on).
    ///
    /// # Panics
    /// If `def` has more than `N` particles or `C` constraints, or a
    /// constraint names a particle that does not exist (`assetc` rejects
    /// such definitions at build time).
    pub fn rebuild(&mut self, def: &RagdollDef, origin: Vec3) {
        *self = Self::EMPTY;
        let mut total_mass = Fx1::ZERO;
        for p in def.particles {
            self.particles
                .push(p.position + origin, p.mass, p.inv_mass, p.radius)
                .expect("ragdoll: more particles than the capacity N");
            total_mass += p.mass;
        }
        for c in def.constraints {
            self.constraints
                .push(c, self.particles.inv_masses())
                .expect("ragdoll: more constraints than the capacity C, or a bad particle index");
        }
        for side in def.sides {
            self.constraints
                .push_side(
                    side,
                    self.particles.inv_masses(),
                    self.particles.positions(),
                )
                .expect("ragdoll: more than MAX_SIDES side constraints, or a bad one");
        }
        self.any_pinned = self.particles.inv_masses().contains(&Fx1::ZERO);
        self.total_mass = total_mass;
    }

    /// One frame without a world: [`Ragdoll::step_with`] with an empty
    /// collision callback (so `iterations + post_collision_iterations`
    /// relaxation passes per substep).
    pub fn step(&mut self, settings: &Settings) {
        self.step_with(settings, |_, _, _, _| {});
    }

    /// One frame. `collide(i, prev, cur, radius)` is called for every free
    /// particle after each substep's relaxation; it may move `cur` (and
    /// `prev`, to change the implied velocity, e.g. for friction).
    pub fn step_with(
        &mut self,
        settings: &Settings,
        collide: impl FnMut(usize, &mut Vec3, &mut Vec3, Fx1),
    ) {
        self.step_with_timed(settings, collide, &mut Untimed);
    }

    /// [`Ragdoll::step_with`], telling `timer` where each phase begins
    /// and ends.
    pub fn step_with_timed<T: PhaseTimer>(
        &mut self,
        settings: &Settings,
        mut collide: impl FnMut(usize, &mut Vec3, &mut Vec3, Fx1),
        timer: &mut T,
    ) {
        timed(timer, StepPhase::Physics, |t| {
            let p = self.begin_frame(settings);
            for _ in 0..p.substeps {
                self.integrate_and_relax(settings, &p, t);
                timed(t, StepPhase::Collision, |_| {
                    self.particles.for_each_free(&mut collide)
                });
                self.relax_after_collision(settings, &p, t);
            }
        });
    }

    /// One frame in a box `room`: [`Ragdoll::step_with`] with the room's
    /// collision, and sleep: asleep, it does nothing.
    pub fn step_in_room(&mut self, settings: &Settings, room: &BoxRoom) {
        self.step_touching(settings, &mut Untimed, |r, _| r.touch_room(room));
    }

    /// Collides every free particle with `room`; true if any touched it.
    pub(super) fn touch_room(&mut self, room: &BoxRoom) -> bool {
        let mut any = false;
        self.particles
            .for_each_free(|_, prev, cur, radius| any |= room.touch(prev, cur, radius));
        any
    }

    /// One frame in a k-d tree `world`: [`Ragdoll::step_with`] with
    /// the two-phase world collision of [`WorldContacts`] (surface
    /// friction coefficient `friction`), and sleep: asleep, it does
    /// nothing.
    pub fn step_in_world(
        &mut self,
        settings: &Settings,
        world: &CollisionWorld,
        contacts: &mut WorldContacts<N>,
        friction: Fx1,
    ) {
        self.step_in_world_timed(settings, world, contacts, friction, &mut Untimed);
    }

    /// [`Ragdoll::step_in_world`], telling `timer` where each phase
    /// begins and ends (nothing, while asleep).
    pub fn step_in_world_timed<T: PhaseTimer>(
        &mut self,
        settings: &Settings,
        world: &CollisionWorld,
        contacts: &mut WorldContacts<N>,
        friction: Fx1,
        timer: &mut T,
    ) {
        self.step_touching(settings, timer, |r, t| {
            timed(t, StepPhase::BroadPhase, |_| {
                contacts.broad_phase_kept(world, &r.particles)
            });
            let touching = timed(t, StepPhase::NarrowPhase, |_| {
                contacts.narrow_phase(world, &mut r.particles, friction)
            });
            touching > 0
        });
    }

    /// One frame whose collision, `collide(ragdoll, timer)`, says whether
    /// the ragdoll touched the world (timed as the collision phase), and
    /// sleep: asleep, it does nothing.
    #[inline(always)]
    fn step_touching<T: PhaseTimer>(
        &mut self,
        settings: &Settings,
        timer: &mut T,
        mut collide: impl FnMut(&mut Self, &mut T) -> bool,
    ) {
        if self.asleep {
            return;
        }
        timed(timer, StepPhase::Physics, |t| {
            let p = self.begin_frame(settings);
            let (mut touching, mut moved) = (false, 0);
            for _ in 0..p.substeps {
                self.integrate_and_relax(settings, &p, t);
                touching = timed(t, StepPhase::Collision, |t| collide(self, t));
                moved = self.relax_after_collision_measured(settings, &p, t);
            }
            self.update_sleep(touching, moved, &p);
        });
    }

    /// A substep's first half: integrate, then `iterations` passes.
    #[inline(always)]
    pub(super) fn integrate_and_relax<T: PhaseTimer>(
        &mut self,
        s: &Settings,
        p: &StepParams,
        t: &mut T,
    ) {
        if self.is_settling() || s.iterations == 0 {
            timed(t, StepPhase::Integrate, |_| {
                if self.is_settling() {
                    self.particles.stop();
                } else {
                    self.particles.integrate(p)
                }
            });
            timed(t, StepPhase::Constraints, |_| self.relax(s.iterations));
            return;
        }
        // The integration hands the passes their positions directly.
        let mut q = MaybeUninit::uninit();
        let q = timed(t, StepPhase::Integrate, |_| {
            self.particles.integrate_q20(p, &mut q)
        });
        timed(t, StepPhase::Constraints, |_| {
            self.relax_q20(q, s.iterations)
        });
    }

    /// A substep's second half: the passes after collision, the speed cap.
    #[inline(always)]
    pub(super) fn relax_after_collision<T: PhaseTimer>(
        &mut self,
        s: &Settings,
        p: &StepParams,
        t: &mut T,
    ) {
        timed(t, StepPhase::Constraints, |_| {
            self.relax(s.post_collision_iterations);
            self.particles.clamp_velocities(p);
        });
    }

    /// [`Ragdoll::relax_after_collision`], returning the largest component
    /// of any particle's motion after it (raw FX1, see
    /// [`Particles::clamp_velocities_measured`]).
    #[inline(always)]
    fn relax_after_collision_measured<T: PhaseTimer>(
        &mut self,
        s: &Settings,
        p: &StepParams,
        t: &mut T,
    ) -> i32 {
        timed(t, StepPhase::Constraints, |_| {
            self.relax(s.post_collision_iterations);
            self.particles.clamp_velocities_measured(p)
        })
    }

    /// Counts still frames in contact, and puts the ragdoll to sleep (at
    /// rest: every previous position set to the current one) after
    /// [`SLEEP_FRAMES`], the last [`SETTLE_FRAMES`] of them settling.
    /// `moved` is the largest component of any particle's `|cur - prev|`
    /// (raw FX1), as [`Ragdoll::relax_after_collision_measured`] found it when
    /// nothing moved the particles since.
    pub(super) fn update_sleep(&mut self, touching: bool, moved: i32, p: &StepParams) {
        if self.count_moved(touching, moved, p) {
            self.fall_asleep();
        }
    }

    /// The count towards sleep of [`Ragdoll::update_sleep`], without the
    /// sleep: true once it has lain still for [`SLEEP_FRAMES`] (the last
    /// [`SETTLE_FRAMES`] of them settling). For callers that moved the
    /// particles after the speed cap (a crowd's contacts between
    /// ragdolls), so it measures the motion again.
    pub(super) fn count_still(&mut self, touching: bool, p: &StepParams) -> bool {
        let moved = self.particles.largest_motion();
        self.count_moved(touching, moved, p)
    }

    /// [`Ragdoll::count_still`] for the largest component of any
    /// particle's motion, `moved` (raw FX1).
    fn count_moved(&mut self, touching: bool, moved: i32, p: &StepParams) -> bool {
        // Per axis, raw FX1 a substep.
        let per_step = |speed: Fx1| speed.div_int(STEPS_PER_SECOND * p.substeps as i32).raw();
        self.shoving = moved > per_step(WAKE_SPEED);
        // Settling moves particles by the sag it takes back, which may
        // be faster than SLEEP_SPEED for a frame, and with no gravity a
        // particle that rested on the world may lift off it by as much:
        // only a push ends it.
        let still = if self.is_settling() {
            !self.shoving
        } else {
            touching && moved <= per_step(SLEEP_SPEED)
        };
        self.still_frames = if still {
            self.still_frames.saturating_add(1)
        } else {
            0
        };
        self.still_frames >= SLEEP_FRAMES
    }

    /// True in the last [`SETTLE_FRAMES`] of the [`SLEEP_FRAMES`] it lies
    /// still before it sleeps: those frames settle it.
    #[inline(always)]
    pub fn is_settling(&self) -> bool {
        self.still_frames >= SLEEP_FRAMES - SETTLE_FRAMES
    }

    /// Puts it to sleep: every previous position set to the current one.
    pub(super) fn fall_asleep(&mut self) {
        self.asleep = true;
        self.particles.stop();
    }

    /// True when the last frame found it still and resting on something
    /// (the count towards sleep has begun), or asleep.
    #[cfg(test)]
    pub(super) fn is_still(&self) -> bool {
        self.asleep || self.still_frames > 0
    }

    /// True while asleep (see [`SLEEP_SPEED`]).
    pub fn is_asleep(&self) -> bool {
        self.asleep
    }

    /// Wakes the ragdoll (anything that moves or pushes it does).
    pub fn wake(&mut self) {
        self.asleep = false;
        self.still_frames = 0;
        self.shoving = true;
    }

    /// True when it moved fast enough last frame to wake a sleeper it
    /// pushes ([`WAKE_SPEED`]); a ragdoll woken from outside counts as
    /// that fast until its next frame says otherwise.
    pub(super) fn is_shoving(&self) -> bool {
        !self.asleep && self.shoving
    }

    /// Wakes a sleeper that another ragdoll pushed: awake, but still
    /// counting as still (its count towards sleep starts again from one),
    /// so that it wakes the sleepers it touches only once it moves
    /// itself ([`WAKE_SPEED`]). Woken with a count of zero, every sleeper
    /// a landing ragdoll touched woke its own neighbours the next frame,
    /// and so on through the pile.
    pub(super) fn wake_touched(&mut self) {
        if self.asleep {
            self.asleep = false;
            self.still_frames = 1;
            self.shoving = false;
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
    ///
    /// Each projection conserves momentum exactly only before rounding: a
    /// correction split between two particles is rounded to 2^-20 m, and
    /// in Verlet a position error is a velocity error, so a tumbling
    /// ragdoll in free space would random-walk its centre-of-mass velocity
    /// (measured when corrections were rounded to FX1: 0.5 m/s after 1000
    /// frames, doubling its energy). With [`Ragdoll::conserve_momentum`]
    /// (and nothing pinned), the passes report how far they moved the
    /// mass (`sum m dx`, exact), the difference is accumulated, and once
    /// it reaches half an FX1 step of the whole mass, every particle is
    /// shifted back by whole steps (the remainder is kept). The solver
    /// sums `m q` over its Q20 copy before and after the passes (about
    /// 670 instructions a step, whether or not the give-back is on); the
    /// ragdoll's own sums of `m (x + rem)` before and after had cost
    /// about 1,350 (`make insn-count PCPROFILE=ragdoll`).
    pub fn relax(&mut self, iterations: u8) {
        if iterations == 0 {
            return;
        }
        let (x, rem, masses) = self.particles.solver_state();
        let moved = self.constraints.relax(x, rem, masses, iterations as u32);
        self.give_back(moved);
    }

    /// [`Ragdoll::relax`] from the Q20 positions a fresh integration
    /// handed over (`Particles::integrate_q20`; `iterations` above 0).
    fn relax_q20(&mut self, q: &mut [[i32; 4]; N], iterations: u8) {
        let (x, rem, masses) = self.particles.solver_state();
        let moved = self
            .constraints
            .relax_q20(q, x, rem, masses, iterations as u32);
        self.give_back(moved);
    }

    /// Accumulates the passes' moved mass and gives back whole steps of
    /// it (see [`Ragdoll::relax`]).
    #[inline(always)]
    fn give_back(&mut self, moved: [i64; 3]) {
        let fix = self.conserve_momentum && !self.any_pinned;
        if fix {
            for (d, m) in self.drift.iter_mut().zip(moved) {
                *d += m;
            }
            self.give_back_drift();
        }
    }

    /// Shifts every particle back by whole FX1 steps of accumulated drift
    /// (Q32 kg m: one FX1 step of the whole mass is `M raw << 8`).
    fn give_back_drift(&mut self) {
        let step = (self.total_mass.raw() as i64) << 8;
        let half = step >> 1;
        let mut shift = [0i32; 3];
        for (s, d) in shift.iter_mut().zip(self.drift.iter_mut()) {
            if d.abs() >= half && step > 0 {
                // Rounded to nearest, half away from zero.
                let q = (*d + if *d < 0 { -half } else { half }) / step;
                *s = q as i32;
                *d -= q * step;
            }
        }
        // Not `shift != [0; 3]`: that compiles to a call to `memcmp` (169
        // model cycles a step, every step).
        if shift.iter().any(|&s| s != 0) {
            self.particles
                .shift_positions(-Vec3::from_raw(shift[0], shift[1], shift[2]));
        }
    }

    /// Current positions (m).
    #[inline]
    pub fn positions(&self) -> &[Vec3] {
        self.particles.positions()
    }

    /// Pins particle `i` (e.g. grabbed by the stylus): see
    /// [`Particles::move_pinned`] to move it.
    pub fn pin(&mut self, i: usize) {
        self.wake();
        self.particles.pin(i);
        self.masses_changed();
    }

    /// Releases a pinned particle.
    pub fn unpin(&mut self, i: usize) {
        self.wake();
        self.particles.unpin(i);
        self.masses_changed();
    }

    /// Sets one inverse mass (1/kg, 0 pins).
    pub fn set_inv_mass(&mut self, i: usize, inv_mass: Fx1) {
        self.wake();
        self.particles.set_inv_mass(i, inv_mass);
        self.masses_changed();
    }

    fn masses_changed(&mut self) {
        self.constraints.refresh(self.particles.inv_masses());
        self.any_pinned = self.particles.inv_masses().contains(&Fx1::ZERO);
        self.drift = [0; 3];
    }

    /// Moves a pinned particle (see [`Particles::move_pinned`]).
    pub fn move_pinned(&mut self, i: usize, position: Vec3) {
        self.wake();
        self.particles.move_pinned(i, position);
    }

    /// Adds an impulse (kg m/s) to particle `i`.
    pub fn apply_impulse(&mut self, i: usize, impulse: Vec3) {
        self.wake();
        self.particles.apply_impulse(i, impulse);
    }

    /// Sets the velocity (m/s) of particle `i`.
    pub fn set_velocity(&mut self, i: usize, v: Vec3) {
        self.wake();
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
    /// `i32`) and integration remainder (three little-endian `i32`). The ROM
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
            for c in r[i] {
                h.write(&c.to_le_bytes());
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
