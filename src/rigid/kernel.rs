//! The solver's inner loop: rows in a compact form made for the ARM9's
//! 32-bit multiplier, swept over an `i32` copy of the body velocities.
//!
//! [`super::row::Rows::solve`] turns each [`Row`] into a [`Prepared`]
//! row once per step and then sweeps those. On the DS the sweep's rows
//! and velocities live on the stack, which is DTCM: a main-RAM row
//! buffer of 95 rows of 120 B (the powered ragdoll) was three times the
//! 4 KB data cache and missed on every sweep (issue 20).
//!
//! # Formats
//! | value | format | range kept |
//! |---|---|---|
//! | velocity, spin (scratch) | Q24 `i32` (= FX2 raw) | +-128 m/s, saturating (caps are 60 and 100) |
//! | `J` | Q12 `i16` | unit directions; levers below 8 m (saturated) |
//! | `M^-1 J^T`, per body side | `i16`, Q24 scaled by `2^-s` | the side's largest component in `[2^14, 2^15)` |
//! | target | Q24 | +-128 m/s, saturating |
//! | velocity error | Q24 | clamped to `+-MAX_ERROR` |
//! | effective mass | Q24 | clamped to `MAX_EFFECTIVE_MASS` (127) |
//! | impulse, bounds | Q20 `i32` | +-`LAMBDA_MAX` (1024 N s), step 1e-6 N s |
//!
//! # One row update, and why each product fits
//! - `J v` is an exact Q36 sum of `i16 x i32` products in `i64`
//!   (multiply-accumulates: `smlal`).
//! - The impulse change `d = err * m_eff` is one `i32 x i32` product
//!   rounded once to Q20, clamped to the row's `d_max`.
//! - Side `k`'s `M^-1 J^T` in Q24 is `m16 * 2^s` (`s` its exponent) and
//!   the impulse change in N s is `d * 2^-20`, so its velocity change in
//!   Q24 is `m16 * d * 2^(s - 20)` = `(m16 * dd) >> 14` with `dd = d *
//!   2^(s - 6)`, a shift either way. `d_max` keeps `|dd| <= 2^30`, so
//!   `|m16 * dd| < 2^45` and the change is below 2^31: the product needs
//!   no saturation, only the sum does.
//! - The `>> 14` floors: one rounding per component, a bias below one
//!   Q24 step (6e-8 m/s) per update, at no cost in instructions.
//!
//! Static bodies and sleepers have [`ZERO_SLOT`], whose velocity is
//! zero and never written (their `M^-1 J^T` is zero). The flags skip
//! absent sides, and the linear components off a row's axis (every row
//! updates one linear component, zero for an angular row).

use crate::divsqrt::div_auto;
use crate::fx::power::{round_shr, saturate_i32};
use crate::fx::{Fx1, Fx2, Fx3, Vec3};

use super::body::{Body, STATIC};
use super::prep::{inertia_bound, Sides};
use super::row::{Row, UNBOUNDED};

/// No friction row: the row's own bounds apply.
pub const NO_NORMAL: u16 = u16::MAX;

/// The most bodies one solve takes (indices `0..MAX_BODIES`; the
/// scratch's last slot is [`ZERO_SLOT`]).
pub const MAX_BODIES: usize = 63;

/// Velocity slots: one per body and the zero slot (a power of two, so a
/// masked index is always in range).
pub const SLOTS: usize = MAX_BODIES + 1;

/// The slot of the static world and of sleepers.
pub const ZERO_SLOT: u8 = MAX_BODIES as u8;

/// Largest velocity error one row corrects per iteration (m/s or rad/s).
pub const MAX_ERROR: Fx2 = Fx2::from_raw(127 << 24);

/// Largest effective mass (kg or kg m^2): its Q24 raw fits an `i32`.
pub const MAX_EFFECTIVE_MASS: Fx2 = Fx2::from_raw(127 << 24);

/// Bound of every impulse and impulse bound, Q20 raw: just under 1024
/// N s, so that the difference of two impulses fits an `i32`.
pub const LAMBDA_MAX: i32 = (1 << 30) - 1;

/// Fraction bits of the solver's impulses.
pub const LAMBDA_FRAC: u32 = 20;

/// Bits of the `M^-1 J^T` components, sign included.
const M_BITS: u32 = 15;

/// Flag bits of [`Prepared`].
const HAS_A: u8 = 1;
const HAS_B: u8 = 2;
const HAS_SIDE: [u8; 2] = [HAS_A, HAS_B];
const HAS_LIN: u8 = 4;
/// The linear part is one axis (`AXIS_SHIFT` gives which): joint point
/// rows, ground contacts and their friction. Its other components are
/// zero, so skipping them changes no result.
const AXIS: u8 = 8;
const AXIS_SHIFT: u32 = 4;

/// Velocities in the solver's scratch: `[vx, vy, vz, wx, wy, wz]`, Q24.
pub type Vel = [i32; 6];

