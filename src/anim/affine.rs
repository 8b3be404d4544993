//! The expand and palette kernels: 4x3 products and quaternion-to-matrix
//! in raw integers, giving **the same bits** as the FX types'
//! `Mat4x3 * Mat4x3` and `Quat::to_mat3`, with a fraction of the work.
//!
//! The FX types round every entry to nearest, ties away from zero, in
//! `i64` and saturate it into FX1. For linear parts that are rotations
//! (entries within [`LINEAR_LIMIT`] = ±4) neither is needed in full:
//! - a rotation entry is three FX1 products of at most `2^14 * 2^13`,
//!   whose sum stays below `2^29` and so is exact in an `i32` (`mul`/`mla`
//!   instead of `smull`/`smlal`), and cannot need saturating;
//! - ties away from zero is `(x + half - (x < 0)) >> shift`: one add of
//!   the sign word (`add r, r, r, asr #31`) over plain round-half-up.
//!
//! A translation entry is `i64` in general (a point can be anywhere in
//! the FX1 range) and saturates as the FX types do. When the right-hand
//! translation is below 8 m (bone offsets, inverse binds: all but the
//! root's), the products fit an `i32` and the left-hand translation is
//! added after rounding, with the one tie case that then differs fixed
//! up (`trans_small`): the same bits, without `smull`/`smlal`.
//!
//! Every model matrix is a product of rotations (unit quaternions, brads,
//! the rigid inverse binds `assetc` checks) and the placement, whose
//! linear part [`expand`](super::expand::expand) clamps to ±2: each row of
//! a product then has the placement's norm (at most `2 * sqrt 3`), which
//! keeps every entry within the limit. `tests/anim_affine.rs` compares
//! these kernels with the FX types bit for bit.

use crate::fx::power::saturate_i32;
use crate::fx::{Mat3, Mat4x3, Quat, Vec3};

/// Linear-part entries the kernels accept, in raw FX1 (±4).
pub const LINEAR_LIMIT: i32 = 4 << 12;

/// `x / 2^12` rounded to nearest, ties away from zero (`round_shr`) for
/// an `i32` that cannot overflow when `2^11` is added.
#[inline(always)]
fn round12(x: i32) -> i32 {
    (x + (1 << 11) + (x >> 31)) >> 12
}

/// `x / 2^12` rounded like [`round12`], saturated into `i32` (`Fx2::lower`).
#[inline(always)]
fn round12_sat(x: i64) -> i32 {
    saturate_i32((x + (1 << 11) + (x >> 63)) >> 12)
}

/// The 12 raw words: the three columns, then the translation.
#[inline(always)]
fn words(m: &Mat4x3) -> [i32; 12] {
    m.to_gx_4x3()
}

/// From the 12 raw words of [`words`].
#[inline(always)]
fn from_words(w: [i32; 12]) -> Mat4x3 {
    Mat4x3::new(
        Mat3::from_cols(
            Vec3::from_raw(w[0], w[1], w[2]),
            Vec3::from_raw(w[3], w[4], w[5]),
            Vec3::from_raw(w[6], w[7], w[8]),
        ),
        Vec3::from_raw(w[9], w[10], w[11]),
    )
}

/// Translation components below this (raw FX1, 8 m) take the `i32`
/// path of [`mul_words`]: three products of at most `2^14 * 2^15` sum
/// below `2^31`.
const SMALL_TRANS: u32 = 1 << 15;

/// One translation entry `round(p + ta * 2^12) >> 12`, saturated, where
/// `p = a0 t0 + a1 t1 + a2 t2` fits an `i32` (`t` below [`SMALL_TRANS`]).
///
/// Adding a multiple of `2^12` commutes with rounding half up, and half
/// up is ties away from zero except at a tie whose total is negative,
/// which is then one lower: `q + ta - 1/2 < 0` is `q + ta <= 0`.
#[inline(always)]
fn trans_small(p: i32, ta: i32) -> i32 {
    let r = ((p + (1 << 11)) >> 12).saturating_add(ta);
    if p & 0xfff == 0x800 && r <= 0 {
        r.saturating_sub(1)
    } else {
        r
    }
}

