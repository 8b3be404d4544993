//! The FX1 rotation matrix of a Q30 quaternion with the bits of
//! `Quat::to_mat3`, but one `i64` accumulation and a shift per entry
//! instead of two 64-bit roundings.
//!
//! `to_mat3` rounds each entry twice, to nearest with ties away from
//! zero: `u = round(2p / 2^30)` (Q30), then `round(u / 2^18)` (FX1), where
//! `p` is a sum of two Q60 products (or `2^59 -` one on the diagonal).
//! Written with floors, `round(v / 2^n) = floor((v + 2^(n-1) - [v < 0]) /
//! 2^n)`, and `floor(floor(a / m) / n) = floor(a / (m n))`, the two merge:
//!
//! `entry = floor((M - [p < 0] - [p <= -2^28] 2^29) / 2^47)`, with
//! `M = p + 2^28 + 2^46`.
//!
//! The two corrections move the floor only when `M mod 2^47 <= 2^29`
//! (odds of `2^-18`): there the entry takes the two-step path. Otherwise
//! it is `M >> 47`, the high word of `M` shifted by 15: with `M`'s
//! constant folded into the `smlal` accumulator, an entry is two
//! multiplies, a shift and a test.

use crate::fx::Quat;

/// `round(v / 2^n)`, ties away from zero, for the two-step reference.
#[inline(always)]
fn round_shr(v: i64, n: u32) -> i64 {
    (v + (1 << (n - 1)) + (v >> 63)) >> n
}

/// The entry by the two roundings of `Quat::to_mat3` (Q60 sum `p`).
#[cold]
#[inline(never)]
pub fn entry_two_step(p: i64) -> i32 {
    round_shr(round_shr(2 * p, 30), 18) as i32
}

/// The FX1 entry `round(round(2p / 2^30) / 2^18)` of a Q60 sum `p`
/// (`|p| <= 2^61`), in one step but at the rare corrections (module
/// docs): the same bits as [`entry_two_step`].
#[inline(always)]
pub fn entry(p: i64) -> i32 {
    let m = p + ((1 << 46) + (1 << 28));
    let (hi, lo) = ((m >> 32) as i32, m as u32);
    // M mod 2^47 = (hi mod 2^15) 2^32 + lo.
    if hi << 17 == 0 && lo <= 1 << 29 {
        entry_two_step(p)
    } else {
        hi >> 15
    }
}

/// The rotation matrix of `q`, column by column in raw FX1: the same bits
/// as `Quat::to_mat3`.
#[inline(always)]
pub fn rot_words(q: Quat) -> [i32; 9] {
    let [w, x, y, z] = q.raw_q30().map(|c| c as i64);
    // Q60 sums; the diagonal's 2^60 - 2p is 2 (2^59 - p).
    let diag = |a: i64, b: i64| entry((1 << 59) - a * a - b * b);
    [
        diag(y, z),
        entry(x * y + w * z),
        entry(x * z - w * y),
        entry(x * y - w * z),
        diag(x, z),
        entry(y * z + w * x),
        entry(x * z + w * y),
        entry(y * z - w * x),
        diag(x, y),
    ]
}
