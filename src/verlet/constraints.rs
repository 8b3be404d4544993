//! Distance constraints (sticks, ranges, min-sticks), relaxed by
//! Gauss-Seidel position projection, weighted by inverse masses.
//!
//! # The square-root-free path
//! A constraint with target length `t` (the rest length, or the violated
//! bound of a range) moves its particles along `delta = x_b - x_a` by
//! the fraction `(|delta| - t) / |delta|` of `delta`, shared in the ratio
//! `w_a : w_b`. Exactly, that needs a square root and a division. Around
//! the target, with `e = |delta|^2 / t^2 - 1`,
//! `(|delta| - t) / |delta| = 1 - (1 + e)^-1/2 = e/2 - 3e^2/8 + ...`, and
//! Jakobsen's first-order approximation keeps `e/2`:
//! `(|delta|^2 - t^2) * (1 / (2 t^2))`, with `1 / (2 t^2)` precomputed: no
//! square root and no division. It has the same fixed point (`e = 0`),
//! and one projection of an isolated stick leaves a relative length error
//! of about `1.5 eps^2` (for `eps = |delta|/t - 1`) instead of 0.
//!
//! It is used while `|e| <= window` ([`DEFAULT_APPROX_WINDOW`] = 0.25, i.e.
//! lengths within about -13 % .. +12 % of the target); outside, the exact
//! path takes one square root and one division (DS units). Measured in
//! `tests/verlet_stiffness.rs` (`approx_window_sweep`): on a tumbling,
//! falling humanoid at the default solver budget, every window from 0 to
//! 0.5 gives the same stiffness within measurement noise, and at 0.25
//! fewer than 1 % of the corrections take the exact path. The window is
//! bounded by the approximation's accuracy, not by its speed: at `e`, the
//! correction is off by about `0.75 e` of itself (19 % at 0.25, 75 % at
//! 1), and beyond `e = 2` it overshoots so far that it diverges; deep
//! compressions (`e -> -1`) need the exact path to push apart at all.
//!
//! # Where rounding goes
//! The passes run on a Q20 copy of the positions (2^-20 m, a micrometre;
//! [`Constraints::relax`]): each particle's FX1 position with its
//! integration remainder folded in, and folded back after the passes,
//! rounded to FX1 with what rounding left out (below half a step) in the
//! remainder, which the next integration adds to its move. So each
//! correction is rounded to a micrometre, not to an FX1 step (0.24 mm).
//! At FX1 each correction's rounding was a random kick to the velocity:
//! with no damping a tumbling ragdoll's energy random-walked upwards,
//! +10 % to +170 % in 10 s, more with more iterations, while the f32 twin
//! (`floatref`) lost energy (`tests/verlet_energy.rs`,
//! `constraints_add_no_energy_in_free_space`). Until 2026-11-26 the FX1
//! corrections carried their leftovers to the remainders one by one, at
//! about 40 instructions a correction; the Q20 copy costs about 70 a
//! particle a relaxation (in and out), however many passes it runs.
//!
//! # Range
//! Positions enter the passes saturated to [`POSITION_LIMIT`] (256 m on
//! each axis; the collision world's limit is 100 m). A pass moves a
//! particle by at most 1.3 m a link inside the approximation's window,
//! and the exact path keeps its results within the limit, so a few
//! passes at a time keep every position within 2^29.4 Q20: a difference
//! fits an `i32` and a squared length an `i64`
//! (`relaxation_saturates_at_its_position_limit`).

use crate::divsqrt::{div_auto, sqrt_u64};
use crate::fx;
use crate::fx::{Fx1, Fx2, Vec3};
use kernels::relax::{self as kernel, Projection};

use super::def::{ConstraintDef, SideDef};
use super::sides::{keep_side, Side, MAX_SIDES};

/// The default approximation window on `e = |d|^2 / t^2 - 1`.
pub const DEFAULT_APPROX_WINDOW: Fx1 = fx!(0.25);

/// A distance constraint as compiled: its particles and bounds. The
/// solver reads its own form of it ([`kernels::relax::Link`]: squared
/// bounds, approximation windows and mass ratio precomputed, one cache
/// line), which [`Constraints`] keeps beside these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Particle indices.
    pub a: u8,
    /// Second particle.
    pub b: u8,
    /// Minimum length (0: none).
    pub min: Fx1,
    /// Maximum length ([`Fx1::MAX`]: none).
    pub max: Fx1,
}

/// The longest length a link may hold (a stick's rest length, a range's
/// or min-stick's bound): its square must fit the solver's 32-bit Q24
/// compare (128 m^2). The asset compiler refuses longer ones.
pub const MAX_LINK_LENGTH: Fx1 = fx!(10.0);

