//! The particle system: positions only (current and previous), inverse
//! masses, radii. Structure of arrays with a fixed capacity `N`.
//!
//! # Inverse masses
//! `inv_mass` is `1 / mass` in 1/kg as [`Fx1`] (12 fraction bits). The
//! useful range is `(0, 64]` (masses from 1/64 kg = 16 g up; a 1 kg
//! particle is 4096 raw, 10 kg is 410 raw, i.e. 0.25 % resolution; above
//! 4096 kg the inverse rounds to 0). **0 pins the particle**: it is never
//! moved by integration, constraints or collision, only by
//! [`Particles::move_pinned`] (for example while the stylus holds it).
//! Constraints weight their corrections by `w_a / (w_a + w_b)`.
//!
//! # Velocities
//! Verlet state is positions: the velocity of a particle is implied by
//! `cur - prev`, a displacement per substep. [`Particles::set_velocity`]
//! and [`Particles::apply_impulse`] move `prev`. Velocities in the API are
//! m/s.
//!
//! # Rounding
//! Each integration computes the new displacement in FX2 and rounds it to
//! FX1; the rounding remainder (at most half an FX1 step) is carried to
//! the particle's next step (error diffusion). Without it, gravity at
//! 1/60 s (11.16 FX1 steps per step^2) would round to 11 (1.4 % weak), and
//! damping would not act on speeds below `0.5 / (1 - damping)` steps per
//! step (0.7 m/s at 0.99). The constraint solver works on the position
//! with the remainder folded in, and puts back what its own rounding to
//! FX1 leaves out (`super::constraints`), so that its corrections'
//! velocities are exact to a micrometre a step too.

use core::mem::MaybeUninit;

use crate::collision::resolve::{ContactMemo, NOWHERE};
use crate::collision::sweep::RestMemo;
use crate::divsqrt::div_auto;
use crate::fx::{Fx1, Vec3};
use kernels::cap::{self, largest_magnitude};
use kernels::integrate::{self as kernel, Left, Motion};

use super::constraints::q20;
use super::settings::{Gravity, StepParams};
use super::STEPS_PER_SECOND;

/// `n / d` rounded to nearest (ties away from zero), `d > 0`.
#[inline]
fn div_round(n: i64, d: i64) -> i64 {
    let half = d / 2;
    div_auto(if n >= 0 { n + half } else { n - half }, d)
}

/// A velocity in m/s as a displacement per substep (rounded).
#[inline]
pub(crate) fn velocity_to_disp(v: Vec3, steps_per_second: i32) -> Vec3 {
    v.map(|c| Fx1::from_raw(div_round(c.raw() as i64, steps_per_second as i64) as i32))
}

/// Particles: current and previous positions, masses, radii.
#[derive(Clone, Debug)]
pub struct Particles<const N: usize> {
    len: usize,
    /// Current and previous positions, and the rounding remainders: FX2
    /// raw, per component; in `[-2048, 2048)` (half an FX1 step either
    /// way) after integration and after the constraints alike. One
    /// `repr(C)` block, for the integration kernel.
    motion: Motion<N>,
    inv_mass: [Fx1; N],
    /// The inverse mass to restore on `unpin`.
    free_inv_mass: [Fx1; N],
    mass: [Fx1; N],
    radius: [Fx1; N],
    /// What each particle's narrow phase remembers between steps (its
    /// contact hint, where it was found clear: `ContactMemo`); where it
    /// was found clear is about the world `memo_world` names
    /// (`WorldContacts::narrow_phase`).
    memo: [ContactMemo; N],
    /// The world the memos are about: its triangles' address and count
    /// (`(0, 0)`: none yet).
    memo_world: (usize, usize),
    /// The substep count the implied velocities are per.
    substeps: u8,
}

impl<const N: usize> Default for Particles<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Particles<N> {
    /// No particles.
    pub const fn new() -> Self {
        Particles {
            len: 0,
            motion: Motion::ZERO,
            inv_mass: [Fx1::ZERO; N],
            free_inv_mass: [Fx1::ZERO; N],
            mass: [Fx1::ZERO; N],
            radius: [Fx1::ZERO; N],
            memo: [ContactMemo::NONE; N],
            memo_world: (0, 0),
            substeps: 1,
        }
    }

