//! Unit vectors for the brads in 32-bit products: the vector shifted so
//! that its largest component has 15 bits, a reciprocal square root from
//! a 960-entry table and one Newton step, and one product per component.
//!
//! Why: `dsphys::fx::rsqrt::unit_fx1` works on the exact `i64` square of the
//! length, about 80 instructions and nine long multiplies a vector. The
//! brads need two unit vectors each, and DeSmuME charges a long multiply
//! by the size of its operand (up to 6 cycles). Here a vector costs about
//! 50 instructions, two of them long multiplies.
//!
//! # Ranges (every product fits its register)
//! - Input components within `±2^29` (a brad's pairs are clamped to 8 m,
//!   `2^15` raw; the cross product of a unit vector and a pair is below
//!   `2^28`).
//! - `w`, the vector shifted (and rounded): largest magnitude in `[2^14,
//!   2^15]`, so `L = |w|^2` lies in `[2^28, 3 * 2^30]`: a `u32`.
//! - `R ~ 2^30 / sqrt(L)` lies in `(2^14.2, 2^16]`, and `|w_i| R <= |w| R
//!   ~ 2^30`: each output product fits an `i32`.
//!
//! # Accuracy (`tests/anim_unit32.rs`)
//! Shifting right rounds `w` to 15 bits (`2^-15` relative), the table
//! starts `R` within `2^-8`, and the Newton step (its last product a
//! long multiply) brings it within about `2^-15`; each output component
//! is within 0.65 FX1 steps of the exact `4096 v_i / |v|` (0.5 of it the
//! final rounding). The function is odd: `-v` gives exactly the negated
//! result (every rounding is half away from zero), which the brads'
//! twins rely on.

/// `floor(sqrt(x))` for tables (const, host and DS alike), for `x`
/// below `2^62`: Newton from above, decreasing to the floor. The
/// engine's `fx::rsqrt` table uses it too.
pub const fn isqrt(x: u64) -> u64 {
    let mut r = 1u64 << 31;
    loop {
        let next = (r + x / r) / 2;
        if next >= r {
            return r;
        }
        r = next;
    }
}

/// The table covers `L >> TABLE_SHIFT` in `[64, 1024)`: `L` in `[2^28,
/// 2^32)`.
const TABLE_SHIFT: u32 = 22;
const TABLE_FIRST: u32 = 64;
const TABLE_LEN: usize = 960;

/// `2^30 / sqrt(L)` at the middle of each index's interval of `L`,
/// below `2^16`.
pub(crate) static TABLE: [u16; TABLE_LEN] = table();

const fn table() -> [u16; TABLE_LEN] {
    let mut t = [0u16; TABLE_LEN];
    let mut i = 0;
    while i < TABLE_LEN {
        // The interval's middle, L = (i + 64 + 1/2) 2^22.
        let mid = (2 * (i as u64 + TABLE_FIRST as u64) + 1) << (TABLE_SHIFT - 1);
        let r = isqrt((1u64 << 60) / mid);
        t[i] = if r > u16::MAX as u64 {
            u16::MAX
        } else {
            r as u16
        };
        i += 1;
    }
    t
}

/// `2^30 / sqrt(l)` for `l` in `[2^28, 2^32)`, within about `2^-15`
/// relative: the table, then one Newton step `y (3 - l y^2 / 2^60) / 2`.
#[inline(always)]
fn inv_sqrt(l: u32) -> u32 {
    let y0 = TABLE[((l >> TABLE_SHIFT) - TABLE_FIRST) as usize] as u32;
    // y0 < 2^16: its square fits a u32. l y0^2 / 2^32 is about 2^28.
    let h = ((l as u64 * (y0 * y0) as u64) >> 32) as u32;
    // 3 * 2^28 - h is about 2^29; y0 f / 2^29 is the new estimate. A
    // 32-bit product of y0 and f >> 14 would fit, but its truncation
    // made a brad's column 4 steps off unit (`tests/anim_brads.rs`
    // allows 3).
    let f = (3 << 28) - h;
    ((y0 as u64 * f as u64) >> 29) as u32
}

/// `v * 2^12 / |v|` per component (an FX1 unit vector), to within one
/// step, or `None` for zero. Components must be within `±2^29`.
#[inline(always)]
pub fn unit_q12(v: [i32; 3]) -> Option<[i32; 3]> {
    debug_assert!(
        v.iter().all(|c| c.unsigned_abs() <= 1 << 29),
        "unit32::unit_q12: beyond 2^29"
    );
    let big = v[0].unsigned_abs() | v[1].unsigned_abs() | v[2].unsigned_abs();
    if big == 0 {
        return None;
    }
    // The largest magnitude's bit length, brought to 15.
    let s = 17 - big.leading_zeros() as i32;
    let left = (-s).max(0) as u32;
    let right = s.max(0) as u32;
    // Rounded half away from zero (as `Fx2::lower`), so that -v gives
    // -w: a negative value's bias is one less, and none at all when
    // nothing is shifted out.
    let half = (1i32 << right) >> 1;
    let neg = -((right > 0) as i32);
    let w = v.map(|c| ((c << left) + half + ((c >> 31) & neg)) >> right);
    Some(scale(w, len2(w)))
}

/// `|v|^2` for components within `±2^15`: each square is at most `2^30`,
/// their sum at most `3 * 2^30`, a `u32`.
#[inline(always)]
pub fn len2(v: [i32; 3]) -> u32 {
    v.iter().map(|&c| (c * c) as u32).sum()
}

/// [`unit_q12`] for components within `±2^15` (a brad's pair): exact
/// shifts instead of a rounded one. `L = |v|^2` is below `2^32`; an even
/// shift brings it into `[2^28, 2^32)` and the components, shifted by
/// half as much, stay below `sqrt(L) < 2^16` in magnitude.
#[inline(always)]
pub fn unit_q12_pair(v: [i32; 3]) -> Option<[i32; 3]> {
    debug_assert!(
        v.iter().all(|c| c.unsigned_abs() <= 1 << 15),
        "unit32::unit_q12_pair: beyond 2^15"
    );
    let l = len2(v);
    if l == 0 {
        return None;
    }
    let e = l.leading_zeros().saturating_sub(2) & !1;
    Some(scale(v.map(|c| c << (e / 2)), l << e))
}

/// `w * 2^12 / sqrt(l)` per component for `l = |w|^2` in `[2^28, 2^32)`:
/// `w_i R / 2^18`, each product about `2^30` at most, rounded half away
/// from zero (as `Fx2::lower`).
#[inline(always)]
fn scale(w: [i32; 3], l: u32) -> [i32; 3] {
    let r = inv_sqrt(l) as i32;
    w.map(|c| {
        let p = c * r;
        (p + (1 << 17) + (p >> 31)) >> 18
    })
}