/// The longest target length the approximation serves (see `project`).
pub const APPROX_MAX_LENGTH: Fx1 = fx!(2.0);

/// `1 / (2 t^2)` in Q20 (FX1 raw << 8; 1/m^2), and whether it is
/// usable: lengths up to 1/64 m (where it would not fit FX1 finely, nor
/// its Q20 `i32`) and above [`APPROX_MAX_LENGTH`] (so that the
/// approximation's products fit `i32`) always take the exact path.
fn inv_2t2(t: Fx1) -> Option<i32> {
    if t <= fx!(1.0 / 64.0) || t > APPROX_MAX_LENGTH {
        return None;
    }
    let two_t2: Fx2 = (t * t) * 2;
    // FX4 / FX2 -> FX2, then to FX1: below 2048 (2^23 raw) for t above
    // 1/64, so below 2^31 in Q20.
    Some((Fx1::ONE.raise().raise().raise() / two_t2).lower().raw() << 8)
}

/// The solver's form of `l` for the inverse masses and window.
///
/// Its squared bounds are Q24 (FX2 raw, exact), saturated to `i32`: the
/// solver compares `|d|^2 >> 16` (Q40 to Q24, saturated) with them and
/// the window bounds in 32 bits. All four are multiples of 2^16 in Q40,
/// so this decides as a Q40 compare would, but for a `|d|^2` in the same
/// 2^-24 m^2 step as a bound: at `min^2` or `max^2` then `e` is 0 and the
/// move nothing; at a window bound it takes the approximation where Q40
/// would take the exact path. (`links_at_the_length_limit_hold` in
/// `tests/verlet_constraints.rs` checks the saturation at
/// [`MAX_LINK_LENGTH`].) A link both of whose ends are pinned has
/// `i32::MIN` and `i32::MAX`: no length is out of them, so the solver
/// needs no flag to pass it by.
fn compile(l: &Link, w_a: Fx1, w_b: Fx1, window: Fx1) -> kernel::Link {
    let mut k = kernel::Link {
        packed: kernel::Link::pack(l.a, l.b, 0),
        min2: 0,
        max2: i32::MAX,
        min2_lo: i32::MAX,
        inv_2min2: 0,
        max2_hi: i32::MIN,
        inv_2max2: 0,
    };
    set_window(&mut k, l, window);
    set_masses(&mut k, l, w_a, w_b);
    k
}

/// Recomputes the approximation windows (`window` on `|d|^2/t^2 - 1`;
/// 0 always takes the exact path).
fn set_window(k: &mut kernel::Link, l: &Link, window: Fx1) {
    let window = window.max(Fx1::ZERO).min(fx!(0.9));
    match inv_2t2(l.min) {
        Some(inv) if window > Fx1::ZERO => {
            k.inv_2min2 = inv;
            let min2 = l.min * l.min;
            k.min2_lo = q24(min2 - (min2 * window).lower());
        }
        _ => k.min2_lo = i32::MAX,
    }
    match inv_2t2(l.max) {
        Some(inv) if window > Fx1::ZERO => {
            k.inv_2max2 = inv;
            let max2 = l.max * l.max;
            k.max2_hi = q24(max2 + (max2 * window).lower());
        }
        _ => k.max2_hi = i32::MIN,
    }
}

/// Recomputes the mass ratio (one division); a link both of whose ends
/// are pinned gets bounds that every length satisfies.
fn set_masses(k: &mut kernel::Link, l: &Link, w_a: Fx1, w_b: Fx1) {
    let sum = w_a + w_b;
    let live = sum > Fx1::ZERO;
    // In [0, 1] for the inverse masses `Particles` allows (none
    // negative); the clamp only keeps the packed word's field.
    let ratio = if live { w_a.div_fx1(sum).raw() } else { 0 };
    k.packed = kernel::Link::pack(l.a, l.b, ratio.clamp(0, 4096) as u16);
    (k.min2, k.max2) = if live {
        (q24(l.min * l.min), q24(l.max * l.max))
    } else {
        (i32::MIN, i32::MAX)
    };
}

/// The links the approximation does not serve ([`Projection::Slow`]):
/// beyond its window, or `|d|^2` at or above 128 m^2 (the Q24 compare's
/// saturation: too long for every finite maximum, never too short).
/// True when it moved them (the exact path). Out of line: about 1 % of
/// the corrections.
#[cold]
#[inline(never)]
fn project_slow<const N: usize>(k: &kernel::Link, l: &Link, q: &mut [[i32; 4]; N]) -> bool {
    let (ia, ib) = (kernel::slot::<N>(l.a), kernel::slot::<N>(l.b));
    let d: [i64; 3] = core::array::from_fn(|c| (q[ib][c] - q[ia][c]) as i64);
    let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    let too_long = d2 >> 47 != 0 || (d2 >> 16) as i32 > k.max2;
    if too_long && k.max2 == i32::MAX {
        return false;
    }
    project_exact(k, q, ia, ib, if too_long { l.max } else { l.min });
    true
}