/// `b`'s velocity and spin as the solver's scratch takes them (Q24,
/// saturated to `i32`).
#[inline(always)]
pub(super) fn velocity_of(b: &Body) -> Vel {
    let [x, y, z] = b.vel.to_array().map(|c| saturate_i32(c.raw()));
    let [p, q, r] = b.spin.to_array().map(|c| saturate_i32(c.raw()));
    [x, y, z, p, q, r]
}

/// A row in the solver's form (76 bytes; see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// `J`: lin, ang_a, ang_b (Q12).
    j: [i16; 9],
    /// `M^-1 J^T` of side a (lin, ang) then side b, each side scaled by
    /// its own `2^-s`.
    m: [i16; 12],
    /// Normal row of a friction row, or [`NO_NORMAL`].
    normal: u16,
    /// Velocity slots of `a` and `b`.
    slot: [u8; 2],
    /// Per side (a, b): `dd = (d << left) >> right`, one of them zero:
    /// a side's `t = s - 6` as two shifts, so that no branch picks one.
    left: [u8; 2],
    right: [u8; 2],
    flags: u8,
    /// A friction row's count of normal rows from `normal` on (a contact
    /// patch), at least 1. With it the struct has no padding, so
    /// [`Prepared::BLANK`] is all zeros and a buffer of it is cleared
    /// with a memset.
    normals: u8,
    /// Target `J v` (Q24).
    target: i32,
    /// Effective mass (Q24).
    m_eff: i32,
    /// Accumulated impulse (Q20).
    pub(super) lambda: i32,
    /// Impulse bounds (Q20); a friction row keeps its `mu` (Q12) in
    /// `lo`, its bounds come from its normal row's impulse.
    pub(super) lo: i32,
    pub(super) hi: i32,
    /// The largest impulse change of one update (Q20), so that `dd`
    /// stays within `2^30` on both sides.
    d_max: i32,
}

impl Prepared {
    /// An empty row (no sides: its updates change nothing).
    pub const ZERO: Prepared = Prepared {
        j: [0; 9],
        m: [0; 12],
        normal: NO_NORMAL,
        slot: [ZERO_SLOT; 2],
        left: [0; 2],
        right: [0; 2],
        flags: 0,
        normals: 0,
        target: 0,
        m_eff: 0,
        lambda: 0,
        lo: 0,
        hi: 0,
        d_max: 0,
    };

    /// All bits zero, to fill a buffer cheaply (a row that is never
    /// swept: its slots are body 0's).
    pub const BLANK: Prepared = Prepared {
        normal: 0,
        slot: [0; 2],
        ..Prepared::ZERO
    };

    /// Sets `self` to `row` in solver form, in place (no temporary to
    /// copy), with `lambda` (Q20) as its warm start and `omega` its
    /// relaxation factor (0..2; 1: none).
    pub fn set(&mut self, row: &Row, bodies: &[Body], lambda: i32, omega: Fx1) {
        self.set_sided(row, bodies, None, lambda, omega);
    }

    /// [`Prepared::set`], with the bodies' inertia bounds from `sides`
    /// (this step's [`super::prep::sides`] of `bodies`) when given, so
    /// that no row reads a body's nine inertia entries to bound them: the
    /// same result.
    // Out of line, so that the loop that calls it (`solve_in`) fits the
    // ROM's rigid-body ITCM overlay (linker.ld).
    #[inline(never)]
    pub fn set_sided(
        &mut self,
        row: &Row,
        bodies: &[Body],
        sides: Option<&Sides>,
        lambda: i32,
        omega: Fx1,
    ) {
        let mut k = Fx3::ZERO;
        let p = self;
        p.clear_sides();
        let mut d_max = LAMBDA_MAX;
        // Two calls, not a loop over an array of the sides: the array
        // was built with `memcpy`s, and a loop choosing each side's
        // values cost the powered ragdoll 5 % (`make pcprofile
        // PCPROFILE=motor`).
        let (a, b) = (row.a, row.b);
        p.set_side(0, a, -row.lin, row.ang_a, bodies, sides, &mut k, &mut d_max);
        p.set_side(1, b, row.lin, row.ang_b, bodies, sides, &mut k, &mut d_max);
        p.finish(row, k.raw(), d_max, lambda, omega);
    }

    /// Empties both sides (what an absent side keeps) and `hi` (what a
    /// friction row keeps), before [`Prepared::set`] or
    /// [`Prepared::set_fast`] fills the sides in.
    #[inline(always)]
    pub(super) fn clear_sides(&mut self) {
        self.flags = 0;
        self.m = [0; 12];
        self.slot = [ZERO_SLOT; 2];
        self.left = [0; 2];
        self.right = [0; 2];
        self.hi = 0;
    }

    /// Side `side`'s `M^-1 J^T` from components that fit 32 bits (Q24),
    /// narrowed with their exponent; returns the exponent.
    #[inline(always)]
    pub(super) fn put_m32(&mut self, side: usize, m32: [i32; 6]) -> i32 {
        let s = side_exponent32(&m32);
        for (dst, v) in self.m[6 * side..6 * side + 6].iter_mut().zip(m32) {
            *dst = narrow32(v, s);
        }
        s
    }

