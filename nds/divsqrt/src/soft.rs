//! Software division and square root that give the hardware units' bits.
//! Callers go through the crate root, which settles zero divisors and
//! `MIN / -1` first; these functions assume neither case.
//! And `smlawb`, the ARMv5TE multiply-accumulate, in `i64`.

#[inline]
pub fn div_i32(n: i32, d: i32) -> i32 {
    n / d
}

#[inline]
pub fn div_i64_i32(n: i64, d: i32) -> i64 {
    n / d as i64
}

#[inline]
pub fn div_i64(n: i64, d: i64) -> i64 {
    n / d
}

/// Bit-by-bit integer square root: exact floor, no floating point.
#[inline]
pub fn sqrt_u32(x: u32) -> u32 {
    sqrt_u64(x as u64)
}

#[inline]
pub fn sqrt_u64(x: u64) -> u32 {
    let mut rem = x;
    let mut root: u64 = 0;
    let mut bit: u64 = 1 << 62;
    while bit > rem {
        bit >>= 2;
    }
    while bit != 0 {
        if rem >= root + bit {
            rem -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    root as u32
}

#[inline(always)]
pub fn smlawb(n: i32, m: i32, s: i32) -> i32 {
    n.wrapping_add(((m as i64 * s as i16 as i64) >> 16) as i32)
}
