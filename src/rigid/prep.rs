//! Preparing a row fast when each of its bodies has one moment of inertia
//! (a cube: every box scene's row, issue 20).
//!
//! [`Prepared::set`] reads both bodies and decides, per row and side,
//! between a 32-bit and a 64-bit path. A step prepares each body's sides
//! hundreds of times, so [`sides`] settles once per body what does not
//! depend on the row: solved or not, and whether its inverse inertia is
//! `d I` with `d` and the inverse mass small enough for 32-bit products.
//! [`Prepared::set_fast`] then takes such rows with a handful of checks
//! and no body reads, and gives exactly what `set` gives (the products
//! are the same exact integers: `tests/rigid_prep.rs` compares them).

use crate::fx::Fx1;

use super::body::Body;
use super::kernel::{Prepared, LAMBDA_MAX, MAX_BODIES, SLOTS};
use super::row::Row;

/// What the fast path needs of a body: its inverse mass and its one
/// inverse moment (Q12 raw), or a mark in `im`; and for every body the
/// solver moves, the OR of the magnitudes of its world inverse inertia's
/// entries, the bound [`Prepared::set`] checks its 32-bit products with
/// (once a step here, where it was folded from nine entries per row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Side {
    im: i32,
    d: i32,
    pub(super) big: u32,
}

/// `im` of a body the solver does not move (static, asleep, or no body).
const ABSENT: i32 = -1;
/// `im` of a body that [`Prepared::set`] must prepare.
const GENERIC: i32 = -2;

impl Side {
    /// A body the solver does not move.
    pub const ABSENT: Side = Side {
        im: ABSENT,
        d: 0,
        big: 0,
    };

    /// True for a body the solver does not move.
    #[inline(always)]
    pub fn is_absent(&self) -> bool {
        self.im == ABSENT
    }

    /// The inverse mass and the one inverse moment (Q12 raw) of a fast
    /// side (`None`: absent or generic).
    #[inline(always)]
    pub fn isotropic(&self) -> Option<(i32, i32)> {
        (self.im >= 0).then_some((self.im, self.d))
    }

    /// `b`'s side: absent when the solver does not move it, generic unless
    /// its inverse inertia is exactly `d I` and its inverse mass is below
    /// 128 / kg (so that `lin * im` fits 32 bits, as in `set`).
    pub fn of(b: &Body) -> Side {
        if b.is_static() || b.is_asleep() {
            return Side::ABSENT;
        }
        let big = inertia_bound(b);
        let generic = Side {
            im: GENERIC,
            d: 0,
            big,
        };
        if !b.isotropic {
            return generic;
        }
        let im = b.inv_mass.raw();
        let cols = b.inv_inertia_world.cols.map(|c| c.raw());
        let d = cols[0][0];
        // The OR of the magnitudes is `set`'s bound on the entries: with
        // a diagonal of equal moments it is `|d|`.
        let diagonal = cols[1][1] == d && cols[2][2] == d && big == d.unsigned_abs();
        if diagonal && (0..1 << 19).contains(&im) {
            Side { im, d, big }
        } else {
            generic
        }
    }
}

/// The OR of the magnitudes of `b`'s world inverse inertia's entries (Q12
/// raw): at most twice the largest, the bound of `Prepared::set`'s
/// 32-bit path.
#[inline(always)]
pub fn inertia_bound(b: &Body) -> u32 {
    b.inv_inertia_world
        .cols
        .iter()
        .flat_map(|c| c.raw())
        .fold(0u32, |m, c| m | c.unsigned_abs())
}

/// Body `i`'s side in `sides` (absent beyond the solved bodies, and for
/// the static world's index).
#[inline(always)]
pub fn side_of(sides: &Sides, i: u8) -> Side {
    if (i as usize) < MAX_BODIES {
        sides[i as usize]
    } else {
        Side::ABSENT
    }
}

/// One [`Side`] per velocity slot.
pub type Sides = [Side; SLOTS];

/// A table with no solved body.
pub const NO_SIDES: Sides = [Side::ABSENT; SLOTS];