/// `a * [r | t]` from raw words (`a` 12 words, `r` 9 words column by
/// column, `t` 3 words): the same bits as `Mat4x3 * Mat4x3` when both
/// linear parts are within [`LINEAR_LIMIT`]. Translations within
/// [`SMALL_TRANS`] (bone offsets, inverse binds) stay in `i32`.
#[inline(always)]
fn mul_words(a: &[i32; 12], r: &[i32; 9], t: &[i32; 3]) -> [i32; 12] {
    let mut out = [0i32; 12];
    for j in 0..3 {
        let (b0, b1, b2) = (r[3 * j], r[3 * j + 1], r[3 * j + 2]);
        for i in 0..3 {
            out[3 * j + i] = round12(a[i] * b0 + a[3 + i] * b1 + a[6 + i] * b2);
        }
    }
    if (t[0].unsigned_abs() | t[1].unsigned_abs() | t[2].unsigned_abs()) < SMALL_TRANS {
        for i in 0..3 {
            let p = a[i] * t[0] + a[3 + i] * t[1] + a[6 + i] * t[2];
            out[9 + i] = trans_small(p, a[9 + i]);
        }
    } else {
        let (t0, t1, t2) = (t[0] as i64, t[1] as i64, t[2] as i64);
        for i in 0..3 {
            let p = a[i] as i64 * t0 + a[3 + i] as i64 * t1 + a[6 + i] as i64 * t2;
            out[9 + i] = round12_sat(p + ((a[9 + i] as i64) << 12));
        }
    }
    out
}

/// `a * b`, the same bits as `a * b` on the FX types when both linear
/// parts are within [`LINEAR_LIMIT`] (debug builds check it).
#[inline]
pub fn mul(a: &Mat4x3, b: &Mat4x3) -> Mat4x3 {
    debug_assert!(
        within_limit(a) && within_limit(b),
        "affine::mul: linear part beyond ±4"
    );
    let (a, b) = (words(a), words(b));
    let r = [b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8]];
    from_words(mul_words(&a, &r, &[b[9], b[10], b[11]]))
}

/// `a * [q | t]`: the same bits as `a * Mat4x3::new(q.to_mat3(), t)`,
/// without building the middle matrix.
#[inline]
pub fn mul_pose(a: &Mat4x3, q: Quat, t: Vec3) -> Mat4x3 {
    debug_assert!(within_limit(a), "affine::mul_pose: linear part beyond ±4");
    from_words(mul_words(&words(a), &rot_words(q), &t.raw()))
}

/// The rotation matrix of `q`, column by column in raw FX1: the same bits
/// as `Quat::to_mat3` (each entry rounded to Q30, then to FX1, both to
/// nearest with ties away from zero).
#[inline(always)]
fn rot_words(q: Quat) -> [i32; 9] {
    let [w, x, y, z] = q.raw_q30().map(|c| c as i64);
    // round_shr(2p, 30) for the off-diagonal terms, round_shr(2^60 - 2p,
    // 30) on the diagonal; both results are within ±2^30 + 2 (|q| = 1).
    let q30 = |v: i64| ((v + (1 << 29) + (v >> 63)) >> 30) as i32;
    let two = |p: i64| q30(2 * p);
    let diag = |p: i64| q30((1i64 << 60) - 2 * p);
    // Q30 to FX1: round_shr(v, 18) in an `i32`.
    let fx = |v: i32| (v + (1 << 17) + (v >> 31)) >> 18;
    let (xx, yy, zz) = (x * x, y * y, z * z);
    let (xy, xz, yz) = (x * y, x * z, y * z);
    let (wx, wy, wz) = (w * x, w * y, w * z);
    [
        fx(diag(yy + zz)),
        fx(two(xy + wz)),
        fx(two(xz - wy)),
        fx(two(xy - wz)),
        fx(diag(xx + zz)),
        fx(two(yz + wx)),
        fx(two(xz + wy)),
        fx(two(yz - wx)),
        fx(diag(xx + yy)),
    ]
}

/// The rotation matrix of `q`: the same bits as `Quat::to_mat3`.
#[inline]
pub fn rotation(q: Quat) -> Mat3 {
    let r = rot_words(q);
    Mat3::from_cols(
        Vec3::from_raw(r[0], r[1], r[2]),
        Vec3::from_raw(r[3], r[4], r[5]),
        Vec3::from_raw(r[6], r[7], r[8]),
    )
}

/// True when every linear-part entry of `m` is within [`LINEAR_LIMIT`].
pub fn within_limit(m: &Mat4x3) -> bool {
    words(m)[..9]
        .iter()
        .all(|w| w.unsigned_abs() <= LINEAR_LIMIT as u32)
}

/// `m` with its linear part clamped to ±2 (the placement's bound, see the
/// module docs); the translation as it is.
#[inline]
pub fn clamp_placement(m: &Mat4x3) -> Mat4x3 {
    const P: i32 = 2 << 12;
    let mut w = words(m);
    for v in &mut w[..9] {
        *v = (*v).clamp(-P, P);
    }
    from_words(w)
}