    /// Adds a particle at rest; returns its index, or `None` when full.
    /// `mass` (kg) is used for the centre of mass and energy, `inv_mass`
    /// (1/kg, 0: pinned) for the dynamics.
    pub fn push(&mut self, position: Vec3, mass: Fx1, inv_mass: Fx1, radius: Fx1) -> Option<usize> {
        let i = self.len;
        if i >= N {
            return None;
        }
        self.motion.cur[i] = position;
        self.motion.prev[i] = position;
        self.motion.rem[i] = [0; 3];
        self.memo[i] = ContactMemo::NONE;
        self.inv_mass[i] = inv_mass;
        self.free_inv_mass[i] = inv_mass;
        self.mass[i] = mass;
        self.radius[i] = radius;
        self.len += 1;
        Some(i)
    }

    /// Number of particles.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Current positions.
    #[inline]
    pub fn positions(&self) -> &[Vec3] {
        &self.motion.cur[..self.len]
    }

    /// Previous positions (one substep ago).
    #[inline]
    pub fn prev_positions(&self) -> &[Vec3] {
        &self.motion.prev[..self.len]
    }

    /// Current position of particle `i`.
    #[inline]
    pub fn position(&self, i: usize) -> Vec3 {
        self.motion.cur[i]
    }

    /// Moves particle `i`'s current position and keeps its previous one:
    /// in Verlet the move is also a velocity change, as a position-based
    /// contact response wants.
    #[inline]
    pub(crate) fn push_to(&mut self, i: usize, position: Vec3) {
        self.motion.cur[i] = position;
    }

    /// Inverse masses (1/kg, 0: pinned).
    #[inline]
    pub fn inv_masses(&self) -> &[Fx1] {
        &self.inv_mass[..self.len]
    }

    /// Masses (kg).
    #[inline]
    pub fn masses(&self) -> &[Fx1] {
        &self.mass[..self.len]
    }

    /// Collision radii (m).
    #[inline]
    pub fn radii(&self) -> &[Fx1] {
        &self.radius[..self.len]
    }

    /// The substep count the implied velocities are per.
    #[inline]
    pub fn substeps(&self) -> u8 {
        self.substeps
    }

    /// Substeps per second for the current substep count.
    #[inline]
    fn rate(&self) -> i32 {
        STEPS_PER_SECOND * self.substeps as i32
    }

    /// True when particle `i` is pinned (inverse mass 0).
    #[inline]
    pub fn is_pinned(&self, i: usize) -> bool {
        self.inv_mass[i] == Fx1::ZERO
    }

    /// Sets the inverse mass (0 pins). Constraints that weight by it must
    /// be refreshed (`Constraints::refresh`; `Ragdoll` does it).
    pub fn set_inv_mass(&mut self, i: usize, inv_mass: Fx1) {
        self.inv_mass[i] = inv_mass;
        if inv_mass != Fx1::ZERO {
            self.free_inv_mass[i] = inv_mass;
        }
    }

    /// Pins particle `i` (inverse mass 0), keeping its velocity for later.
    pub fn pin(&mut self, i: usize) {
        self.inv_mass[i] = Fx1::ZERO;
    }

    /// Restores the inverse mass it had before [`Particles::pin`].
    pub fn unpin(&mut self, i: usize) {
        self.inv_mass[i] = self.free_inv_mass[i];
    }

    /// Moves a (pinned) particle to `position`, the old position becoming
    /// the previous one, so that on release it keeps the velocity of this
    /// last move. Call it every frame while held, also when not moving.
    pub fn move_pinned(&mut self, i: usize, position: Vec3) {
        self.motion.prev[i] = self.motion.cur[i];
        self.motion.cur[i] = position;
        self.motion.rem[i] = [0; 3];
    }

    /// Moves every particle by `offset`, keeping velocities.
    pub fn translate(&mut self, offset: Vec3) {
        for i in 0..self.len {
            self.motion.cur[i] += offset;
            self.motion.prev[i] += offset;
        }
    }

    /// Moves the current position of every free particle by `offset`
    /// (their velocities change by `offset` per substep).
    pub fn shift_positions(&mut self, offset: Vec3) {
        for i in 0..self.len {
            if self.inv_mass[i] != Fx1::ZERO {
                self.motion.cur[i] += offset;
            }
        }
    }

    /// Velocity of particle `i` in m/s, from the last substep.
    #[inline]
    pub fn velocity(&self, i: usize) -> Vec3 {
        (self.motion.cur[i] - self.motion.prev[i]).scale_int(self.rate())
    }

