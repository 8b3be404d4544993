//! One Verlet step of a ragdoll's free particles under gravity along
//! `-y`, handing the constraint passes their Q20 positions
//! (`relax::approximate`'s array): the engine's
//! `Particles::integrate_q20` with the usual gravity.
//!
//! Per free particle `i` and axis `c`, on raw integers (the engine's
//! `verlet::particles` module docs give the why):
//! - `v = cur - prev` (FX1), `total = v damping + a dt^2 + rem` (FX2, in
//!   64 bits), `move = (total + 2048) >> 12` (FX1, round half up), the
//!   new `rem = total - (move << 12)`, in `[-2048, 2048)`;
//! - `prev = cur`, and the new position `cur + move`, saturated to
//!   [`POSITION_LIMIT`] and put with its remainder into Q20:
//!   `q = (x << 8) + (rem >> 4)`. `cur` itself is not written: the
//!   passes write it back from `q`.
//!
//! A move beyond [`Step::within`], or a new
//! position beyond the limit, stops the pass at that particle
//! ([`Stop::Finish`]): the caller applies the speed cap and the
//! saturation (a square root and a division, for a particle at the
//! speed cap). A pinned particle stops it too ([`Stop::Still`]).

use core::mem::MaybeUninit;
use core::ops::Range;

use fxcore::{Fx1, Vec3};

/// Each axis of a position handed to the passes is saturated to `±`
/// this (raw FX1, just under 256 m; the engine's
/// `constraints::POSITION_LIMIT`). A new position whose [`spread`] is at
/// least this stops the pass: every other one is strictly inside.
pub const POSITION_LIMIT: i32 = (1 << 20) - 1;

/// The particles' motion as the integration reads it: three arrays of
/// three words a particle, one after the other (`repr(C)`), so that
/// the ARM loop reaches each from one pointer.
#[repr(C)]
#[derive(Clone, Debug)]
pub struct Motion<const N: usize> {
    /// Current positions.
    pub cur: [Vec3; N],
    /// Previous positions.
    pub prev: [Vec3; N],
    /// Rounding remainders: FX2 raw, in `[-2048, 2048)`.
    pub rem: [[i32; 3]; N],
}

impl<const N: usize> Motion<N> {
    /// Every particle at the origin, at rest.
    pub const ZERO: Self = Motion {
        cur: [Vec3::ZERO; N],
        prev: [Vec3::ZERO; N],
        rem: [[0; 3]; N],
    };
}

/// The step's constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Velocity kept per step, raw FX1 (`0..=4096`).
    pub damping: i32,
    /// `g dt^2` downwards, raw FX2; `|g_dt2| < 2^30` (the engine's
    /// default is 45718, and it takes its own loop beyond).
    pub g_dt2: i32,
    /// Moves whose [`spread`] is at most this are within the speed cap
    /// with no product: `cap / 2 - 1`, for then every component is at
    /// most `cap / 2`, and `|d|^2 <= 3 (cap / 2)^2 < cap^2`. (`-1` stops
    /// at every particle.)
    pub within: i32,
}

/// Where a pass stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Every particle of the range stepped.
    Done,
    /// Particle `i` is pinned: nothing of it was written.
    Still(usize),
    /// Particle `i` stepped, but its move `disp` (raw FX1) may be over
    /// the speed cap, or its new position at or beyond [`POSITION_LIMIT`]:
    /// `prev[i]` and `rem[i]` are written, and the caller finishes
    /// `q[i]` from `prev[i] + disp`.
    Finish(usize, [i32; 3]),
}

/// `c ^ (c >> 31)` of each component (`|c|`, or `|c| - 1` below 0),
/// ORed: at least the largest of them, and below `2^k` exactly when
/// every component is in `[-2^k, 2^k)`. Two instructions a component in
/// the ARM loop, where a magnitude and a maximum take four.
#[inline(always)]
pub fn spread(v: [i32; 3]) -> i32 {
    v.into_iter().fold(0, |acc, c| acc | (c ^ (c >> 31)))
}

/// A slot [`integrate_all`] leaves to its caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Left {
    /// Particle `i` is pinned, or beyond the count: nothing of it was
    /// written.
    Still(usize),
    /// As [`Stop::Finish`].
    Finish(usize, [i32; 3]),
}

