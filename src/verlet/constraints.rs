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
//! A correction moves each particle by a whole number of FX1 steps; what
//! rounding leaves out (below half a step) is added to the particle's
//! rounding remainder (`Particles`, FX2), which the next integration adds
//! to its move. So the velocity a correction makes is exact, and only the
//! position lags, by less than half a step. Dropping the leftover instead
//! made each correction a random kick to the velocity: with no damping a
//! tumbling ragdoll's energy random-walked upwards, +10 % to +170 % in 10
//! s, more with more iterations, while the f32 twin (`floatref`) lost
//! energy (`tests/verlet_energy.rs`, `constraints_add_no_energy_in_free_space`).

use crate::fx;
use crate::fx::{Fx1, Fx2, Fx3, Vec3};

use super::def::ConstraintDef;

/// The default approximation window on `e = |d|^2 / t^2 - 1`.
pub const DEFAULT_APPROX_WINDOW: Fx1 = fx!(0.25);

/// A compiled distance constraint: squared bounds, approximation
/// windows and mass ratio precomputed.
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
    min2: Fx2,
    max2: Fx2,
    /// `d^2` at and above which a too-short link takes the approximation.
    min2_lo: Fx2,
    /// `d^2` at and below which a too-long link takes the approximation.
    max2_hi: Fx2,
    /// `1 / (2 min^2)`, 1/m^2.
    inv_2min2: Fx1,
    /// `1 / (2 max^2)`, 1/m^2.
    inv_2max2: Fx1,
    /// `w_a / (w_a + w_b)`, the share of the correction `a` takes.
    ratio_a: Fx1,
    /// False when both ends are pinned.
    live: bool,
}

/// The longest target length the approximation serves (see `project`).
pub const APPROX_MAX_LENGTH: Fx1 = fx!(2.0);

/// `1 / (2 t^2)` as FX1 (1/m^2), and whether it is usable: lengths below
/// 1/64 m (where it would not fit FX1 finely) and above
/// [`APPROX_MAX_LENGTH`] (so that the approximation's products fit `i32`)
/// always take the exact path.
fn inv_2t2(t: Fx1) -> Option<Fx1> {
    if t < fx!(1.0 / 64.0) || t > APPROX_MAX_LENGTH {
        return None;
    }
    let two_t2: Fx2 = (t * t) * 2;
    // FX4 / FX2 -> FX2, then to FX1 (at most 2048 for t >= 1/64).
    Some((Fx1::ONE.raise().raise().raise() / two_t2).lower())
}

impl Link {
    /// Compiles a definition for the given inverse masses and window.
    pub fn new(def: &ConstraintDef, inv_masses: &[Fx1], window: Fx1) -> Link {
        let mut l = Link {
            a: def.a,
            b: def.b,
            min: def.min.max(Fx1::ZERO),
            max: def.max,
            min2: Fx2::ZERO,
            max2: Fx2::MAX,
            min2_lo: Fx2::MAX,
            max2_hi: Fx2::MIN,
            inv_2min2: Fx1::ZERO,
            inv_2max2: Fx1::ZERO,
            ratio_a: Fx1::ZERO,
            live: false,
        };
        l.min2 = l.min * l.min;
        if l.max < fx!(400000.0) {
            l.max2 = l.max * l.max;
        }
        l.set_window(window);
        l.set_masses(inv_masses[l.a as usize], inv_masses[l.b as usize]);
        l
    }

    /// Recomputes the approximation windows (`window` on `|d|^2/t^2 - 1`;
    /// 0 always takes the exact path).
    pub fn set_window(&mut self, window: Fx1) {
        let window = window.max(Fx1::ZERO).min(fx!(0.9));
        match inv_2t2(self.min) {
            Some(k) if window > Fx1::ZERO => {
                self.inv_2min2 = k;
                self.min2_lo = self.min2 - (self.min2 * window).lower();
            }
            _ => self.min2_lo = Fx2::MAX,
        }
        match inv_2t2(self.max) {
            Some(k) if window > Fx1::ZERO && self.max2 != Fx2::MAX => {
                self.inv_2max2 = k;
                self.max2_hi = self.max2 + (self.max2 * window).lower();
            }
            _ => self.max2_hi = Fx2::MIN,
        }
    }

    /// Recomputes the mass ratio (one division).
    pub fn set_masses(&mut self, w_a: Fx1, w_b: Fx1) {
        let sum = w_a + w_b;
        self.live = sum > Fx1::ZERO;
        self.ratio_a = if self.live {
            w_a.div_fx1(sum)
        } else {
            Fx1::ZERO
        };
    }

