//! The powered ragdoll (13 boxes, 12 motorised joints): struck, it reels
//! and recovers its pose within a fraction of a second; at strength 0 it
//! falls as a plain ragdoll; it never explodes; it stands for 10 s.

use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::characters::powered;
use dsphys::rigid::characters::powered::{push, PoweredRagdoll, PUSH_FRAME};

/// The fastest body speed, m/s.
fn max_speed(r: &PoweredRagdoll) -> f64 {
    r.bodies()
        .iter()
        .map(|b| b.vel.lower().length().to_f64())
        .fold(0.0, f64::max)
}

/// "It reels" is judged against the pose's own noise while standing, not
/// against a fixed angle: the peak of the mean joint error in the 10
/// frames after the 30 N s push must be at least three times its mean
/// over the 10 frames before it (measured, `cargo test --test
/// rigid_powered -- --nocapture`: about 0.015 rad before, 0.052 rad
/// peak, 0.009 rad 0.42-0.58 s later). "It recovers": by then the error
/// is back below 60 % of the peak, and below 0.08 rad (4.6 degrees).
#[test]
fn struck_it_reels_then_recovers_its_pose_within_half_a_second() {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    let mut errors = [0.0f64; 120];
    let mut standing = 0.0f64;
    for f in 0..(PUSH_FRAME + 120) {
        if f == PUSH_FRAME {
            push(&mut r);
        }
        r.step();
        if f >= PUSH_FRAME {
            errors[(f - PUSH_FRAME) as usize] = r.pose_error().to_f64();
        } else if f >= PUSH_FRAME - 10 {
            standing += r.pose_error().to_f64() / 10.0;
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
    println!(
        "standing {standing:.4} rad, first frame {before:.3} rad, peak {peak:.3} rad, \
         0.42-0.58 s {after:.3} rad"
    );
    assert!(
        peak >= 3.0 * standing,
        "it did not reel: peak {peak:.4} rad against {standing:.4} standing"
    );
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

/// The full solver (no folding): the minute of pushes knocks it down
/// (it falls at some push in every phase tried, `cargo run --release
/// --example powered_lod`). The worst joint drift is at a fall's impact:
/// 1.1 cm, where it was up to 10 cm before the widest gaps were closed
/// after each step (`rigid::joint_gap`, at most 4 joints a step).
#[test]
fn no_explosion_over_a_minute_of_pushes() {
    let (fastest, drift, dropped) = minute_of_pushes(false);
    assert!(fastest < 15.0 && drift < 0.04, "{fastest} {drift}");
    assert_eq!(dropped, 0);
}

/// The same with the level of detail on: it folds between pushes and
/// falls at another push (worst drift 3.2 cm, at an impact; it was up to
/// 11.5 cm).
#[test]
fn no_explosion_over_a_minute_of_pushes_when_folding() {
    let (fastest, drift, dropped) = minute_of_pushes(true);
    assert!(fastest < 15.0 && drift < 0.04, "{fastest} {drift}");
    assert_eq!(dropped, 0);
}

/// [`powered::minute_of_pushes`] from the scenario's push frame: the
/// fastest body (m/s), the worst joint drift (m) and the rows dropped.
fn minute_of_pushes(lod: bool) -> (f64, f64, u16) {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    r.lod = lod;
    let (mut fastest, mut drift) = (0.0f64, 0.0f64);
    powered::minute_of_pushes(&mut r, PUSH_FRAME, |r, _| {
        fastest = fastest.max(max_speed(r));
        drift = drift.max(r.world.max_joint_drift().to_f64());
    });
    println!(
        "fastest body {fastest:.2} m/s, worst joint drift {drift:.4} m, rows dropped {}",
        r.world.rows.dropped
    );
    (fastest, drift, r.world.rows.dropped)
}

/// "Standing" is the head above 90 % of its height in the standing pose
/// (1.58 m: a kneeling, sitting or fallen figure's head is far lower).
/// Measured (the printout): the head never drops below 1.568 m; the
/// centre of mass sways up to 4.4 cm sideways and creeps forward about
/// 8 mm/s (0.076 m in 10 s; 0.37 m in 60 s, still standing).
///
/// It used to fall in 1-2 s whatever the sweep count (64 too): the legs
/// on the ground close a loop, the joint rows are redundant, and a full
/// warm start let the internal force no velocity shows grow step by step
/// (energy rising 80-600 J) until the motors saturated. What was ruled
/// out on the way (host sweeps, neutral pose, no balance feedback):
/// - the contacts: one 70 kg box of the body's size, started rocking at
///   0.5-1 rad/s, comes to rest within 2.5 s;
/// - the motors' position feedback alone: soft motors (seed 002's
///   backward-Euler PD as soft rows, 2-8 Hz) fell at frames 28-226, and
///   a world-frame ankle target made the feet flap;
/// - with the feet pinned (static) it still blew apart at 8-16 sweeps
///   (joint drift 0.4-0.7 m) and stood with warm starts at 80 %.
///
/// The warm-start fractions are now world settings (contacts and joints
/// apart); see `powered::SETTINGS` for the sweep that chose them.
#[test]
fn it_stands_for_ten_seconds() {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    let standing_head = r.head().position().y;
    let mut lowest = Fx1::MAX;
    for f in 0..600 {
        r.step();
        lowest = lowest.min(r.head().position().y);
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
    println!("lowest head {:.3} m", lowest.to_f64());
    // Never below, not only at the end.
    let floor = standing_head.mul_lower(fx!(0.9));
    assert!(lowest > floor, "{lowest:?} below {floor:?}");
}

/// Regression guard for `powered::SETTINGS` (12 sweeps over-relaxed by
/// 1.15, warm starts 0.85 / 0.8), the solver alone (level of detail off,
/// every step a full one): with the shipped warm starts and relaxation it
/// stands 10 s at 9 to 12 sweeps and falls at 8 (head below 90 % of its
/// standing height), and at 7 sweeps every warm-start pair tried, plain
/// or over-relaxed by 1.15, falls or (0.9 / 0.9 over-relaxed, since the
/// joint gaps are closed after each step) stands but never folds again
/// after the bench's push. When a better solver or balance lets 8 stand,
/// this test fails: move `SETTINGS` to the cheaper setting and update
/// this list (`cargo run --release --example powered_solver_alone`
/// prints the grid).
#[test]
fn fewer_sweeps_fall_within_ten_seconds() {
    use dsphys::rigid::characters::powered::SETTINGS;
    use dsphys::rigid::Settings;
    let fx = |x: f64| Fx1::from_raw((x * 4096.0).round() as i32);
    let settings = |sweeps: u8, omega: Fx1, contact: f64, joint: f64| Settings {
        iterations: sweeps,
        relaxation: omega,
        contact_warm: fx(contact),
        joint_warm: fx(joint),
        ..SETTINGS
    };
    let fell = |sweeps: u8, omega: Fx1, contact: f64, joint: f64| {
        let fell = powered::first_fall(settings(sweeps, omega, contact, joint), 600);
        let w = omega.to_f64();
        println!("{sweeps:2} sweeps x {w:.2}, warm {contact} / {joint}: fell at frame {fell:?}");
        fell
    };
    let (contact, joint) = (SETTINGS.contact_warm.to_f64(), SETTINGS.joint_warm.to_f64());
    for sweeps in 9..=SETTINGS.iterations {
        let f = fell(sweeps, SETTINGS.relaxation, contact, joint);
        assert!(
            f.is_none(),
            "{sweeps} sweeps, the shipped warm starts: fell at {f:?}"
        );
    }
    assert!(
        fell(8, SETTINGS.relaxation, contact, joint).is_some(),
        "8 sweeps with the shipped warm starts stand: a cheaper SETTINGS may do"
    );
    let pairs = [(0.85, 0.8), (1.0, 1.0), (0.8, 0.7), (0.9, 0.9)];
    for omega in [Fx1::ONE, fx(1.15)] {
        for (contact, joint) in pairs {
            let useless = fell(7, omega, contact, joint).is_some()
                || folded_again_after_the_push(settings(7, omega, contact, joint)).is_none();
            assert!(
                useless,
                "7 sweeps x {:.2}, warm {contact} / {joint} stands and folds again: a cheaper SETTINGS may do",
                omega.to_f64()
            );
        }
    }
}

/// The frame at which the figure with `settings` folds again after the
/// bench's push (level of detail on), if it does within 240 frames and
/// stays folded.
fn folded_again_after_the_push(settings: dsphys::rigid::Settings) -> Option<u32> {
    use dsphys::rigid::characters::powered::{push, PUSH_FRAME};
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    r.world.settings = settings;
    let mut folded_again = None;
    for f in 0..240 {
        if f == PUSH_FRAME {
            push(&mut r);
        }
        r.step();
        if f > PUSH_FRAME && r.is_folded() && folded_again.is_none() {
            folded_again = Some(f);
        }
        if folded_again.is_some() && !r.is_folded() {
            return None;
        }
    }
    folded_again
}

/// After the scenario's push it recovers and stands still enough to fold
/// again (seed 002's level of detail) within 2 s, and stays folded to the
/// end of the bench's 240 frames. With warm starts of 0.9 / 0.9 it stood
/// but vibrated on its feet and never folded again, which made
/// `motor_character_us.total` 12482.7 us in DeSmuME (`make bench`).
#[test]
fn it_folds_again_after_the_push() {
    use dsphys::rigid::characters::powered::{PUSH_FRAME, SETTINGS};
    let folded_again = folded_again_after_the_push(SETTINGS);
    println!("pushed at frame {PUSH_FRAME}, folded again at {folded_again:?}");
    let f = folded_again.expect("never folded again after the push, or unfolded after");
    assert!(f <= PUSH_FRAME + 120, "folded again only at frame {f}");
}

/// Issue 20: through the 30 N s strike and the 10 s after it, no joint
/// opens by 1 cm, with the level of detail on (as shipped) and off. It was
/// 1.59 cm and 2.00 cm before joint gaps over 9 mm were closed after each
/// step (`rigid::joint_gap`); now 0.90 cm and 0.88 cm (`cargo run
/// --release --example powered_strike_drift`).
#[test]
fn the_strike_opens_no_joint_by_a_centimetre() {
    for lod in [true, false] {
        let mut r = PoweredRagdoll::new(Vec3::ZERO);
        r.lod = lod;
        let mut worst = Fx1::ZERO;
        for f in 0..PUSH_FRAME + 600 {
            if f == PUSH_FRAME {
                push(&mut r);
            }
            r.step();
            worst = worst.max(r.world.max_joint_drift());
        }
        println!(
            "level of detail {lod}: worst joint drift {:.4} m",
            worst.to_f64()
        );
        assert!(worst < fx!(0.01), "level of detail {lod}: {worst:?}");
    }
}
