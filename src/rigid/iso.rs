//! Rows for worlds whose every moving body has one moment of inertia
//! (cubes: the box scenes, issue 20). Such a body's `M^-1 J^T` is its
//! inverse mass times the row's `lin` and its inverse moment `d` times
//! the row's `ang`, so a row needs only `J`: the two scalars sit in the
//! body's slot beside its velocities, and one update scales the impulse
//! change by each before the products. Against [`super::kernel::Prepared`]:
//!
//! - No per-row exponents, narrowing or `M^-1 J^T` to prepare (that was
//!   about 475 instructions a row, `make insn-count PCPROFILE=boxes`).
//! - 48 bytes a row instead of 76, so that a woken pile keeps half as
//!   many of its rows again in DTCM ([`ISO_DTCM_ROWS`]).
//! - `M^-1 J^T` exact (not rounded to 15 bits per side).
//!
//! # One update, and why each product fits
//! `J v` and the impulse change are as in [`super::kernel`]. A side with
//! inverse mass `im` and inverse moment `d` (both Q12) moves by
//!
//! ```text
//! u = (im * delta) >> 8      (Q12 * Q20 = Q32 -> Q24, m/s per unit of lin)
//! w = (d * delta) >> 12      (rad/s per metre of ang, Q20)
//! v_k += (lin_k * u) >> 12,  w_k += (ang_k * w) >> 8
//! ```
//!
//! `d_max` (the largest impulse change of one update) keeps `|im delta|`
//! below `2^39`, so `u` fits 32 bits, and for a side with an angular part
//! `|d delta|` below `2^43`, so `w` does, and `|d delta| * max|ang_k|`
//! below `2^51`, so each angular change is below `2^31`; `|lin_k| <=
//! 2^12` keeps each linear change below `|u|`. (A side with no angular
//! part is not bounded by `d`: its `w` may wrap, and is multiplied by
//! zeros.) Each `>>` floors: two roundings a component, together below
//! `2^-20 |ang|` rad/s and one Q24 step.
//! `tests/rigid_iso.rs` drives the bounds to their edges.

use crate::fx::power::saturate_i32;
use crate::fx::{Fx1, Fx2};

use super::kernel::{
    bounds_of, contact_bounds, dot3, effective_mass, friction_bounds, impulse_change, impulse_of,
    impulse_within, slot, update_bounds, velocity_of, SweptRow, LAMBDA_MAX, NO_NORMAL, SLOTS,
    ZERO_SLOT,
};
use super::prep::{side_of, Side, Sides};
use super::row::{Row, UNBOUNDED};

/// A body's slot in an isotropic solve: velocity and spin (Q24, as
/// [`super::kernel::Vel`]), then its inverse mass and inverse moment
/// (Q12 raw; zero for the static world and sleepers).
pub type IsoSlot = [i32; 8];

/// Index of the inverse mass in an [`IsoSlot`].
const IM: usize = 6;
/// Index of the inverse moment.
const D: usize = 7;

/// Rows of the isotropic DTCM buffer: about the stack of
/// [`super::row::DTCM_ROWS`] general rows and their velocity scratch
/// (104 x 76 + 64 x 24 bytes), less the wider slots (64 x 32) and the
/// deeper frames of this solve. At 152 `make bench`'s deepest stack
/// (`stack.peak_bytes`) was 15172 of 15552 bytes; at 140 it is 15000,
/// which is no longer this solve's.
pub const ISO_DTCM_ROWS: usize = 140;

// The cut search in `super::row` sizes its table by this buffer.
const _: () = assert!(ISO_DTCM_ROWS >= super::row::DTCM_ROWS);

const HAS_A: u8 = 1;
const HAS_B: u8 = 2;

