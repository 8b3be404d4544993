//! The powered ragdoll's solver alone (its level of detail off, so every
//! step is a full one): for sweep counts 5-12, over-relaxation 1.0 and
//! 1.15 and four warm-start pairs, whether the standing figure falls in
//! 10 s (head below 90 % of its height), and the frame it falls at
//! (`powered::first_fall`). `tests/rigid_powered.rs` keeps the verdicts
//! as a regression guard.
//!
//!     cargo run --release --example powered_solver_alone

use dsphys::fx::Fx1;
use dsphys::rigid::characters::powered::{first_fall, SETTINGS};
use dsphys::rigid::Settings;

fn main() {
    let fx = |x: f64| Fx1::from_raw((x * 4096.0).round() as i32);
    for sweeps in [5u8, 6, 7, 8, 9, 10, 11, 12] {
        for omega in [1.0, 1.15] {
            for (contact, joint) in [(0.85, 0.8), (1.0, 1.0), (0.8, 0.7), (0.9, 0.9)] {
                let settings = Settings {
                    iterations: sweeps,
                    relaxation: fx(omega),
                    contact_warm: fx(contact),
                    joint_warm: fx(joint),
                    ..SETTINGS
                };
                let fell = first_fall(settings, 600);
                println!("{sweeps:2} sweeps x {omega:.2}, warm {contact} / {joint}: fell at frame {fell:?}");
            }
        }
    }
}