/// The Q20 array of a whole step, written into `out` (no zeroing first,
/// no copy): each free particle below `len` stepped (see the module
/// docs), and `left(m, slot)`'s slot for every other ([`Left`]), in slot
/// order. Returns `out`, initialised.
///
/// On the DS, for 16 particles, the ARM loop writes the array in place.
#[inline(always)]
pub fn integrate_all<'q, const N: usize>(
    m: &mut Motion<N>,
    inv_mass: &[Fx1; N],
    len: usize,
    step: &Step,
    left: impl FnMut(&mut Motion<N>, Left) -> [i32; 4],
    out: &'q mut MaybeUninit<[[i32; 4]; N]>,
) -> &'q mut [[i32; 4]; N] {
    #[cfg(all(target_arch = "arm", target_os = "none"))]
    if crate::arm::integrate::fits::<N>(step) {
        let mut left = left;
        return crate::arm::integrate::integrate_all16(m, inv_mass, len, step, &mut left, out);
    }
    out.write(integrate_all_portable(m, inv_mass, len, step, left))
}

/// [`integrate_all`] in Rust, returning the array.
#[cfg_attr(all(target_arch = "arm", target_os = "none"), inline(never))]
pub fn integrate_all_portable<const N: usize>(
    m: &mut Motion<N>,
    inv_mass: &[Fx1; N],
    len: usize,
    step: &Step,
    mut left: impl FnMut(&mut Motion<N>, Left) -> [i32; 4],
) -> [[i32; 4]; N] {
    core::array::from_fn(|i| {
        if i >= len || inv_mass[i] == Fx1::ZERO {
            return left(m, Left::Still(i));
        }
        match step_one(m, i, step) {
            Ok(q) => q,
            Err(disp) => left(m, Left::Finish(i, disp)),
        }
    })
}

/// Steps the free particles of `range` in order (see the module docs)
/// until the first that stops the pass, writing their slots of `q`:
/// returns where it stopped.
///
/// On the DS, for 16 particles, this is the ARM loop (`arm/integrate.rs`),
/// which gives the same bits as [`integrate_portable`].
#[inline]
pub fn integrate<const N: usize>(
    m: &mut Motion<N>,
    inv_mass: &[Fx1; N],
    range: Range<usize>,
    step: &Step,
    q: &mut [[i32; 4]; N],
) -> Stop {
    #[cfg(all(target_arch = "arm", target_os = "none"))]
    if let Some(stop) =
        crate::arm::integrate::integrate16(m, inv_mass, range.clone(), step, q.as_mut_ptr())
    {
        return stop;
    }
    integrate_portable(m, inv_mass, range, step, q)
}

/// [`integrate`] in Rust on every target: the reference the ARM loop is
/// compared with.
pub fn integrate_portable<const N: usize>(
    m: &mut Motion<N>,
    inv_mass: &[Fx1; N],
    range: Range<usize>,
    step: &Step,
    q: &mut [[i32; 4]; N],
) -> Stop {
    for i in range {
        if inv_mass[i] == Fx1::ZERO {
            return Stop::Still(i);
        }
        match step_one(m, i, step) {
            Ok(qi) => q[i] = qi,
            Err(disp) => return Stop::Finish(i, disp),
        }
    }
    Stop::Done
}

/// One axis of a Verlet step (see the module docs): `total = v damping +
/// acc + rem` (FX2, in 64 bits); returns the move `(total + 2048) >> 12`
/// (FX1) and leaves the new remainder in `rem`. The engine's own loop
/// (other gravities) steps with it too.
#[inline(always)]
pub fn step_axis(v: i32, damping: i32, acc: i64, rem: &mut i32) -> i32 {
    let total = v as i64 * damping as i64 + acc + *rem as i64;
    let moved = (total + (1 << 11)) >> 12;
    *rem = (total - (moved << 12)) as i32;
    moved as i32
}

/// Free particle `i`'s step: its Q20 slot, or (written but for that
/// slot) its move when it stops the pass.
#[inline(always)]
fn step_one<const N: usize>(
    m: &mut Motion<N>,
    i: usize,
    step: &Step,
) -> Result<[i32; 4], [i32; 3]> {
    let acc = [0, -(step.g_dt2 as i64), 0];
    let x = m.cur[i].raw();
    let v = (m.cur[i] - m.prev[i]).raw();
    m.prev[i] = m.cur[i];
    let rem = &mut m.rem[i];
    let mut disp = [0; 3];
    let mut new = [0; 3];
    for c in 0..3 {
        disp[c] = step_axis(v[c], step.damping, acc[c], &mut rem[c]);
        new[c] = x[c] + disp[c];
    }
    if spread(disp) > step.within || spread(new) >= POSITION_LIMIT {
        return Err(disp);
    }
    Ok([0, 1, 2, 3].map(|c| {
        if c < 3 {
            (new[c] << 8) + (rem[c] >> 4)
        } else {
            0
        }
    }))
}