    /// Marks side `side` present, body slot `i` with `M^-1 J^T` exponent
    /// `s`: its shifts, and the bound on one update's impulse change that
    /// `s` needs (`|dd| = |d| 2^(s - 6) <= 2^30`) folded into `d_max`.
    #[inline(always)]
    pub(super) fn place_side(&mut self, side: usize, i: u8, s: i32, d_max: &mut i32) {
        let t = s - 6;
        if t > 0 {
            *d_max = (*d_max).min(((1i64 << (30 - t).max(0)) - 1) as i32);
        }
        let t = t.clamp(-31, 31);
        self.slot[side] = i;
        self.left[side] = t.max(0) as u8;
        self.right[side] = (-t).max(0) as u8;
        self.flags |= HAS_SIDE[side];
    }

    /// Side `side` (0: `a`, 1: `b`) of [`Prepared::set`]: body `i` with
    /// its `lin` (negated for `a`) and `ang`; adds its share of `J M^-1
    /// J^T` to `k` and lowers `d_max` as its exponent needs.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn set_side(
        &mut self,
        side: usize,
        i: u8,
        lin: Vec3,
        ang: Vec3,
        bodies: &[Body],
        sides: Option<&Sides>,
        k: &mut Fx3,
        d_max: &mut i32,
    ) {
        let Some(b) = solved_body(bodies, i) else {
            return;
        };
        let big = match sides {
            // `i` is a solved body's index, below MAX_BODIES.
            Some(t) => t[i as usize & (SLOTS - 1)].big,
            None => inertia_bound(b),
        };
        // lin . (lin / m) is |lin|^2 / m exactly: one wide product
        // instead of three (Q24 * Q12 = Q36, below 2^43).
        let lin2: i64 = lin.raw().iter().map(|&c| c as i64 * c as i64).sum();
        let s = if let Some((m32, k_side)) = side_32(b, big, lin, ang, lin2) {
            // The common case (a box's inertia, box-sized levers):
            // every product fits 32 bits, where a multiply is one
            // instruction and a variable shift one, not six.
            *k += Fx3::from_raw(k_side);
            self.put_m32(side, m32)
        } else {
            let at = 6 * side;
            let m_lin = lin * b.inv_mass;
            let m_ang = b.inv_inertia_world.mul_vec_exact(ang);
            *k += Fx3::from_raw(lin2 * b.inv_mass.raw() as i64) + ang.dot(m_ang);
            let m24: [i64; 6] = {
                let [x, y, z] = m_lin.to_array().map(Fx2::raw);
                let [p, q, r] = m_ang.to_array().map(Fx2::raw);
                [x, y, z, p, q, r]
            };
            let s = side_exponent(&m24);
            for (dst, v) in self.m[at..at + 6].iter_mut().zip(m24) {
                *dst = narrow(v, s);
            }
            s
        };
        self.place_side(side, i, s, d_max);
    }

    /// What [`Prepared::set`] does after the sides: `d_max`, the flags of
    /// the linear part, `J`, the effective mass from `k = J M^-1 J^T`
    /// (Q36), the target and the bounds.
    #[inline(always)]
    pub(super) fn finish(&mut self, row: &Row, k: i64, d_max: i32, lambda: i32, omega: Fx1) {
        let p = self;
        p.d_max = d_max;
        if row.lin != Vec3::ZERO {
            p.flags |= HAS_LIN;
            let [x, y, z] = row.lin.raw();
            match (x != 0, y != 0, z != 0) {
                (true, false, false) => p.flags |= AXIS,
                (false, true, false) => p.flags |= AXIS | 1 << AXIS_SHIFT,
                (false, false, true) => p.flags |= AXIS | 2 << AXIS_SHIFT,
                _ => {}
            }
        }
        for (dst, v) in p.j.chunks_exact_mut(3).zip([row.lin, row.ang_a, row.ang_b]) {
            for (d, c) in dst.iter_mut().zip(v.to_array()) {
                *d = c.raw().clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            }
        }
        p.m_eff = effective_mass(k, omega);
        p.target = saturate_i32(row.target.raw());
        p.normal = row.friction_of;
        p.normals = row.normals.max(1);
        (p.lo, p.hi, p.lambda) = bounds_of(row, lambda);
    }

    /// The impulse as an FX2 value: a row held at its bound reports the
    /// bound itself, so that a caller comparing with `Row::hi` sees it.
    pub fn impulse(&self, row: &Row) -> Fx2 {
        impulse_of(row, self.lambda, self.lo, self.hi)
    }

    /// Side `k`'s `t = s - 6` (see `left`).
    fn shift(&self, k: usize) -> i8 {
        self.left[k] as i8 - self.right[k] as i8
    }

    /// Applies the accumulated impulse (a warm start), which may exceed
    /// what one update takes: wide products, saturating sums.
    #[inline(always)]
    pub fn warm_start(&self, vel: &mut [Vel; SLOTS]) {
        if self.lambda == 0 {
            return;
        }
        if self.lambda.unsigned_abs() <= self.d_max as u32 {
            // Within one update's reach: the sweep's own path.
            apply(self, vel, self.lambda);
            return;
        }
        let l = self.lambda as i64;
        for side in 0..2 {
            if self.flags & HAS_SIDE[side] == 0 {
                continue;
            }
            let t = self.shift(side);
            let v = &mut vel[slot(self.slot[side])];
            for (v, &m) in v.iter_mut().zip(&self.m[6 * side..6 * side + 6]) {
                // |m l| < 2^45: shifted left by at most 17 it fits i64.
                let x = m as i64 * l;
                let dv = shift_round_saturating(x, t as i32 - 14);
                *v = v.saturating_add(saturate_i32(dv));
            }
        }
    }
}

