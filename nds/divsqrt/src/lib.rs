//! Integer division and square root with one interface and two backends,
//! and the ARM9's word-by-halfword multiply-accumulate.
//!
//! On the DS ARM9 (`target_arch = "arm"`, `target_os = "none"`) the calls go
//! to the hardware divider (0x04000280) and square-root unit (0x040002B0),
//! and [`smlawb`] is the ARMv5TE instruction of that name (LLVM never
//! selects it from Rust arithmetic). Everywhere else they run [`soft`],
//! which gives the same bits.
//!
//! The hardware leaves some cases undefined (a zero divisor) or odd
//! (`MIN / -1`), so both backends settle those cases *before* the unit is
//! touched, with the same documented answer:
//! - `x / 0` saturates: `MAX` for `x > 0`, `MIN` for `x < 0`, `0` for `0 / 0`.
//! - `MIN / -1` saturates to `MAX`.
//!
//! Every other quotient truncates towards zero, like Rust's `/`.
//! Square roots are `floor(sqrt(x))`.
//!
//! Interrupt safety: the units are single shared state. No interrupt handler
//! in this project uses them; one that does must save and restore them.
#![no_std]

pub mod small;
pub mod soft;

pub use small::{div_small_i64, div_small_u64, SMALL_MAX};

#[cfg(all(target_arch = "arm", target_os = "none"))]
mod hw;

#[cfg(all(target_arch = "arm", target_os = "none"))]
use hw as backend;
#[cfg(not(all(target_arch = "arm", target_os = "none")))]
use soft as backend;

/// The edge cases both backends settle the same way, or `None` to divide.
#[inline(always)]
fn edge_i32(n: i32, d: i32) -> Option<i32> {
    match (n, d) {
        (0, 0) => Some(0),
        (n, 0) => Some(if n > 0 { i32::MAX } else { i32::MIN }),
        (i32::MIN, -1) => Some(i32::MAX),
        _ => None,
    }
}

#[inline(always)]
fn edge_i64(n: i64, d: i64) -> Option<i64> {
    match (n, d) {
        (0, 0) => Some(0),
        (n, 0) => Some(if n > 0 { i64::MAX } else { i64::MIN }),
        (i64::MIN, -1) => Some(i64::MAX),
        _ => None,
    }
}

/// `n / d` in 32/32 mode (18 bus cycles on the DS).
#[inline]
pub fn div_i32(n: i32, d: i32) -> i32 {
    match edge_i32(n, d) {
        Some(q) => q,
        None => backend::div_i32(n, d),
    }
}

/// `n / d` in 64/32 mode (34 bus cycles on the DS).
#[inline]
pub fn div_i64_i32(n: i64, d: i32) -> i64 {
    match edge_i64(n, d as i64) {
        Some(q) => q,
        None => backend::div_i64_i32(n, d),
    }
}

/// `n / d` in 64/64 mode (34 bus cycles on the DS).
#[inline]
pub fn div_i64(n: i64, d: i64) -> i64 {
    match edge_i64(n, d) {
        Some(q) => q,
        None => backend::div_i64(n, d),
    }
}

/// Picks the cheapest mode that holds the operands: 32/32 when both fit
/// in `i32`, 64/32 when the divisor does, 64/64 otherwise.
#[inline]
pub fn div_auto(n: i64, d: i64) -> i64 {
    let d32 = d as i32;
    if d32 as i64 == d {
        let n32 = n as i32;
        if n32 as i64 == n {
            return div_i32(n32, d32) as i64;
        }
        return div_i64_i32(n, d32);
    }
    div_i64(n, d)
}

/// `floor(sqrt(x))` in 32-bit mode (13 bus cycles on the DS).
#[inline]
pub fn sqrt_u32(x: u32) -> u32 {
    backend::sqrt_u32(x)
}

/// `floor(sqrt(x))` in 64-bit mode.
///
/// Inputs of 2^62 and up never reach the unit: melonDS 0.9.3 keeps the
/// trial product of its square-root loop in 32 bits, which overflows once
/// the root passes 2^31, and answers one too high (found by the in-ROM
/// test `sqrt_matches_host`). So the root of `x / 4` is taken, doubled,
/// and its last bit settled exactly: `isqrt(x)` is `2 * isqrt(x >> 2)` or
/// one more. The same path runs on the host, so the bits agree everywhere.
#[inline]
pub fn sqrt_u64(x: u64) -> u32 {
    if x <= u32::MAX as u64 {
        return backend::sqrt_u32(x as u32);
    }
    if x >= 1 << 62 {
        let even = backend::sqrt_u64(x >> 2) * 2;
        let odd = even + 1; // at most 2^32 - 1, so its square fits in u64
        return if (odd as u64) * (odd as u64) <= x {
            odd
        } else {
            even
        };
    }
    backend::sqrt_u64(x)
}

