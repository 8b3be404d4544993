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
//! # Precision and ranges
//! `J` is FX1 (unit directions, levers in m). Velocities are FX2, so
//! `J v` is an exact FX3 sum. The velocity error is lowered to FX2 and
//! clamped to `+-MAX_ERROR` (127 m/s or rad/s), the effective mass
//! `1 / (J M^-1 J^T)` is FX2 clamped to `MAX_EFFECTIVE_MASS` (255 kg or
//! kg m^2), so their FX4 product stays inside FX4's `+-32768`. The
//! impulse is FX2 (6e-8 N s). `M^-1 J^T` is stored in FX1: a 100 kg
//! body's `1/m` has 0.6 % rounding, which costs a little momentum
//! exactness but no constraint accuracy (the iteration converges to
//! `J v = target` whatever the effective mass, as long as it is positive).

use crate::divsqrt::div_auto;
use crate::fx::power::round_shr;
use crate::fx::{Fx1, Fx2, Fx3, Fx4, Vec3};

use super::body::{mul_mat_fx2, Body, STATIC};

/// No friction row: the row's own bounds apply.
pub const NO_NORMAL: u8 = u8::MAX;

/// Largest velocity error one row corrects per iteration (m/s or rad/s).
pub const MAX_ERROR: Fx2 = Fx2::from_raw(127 << 24);

/// Largest effective mass (kg or kg m^2).
pub const MAX_EFFECTIVE_MASS: Fx2 = Fx2::from_raw(255 << 24);

/// The largest impulse bound (N s): "unbounded".
pub const UNBOUNDED: Fx2 = Fx2::from_raw(1 << 50);

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
    pub friction_of: u8,
    /// Friction coefficient (friction rows only).
    pub mu: Fx1,
    /// The accumulated impulse.
    pub lambda: Fx2,
    /// Warm-start key: a row with the same bodies and key as one of the
    /// last step starts from that row's impulse (0: start from zero).
    pub key: u16,
    /// Prepared: `M_a^-1` times the linear part (FX1).
    m_lin_a: Vec3,
    /// Prepared: `M_b^-1` times the linear part.
    m_lin_b: Vec3,
    /// Prepared: `I_a^-1 ang_a`.
    m_ang_a: Vec3,
    /// Prepared: `I_b^-1 ang_b`.
    m_ang_b: Vec3,
    /// Prepared: `1 / (J M^-1 J^T)`.
    m_eff: Fx2,
    /// Prepared: true when a linear part is present.
    has_lin: bool,
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
        m_lin_a: Vec3::ZERO,
        m_lin_b: Vec3::ZERO,
        m_ang_a: Vec3::ZERO,
        m_ang_b: Vec3::ZERO,
        m_eff: Fx2::ZERO,
        has_lin: false,
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

    /// Computes `M^-1 J^T` and the effective mass.
    fn prepare(&mut self, bodies: &[Body]) {
        let mut k = Fx3::ZERO;
        let lin = self.lin;
        let lin2 = lin.dot(lin);
        let mut side = |i: u8, ang: Vec3| -> (Vec3, Vec3) {
            match body(bodies, i) {
                Some(b) => {
                    let m_ang = b.inv_inertia_world.mul_vec_exact(ang);
                    k += lin2 * b.inv_mass + ang.dot(m_ang);
                    ((lin * b.inv_mass).lower(), m_ang.lower())
                }
                None => (Vec3::ZERO, Vec3::ZERO),
            }
        };
        (self.m_lin_a, self.m_ang_a) = side(self.a, self.ang_a);
        (self.m_lin_b, self.m_ang_b) = side(self.b, self.ang_b);
        self.m_eff = if k.raw() <= 0 {
            Fx2::ZERO
        } else {
            // 1/k: raw 2^60 / k_raw (k has 36 fraction bits, the result 24).
            Fx2::from_raw(div_auto(1 << 60, k.raw())).min(MAX_EFFECTIVE_MASS)
        };
        self.has_lin = self.lin != Vec3::ZERO;
    }

    /// One projected Gauss-Seidel update; `normal` is the impulse of the
    /// normal row for a friction row.
    #[inline]
    fn solve(&mut self, bodies: &mut [Body], normal: Fx2) {
        if self.friction_of != NO_NORMAL {
            let limit = (normal * self.mu).lower();
            self.lo = -limit;
            self.hi = limit;
        }
        let jv = if self.has_lin {
            self.velocity(bodies)
        } else {
            self.angular_velocity(bodies)
        };
        let err = (self.target.raise() - jv)
            .lower()
            .clamp(-MAX_ERROR, MAX_ERROR);
        let d: Fx4 = err * self.m_eff;
        let d = Fx2::from_raw(round_shr(d.raw(), 24));
        let old = self.lambda;
        self.lambda = (old + d).clamp(self.lo, self.hi);
        let d = self.lambda - old;
        if d == Fx2::ZERO {
            return;
        }
        if let Some(b) = body_mut(bodies, self.a) {
            if self.has_lin {
                b.vel -= (self.m_lin_a * d).lower();
            }
            b.spin += (self.m_ang_a * d).lower();
        }
        if let Some(b) = body_mut(bodies, self.b) {
            if self.has_lin {
                b.vel += (self.m_lin_b * d).lower();
            }
            b.spin += (self.m_ang_b * d).lower();
        }
    }

    /// `J v` for a row with no linear part.
    #[inline]
    fn angular_velocity(&self, bodies: &[Body]) -> Fx3 {
        let mut jv = Fx3::ZERO;
        if let Some(b) = body(bodies, self.a) {
            jv += self.ang_a.dot(b.spin);
        }
        if let Some(b) = body(bodies, self.b) {
            jv += self.ang_b.dot(b.spin);
        }
        jv
    }
}

