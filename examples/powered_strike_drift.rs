//! The powered ragdoll's joint drift around the 30 N s strike (issue 20
//! asks for under 1 cm): the worst anchor separation of any joint
//! (`World::max_joint_drift`) before the push and in each second after it,
//! with the level of detail on (as shipped) and off, and with the joint
//! error reduction raised from its 0.2.
//!
//! `cargo run --release --example powered_strike_drift`

use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::characters::powered::{push, PoweredRagdoll, PUSH_FRAME};

fn run(lod: bool, erp: Option<f64>) {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    r.lod = lod;
    if let Some(e) = erp {
        r.world.settings.joint_erp = Fx1::from_raw((e * 4096.0) as i32);
    }
    let mut before = 0.0f64;
    let mut per_second = [0.0f64; 10];
    for f in 0..600u32 {
        if f == PUSH_FRAME {
            push(&mut r);
        }
        r.step();
        let d = r.world.max_joint_drift().to_f64() * 100.0;
        if f < PUSH_FRAME {
            before = before.max(d);
        } else {
            let s = ((f - PUSH_FRAME) / 60) as usize;
            if let Some(w) = per_second.get_mut(s) {
                *w = w.max(d);
            }
        }
    }
    let erp = erp.map_or("0.2 (shipped)".to_string(), |e| format!("{e}"));
    println!(
        "level of detail {lod}, erp {erp}: before the push {before:.2} cm; each second after: {}",
        per_second
            .iter()
            .map(|d| format!("{d:.2}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
}

fn main() {
    println!("worst joint drift, cm");
    run(true, None);
    run(false, None);
    for erp in [0.3, 0.4, 0.5] {
        run(true, Some(erp));
    }
}