/// The exact path: moves the particles by `d (|d| - t) / |d|` (one
/// square root, three divisions), each result kept within
/// [`POSITION_LIMIT`].
fn project_exact<const N: usize>(
    k: &kernel::Link,
    q: &mut [[i32; 4]; N],
    ia: usize,
    ib: usize,
    t: Fx1,
) {
    let d: [i32; 3] = core::array::from_fn(|c| q[ib][c] - q[ia][c]);
    let d2 = d.iter().map(|&dc| dc as i64 * dc as i64).sum::<i64>();
    // Q40 -> Q20; 0 only when the particles coincide: nothing moves.
    let len = sqrt_u64(d2 as u64) as i64;
    if len == 0 {
        return;
    }
    // Q20; |t| below 2^31 FX1 raw, so below 2^39 here.
    let num = len - ((t.raw() as i64) << 8);
    let lim = (POSITION_LIMIT.raw() as i64) << 8;
    for c in 0..3 {
        // |d| < 2^31 and |num| < 2^40 over len: the quotient is at
        // most |num| (a push apart) or |d| (a pull together).
        let corr = div_auto(d[c] as i64 * num.clamp(-lim, lim), len);
        let corr_a = (corr * k.ratio_a() as i64 + (1 << 11)) >> 12;
        let (a, b) = (q[ia][c] as i64 + corr_a, q[ib][c] as i64 - (corr - corr_a));
        q[ia][c] = a.clamp(-lim, lim) as i32;
        q[ib][c] = b.clamp(-lim, lim) as i32;
    }
}

/// `x` (FX2 raw, Q24) as an `i32`, saturated. Real bounds are at most
/// [`MAX_LINK_LENGTH`] (100 m^2, below the 128 m^2 that fits); what
/// saturates is `Fx1::MAX`, a link with no maximum, whose bound `|d|^2`
/// (saturated the same way) never exceeds.
fn q24(x: Fx2) -> i32 {
    x.raw().clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// The positions the constraint solver takes: within this of the origin
/// on every axis (256 m; the collision world's is 100 m). A particle
/// beyond it is saturated there by the next relaxation.
pub const POSITION_LIMIT: Fx1 = Fx1::from_raw(kernels::integrate::POSITION_LIMIT);

/// The solver's positions: `x` with its rounding remainder, in Q20
/// (2^-20 m), saturated to [`POSITION_LIMIT`]. The remainder's last 4
/// bits (below Q20) stay in `rem` for [`from_q20`].
#[inline(always)]
fn to_q20<const N: usize>(x: &[Vec3; N], rem: &[[i32; 3]; N]) -> [[i32; 4]; N] {
    // Built element by element (no zeroing first).
    core::array::from_fn(|i| q20(x[i], rem[i]))
}

/// One particle's solver position ([`to_q20`]); the fourth word is
/// padding that makes a particle 16 bytes, one shift to address.
#[inline(always)]
pub(super) fn q20(x: Vec3, rem: [i32; 3]) -> [i32; 4] {
    let (lim, x) = (POSITION_LIMIT.raw(), x.raw());
    let c = |c: usize| (x[c].clamp(-lim, lim) << 8) + (rem[c] >> 4);
    [c(0), c(1), c(2), 0]
}

/// `sum m_i q_i` per axis (FX1 raw mass times Q20: Q32 kg m), exact:
/// a particle's mass is at most 4096 kg (2^24 raw; the asset compiler
/// refuses more) and a position below 2^29.4, so each term is below
/// 2^53.4 and 16 of them below 2^57.4. (A separate loop: summed inside
/// the conversions' loops it cost 134 more instructions a step.) The
/// loop is `kernels::q20::moment` (ARM on the DS).
#[inline(always)]
fn moment<const N: usize>(q: &[[i32; 4]; N], masses: &[Fx1; N]) -> [i64; 3] {
    kernels::q20::moment(q, masses)
}

/// Back from [`to_q20`]: each position rounded to FX1, what rounding
/// left out (below half a step) to its remainder, with the bits below
/// Q20 that `to_q20` left there: the remainder is in `[-2048, 2048)`
/// again. A particle the passes did not move gets its position and a
/// remainder in that range back as they were (but for a saturation).
/// The loop is `kernels::q20` (ARM on the DS).
#[inline(always)]
fn from_q20<const N: usize>(q: &[[i32; 4]; N], x: &mut [Vec3; N], rem: &mut [[i32; 3]; N]) {
    kernels::q20::from_q20(q, x, rem);
}

/// Counters of constraint work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelaxStats {
    /// Constraint evaluations (projections attempted).
    pub evaluations: u32,
    /// Corrections by the square-root-free approximation.
    pub approx: u32,
    /// Corrections by the exact path (square root and division).
    pub exact: u32,
}

