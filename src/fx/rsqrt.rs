//! Unit vectors and roots without the divider or the square-root
//! unit: a reciprocal square root from a 192-entry table and one Newton
//! step, in integer multiplies only.
//!
//! Why: each of a brad's two normalisations cost about 9 us in DeSmuME on
//! the DS units (`anim.brads_normalise_us`: 7 register writes, a busy
//! poll and two reads per division, the same for the root), most of the
//! brad. The table and one step cost a handful of `umull`s.
//!
//! Accuracy (`tests/anim_rsqrt.rs`): the reciprocal is within `2^-15` of
//! the exact one (the table's `2^-8`, squared by the Newton step), always
//! from below, so a unit vector's components are within 0.6 FX1 steps of
//! the exact quotient (0.5 of it the final rounding).

/// The table's index bits: a normalised square `m` in `[2^60, 2^62)`
/// indexes by `m >> INDEX_SHIFT`, in `[64, 256)`.
const INDEX_SHIFT: u32 = 54;

/// `floor(2^61 / sqrt(m))` at the middle of each index's interval of `m`.
static TABLE: [u32; 192] = table();

pub(crate) use kernels::unit32::isqrt;

const fn table() -> [u32; 192] {
    let mut t = [0u32; 192];
    let mut i = 0;
    while i < 192 {
        let mid = ((2 * (i as u64 + 64) + 1) << (INDEX_SHIFT - 1)) as u128;
        // 2^61 / sqrt(mid) = sqrt(2^122 / mid); isqrt over u64 after
        // scaling: 2^122 / mid < 2^62.
        let q = ((1u128 << 122) / mid) as u64;
        t[i] = isqrt(q) as u32;
        i += 1;
    }
    t
}

/// `2^61 / sqrt(m)` for `m` in `[2^60, 2^62)`, in `(2^30, 2^31)`, within
/// `2^-15` relative below the exact value. Every product is 32 x 32 bits.
#[inline(always)]
fn inv_sqrt(m: u64) -> i32 {
    let y0 = TABLE[((m >> INDEX_SHIFT) - 64) as usize];
    // One Newton step, y1 = y0 (3 - m y0^2 / 2^122) / 2, in Q30:
    // m y0^2 / 2^122 = (m >> 30) * (y0^2 >> 31) >> 31, about 2^30.
    let y2 = ((y0 as u64 * y0 as u64) >> 31) as u32;
    let t = ((m >> 30) as u32 as u64 * y2 as u64) >> 31;
    let f = (3u64 << 30).saturating_sub(t) as u32;
    // Below the exact root (Newton for 1/sqrt lands low), so below 2^31
    // but at m = 2^60; the clamp keeps it an i32 there too.
    ((y0 as u64 * f as u64) >> 31).min(i32::MAX as u64) as i32
}

/// `2^61 / sqrt(m)` for `m` in `[2^60, 2^62)` to about `2^-29`: [`inv_sqrt`]
/// and a second Newton step (for Q30 quaternions, whose steps are `2^-30`).
#[inline(always)]
pub(crate) fn inv_sqrt_fine(m: u64) -> i32 {
    let y = inv_sqrt(m) as u64;
    let y2 = ((y * y) >> 31) as u32;
    let t = ((m >> 30) as u32 as u64 * y2 as u64) >> 31;
    let f = (3u64 << 30).saturating_sub(t) as u32;
    ((y * f as u64) >> 31).min(i32::MAX as u64) as i32
}

/// `c * 2^12 / |c|` per component, rounded to nearest (ties away from
/// zero), or `None` for zero. Components must be within `±2^29`.
#[inline]
pub fn unit_fx1(c: [i32; 3]) -> Option<[i32; 3]> {
    debug_assert!(
        c.iter().all(|v| v.unsigned_abs() <= 1 << 29),
        "rsqrt::unit_fx1: beyond 2^29"
    );
    let len2 = c.iter().map(|&v| v as i64 * v as i64).sum::<i64>() as u64;
    if len2 == 0 {
        return None;
    }
    // Shift by an even amount into [2^60, 2^62), as `fx::unit` does; the
    // components scaled by half of it stay below 2^31 (|c| does).
    let e = (len2.leading_zeros() - 2) & !1;
    let inv = inv_sqrt(len2 << e) as i64;
    // c / |c| * 2^12 = (c 2^(e/2)) * inv / 2^49, rounded once.
    let r = |v: i32| {
        let p = (v << (e / 2)) as i64 * inv;
        ((p + (1 << 48) + (p >> 63)) >> 49) as i32
    };
    Some(c.map(r))
}

/// `floor(sqrt(x))`, exactly, without the square-root unit: the table
/// reciprocal root (to about `2^-29`, from below) times `x`, then the
/// floor settled by one square each way. The same bits as
/// `divsqrt::sqrt_u32` on every target; a few multiplies where the unit
/// costs a register round trip and a busy poll.
#[inline]
pub fn sqrt_floor_u32(x: u32) -> u32 {
    if x == 0 {
        return 0;
    }
    let x64 = x as u64;
    // Up by an even shift into [2^60, 2^62): e >= 28.
    let e = (x64.leading_zeros() - 2) & !1;
    let inv = inv_sqrt_fine(x64 << e) as u64;
    // sqrt(x) = x * inv * 2^(e/2) / 2^61 (x * inv < 2^63).
    let mut s = (x64 * inv) >> (61 - e / 2);
    // Within one of the root: settle it.
    if s * s > x64 {
        s -= 1;
    } else if (s + 1) * (s + 1) <= x64 {
        s += 1;
    }
    s as u32
}
