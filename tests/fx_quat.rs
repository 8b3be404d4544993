//! Q30 quaternions, the exp/log maps and their conversions against `f64`.
//!
//! Measured worst cases (deterministic proptest runs; each test prints its
//! own; a Q30 step is `2^-30`), with the asserted bound in brackets:
//! - `a * b`: 0.49999 Q30 steps from the exact product of the inputs [1.5];
//! - `normalise` after 8 products: `|q| - 1` 1.68 Q30 steps [3];
//! - `rotate`, components up to 1024 units: 0.511 FX1 steps [0.52]
//!   (0.5 for the rounding plus ~5e-9 relative);
//! - `to_mat3`: 0.49999 FX1 steps [0.5]; `from_mat3(to_mat3(q))`:
//!   3.2e-4 rad [4e-4], limited by the FX1 matrix entries;
//! - `from_axis_angle`: 3.8e-9 rad [1e-8];
//! - `slerp`: 1.3e-8 rad from the f64 slerp [5e-8]; rotations closer than
//!   1.15° (the nlerp path): 3.4e-8 rad [5e-8]; `nlerp` `|q| - 1`: 1.6 Q30
//!   steps [3];
//! - `exp`: 5.1e-9 rad per radian of `max(1, |v|)` [1e-8], unit to 2.2 Q30
//!   steps without normalising [4];
//! - `log`: 0.5004 FX1 steps [0.501]; of tiny rotations (8 raw steps):
//!   1.7e-5 steps; `log(exp(v)) == v` exactly for `|v| < pi` [1 step].

#[path = "fx_support.rs"]
mod support;

use std::f64::consts::PI;

use dsphys::fx;
use dsphys::fx::{Angle, Fx1, Quat, Vec3};
use proptest::prelude::*;
use support::*;

const Q30: f64 = 1.0 / (1u64 << 30) as f64;

/// The exact quaternion of a rotation vector.
fn exp64(v: [f64; 3]) -> [f64; 4] {
    let t = len64(v);
    if t == 0.0 {
        return [1.0, 0.0, 0.0, 0.0];
    }
    let s = (t / 2.0).sin() / t;
    [(t / 2.0).cos(), v[0] * s, v[1] * s, v[2] * s]
}

/// The exact rotation vector of a (normalised) quaternion, angle in [0, pi].
fn log64(q: [f64; 4]) -> [f64; 3] {
    let q = qnorm64(if q[0] < 0.0 { q.map(|c| -c) } else { q });
    let v = [q[1], q[2], q[3]];
    let l = len64(v);
    if l == 0.0 {
        return [0.0; 3];
    }
    let t = 2.0 * l.atan2(q[0]);
    v.map(|c| c * t / l)
}

#[test]
fn product_and_normalise() {
    worst_error(
        "Quat*Quat (Q30 steps)",
        30_000,
        (quat(), quat()),
        1.5,
        |(a, b)| max_diff((a * b).to_f64(), qmul64(a.to_f64(), b.to_f64())) / Q30,
    );
    worst_error(
        "normalise |q| - 1 (Q30 steps)",
        30_000,
        (quat(), quat()),
        3.0,
        |(a, b)| {
            let mut q = a;
            for _ in 0..8 {
                q = q * b;
            }
            let n = q.normalise().to_f64();
            ((n.iter().map(|c| c * c).sum::<f64>()).sqrt() - 1.0).abs() / Q30
        },
    );
    let q = Quat::from_axis_angle(Vec3::Z, Angle::QUARTER);
    assert_eq!(q * q.inverse(), Quat::IDENTITY);
    assert_eq!(q.conjugate().conjugate(), q);
    assert_eq!(Quat::from_raw_q30(0, 0, 0, 0).normalise(), Quat::IDENTITY);
    assert_eq!(Quat::from_fx1(fx!(2.0), Vec3::ZERO), Quat::IDENTITY);
    assert_eq!(Quat::IDENTITY.w(), Fx1::ONE);
    assert_eq!(Quat::IDENTITY.xyz(), Vec3::ZERO);
    assert_eq!(Quat::default(), Quat::IDENTITY);
}