    /// Sets the velocity of particle `i` (m/s) by moving its previous
    /// position. Pinned particles take it too (it shows on release).
    pub fn set_velocity(&mut self, i: usize, v: Vec3) {
        self.motion.prev[i] = self.motion.cur[i] - velocity_to_disp(v, self.rate());
        self.motion.rem[i] = [0; 3];
    }

    /// Adds `impulse` (kg m/s) to particle `i`: its velocity changes by
    /// `impulse * inv_mass` (nothing for a pinned particle).
    pub fn apply_impulse(&mut self, i: usize, impulse: Vec3) {
        let dv = (impulse * self.inv_mass[i]).lower();
        self.motion.prev[i] -= velocity_to_disp(dv, self.rate());
    }

    /// Makes `substeps` the unit of the implied velocities, rescaling each
    /// `cur - prev` by `old / new` (a division per particle, only when the
    /// count changes).
    pub fn set_substeps(&mut self, substeps: u8) {
        let substeps = substeps.max(1);
        if substeps == self.substeps {
            return;
        }
        let (old, new) = (self.substeps as i64, substeps as i64);
        for i in 0..self.len {
            let d = self.motion.cur[i] - self.motion.prev[i];
            let d = d.map(|c| Fx1::from_raw(div_round(c.raw() as i64 * old, new) as i32));
            self.motion.prev[i] = self.motion.cur[i] - d;
            self.motion.rem[i] = [0; 3];
        }
        self.substeps = substeps;
    }

    /// One Verlet step of every free particle:
    /// `x' = x + (x - x_prev) * damping + a dt^2`, the move clamped to
    /// `max_disp` (direction kept). Pinned particles are skipped.
    ///
    /// Per component, on raw integers: `total = v * damping` (FX1 * FX1 =
    /// FX2, one `smull`) `+ a dt^2 + remainder` (FX2), then
    /// `move = (total + 2048) >> 12` (FX1, round half up) and the new
    /// remainder `total - (move << 12)`, in `[-2048, 2048)`.
    // A per-frame loop: kept out of line so linker.ld can place it in ITCM.
    #[inline(never)]
    pub fn integrate(&mut self, p: &StepParams) {
        debug_assert_eq!(p.substeps, self.substeps, "call set_substeps first");
        let store = |x: &mut Vec3, _: &mut [i32; 3], xi| *x = xi;
        match p.gravity {
            Gravity::Down => {
                let g = p.g_dt2.raw();
                self.integrate_each(p, |_, _| [0, -g, 0], store)
            }
            Gravity::TowardsPoint(point) => {
                self.integrate_each(p, |s, i| s.acc_towards(point, i, p), store)
            }
        }
    }