    /// The exact path, typed and saturating: moves the particles by
    /// `delta * (|d| - t) / |d|` (one square root, one division). It
    /// reads the particles again rather than taking the fast path's
    /// `delta`, which would make that path keep `delta` in memory for a
    /// call it makes for about 1 % of its corrections.
    #[inline(never)]
    fn project_exact(&self, x: &mut [Vec3], rem: &mut [[i32; 3]], t: Fx1) {
        let (ia, ib) = (self.a as usize, self.b as usize);
        let delta = x[ib] - x[ia];
        let len = delta.length_squared().sqrt();
        // FX3 / FX1 -> FX2; len == 0 only when delta == 0 (nothing moves).
        let frac: Fx2 = Fx3::from(len - t) / len;
        // FX1 * FX2 -> FX3, one rounding to FX1 per component.
        let full = delta * frac;
        let corr: Vec3 = full.map(Fx3::lower_to_fx1);
        let corr_a: Vec3 = (corr * self.ratio_a).lower();
        x[ia] += corr_a;
        x[ib] -= corr - corr_a;
        // What rounding left out goes to the remainders (module docs).
        let (full, corr, corr_a) = (full.to_array(), corr.raw(), corr_a.raw());
        for c in 0..3 {
            // FX3 -> FX2 (floor), |corr| below 2^31 FX1 raw.
            let exact = full[c].raw() >> 12;
            let moved = (corr[c] as i64) << 12;
            let moved_a = (corr_a[c] as i64) << 12;
            let (for_a, for_b) = leftovers(exact, moved, moved_a, self.ratio_a);
            rem[ia][c] += for_a;
            rem[ib][c] += for_b;
        }
    }

    /// Projects once. Returns 0 if satisfied, 1 if corrected by the
    /// approximation, 2 if corrected exactly.
    ///
    /// The approximation runs on raw integers: one `smull` (32 x 32 -> 64)
    /// for the fraction, then only 32-bit multiplies, each rounding an add
    /// and a shift (round half up, except the mass split, see below).
    /// Powers are in the comments; the window and [`APPROX_MAX_LENGTH`]
    /// bound every intermediate.
    #[inline(always)]
    fn project<const N: usize>(&self, x: &mut [Vec3; N], rem: &mut [[i32; 3]; N]) -> u32 {
        if !self.live {
            return 0;
        }
        let (ia, ib) = (slot::<N>(self.a), slot::<N>(self.b));
        let delta = x[ib] - x[ia];
        let d2: Fx2 = delta.length_squared();
        // e = |d|^2 - t^2 (FX2 raw; fits i32 inside the window), k = 1/(2t^2).
        let (e, k) = if d2 > self.max2 {
            if d2 > self.max2_hi {
                self.project_exact(&mut x[..], &mut rem[..], self.max);
                return 2;
            }
            ((d2 - self.max2).raw() as i32, self.inv_2max2.raw())
        } else if d2 < self.min2 {
            if d2 < self.min2_lo {
                self.project_exact(&mut x[..], &mut rem[..], self.min);
                return 2;
            }
            ((d2 - self.min2).raw() as i32, self.inv_2min2.raw())
        } else {
            return 0;
        };
        // frac = e * k: FX2 * FX1 = FX3 (36 fraction bits), rounded to a
        // Q16 fraction: |frac| <= window / 2 < 0.45, so below 2^15.
        let frac = ((e as i64 * k as i64 + (1 << 19)) >> 20) as i32;
        let ratio = self.ratio_a.raw();
        let [dx, dy, dz] = delta.raw();
        // corr = delta * frac: FX1 * Q16, rounded to FX1. Inside the window
        // |delta| <= 2 m * sqrt(1.9) < 2^14 raw, so the product is below
        // 2^29 and the correction below 2^13: plain `i32` multiplies.
        // Q16 costs at most 2.8 m * 2^-17 = 0.02 mm, a tenth of an FX1 step.
        let corr = |d: i32| (d * frac + (1 << 15)) >> 16;
        let (cx, cy, cz) = (corr(dx), corr(dy), corr(dz));
        // The share of `a`: corr * ratio (FX1 * FX1 = FX2, below 2^26),
        // rounded to FX1 with ties away from zero (`p >> 31` is -1 below
        // zero): ties are common here (a ratio of 0.5 and an odd `corr`),
        // and rounding them one way would push both particles the same way
        // every time, a steady momentum drift. `b` takes the rest, so the
        // moves sum to `corr`.
        // Each component's correction `c`, `a`'s share of it, and what
        // rounding left out of both for the remainders (module docs), all
        // in 32 bits: the exact move is `d * frac` (Q28, below 2^29), so
        // `e`, its FX2 leftover after rounding to `c`, is below 2^11;
        // `c * ratio` is `a`'s exact share of `c` in FX2 (below 2^26), so
        // `a`'s exact share of the move is `c * ratio + (e * ratio >> 12)`
        // (the floor splits over the whole part), the same as
        // `leftovers` finds in 64 bits.
        let split = |d: i32, c: i32| {
            let full = d * frac;
            let p = c * ratio;
            let a = (p + (1 << 11) + (p >> 31)) >> 12;
            let e = (full >> 4) - (c << 12);
            let for_a = p - (a << 12) + ((e * ratio) >> 12);
            (a, for_a, for_a - e)
        };
        let (ax, rax, rbx) = split(dx, cx);
        let (ay, ray, rby) = split(dy, cy);
        let (az, raz, rbz) = split(dz, cz);
        x[ia] += Vec3::from_raw(ax, ay, az);
        x[ib] -= Vec3::from_raw(cx - ax, cy - ay, cz - az);
        let (for_a, for_b) = ([rax, ray, raz], [rbx, rby, rbz]);
        for k in 0..3 {
            rem[ia][k] += for_a[k];
            rem[ib][k] += for_b[k];
        }
        1
    }
}