/// A row in isotropic solver form (48 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct IsoRow {
    /// `J`: lin, ang_a, ang_b (Q12).
    j: [i16; 9],
    /// Normal row of a friction row, or [`NO_NORMAL`].
    normal: u16,
    /// Slots of `a` and `b`.
    slot: [u8; 2],
    flags: u8,
    /// A friction row's count of normal rows (at least 1).
    normals: u8,
    /// Target `J v` (Q24).
    target: i32,
    /// Effective mass (Q24).
    m_eff: i32,
    /// Accumulated impulse (Q20).
    lambda: i32,
    /// Bounds (Q20); a friction row keeps its `mu` (Q12) in `lo`.
    lo: i32,
    hi: i32,
    /// The largest impulse change of one update (Q20): see the module
    /// docs for the bounds it keeps.
    d_max: i32,
}

impl IsoRow {
    /// All bits zero, to fill a buffer cheaply (a row that is never swept).
    pub const BLANK: IsoRow = IsoRow {
        j: [0; 9],
        normal: 0,
        slot: [0; 2],
        flags: 0,
        normals: 0,
        target: 0,
        m_eff: 0,
        lambda: 0,
        lo: 0,
        hi: 0,
        d_max: 0,
    };

    /// Sets `self` to `row` with warm start `lambda` (Q20) and relaxation
    /// `omega`, its bodies' masses from `sides`. False when the row does
    /// not fit this form (a body with unequal moments, a `lin` longer
    /// than a unit, a lever past 8 m, an inverse moment too large for its
    /// lever): then the whole step takes the general form.
    #[inline(never)]
    pub fn set(&mut self, row: &Row, sides: &Sides, lambda: i32, omega: Fx1) -> bool {
        self.set_checked(row, sides, lambda, omega).is_some()
    }

    /// [`IsoRow::set`], `None` for a row that does not fit.
    #[inline(always)]
    fn set_checked(&mut self, row: &Row, sides: &Sides, lambda: i32, omega: Fx1) -> Option<()> {
        let pair = [side_of(sides, row.a), side_of(sides, row.b)];
        let pair = IsoPair::of((row.a, row.b), &pair, omega)?;
        let jacobian = [row.lin.raw(), row.ang_a.raw(), row.ang_b.raw()];
        self.set_jacobian(&pair, &jacobian)?;
        let bounds = bounds_of(row, lambda);
        self.set_rest(
            row.target.raw(),
            row.friction_of,
            row.normals.max(1),
            bounds,
        );
        Some(())
    }

    /// A contact row built in place, straight from its Jacobian (`lin`,
    /// `ang_a`, `ang_b`, FX1 raw) between the bodies of `pair` (their
    /// sides found once a patch, [`IsoPair::of`]), as [`IsoRow::set`]
    /// would set it from the [`Row`] that [`super::contact`] pushes: a
    /// normal row (`link` `None`, bounds `0..UNBOUNDED`) or a friction row
    /// (`Some((first, count, mu))`). Bit for bit the same row
    /// (`tests/rigid_direct.rs`, `rows_equal_the_form_before_pairs`
    /// below). `target` FX2 raw, `lambda`
    /// the warm start (Q20). `None` when the row does not fit this form.
    #[inline(always)]
    pub(super) fn set_pair_row(
        &mut self,
        pair: &IsoPair,
        jacobian: &[[i32; 3]; 3],
        target: i64,
        link: Option<(u16, u8, Fx1)>,
        lambda: i32,
    ) -> Option<()> {
        self.set_jacobian(pair, jacobian)?;
        let (first, count, bounds) = match link {
            None => (NO_NORMAL, 1, contact_bounds(lambda)),
            Some((first, count, mu)) => (first, count.max(1), friction_bounds(mu, lambda)),
        };
        self.set_rest(target, first, count, bounds);
        Some(())
    }

    /// What follows `J`: the target (FX2 raw), the normal rows of a
    /// friction row (`first`, as [`Row::friction_of`], and `count`, at
    /// least 1) and the bounds with the warm start ([`bounds_of`]).
    #[inline(always)]
    fn set_rest(&mut self, target: i64, first: u16, count: u8, bounds: (i32, i32, i32)) {
        self.target = saturate_i32(target);
        self.normal = first;
        self.normals = count;
        (self.lo, self.hi, self.lambda) = bounds;
    }

