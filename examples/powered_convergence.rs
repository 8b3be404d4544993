//! How far the powered ragdoll's sweeps are from converging in its full
//! (unfolded) steps (issue 20): the push scenario of `make bench`'s
//! `motor_character_us` (240 frames, pushed at frame 20), and for each
//! full step the largest impulse change of sweeps 1, 4, 8 and the last,
//! and how much the last four sweeps shrink it, per sweep.
//!
//!     cargo run --release --features solver-trace --example powered_convergence
//!
//! A tolerance on the impulse change could end a step's sweeps early
//! only where they converge; the table says whether they do.

use dsphys::fx::Vec3;
use dsphys::rigid::characters::powered::{push, PoweredRagdoll, IDLE, PUSH_FRAME};
use dsphys::rigid::kernel::trace;

fn main() {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    r.reset(Vec3::ZERO);
    let (mut last_changes, mut rates) = (Vec::new(), Vec::new());
    println!("frame   largest impulse change (N s) at sweep 1 / 4 / 8 / last   shrink a sweep, last four");
    for f in 0..240 {
        if f == PUSH_FRAME {
            push(&mut r);
        }
        trace::clear();
        r.step_marked(&IDLE, &mut |_| {});
        if r.is_folded() {
            continue;
        }
        let d: Vec<f64> = trace::per_sweep().collect();
        let n = d.len();
        if n < 5 {
            continue;
        }
        let rate = (d[n - 1] / d[n - 5]).powf(0.25);
        println!(
            "{f:5}   {:.4} / {:.4} / {:.4} / {:.4} (sweep {n})            {:.3}",
            d[0],
            d[3],
            d[7.min(n - 1)],
            d[n - 1],
            rate
        );
        last_changes.push(d[n - 1]);
        rates.push(rate);
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "{} full steps: the last sweep's largest change, median {:.4} N s (worst {:.4}); \
         shrink a sweep over the last four, median {:.3}",
        last_changes.len(),
        median(&mut last_changes.clone()),
        last_changes.iter().cloned().fold(0.0, f64::max),
        median(&mut rates)
    );
}
