//! The powered ragdoll (13 boxes, 12 motorised joints): struck, it reels
//! and recovers its pose within a fraction of a second; at strength 0 it
//! falls as a plain ragdoll; it never explodes. Standing upright for long
//! and so the pose recovery after a push are NOT met yet (ignored).

use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::characters::powered::{push, PoweredRagdoll, PUSH_FRAME};

/// The fastest body speed, m/s.
fn max_speed(r: &PoweredRagdoll) -> f64 {
    r.bodies()
        .iter()
        .map(|b| b.vel.lower().length().to_f64())
        .fold(0.0, f64::max)
}

/// NOT MET YET, so ignored: the pose error does not settle, because the
/// character does not stay standing (see `it_stands_for_ten_seconds`):
/// after a 30 N s push at frame 20 the mean joint error was 0.071 rad in
/// the first frame, peaked at 0.081 and averaged 0.076 rad 0.42-0.58 s
/// later, then swung between 0.05 and 0.13 rad while it toppled.
#[test]
#[ignore]
fn struck_it_reels_then_recovers_its_pose_within_half_a_second() {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    let mut errors = [0.0f64; 120];
    for f in 0..(PUSH_FRAME + 120) {
        if f == PUSH_FRAME {
            push(&mut r);
        }
        r.step();
        if f >= PUSH_FRAME {
            errors[(f - PUSH_FRAME) as usize] = r.pose_error().to_f64();
        }
    }
    // The push is 30 N s at the chest: the motors are hit hardest in the
    // first frames after it.
    let before = errors[0];
    let peak = errors[..10].iter().cloned().fold(0.0, f64::max);
    let after = errors[25..35].iter().sum::<f64>() / 10.0;
    for (k, e) in errors.iter().enumerate().step_by(5) {
        println!(
            "{:5.3} s after the push: mean joint error {e:.3} rad",
            k as f64 / 60.0
        );
    }
    println!("first frame {before:.3} rad, peak {peak:.3} rad, 0.42-0.58 s {after:.3} rad");
    assert!(peak > 0.05, "it did not reel: peak {peak:.3} rad");
    assert!(
        after < 0.6 * peak && after < 0.08,
        "not recovered: {after:.3} rad"
    );
}

#[test]
fn at_strength_zero_it_falls_as_a_plain_ragdoll() {
    let mut strong = PoweredRagdoll::new(Vec3::ZERO);
    let mut limp = PoweredRagdoll::new(Vec3::ZERO);
    limp.set_strength(Fx1::ZERO);
    for _ in 0..30 {
        strong.step();
        limp.step();
    }
    let (s, l) = (strong.head().position().y, limp.head().position().y);
    println!(
        "after 0.5 s the head is at {:.3} m (strong), {:.3} m (limp)",
        s.to_f64(),
        l.to_f64()
    );
    assert!(
        s > Fx1::from_int(1) + Fx1::ONE.div_int(2),
        "the strong one sagged"
    );
    for _ in 30..180 {
        limp.step();
    }
    let l = limp.head().position().y;
    println!("after 3 s the limp head is at {:.3} m", l.to_f64());
    assert!(l < Fx1::ONE.div_int(2), "{l:?}");
}

#[test]
fn no_explosion_over_a_minute_of_pushes() {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    let (mut fastest, mut drift) = (0.0f64, 0.0f64);
    for f in 0..3600u32 {
        if f % 120 == PUSH_FRAME {
            push(&mut r);
        }
        // Weak then strong again, as a damaged character would be.
        if f == 1800 {
            r.set_strength(Fx1::ONE.div_int(4));
        }
        r.step();
        fastest = fastest.max(max_speed(&r));
        drift = drift.max(r.world.max_joint_drift().to_f64());
    }
    println!(
        "fastest body {fastest:.2} m/s, worst joint drift {drift:.4} m, rows dropped {}",
        r.world.rows.dropped
    );
    assert!(fastest < 15.0 && drift < 0.1, "{fastest} {drift}");
    assert_eq!(r.world.rows.dropped, 0);
}

/// NOT MET YET, so ignored: it does not stay standing. Even with the
/// neutral pose and the ankle balance feedback it drifts sideways and
/// tips over within 2-4 s, for 8-20 solver sweeps, joint erp 0.1-0.4 and
/// 10-100 % strength (measured with this test's printout).
///
/// Where the energy comes from (a scratch sweep on the host, the neutral
/// pose, no balance feedback; frame at which the head drops below 1.5 m):
/// - not the contacts: one 70 kg box of the body's size, started rocking
///   at 0.5-1 rad/s, comes to rest within 2.5 s (energy falls every step);
/// - not solver convergence alone: with 64 sweeps (joint drift 1 cm) the
///   body still sways back and forth with growing amplitude (centre of
///   mass 3 mm, 12 mm, 65 mm ahead/behind in successive half swings,
///   the feet rocking heel to toe) and falls at frame 138-204 for motor
///   strengths x1-x10 and rates 0.1-0.5;
/// - it is the position feedback around the closed loop legs-ground-legs:
///   with motor rate 0 (the motors only hold relative velocity) and joint
///   erp 0 it stands 10 s at 16 sweeps (not at 8: frame 172) with the
///   pelvis still to 1 mm; a leg-motor rate of only 0.02 brings the fall
///   back (frame 228), and so does joint erp 0.05 (frame 244);
/// - soft motors (seed 002's backward-Euler PD written as soft rows, 2-8
///   Hz, damping 0.7-1.5) fall at frames 28-226, and a world-frame ankle
///   target (the foot's tilt added) makes the feet flap and the body yaw.
///
/// Next to try: position correction outside the velocities (split
/// impulses or a post-step projection), so that neither the joint drift
/// nor the motors' error terms feed kinetic energy into the sway.
#[test]
#[ignore]
fn it_stands_for_ten_seconds() {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    for f in 0..600 {
        r.step();
        if f % 60 == 0 {
            let c = r.world.centre_of_mass();
            println!(
                "{} s: centre of mass ({:.3} {:.3} {:.3})",
                f / 60,
                c.x.to_f64(),
                c.y.to_f64(),
                c.z.to_f64()
            );
        }
    }
    assert!(r.head().position().y > Fx1::from_int(1) + Fx1::ONE.div_int(2));
}
