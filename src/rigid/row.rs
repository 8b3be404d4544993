//! One velocity-level constraint row, `J_a v_a + J_b v_b = target`, with
//! its impulse clamped to `[lo, hi]` (seed 000), and the projected
//! Gauss-Seidel / sequential-impulse solver over a fixed buffer of rows.
//!
//! A row between bodies `a` and `b` (either may be [`STATIC`]) is
//!
//! ```text
//! J v = lin . (v_b - v_a) + ang_a . w_a + ang_b . w_b
//! ```
//!
//! and its impulse `lambda` changes velocities by `M^-1 J^T lambda`.
//! Contacts and limits have `lo = 0`; motors `+-tau_max dt`; friction
//! `+-mu lambda_normal` (`friction_of` names the normal row).
//!
//! # Limits
//! A buffer holds at most `R <= 65535` rows (indices are `u16`; a
//! friction row names its normal row by index) and the solver takes at
//! most [`MAX_BODIES`] bodies (`u8` indices, one slot per body in its
//! velocity scratch).
//!
//! # The solve, in 32-bit integers
//! [`Row`] is what the joints and contacts push (FX types). `solve`
//! turns each into a [`Prepared`] row of plain `i32` once per step and
//! sweeps those over an `i32` copy of the velocities, so that the inner
//! loop is 32x32 multiplies (`smull`/`smlal` on the ARM9) with nothing
//! spilled: the FX version spent ~1300 cycles per row update keeping
//! 64-bit FX2 values on the stack.
//!
//! | value | format | range kept |
//! |---|---|---|
//! | velocity, spin (scratch) | Q24 `i32` (= FX2 raw) | +-128 m/s, saturating (caps are 60 and 100) |
//! | `J` | Q12 (FX1) | unit directions, levers |
//! | `M^-1 J^T` | Q12 (FX1) | as before |
//! | target | Q24 | +-128 m/s, saturating |
//! | velocity error | Q24 | clamped to `+-MAX_ERROR` |
//! | effective mass | Q24 | clamped to `MAX_EFFECTIVE_MASS` (127) |
//! | impulse, bounds | Q20 `i32` | +-[`UNBOUNDED`] (1024 N s), step 1e-6 N s |
//!
//! `J v` is an exact Q36 sum in `i64`; the impulse change is
//! `err * m_eff` (Q48, exact) rounded to Q20; the velocity change
//! `M^-1 J^T * d` is an exact Q32 product rounded to Q24, and added with
//! saturation. `M^-1 J^T` in FX1 gives a 100 kg body's `1/m` 0.6 %
//! rounding, which costs a little momentum exactness but no constraint
//! accuracy (the iteration converges to `J v = target` whatever the
//! effective mass, as long as it is positive).

use crate::divsqrt::div_auto;
use crate::fx::power::{round_shr, saturate_i32};
use crate::fx::{Fx1, Fx2, Fx3, Vec3};

use super::body::{mul_mat_fx2, Body, STATIC};

/// No friction row: the row's own bounds apply.
pub const NO_NORMAL: u16 = u16::MAX;

/// The most bodies one solve takes (indices `0..MAX_BODIES`).
pub const MAX_BODIES: usize = 64;

/// Largest velocity error one row corrects per iteration (m/s or rad/s).
pub const MAX_ERROR: Fx2 = Fx2::from_raw(127 << 24);

/// Largest effective mass (kg or kg m^2): its Q24 raw fits an `i32`.
pub const MAX_EFFECTIVE_MASS: Fx2 = Fx2::from_raw(127 << 24);

/// The largest impulse bound (N s): "unbounded". Q20 raw `2^30`, so that
/// the difference of two clamped impulses fits an `i32`.
pub const UNBOUNDED: Fx2 = Fx2::from_raw(1 << 34);

/// The key bit of joint and motor rows (their warm start has its own
/// fraction, [`Rows::joint_warm_fraction`]).
pub const JOINT_KEY: u16 = 0x8000;