/// What rounding left out of one component of a correction, for the
/// remainders of `a` and `b` (FX2 raw): `exact` is the whole correction
/// (FX2 raw), `moved` what was applied (`a` took `moved_a` of it, `b`
/// gave up the rest), `ratio_a` the share `a` takes. Each leftover is
/// below one FX1 step (`2^12` raw), and integration folds it back within
/// half a step, so the remainders stay far inside `i32`.
#[inline(always)]
fn leftovers(exact: i64, moved: i64, moved_a: i64, ratio_a: Fx1) -> (i32, i32) {
    let exact_a = (exact * ratio_a.raw() as i64) >> 12;
    let for_a = exact_a - moved_a;
    let for_b = (moved - moved_a) - (exact - exact_a);
    (for_a as i32, for_b as i32)
}

/// Particle index `i` of an `N`-particle array, reduced modulo `N` (a
/// mask for the usual power of two) so that the relaxation loop indexes
/// with no bounds checks: [`Constraints::push`] only accepts indices
/// below the particle count, so the reduction never changes one (debug
/// builds, the host tests among them, check that).
#[inline(always)]
const fn slot<const N: usize>(i: u8) -> usize {
    debug_assert!((i as usize) < N, "constraint index beyond the particles");
    if N.is_power_of_two() {
        i as usize & (N - 1)
    } else {
        i as usize % N
    }
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
    links: [Link; C],
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
    min2: Fx2::ZERO,
    max2: Fx2::ZERO,
    min2_lo: Fx2::ZERO,
    max2_hi: Fx2::ZERO,
    inv_2min2: Fx1::ZERO,
    inv_2max2: Fx1::ZERO,
    ratio_a: Fx1::ZERO,
    live: false,
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
            links: [EMPTY_LINK; C],
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
        if self.len >= C || def.a as usize >= inv_masses.len() || def.b as usize >= inv_masses.len()
        {
            return None;
        }
        self.links[self.len] = Link::new(def, inv_masses, self.window);
        self.len += 1;
        Some(self.len - 1)
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
        for l in &mut self.links[..self.len] {
            l.set_window(window);
        }
    }

    /// Recomputes the mass ratios after inverse masses changed.
    pub fn refresh(&mut self, inv_masses: &[Fx1]) {
        for l in &mut self.links[..self.len] {
            l.set_masses(inv_masses[l.a as usize], inv_masses[l.b as usize]);
        }
    }

    /// `iterations` Gauss-Seidel passes over all constraints, in order, on
    /// the positions `x` of an `N`-particle array (the links name
    /// particles below the count given to [`Constraints::push`]).
    /// Counts into [`Constraints::stats`] only when
    /// [`Constraints::count_stats`] is set (measurements), so that the
    /// default loop carries no counters.
    // A per-frame loop: kept out of line so linker.ld can place it in ITCM.
    #[inline(never)]
    pub fn relax<const N: usize>(
        &mut self,
        x: &mut [Vec3; N],
        rem: &mut [[i32; 3]; N],
        iterations: u32,
    ) {
        if self.count_stats {
            self.relax_impl::<true, N>(x, rem, iterations);
        } else {
            self.relax_impl::<false, N>(x, rem, iterations);
        }
    }

    #[inline(always)]
    fn relax_impl<const COUNT: bool, const N: usize>(
        &mut self,
        x: &mut [Vec3; N],
        rem: &mut [[i32; 3]; N],
        iterations: u32,
    ) {
        let links = &self.links[..self.len];
        let (mut approx, mut exact) = (0u32, 0u32);
        for _ in 0..iterations {
            for l in links {
                let kind = l.project(x, rem);
                if COUNT {
                    match kind {
                        0 => {}
                        1 => approx += 1,
                        _ => exact += 1,
                    }
                }
            }
        }
        if COUNT {
            let st = &mut self.stats;
            st.evaluations = st.evaluations.wrapping_add(iterations * self.len as u32);
            st.approx = st.approx.wrapping_add(approx);
            st.exact = st.exact.wrapping_add(exact);
        }
    }
}
