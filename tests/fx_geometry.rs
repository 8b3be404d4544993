//! Vec3, Mat3, Mat4x3 and Gram-Schmidt against `i128`/`f64` references.
//!
//! Measured worst cases (deterministic proptest runs; each test prints its
//! own), with the asserted bound in brackets:
//! - `dot`, `cross`, `length_squared`: exact; `length`: the exact floor;
//! - `normalise`, vectors from 1 raw step to the full FX1 range: each
//!   component 0.49999 FX1 steps from `v/|v|` [0.50002]; `|n| - 1`:
//!   0.83 steps [1.5];
//! - `Mat3 * Mat3`, `Mat4x3::transform_point`: 0.5 FX1 steps from the
//!   exact product of the stored inputs [0.5];
//! - Gram-Schmidt: `|column| - 1` 0.84 steps [2]; pairwise dots and
//!   `A × B - C` 1.57 steps [3]; `A` 0.49999 steps from `a/|a|` [0.50002];
//!   `B` 3.5e-4 rad from the f64 rejection of the goal from the stored `A`
//!   [5e-4];
//! - rigid inverse round trip: 1.14 FX1 steps per unit of `|p| + |t|` [3]
//!   (the FX1 rotation is orthonormal only to about `2^-12`).

#[path = "fx_support.rs"]
mod support;

use dsphys::fx;
use dsphys::fx::basis::orthonormal_basis;
use dsphys::fx::{Fx2, Mat3, Mat4x3, Quat, Vec3};
use proptest::prelude::*;
use support::*;

const BIG: i32 = 1 << 30; // components up to 2^18 units keep |v| inside FX2

#[test]
fn dot_cross_length_are_exact() {
    worst_error(
        "dot/cross/length_squared (raw difference)",
        20_000,
        (vec3(-BIG, BIG), vec3(-BIG, BIG)),
        0.0,
        |(a, b)| {
            let (ra, rb) = (a.raw().map(|c| c as i128), b.raw().map(|c| c as i128));
            let dot = ra[0] * rb[0] + ra[1] * rb[1] + ra[2] * rb[2];
            let c = b.cross(a);
            let cross = [
                ra[1] * rb[2] - ra[2] * rb[1],
                ra[2] * rb[0] - ra[0] * rb[2],
                ra[0] * rb[1] - ra[1] * rb[0],
            ];
            let l2 = ra[0] * ra[0] + ra[1] * ra[1] + ra[2] * ra[2];
            let e = (a.dot(b).raw() as i128 - dot).abs()
                + (c.x.raw() as i128 + cross[0]).abs()
                + (c.y.raw() as i128 + cross[1]).abs()
                + (c.z.raw() as i128 + cross[2]).abs()
                + (a.length_squared().raw() as i128 - l2).abs();
            e as f64
        },
    );
    worst_error(
        "length (raw difference from floor)",
        20_000,
        vec3(i32::MIN + 1, i32::MAX),
        0.0,
        |v| {
            let l2: i128 = v.raw().iter().map(|&c| c as i128 * c as i128).sum();
            let l = v.length().raw() as i128;
            let ok = l * l <= l2 && (l + 1) * (l + 1) > l2 || l == i32::MAX as i128;
            if ok {
                0.0
            } else {
                1.0
            }
        },
    );
}

#[test]
fn normalise_is_within_half_a_step() {
    let scales = prop_oneof![
        vec3(-8, 8),
        vec3(-4096, 4096),
        vec3(-(1 << 20), 1 << 20),
        vec3(i32::MIN + 1, i32::MAX)
    ];
    worst_error(
        "normalise component error (FX1 steps)",
        40_000,
        scales.clone(),
        0.50002,
        |v| {
            let Some(n) = v.try_normalise() else {
                assert_eq!(v, Vec3::ZERO);
                return 0.0;
            };
            let f = v64(v);
            let l = len64(f);
            max_diff(v64(n), f.map(|c| c / l)) / STEP
        },
    );
    worst_error("normalise |n| - 1 (FX1 steps)", 40_000, scales, 1.5, |v| {
        let n = v.normalise();
        if v == Vec3::ZERO {
            return 0.0;
        }
        (len64(v64(n)) - 1.0).abs() / STEP
    });
    assert_eq!(Vec3::ZERO.normalise(), Vec3::ZERO, "zero gives zero");
    assert_eq!(Vec3::ZERO.try_normalise(), None);
    assert_eq!(Vec3::from_raw(0, -3, 0).normalise(), -Vec3::Y);
    // Normalising an exact FX2 cross product.
    let c: Vec3<Fx2> = Vec3::X.cross(Vec3::from_raw(4096, 1, 0));
    assert_eq!(c.normalise(), Vec3::Z);
}

