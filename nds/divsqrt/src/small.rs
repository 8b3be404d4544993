//! Division by a small divisor without the divider: a multiply by a
//! 32-bit reciprocal, exact for the ranges below, and the same code on
//! every target. On the DS a call of the divider is seven register
//! writes, a busy poll and a read (about 110 cycles in DeSmuME, `make
//! bench`'s 64-bit division figure); this is two long multiplies.

/// The largest divisor [`div_small_u64`] takes.
pub const SMALL_MAX: u32 = 16;

/// `floor(2^32 / n) + 1` for `n` in `2..=SMALL_MAX` (entry 0 and 1 unused).
const RECIPROCAL: [u32; SMALL_MAX as usize + 1] = {
    let mut r = [0u32; SMALL_MAX as usize + 1];
    let mut n = 2;
    while n <= SMALL_MAX as u64 {
        r[n as usize] = ((1u64 << 32) / n + 1) as u32;
        n += 1;
    }
    r
};

/// `floor(x / n)` for `x < 2^24` and `2 <= n <= SMALL_MAX`, `r` the
/// divisor's [`RECIPROCAL`].
///
/// With `r = 2^32 / n + e`, `0 < e <= 1`: `x r / 2^32 = x / n + x e /
/// 2^32`, less than `2^-8` above `x / n`, whose fraction is at most
/// `1 - 1/n <= 1 - 2^-4`: the floor is exact.
#[inline(always)]
fn div_below_2_24(x: u32, r: u32) -> u32 {
    ((x as u64 * r as u64) >> 32) as u32
}

/// `floor(x / n)` for `x < 2^40` and `1 <= n <=` [`SMALL_MAX`]: the top
/// 20 bits, then the remainder and the low 20 bits (below `n 2^20 <=
/// 2^24`), each exact by [`div_below_2_24`].
#[inline]
pub fn div_small_u64(x: u64, n: u32) -> u64 {
    debug_assert!(x < 1 << 40 && (1..=SMALL_MAX).contains(&n));
    if n <= 1 {
        return x;
    }
    let r = RECIPROCAL[n as usize];
    let (hi, lo) = ((x >> 20) as u32, (x as u32) & ((1 << 20) - 1));
    let qh = div_below_2_24(hi, r);
    let rem = hi - qh * n;
    let ql = div_below_2_24(rem << 20 | lo, r);
    (qh as u64) << 20 | ql as u64
}

/// `x / n` truncated towards zero (as the divider and Rust's `/`), for
/// `|x| < 2^40` and `1 <= n <=` [`SMALL_MAX`].
#[inline]
pub fn div_small_i64(x: i64, n: u32) -> i64 {
    let q = div_small_u64(x.unsigned_abs(), n) as i64;
    if x < 0 {
        -q
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec;

    /// Every divisor against Rust's `/`, at the ends of each range, near
    /// every multiple's boundary and at random points.
    #[test]
    fn matches_truncating_division() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in 1..=SMALL_MAX {
            let mut xs = vec![
                0u64,
                1,
                (1 << 40) - 1,
                (1 << 24) - 1,
                1 << 20,
                (1 << 20) - 1,
            ];
            for k in [1u64, 2, 3, 1 << 19, (1 << 40) / n as u64 - 1] {
                let m = k * n as u64;
                xs.extend([m.saturating_sub(1), m, m + 1]);
            }
            for _ in 0..20_000 {
                xs.push(next() & ((1 << 40) - 1));
                xs.push(next() & ((1 << 24) - 1));
            }
            for x in xs.into_iter().filter(|&x| x < 1 << 40) {
                assert_eq!(div_small_u64(x, n), x / n as u64, "{x} / {n}");
                let s = x as i64;
                assert_eq!(div_small_i64(-s, n), -s / n as i64, "-{x} / {n}");
            }
        }
    }
}
