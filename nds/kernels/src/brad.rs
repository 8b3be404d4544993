//! The brads' regular path (seed 004, "Interfacing with the Animation
//! System"; the engine's `dsphys::anim::brad` has the whole definition):
//! per brad, the unit A from one particle pair, the unit C = A x goal
//! from another, B = C x A, placed as the joint's rotation columns, and
//! the joint's particle as its translation.
//!
//! [`build`] runs the table from a brad on and stops at the first brad
//! it does not serve, which the engine then builds itself (its code has
//! the degenerate cases: a zero A, a goal parallel to A, a pair beyond
//! [`RANGE`]); all of its arithmetic is here and the engine's regular
//! path calls the same functions. A brad marked as its predecessor's twin
//! (the same goal, A along the same particles) takes that brad's three
//! vectors, A and C negated when its A runs the other way: the bits
//! building it alone gives (A negated gives C negated and B unchanged,
//! every rounding being symmetric).
//!
//! On the DS ARM9 [`build`] is hand-written ARM (`arm/brad.rs`): the
//! compiled loop cost about 230 instructions a brad, with the placement
//! worked out from the axes each frame; the ROM's self-test
//! `brad_kernel_matches_host` compares the two over random poses.

use fxcore::vec3::Vec3;

pub use crate::unit32::{len2, unit_q12, unit_q12_pair};

/// Pair vectors beyond this per component (8 m, raw FX1) are clamped by
/// the engine; [`build`] leaves those brads to it.
pub const RANGE: i32 = 8 << 12;

/// The goal counts as parallel to A when its orthogonal part is below
/// `1 / 2^DEGENERATE_SHIFT` of its length (sin 0.9°).
pub const DEGENERATE_SHIFT: u32 = 6;

/// A brad's rotation columns and translation, raw FX1: the layout of
/// the engine's `Mat4x3` (three columns, then the translation).
pub type Frame = [Vec3; 4];

/// [`Plan::flags`]: the A column holds `-A`.
pub const NEGATE_A: u8 = 1;
/// [`Plan::flags`]: the B column holds `-B`.
pub const NEGATE_B: u8 = 2;
/// [`Plan::flags`]: the third column holds `-C`.
pub const NEGATE_C: u8 = 4;
/// [`Plan::flags`]: the previous brad is this one's twin.
pub const TWIN_OF_PREVIOUS: u8 = 8;
/// [`Plan::flags`]: this brad's A runs the other way from its twin's.
pub const TWIN_REVERSED: u8 = 16;

/// One brad as [`build`] reads it: eight bytes, one load-multiple, each
/// a byte offset (a particle's into the positions, 12 bytes each; a
/// column's into the frame) but the flags.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    a: [u8; 2],
    goal: [u8; 2],
    particle: u8,
    /// A's column and B's; C's is the third (the offsets sum to 36).
    columns: [u8; 2],
    flags: u8,
}

/// A position's or a column's size in bytes.
const STRIDE: u8 = 12;

impl Plan {
    /// A brad whose A runs from particle `a[0]` to `a[1]`, whose goal
    /// runs from `goal[0]` to `goal[1]`, at particle `particle`, with A,
    /// B and C in `columns` (three different columns), `flags` from the
    /// constants above.
    ///
    /// # Panics
    /// If a particle is beyond 15, the columns are not 0, 1 and 2 in
    /// some order, or a flag is unknown.
    pub const fn new(
        a: [u8; 2],
        goal: [u8; 2],
        particle: u8,
        columns: [usize; 3],
        flags: u8,
    ) -> Plan {
        assert!(
            a[0] < 16 && a[1] < 16 && goal[0] < 16 && goal[1] < 16 && particle < 16,
            "brad plan: particle beyond 15"
        );
        assert!(
            columns[0] < 3
                && columns[1] < 3
                && columns[2] < 3
                && columns[0] != columns[1]
                && columns[1] != columns[2]
                && columns[0] != columns[2],
            "brad plan: the columns must be 0, 1 and 2"
        );
        assert!(flags < 32, "brad plan: unknown flag");
        Plan {
            a: [a[0] * STRIDE, a[1] * STRIDE],
            goal: [goal[0] * STRIDE, goal[1] * STRIDE],
            particle: particle * STRIDE,
            columns: [columns[0] as u8 * STRIDE, columns[1] as u8 * STRIDE],
            flags,
        }
    }

