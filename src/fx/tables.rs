//! Lookup tables, computed by the compiler (`const` evaluation of series in
//! `f64`), so the ROM holds plain integers and runs no float code.
//! `tests/fx_trig.rs` checks every entry against the host's `f64` functions.

use core::f64::consts::PI;

/// Segments per quarter turn: 4096 steps per turn, as in the DS SDK.
pub(crate) const QUARTER_STEPS: usize = 1024;

/// `sin(i * (pi/2) / 1024)` in Q30 for `i = 0..=1024` (a quarter wave;
/// the other quadrants are mirrors).
pub(crate) static SIN_Q30: [i32; QUARTER_STEPS + 1] = sin_table();

/// Segments of the `atan` table over `t` in `[0, 1]`.
pub(crate) const ATAN_STEPS: usize = 1024;

/// `atan(i / 1024)` as a 32-bit binary angle (`2^32` per turn) for
/// `i = 0..=1024`.
pub(crate) static ATAN_A32: [u32; ATAN_STEPS + 1] = atan_table();

/// Taylor series; `|x| <= pi/2` converges to `f64` precision in 30 terms.
const fn sin_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut n = 1;
    while n < 30 {
        term = -term * x2 / ((2 * n) * (2 * n + 1)) as f64;
        sum += term;
        n += 1;
    }
    sum
}

/// Euler's series `atan x = sum (2^2n (n!)^2 / (2n+1)!) x^(2n+1) / (1+x^2)^(n+1)`;
/// the term ratio is at most 1/2 for `x <= 1`, so 64 terms suffice.
const fn atan_series(x: f64) -> f64 {
    let y = x * x / (1.0 + x * x);
    let mut term = x / (1.0 + x * x);
    let mut sum = term;
    let mut n = 1;
    while n < 64 {
        term = term * y * (2 * n) as f64 / (2 * n + 1) as f64;
        sum += term;
        n += 1;
    }
    sum
}

/// Rounds a non-negative `f64` to the nearest integer (ties up).
const fn round_pos(x: f64) -> u64 {
    let t = x as u64;
    if x - t as f64 >= 0.5 {
        t + 1
    } else {
        t
    }
}

const fn sin_table() -> [i32; QUARTER_STEPS + 1] {
    let mut t = [0i32; QUARTER_STEPS + 1];
    let mut i = 0;
    while i <= QUARTER_STEPS {
        let x = (i as f64) * (PI / 2.0) / QUARTER_STEPS as f64;
        t[i] = round_pos(sin_series(x) * (1u64 << 30) as f64) as i32;
        i += 1;
    }
    t
}

const fn atan_table() -> [u32; ATAN_STEPS + 1] {
    let mut t = [0u32; ATAN_STEPS + 1];
    let mut i = 0;
    while i <= ATAN_STEPS {
        let x = i as f64 / ATAN_STEPS as f64;
        t[i] = round_pos(atan_series(x) * ((1u64 << 31) as f64 / PI)) as u32;
        i += 1;
    }
    t
}

/// Test access to the tables (not part of the engine API).
#[doc(hidden)]
pub fn sin_q30_table() -> &'static [i32] {
    &SIN_Q30
}

/// Test access to the tables (not part of the engine API).
#[doc(hidden)]
pub fn atan_a32_table() -> &'static [u32] {
    &ATAN_A32
}