#[inline]
fn body(bodies: &[Body], i: u8) -> Option<&Body> {
    if i == STATIC {
        None
    } else {
        bodies.get(i as usize).filter(|b| !b.is_static())
    }
}

#[inline]
fn body_mut(bodies: &mut [Body], i: u8) -> Option<&mut Body> {
    if i == STATIC {
        None
    } else {
        bodies.get_mut(i as usize).filter(|b| !b.is_static())
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
    /// Rows that did not fit this step (a sign the capacity is too low).
    pub dropped: u16,
    /// Fraction of the last impulse a warm start reuses (1: measured in
    /// `tests/rigid_stack.rs`, 0.9 left a 2-box stack rocking and walking
    /// at 0.5 mm/s).
    pub warm_fraction: Fx1,
}

impl<const R: usize> Default for Rows<R> {
    fn default() -> Self {
        Rows::EMPTY
    }
}

impl<const R: usize> Rows<R> {
    /// No rows and nothing remembered (a `const`, for statics).
    pub const EMPTY: Rows<R> = Rows {
        rows: [Row::ZERO; R],
        len: 0,
        prev: [Remembered::ZERO; R],
        prev_len: 0,
        dropped: 0,
        warm_fraction: crate::fx!(1.0),
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
    pub fn push(&mut self, mut row: Row) -> Option<u8> {
        if self.len >= R || self.len >= NO_NORMAL as usize {
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
        Some((self.len - 1) as u8)
    }

    /// The last impulse of the row like `row`, scaled, or zero. The search
    /// starts near the same position (rows come in a stable order).
    fn remembered(&self, row: &Row) -> Fx2 {
        let n = self.prev_len;
        if n == 0 {
            return Fx2::ZERO;
        }
        let start = self.len.min(n - 1);
        for k in 0..n {
            let p = &self.prev[(start + k) % n];
            if p.key == row.key && p.a == row.a && p.b == row.b {
                return (p.lambda * self.warm_fraction).lower();
            }
        }
        Fx2::ZERO
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
    /// `iterations` Gauss-Seidel sweeps in order.
    #[inline(never)]
    pub fn solve(&mut self, bodies: &mut [Body], iterations: u8) {
        let rows = &mut self.rows[..self.len];
        for r in rows.iter_mut() {
            r.prepare(bodies);
            if r.lambda != Fx2::ZERO {
                let l = r.lambda;
                r.lambda = Fx2::ZERO;
                apply(r, bodies, l);
            }
        }
        for _ in 0..iterations {
            for i in 0..rows.len() {
                let normal = match rows[i].friction_of {
                    NO_NORMAL => Fx2::ZERO,
                    n => rows[n as usize].lambda,
                };
                rows[i].solve(bodies, normal);
            }
        }
    }
}

/// Applies impulse `l` of row `r` (used to warm start).
fn apply(r: &mut Row, bodies: &mut [Body], l: Fx2) {
    let l = l.clamp(r.lo, r.hi);
    r.lambda = l;
    if let Some(b) = body_mut(bodies, r.a) {
        b.vel -= (r.m_lin_a * l).lower();
        b.spin += (r.m_ang_a * l).lower();
    }
    if let Some(b) = body_mut(bodies, r.b) {
        b.vel += (r.m_lin_b * l).lower();
        b.spin += (r.m_ang_b * l).lower();
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
