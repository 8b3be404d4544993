//! Seed 002's partial level of detail (`Fold::engage_partly`): the
//! powered ragdoll's upper body folded into one composite with its
//! pelvis while its legs stay dynamic, after a push.

use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::characters::powered::{
    joint_index, push, PoweredRagdoll, HINGES, PUSH_FRAME, SWAYING, SWAY_SWEEPS,
};
use dsphys::rigid::motor::{ball_error, hinge_error};

/// Joint `k`'s error against its target (rad).
fn error(r: &PoweredRagdoll, k: usize) -> f64 {
    let (j, b) = (&r.world.joints()[k], r.bodies());
    if HINGES & (1 << k) != 0 {
        hinge_error(j, b).abs().to_f64()
    } else {
        ball_error(j, b).length().to_f64()
    }
}

/// Standing, pushed, and stepped full (level of detail off) for a few
/// frames: a reeling figure.
fn reeling() -> PoweredRagdoll {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    r.lod = false;
    push(&mut r);
    for _ in 0..5 {
        r.step();
    }
    r
}

/// With every joint dynamic the composite is the pelvis alone, and a
/// partly folded step is the full solver's step: the machinery (rows
/// moved onto the composite and back, the bodies outside it integrated
/// on their own, the warm starts) adds nothing but roundings.
#[test]
fn every_joint_dynamic_steps_as_the_full_solver() {
    let mut full = reeling();
    // The full solver at the partial level's sweeps, none cut short.
    full.world.settings.iterations = SWAY_SWEEPS;
    full.world.settings.update_budget = u16::MAX;
    let mut partly = full.clone();
    partly.lod = true;
    let (bodies, joints) = (partly.world.bodies(), partly.world.joints());
    assert!(partly.fold.engage_partly(bodies, joints, 0, 0xfff));
    let mut worst = 0.0f64;
    for _ in 0..10 {
        full.step();
        partly.step();
        assert!(partly.is_partly_folded());
        for (a, b) in full.bodies().iter().zip(partly.bodies()) {
            worst = worst.max((a.vel - b.vel).lower().length().to_f64());
        }
    }
    println!("largest velocity difference over 10 steps: {worst:.6} m/s");
    assert!(worst < 0.005, "{worst} m/s");
}

/// A kinematic joint below a dynamic one would need a second composite:
/// refused, and nothing is folded.
#[test]
fn a_kinematic_joint_below_a_dynamic_one_is_refused() {
    let mut r = reeling();
    let hips = 1 << joint_index::HIP_L | 1 << joint_index::HIP_R;
    let (bodies, joints) = (r.world.bodies(), r.world.joints());
    assert!(!r.fold.engage_partly(bodies, joints, 0, hips));
    assert!(!r.fold.is_active());
}

/// After the bench's push it folds all but its legs within a few frames,
/// its upper body's joints hold the errors they folded with, and it
/// ends folded whole and at rest, standing.
#[test]
fn after_the_push_the_upper_body_folds_and_the_legs_recover() {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    let standing = r.head().position().y;
    let mut first = None;
    let mut frozen = [0.0; 12];
    let mut drift = 0.0f64;
    for f in 0..240 {
        if f == PUSH_FRAME {
            push(&mut r);
        }
        r.step();
        if r.is_partly_folded() {
            let upper = (0..12).filter(|k| SWAYING & (1 << k) == 0);
            if first.is_none() {
                first = Some(f);
                for k in upper {
                    frozen[k] = error(&r, k);
                }
            } else {
                for k in upper {
                    drift = drift.max((error(&r, k) - frozen[k]).abs());
                }
            }
        }
    }
    let first = first.expect("never folded partly");
    println!(
        "partly folded from frame {first}; upper body's errors moved by {drift:.5} rad; \
         resting at the end: {}",
        r.is_resting()
    );
    assert!(
        first <= PUSH_FRAME + 5,
        "folded partly only at frame {first}"
    );
    assert!(drift < 0.002, "{drift} rad");
    assert!(r.is_folded() && r.is_resting());
    let head = r.head().position().y;
    assert!(
        head > standing.mul_lower(Fx1::from_raw(3891)),
        "fell: head at {head:?}"
    );
}
