//! The powered ragdoll against the solver's sweep count, over-relaxation
//! and warm-start fractions: for each setting, the lowest head height in 10 s standing,
//! the pose error's peak after the 30 N s push and 0.42-0.58 s later, and
//! the worst joint drift over a minute of pushes. The figures behind
//! `powered::SETTINGS` and docs/rigid-solver.md:
//!
//!     cargo run --release --example powered_sweeps
//!
//! (`tests/rigid_powered.rs` keeps the verdicts as a regression guard.)

use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::characters::powered::{push, PoweredRagdoll, PUSH_FRAME, SETTINGS};

fn main() {
    let fx = |x: f64| Fx1::from_raw((x * 4096.0).round() as i32);
    let grid = [8u8, 10, 11, 12, 16]
        .into_iter()
        .flat_map(|s| [1.0, 1.1, 1.15, 1.2].map(|w| (s, w)));
    for (sweeps, omega) in grid {
        for (contact, joint) in [(0.85, 0.8), (1.0, 1.0), (0.9, 0.9), (0.8, 0.7)] {
            let make = || {
                let mut r = PoweredRagdoll::new(Vec3::ZERO);
                r.world.settings = SETTINGS;
                r.world.settings.iterations = sweeps;
                r.world.settings.relaxation = fx(omega);
                r.world.settings.contact_warm = fx(contact);
                r.world.settings.joint_warm = fx(joint);
                r
            };
            let mut r = make();
            let mut lowest = f64::MAX;
            for _ in 0..600 {
                r.step();
                lowest = lowest.min(r.head().position().y.to_f64());
            }
            let mut r = make();
            let mut errors = Vec::new();
            for f in 0..(PUSH_FRAME + 120) {
                if f == PUSH_FRAME {
                    push(&mut r);
                }
                r.step();
                if f >= PUSH_FRAME {
                    errors.push(r.pose_error().to_f64());
                }
            }
            let peak = errors[..10].iter().cloned().fold(0.0, f64::max);
            let after = errors[25..35].iter().sum::<f64>() / 10.0;
            let mut r = make();
            let mut drift = 0.0f64;
            for f in 0..3600u32 {
                if f % 120 == PUSH_FRAME {
                    push(&mut r);
                }
                r.step();
                drift = drift.max(r.world.max_joint_drift().to_f64());
            }
            println!(
                "{sweeps:2} sweeps x {omega:.2}, warm {contact} / {joint}: lowest head {lowest:.3} m, \
                 push peak {peak:.3} rad, 0.42-0.58 s {after:.3} rad, drift {drift:.4} m"
            );
        }
    }
}