    /// `J` and what follows from it and the bodies of `pair`: slots,
    /// flags, the effective mass and `d_max` (`None`: the row does not
    /// fit). Each side's mass terms come from the pair, and the checks of
    /// `ang` fold into the sums the row needs anyway ([`PairSide::terms`]).
    #[inline(always)]
    fn set_jacobian(&mut self, pair: &IsoPair, [l, aa, ab]: &[[i32; 3]; 3]) -> Option<()> {
        // `lin` within a unit (|c| <= 2^12).
        if l.iter().any(|&c| c.unsigned_abs() > 1 << 12) {
            return None;
        }
        // At most 3 * 2^24.
        let lin2 = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]) as u32;
        let (ka, la) = pair.sides[0].terms(aa, lin2)?;
        let (kb, lb) = pair.sides[1].terms(ab, lin2)?;
        self.slot = pair.slot;
        self.flags = pair.flags;
        for (dst, src) in self.j.iter_mut().zip(l.iter().chain(aa).chain(ab)) {
            *dst = *src as i16;
        }
        self.d_max = la.min(lb);
        // Below 2^48 (`PairSide::terms`): an i64.
        self.m_eff = effective_mass((ka + kb) as i64, pair.omega);
        Some(())
    }

    /// The impulse of a contact row built by [`IsoRow::set_pair_row`] as
    /// an FX2 value: [`IsoRow::impulse`] of the row it stands for (a
    /// normal row's own bounds are `0..UNBOUNDED`).
    #[inline(always)]
    pub(super) fn contact_impulse(&self) -> Fx2 {
        let friction = self.normal != NO_NORMAL;
        let own = (Fx2::ZERO, UNBOUNDED);
        impulse_within(friction, self.lambda, (self.lo, self.hi), own)
    }

    /// The impulse as an FX2 value ([`super::kernel::Prepared::impulse`]).
    pub fn impulse(&self, row: &Row) -> Fx2 {
        impulse_of(row, self.lambda, self.lo, self.hi)
    }

    /// Applies the accumulated impulse (a warm start), which may exceed
    /// what one update takes: each component one wide product, rounded
    /// once, saturating.
    #[inline(always)]
    pub fn warm_start(&self, vel: &mut [IsoSlot; SLOTS]) {
        let l = self.lambda;
        if l == 0 {
            return;
        }
        if l.unsigned_abs() <= self.d_max as u32 {
            self.apply(vel, l);
            return;
        }
        self.warm_start_wide(vel);
    }

    /// [`IsoRow::warm_start`] of an impulse beyond one update's reach
    /// (rare: a row that held a large impulse). Out of line, and out of
    /// ITCM: it would cost the rigid overlay a kilobyte.
    #[inline(never)]
    fn warm_start_wide(&self, vel: &mut [IsoSlot; SLOTS]) {
        let l = self.lambda as i64;
        // Side a's `lin` is negated.
        for (at, sign) in [(0, -1i64), (1, 1)] {
            if self.flags & [HAS_A, HAS_B][at] == 0 {
                continue;
            }
            let v = &mut vel[slot(self.slot[at])];
            let (im, d) = (v[IM] as i64, v[D] as i64);
            let ang = &self.j[3 + 3 * at..6 + 3 * at];
            for k in 0..3 {
                // |lin_k im| < 2^31 and |ang_k d| < 2^31 (`set`'s bounds),
                // times |l| < 2^30: within i64. Q44 -> Q24.
                let dv = (self.j[k] as i64 * im * sign * l) >> 20;
                let dw = (ang[k] as i64 * d * l) >> 20;
                v[k] = v[k].saturating_add(saturate_i32(dv));
                v[3 + k] = v[3 + k].saturating_add(saturate_i32(dw));
            }
        }
    }

    /// Adds `M^-1 J^T delta` to the velocities, for `|delta| <= d_max`.
    #[inline(always)]
    fn apply(&self, vel: &mut [IsoSlot; SLOTS], delta: i32) {
        if self.flags & HAS_A != 0 {
            // Side a's `lin` is negated (|delta| < 2^30: no overflow).
            add_side(&mut vel[slot(self.slot[0])], &self.j, 3, -delta, delta);
        }
        if self.flags & HAS_B != 0 {
            add_side(&mut vel[slot(self.slot[1])], &self.j, 6, delta, delta);
        }
    }
}

