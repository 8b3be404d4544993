//! The broad phase's test for a kept list: does a particle's reach box
//! this step (its previous position, grown by its radius, its step and
//! the contact skins: the engine's `collision::resolve::reach_box`) lie
//! inside the box its list was gathered for? (The engine's
//! `WorldContacts::broad_phase_kept`, which gathers a list again for each
//! particle this hands back.)
//!
//! The engine keeps, for each list, the box shrunk by the particle's
//! radius and skins once (its [`Bounds`] `inner`), so that a step tests
//! only `prev -+ step` against it, per axis, where `step` is the L1 norm
//! of `cur - prev` with each axis cut to a limit.

use fxcore::Fx1;

use crate::integrate::Motion;

/// A box of raw FX1 coordinates, inclusive on both ends (`repr(C)`: the
/// ARM loop reads it as six words).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The low corner.
    pub lo: [i32; 3],
    /// The high corner.
    pub hi: [i32; 3],
}

impl Bounds {
    /// A box nothing lies inside.
    pub const EMPTY: Bounds = Bounds {
        lo: [i32::MAX; 3],
        hi: [i32::MIN; 3],
    };
}

/// The step of a particle moving `v` (raw FX1): `sum min(|v_c|, lim)`.
#[inline(always)]
pub fn step_length(v: [i32; 3], lim: u32) -> u32 {
    v.iter().map(|c| c.unsigned_abs().min(lim)).sum()
}

/// True when particle `i` keeps its list: free, and `prev -+ step`
/// inside `inner[i]` on every axis. `3 lim` must be below 2^31, and
/// positions and boxes such that `prev -+ step` does not overflow (the
/// engine's positions stay within 2^27 raw, its limit is 2^12).
#[inline(always)]
pub fn keeps<const N: usize>(
    m: &Motion<N>,
    inv_mass: &[Fx1; N],
    inner: &[Bounds; N],
    i: usize,
    lim: u32,
) -> bool {
    if inv_mass[i] == Fx1::ZERO {
        return false;
    }
    let (prev, cur) = (m.prev[i].raw(), m.cur[i].raw());
    let v = [0, 1, 2].map(|c| cur[c].wrapping_sub(prev[c]));
    let step = step_length(v, lim) as i32;
    let b = &inner[i];
    (0..3).all(|c| b.lo[c] <= prev[c] - step && prev[c] + step <= b.hi[c])
}

/// The particles below `len` that do not keep their lists ([`keeps`]),
/// as a mask (bit `i` for particle `i`; `N <= 32`): one pass, whatever
/// their number, so that a ragdoll whose every list must be gathered
/// pays no more than one that keeps them all.
///
/// On the DS, for 16 particles and the engine's step limit, this is the
/// ARM loop (`arm/reach.rs`), which gives the same mask as
/// [`to_gather_portable`].
#[inline]
pub fn to_gather<const N: usize>(
    m: &Motion<N>,
    inv_mass: &[Fx1; N],
    inner: &[Bounds; N],
    len: usize,
    lim: u32,
) -> u32 {
    const { assert!(N <= 32, "a mask holds 32 particles") };
    #[cfg(all(target_arch = "arm", target_os = "none"))]
    if let Some(mask) = crate::arm::reach::to_gather16(m, inv_mass, inner, len, lim) {
        return mask;
    }
    to_gather_portable(m, inv_mass, inner, len, lim)
}

/// [`to_gather`] in Rust on every target: the reference the ARM loop is
/// compared with.
pub fn to_gather_portable<const N: usize>(
    m: &Motion<N>,
    inv_mass: &[Fx1; N],
    inner: &[Bounds; N],
    len: usize,
    lim: u32,
) -> u32 {
    (0..len.min(N))
        .filter(|&i| !keeps(m, inv_mass, inner, i, lim))
        .fold(0, |mask, i| mask | 1 << i)
}
