//! Stiffness per unit of work: iterations against substeps.
//!
//! The humanoid (15 particles, 32 constraints) is dropped from 2 m into
//! the 8 x 6 x 8 m box room, spinning at (4, 6, 3) rad/s and thrown at
//! (3, 2, 1) m/s, for 240 frames (gravity 9.81, damping 0.99). Stiffness is
//! the mean relative stick-length error `|len - rest| / rest`, averaged
//! over frames (measured after each frame); work is constraint
//! evaluations per frame (`iterations + post_collision_iterations` passes
//! per substep), and estimated ARM9 cycles from op counts (see
//! `CYCLES_*`). Run with `--nocapture` for the table.
//!
//! Measured (host, bit-identical to the DS):
//!
//! ```text
//! (filled in from the run below)
//! ```

#[path = "verlet_support.rs"]
mod support;

use dsphys::verlet::Settings;
use support::*;

/// Estimated ARM946E-S cycles (67 MHz), from the instruction counts of
/// the release build for `armv5te-none-eabi` (`--emit asm`; about one
/// cycle per instruction, 3 per `smull`/`smlal`, 2 per `mul`, 2 per load
/// used at once): a correction by the approximation is about 105
/// instructions, a satisfied range or min-stick about 40, the exact path
/// about 150 plus the DS square root and divider (~120 cycles), one
/// particle's integration about 90 and its speed-cap check about 20.
const CYCLES_APPROX: f64 = 115.0;
const CYCLES_SATISFIED: f64 = 45.0;
const CYCLES_EXACT: f64 = 400.0;
const CYCLES_INTEGRATE: f64 = 125.0;
/// An assumed cost of colliding one particle with the world per substep
/// (the k-d tree swept-sphere query is not built yet): 5 us.
const CYCLES_COLLIDE: f64 = 335.0;

/// Drop scenarios: (spin rad/s, throw m/s).
const THROWS: [([f64; 3], [f64; 3]); 4] = [
    ([4.0, 6.0, 3.0], [3.0, 2.0, 1.0]),
    ([-6.0, 2.0, 5.0], [-2.0, 4.0, 2.0]),
    ([1.0, -8.0, 0.0], [0.0, 0.0, -4.0]),
    ([8.0, 0.0, -2.0], [1.0, 6.0, 0.0]),
];

#[derive(Default)]
struct Run {
    mean_err: f64,
    max_err: f64,
    evals_per_frame: f64,
    exact_fraction: f64,
    /// Integrate and constraints.
    cycles: f64,
    /// Plus the assumed collision cost.
    cycles_with_collision: f64,
}

fn run(iterations: u8, substeps: u8, post: u8, window: Option<f64>, frames: u32) -> Run {
    let mut out = Run::default();
    for (spin, throw) in THROWS {
        let mut r = tumbling_humanoid(2.0, spin, throw);
        r.constraints.count_stats = true;
        if let Some(w) = window {
            r.constraints.set_window(f(w));
        }
        let s = Settings {
            iterations,
            substeps,
            post_collision_iterations: post,
            ..Settings::DEFAULT
        };
        let mut sum = 0.0;
        for _ in 0..frames {
            step_in_room(&mut r, &s);
            let (m, x) = stick_errors(&r);
            sum += m;
            out.max_err = out.max_err.max(x);
        }
        let st = r.constraints.stats;
        let n = r.particles.len() as f64;
        let k = THROWS.len() as f64 * frames as f64;
        let satisfied = (st.evaluations - st.approx - st.exact) as f64;
        let cycles = st.approx as f64 * CYCLES_APPROX
            + st.exact as f64 * CYCLES_EXACT
            + satisfied * CYCLES_SATISFIED
            + (frames as f64 * substeps as f64 * n) * CYCLES_INTEGRATE;
        out.mean_err += sum / k;
        out.evals_per_frame += st.evaluations as f64 / k;
        out.exact_fraction +=
            st.exact as f64 / (st.exact + st.approx).max(1) as f64 / THROWS.len() as f64;
        out.cycles += cycles / k;
        out.cycles_with_collision +=
            (cycles + frames as f64 * substeps as f64 * n * CYCLES_COLLIDE) / k;
    }
    out
}

#[test]
fn iterations_against_substeps() {
    println!("iter sub post | evals/frame | us/frame (+collision) | mean err  max err | err x us");
    for (it, sub, post) in [
        (1, 1, 1),
        (2, 1, 1),
        (3, 1, 1),
        (4, 1, 1),
        (6, 1, 1),
        (8, 1, 1),
        (12, 1, 1),
        (2, 1, 0),
        (4, 1, 0),
        (1, 2, 1),
        (2, 2, 1),
        (3, 2, 1),
        (4, 2, 1),
        (1, 3, 1),
        (2, 3, 1),
        (1, 4, 1),
        (1, 2, 0),
        (2, 2, 0),
    ] {
        let r = run(it, sub, post, None, 240);
        let us = r.cycles / 67.0;
        println!(
            "{it:>4} {sub:>3} {post:>4} | {:>11.0} | {:>6.1} ({:>6.1})      | {:.5}  {:.4} | {:.3}",
            r.evals_per_frame,
            us,
            r.cycles_with_collision / 67.0,
            r.mean_err,
            r.max_err,
            r.mean_err * us
        );
    }
    // The default must be reasonably stiff and cheap.
    let d = Settings::DEFAULT;
    let r = run(
        d.iterations,
        d.substeps,
        d.post_collision_iterations,
        None,
        240,
    );
    assert!(r.mean_err < 0.01, "default mean error {}", r.mean_err);
    assert!(
        r.cycles / 67.0 < 150.0,
        "default cost {} us",
        r.cycles / 67.0
    );
}

#[test]
fn approx_window_sweep() {
    let d = Settings::DEFAULT;
    println!("window | mean err  max err | exact fraction | us/frame");
    for w in [0.0, 0.05, 0.1, 0.25, 0.5, 0.9] {
        let r = run(
            d.iterations,
            d.substeps,
            d.post_collision_iterations,
            Some(w),
            240,
        );
        println!(
            "{w:>6} | {:.5}  {:.4} | {:>14.4} | {:.1}",
            r.mean_err,
            r.max_err,
            r.exact_fraction,
            r.cycles / 67.0
        );
    }
}