/// The effective mass `1 / k` (Q24) for `k = J M^-1 J^T` (Q36), clamped
/// to [`MAX_EFFECTIVE_MASS`], times the relaxation factor `omega`
/// (0..2; 1: plain Gauss-Seidel; each update then moves the impulse
/// `omega` times the step that would close the row's error). Out of
/// line: one copy for both row forms in the rigid ITCM overlay.
#[inline(never)]
pub(super) fn effective_mass(k: i64, omega: Fx1) -> i32 {
    let m = if k <= 0 {
        0
    } else {
        // 1/k: raw 2^60 / k_raw (k has 36 fraction bits, the result 24).
        div_auto(1 << 60, k).min(MAX_EFFECTIVE_MASS.raw()) as i32
    };
    if omega == Fx1::ONE {
        return m;
    }
    let w = omega.raw().clamp(0, 2 << 12) as i64;
    ((m as i64 * w) >> 12).min(i32::MAX as i64) as i32
}

/// A row's impulse bounds in solver form (Q20), and its warm start
/// `lambda` within them: a friction row keeps its `mu` (Q12) in `lo`
/// (its bounds come from its normal rows' impulses) and no `hi`.
///
/// A contact's normal row (`0..UNBOUNDED`) takes its bounds without the
/// 64-bit conversions: the same values, for most rows of a box scene.
/// Inlined: a call a row cost the box step 0.4 % (`make insn-count
/// PCPROFILE=boxes`).
#[inline(always)]
pub(super) fn bounds_of(row: &Row, lambda: i32) -> (i32, i32, i32) {
    if row.friction_of == NO_NORMAL {
        if row.lo == Fx2::ZERO && row.hi == UNBOUNDED {
            return contact_bounds(lambda);
        }
        let (lo, hi) = (to_q20(row.lo), to_q20(row.hi));
        (lo, hi, lambda.clamp(lo, hi))
    } else {
        friction_bounds(row.mu, lambda)
    }
}

/// [`bounds_of`] a contact's normal row (`0..UNBOUNDED`).
#[inline(always)]
pub(super) fn contact_bounds(lambda: i32) -> (i32, i32, i32) {
    (0, LAMBDA_MAX, lambda.clamp(0, LAMBDA_MAX))
}

/// [`bounds_of`] a friction row of coefficient `mu`, kept in `lo` (Q12,
/// within `0..=8`: the bound [`update_bounds`]' product is sized by).
#[inline(always)]
pub(super) fn friction_bounds(mu: Fx1, lambda: i32) -> (i32, i32, i32) {
    (
        mu.raw().clamp(0, 8 << 12),
        0,
        lambda.clamp(-LAMBDA_MAX, LAMBDA_MAX),
    )
}

/// The impulse `lambda` (Q20) of `row` as an FX2 value: a row held at
/// its bound `lo` or `hi` (solver form) reports the row's own bound, so
/// that a caller comparing with `Row::hi` sees it.
#[inline(always)]
pub(super) fn impulse_of(row: &Row, lambda: i32, lo: i32, hi: i32) -> Fx2 {
    let friction = row.friction_of != NO_NORMAL;
    impulse_within(friction, lambda, (lo, hi), (row.lo, row.hi))
}

/// [`impulse_of`] a row given by whether it is a friction row and its
/// own bounds `(row_lo, row_hi)` (FX2), which it reports when `lambda`
/// is at `lo` or `hi`.
#[inline(always)]
pub(super) fn impulse_within(
    friction: bool,
    lambda: i32,
    (lo, hi): (i32, i32),
    (row_lo, row_hi): (Fx2, Fx2),
) -> Fx2 {
    if !friction {
        if lambda == hi {
            return row_hi;
        }
        if lambda == lo {
            return row_lo;
        }
    }
    Fx2::from_raw((lambda as i64) << (24 - LAMBDA_FRAC))
}

/// A row's impulse bounds for one update: its own, or for a friction
/// row (`normal` not [`NO_NORMAL`]) `+-mu` (`lo`, Q12) times `sum`, the
/// summed impulses of its normal rows (Q20).
#[inline(always)]
pub(super) fn update_bounds(normal: u16, lo: i32, hi: i32, sum: i64) -> (i32, i32) {
    if normal != NO_NORMAL {
        // mu (Q12, below 8 = 2^15) times at most 255 impulses below 2^30:
        // below 2^53.
        let limit = ((sum * lo as i64) >> 12).clamp(0, LAMBDA_MAX as i64) as i32;
        (-limit, limit)
    } else {
        (lo, hi)
    }
}