    /// [`Particles::integrate`], handing the constraint solver its Q20
    /// positions (each particle's position with its remainder, as the
    /// solver would read them: `constraints::q20`) instead of storing the
    /// new positions: the solver writes them all back
    /// ([`Constraints::relax_q20`](super::Constraints::relax_q20)), so
    /// neither array goes through main RAM twice. The array is written
    /// into `out` (no zeroing first, no copy out). Only that call may
    /// follow: until it, `positions()` are the old ones.
    // A per-frame loop: kept out of line so linker.ld can place it in ITCM.
    #[inline(never)]
    pub(crate) fn integrate_q20<'q>(
        &mut self,
        p: &StepParams,
        out: &'q mut MaybeUninit<[[i32; 4]; N]>,
    ) -> &'q mut [[i32; 4]; N] {
        debug_assert_eq!(p.substeps, self.substeps, "call set_substeps first");
        match (p.gravity, i32::try_from(p.g_dt2.raw())) {
            (Gravity::Down, Ok(g_dt2)) => self.integrate_q20_down(p, g_dt2, out),
            _ => out.write(self.integrate_q20_other(p)),
        }
    }

    /// [`Particles::integrate_q20`] with the usual gravity (`g_dt2` raw
    /// FX2 downwards): the integration kernel (`kernels::integrate`, ARM
    /// on the DS), which hands back the pinned particles, the slots
    /// beyond the count, and the moves that may be over the speed cap
    /// (or lead beyond the passes' range).
    #[inline(always)]
    fn integrate_q20_down<'q>(
        &mut self,
        p: &StepParams,
        g_dt2: i32,
        out: &'q mut MaybeUninit<[[i32; 4]; N]>,
    ) -> &'q mut [[i32; 4]; N] {
        let step = kernel::Step {
            damping: p.damping.raw(),
            g_dt2,
            within: (p.max_disp.raw().max(0) >> 1) - 1,
        };
        let left = |m: &mut Motion<N>, slot| match slot {
            Left::Finish(i, [x, y, z]) => {
                let disp = capped(Vec3::from_raw(x, y, z), &mut m.rem[i], p);
                q20(m.prev[i] + disp, m.rem[i])
            }
            Left::Still(i) => q20(m.cur[i], m.rem[i]),
        };
        kernel::integrate_all(&mut self.motion, &self.inv_mass, self.len, &step, left, out)
    }

    /// [`Particles::integrate_q20`] with gravity towards a point, or a
    /// downwards one beyond 32 bits. Apart (and left in main RAM): the
    /// usual gravity's loop is the one that must fit the ITCM overlay.
    #[inline(never)]
    fn integrate_q20_other(&mut self, p: &StepParams) -> [[i32; 4]; N] {
        match p.gravity {
            Gravity::Down => {
                let g = p.g_dt2.raw();
                self.integrate_q20_with(p, |_, _| [0, -g, 0])
            }
            Gravity::TowardsPoint(point) => {
                self.integrate_q20_with(p, |s, i| s.acc_towards(point, i, p))
            }
        }
    }

    /// The array of [`Particles::integrate_q20`] for the acceleration
    /// `acc(self, i)` of each free particle `i`: every other slot (pinned,
    /// or beyond the count) as the solver would convert it.
    #[inline(always)]
    fn integrate_q20_with(
        &mut self,
        p: &StepParams,
        acc: impl Fn(&Self, usize) -> [i64; 3],
    ) -> [[i32; 4]; N] {
        core::array::from_fn(|i| {
            if i < self.len && self.inv_mass[i] != Fx1::ZERO {
                let a = acc(self, i);
                self.integrate_one(i, p, a, |_, rem, x| q20(x, *rem))
            } else {
                q20(self.motion.cur[i], self.motion.rem[i])
            }
        })
    }

    /// Gravity towards `point` for particle `i`, `a dt^2` (FX2 raw): the
    /// unit FX1 direction times FX2 is FX3, rounded to FX2.
    #[inline(always)]
    fn acc_towards(&self, point: Vec3, i: usize, p: &StepParams) -> [i64; 3] {
        let dir = (point - self.motion.cur[i]).normalise().raw();
        dir.map(|c| (c as i64 * p.g_dt2.raw() + (1 << 11)) >> 12)
    }

    /// The loop of [`Particles::integrate`]: each free particle's step
    /// with acceleration `acc(self, i)`, its new position given to
    /// `store(cur, rem, new)` (its remainder already in `rem`).
    #[inline(always)]
    fn integrate_each(
        &mut self,
        p: &StepParams,
        acc: impl Fn(&Self, usize) -> [i64; 3],
        mut store: impl FnMut(&mut Vec3, &mut [i32; 3], Vec3),
    ) {
        for i in 0..self.len {
            if self.inv_mass[i] != Fx1::ZERO {
                let a = acc(self, i);
                self.integrate_one(i, p, a, &mut store);
            }
        }
    }

    /// One free particle's step with acceleration `acc` (`a dt^2`, FX2
    /// raw): `store` gets its new position.
    #[inline(always)]
    fn integrate_one<R>(
        &mut self,
        i: usize,
        p: &StepParams,
        acc: [i64; 3],
        mut store: impl FnMut(&mut Vec3, &mut [i32; 3], Vec3) -> R,
    ) -> R {
        let x = self.motion.cur[i];
        let vr = (x - self.motion.prev[i]).raw();
        let rem = &mut self.motion.rem[i];
        let mut disp = [0i32; 3];
        for c in 0..3 {
            disp[c] = kernel::step_axis(vr[c], p.damping.raw(), acc[c], &mut rem[c]);
        }
        let disp = capped(Vec3::from_raw(disp[0], disp[1], disp[2]), rem, p);
        self.motion.prev[i] = x;
        store(&mut self.motion.cur[i], rem, x + disp)
    }

    /// Clamps every particle's implied velocity `cur - prev` to
    /// `max_disp` per substep, by moving `prev`.
    // A per-frame loop: kept out of line so linker.ld can place it in ITCM.
    #[inline(never)]
    pub fn clamp_velocities(&mut self, p: &StepParams) {
        self.clamp_velocities_and::<false>(p);
    }

    /// [`Particles::clamp_velocities`], returning the largest component
    /// of any particle's `|cur - prev|` after the clamp (raw FX1; 0 with
    /// no particles): what the count towards sleep reads
    /// (`Ragdoll::count_still`), found where each difference is already
    /// in registers instead of in a second pass over the arrays. (Apart,
    /// so that a crowd, which measures after its contacts, pays nothing.)
    #[inline(never)]
    pub fn clamp_velocities_measured(&mut self, p: &StepParams) -> i32 {
        self.clamp_velocities_and::<true>(p)
    }

    #[inline(always)]
    fn clamp_velocities_and<const MEASURE: bool>(&mut self, p: &StepParams) -> i32 {
        // The kernel goes through the moves surely within the cap (every
        // component at most half of it: |d|^2 <= 3 (cap / 2)^2 < cap^2)
        // and hands back each other one for the exact test. (A negative
        // cap, which only a hand-made `StepParams` has, lets only a zero
        // move through: the exact test leaves that one alone too.)
        let within = (p.max_disp.raw().max(0) >> 1) as u32;
        let (mut moved, mut from) = (0, 0);
        loop {
            let (fold, stop) = cap::measure(&self.motion, from..self.len, within, moved);
            moved = fold;
            let Some(i) = stop else {
                break;
            };
            let m = &mut self.motion;
            let (x, d) = (m.cur[i], m.cur[i] - m.prev[i]);
            let mut largest = largest_magnitude(d);
            if d.length_squared() > p.max_disp2 {
                let d = clamp_len(d, p.max_disp);
                m.prev[i] = x - d;
                m.rem[i] = [0; 3];
                largest = largest_magnitude(d);
            }
            moved = moved.max(largest_moved(largest));
            from = i + 1;
        }
        if MEASURE {
            moved
        } else {
            0
        }
    }

    /// The largest component of any particle's `|cur - prev|` (raw FX1;
    /// 0 with no particles), what [`Particles::clamp_velocities_measured`]
    /// returns when nothing moved the particles since.
    pub fn largest_motion(&self) -> i32 {
        let (x, xp) = (self.positions(), self.prev_positions());
        x.iter()
            .zip(xp)
            .map(|(a, b)| largest_moved(largest_magnitude(*a - *b)))
            .fold(0, i32::max)
    }

    /// Calls `f(i, prev, cur, radius)` for every free particle, e.g. to
    /// collide it with the world.
    pub fn for_each_free(&mut self, mut f: impl FnMut(usize, &mut Vec3, &mut Vec3, Fx1)) {
        self.for_each_free_resting(|i, prev, cur, radius, _| f(i, prev, cur, radius));
    }

    /// [`Particles::for_each_free`], also handing out each particle's
    /// narrow-phase memo (see the field `memo`).
    #[inline]
    pub(crate) fn for_each_free_resting(
        &mut self,
        mut f: impl FnMut(usize, &mut Vec3, &mut Vec3, Fx1, &mut ContactMemo),
    ) {
        for i in 0..self.len {
            if self.inv_mass[i] != Fx1::ZERO {
                f(
                    i,
                    &mut self.motion.prev[i],
                    &mut self.motion.cur[i],
                    self.radius[i],
                    &mut self.memo[i],
                );
            }
        }
    }

    /// Forgets what the memos found of the world (where it was clear,
    /// what a resting start was) unless they are about `world` (its
    /// triangles' address and count), and keeps `world` as the memos'
    /// world. The contact hints stay: the narrow phase checks them
    /// against whatever world it is given.
    #[inline]
    pub(crate) fn memos_for(&mut self, world: (usize, usize)) {
        if self.memo_world != world {
            self.forget_world();
            self.memo_world = world;
        }
    }

    /// Forgets what the narrow phase's memos found of the world. The
    /// narrow phase does this itself when it is given another world;
    /// call it after changing a world's triangles in place (the same
    /// slice), which it cannot see.
    pub fn forget_world(&mut self) {
        for m in &mut self.memo {
            m.clear_at = NOWHERE;
            m.rest = RestMemo::NONE;
        }
    }

    /// Stops every particle: previous positions set to the current ones,
    /// integration remainders cleared.
    pub fn stop(&mut self) {
        self.motion.prev = self.motion.cur;
        self.motion.rem = [[0; 3]; N];
    }

    /// The whole arrays of current positions, rounding remainders and
    /// masses (zero beyond the count), for the constraint solver (its
    /// links name particles below the count; the fixed size lets it index
    /// without bounds checks).
    #[inline]
    pub(crate) fn solver_state(&mut self) -> (&mut [Vec3; N], &mut [[i32; 3]; N], &[Fx1; N]) {
        (&mut self.motion.cur, &mut self.motion.rem, &self.mass)
    }

    /// The positions and remainders, and the inverse masses, as the
    /// kernels read them (whole arrays: zero beyond the count).
    #[inline]
    pub(crate) fn motion(&self) -> (&Motion<N>, &[Fx1; N]) {
        (&self.motion, &self.inv_mass)
    }

    /// Rounding remainders, for the state hash.
    #[inline]
    pub(crate) fn remainders(&self) -> &[[i32; 3]] {
        &self.motion.rem[..self.len]
    }
}