    /// The largest particle index the brad reads.
    const fn highest(&self) -> u8 {
        let mut h = self.particle;
        let all = [self.a[0], self.a[1], self.goal[0], self.goal[1]];
        let mut i = 0;
        while i < 4 {
            if all[i] > h {
                h = all[i];
            }
            i += 1;
        }
        h / STRIDE
    }

    /// A's, B's and C's columns.
    fn columns(&self) -> [usize; 3] {
        let [a, b] = self.columns.map(|c| (c / STRIDE) as usize);
        [a, b, 3 - a - b]
    }

    /// The particle pair `p` (byte offsets) as indices.
    fn indices(p: [u8; 2]) -> [u8; 2] {
        p.map(|o| o / STRIDE)
    }
}

/// The plans of a brad table, in order, and the highest particle they
/// read (checked against the positions before [`build`] runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plans<const N: usize> {
    plans: [Plan; N],
    len: usize,
    highest: u8,
}

impl<const N: usize> Plans<N> {
    /// No brads.
    pub const EMPTY: Plans<N> = Plans {
        plans: [Plan::new([0, 0], [0, 0], 0, [0, 1, 2], 0); N],
        len: 0,
        highest: 0,
    };

    /// Appends `plan`.
    ///
    /// # Panics
    /// If `N` plans are there already.
    pub fn push(&mut self, plan: Plan) {
        assert!(self.len < N, "brad plans: more than N");
        self.plans[self.len] = plan;
        self.len += 1;
        self.highest = self.highest.max(plan.highest());
    }

    /// The plans.
    pub fn as_slice(&self) -> &[Plan] {
        &self.plans[..self.len]
    }
}

/// `b - a` for the particle pair `p`, raw, clamped to `±RANGE` per
/// component: a ragdoll's pairs are within 2 m, so the clamp seldom acts
/// (with every component in `[-8 m, 8 m)` it leaves them all; a saturated
/// difference is far beyond).
#[inline(always)]
pub fn pair(x: &[Vec3], p: [u8; 2]) -> [i32; 3] {
    let d = unclamped_pair(x, p);
    if magnitudes_below(d, RANGE) {
        d
    } else {
        // In line, not a call: returned from a call, the common case's
        // pair went through memory too.
        d.map(|c| c.clamp(-RANGE, RANGE))
    }
}

/// `b - a` for the particle pair `p`, raw, saturating.
#[inline(always)]
fn unclamped_pair(x: &[Vec3], p: [u8; 2]) -> [i32; 3] {
    let (a, b) = (x[p[0] as usize].raw(), x[p[1] as usize].raw());
    [0, 1, 2].map(|i| b[i].saturating_sub(a[i]))
}

/// True when every component of `v` lies in `[-limit, limit)`, for a
/// power of two `limit`: `c ^ (c >> 31)` is `|c|` for `c >= 0` and `|c| -
/// 1` below (one instruction each), and their OR is below `limit` just
/// when each of them is.
#[inline(always)]
pub fn magnitudes_below(v: [i32; 3], limit: i32) -> bool {
    debug_assert!(limit.count_ones() == 1);
    (v[0] ^ (v[0] >> 31)) | (v[1] ^ (v[1] >> 31)) | (v[2] ^ (v[2] >> 31)) < limit
}