/// Fraction bits of the solver's impulses.
const LAMBDA_FRAC: u32 = 20;

/// One constraint row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// First body (or [`STATIC`]); gets `-lin`.
    pub a: u8,
    /// Second body (or [`STATIC`]); gets `+lin`.
    pub b: u8,
    /// Linear Jacobian of `b` (unit or zero).
    pub lin: Vec3,
    /// Angular Jacobian of `a`.
    pub ang_a: Vec3,
    /// Angular Jacobian of `b`.
    pub ang_b: Vec3,
    /// The `J v` wanted after the solve (velocity units).
    pub target: Fx2,
    /// Lower impulse bound.
    pub lo: Fx2,
    /// Upper impulse bound.
    pub hi: Fx2,
    /// For a friction row, the index of its normal row, else [`NO_NORMAL`].
    pub friction_of: u16,
    /// Friction coefficient (friction rows only).
    pub mu: Fx1,
    /// The accumulated impulse (after a solve: its result, Q20 precision).
    pub lambda: Fx2,
    /// Warm-start key: a row with the same bodies and key as one of the
    /// last step starts from that row's impulse (0: start from zero).
    pub key: u16,
}

impl Row {
    /// The all-zero row (fills the fixed buffer).
    pub const ZERO: Row = Row {
        a: 0,
        b: 0,
        lin: Vec3::ZERO,
        ang_a: Vec3::ZERO,
        ang_b: Vec3::ZERO,
        target: Fx2::ZERO,
        lo: Fx2::ZERO,
        hi: Fx2::ZERO,
        friction_of: 0,
        mu: Fx1::ZERO,
        lambda: Fx2::ZERO,
        key: 0,
    };

    /// A row with bounds `[lo, hi]` and no friction link.
    pub fn new(a: u8, b: u8, lin: Vec3, ang_a: Vec3, ang_b: Vec3, target: Fx2) -> Row {
        Row {
            a,
            b,
            lin,
            ang_a,
            ang_b,
            target,
            lo: -UNBOUNDED,
            hi: UNBOUNDED,
            friction_of: NO_NORMAL,
            ..Row::default()
        }
    }

    /// An angular row `(w_b - w_a) . axis = target`.
    pub fn angular(a: u8, b: u8, axis: Vec3, target: Fx2) -> Row {
        Row::new(a, b, Vec3::ZERO, -axis, axis, target)
    }

    /// Sets the warm-start key.
    pub fn keyed(mut self, key: u16) -> Row {
        self.key = key;
        self
    }

    /// Sets the impulse bounds.
    pub fn bounded(mut self, lo: Fx2, hi: Fx2) -> Row {
        self.lo = lo;
        self.hi = hi;
        self
    }

    /// The current `J v` (FX3, exact).
    #[inline]
    pub fn velocity(&self, bodies: &[Body]) -> Fx3 {
        let mut jv = Fx3::ZERO;
        if let Some(b) = body(bodies, self.a) {
            jv += self.ang_a.dot(b.spin) - self.lin.dot(b.vel);
        }
        if let Some(b) = body(bodies, self.b) {
            jv += self.ang_b.dot(b.spin) + self.lin.dot(b.vel);
        }
        jv
    }