/// [`largest_magnitude`] as the count towards sleep reads it (`i32`; a
/// component of `-2^31` wraps below 0, so it never counts as the largest).
#[inline(always)]
fn largest_moved(largest: u32) -> i32 {
    largest as i32
}

/// A particle's new move `disp`, clamped to the speed cap; a clamp
/// clears its remainder `rem` (which rounded the move now scaled).
#[inline(always)]
fn capped(disp: Vec3, rem: &mut [i32; 3], p: &StepParams) -> Vec3 {
    if disp.length_squared() > p.max_disp2 {
        *rem = [0; 3];
        return clamp_len(disp, p.max_disp);
    }
    disp
}

/// `v` scaled to length at most `max` (direction kept, never longer:
/// divides by `floor(|v|) + 1` and truncates towards zero).
#[inline]
pub(crate) fn clamp_len(v: Vec3, max: Fx1) -> Vec3 {
    let len = v.length() + Fx1::EPSILON;
    v.map(|c| (c * max) / len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verlet::Settings;
    use crate::xorshift::XorShift32;

    /// The integration kernel's path (`integrate_q20` with the usual
    /// gravity) gives the bits of the engine's own loop
    /// (`integrate_q20_with`), which serves every other gravity: random
    /// particles at a ragdoll's speeds and beyond the speed cap, at and
    /// around the passes' position limit on both sides, some pinned.
    #[test]
    fn integration_kernel_steps_as_the_engines_loop() {
        let mut rng = XorShift32::new(0x5eed_1e7e);
        let lim = kernel::POSITION_LIMIT;
        let s = Settings::default();
        let p = StepParams::new(&s);
        let g = p.g_dt2.raw();
        let mut at_limit = 0;
        for round in 0..2000 {
            let mut a = Particles::<16>::new();
            let n = 1 + rng.next_u32() as usize % 16;
            for _ in 0..n {
                let centre = [0, lim - 40, 40 - lim, lim + 40, -lim - 40][round % 5];
                let c = |rng: &mut XorShift32| centre + (rng.next_u32() % 81) as i32 - 40;
                let x = Vec3::from_raw(c(&mut rng), c(&mut rng), c(&mut rng));
                let w = if rng.next_u32().is_multiple_of(8) {
                    Fx1::ZERO
                } else {
                    Fx1::ONE
                };
                let i = a.push(x, Fx1::ONE, w, Fx1::from_raw(400)).unwrap();
                let speed = [64, 1024, 4096][rng.next_u32() as usize % 3];
                let v = [0; 3].map(|_| (rng.next_u32() % (2 * speed)) as i32 - speed as i32);
                a.motion.prev[i] = x - Vec3::from_raw(v[0], v[1], v[2]);
                a.motion.rem[i] = [0; 3].map(|_| (rng.next_u32() % 4096) as i32 - 2048);
            }
            let mut b = a.clone();
            let mut out = MaybeUninit::uninit();
            let got = *a.integrate_q20(&p, &mut out);
            let want = b.integrate_q20_with(&p, |_, _| [0, -g, 0]);
            assert_eq!(got, want, "round {round}: Q20 positions");
            assert_eq!(
                a.motion.prev, b.motion.prev,
                "round {round}: previous positions"
            );
            assert_eq!(a.motion.rem, b.motion.rem, "round {round}: remainders");
            at_limit += got
                .iter()
                .flatten()
                .filter(|&&q| q.abs() >> 8 == lim)
                .count();
        }
        assert!(
            at_limit > 1000,
            "too few positions at the limit: {at_limit}"
        );
    }
}
