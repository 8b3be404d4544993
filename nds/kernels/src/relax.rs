//! The distance constraints' relaxation pass, square-root free: each link
//! of a Gauss-Seidel pass, in order, on Q20 positions (2^-20 m).
//!
//! The engine (`dsphys::verlet::constraints`) compiles its constraints
//! into [`Link`]s, keeps the exact projection (a square root and a
//! division, about 1 % of the corrections) and the ranges that make this
//! arithmetic fit; this pass takes every link that the approximation
//! serves, and stops at the first one it does not ([`approximate`]).
//!
//! # The projection
//! For `d = q_b - q_a` and a violated bound `t`, the link moves `a` by
//! `d f_a` and `b` by `-d f_b`, where `f = (|d|^2 - t^2) / (2 t^2)`, split
//! in the ratio `w_a : w_b` (Jakobsen's first-order form of `(|d| - t) /
//! |d|`). In integers:
//! - `|d|^2` in Q40 (64 bits), compared in Q24 (`>> 16`) with the bounds;
//!   at and above 2^47 (128 m^2) it is beyond every window: slow.
//! - `e = |d|^2 - t^2` (Q24), `f = e k` for `k = 1/(2 t^2)` (Q20): the
//!   high word of `(e << 4) k + 2^31`, Q16, `|f| < 2^15`.
//! - `f_a = (f ratio_a + 2^11) >> 12`, `f_b = f - f_a`.
//! - Each move `(d f + 2^15) >> 16` as one `SMLAWB` of `2d` by `f` onto 1,
//!   halved ([`rounded_move`]).
//!
//! # Ranges the caller keeps
//! Positions within 2^29.4 (so each `d` fits an `i32` and `|d|^2` an
//! `i64`); `|e|` below 2^26 inside the window (bounds of at most 2 m that
//! take the approximation, windows of at most 0.9 `t^2`); `k` below 2^31.

use divsqrt::smlawb;

/// A compiled distance constraint as the pass reads it: seven words in
/// one 32-byte cache line. The order is the ARM pass's: the first three
/// words decide whether the link holds (and carry the particles and the
/// mass ratio), and each violated bound's two words are one
/// load-multiple.
#[repr(C, align(32))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// The particles `a` (bits 0-7) and `b` (bits 8-15), each taken
    /// modulo the particle count (see [`approximate`]), and `ratio_a`
    /// (bits 16-31), `w_a / (w_a + w_b)` in Q12 (`0..=4096`): the share
    /// of the correction `a` takes. See [`Link::pack`].
    pub packed: u32,
    /// `min^2`, Q24 (0: no minimum; `i32::MIN` for a link whose ends are
    /// both pinned, which nothing violates).
    pub min2: i32,
    /// `max^2`, Q24, saturated (`i32::MAX`: no maximum).
    pub max2: i32,
    /// `|d|^2` (Q24) at and above which a too-short link takes the
    /// approximation (`i32::MAX`: never).
    pub min2_lo: i32,
    /// `1 / (2 min^2)`, Q20.
    pub inv_2min2: i32,
    /// `|d|^2` (Q24) at and below which a too-long link takes the
    /// approximation (`i32::MIN`: never).
    pub max2_hi: i32,
    /// `1 / (2 max^2)`, Q20.
    pub inv_2max2: i32,
}

impl Link {
    /// The word [`Link::packed`] for particles `a` and `b` and `a`'s
    /// share `ratio_a` (Q12, `0..=4096`).
    #[inline]
    pub const fn pack(a: u8, b: u8, ratio_a: u16) -> u32 {
        a as u32 | (b as u32) << 8 | (ratio_a as u32) << 16
    }

    /// The particle indices, `(a, b)`.
    #[inline]
    pub fn ends(&self) -> (u8, u8) {
        (self.packed as u8, (self.packed >> 8) as u8)
    }

    /// `a`'s share of a correction, Q12.
    #[inline]
    pub fn ratio_a(&self) -> i32 {
        (self.packed >> 16) as i32
    }
}

/// What one link's projection did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Projection {
    /// Within its bounds: nothing moved.
    Satisfied,
    /// Corrected by the approximation.
    Approximated,
    /// Outside the approximation's window (or `|d|^2` at or above 128
    /// m^2): nothing moved; the caller projects it.
    Slow,
}

/// Projects `links` in order on `q` by the approximation, until the first
/// one that is [`Projection::Slow`]: returns its index (`links.len()`
/// when there is none). Particle indices are taken modulo `N`.
///
/// On the DS, for 16 particles, this is the ARM pass (`arm.rs`), which
/// gives the same bits as the loop of [`project`] it replaces there.
#[inline]
pub fn approximate<const N: usize>(links: &[Link], q: &mut [[i32; 4]; N]) -> usize {
    #[cfg(all(target_arch = "arm", target_os = "none"))]
    if let Some(q16) = crate::arm::relax::as_sixteen(q) {
        return crate::arm::relax::approximate16(links, q16);
    }
    approximate_portable(links, q)
}

