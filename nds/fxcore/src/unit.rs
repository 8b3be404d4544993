//! Scaling an integer vector to unit length: one square root and one
//! division for all components (shared by `Vec3` and `Quat`).

use divsqrt::{div_i64_i32, sqrt_u64};

use crate::power::round_shr;

/// `c * 2^out_frac / |c|` per component, rounded to nearest (ties away
/// from zero), or `None` for the zero vector. Works for any component
/// size and any `N <= 4`, `out_frac <= 30`.
///
/// Error: the length and its reciprocal carry about `2^-29` relative
/// error, so each component is within `0.5 + 2^(out_frac - 29)` steps of
/// the exact quotient (0.5 + 1e-5 steps for FX1, about 2.5 steps of Q30).
#[inline]
pub fn normalise_raw<const N: usize>(c: [i64; N], out_frac: u32) -> Option<[i32; N]> {
    let mut bits = 0u64;
    for v in c {
        bits |= v.unsigned_abs();
    }
    if bits == 0 {
        return None;
    }
    // Bring every component to at most 2^29 so that the squared length
    // is below 2^61 and `c * inv` below 2^61: a direction needs no more.
    let pre = (64 - bits.leading_zeros()).saturating_sub(29);
    let c = c.map(|v| v >> pre);
    let mut len2 = 0u64;
    for v in c {
        let a = v.unsigned_abs();
        len2 += a * a;
    }
    if len2 == 0 {
        // Only reachable when the prescale floored tiny negatives to -1.
        return None;
    }
    // Shift by an even amount into [2^60, 2^62): the root is in
    // [2^30, 2^31), a full-precision divisor for the 64/32 divider mode.
    let e = (len2.leading_zeros() - 2) & !1;
    let root = sqrt_u64(len2 << e) as i32;
    let inv = div_i64_i32(1i64 << 61, root);
    // c / |c| * 2^out = c * inv * 2^(out + e/2 - 61)
    let shift = 61 - out_frac - e / 2;
    Some(c.map(|v| round_shr(v * inv, shift) as i32))
}
