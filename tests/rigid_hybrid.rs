//! Hybrid dynamics (seed 002's level of detail) on the three-link arm: a
//! DOF is kinematic while its inverse-dynamics torque is within its
//! limit and dynamic otherwise. Under a small load every DOF stays
//! kinematic and the arm follows its animation; a hard push makes the
//! loaded DOF dynamic, the arm gives way, and it goes back to kinematic
//! once following the animation is within its strength again.
//!
//! Run with `cargo test --release --test rigid_hybrid -- --nocapture`
//! for the figures.

#[path = "rigid_chain_support.rs"]
mod support;

use dsphys::fx;
use dsphys::fx::{Fx1, Fx2, Vec3};
use dsphys::rigid::chain::{three_link_chain, ChainWorld};
use dsphys::rigid::hybrid::{step_hybrid, Mode};
use dsphys::rigid::{Body, Settings};
use support::{commanded, off_animation};

/// A gentle animation: a quarter of the full swing.
const GENTLE: Fx1 = fx!(0.25);
/// Joint strengths, N m: enough to hold the arm out (about 21 N m at the
/// shoulder) and swing it gently.
const LIMITS: [Fx1; 3] = [fx!(40.0), fx!(20.0), fx!(6.0)];
/// The frame of the push.
const PUSH_AT: u32 = 120;
/// The arm starts at rest, straight, off the animation's pose and speed:
/// catching up in the first frames may need more than its strength.
const START_UP: u32 = 30;

fn settings() -> Settings {
    Settings {
        iterations: 16,
        ..Settings::DEFAULT
    }
}

/// What one run saw.
struct Run {
    /// Frames with any DOF dynamic: in the start-up, then before and
    /// after the push.
    dynamic_start: u32,
    dynamic_before: u32,
    dynamic_after: u32,
    /// The last frame any DOF was dynamic.
    last_dynamic: Option<u32>,
    /// The largest distance from the animation in the 0.5 s after the
    /// push, and at the end (rad).
    deflection: f64,
    end_error: f64,
    /// The largest torque a kinematic row applied after the push on top
    /// of its inverse-dynamics torque, N m.
    kinematic_extra: f64,
}

/// 5 s of the gentle animation with a push of `impulse` N s straight down
/// on the hand's tip at [`PUSH_AT`].
fn run(impulse: Fx1, limits: [Fx1; 3]) -> Run {
    let mut w: ChainWorld = three_link_chain(settings());
    let mut r = Run {
        dynamic_start: 0,
        dynamic_before: 0,
        dynamic_after: 0,
        last_dynamic: None,
        deflection: 0.0,
        end_error: 0.0,
        kinematic_extra: 0.0,
    };
    for frame in 0..300 {
        let accel = commanded(&w, frame, GENTLE);
        let push = |bodies: &mut [Body]| {
            if frame == PUSH_AT {
                let hand = &mut bodies[2];
                let tip = hand.world_dir(Vec3::new(hand.half.x, Fx1::ZERO, Fx1::ZERO));
                hand.apply_impulse(tip, Vec3::new(Fx2::ZERO, -impulse.raise(), Fx2::ZERO));
            }
        };
        let h = step_hybrid(&mut w, &accel, &limits, push);
        if h.modes[..3].contains(&Mode::Dynamic) {
            if frame < START_UP {
                r.dynamic_start += 1;
            } else if frame < PUSH_AT {
                r.dynamic_before += 1;
            } else {
                r.dynamic_after += 1;
            }
            r.last_dynamic = Some(frame);
        }
        if frame >= PUSH_AT {
            r.kinematic_extra = r.kinematic_extra.max(h.kinematic_extra.to_f64());
        }
        let off = off_animation(&w, frame + 1, GENTLE);
        if (PUSH_AT..PUSH_AT + 30).contains(&frame) {
            r.deflection = r.deflection.max(off);
        }
        r.end_error = off;
    }
    r
}

fn report(name: &str, r: &Run) {
    println!(
        "{name}: dynamic frames {} in the start-up / {} before / {} after the push (last {:?}); \
         off the animation: {:.4} rad within 0.5 s of the push, {:.4} rad at 5 s; \
         kinematic rows' extra torque up to {:.2} N m",
        r.dynamic_start,
        r.dynamic_before,
        r.dynamic_after,
        r.last_dynamic,
        r.deflection,
        r.end_error,
        r.kinematic_extra
    );
}

#[test]
fn under_a_small_load_every_dof_stays_kinematic() {
    let r = run(fx!(0.1), LIMITS);
    report("0.1 N s tap", &r);
    assert_eq!(r.dynamic_before + r.dynamic_after, 0);
    // Kinematic: the tap does not move it off the animation.
    assert!(r.deflection < 0.01, "{}", r.deflection);
    assert!(r.end_error < 0.01, "{}", r.end_error);
}

#[test]
fn a_hard_push_makes_the_arm_dynamic_until_it_recovers() {
    let r = run(fx!(8.0), LIMITS);
    report("8 N s push", &r);
    assert_eq!(r.dynamic_before, 0, "kinematic until the push");
    assert!(r.dynamic_after > 0, "the push must exceed some limit");
    // It gives way, and is back to kinematic on the animation by the end.
    assert!(r.deflection > 1.0, "{}", r.deflection);
    assert!(
        r.last_dynamic.is_some_and(|f| f < 270),
        "{:?}",
        r.last_dynamic
    );
    assert!(r.end_error < 0.01, "{}", r.end_error);

    // The same push on an arm strong enough for anything stays kinematic
    // and does not give way: the switch is what lets it react.
    let strong = run(fx!(8.0), [fx!(100000.0); 3]);
    report("8 N s push, unlimited strength", &strong);
    assert_eq!(strong.dynamic_before + strong.dynamic_after, 0);
    // What it gives is the solver's residual (16 sweeps; measured 0.040).
    assert!(strong.deflection < 0.06, "{}", strong.deflection);
}