#[test]
fn vec3_arithmetic_keeps_powers() {
    let a = Vec3::new(fx!(1.0), fx!(2.0), fx!(-3.0));
    let s: Vec3<Fx2> = a * fx!(0.5);
    assert_eq!(s.lower(), Vec3::new(fx!(0.5), fx!(1.0), fx!(-1.5)));
    assert_eq!(a.scale(fx!(0.5)), s.lower());
    assert_eq!(s.lower().raise(), s);
    assert_eq!(a + a - a, a);
    assert_eq!(-a + a, Vec3::ZERO);
    assert_eq!(a * 2, a + a);
    assert_eq!(a.dot(a), fx!(14.0, Fx2));
}

fn mat64(m: &Mat3) -> [[f64; 3]; 3] {
    let mut r = [[0.0; 3]; 3];
    for (i, row) in r.iter_mut().enumerate() {
        for (j, e) in row.iter_mut().enumerate() {
            *e = m.at(i, j).to_f64();
        }
    }
    r
}

fn rotation() -> impl Strategy<Value = Mat3> {
    quat().prop_map(Quat::to_mat3)
}

#[test]
fn matrix_products_round_once() {
    worst_error(
        "Mat3*Mat3 entry error (FX1 steps)",
        20_000,
        (rotation(), rotation()),
        0.5,
        |(a, b)| {
            let (fa, fb, p) = (mat64(&a), mat64(&b), mat64(&(a * b)));
            let mut worst = 0.0f64;
            for i in 0..3 {
                for j in 0..3 {
                    let exact: f64 = (0..3).map(|k| fa[i][k] * fb[k][j]).sum();
                    worst = worst.max((p[i][j] - exact).abs() / STEP);
                }
            }
            worst
        },
    );
    worst_error(
        "Mat4x3 transform_point error (FX1 steps)",
        20_000,
        (
            rotation(),
            vec3(-(1 << 24), 1 << 24),
            vec3(-(1 << 24), 1 << 24),
        ),
        0.5,
        |(r, t, p)| {
            let m = Mat4x3::new(r, t);
            let f = mat64(&r);
            let (fp, ft) = (v64(p), v64(t));
            let exact: [f64; 3] = std::array::from_fn(|i| dot64(f[i], fp) + ft[i]);
            max_diff(v64(m.transform_point(p)), exact) / STEP
        },
    );
    // The FX1 rotation is orthonormal only to ~2^-12, so the round trip
    // error grows with distance: measured in FX1 steps per unit of
    // max(1, |p| + |t|).
    worst_error(
        "rigid inverse round trip (FX1 steps per unit of |p|+|t|)",
        20_000,
        (
            rotation(),
            vec3(-(1 << 18), 1 << 18),
            vec3(-(1 << 18), 1 << 18),
        ),
        3.0,
        |(r, t, p)| {
            let m = Mat4x3::new(r, t);
            let back = m.rigid_inverse().transform_point(m.transform_point(p));
            let scale = (len64(v64(p)) + len64(v64(t))).max(1.0);
            max_diff(v64(back), v64(p)) / STEP / scale
        },
    );
}

#[test]
fn mat3_and_mat4x3_basics() {
    let m = Mat3::from_rows(
        Vec3::from_raw(1, 2, 3),
        Vec3::from_raw(4, 5, 6),
        Vec3::from_raw(7, 8, 9),
    );
    assert_eq!(m.cols[0], Vec3::from_raw(1, 4, 7));
    assert_eq!(m.transpose().transpose(), m);
    assert_eq!(m.row(1), Vec3::from_raw(4, 5, 6));
    assert_eq!(Mat3::IDENTITY * Mat3::IDENTITY, Mat3::IDENTITY);
    assert_eq!(Mat3::IDENTITY.determinant(), fx!(1.0, Fx3));
    let quarter_z = Mat3::from_cols(Vec3::Y, -Vec3::X, Vec3::Z);
    assert_eq!(quarter_z * Vec3::X, Vec3::Y);
    assert_eq!(quarter_z.transpose_mul_vec(Vec3::Y), Vec3::X);
    let t = Vec3::new(fx!(1.0), fx!(2.0), fx!(3.0));
    let a = Mat4x3::new(quarter_z, t);
    assert_eq!(a * Vec3::X, Vec3::new(fx!(1.0), fx!(3.0), fx!(3.0)));
    assert_eq!(a.transform_vector(Vec3::X), Vec3::Y);
    assert_eq!(a * a.rigid_inverse(), Mat4x3::IDENTITY);
    assert_eq!((a * Mat4x3::from_translation(Vec3::X)).trans, a * Vec3::X);
    let gx = a.to_gx_4x3();
    assert_eq!(gx, [0, 4096, 0, -4096, 0, 0, 0, 0, 4096, 4096, 8192, 12288]);
}