/// The impulse change (Q20) of one update of a row with velocity error
/// `target - jv` (`target` Q24, `jv` Q36), effective mass `m_eff`, the
/// per-update bound `d_max`, accumulated impulse `old` and bounds
/// `lo..=hi`; zero when nothing moves.
#[inline(always)]
pub(super) fn impulse_change(
    target: i32,
    jv: i64,
    m_eff: i32,
    d_max: i32,
    old: i32,
    (lo, hi): (i32, i32),
) -> i32 {
    // Q36 -> Q24, rounded half up (deterministic; the bias is 2^-25 m/s).
    let err = (((target as i64) << 12) - jv + (1 << 11)) >> 12;
    let max = MAX_ERROR.raw();
    let err = err.clamp(-max, max) as i32;
    // Q24 * Q24 = Q48 -> Q20, within d_max.
    // max/min, not clamp: the bounds are ordered by construction, and
    // clamp's check of that would cost a branch per update.
    let d = ((err as i64 * m_eff as i64 + (1 << 27)) >> 28)
        .max(-(d_max as i64))
        .min(d_max as i64) as i32;
    let new = old.saturating_add(d).max(lo).min(hi);
    // A friction bound that shrank can move the impulse further than d:
    // still at most d_max per update.
    (new - old).max(-d_max).min(d_max)
}

/// The exponent `s` of one side: its largest `M^-1 J^T` component (Q24)
/// times `2^-s` lies in `[2^14, 2^15)` (0 for an empty side).
fn side_exponent(m24: &[i64; 6]) -> i32 {
    // The OR of the magnitudes has the largest one's bit length.
    let big = m24.iter().fold(0, |acc, x| acc | x.unsigned_abs());
    if big == 0 {
        return 0;
    }
    let bits = 64 - big.leading_zeros() as i32;
    bits - M_BITS as i32
}

/// One side's `M^-1 J^T` (Q24) and its share of `J M^-1 J^T` (Q36) in
/// 32-bit products, when they fit: `|I^-1|` (largest entry) times
/// `sum |ang|` below `2^31` bounds each angular component, and an inverse
/// mass below 128 / kg (`2^19` raw) times a unit `lin` (`2^12`) each
/// linear one. The same values as the 64-bit path, exactly; `None` when a
/// bound fails (a light hand's inertia, a long lever).
#[inline(always)]
fn side_32(b: &Body, big: u32, lin: Vec3, ang: Vec3, lin2: i64) -> Option<([i32; 6], i64)> {
    let im = b.inv_mass.raw();
    let cols = b.inv_inertia_world.cols.map(|c| c.raw());
    let a = ang.raw();
    let reach = a.iter().map(|c| c.unsigned_abs() as u64).sum::<u64>();
    // `big` is at most twice the largest entry (an OR of magnitudes).
    if (big as u64) * reach >= 1 << 31 || !(0..1 << 19).contains(&im) {
        return None;
    }
    let l = lin.raw();
    if l.iter().any(|c| c.unsigned_abs() > 1 << 12) {
        return None;
    }
    let ma = if b.isotropic {
        // A diagonal of equal moments: the same sums, their zero terms
        // left out.
        let d = cols[0][0];
        [d * a[0], d * a[1], d * a[2]]
    } else {
        [0, 1, 2].map(|r| cols[0][r] * a[0] + cols[1][r] * a[1] + cols[2][r] * a[2])
    };
    let k = lin2 * im as i64 + (0..3).map(|c| a[c] as i64 * ma[c] as i64).sum::<i64>();
    Some(([l[0] * im, l[1] * im, l[2] * im, ma[0], ma[1], ma[2]], k))
}

/// [`side_exponent`] for components that fit 32 bits.
#[inline(always)]
fn side_exponent32(m: &[i32; 6]) -> i32 {
    let big = m.iter().fold(0, |acc, x| acc | x.unsigned_abs());
    if big == 0 {
        return 0;
    }
    32 - big.leading_zeros() as i32 - M_BITS as i32
}

/// `x * 2^-s` rounded to nearest (half away from zero, so that the two
/// signs round alike), saturated to `i16` (`s` below 63, `x` above
/// `i64::MIN`; for `s <= 0`, `|x| < 2^15` so that the left shift is
/// exact).
fn narrow(x: i64, s: i32) -> i16 {
    if s <= 0 {
        return (x << (-s).min(15)).clamp(i16::MIN as i64, i16::MAX as i64) as i16;
    }
    // Half away from zero as in `narrow32`, without the magnitude (no
    // sum overflows for `x` above `i64::MIN`).
    let q = (x + (x >> 63)) >> (s - 1).min(62);
    // (q + 1) >> 1, which cannot overflow.
    let r = (q >> 1) + (q & 1);
    r.clamp(-(i16::MAX as i64), i16::MAX as i64) as i16
}