impl SweptRow for IsoRow {
    type Slot = IsoSlot;
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
    fn update(&mut self, vel: &mut [IsoSlot; SLOTS], sum: i64) {
        let bounds = update_bounds(self.normal, self.lo, self.hi, sum);
        let j = &self.j;
        let mut jv = 0i64;
        if self.flags & HAS_A != 0 {
            let v = &vel[slot(self.slot[0])];
            jv += dot3(&j[3..6], &v[3..6]) - dot3(&j[..3], &v[..3]);
        }
        if self.flags & HAS_B != 0 {
            let v = &vel[slot(self.slot[1])];
            jv += dot3(&j[6..9], &v[3..6]) + dot3(&j[..3], &v[..3]);
        }
        let delta = impulse_change(self.target, jv, self.m_eff, self.d_max, self.lambda, bounds);
        if delta == 0 {
            return;
        }
        self.lambda += delta;
        self.apply(vel, delta);
    }
}

/// Adds one side's velocity change for impulse change `delta`: its
/// linear part (`lin = j[..3]`) for `linear`, `delta` with the side's
/// sign, and its angular part (`ang = j[at..at + 3]`) for `delta`.
#[inline(always)]
fn add_side(v: &mut IsoSlot, j: &[i16; 9], at: usize, linear: i32, delta: i32) {
    // `d_max` keeps `im delta` below 2^39 and, where `ang` is not zero,
    // `d delta` below 2^43: 32 bits after the shifts (module docs).
    let u = ((v[IM] as i64 * linear as i64) >> 8) as i32;
    let w = ((v[D] as i64 * delta as i64) >> 12) as i32;
    for k in 0..3 {
        let dv = ((j[k] as i64 * u as i64) >> 12) as i32;
        v[k] = v[k].saturating_add(dv);
    }
    for k in 0..3 {
        let dw = ((j[at + k] as i64 * w as i64) >> 8) as i32;
        v[3 + k] = v[3 + k].saturating_add(dw);
    }
}

/// One side of an [`IsoPair`]: its masses (Q12 raw, magnitudes) and the
/// parts of [`side_limit`]'s exponent that depend on them alone.
#[derive(Clone, Copy, Debug)]
pub(super) struct PairSide {
    /// False for a body the solver does not move (no terms, no slot).
    present: bool,
    im: u32,
    d: u32,
    /// `39 - bits(im)`: the exponent of a side with no angular part.
    e_lin: u32,
    /// `min(39 - bits(im), 43 - bits(d))`.
    e_ang: u32,
    /// `51 - bits(d)`, less `bits(widest)` a row.
    e_wide: u32,
}

impl PairSide {
    /// A body the solver does not move.
    const ABSENT: PairSide = PairSide {
        present: false,
        im: 0,
        d: 0,
        e_lin: 0,
        e_ang: 0,
        e_wide: 0,
    };

    /// A moving side of inverse mass `im` and inverse moment `d` (Q12
    /// raw magnitudes).
    #[inline(always)]
    fn of(im: u32, d: u32) -> PairSide {
        let e_lin = 39 - bits(im);
        PairSide {
            present: true,
            im,
            d,
            e_lin,
            e_ang: e_lin.min(43 - bits(d)),
            e_wide: 51 - bits(d),
        }
    }

    /// [`side_limit`] for a largest `|ang_k|` of bit length `wide`.
    #[inline(always)]
    fn limit(&self, wide: u32) -> i32 {
        let e = if wide == 0 {
            self.e_lin
        } else {
            self.e_ang.min(self.e_wide.saturating_sub(wide))
        };
        if e >= 30 {
            LAMBDA_MAX
        } else {
            (1 << e) - 1
        }
    }