/// [`approximate`] in Rust on every target: the reference the ARM pass
/// is compared with.
#[inline]
pub fn approximate_portable<const N: usize>(links: &[Link], q: &mut [[i32; 4]; N]) -> usize {
    links
        .iter()
        .position(|l| project(l, q) == Projection::Slow)
        .unwrap_or(links.len())
}

/// One link's projection by the approximation (see the module docs).
#[inline(always)]
pub fn project<const N: usize>(l: &Link, q: &mut [[i32; 4]; N]) -> Projection {
    let (a, b) = l.ends();
    let (ia, ib) = (slot::<N>(a), slot::<N>(b));
    let (pa, pb) = (q[ia], q[ib]);
    // Q20; positions within 2^29.4, so below 2^30.4.
    let d = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]];
    // Q40, below 3 * 2^60.8 < 2^63.
    let d2 = d[0] as i64 * d[0] as i64 + d[1] as i64 * d[1] as i64 + d[2] as i64 * d[2] as i64;
    // At and above 2^31 Q24 it is beyond every window.
    if d2 >> 47 != 0 {
        return Projection::Slow;
    }
    let d24 = (d2 >> 16) as i32;
    let (e24, k) = if d24 > l.max2 {
        if d24 > l.max2_hi {
            return Projection::Slow;
        }
        (d24 - l.max2, l.inv_2max2)
    } else if d24 < l.min2 {
        if d24 < l.min2_lo {
            return Projection::Slow;
        }
        (d24 - l.min2, l.inv_2min2)
    } else {
        return Projection::Satisfied;
    };
    // Inside the window |e| < 2^26 (Q24), so Q28 below 2^30; frac = e k
    // rounded to Q16, below 2^15.
    let frac = ((((e24 << 4) as i64 * k as i64) + (1 << 31)) >> 32) as i32;
    // a's share: frac * ratio (Q28, below 2^27), rounded to Q16.
    let fa = (frac * l.ratio_a() + (1 << 11)) >> 12;
    let fb = frac - fa;
    // Inside the window |d| < 2^21.5: each move below 1.3 m. `a` first
    // and `b` read again after (it may be `a`).
    for c in 0..3 {
        q[ia][c] += rounded_move(d[c], fa);
    }
    for c in 0..3 {
        q[ib][c] -= rounded_move(d[c], fb);
    }
    Projection::Approximated
}

/// `(d f + 2^15) >> 16`, a constraint's move of a particle (`|f| <
/// 2^15`, `|d| < 2^30`), in two instructions: one `SMLAWB` of `2d` by `f`
/// onto 1 gives `r = 1 + floor(d f / 2^15)`, and `r >> 1 = floor((floor(d
/// f / 2^15) + 1) / 2) = floor((d f + 2^15) / 2^16)` (a floor of a floor
/// by an integer is the floor of the whole).
#[inline(always)]
pub fn rounded_move(d: i32, f: i32) -> i32 {
    smlawb(1, d << 1, f) >> 1
}

/// Particle index `i` of an `N`-particle array, reduced modulo `N` (a
/// mask for the usual power of two), so that the pass indexes with no
/// bounds checks. The engine only compiles indices below its particle
/// count, so the reduction never changes one (debug builds check).
#[inline(always)]
pub const fn slot<const N: usize>(i: u8) -> usize {
    debug_assert!((i as usize) < N, "constraint index beyond the particles");
    if N.is_power_of_two() {
        i as usize & (N - 1)
    } else {
        i as usize % N
    }
}

#[cfg(test)]
mod tests {
    use super::rounded_move;

    /// The multiply-accumulate moves equal the rounded moves they replace,
    /// at ties, at the edges of the ranges the pass uses and at random.
    #[test]
    fn moves_equal_the_rounded_products() {
        let rounded = |d: i32, f: i32| ((d as i64 * f as i64 + (1 << 15)) >> 16) as i32;
        let check = |d: i32, f: i32| assert_eq!(rounded_move(d, f), rounded(d, f), "d {d} f {f}");
        let ds = [
            0,
            1,
            -1,
            2,
            -2,
            3,
            1 << 15,
            -(1 << 15),
            3 << 20,
            -(3 << 20),
            (1 << 22) - 1,
        ];
        let fs = [
            0,
            1,
            -1,
            2,
            -2,
            0x4000,
            -0x4000,
            (1 << 15) - 1,
            -((1 << 15) - 1),
        ];
        for &d in &ds {
            for &f in &fs {
                check(d, f);
            }
        }
        let mut x = 0x5eed_1234u32;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let d = (x as i32) >> 9; // below 2^22.5 in size
            let f = (x.rotate_left(11) as i32) >> 17; // below 2^15
            check(d, f);
        }
    }
}