/// `n + ((m * s) >> 16)` for the signed low halfword of `s` (its high
/// half is ignored, as the instruction does: no sign extension needed):
/// the product's bits 47..16 (an arithmetic shift, so rounded towards
/// minus infinity) added to `n`, wrapping. One
/// ARMv5TE `SMLAWB` on the DS (one cycle, against three or more for an
/// `smlal` and the register moves around it), for moves by a Q16
/// fraction of a word.
#[inline(always)]
pub fn smlawb(n: i32, m: i32, s: i32) -> i32 {
    backend::smlawb(n, m, s)
}

/// Where the results come from, for reports.
pub const BACKEND: &str = if cfg!(all(target_arch = "arm", target_os = "none")) {
    "DS hardware divider and square-root unit"
} else {
    "software (bit-identical to the DS units)"
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The backend's `smlawb` (the instruction on the DS, where the
    /// ROM's self-test runs this comparison too) against the product in
    /// `i64`, at the ranges' ends and at random.
    #[test]
    fn smlawb_is_the_shifted_product_plus_the_accumulator() {
        let want =
            |n: i32, m: i32, s: i32| n.wrapping_add(((m as i64 * s as i16 as i64) >> 16) as i32);
        let edges = [
            0,
            1,
            -1,
            0x7fff,
            -0x8000,
            i32::MAX,
            i32::MIN,
            1 << 16,
            -(1 << 16),
        ];
        for &n in &edges {
            for &m in &edges {
                for &s in &edges {
                    assert_eq!(smlawb(n, m, s), want(n, m, s), "{n} {m} {s}");
                }
            }
        }
        let mut x = 1u64;
        for _ in 0..100_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (n, m, s) = (x as i32, (x >> 32) as i32, (x >> 16) as i32);
            assert_eq!(smlawb(n, m, s), want(n, m, s));
        }
    }

    #[test]
    fn edges_saturate() {
        assert_eq!(div_i32(5, 0), i32::MAX);
        assert_eq!(div_i32(-5, 0), i32::MIN);
        assert_eq!(div_i32(0, 0), 0);
        assert_eq!(div_i32(i32::MIN, -1), i32::MAX);
        assert_eq!(div_i64(i64::MIN, -1), i64::MAX);
        assert_eq!(div_i64_i32(i64::MIN, -1), i64::MAX);
        assert_eq!(div_i64_i32(-7, 0), i64::MIN);
    }

    #[test]
    fn truncates_towards_zero() {
        assert_eq!(div_i32(-7, 2), -3);
        assert_eq!(div_i64_i32(-7_000_000_000, 3), -2_333_333_333);
        assert_eq!(div_i64(1 << 62, -(1 << 40)), -(1 << 22));
        assert_eq!(div_auto(1 << 40, 1 << 35), 32);
    }

    #[test]
    fn sqrt_of_large_inputs_avoids_the_unit_and_stays_exact() {
        // The melonDS case, and the edges of the split path.
        assert_eq!(sqrt_u64(9_281_730_665_748_692_759), 3_046_593_288);
        for x in [
            1u64 << 62,
            (1 << 62) - 1,
            (1 << 62) + 1,
            u64::MAX,
            u64::MAX - 1,
        ] {
            assert_eq!(sqrt_u64(x), soft::sqrt_u64(x), "{x}");
        }
    }

    #[test]
    fn sqrt_is_floor_over_the_whole_range() {
        for x in [
            0u64,
            1,
            2,
            3,
            4,
            15,
            16,
            17,
            u32::MAX as u64,
            1 << 32,
            u64::MAX,
            u64::MAX - 1,
        ] {
            let r = sqrt_u64(x) as u64;
            assert!(r * r <= x, "{x}");
            assert!((r + 1).checked_mul(r + 1).is_none_or(|s| s > x), "{x}");
        }
        let mut x = 1u64;
        for _ in 0..100_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = sqrt_u64(x) as u128;
            assert!(r * r <= x as u128 && (r + 1) * (r + 1) > x as u128);
            let y = x as u32;
            let r = sqrt_u32(y) as u64;
            assert!(r * r <= y as u64 && (r + 1) * (r + 1) > y as u64);
        }
    }
}
