//! Back from the constraint passes' Q20 positions (2^-20 m) to FX1
//! positions and their rounding remainders: the engine's
//! `constraints::from_q20`, after every chunk of passes.
//!
//! Per axis: `x = (q + 128) >> 8` (rounded to FX1), and the remainder
//! (FX2 raw) what that rounding left out, `(q - (x << 8)) << 4`, with the
//! bits below Q20 that the way in left in the old remainder (`rem & 15`):
//! in `[-2048, 2048)` again.

use fxcore::{Fx1, Vec3};

/// Writes every slot of `x` and `rem` back from `q` (see the module
/// docs). `|q| < 2^31 - 128` on every axis.
///
/// On the DS, for 16 particles, this is the ARM loop (`arm/q20.rs`),
/// which gives the same bits as [`from_q20_portable`].
#[inline]
pub fn from_q20<const N: usize>(q: &[[i32; 4]; N], x: &mut [Vec3; N], rem: &mut [[i32; 3]; N]) {
    #[cfg(all(target_arch = "arm", target_os = "none"))]
    if crate::arm::q20::from_q20_16(q, x, rem) {
        return;
    }
    from_q20_portable(q, x, rem)
}

/// [`from_q20`] in Rust on every target: the reference the ARM loop is
/// compared with.
#[inline(always)]
pub fn from_q20_portable<const N: usize>(
    q: &[[i32; 4]; N],
    x: &mut [Vec3; N],
    rem: &mut [[i32; 3]; N],
) {
    for ((qi, xi), ri) in q.iter().zip(x.iter_mut()).zip(rem.iter_mut()) {
        let mut p = [0; 3];
        for c in 0..3 {
            p[c] = (qi[c] + 128) >> 8;
            ri[c] = ((qi[c] - (p[c] << 8)) << 4) + (ri[c] & 15);
        }
        *xi = Vec3::from_raw(p[0], p[1], p[2]);
    }
}

/// `sum m_i q_i` per axis over every slot (FX1 raw mass times Q20: Q32
/// kg m), exact: with each mass below 2^24 raw and each `|q|` below
/// 2^29.4, every term is below 2^53.4, and `N <= 512` of them fit.
///
/// On the DS, for 16 particles, this is the ARM loop (`arm/q20.rs`),
/// which gives the same sums as [`moment_portable`].
#[inline]
pub fn moment<const N: usize>(q: &[[i32; 4]; N], masses: &[Fx1; N]) -> [i64; 3] {
    #[cfg(all(target_arch = "arm", target_os = "none"))]
    if let Some(sum) = crate::arm::q20::moment16(q, masses) {
        return sum;
    }
    moment_portable(q, masses)
}

/// [`moment`] in Rust on every target: the reference the ARM loop is
/// compared with.
#[inline(always)]
pub fn moment_portable<const N: usize>(q: &[[i32; 4]; N], masses: &[Fx1; N]) -> [i64; 3] {
    let mut s = [0i64; 3];
    for (qi, mi) in q.iter().zip(masses) {
        for c in 0..3 {
            s[c] += qi[c] as i64 * mi.raw() as i64;
        }
    }
    s
}
