//! Shared helpers for the `fx_*` tests (included with `#[path]`; as a test
//! target of its own it holds no tests).
#![allow(dead_code)]

use std::cell::Cell;
use std::fmt::Debug;

use dsphys::fx::{Fx1, Quat, Vec3};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// A deterministic runner, so the printed worst cases are reproducible.
pub fn runner(cases: u32) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// Runs `error` over `cases` generated inputs, asserts every error is at
/// most `bound`, prints the worst and returns it.
pub fn worst_error<S>(
    name: &str,
    cases: u32,
    strategy: S,
    bound: f64,
    error: impl Fn(S::Value) -> f64,
) -> f64
where
    S: Strategy,
    S::Value: Debug,
{
    let worst = Cell::new(0.0f64);
    let result = runner(cases).run(&strategy, |v| {
        let e = error(v);
        worst.set(worst.get().max(e));
        prop_assert!(e <= bound, "{}: error {} > bound {}", name, e, bound);
        Ok(())
    });
    println!(
        "{name}: worst {} (bound {bound}, {cases} cases)",
        show(worst.get())
    );
    result.unwrap();
    worst.get()
}

/// Prints and asserts a worst case found by an exhaustive loop.
pub fn report(name: &str, worst: f64, bound: f64) {
    println!("{name}: worst {} (bound {bound}, exhaustive)", show(worst));
    assert!(worst <= bound, "{name}: worst {worst} > bound {bound}");
}

/// Plain decimals for errors around a step, scientific for tiny ones.
fn show(x: f64) -> String {
    if x == 0.0 || x >= 1e-3 {
        format!("{x:.6}")
    } else {
        format!("{x:.3e}")
    }
}

pub const STEP: f64 = 1.0 / 4096.0;

/// FX1 with raw values in `lo..=hi`.
pub fn fx1(lo: i32, hi: i32) -> impl Strategy<Value = Fx1> + Clone {
    (lo..=hi).prop_map(Fx1::from_raw)
}

/// Vec3 with raw components in `lo..=hi`.
pub fn vec3(lo: i32, hi: i32) -> impl Strategy<Value = Vec3> + Clone {
    (lo..=hi, lo..=hi, lo..=hi).prop_map(|(x, y, z)| Vec3::from_raw(x, y, z))
}

/// A random unit quaternion (through the exp map of a vector up to ~8 rad)
/// and its exact f64 value.
pub fn quat() -> impl Strategy<Value = Quat> + Clone {
    vec3(-20000, 20000).prop_map(Quat::exp)
}

pub fn v64(v: Vec3) -> [f64; 3] {
    [v.x.to_f64(), v.y.to_f64(), v.z.to_f64()]
}

pub fn dot64(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub fn cross64(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub fn len64(a: [f64; 3]) -> f64 {
    dot64(a, a).sqrt()
}

/// Hamilton product of `[w, x, y, z]`.
pub fn qmul64(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]
}

pub fn qnorm64(q: [f64; 4]) -> [f64; 4] {
    let n = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    q.map(|c| c / n)
}

/// `q v q*` in f64.
pub fn qrot64(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let p = qmul64(
        qmul64(q, [0.0, v[0], v[1], v[2]]),
        [q[0], -q[1], -q[2], -q[3]],
    );
    [p[1], p[2], p[3]]
}

/// The largest `|a_i - b_i|`.
pub fn max_diff<const N: usize>(a: [f64; N], b: [f64; N]) -> f64 {
    (0..N).map(|i| (a[i] - b[i]).abs()).fold(0.0, f64::max)
}

/// Distance between two rotations given as quaternions (sign-blind), as
/// the rotation angle between them in radians (atan2 form: accurate near 0).
pub fn quat_angle64(a: [f64; 4], b: [f64; 4]) -> f64 {
    let r = qmul64([a[0], -a[1], -a[2], -a[3]], b);
    let v = (r[1] * r[1] + r[2] * r[2] + r[3] * r[3]).sqrt();
    2.0 * v.atan2(r[0].abs())
}
