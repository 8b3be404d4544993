//! PD controllers (seed 002): the backward-Euler form is stable for all
//! gains up to 1e6 at 60 Hz and the explicit form diverges there; the
//! quaternion form (inverse exponential map) turns a body to its target;
//! frequency and damping give the promised settling time.

use dsphys::fx;
use dsphys::fx::{Angle, Fx1, Fx2, Quat, Vec3};
use dsphys::rigid::mul_dt;
use dsphys::rigid::pd::{clamp_length, explicit_accel, Gains, StablePd};

/// One semi-implicit Euler step of a unit mass: `v += a dt; q += v dt`.
fn step(q: &mut Fx1, v: &mut Fx1, a: Fx1) {
    *v = Fx1::from_raw(
        (v.raw() as i64 + mul_dt(a.raw() as i64)).clamp(i32::MIN as i64, i32::MAX as i64) as i32,
    );
    *q = Fx1::from_raw(
        (q.raw() as i64 + mul_dt(v.raw() as i64)).clamp(i32::MIN as i64, i32::MAX as i64) as i32,
    );
}

const GAINS: [i64; 7] = [0, 1, 10, 100, 10_000, 100_000, 1_000_000];

#[test]
fn backward_euler_pd_never_grows_for_gains_up_to_1e6() {
    for ks in GAINS {
        for kd in GAINS {
            let pd = StablePd::new(Gains::new(ks, kd));
            let (mut q, mut v) = (fx!(1.0), Fx1::ZERO);
            let mut worst = Fx1::ZERO;
            for _ in 0..600 {
                let a = pd.accel(-q, -v);
                step(&mut q, &mut v, a);
                worst = worst.max(q.abs());
            }
            assert!(worst <= fx!(1.0), "ks {ks} kd {kd}: |q| reached {worst:?}");
            // Heavy damping freezes the state (seed 002: g -> 0), which is
            // not growth; with moderate damping it must converge.
            if ks >= 10 && kd <= 100 {
                assert!(q.abs() < fx!(0.5), "ks {ks} kd {kd}: still at {q:?}");
            }
        }
    }
}

#[test]
fn explicit_pd_diverges_where_the_stable_form_does_not() {
    for (ks, kd) in [
        (1_000_000, 1_000_000),
        (1_000_000, 0),
        (0, 1_000_000),
        (10_000, 1_000),
    ] {
        let g = Gains::new(ks, kd);
        let (mut q, mut v) = (fx!(1.0), fx!(1.0));
        let mut worst = Fx1::ZERO;
        for _ in 0..60 {
            let a = explicit_accel(g, -q, -v);
            step(&mut q, &mut v, a);
            worst = worst.max(q.abs());
        }
        println!(
            "explicit ks {ks} kd {kd}: max |q| {:.1} in 60 steps",
            worst.to_f64()
        );
        assert!(worst > fx!(100.0), "ks {ks} kd {kd} stayed at {worst:?}");
    }
}

#[test]
fn frequency_6_critically_damped_settles_within_a_third_of_a_second() {
    let pd = StablePd::new(Gains::from_frequency(fx!(6.0), fx!(1.0)));
    let (mut q, mut v) = (fx!(1.0), Fx1::ZERO);
    let mut overshoot = Fx1::ZERO;
    for i in 0..60 {
        let a = pd.accel(-q, -v);
        step(&mut q, &mut v, a);
        overshoot = overshoot.min(q);
        if i == 19 {
            println!("after 1/3 s: {:.4} of the error left", q.to_f64());
            assert!(q < fx!(0.1), "{q:?}");
        }
    }
    assert!(
        overshoot > fx!(-0.02),
        "critically damped overshoots by {overshoot:?}"
    );
}

#[test]
fn quaternion_pd_turns_a_body_to_its_target_for_any_gain() {
    let target = Quat::from_axis_angle(
        Vec3::new(fx!(0.3), fx!(1.0), fx!(-0.5)),
        Angle::from_raw(20000),
    );
    for (ks, kd) in [(100, 20), (10_000, 200), (1_000_000, 1_000_000)] {
        let pd = StablePd::new(Gains::new(ks, kd));
        let mut q = Quat::IDENTITY;
        let mut w = Vec3::<Fx2>::default();
        let mut last = (target * q.conjugate()).log().length();
        for _ in 0..240 {
            let a = pd.quat_accel(q, target, w, Vec3::default());
            w += a.map(|c| Fx2::from_raw(mul_dt(c.raw())));
            q = dsphys::rigid::integrate::turn(q, w);
            let e = (target * q.conjugate()).log().length();
            assert!(
                e <= last + Fx1::from_raw(2),
                "ks {ks}: error grew {last:?} -> {e:?}"
            );
            last = e;
        }
        println!(
            "quaternion PD ks {ks} kd {kd}: error after 4 s {:.5} rad",
            last.to_f64()
        );
        // kd = 1e6 is heavily overdamped: it creeps (1.6 % per step).
        let want = if kd >= 1_000_000 {
            fx!(0.1)
        } else {
            fx!(0.001)
        };
        assert!(last < want);
    }
}

#[test]
fn torque_clamp_keeps_direction_and_limit() {
    let t = Vec3::new(fx!(3.0), fx!(-4.0), Fx1::ZERO).map(Fx1::raise);
    let c = clamp_length(t, fx!(1.0));
    assert!((c.lower().length() - fx!(1.0)).abs() <= Fx1::from_raw(4));
    assert!((c.x.to_f64() - 0.6).abs() < 1e-3 && (c.y.to_f64() + 0.8).abs() < 1e-3);
    assert_eq!(clamp_length(t, fx!(10.0)), t);
}