/// [`narrow`] for a value that fits 32 bits (not `i32::MIN`): the same
/// result.
///
/// For `s > 0` it rounds half away from zero without the magnitude:
/// `(((x + (x >> 31)) >> (s - 1)) + 1) >> 1` is `floor((x + 2^(s-1)) /
/// 2^s)` for `x >= 0` and `floor((x - 1 + 2^(s-1)) / 2^s)`, the negated
/// rounding of `-x`, below; no sum overflows (the `+ 1` is taken as a
/// carry). A few instructions and the clamp, where the magnitude and the
/// sign took ten (`narrow32_is_narrow` checks it against the old form).
#[inline(always)]
fn narrow32(x: i32, s: i32) -> i16 {
    if s <= 0 {
        return (x << (-s).min(15)).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    }
    let q = (x + (x >> 31)) >> (s - 1).min(31);
    // (q + 1) >> 1, which cannot overflow.
    let r = (q >> 1) + (q & 1);
    r.clamp(-(i16::MAX as i32), i16::MAX as i32) as i16
}

/// `x * 2^e`, rounded to nearest (`e` may be negative).
fn shift_round(x: i64, e: i32) -> i64 {
    if e >= 0 {
        x << e.min(62)
    } else {
        round_shr(x, (-e).min(63) as u32)
    }
}

/// `x * 2^e`, rounded, saturating to `i64`.
fn shift_round_saturating(x: i64, e: i32) -> i64 {
    if e <= 0 {
        return shift_round(x, e);
    }
    let e = e.min(62) as u32;
    if x.unsigned_abs() >> (62 - e) == 0 {
        x << e
    } else if x < 0 {
        i64::MIN
    } else {
        i64::MAX
    }
}

/// An FX2 impulse (Q24) as a Q20 `i32` within `+-LAMBDA_MAX`.
pub fn to_q20(x: Fx2) -> i32 {
    round_shr(x.raw(), 24 - LAMBDA_FRAC).clamp(-LAMBDA_MAX as i64, LAMBDA_MAX as i64) as i32
}

/// A body the solver moves: not the static world, not static, awake.
#[inline]
pub fn solved_body(bodies: &[Body], i: u8) -> Option<&Body> {
    if i == STATIC || i as usize >= MAX_BODIES {
        None
    } else {
        // A sleeping body is static to the solver.
        bodies
            .get(i as usize)
            .filter(|b| !b.is_static() && !b.is_asleep())
    }
}

/// A slot index, masked into the scratch.
#[inline(always)]
pub(super) fn slot(i: u8) -> usize {
    i as usize & (SLOTS - 1)
}

/// `sum j[k] * v[k]` over three components, exact (Q36).
#[inline(always)]
pub(super) fn dot3(j: &[i16], v: &[i32]) -> i64 {
    j[0] as i64 * v[0] as i64 + j[1] as i64 * v[1] as i64 + j[2] as i64 * v[2] as i64
}

/// The linear component every row updates without a branch: its axis
/// for an axis row, 0 otherwise (zero in `J` and `M^-1 J^T` for an
/// angular row, so it adds nothing).
#[inline(always)]
fn axis(r: &Prepared) -> usize {
    // 0..=2 by construction; the mask only spares a bounds check.
    (r.flags >> AXIS_SHIFT) as usize & 3
}

/// True for a row whose linear part is not along one axis: its
/// components 1 and 2 need updates of their own.
#[inline(always)]
fn general(r: &Prepared) -> bool {
    r.flags & (HAS_LIN | AXIS) == HAS_LIN
}

/// `J_lin . v` (Q36): the axis component, then the rest for a general
/// row.
#[inline(always)]
fn lin_dot(r: &Prepared, v: &Vel) -> i64 {
    let k = axis(r);
    let mut sum = r.j[k] as i64 * v[k] as i64;
    if general(r) {
        sum += r.j[1] as i64 * v[1] as i64 + r.j[2] as i64 * v[2] as i64;
    }
    sum
}

/// Adds one side's `M^-1 J^T dd` (`m` that side's six): the axis
/// component and the angular three in one block (so that every product
/// is one `smull`), the other linear two for a general row.
#[inline(always)]
fn add_side(r: &Prepared, v: &mut Vel, m: &[i16], dd: i32) {
    let k = axis(r);
    v[k] = v[k].saturating_add(((m[k] as i64 * dd as i64) >> 14) as i32);
    add3(&mut v[3..], &m[3..6], dd);
    if general(r) {
        add3(&mut v[1..3], &m[1..3], dd);
    }
}

/// Side `k`'s `d * 2^t`, for `|d| <= d_max` (so the result stays
/// within `2^30`): two shifts, one of them by zero.
#[inline(always)]
fn side_units(r: &Prepared, d: i32, k: usize) -> i32 {
    (d << (r.left[k] as u32 & 31)) >> (r.right[k] as u32 & 31)
}

/// Adds `(m * dd) >> 14` to three velocity components.
#[inline(always)]
fn add3(v: &mut [i32], m: &[i16], dd: i32) {
    for (v, &m) in v.iter_mut().zip(m) {
        // |m dd| < 2^45: the shifted product fits an i32.
        let dv = ((m as i64 * dd as i64) >> 14) as i32;
        *v = v.saturating_add(dv);
    }
}

