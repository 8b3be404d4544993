//! The powered ragdoll's solver budget (`powered::UPDATE_BUDGET`) after a
//! 30 N s strike on the head that floors it: with no budget and with the
//! shipped one, the worst joint drift over the next 10 s and the worst
//! step's solver work (row updates, preparations counted as
//! `world::PREPARE_UPDATES` each).
//!
//!     cargo run --release --example powered_budget

use dsphys::fx::{Fx1, Vec3};
use dsphys::rigid::characters::powered::{part, PoweredRagdoll, UPDATE_BUDGET};
use dsphys::rigid::world::{sweeps_within, PREPARE_UPDATES};

fn main() {
    let fx = |x: f64| Fx1::from_raw((x * 4096.0).round() as i32);
    for budget in [0, UPDATE_BUDGET] {
        let mut r = PoweredRagdoll::new(Vec3::ZERO);
        r.world.settings.update_budget = budget;
        for _ in 0..120 {
            r.step();
        }
        let at = r.world.bodies()[part::HEAD as usize].position();
        r.apply_impulse(part::HEAD, at, Vec3::new(fx(-15.0), fx(-6.0), fx(-25.0)));
        let (mut drift, mut work, mut rows) = (0.0f64, 0, 0);
        for _ in 0..600 {
            r.step();
            drift = drift.max(r.world.max_joint_drift().to_f64());
            let n = r.world.rows.len();
            let sweeps = sweeps_within(r.world.settings.iterations, budget, n) as usize;
            work = work.max(n * (sweeps + PREPARE_UPDATES));
            rows = rows.max(n);
        }
        println!(
            "budget {budget}: worst joint drift {drift:.4} m, most rows {rows}, \
             worst step's work {work} row updates, head at {:.2} m",
            r.head().position().y.to_f64()
        );
    }
}