/// A fixed-capacity set of compiled constraints.
#[derive(Clone, Debug)]
pub struct Constraints<const C: usize> {
    len: usize,
    /// The solver's form of each link, in pass order (one cache line
    /// each).
    solver: [kernel::Link; C],
    links: [Link; C],
    /// Side constraints, run after each chunk of passes (`sides.rs`).
    sides: [Side; MAX_SIDES],
    sides_len: usize,
    window: Fx1,
    /// Count work into `stats` (off by default).
    pub count_stats: bool,
    /// Work done so far, when `count_stats` is set (reset it freely).
    pub stats: RelaxStats,
}

const EMPTY_LINK: Link = Link {
    a: 0,
    b: 0,
    min: Fx1::ZERO,
    max: Fx1::ZERO,
};

const EMPTY_SOLVER_LINK: kernel::Link = kernel::Link {
    packed: 0,
    min2: i32::MIN,
    max2: i32::MAX,
    min2_lo: i32::MAX,
    inv_2min2: 0,
    max2_hi: i32::MIN,
    inv_2max2: 0,
};

impl<const C: usize> Default for Constraints<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const C: usize> Constraints<C> {
    /// No constraints, the default window.
    pub const fn new() -> Self {
        Constraints {
            len: 0,
            solver: [EMPTY_SOLVER_LINK; C],
            links: [EMPTY_LINK; C],
            sides: [Side::EMPTY; MAX_SIDES],
            sides_len: 0,
            window: DEFAULT_APPROX_WINDOW,
            count_stats: false,
            stats: RelaxStats {
                evaluations: 0,
                approx: 0,
                exact: 0,
            },
        }
    }

    /// Adds a constraint (indices must be below `inv_masses.len()`);
    /// `None` when full.
    pub fn push(&mut self, def: &ConstraintDef, inv_masses: &[Fx1]) -> Option<usize> {
        let (a, b) = (def.a as usize, def.b as usize);
        if self.len >= C || a >= inv_masses.len() || b >= inv_masses.len() {
            return None;
        }
        let l = Link {
            a: def.a,
            b: def.b,
            min: def.min.max(Fx1::ZERO),
            max: def.max,
        };
        self.links[self.len] = l;
        self.solver[self.len] = compile(&l, inv_masses[a], inv_masses[b], self.window);
        self.len += 1;
        Some(self.len - 1)
    }

    /// Adds a side constraint of a definition whose pose is `pose`
    /// (see [`Side::new`]); `None` when full or bad.
    pub fn push_side(&mut self, def: &SideDef, inv_masses: &[Fx1], pose: &[Vec3]) -> Option<usize> {
        let side = Side::new(def, inv_masses, pose)?;
        let slot = self.sides.get_mut(self.sides_len)?;
        *slot = side;
        self.sides_len += 1;
        Some(self.sides_len - 1)
    }

    /// The side constraints.
    #[inline]
    pub fn sides(&self) -> &[Side] {
        &self.sides[..self.sides_len]
    }

    /// The compiled constraints.
    #[inline]
    pub fn links(&self) -> &[Link] {
        &self.links[..self.len]
    }

    /// Number of constraints.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The approximation window.
    pub fn window(&self) -> Fx1 {
        self.window
    }

    /// Sets the approximation window on `|d|^2/t^2 - 1` (clamped to
    /// `[0, 0.9]`; 0: always exact).
    pub fn set_window(&mut self, window: Fx1) {
        self.window = window;
        for (k, l) in self.solver.iter_mut().zip(&self.links[..self.len]) {
            set_window(k, l, window);
        }
    }

    /// Recomputes the mass ratios after inverse masses changed.
    pub fn refresh(&mut self, inv_masses: &[Fx1]) {
        for (k, l) in self.solver.iter_mut().zip(&self.links[..self.len]) {
            set_masses(k, l, inv_masses[l.a as usize], inv_masses[l.b as usize]);
        }
        for s in &mut self.sides[..self.sides_len] {
            s.set_masses(inv_masses);
        }
    }