    /// The row in solver form: `M^-1 J^T`, the effective mass, Q20 bounds.
    fn prepare(&self, bodies: &[Body]) -> Prepared {
        let mut k = Fx3::ZERO;
        let lin = self.lin;
        let lin2 = lin.dot(lin);
        let mut side = |i: u8, ang: Vec3, m: &mut [i32]| -> bool {
            match body(bodies, i) {
                Some(b) => {
                    let m_ang = b.inv_inertia_world.mul_vec_exact(ang);
                    k += lin2 * b.inv_mass + ang.dot(m_ang);
                    let m_lin = (lin * b.inv_mass).lower();
                    m[..3].copy_from_slice(&m_lin.to_array().map(Fx1::raw));
                    m[3..].copy_from_slice(&m_ang.lower().to_array().map(Fx1::raw));
                    true
                }
                None => false,
            }
        };
        let mut m = [0i32; 12];
        let (ma, mb) = m.split_at_mut(6);
        let has_a = side(self.a, self.ang_a, ma);
        let has_b = side(self.b, self.ang_b, mb);
        let m_eff = if k.raw() <= 0 {
            0
        } else {
            // 1/k: raw 2^60 / k_raw (k has 36 fraction bits, the result 24).
            div_auto(1 << 60, k.raw()).min(MAX_EFFECTIVE_MASS.raw()) as i32
        };
        let has_lin = self.lin != Vec3::ZERO;
        let mut j = [0i32; 9];
        for (dst, v) in j
            .chunks_exact_mut(3)
            .zip([self.lin, self.ang_a, self.ang_b])
        {
            dst.copy_from_slice(&v.to_array().map(Fx1::raw));
        }
        Prepared {
            j,
            m,
            target: saturate_i32(self.target.raw()),
            m_eff,
            lo: to_q20(self.lo),
            hi: to_q20(self.hi),
            lambda: to_q20(self.lambda),
            mu: self.mu.raw(),
            normal: self.friction_of,
            a: self.a,
            b: self.b,
            flags: (has_a as u8) | (has_b as u8) << 1 | (has_lin as u8) << 2,
            d_max: d_max(&m),
        }
    }
}

/// An FX2 impulse (Q24) as a Q20 `i32` within `+-UNBOUNDED`.
fn to_q20(x: Fx2) -> i32 {
    let u = UNBOUNDED.raw() >> (24 - LAMBDA_FRAC);
    round_shr(x.raw(), 24 - LAMBDA_FRAC).clamp(-u, u) as i32
}

/// Flag bits of [`Prepared`].
const HAS_A: u8 = 1;
const HAS_B: u8 = 2;
const HAS_LIN: u8 = 4;

/// A row in the solver's `i32` form (see the module docs for formats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// `J`: lin, ang_a, ang_b (Q12).
    j: [i32; 9],
    /// `M^-1 J^T`: lin_a, ang_a, lin_b, ang_b (Q12).
    m: [i32; 12],
    /// Target `J v` (Q24).
    target: i32,
    /// Effective mass (Q24).
    m_eff: i32,
    /// Impulse bounds and accumulated impulse (Q20).
    lo: i32,
    hi: i32,
    lambda: i32,
    /// Friction coefficient (Q12).
    mu: i32,
    /// Normal row of a friction row, or [`NO_NORMAL`].
    normal: u16,
    a: u8,
    b: u8,
    flags: u8,
    /// The largest impulse change of one update (see [`d_max`]).
    d_max: i32,
}

impl Prepared {
    const ZERO: Prepared = Prepared {
        j: [0; 9],
        m: [0; 12],
        target: 0,
        m_eff: 0,
        lo: 0,
        hi: 0,
        lambda: 0,
        mu: 0,
        normal: NO_NORMAL,
        a: 0,
        b: 0,
        flags: 0,
        d_max: 0,
    };
}

/// Velocities in the solver's scratch: `[vx, vy, vz, wx, wy, wz]`, Q24.
type Vel = [i32; 6];

/// `sum j[k] * v[k]` over three components, exact (Q36).
#[inline(always)]
fn dot3(j: &[i32], v: &[i32]) -> i64 {
    j[0] as i64 * v[0] as i64 + j[1] as i64 * v[1] as i64 + j[2] as i64 * v[2] as i64
}

/// `m * d` (Q12 * Q20) rounded to Q24, saturating (any `d`).
#[inline(always)]
fn scaled_saturating(m: i32, d: i32) -> i32 {
    saturate_i32((m as i64 * d as i64 + (1 << 7)) >> 8)
}

