//! Where a tumbling ragdoll's energy goes in free space (issue 21:
//! within 0.5 % over 10 s, no damping), in `f64`, so that rounding plays
//! no part unless asked for.
//!
//! `cargo run --release --example verlet_projection_energy` steps the
//! humanoid's particles and constraints (Verlet, exact projections, 2 or
//! 8 Gauss-Seidel passes, no gravity, no damping) from a slow tumble
//! with its limbs stirred, as `tests/verlet_energy.rs` does, and prints
//! the change of the mean kinetic energy from the first second to the
//! tenth for six stirrings:
//! - each link moved along itself as it is (Jakobsen's projection, the
//!   engine's), or along itself as it was where the step began (SHAKE's),
//!   with the first-order fraction `(t^2 - |d|^2) / (2 t^2)` the engine
//!   uses;
//! - with the ranges and min-sticks (inelastic joint stops) or the sticks
//!   only;
//! - with each move rounded to 2^-20 m, the fraction to 2^-16 and the
//!   mass ratio to 2^-12, as the fixed-point passes round them;
//! - with exact Verlet steps, or with the engine's (`verlet::particles`):
//!   positions in steps of 2^-12 m, each displacement's rounding carried
//!   to the next, the previous position (and so SHAKE's direction) in
//!   whole steps.

use dsphys::verlet::def::ConstraintKind;
use dsphys::verlet::humanoid::HUMANOID;
use dsphys::xorshift::XorShift32;

type V = [f64; 3];

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[derive(Clone, Copy)]
struct Way {
    passes: usize,
    shake: bool,
    limits: bool,
    rounded: bool,
    /// The engine's integrator: positions in steps of 2^-12 m with a
    /// remainder carried to the next displacement, the previous position
    /// kept in whole steps (and the direction taken from it).
    engine: bool,
}

