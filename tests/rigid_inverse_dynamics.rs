//! Inverse dynamics (seed 002) on a three-link arm: the torques it
//! computes, applied in the forward simulation, give the commanded joint
//! accelerations; clamped torques are exactly what the motion they
//! produce needs.
//!
//! Run with `cargo test --release --test rigid_inverse_dynamics --
//! --nocapture` for the figures.

#[path = "rigid_chain_support.rs"]
mod support;

use dsphys::fx;
use dsphys::fx::{Fx1, Fx2};
use dsphys::rigid::chain::three_link_chain;
use dsphys::rigid::inverse_dynamics::{joint_torques, step_driven};
use dsphys::rigid::Settings;
use support::{animation, commanded, rates};

/// The animation at full amplitude.
const FULL: Fx1 = Fx1::ONE;

/// `(r1 - r0) / dt` in rad/s^2.
fn realised(r0: [Fx2; 3], r1: [Fx2; 3]) -> [f64; 3] {
    core::array::from_fn(|k| (r1[k] - r0[k]).to_f64() * 60.0)
}

/// The default world with 16 sweeps: what the forward simulation
/// realises is limited by the solver's convergence, not by the torques
/// (with the default 8 sweeps the worst frame is 2.9 % of the peak off,
/// with 16 0.19 %, with 255 about the same).
fn settings() -> Settings {
    Settings {
        iterations: 16,
        ..Settings::DEFAULT
    }
}

#[test]
fn torques_reproduce_the_commanded_accelerations_on_a_three_link_chain() {
    let mut w = three_link_chain(settings());
    let unlimited = [fx!(1000.0); 3];
    let (mut worst, mut peak, mut sq, mut n) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    let (mut peak_torque, mut worst_track) = ([0.0f64; 3], 0.0f64);
    for frame in 0..300 {
        let accel = commanded(&w, frame, FULL);
        let r0 = rates(&w);
        let mut torques = [Fx1::ZERO; 3];
        step_driven(&mut w, &accel, &unlimited, &mut torques, |_| {});
        let got = realised(r0, rates(&w));
        for k in 0..3 {
            let want = accel[k].to_f64();
            let err = (got[k] - want).abs();
            // The first frames start from rest against the animation's
            // velocity: counted too.
            worst = worst.max(err);
            peak = peak.max(want.abs());
            sq += err * err;
            n += 1.0;
            peak_torque[k] = f64::max(peak_torque[k], torques[k].to_f64().abs());
            if frame >= 60 {
                let (q, _, _) = animation(k, frame + 1, FULL);
                let angle = w.joints()[k].hinge_angle(w.bodies());
                worst_track = worst_track.max((angle - q).to_f64().abs());
            }
        }
    }
    let rms = (sq / n).sqrt();
    println!(
        "commanded peak {peak:.2} rad/s^2; realised - commanded: worst {worst:.4}, rms {rms:.4} rad/s^2 \
         ({:.2} % of peak); peak torques {:.2} / {:.2} / {:.2} N m; \
         tracking error after 1 s {worst_track:.4} rad",
        100.0 * worst / peak,
        peak_torque[0],
        peak_torque[1],
        peak_torque[2]
    );
    // The arm is loaded (it holds itself out against gravity: about
    // 20 N m at the shoulder) and commanded hard.
    assert!(
        peak_torque[0] > 15.0 && peak > 10.0,
        "{peak_torque:?} {peak}"
    );
    // Tolerance: 1 % of the peak commanded acceleration on every joint
    // and frame (measured 0.19 %), and the pose on the animation within
    // 0.03 rad once the start-up from rest is over (measured 0.013).
    assert!(worst <= 0.01 * peak, "worst {worst} of peak {peak}");
    assert!(worst_track < 0.03, "{worst_track}");
}

#[test]
fn a_clamped_torque_is_what_the_motion_it_gives_needs() {
    let mut w = three_link_chain(settings());
    // The shoulder is too weak to hold the arm out (it needs ~20 N m).
    let limits = [fx!(8.0), fx!(1000.0), fx!(1000.0)];
    let (mut clamped, mut worst) = (0, 0.0f64);
    for frame in 0..120 {
        let accel = commanded(&w, frame, FULL);
        let before = w.clone();
        let mut torques = [Fx1::ZERO; 3];
        step_driven(&mut w, &accel, &limits, &mut torques, |_| {});
        let applied: [Fx1; 3] = core::array::from_fn(|k| torques[k].clamp(-limits[k], limits[k]));
        clamped += (applied[0] != torques[0]) as u32;
        // Inverse dynamics of the motion that happened, from the same
        // start: it must give back the torques that were applied.
        // The rates the step ended with are the ones asked for.
        let mut again = before;
        let realised = rates(&w);
        again.begin_step();
        let mut back = [Fx1::ZERO; 3];
        joint_torques(
            again.bodies(),
            again.joints(),
            &realised,
            again.settings.joint_erp,
            &mut back,
        );
        for k in 0..3 {
            worst = worst.max((back[k] - applied[k]).to_f64().abs());
        }
    }
    let sag = w.joints()[0].hinge_angle(w.bodies()) - animation(0, 120, FULL).0;
    println!(
        "shoulder clamped to 8 N m in {clamped} of 120 frames; inverse dynamics of the realised \
         motion differs from the applied torques by at most {worst:.4} N m; shoulder {:.3} rad \
         off the animation at 2 s",
        sag.to_f64()
    );
    assert!(clamped > 60, "{clamped}");
    assert!(sag < fx!(-0.3), "the weak shoulder must sag: {sag:?}");
    // Measured 0.036 N m of the 8 N m (solver convergence).
    assert!(worst < 0.1, "{worst}");
}