/// One projected Gauss-Seidel update of row `r`; `normal` is the sum of
/// the impulses of its normal rows for a friction row (Q20).
#[inline(always)]
fn update(r: &mut Prepared, vel: &mut [Vel; SLOTS], normal: i64) {
    let bounds = update_bounds(r.normal, r.lo, r.hi, normal);
    let mut jv = 0i64;
    if r.flags & HAS_A != 0 {
        let v = &vel[slot(r.slot[0])];
        jv += dot3(&r.j[3..6], &v[3..]) - lin_dot(r, v);
    }
    if r.flags & HAS_B != 0 {
        let v = &vel[slot(r.slot[1])];
        jv += dot3(&r.j[6..], &v[3..]) + lin_dot(r, v);
    }
    let delta = impulse_change(r.target, jv, r.m_eff, r.d_max, r.lambda, bounds);
    if delta == 0 {
        return;
    }
    #[cfg(feature = "solver-trace")]
    trace::note(delta);
    r.lambda += delta;
    apply(r, vel, delta);
}

/// Adds `M^-1 J^T delta` of row `r` to the velocities, for `|delta| <=
/// d_max`.
#[inline(always)]
fn apply(r: &Prepared, vel: &mut [Vel; SLOTS], delta: i32) {
    if r.flags & HAS_A != 0 {
        let dd = side_units(r, delta, 0);
        add_side(r, &mut vel[slot(r.slot[0])], &r.m[..6], dd);
    }
    if r.flags & HAS_B != 0 {
        let dd = side_units(r, delta, 1);
        add_side(r, &mut vel[slot(r.slot[1])], &r.m[6..], dd);
    }
}

/// A row the sweeps update: the general [`Prepared`] or the cubes'
/// [`super::iso::IsoRow`], each with its own per-body scratch.
pub trait SweptRow {
    /// What the sweeps keep of each body (one slot per body).
    type Slot;
    /// The first normal row of a friction row, or [`NO_NORMAL`].
    fn normal(&self) -> u16;
    /// How many normal rows from [`SweptRow::normal`] on bound it.
    fn normals(&self) -> u8;
    /// The accumulated impulse (Q20).
    fn lambda(&self) -> i32;
    /// One update, `sum` the summed impulses of a friction row's normal
    /// rows (Q20).
    fn update(&mut self, vel: &mut [Self::Slot; SLOTS], sum: i64);
}

impl SweptRow for Prepared {
    type Slot = Vel;
    #[inline(always)]
    fn normal(&self) -> u16 {
        self.normal
    }
    #[inline(always)]
    fn normals(&self) -> u8 {
        self.normals
    }
    #[inline(always)]
    fn lambda(&self) -> i32 {
        self.lambda
    }
    #[inline(always)]
    fn update(&mut self, vel: &mut [Vel; SLOTS], sum: i64) {
        update(self, vel, sum)
    }
}

/// The summed impulses (Q20) of the `count` normal rows from `first` on
/// (rows beyond the buffer count as zero).
#[inline(always)]
fn normal_sum<R: SweptRow>(rows: &[R], first: usize, count: usize) -> i64 {
    let end = rows.len().min(first.saturating_add(count));
    rows.get(first..end)
        .map_or(0, |s| s.iter().map(|r| r.lambda() as i64).sum())
}

/// The Gauss-Seidel sweeps: the solver's inner loop ([`sweep_split`]
/// with nothing in main RAM: one function for both, in ITCM).
#[inline(always)]
pub fn sweep<R: SweptRow>(rows: &mut [R], vel: &mut [R::Slot; SLOTS], iterations: u8) {
    sweep_split(rows, &mut [], vel, iterations)
}

/// [`sweep`] over rows kept in two buffers, `near` (DTCM) then `far`
/// (main RAM): the same updates in the same order, so the same results.
/// No friction row may name a normal row in the other buffer.
#[inline(never)]
pub fn sweep_split<R: SweptRow>(
    near: &mut [R],
    far: &mut [R],
    vel: &mut [R::Slot; SLOTS],
    iterations: u8,
) {
    let base = near.len();
    for _k in 0..iterations {
        sweep_span(near, 0, vel);
        sweep_span(far, base, vel);
        #[cfg(feature = "solver-trace")]
        trace::end_sweep(_k);
    }
}

/// How fast the sweeps converge, for measurements on the host (the
/// `solver-trace` feature; never in the ROM): the largest impulse change
/// (Q20) of each sweep of the last solve of general rows.
#[cfg(feature = "solver-trace")]
pub mod trace {
    use core::sync::atomic::{AtomicU32, Ordering};

    /// Sweeps recorded.
    pub const SWEEPS: usize = 32;
    static LARGEST: AtomicU32 = AtomicU32::new(0);
    #[allow(clippy::declare_interior_mutable_const)]
    const NONE: AtomicU32 = AtomicU32::new(u32::MAX);
    static PER_SWEEP: [AtomicU32; SWEEPS] = [NONE; SWEEPS];

