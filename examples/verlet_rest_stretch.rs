//! How long the humanoid's sticks stay at rest, by solver setting (issue
//! 21: every stick within 1 % of its length at rest).
//!
//! `cargo run --release --example verlet_rest_stretch` drops the default
//! tumbling ragdoll into the box room and, after 900 frames, prints the
//! frame it fell asleep and its worst stick, for several counts of
//! relaxation passes and substeps, and the same figure with gravity
//! switched off once it lies still (which shows what holds the sticks
//! long: the sag of the particles the sticks hold up, one `g dt^2` of
//! 2.7 mm a frame, that the passes do not lift back).

#[path = "support/humanoid_sticks.rs"]
mod humanoid_sticks;

use dsphys::fx::{Fx1, Vec3};
use dsphys::scenario::{tumbling_ragdoll, ROOM};
use dsphys::verlet::Settings;
use humanoid_sticks::worst_stick;

fn main() {
    println!("passes substeps  asleep at  worst stick at rest");
    for (iterations, substeps) in [(2, 1), (4, 1), (8, 1), (32, 1), (2, 2), (1, 3), (2, 4)] {
        let s = Settings {
            iterations,
            substeps,
            ..Settings::DEFAULT
        };
        let mut r = tumbling_ragdoll(Vec3::ZERO);
        let mut asleep = None;
        for f in 0..900 {
            r.step_in_room(&s, &ROOM);
            if r.is_asleep() && asleep.is_none() {
                asleep = Some(f);
            }
        }
        let (e, a, b) = worst_stick(r.positions());
        let asleep = asleep.map_or("never".to_string(), |f| f.to_string());
        println!(
            "{iterations:>6} {substeps:>8}  {asleep:>9}  {:+.2} % ({a}-{b})",
            100.0 * e
        );
    }
    // Defaults, landed and still by frame 90, then no gravity: the sticks
    // come back to their lengths (the pose's own rounding is 0.2 %).
    let mut r = tumbling_ragdoll(Vec3::ZERO);
    for f in 0..300 {
        let s = if f < 90 {
            Settings::DEFAULT
        } else {
            Settings {
                gravity_strength: Fx1::ZERO,
                ..Settings::DEFAULT
            }
        };
        if f == 90 {
            let (e, _, _) = worst_stick(r.positions());
            println!(
                "defaults, lying still at frame 90: worst stick {:+.2} %",
                100.0 * e
            );
        }
        r.step_in_room(&s, &ROOM);
    }
    let (e, a, b) = worst_stick(r.positions());
    println!(
        "then 210 frames without gravity:    worst stick {:+.2} % ({a}-{b})",
        100.0 * e
    );
    let r0 = tumbling_ragdoll(Vec3::ZERO);
    println!(
        "as built from the pose:             worst stick {:+.2} %",
        100.0 * worst_stick(r0.positions()).0
    );
}