#[test]
fn rotate_and_matrices() {
    worst_error(
        "Quat::rotate (FX1 steps)",
        30_000,
        (quat(), vec3(-(1 << 22), 1 << 22)),
        0.52,
        |(q, v)| max_diff(v64(q.rotate(v)), qrot64(q.to_f64(), v64(v))) / STEP,
    );
    worst_error(
        "Quat::to_mat3 entries (FX1 steps)",
        30_000,
        (quat(), 0usize..3),
        0.5,
        |(q, axis)| {
            let e = [Vec3::X, Vec3::Y, Vec3::Z][axis];
            max_diff(v64(q.to_mat3().cols[axis]), qrot64(q.to_f64(), v64(e))) / STEP
        },
    );
    worst_error("from_mat3(to_mat3(q)) (rad)", 30_000, quat(), 4e-4, |q| {
        quat_angle64(Quat::from_mat3(&q.to_mat3()).to_f64(), q.to_f64())
    });
    // Every branch of Shepperd's method: rotations by pi about each axis.
    for axis in [Vec3::X, Vec3::Y, Vec3::Z, Vec3::from_raw(4096, 4096, 0)] {
        let q = Quat::from_axis_angle(axis, Angle::HALF);
        let back = Quat::from_mat3(&q.to_mat3());
        assert!(
            quat_angle64(back.to_f64(), q.to_f64()) < 4e-4,
            "{axis:?}: {back:?}"
        );
    }
    assert_eq!(Quat::from_mat3(&dsphys::fx::Mat3::IDENTITY), Quat::IDENTITY);
    let q = Quat::from_axis_angle(Vec3::Z, Angle::QUARTER);
    assert_eq!(q.rotate(Vec3::X), Vec3::Y);
    assert_eq!(q * Vec3::Y, -Vec3::X);
}

#[test]
fn axis_angle() {
    let strategy = (vec3(-(1 << 16), 1 << 16), any::<u16>());
    worst_error(
        "from_axis_angle (rad)",
        30_000,
        strategy,
        1e-8,
        |(axis, a)| {
            let q = Quat::from_axis_angle(axis, Angle::from_raw(a));
            if axis == Vec3::ZERO {
                assert_eq!(q, Quat::IDENTITY);
                return 0.0;
            }
            let f = v64(axis);
            let angle = a as f64 * 2.0 * PI / 65536.0;
            quat_angle64(q.to_f64(), exp64(f.map(|c| c / len64(f) * angle)))
        },
    );
}

/// The f64 slerp along the shorter arc.
fn slerp64(a: [f64; 4], b: [f64; 4], t: f64) -> [f64; 4] {
    let mut d: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    let b = if d < 0.0 {
        d = -d;
        b.map(|c| -c)
    } else {
        b
    };
    let th = d.min(1.0).acos();
    if th < 1e-9 {
        return a;
    }
    let (wa, wb) = (((1.0 - t) * th).sin() / th.sin(), (t * th).sin() / th.sin());
    qnorm64(std::array::from_fn(|i| wa * a[i] + wb * b[i]))
}