/// Percent change of the mean kinetic energy, second 10 against second 1.
fn energy_change(way: Way, seed: u32) -> f64 {
    let n = HUMANOID.particles.len();
    let x0: Vec<V> = HUMANOID
        .particles
        .iter()
        .map(|p| p.position.to_array().map(|c| c.to_f64()))
        .collect();
    let m: Vec<f64> = HUMANOID.particles.iter().map(|p| p.mass.to_f64()).collect();
    let w: Vec<f64> = m.iter().map(|m| 1.0 / m).collect();
    // (a, b, min, max)
    let links: Vec<(usize, usize, f64, f64)> = HUMANOID
        .constraints
        .iter()
        .filter(|c| way.limits || c.kind == ConstraintKind::Stick)
        .map(|c| {
            let max = if c.kind == ConstraintKind::MinStick {
                f64::INFINITY
            } else {
                c.max.to_f64()
            };
            (c.a as usize, c.b as usize, c.min.to_f64(), max)
        })
        .collect();
    let total: f64 = m.iter().sum();
    let mut centre = [0.0; 3];
    for i in 0..n {
        for k in 0..3 {
            centre[k] += m[i] * x0[i][k] / total;
        }
    }
    // tumbling_humanoid(0, [0.5, 1, 0.2], [0.3, 0, 0]), then stirred.
    let (om, vel) = ([0.5, 1.0, 0.2], [0.3, 0.0, 0.0]);
    let mut rng = XorShift32::spread(seed);
    let dt = 1.0 / 60.0;
    let mut x = x0.clone();
    let mut prev = x0.clone();
    for i in 0..n {
        let d = sub(x0[i], centre);
        let mut u = [
            om[1] * d[2] - om[2] * d[1] + vel[0],
            om[2] * d[0] - om[0] * d[2] + vel[1],
            om[0] * d[1] - om[1] * d[0] + vel[2],
        ];
        for uk in &mut u {
            *uk += ((rng.next_u32() % 2000) as f64 - 1000.0) / 5000.0 * w[i];
        }
        for k in 0..3 {
            prev[i][k] = x[i][k] - u[k] * dt;
        }
    }
    let round = |v: f64, bits: i32| {
        if way.rounded {
            (v * 2f64.powi(bits)).round() / 2f64.powi(bits)
        } else {
            v
        }
    };
    let (mut first, mut last) = (0.0, 0.0);
    // The engine's state: `x` is `cur + rem`; `cur` and `prev` in steps.
    let quantum = 1.0 / 4096.0;
    let steps = |v: f64| (v / quantum).round() * quantum;
    let mut rem = vec![[0.0f64; 3]; n];
    if way.engine {
        for i in 0..n {
            for k in 0..3 {
                x[i][k] = steps(x[i][k]);
                prev[i][k] = x[i][k] - steps(x[i][k] - prev[i][k]);
            }
        }
    }
    for step in 1..=600 {
        let start = if way.engine { prev.clone() } else { x.clone() };
        for i in 0..n {
            for k in 0..3 {
                if way.engine {
                    let cur = x[i][k] - rem[i][k];
                    let total = cur - prev[i][k] + rem[i][k];
                    let moved = steps(total);
                    rem[i][k] = total - moved;
                    prev[i][k] = cur;
                    x[i][k] = cur + moved + rem[i][k];
                } else {
                    let next = 2.0 * x[i][k] - prev[i][k];
                    prev[i][k] = x[i][k];
                    x[i][k] = next;
                }
            }
        }
        let start = if way.engine { prev.clone() } else { start };
        for _ in 0..way.passes {
            for &(a, b, min, max) in &links {
                let d = sub(x[b], x[a]);
                let d2 = dot(d, d);
                let t = if d2 > max * max {
                    max
                } else if d2 < min * min {
                    min
                } else {
                    continue;
                };
                let dir = if way.shake {
                    sub(start[b], start[a])
                } else {
                    d
                };
                let frac = round((t * t - d2) / (2.0 * t * t), 16);
                let ratio_a = round(w[a] / (w[a] + w[b]), 12);
                for k in 0..3 {
                    x[a][k] -= round(frac * dir[k] * ratio_a, 20);
                    x[b][k] += round(frac * dir[k] * (1.0 - ratio_a), 20);
                }
            }
        }
        if way.engine {
            for i in 0..n {
                for k in 0..3 {
                    let cur = steps(x[i][k]);
                    rem[i][k] = x[i][k] - cur;
                }
            }
        }
        let e: f64 = (0..n)
            .map(|i| {
                let cur = sub(x[i], rem[i]);
                let v = sub(cur, prev[i]);
                0.5 * m[i] * dot(v, v) / (dt * dt)
            })
            .sum();
        if step <= 60 {
            first += e;
        } else if step > 540 {
            last += e;
        }
    }
    100.0 * (last / first - 1.0)
}

fn main() {
    println!(
        "passes direction  constraints      rounding   integrator  change of energy, 6 stirrings (%)"
    );
    for (passes, shake, limits, rounded, engine) in [
        (2, false, true, false, false),
        (2, true, true, false, false),
        (2, false, false, false, false),
        (2, true, false, false, false),
        (8, true, false, false, false),
        (2, true, false, true, false),
        (8, true, false, true, false),
        (2, false, false, true, true),
        (2, true, false, false, true),
        (2, true, false, true, true),
        (8, true, false, true, true),
    ] {
        let way = Way {
            passes,
            shake,
            limits,
            rounded,
            engine,
        };
        let changes: Vec<String> = (0..6)
            .map(|s| format!("{:+.2}", energy_change(way, s)))
            .collect();
        println!(
            "{passes:>6} {:9}  {:15}  {:9}  {:10}  {}",
            if shake { "SHAKE" } else { "Jakobsen" },
            if limits { "with limits" } else { "sticks only" },
            if rounded { "as the DS" } else { "none" },
            if engine { "the DS's" } else { "exact" },
            changes.join(" ")
        );
    }
}