/// `m * d` rounded to Q24 for `|d| <= Prepared::d_max`, where it fits.
#[inline(always)]
fn scaled(m: i32, d: i32) -> i32 {
    ((m as i64 * d as i64 + (1 << 7)) >> 8) as i32
}

/// Adds `M^-1 J^T d` of row `r` to the scratch velocities (saturating),
/// with `scale` the product above.
#[inline(always)]
fn apply_with(r: &Prepared, vel: &mut [Vel; MAX_BODIES], d: i32, scale: fn(i32, i32) -> i32) {
    let lin = r.flags & HAS_LIN != 0;
    if r.flags & HAS_A != 0 {
        let v = &mut vel[r.a as usize % MAX_BODIES];
        if lin {
            for (v, &m) in v[..3].iter_mut().zip(&r.m[..3]) {
                *v = v.saturating_sub(scale(m, d));
            }
        }
        for (v, &m) in v[3..].iter_mut().zip(&r.m[3..6]) {
            *v = v.saturating_add(scale(m, d));
        }
    }
    if r.flags & HAS_B != 0 {
        let v = &mut vel[r.b as usize % MAX_BODIES];
        let from = if lin { 0 } else { 3 };
        for (v, &m) in v[from..].iter_mut().zip(&r.m[6 + from..]) {
            *v = v.saturating_add(scale(m, d));
        }
    }
}

/// The largest impulse change whose velocity changes `m * d` all stay
/// below 2^31 Q24 (128 m/s or rad/s): `|m| < 2^L`, `|d| < 2^(39 - L)`.
fn d_max(m: &[i32; 12]) -> i32 {
    let big = m.iter().map(|x| x.unsigned_abs()).max().unwrap_or(0);
    let bits = 32 - big.leading_zeros();
    if bits <= 8 {
        i32::MAX
    } else {
        (1 << (39 - bits)) - 1
    }
}

/// One projected Gauss-Seidel update of row `r`; `normal` is the impulse
/// of the normal row for a friction row (Q20).
#[inline(always)]
fn update(r: &mut Prepared, vel: &mut [Vel; MAX_BODIES], normal: i32) {
    if r.normal != NO_NORMAL {
        let limit = ((normal as i64 * r.mu as i64) >> 12).clamp(0, i32::MAX as i64) as i32;
        r.lo = -limit;
        r.hi = limit;
    }
    let lin = r.flags & HAS_LIN != 0;
    let mut jv = 0i64;
    if r.flags & HAS_A != 0 {
        let v = &vel[r.a as usize % MAX_BODIES];
        jv += dot3(&r.j[3..6], &v[3..]);
        if lin {
            jv -= dot3(&r.j[..3], &v[..3]);
        }
    }
    if r.flags & HAS_B != 0 {
        let v = &vel[r.b as usize % MAX_BODIES];
        jv += dot3(&r.j[6..], &v[3..]);
        if lin {
            jv += dot3(&r.j[..3], &v[..3]);
        }
    }
    // Q36 -> Q24, rounded half up (deterministic; the bias is 2^-25 m/s).
    let err = (((r.target as i64) << 12) - jv + (1 << 11)) >> 12;
    let max = MAX_ERROR.raw();
    let err = err.clamp(-max, max);
    // Q24 * Q24 = Q48 -> Q20.
    let d = ((err * r.m_eff as i64 + (1 << 27)) >> 28).clamp(-r.d_max as i64, r.d_max as i64);
    let old = r.lambda;
    let new = (old as i64 + d).clamp(r.lo as i64, r.hi as i64) as i32;
    r.lambda = new;
    if new != old {
        // |new - old| <= d_max: the products fit without saturating.
        apply_with(r, vel, new - old, scaled);
    }
}

#[inline]
fn body(bodies: &[Body], i: u8) -> Option<&Body> {
    if i == STATIC {
        None
    } else {
        // A sleeping body is static to the solver.
        bodies
            .get(i as usize)
            .filter(|b| !b.is_static() && !b.is_asleep())
    }
}