    /// This side's share of `J M^-1 J^T` (Q36) and its update bound (Q20,
    /// [`side_limit`]) for a row with angular part `ang` (FX1 raw) and
    /// `|lin|^2 = lin2` (Q24, at most `3 * 2^24`); `(0, LAMBDA_MAX)` for
    /// an absent side. `None` when `ang` does not fit an `i16` (absent
    /// sides are checked too: the row stores every component) or `d ang`
    /// 32 bits. `lin2 im < 2^46` and `d |a|^2 < d (sum |a_k|) 2^15 <
    /// 2^46`: the share is below `2^47`.
    #[inline(always)]
    fn terms(&self, ang: &[i32; 3], lin2: u32) -> Option<(u64, i32)> {
        let m = ang.map(|c| c.unsigned_abs());
        // The OR of the magnitudes has the largest one's bit length:
        // every component within `i16` (|c| <= 2^15 - 1) when it is below
        // 2^15.
        let wide = bits(m[0] | m[1] | m[2]);
        if wide > 15 {
            return None;
        }
        if !self.present {
            return Some((0, LAMBDA_MAX));
        }
        // `d a_k` in 32 bits, and below the warm start's bound.
        let reach = m[0] + m[1] + m[2];
        if self.d as u64 * reach as u64 >= 1 << 31 {
            return None;
        }
        // Each square below 2^30: the sum fits a u32.
        let a2 = m[0] * m[0] + m[1] * m[1] + m[2] * m[2];
        let k = lin2 as u64 * self.im as u64 + self.d as u64 * a2 as u64;
        Some((k, self.limit(wide)))
    }
}

/// What every isotropic row between two bodies shares: slots, flags,
/// each side's [`PairSide`] and the relaxation. Found once a contact
/// patch, so that a row pays only for what is its own.
#[derive(Clone, Copy, Debug)]
pub(super) struct IsoPair {
    /// The bodies, as the rows name them (the warm-start keys).
    pub(super) bodies: (u8, u8),
    slot: [u8; 2],
    flags: u8,
    sides: [PairSide; 2],
    omega: Fx1,
}

impl IsoPair {
    /// The pair `(a, b)` with sides `sides` (theirs in the step's table),
    /// relaxation `omega`; `None` when a moving side has unequal moments
    /// (the row would not fit this form).
    #[inline(never)]
    pub(super) fn of((a, b): (u8, u8), sides: &[Side; 2], omega: Fx1) -> Option<IsoPair> {
        let mut pair = IsoPair {
            bodies: (a, b),
            slot: [ZERO_SLOT; 2],
            flags: 0,
            sides: [PairSide::ABSENT; 2],
            omega,
        };
        for (at, i) in [(0, a), (1, b)] {
            let s = &sides[at];
            if s.is_absent() {
                continue;
            }
            let (im, d) = s.isotropic()?;
            pair.sides[at] = PairSide::of(im.unsigned_abs(), d.unsigned_abs());
            pair.slot[at] = i;
            pair.flags |= [HAS_A, HAS_B][at];
        }
        Some(pair)
    }
}

/// Bit length of `x`.
#[inline(always)]
fn bits(x: u32) -> u32 {
    32 - x.leading_zeros()
}

/// The largest impulse change (Q20) one update may make on a side with
/// inverse mass `im`, inverse moment `d` and largest `|ang_k|` `widest`:
/// `|im delta|` below `2^39` and, when `widest` is not zero, `|d delta|`
/// below `2^43` and `|d delta| widest` below `2^51` (module docs), each
/// bound a power of two from bit lengths.
pub fn side_limit(im: i32, d: i32, widest: u32) -> i32 {
    PairSide::of(im.unsigned_abs(), d.unsigned_abs()).limit(bits(widest))
}

/// The isotropic form's slots, into `out` (zeroed by the caller, and left
/// zero beyond the bodies, the zero slot among them): `bodies`'
/// velocities (Q24, saturated, as [`super::row::Rows::solve`] takes
/// them) with their masses from `sides` (zero for bodies the solver does
/// not move). Out of line, one body per turn: one copy for both
/// isotropic solves, and returned by value it unrolled into 2.5 KB of
/// stores (the rigid ITCM overlay has no room for it).
#[inline(never)]
pub fn fill_slots(out: &mut [IsoSlot; SLOTS], bodies: &[super::Body], sides: &Sides) {
    for ((o, b), s) in out[..ZERO_SLOT as usize].iter_mut().zip(bodies).zip(sides) {
        let [x, y, z, p, q, r] = velocity_of(b);
        let (im, d) = s.isotropic().unwrap_or((0, 0));
        *o = [x, y, z, p, q, r, im, d];
    }
}