#[test]
fn interpolation() {
    let strategy = (quat(), quat(), fx1(0, 4096));
    worst_error(
        "slerp vs f64 slerp (rad)",
        30_000,
        strategy.clone(),
        5e-8,
        |(a, b, t)| {
            quat_angle64(
                a.slerp(b, t).to_f64(),
                slerp64(a.to_f64(), b.to_f64(), t.to_f64()),
            )
        },
    );
    // Nearby rotations take the nlerp path.
    let near = (quat(), vec3(-100, 100), fx1(0, 4096));
    worst_error(
        "slerp of close rotations (rad)",
        30_000,
        near,
        5e-8,
        |(a, v, t)| {
            let b = a * Quat::exp(v);
            quat_angle64(
                a.slerp(b, t).to_f64(),
                slerp64(a.to_f64(), b.to_f64(), t.to_f64()),
            )
        },
    );
    worst_error(
        "nlerp ends and unit norm (Q30 steps)",
        30_000,
        strategy,
        3.0,
        |(a, b, t)| {
            let q = a.nlerp(b, t).to_f64();
            assert!(quat_angle64(a.nlerp(b, Fx1::ZERO).to_f64(), a.to_f64()) < 1e-8);
            assert!(quat_angle64(a.nlerp(b, Fx1::ONE).to_f64(), b.to_f64()) < 1e-8);
            ((q.iter().map(|c| c * c).sum::<f64>()).sqrt() - 1.0).abs() / Q30
        },
    );
    let (a, b) = (
        Quat::IDENTITY,
        Quat::from_axis_angle(Vec3::Y, Angle::QUARTER),
    );
    let half = Quat::from_axis_angle(Vec3::Y, Angle::from_raw(0x2000));
    assert!(quat_angle64(a.slerp(b, fx!(0.5)).to_f64(), half.to_f64()) < 1e-8);
    assert_eq!(a.slerp(b, fx!(2.0)), a.slerp(b, Fx1::ONE), "t is clamped");
}

#[test]
fn exp_and_log_maps() {
    let vectors = prop_oneof![
        vec3(-16, 16),
        vec3(-4096, 4096),
        vec3(-(1 << 15), 1 << 15),
        vec3(-(1 << 21), 1 << 21)
    ];
    // |v| carries 31 significant bits, so the error grows with the angle.
    worst_error(
        "exp (rad per max(1, |v|))",
        30_000,
        vectors.clone(),
        1e-8,
        |v| {
            let q = Quat::exp(v);
            quat_angle64(q.to_f64(), exp64(v64(v))) / len64(v64(v)).max(1.0)
        },
    );
    worst_error("exp |q| - 1 (Q30 steps)", 30_000, vectors, 4.0, |v| {
        let n = Quat::exp(v)
            .to_f64()
            .iter()
            .map(|c| c * c)
            .sum::<f64>()
            .sqrt();
        (n - 1.0).abs() / Q30
    });
    worst_error("log (FX1 steps)", 30_000, quat(), 0.501, |q| {
        max_diff(v64(q.log()), log64(q.to_f64())) / STEP
    });
    // Tiny rotations: the log map must not lose them.
    worst_error(
        "log of tiny rotations (FX1 steps)",
        30_000,
        (quat(), vec3(-8, 8)),
        0.501,
        |(q, v)| {
            let small = Quat::exp(v);
            let r = q.inverse() * (q * small);
            max_diff(v64(r.log()), log64(r.to_f64())) / STEP
        },
    );
    // |v| < pi (so the angle is not folded), v away from the pi edge.
    worst_error(
        "log(exp(v)) - v (FX1 steps)",
        30_000,
        vec3(-7000, 7000),
        1.0,
        |v| {
            if len64(v64(v)) > PI - 0.01 {
                return 0.0;
            }
            max_diff(v64(Quat::exp(v).log()), v64(v)) / STEP
        },
    );
    assert_eq!(Quat::exp(Vec3::ZERO), Quat::IDENTITY);
    assert_eq!(Quat::IDENTITY.log(), Vec3::ZERO);
    assert_eq!(
        (-Quat::exp(Vec3::X)).log(),
        Vec3::X,
        "q and -q give the same vector"
    );
    // A PD-style error: the rotation taking `current` to `target`.
    let current = Quat::from_axis_angle(Vec3::Z, Angle::from_raw(0x1000));
    let target = Quat::from_axis_angle(Vec3::Z, Angle::from_raw(0x2000));
    let err = (target * current.inverse()).log();
    assert!((err.z.to_f64() - PI / 8.0).abs() <= STEP, "{err:?}");
}