/// What a step remembers of a row for warm starting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Remembered {
    a: u8,
    b: u8,
    key: u16,
    lambda: Fx2,
}

impl Remembered {
    const ZERO: Remembered = Remembered {
        a: 0,
        b: 0,
        key: 0,
        lambda: Fx2::ZERO,
    };
}

/// A fixed-capacity list of rows, filled each step and solved. Keyed
/// rows are warm-started from the last step's impulse of the row with
/// the same bodies and key (Box2D-style): resting stacks and held poses
/// then need few sweeps.
#[derive(Clone, Debug)]
pub struct Rows<const R: usize> {
    rows: [Row; R],
    len: usize,
    prev: [Remembered; R],
    prev_len: usize,
    /// The rows in solver form (filled by `solve`).
    prepared: [Prepared; R],
    /// The velocity scratch of `solve`.
    vel: [Vel; MAX_BODIES],
    /// Rows that did not fit this step (a sign the capacity is too low).
    pub dropped: u16,
    /// Fraction of the last impulse a warm start reuses (1: measured in
    /// `tests/rigid_stack.rs`, 0.9 left a 2-box stack rocking and walking
    /// at 0.5 mm/s).
    pub warm_fraction: Fx1,
    /// The same for rows keyed with [`JOINT_KEY`]. Joints closing a loop
    /// (two legs on the ground) are redundant: part of their impulses
    /// is internal force that no velocity shows, and with a full warm
    /// start it can grow from step to step until motors saturate and
    /// the body moves. Below 1 it decays (`tests/rigid_powered.rs`).
    pub joint_warm_fraction: Fx1,
}

impl<const R: usize> Default for Rows<R> {
    fn default() -> Self {
        Rows::EMPTY
    }
}

impl<const R: usize> Rows<R> {
    /// No rows and nothing remembered (a `const`, for statics).
    pub const EMPTY: Rows<R> = {
        assert!(R < NO_NORMAL as usize, "row indices are u16");
        Rows {
            rows: [Row::ZERO; R],
            len: 0,
            prev: [Remembered::ZERO; R],
            prev_len: 0,
            prepared: [Prepared::ZERO; R],
            vel: [[0; 6]; MAX_BODIES],
            dropped: 0,
            warm_fraction: crate::fx!(1.0),
            joint_warm_fraction: crate::fx!(1.0),
        }
    };

    /// Remembers this step's keyed impulses, then empties the list.
    pub fn clear(&mut self) {
        let mut n = 0;
        for r in self.rows[..self.len].iter().filter(|r| r.key != 0) {
            self.prev[n] = Remembered {
                a: r.a,
                b: r.b,
                key: r.key,
                lambda: r.lambda,
            };
            n += 1;
        }
        self.prev_len = n;
        self.len = 0;
        self.dropped = 0;
    }

    /// Forgets all impulses (no warm start on the next step).
    pub fn forget(&mut self) {
        self.prev_len = 0;
        self.len = 0;
        self.dropped = 0;
    }

    /// Adds a row; returns its index, or `None` (and counts it) when full.
    pub fn push(&mut self, mut row: Row) -> Option<u16> {
        if self.len >= R {
            self.dropped = self.dropped.saturating_add(1);
            return None;
        }
        row.lambda = if row.key == 0 {
            Fx2::ZERO
        } else {
            self.remembered(&row)
        };
        self.rows[self.len] = row;
        self.len += 1;
        Some((self.len - 1) as u16)
    }

    /// The last impulse of the row like `row`, scaled, or zero. The search
    /// starts near the same position (rows come in a stable order).
    fn remembered(&self, row: &Row) -> Fx2 {
        let n = self.prev_len;
        if n == 0 {
            return Fx2::ZERO;
        }
        let start = self.len.min(n - 1);
        let prev = &self.prev[..n];
        let found = prev[start..]
            .iter()
            .chain(&prev[..start])
            .find(|p| p.key == row.key && p.a == row.a && p.b == row.b);
        let fraction = if row.key & JOINT_KEY != 0 {
            self.joint_warm_fraction
        } else {
            self.warm_fraction
        };
        match found {
            Some(p) => (p.lambda * fraction).lower(),
            None => Fx2::ZERO,
        }
    }