/// The sides of `bodies` (those from [`MAX_BODIES`] on are not solved).
pub fn sides(bodies: &[Body]) -> Sides {
    let mut t = NO_SIDES;
    fill_sides(&mut t, SLOTS, bodies);
    t
}

/// [`sides`] into `t`, in place, where entries from `filled` on are
/// already absent (the last fill's length: a step rewrites only what
/// the last one wrote). Returns how many entries it wrote, whether any
/// side is fast (with none, the fast path would only cost its checks:
/// the powered ragdoll's boxes all have unequal moments), and whether
/// every side the solver moves is (then the step's rows can take the
/// isotropic form, [`super::iso`]).
pub fn fill_sides(t: &mut Sides, filled: usize, bodies: &[Body]) -> (usize, bool, bool) {
    let n = bodies.len().min(MAX_BODIES);
    for s in t.iter_mut().take(filled).skip(n) {
        *s = Side::ABSENT;
    }
    let (mut any, mut every) = (false, true);
    for (s, b) in t.iter_mut().zip(&bodies[..n]) {
        *s = Side::of(b);
        any |= s.im >= 0;
        every &= s.im != GENERIC;
    }
    (n, any, every)
}

impl Prepared {
    /// [`Prepared::set`] for a row whose solved bodies are all fast
    /// sides of `sides`, with a unit-sized `lin` and levers that keep
    /// `d |ang|` within 32 bits; the same result, bit for bit. Returns
    /// false otherwise (then `set` must run: it overwrites every field).
    // Out of line: inlined beside `set` it doubled the preparation loop's
    // code, and make bench's powered ragdoll (whose rows never take this
    // path) solved 13 % slower in DeSmuME.
    #[inline(never)]
    pub fn set_fast(&mut self, row: &Row, sides: &Sides, lambda: i32, omega: Fx1) -> bool {
        let (sa, sb) = (side_of(sides, row.a), side_of(sides, row.b));
        if sa.im == GENERIC || sb.im == GENERIC {
            return false;
        }
        let l = row.lin.raw();
        if l.iter().any(|c| c.unsigned_abs() > 1 << 12) {
            return false;
        }
        // At most 3 * 2^24: no 64-bit square.
        let lin2 = l[0] * l[0] + l[1] * l[1] + l[2] * l[2];
        let p = self;
        p.clear_sides();
        let mut k = 0i64;
        let mut d_max = LAMBDA_MAX;
        // Two calls, not a loop over an array of the sides: the array
        // was built with four `memcpy`s per row.
        if !p.fast_side(
            0,
            row.a,
            sa,
            -1,
            row.ang_a.raw(),
            l,
            lin2,
            &mut k,
            &mut d_max,
        ) || !p.fast_side(
            1,
            row.b,
            sb,
            1,
            row.ang_b.raw(),
            l,
            lin2,
            &mut k,
            &mut d_max,
        ) {
            return false;
        }
        p.finish(row, k, d_max, lambda, omega);
        true
    }

    /// One side of [`Prepared::set_fast`] (`at` 0 for `a`, 1 for `b`;
    /// `sign` the sign of its `lin`); false when its levers are too long.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn fast_side(
        &mut self,
        at: usize,
        i: u8,
        s: Side,
        sign: i32,
        a: [i32; 3],
        l: [i32; 3],
        lin2: i32,
        k: &mut i64,
        d_max: &mut i32,
    ) -> bool {
        if s.im == ABSENT {
            return true;
        }
        let reach: u64 = a.iter().map(|c| c.unsigned_abs() as u64).sum();
        if s.d.unsigned_abs() as u64 * reach >= 1 << 31 {
            return false;
        }
        let (im, d) = (s.im, s.d);
        let ma = [d * a[0], d * a[1], d * a[2]];
        let m32 = [
            sign * l[0] * im,
            sign * l[1] * im,
            sign * l[2] * im,
            ma[0],
            ma[1],
            ma[2],
        ];
        *k += lin2 as i64 * im as i64
            + a[0] as i64 * ma[0] as i64
            + a[1] as i64 * ma[1] as i64
            + a[2] as i64 * ma[2] as i64;
        let e = self.put_m32(at, m32);
        self.place_side(at, i, e, d_max);
        true
    }
}