    /// `iterations` Gauss-Seidel passes over all constraints, in order, on
    /// the positions `x` of an `N`-particle array (the links name
    /// particles below the count given to [`Constraints::push`]).
    /// Counts into [`Constraints::stats`] only when
    /// [`Constraints::count_stats`] is set (measurements), so that the
    /// default loop carries no counters.
    ///
    /// Returns how far the passes moved the mass, `sum m_i dq_i` per axis
    /// (`masses` FX1 raw times Q20 moves of the position and remainder
    /// together: Q32 kg m, exact), for the momentum give-back of
    /// [`Ragdoll::relax`](super::Ragdoll::relax); a saturation at
    /// [`POSITION_LIMIT`] on the way in is not a move.
    // A per-frame loop: kept out of line so linker.ld can place it in ITCM.
    #[inline(never)]
    pub fn relax<const N: usize>(
        &mut self,
        x: &mut [Vec3; N],
        rem: &mut [[i32; 3]; N],
        masses: &[Fx1; N],
        iterations: u32,
    ) -> [i64; 3] {
        // No pass moves nothing (and `relax_q20` needs at least one).
        if iterations == 0 {
            return [0; 3];
        }
        let mut q = to_q20(x, rem);
        self.relax_q20(&mut q, x, rem, masses, iterations)
    }

    /// [`Constraints::relax`] from the Q20 positions `q` that `x` and
    /// `rem` convert to (a fresh integration hands them over:
    /// `Particles::integrate_q20`); `x` is only written, and every one of
    /// its particles is (so `iterations` must not be 0).
    // A per-frame loop: kept out of line so linker.ld can place it in ITCM.
    #[inline(never)]
    pub fn relax_q20<const N: usize>(
        &mut self,
        q: &mut [[i32; 4]; N],
        x: &mut [Vec3; N],
        rem: &mut [[i32; 3]; N],
        masses: &[Fx1; N],
        iterations: u32,
    ) -> [i64; 3] {
        debug_assert!(
            iterations > 0,
            "relax_q20 writes the positions back only after a pass"
        );
        if self.count_stats {
            self.relax_impl::<true, N>(q, x, rem, masses, iterations)
        } else {
            self.relax_impl::<false, N>(q, x, rem, masses, iterations)
        }
    }

    #[inline(always)]
    fn relax_impl<const COUNT: bool, const N: usize>(
        &mut self,
        q: &mut [[i32; 4]; N],
        x: &mut [Vec3; N],
        rem: &mut [[i32; 3]; N],
        masses: &[Fx1; N],
        iterations: u32,
    ) -> [i64; 3] {
        let (solver, links) = (&self.solver[..self.len], &self.links[..self.len]);
        let sides = &self.sides[..self.sides_len];
        let (mut approx, mut exact) = (0u32, 0u32);
        let mut moved = [0i64; 3];
        // At most this many passes between conversions: each pass moves a
        // particle by at most 1.3 m a link by the approximation (and keeps
        // the exact path's results within POSITION_LIMIT), so the
        // positions stay within 256 + 300 * 1.3 m < 2^29.4 Q20.
        let chunk = (300 / C.max(1)).max(1) as u32;
        let mut left = iterations;
        while left > 0 {
            let passes = left.min(chunk);
            if left < iterations {
                *q = to_q20(x, rem);
            }
            left -= passes;
            let before = moment(q, masses);
            for _ in 0..passes {
                if COUNT {
                    for (k, l) in solver.iter().zip(links) {
                        match kernel::project(k, q) {
                            Projection::Satisfied => {}
                            Projection::Approximated => approx += 1,
                            Projection::Slow => exact += project_slow(k, l, q) as u32,
                        }
                    }
                    continue;
                }
                // The approximation's pass, stopping at each link it does
                // not serve for the slow path.
                let mut i = 0;
                loop {
                    i += kernel::approximate(&solver[i..], q);
                    let (Some(k), Some(l)) = (solver.get(i), links.get(i)) else {
                        break;
                    };
                    project_slow(k, l, q);
                    i += 1;
                }
            }
            // Once a chunk, after the sticks have drawn the shape, and
            // inside the momentum sums, which take its rounding back.
            for s in sides {
                keep_side(s, q);
            }
            let after = moment(q, masses);
            for c in 0..3 {
                moved[c] += after[c] - before[c];
            }
            from_q20(q, x, rem);
        }
        if COUNT {
            let st = &mut self.stats;
            st.evaluations = st.evaluations.wrapping_add(iterations * self.len as u32);
            st.approx = st.approx.wrapping_add(approx);
            st.exact = st.exact.wrapping_add(exact);
        }
        moved
    }
}