#[cfg(test)]
mod tests {
    use super::{
        effective_mass, saturate_i32, IsoPair, IsoRow, HAS_A, HAS_B, LAMBDA_MAX, ZERO_SLOT,
    };
    use crate::fx::{Fx1, Fx2, Quat, Vec3};
    use crate::rigid::body::{Body, STATIC};
    use crate::rigid::kernel::bounds_of;
    use crate::rigid::prep::Sides;
    use crate::rigid::prep::{fill_sides, side_of, NO_SIDES};
    use crate::rigid::row::{Row, UNBOUNDED};
    use crate::xorshift::XorShift32;

    /// Cubes of several sizes and masses (a static one and a sleeper
    /// among them, which the solver does not move).
    fn bodies() -> [Body; 6] {
        let cube = |h: i32, m: i32| {
            let half = Vec3::new(Fx1::from_raw(h), Fx1::from_raw(h), Fx1::from_raw(h));
            Body::new_box(half, Fx1::from_raw(m), Vec3::ZERO, Quat::IDENTITY)
        };
        let mut asleep = cube(614, 4096);
        asleep.rest = crate::rigid::sleep::SLEEP_FRAMES;
        [
            cube(614, 4096),
            cube(205, 205),
            cube(8192, 40960),
            cube(41, 205),
            cube(614, 0),
            asleep,
        ]
    }

