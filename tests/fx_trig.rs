//! Sine, cosine, atan2, asin, acos and the tables against `f64`.
//!
//! Measured worst cases (exhaustive over all 65536 angles and all 8193 FX1
//! inputs in [-1, 1]; proptest elsewhere; each test prints its own), with
//! the asserted bound in brackets:
//! - the const tables: every entry is the correctly rounded `f64` value;
//! - `Angle::sin`/`cos`: 0.49994 FX1 steps [0.5001];
//!   `sin_cos_radians`: 0.500003 steps [0.5001];
//! - `atan2`: 0.5007 angle steps (1/65536 turn) [0.501]; `atan2_radians`:
//!   0.5003 FX1 steps [0.501];
//! - `asin`/`acos`: 0.5003 angle steps [0.501]; `asin_radians`/
//!   `acos_radians`: 0.50006 FX1 steps [0.501];
//! - `Angle::from_radians`: 0.49998 angle steps; `to_radians`: 0.49999
//!   FX1 steps [0.5].

#[path = "fx_support.rs"]
mod support;

use std::f64::consts::PI;

use dsphys::fx::atan::{acos_radians, asin_radians, atan2_radians};
use dsphys::fx::tables::{atan_a32_table, sin_q30_table};
use dsphys::fx::trig::sin_cos_radians;
use dsphys::fx::{acos, asin, atan2, Angle, Fx1};
use support::*;

/// One 16-bit angle step in radians.
const ANGLE_STEP: f64 = 2.0 * PI / 65536.0;

/// Signed difference of two angles in radians, wrapped to `(-pi, pi]`.
fn angle_diff(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(2.0 * PI);
    if d > PI {
        d - 2.0 * PI
    } else {
        d
    }
}

fn angle64(a: Angle) -> f64 {
    a.raw() as f64 * ANGLE_STEP
}

#[test]
fn const_tables_match_f64() {
    let sin = sin_q30_table();
    assert_eq!(sin.len(), 1025);
    for (i, &v) in sin.iter().enumerate() {
        let want = ((i as f64 * PI / 2048.0).sin() * (1u64 << 30) as f64).round();
        assert!(
            (v as f64 - want).abs() <= 0.0,
            "sin[{i}] = {v}, want {want}"
        );
    }
    let atan = atan_a32_table();
    assert_eq!(atan.len(), 1025);
    for (i, &v) in atan.iter().enumerate() {
        let want = ((i as f64 / 1024.0).atan() * (1u64 << 31) as f64 / PI).round();
        assert!(
            (v as f64 - want).abs() <= 0.0,
            "atan[{i}] = {v}, want {want}"
        );
    }
}

#[test]
fn sin_cos_over_every_angle() {
    let mut worst = 0.0f64;
    for raw in 0..=u16::MAX {
        let a = Angle::from_raw(raw);
        let x = angle64(a);
        worst = worst.max((a.sin().to_f64() - x.sin()).abs() / STEP);
        worst = worst.max((a.cos().to_f64() - x.cos()).abs() / STEP);
        assert_eq!(a.sin_cos(), (a.sin(), a.cos()));
    }
    report("Angle::sin/cos (FX1 steps)", worst, 0.5001);
    assert_eq!(Angle::QUARTER.sin(), Fx1::ONE);
    assert_eq!(Angle::HALF.cos(), -Fx1::ONE);
    assert_eq!(Angle::ZERO.sin(), Fx1::ZERO);
}

#[test]
fn sin_cos_of_radians() {
    worst_error(
        "sin_cos_radians (FX1 steps)",
        50_000,
        fx1(-(1 << 20), 1 << 20),
        0.5001,
        |r| {
            let (s, c) = sin_cos_radians(r);
            let x = r.to_f64();
            ((s.to_f64() - x.sin())
                .abs()
                .max((c.to_f64() - x.cos()).abs()))
                / STEP
        },
    );
}

#[test]
fn angle_radian_conversions() {
    worst_error(
        "Angle::from_radians (angle steps)",
        50_000,
        fx1(-(1 << 20), 1 << 20),
        0.5,
        |r| angle_diff(angle64(Angle::from_radians(r)), r.to_f64()).abs() / ANGLE_STEP,
    );
    let mut worst = 0.0f64;
    for raw in 0..=u16::MAX {
        let a = Angle::from_raw(raw);
        let r = a.to_radians().to_f64();
        assert!(r.abs() <= 12868.0 * STEP, "{r}");
        worst = worst.max(angle_diff(r, angle64(a)).abs() / STEP);
    }
    report("Angle::to_radians (FX1 steps)", worst, 0.5);
    assert_eq!(
        Angle::from_raw(100) + Angle::from_raw(65500),
        Angle::from_raw(64)
    );
    assert_eq!(-Angle::QUARTER, Angle::from_raw(0xC000));
}

#[test]
fn atan2_over_all_quadrants() {
    let s = prop_oneof_fx();
    worst_error("atan2 (angle steps)", 50_000, s.clone(), 0.501, |(y, x)| {
        if y == Fx1::ZERO && x == Fx1::ZERO {
            assert_eq!(atan2(y, x), Angle::ZERO);
            return 0.0;
        }
        angle_diff(angle64(atan2(y, x)), y.to_f64().atan2(x.to_f64())).abs() / ANGLE_STEP
    });
    worst_error("atan2_radians (FX1 steps)", 50_000, s, 0.501, |(y, x)| {
        if y == Fx1::ZERO && x == Fx1::ZERO {
            return 0.0;
        }
        let r = atan2_radians(y, x).to_f64();
        assert!(r.abs() <= 12868.0 * STEP, "{r}");
        angle_diff(r, y.to_f64().atan2(x.to_f64())).abs() / STEP
    });
    assert_eq!(atan2(Fx1::ZERO, -Fx1::ONE), Angle::HALF);
    assert_eq!(
        atan2_radians(Fx1::ZERO, -Fx1::ONE).raw(),
        12868,
        "+pi, not -pi"
    );
    assert_eq!(atan2(-Fx1::ONE, Fx1::ZERO), Angle::from_raw(0xC000));
}

fn prop_oneof_fx() -> impl proptest::strategy::Strategy<Value = (Fx1, Fx1)> + Clone {
    use proptest::prelude::*;
    prop_oneof![
        (fx1(-64, 64), fx1(-64, 64)),
        (fx1(-(1 << 16), 1 << 16), fx1(-(1 << 16), 1 << 16)),
        (fx1(i32::MIN, i32::MAX), fx1(i32::MIN, i32::MAX)),
    ]
}

#[test]
fn asin_acos_over_every_input() {
    let (mut wa, mut wr) = (0.0f64, 0.0f64);
    for raw in -4096..=4096 {
        let x = Fx1::from_raw(raw);
        let f = x.to_f64();
        wa = wa.max(angle_diff(angle64(asin(x)), f.asin()).abs() / ANGLE_STEP);
        wa = wa.max(angle_diff(angle64(acos(x)), f.acos()).abs() / ANGLE_STEP);
        wr = wr.max((asin_radians(x).to_f64() - f.asin()).abs() / STEP);
        wr = wr.max((acos_radians(x).to_f64() - f.acos()).abs() / STEP);
    }
    report("asin/acos (angle steps)", wa, 0.501);
    report("asin_radians/acos_radians (FX1 steps)", wr, 0.501);
    // Out of range clamps.
    assert_eq!(acos(Fx1::from_int(2)), Angle::ZERO);
    assert_eq!(asin(Fx1::from_int(-2)), Angle::from_raw(0xC000));
    assert_eq!(acos_radians(-Fx1::ONE).raw(), 12868);
}