/// f64 Gram-Schmidt: the unit rejection of `goal` from `a`.
fn gram_schmidt_b64(a: [f64; 3], goal: [f64; 3]) -> Option<[f64; 3]> {
    let ah = a.map(|c| c / len64(a));
    let d = dot64(goal, ah);
    let r = [
        goal[0] - d * ah[0],
        goal[1] - d * ah[1],
        goal[2] - d * ah[2],
    ];
    let l = len64(r);
    // Only judge directions that the inputs define well.
    (l > 1e-2 * len64(goal)).then(|| r.map(|c| c / l))
}

fn check_orthonormal(m: &Mat3) -> (f64, f64) {
    let c = m.cols.map(v64);
    let unit = c
        .iter()
        .map(|v| (len64(*v) - 1.0).abs())
        .fold(0.0, f64::max)
        / STEP;
    let ortho = [dot64(c[0], c[1]), dot64(c[0], c[2]), dot64(c[1], c[2])]
        .iter()
        .fold(0.0f64, |w, d| w.max(d.abs()))
        / STEP;
    let handed = max_diff(cross64(c[0], c[1]), c[2]) / STEP;
    (unit, ortho.max(handed))
}

#[test]
fn gram_schmidt_gives_orthonormal_bases() {
    let strategy = (vec3(-(1 << 22), 1 << 22), vec3(-(1 << 22), 1 << 22));
    worst_error(
        "basis |col| - 1 (FX1 steps)",
        20_000,
        strategy.clone(),
        2.0,
        |(a, g)| check_orthonormal(&orthonormal_basis(a, g)).0,
    );
    worst_error(
        "basis dot/cross defect (FX1 steps)",
        20_000,
        strategy.clone(),
        3.0,
        |(a, g)| check_orthonormal(&orthonormal_basis(a, g)).1,
    );
    worst_error(
        "basis A vs a/|a| (FX1 steps)",
        20_000,
        strategy.clone(),
        0.50002,
        |(a, g)| {
            let m = orthonormal_basis(a, g);
            let fa = v64(a);
            if a == Vec3::ZERO {
                return 0.0;
            }
            max_diff(v64(m.cols[0]), fa.map(|c| c / len64(fa))) / STEP
        },
    );
    worst_error(
        "basis B vs f64 Gram-Schmidt (rad)",
        20_000,
        strategy,
        5e-4,
        |(a, g)| {
            let m = orthonormal_basis(a, g);
            if a == Vec3::ZERO {
                return 0.0;
            }
            // Against the stored A: B is exact to the A it must be orthogonal to.
            match gram_schmidt_b64(v64(m.cols[0]), v64(g)) {
                Some(b) => len64(cross64(v64(m.cols[1]), b)).asin(),
                None => 0.0,
            }
        },
    );
}

#[test]
fn gram_schmidt_degenerate_cases() {
    let cases = [
        (Vec3::X, Vec3::X),
        (Vec3::X, -Vec3::X * 5),
        (Vec3::Y, Vec3::ZERO),
        (Vec3::ZERO, Vec3::Y),
        (Vec3::ZERO, Vec3::ZERO),
        (Vec3::from_raw(3, 3, 3), Vec3::from_raw(-7, -7, -7)),
        (Vec3::from_raw(1, 0, 0), Vec3::from_raw(1 << 30, 1, 0)),
    ];
    for (a, g) in cases {
        let m = orthonormal_basis(a, g);
        let (unit, ortho) = check_orthonormal(&m);
        assert!(unit <= 2.0 && ortho <= 3.0, "{a:?} {g:?}: {m:?}");
    }
    // Parallel goal: the fallback is the world axis least aligned with A.
    let m = orthonormal_basis(Vec3::X, Vec3::X * 3);
    assert_eq!(m, Mat3::from_cols(Vec3::X, Vec3::Y, Vec3::Z));
    let m = orthonormal_basis(Vec3::Z, -Vec3::Z);
    assert_eq!(m.cols[0], Vec3::Z);
    assert_eq!(m, Mat3::from_cols(Vec3::Z, Vec3::X, Vec3::Y));
    // Zero A: +X.
    assert_eq!(orthonormal_basis(Vec3::ZERO, Vec3::Y), Mat3::IDENTITY);
    // A goal a hair off A still gives the exact perpendicular.
    let m = orthonormal_basis(Vec3::X, Vec3::from_raw(1 << 30, 0, 1));
    assert_eq!(m, Mat3::from_cols(Vec3::X, Vec3::Z, -Vec3::Y));
}