    pub(super) fn note(delta: i32) {
        LARGEST.fetch_max(delta.unsigned_abs(), Ordering::Relaxed);
    }

    pub(super) fn end_sweep(k: u8) {
        let largest = LARGEST.swap(0, Ordering::Relaxed);
        if let Some(slot) = PER_SWEEP.get(k as usize) {
            slot.store(largest, Ordering::Relaxed);
        }
    }

    /// Forgets what was recorded (call before a step).
    pub fn clear() {
        LARGEST.store(0, Ordering::Relaxed);
        for s in &PER_SWEEP {
            s.store(u32::MAX, Ordering::Relaxed);
        }
    }

    /// The largest impulse change (N s) of each sweep since [`clear`].
    pub fn per_sweep() -> impl Iterator<Item = f64> {
        PER_SWEEP
            .iter()
            .map(|s| s.load(Ordering::Relaxed))
            .take_while(|&x| x != u32::MAX)
            .map(|x| x as f64 / (1u64 << super::LAMBDA_FRAC) as f64)
    }
}

/// One sweep over `rows`, the rows from index `base` on (friction rows
/// name their normal rows by index in the whole list).
#[inline(never)]
fn sweep_span<R: SweptRow>(rows: &mut [R], base: usize, vel: &mut [R::Slot; SLOTS]) {
    for i in 0..rows.len() {
        let normal = match rows[i].normal() {
            NO_NORMAL => 0,
            n => {
                debug_assert!(
                    n as usize >= base,
                    "a friction row names a normal row in the other buffer"
                );
                let first = (n as usize).wrapping_sub(base);
                let sum = normal_sum(rows, first, rows[i].normals() as usize);
                // Bounds of zero and no impulse: the update would
                // change nothing. A shot pile's speculative contacts
                // (within the margin, not pressed) have many such
                // friction rows, a sixth of its rows.
                if sum == 0 && rows[i].lambda() == 0 {
                    continue;
                }
                sum
            }
        };
        rows[i].update(vel, normal);
    }
}

#[cfg(test)]
mod tests {
    use super::{narrow, narrow32};

    /// The form `narrow` had, in 64 bits.
    fn by_magnitude64(x: i64, s: i32) -> i16 {
        if s <= 0 {
            return (x << (-s).min(15)).clamp(i16::MIN as i64, i16::MAX as i64) as i16;
        }
        let r = (((x.unsigned_abs() >> (s - 1)) + 1) >> 1).min(i16::MAX as u64) as i16;
        if x < 0 {
            -r
        } else {
            r
        }
    }

    #[test]
    fn narrow_is_narrow_by_magnitude() {
        let mut v = 0x9e37_79b9_7f4a_7c15_u64;
        for s in 1..=48 {
            let h = 1i64 << (s - 1);
            for x in [
                0,
                1,
                -1,
                h,
                -h,
                h - 1,
                1 - h,
                h + 1,
                -h - 1,
                i64::MAX,
                i64::MIN + 1,
            ] {
                assert_eq!(narrow(x, s), by_magnitude64(x, s), "{x} >> {s}");
            }
            for _ in 0..5_000 {
                v ^= v << 13;
                v ^= v >> 7;
                v ^= v << 17;
                let x = (v as i64).max(i64::MIN + 1) >> (v % 64);
                assert_eq!(narrow(x, s), by_magnitude64(x, s), "{x} >> {s}");
            }
        }
    }

    /// The form `narrow32` had: the magnitude rounded, then the sign.
    fn by_magnitude(x: i32, s: i32) -> i16 {
        if s <= 0 {
            return (x << (-s).min(15)).clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        }
        let r = (((x.unsigned_abs() >> (s - 1)) + 1) >> 1).min(i16::MAX as u32) as i16;
        if x < 0 {
            -r
        } else {
            r
        }
    }

    #[test]
    fn narrow32_is_narrow() {
        let mut v = 0x2545_f491_u32;
        let mut cases = 0;
        for s in 1..=16 {
            // Ties, their neighbours and the ends of the range: below
            // 2^(s + 15), where `side_exponent32` gives `s`.
            let h = 1i32 << (s - 1);
            let top = ((1i64 << (s + 15)) - 1).min(i32::MAX as i64) as i32;
            let edges = [0, 1, -1, h, -h, h - 1, 1 - h, h + 1, -h - 1, 3 * h, -3 * h];
            let ends = [top, -top, top - h, h - top, i32::MAX, i32::MIN + 1];
            for x in edges.into_iter().chain(ends) {
                assert_eq!(narrow32(x, s), by_magnitude(x, s), "{x} >> {s}");
                cases += 1;
            }
            for _ in 0..20_000 {
                v ^= v << 13;
                v ^= v >> 17;
                v ^= v << 5;
                let x = ((v as i32 as i64 % (top as i64 + 1)) as i32) >> (v % 16);
                assert_eq!(narrow32(x, s), by_magnitude(x, s), "{x} >> {s}");
                cases += 1;
            }
        }
        assert!(cases > 320_000);
    }
}