    /// The rows of this step.
    pub fn as_slice(&self) -> &[Row] {
        &self.rows[..self.len]
    }

    /// Mutable access (e.g. to warm-start impulses).
    pub fn as_mut_slice(&mut self) -> &mut [Row] {
        &mut self.rows[..self.len]
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Prepares every row, applies warm-start impulses, then runs
    /// `iterations` Gauss-Seidel sweeps in order. Bodies from index
    /// [`MAX_BODIES`] on are not solved (a world holds at most that many).
    #[inline(never)]
    pub fn solve(&mut self, bodies: &mut [Body], iterations: u8) {
        let n = bodies.len().min(MAX_BODIES);
        for (v, b) in self.vel.iter_mut().zip(&bodies[..n]) {
            let [x, y, z] = b.vel.to_array().map(|c| saturate_i32(c.raw()));
            let [p, q, r] = b.spin.to_array().map(|c| saturate_i32(c.raw()));
            *v = [x, y, z, p, q, r];
        }
        let len = self.len;
        let bodies_ro: &[Body] = &bodies[..n];
        for (p, r) in self.prepared[..len].iter_mut().zip(&self.rows[..len]) {
            *p = r.prepare(bodies_ro);
            let l = p.lambda.clamp(p.lo, p.hi);
            p.lambda = l;
            if l != 0 {
                apply_with(p, &mut self.vel, l, scaled_saturating);
            }
        }
        sweep(&mut self.prepared[..len], &mut self.vel, iterations);
        for (r, p) in self.rows[..len].iter_mut().zip(&self.prepared[..len]) {
            // A row held at a bound reports the bound itself (friction
            // bounds are set in the sweep, so they stay in Q20).
            r.lambda = match p.lambda {
                l if l == p.hi && r.friction_of == NO_NORMAL => r.hi,
                l if l == p.lo && r.friction_of == NO_NORMAL => r.lo,
                l => Fx2::from_raw((l as i64) << (24 - LAMBDA_FRAC)),
            };
        }
        for (b, v) in bodies[..n].iter_mut().zip(&self.vel) {
            if !b.is_static() {
                b.vel = Vec3::new(v[0], v[1], v[2]).map(|c| Fx2::from_raw(c as i64));
                b.spin = Vec3::new(v[3], v[4], v[5]).map(|c| Fx2::from_raw(c as i64));
            }
        }
    }
}

/// The Gauss-Seidel sweeps: the solver's inner loop.
#[inline(never)]
fn sweep(rows: &mut [Prepared], vel: &mut [Vel; MAX_BODIES], iterations: u8) {
    for _ in 0..iterations {
        for i in 0..rows.len() {
            let normal = match rows[i].normal {
                NO_NORMAL => 0,
                n => rows.get(n as usize).map_or(0, |r| r.lambda),
            };
            update(&mut rows[i], vel, normal);
        }
    }
}

/// Exposed for tests: the velocity change of `bodies[i]` from a unit
/// impulse along `J` is `M^-1 J^T`; this returns `J M^-1 J^T` in FX3.
pub fn inverse_effective_mass(row: &Row, bodies: &[Body]) -> Fx3 {
    let mut k = Fx3::ZERO;
    let lin2 = row.lin.dot(row.lin);
    for (i, ang) in [(row.a, row.ang_a), (row.b, row.ang_b)] {
        if let Some(b) = body(bodies, i) {
            k +=
                lin2 * b.inv_mass + ang.dot(mul_mat_fx2(&b.inv_inertia_world, ang.raise()).lower());
        }
    }
    k
}