/// `u x v` in raw integers (`u` unit, `v` within ±8 m: each component is
/// below `2^29`, exact in an `i32`).
#[inline(always)]
pub fn cross(u: [i32; 3], v: [i32; 3]) -> [i32; 3] {
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

/// FX2 to FX1, to nearest with ties away from zero (`Fx2::lower`).
#[inline(always)]
pub fn lower(v: [i32; 3]) -> [i32; 3] {
    v.map(|c| (c + (1 << 11) + (c >> 31)) >> 12)
}

/// The unit C = A x goal if the goal is clear of A, else `None` (`goal`
/// a pair, within `±2^15`; `a_hat` unit, so C is below `2^28`).
#[inline(always)]
pub fn clear_normal(a_hat: [i32; 3], goal: [i32; 3]) -> Option<[i32; 3]> {
    let c = cross(a_hat, goal);
    // |c1|^2 2^(2 shift) < |goal|^2, in FX2: degenerate. In 32 bits:
    // |goal|^2 is below 2^32, so a component of c1 of 2^10 or more
    // (|c1|^2 2^12 >= 2^32) is clear; below that |c1|^2 < 3 * 2^20, and
    // for integers `x 2^12 < y` is `x < ceil(y / 2^12)`.
    let c1 = lower(c);
    if c1[0] | c1[1] | c1[2] == 0 {
        return None;
    }
    // Components in [-2^10, 2^10): the exact test decides (it would
    // for any small c1).
    if magnitudes_below(c1, 1 << 10) && len2(c1) < len2(goal).div_ceil(1 << (2 * DEGENERATE_SHIFT))
    {
        return None;
    }
    unit_q12(c)
}

/// The unit A, B and C of a brad from its pairs `a` and `goal` (each
/// within [`RANGE`]), or `None` for the degenerate cases (A zero, the
/// goal parallel to A), which the engine handles.
#[inline(always)]
pub fn unit_axes(a: [i32; 3], goal: [i32; 3]) -> Option<[[i32; 3]; 3]> {
    let a_hat = unit_q12_pair(a)?;
    let c_hat = clear_normal(a_hat, goal)?;
    // Both unit and orthogonal: their cross product is unit to rounding.
    let b_hat = lower(cross(c_hat, a_hat));
    Some([a_hat, b_hat, c_hat])
}

/// [`unit_axes`] of a brad on its regular path (both pairs within
/// [`RANGE`], neither degenerate), else `None`.
#[inline(always)]
fn regular(x: &[Vec3], plan: &Plan) -> Option<[[i32; 3]; 3]> {
    let a = unclamped_pair(x, Plan::indices(plan.a));
    let goal = unclamped_pair(x, Plan::indices(plan.goal));
    if !(magnitudes_below(a, RANGE) && magnitudes_below(goal, RANGE)) {
        return None;
    }
    unit_axes(a, goal)
}

/// `v` negated when `flag` is set in `flags`.
#[inline(always)]
fn negated_if(flags: u8, flag: u8, v: [i32; 3]) -> Vec3 {
    let s = if flags & flag != 0 { -1 } else { 1 };
    Vec3::from_raw(s * v[0], s * v[1], s * v[2])
}

/// Builds brads `from..` of `plans` into `frames` from the positions `x`
/// (raw FX1) and returns the index of the first brad it left to the
/// engine (the plans' count when none), whose frame it did not touch.
/// A brad marked [`TWIN_OF_PREVIOUS`] reuses its predecessor's vectors
/// only when this call built that one.
///
/// # Panics
/// If `frames` is shorter than the plans, or a plan reads a particle
/// beyond `x`.
pub fn build<const N: usize>(
    x: &[Vec3],
    plans: &Plans<N>,
    frames: &mut [Frame],
    from: usize,
) -> usize {
    let plans_in = plans.as_slice();
    assert!(
        frames.len() >= plans_in.len(),
        "brads: fewer frames than plans"
    );
    #[cfg(all(target_arch = "arm", target_os = "none"))]
    if (plans.highest as usize) < x.len() && from < plans_in.len() {
        return crate::arm::brad::build(x, plans_in, frames, from);
    }
    build_portable(x, plans_in, frames, from)
}

/// [`build`] in Rust: the reference the ARM pass matches.
#[cfg_attr(all(target_arch = "arm", target_os = "none"), inline(never))]
pub fn build_portable(x: &[Vec3], plans: &[Plan], frames: &mut [Frame], from: usize) -> usize {
    // The unsigned A, B, C of the brad before, when this call built it.
    let mut last: Option<[[i32; 3]; 3]> = None;
    for (k, plan) in plans.iter().enumerate().skip(from) {
        let v = match last {
            Some([a, b, c]) if plan.flags & TWIN_OF_PREVIOUS != 0 => {
                if plan.flags & TWIN_REVERSED != 0 {
                    [a.map(|e| -e), b, c.map(|e| -e)]
                } else {
                    [a, b, c]
                }
            }
            _ => match regular(x, plan) {
                Some(v) => v,
                None => return k,
            },
        };
        let (f, [ca, cb, cc]) = (&mut frames[k], plan.columns());
        f[ca] = negated_if(plan.flags, NEGATE_A, v[0]);
        f[cb] = negated_if(plan.flags, NEGATE_B, v[1]);
        f[cc] = negated_if(plan.flags, NEGATE_C, v[2]);
        f[3] = x[(plan.particle / STRIDE) as usize];
        last = Some(v);
    }
    plans.len()
}