    /// The form `IsoRow::set` had before a pair's sides were found once
    /// (74367cc): each component checked, each side's terms and update
    /// bound from its masses' bit lengths, row by row.
    fn set_before_pairs(row: &Row, sides: &Sides, lambda: i32, omega: Fx1) -> Option<IsoRow> {
        let bits = |x: u32| 32 - x.leading_zeros();
        let side_limit = |im: u32, d: u32, widest: u32| {
            let mut e = 39 - bits(im);
            if widest != 0 {
                e = e
                    .min(43 - bits(d))
                    .min(51u32.saturating_sub(bits(d) + bits(widest)));
            }
            if e >= 30 {
                LAMBDA_MAX
            } else {
                (1 << e) - 1
            }
        };
        let [l, aa, ab] = [row.lin.raw(), row.ang_a.raw(), row.ang_b.raw()];
        let outside = |c: i32, half: u32| c.wrapping_add(half as i32) as u32 > 2 * half;
        if l.iter().any(|&c| outside(c, 1 << 12))
            || aa.iter().chain(&ab).any(|&c| outside(c, i16::MAX as u32))
        {
            return None;
        }
        let lin2 = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]) as u32;
        let mut out = IsoRow::BLANK;
        let (mut k, mut d_max) = (0u64, LAMBDA_MAX);
        out.slot = [ZERO_SLOT; 2];
        for (at, i, ang) in [(0, row.a, aa), (1, row.b, ab)] {
            let s = side_of(sides, i);
            if s.is_absent() {
                continue;
            }
            let (im, d) = s.isotropic()?;
            let (im, d) = (im.unsigned_abs(), d.unsigned_abs());
            let mags = ang.map(|c| c.unsigned_abs());
            if d as u64 * (mags[0] + mags[1] + mags[2]) as u64 >= 1 << 31 {
                return None;
            }
            let a2 = mags[0] * mags[0] + mags[1] * mags[1] + mags[2] * mags[2];
            let widest = mags[0].max(mags[1]).max(mags[2]);
            k += lin2 as u64 * im as u64 + d as u64 * a2 as u64;
            d_max = d_max.min(side_limit(im, d, widest));
            out.slot[at] = i;
            out.flags |= [HAS_A, HAS_B][at];
        }
        for (dst, src) in out.j.iter_mut().zip(l.iter().chain(&aa).chain(&ab)) {
            *dst = *src as i16;
        }
        out.d_max = d_max;
        out.m_eff = effective_mass(k as i64, omega);
        out.target = saturate_i32(row.target.raw());
        out.normal = row.friction_of;
        out.normals = row.normals.max(1);
        (out.lo, out.hi, out.lambda) = bounds_of(row, lambda);
        Some(out)
    }

    /// `IsoRow::set` of a `Row`, and `IsoRow::set_pair_row` of the contact
    /// row it stands for, against the form before pairs, on random contact
    /// rows, normal and friction, between every pair of the bodies above:
    /// the same verdict, and when the row is taken, the same row bit for
    /// bit. Components range past what the form takes (`lin` past a unit,
    /// `ang` past an `i16`, levers past what `d ang` allows), so that the
    /// refusals are compared too.
    #[test]
    fn rows_equal_the_form_before_pairs() {
        let bodies = bodies();
        let mut sides = NO_SIDES;
        fill_sides(&mut sides, 0, &bodies);
        let mut rng = XorShift32::new(0x1d2c_3b4a);
        // Uniform in -max..=max.
        let mut range =
            |max: i32| (rng.next_u32() as u64 % (2 * max as u64 + 1)) as i64 - max as i64;
        let (mut taken, mut refused) = (0, 0);
        let ids = [0, 1, 2, 3, 4, 5, STATIC];
        for _ in 0..20_000 {
            let (a, b) = (ids[(range(3) + 3) as usize], ids[(range(3) + 3) as usize]);
            let lin_max = if range(9) == 0 { 4200 } else { 4096 };
            let ang_max =
                [600, 4096, 32767, 40000][(range(1) + 1 + (range(1) == 1) as i64) as usize];
            let lin = [0; 3].map(|_| range(lin_max) as i32);
            let ang_a = [0; 3].map(|_| range(ang_max) as i32);
            let ang_b = [0; 3].map(|_| range(ang_max) as i32);
            let target = range(i32::MAX) * 1024 + range(1000);
            let lambda = range(1 << 30) as i32;
            let omega = Fx1::from_raw(4096 + range(700) as i32);
            let link = (range(1) == 1).then(|| {
                let mu = Fx1::from_raw(range(40000) as i32);
                ((range(200) + 200) as u16, (range(3) + 3) as u8, mu)
            });
            let mut row = Row::new(
                a,
                b,
                Vec3::from_raw(lin[0], lin[1], lin[2]),
                Vec3::from_raw(ang_a[0], ang_a[1], ang_a[2]),
                Vec3::from_raw(ang_b[0], ang_b[1], ang_b[2]),
                Fx2::from_raw(target),
            );
            (row.lo, row.hi) = (Fx2::ZERO, UNBOUNDED);
            if let Some((first, count, mu)) = link {
                row.friction_of = first;
                row.normals = count;
                row.mu = mu;
                row.lo = -UNBOUNDED;
            }
            let before = set_before_pairs(&row, &sides, lambda, omega);
            let mut from_row = IsoRow::BLANK;
            let by_row = from_row.set(&row, &sides, lambda, omega);
            let pair_sides = [side_of(&sides, a), side_of(&sides, b)];
            let pair = IsoPair::of((a, b), &pair_sides, omega).expect("cubes are isotropic");
            let mut direct = IsoRow::BLANK;
            let jacobian = [lin, ang_a, ang_b];
            let by_pair = direct.set_pair_row(&pair, &jacobian, target, link, lambda);
            assert_eq!(before.is_some(), by_row, "{row:?}");
            assert_eq!(before.is_some(), by_pair.is_some(), "{row:?}");
            if let Some(before) = before {
                assert_eq!(before, from_row, "{row:?}");
                assert_eq!(before, direct, "{row:?}");
                taken += 1;
            } else {
                refused += 1;
            }
        }
        // Both verdicts well represented.
        assert!(
            taken > 5_000 && refused > 2_000,
            "{taken} taken, {refused} refused"
        );
    }
}
