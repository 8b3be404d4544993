//! The powered ragdoll's level of detail (seed 002's folding):
//! - the push scenario, every 10th frame, unfolded: the mean joint error,
//!   the centre-of-mass speed and the pelvis/chest spin that the folding
//!   thresholds (`powered::FOLD_*`) were chosen against;
//! - a minute of pushes in five push phases, with and without folding:
//!   the frame it first falls (head below 1.2 m), the folded frames and
//!   the worst joint drift.
//!
//! `cargo run --release --example powered_lod`

use dsphys::fx::Vec3;
use dsphys::rigid::characters::powered::{
    minute_of_pushes, part, push, PoweredRagdoll, PUSH_FRAME,
};

fn main() {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    r.lod = false;
    println!("frame  error rad  centre m/s  spin rad/s");
    for f in 0..240u32 {
        if f == PUSH_FRAME {
            push(&mut r);
        }
        r.step();
        let b = r.bodies();
        let mass: f64 = b.iter().map(|b| b.mass.to_f64()).sum();
        let v: Vec<f64> = (0..3)
            .map(|k| {
                b.iter()
                    .map(|b| b.mass.to_f64() * b.vel.lower().to_array()[k].to_f64())
                    .sum::<f64>()
                    / mass
            })
            .collect();
        let speed = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        let spin = [part::PELVIS, part::CHEST]
            .map(|i| b[i as usize].spin.lower().length().to_f64())
            .into_iter()
            .fold(0.0, f64::max);
        if f % 10 == 0 {
            let e = r.pose_error().to_f64();
            println!("{f:5}  {e:9.4}  {speed:10.3}  {spin:10.3}");
        }
    }
    println!();
    for lod in [false, true] {
        for offset in [20u32, 40, 60, 80, 100] {
            let mut r = PoweredRagdoll::new(Vec3::ZERO);
            r.lod = lod;
            let (mut fell, mut folded, mut drift) = (None, 0, 0.0f64);
            minute_of_pushes(&mut r, offset, |r, f| {
                folded += r.is_folded() as u32;
                drift = drift.max(r.world.max_joint_drift().to_f64());
                if fell.is_none() && r.head().position().y.to_f64() < 1.2 {
                    fell = Some(f);
                }
            });
            println!(
                "folding {lod:5}, pushes at {offset:3} + 120 k: falls at {fell:?}, \
                 {folded} of 3600 frames folded, worst drift {drift:.4} m"
            );
        }
    }
}
