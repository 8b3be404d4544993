//! The bench's push scenario (`motor_character_us`): standing, pushed at
//! frame 20 (30 N s at the chest), 240 frames. Prints every 10th frame's
//! head height, pose error, pelvis and chest spin and whether it is
//! folded, then how many frames were folded and resting, as `make bench`
//! counts them.
//!
//!     cargo run --release --example powered_refold

use dsphys::fx::Vec3;
use dsphys::rigid::characters::powered::{part, push, PoweredRagdoll, PUSH_FRAME};

fn main() {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    let (mut folded, mut resting, mut partly) = (0, 0, 0);
    let mut timeline = String::new();
    for f in 0..240u32 {
        if f == PUSH_FRAME {
            push(&mut r);
        }
        r.step();
        folded += r.is_folded() as u32;
        resting += r.is_resting() as u32;
        partly += r.is_partly_folded() as u32;
        timeline.push(if r.is_resting() {
            'r'
        } else if r.is_folded() {
            'f'
        } else if r.is_partly_folded() {
            'p'
        } else {
            'F'
        });
        if f % 10 == 0 {
            let b = r.bodies();
            let spin = |i: usize| b[i].spin.lower().length().to_f64();
            let (pelvis, chest) = (spin(part::PELVIS as usize), spin(part::CHEST as usize));
            println!(
                "frame {f:3}: head {:.3} m, pose error {:.4} rad, spin pelvis {pelvis:.2} chest {chest:.2} rad/s, folded {}",
                r.head().position().y.to_f64(),
                r.pose_error().to_f64(),
                r.is_folded()
            );
        }
    }
    println!("folded {folded} of 240 frames, resting {resting}, partly folded {partly}");
    println!("each frame (F full, p partly folded, f folded, r resting):");
    for line in timeline.as_bytes().chunks(60) {
        println!("  {}", core::str::from_utf8(line).unwrap_or(""));
    }
}
