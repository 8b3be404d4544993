//! Constraint relaxation, pinning, speed cap, gravity modes, impulses.

#[path = "verlet_support.rs"]
mod support;

use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
use dsphys::verlet::humanoid::HUMANOID;
use dsphys::verlet::{
    ConstraintDef, Constraints, Gravity, Particles, Ragdoll, Settings, StepParams,
};
use support::*;

const REST: f64 = 0.2;

/// A zig-zag chain of `n` particles whose links are stretched by `stretch`.
fn stretched_chain(n: usize, stretch: f64) -> (Particles<16>, Constraints<16>) {
    let mut p = Particles::<16>::new();
    for i in 0..n {
        let x = i as f64 * REST * stretch * 0.96;
        let z = if i % 2 == 0 {
            0.0
        } else {
            REST * stretch * 0.28
        };
        p.push(v(x, 1.0, z), fx!(1.0), fx!(1.0), fx!(0.05)).unwrap();
    }
    let mut c = Constraints::<16>::new();
    for i in 0..n - 1 {
        c.push(
            &ConstraintDef::stick(i as u8, i as u8 + 1, f(REST)),
            p.inv_masses(),
        )
        .unwrap();
    }
    (p, c)
}

fn chain_error(p: &Particles<16>) -> (f64, f64) {
    let x = p.positions();
    let errs: Vec<f64> = x
        .windows(2)
        .map(|w| (dist(w[0], w[1]) - REST).abs())
        .collect();
    (errs.iter().sum(), errs.iter().cloned().fold(0.0, f64::max))
}

/// The solver's view of `p` after `passes`: its positions, and the
/// remainders the passes added to (which only a velocity would read).
fn relaxed(
    p: &Particles<16>,
    c: &mut Constraints<16>,
    passes: u32,
) -> ([Vec3; 16], [[i32; 3]; 16]) {
    let mut x = [Vec3::ZERO; 16];
    let mut rem = [[0; 3]; 16];
    let mut m = [Fx1::ZERO; 16];
    x[..p.len()].copy_from_slice(p.positions());
    m[..p.len()].copy_from_slice(p.masses());
    c.relax(&mut x, &mut rem, &m, passes);
    (x, rem)
}

/// No passes leave the positions and remainders as they are, and move
/// no mass.
#[test]
fn relax_with_no_passes_moves_nothing() {
    let (p, mut c) = stretched_chain(5, 1.3);
    let mut x = [Vec3::ZERO; 16];
    x[..p.len()].copy_from_slice(p.positions());
    let mut rem = [[7; 3]; 16];
    let (x0, rem0) = (x, rem);
    let m = [fx!(1.0); 16];
    assert_eq!(c.relax(&mut x, &mut rem, &m, 0), [0; 3]);
    assert_eq!((x, rem), (x0, rem0));
}

fn relax_chain(p: &mut Particles<16>, c: &mut Constraints<16>, passes: u32) -> Vec<f64> {
    let mut history = vec![chain_error(p).0];
    for _ in 0..passes {
        let (x, _) = relaxed(p, c, 1);
        for (i, xi) in x[..p.len()].iter().enumerate() {
            p.move_pinned(i, *xi);
        }
        history.push(chain_error(p).0);
    }
    history
}

#[test]
fn relaxation_converges_monotonically_on_a_stretched_chain() {
    for stretch in [1.05, 1.5, 3.0, 0.7] {
        let (mut p, mut c) = stretched_chain(12, stretch);
        let h = relax_chain(&mut p, &mut c, 400);
        let step = 1.0 / 4096.0;
        for (k, w) in h.windows(2).enumerate() {
            // Non-increasing, up to one FX step per link of rounding.
            assert!(
                w[1] <= w[0] + 11.0 * step,
                "stretch {stretch}: pass {k}: {} -> {}",
                w[0],
                w[1]
            );
        }
        let (sum, max) = chain_error(&p);
        println!(
            "stretch {stretch}: total error {:.4} m -> after 10 passes {:.5}, 100 {:.6}, 400 {:.6} (max link {:.6} m)",
            h[0], h[10], h[100], sum, max
        );
        assert!(max <= 2.0 * step, "stretch {stretch}: max link error {max}");
    }
}

#[test]
fn pinned_particles_never_move() {
    let mut r: Ragdoll = Ragdoll::new(&HUMANOID, v(0.0, 0.5, 0.0));
    let wrist = HUMANOID.particle_index("wrist_l").unwrap();
    let ankle = HUMANOID.particle_index("ankle_r").unwrap();
    r.pin(wrist);
    r.pin(ankle);
    r.apply_impulse(HUMANOID.particle_index("head").unwrap(), v(0.0, 0.0, 40.0));
    let (pw, pa) = (r.particles.position(wrist), r.particles.position(ankle));
    for frame in 0..600 {
        step_in_room(&mut r, &Settings::DEFAULT);
        assert_eq!(r.particles.position(wrist), pw, "frame {frame}");
        assert_eq!(r.particles.position(ankle), pa, "frame {frame}");
    }
    // Moving a pinned particle (the stylus) puts it exactly there, and on
    // release it keeps the velocity of its last move.
    let target = pw + v(0.0, 0.3, 0.0);
    r.move_pinned(wrist, target);
    r.step(&Settings::DEFAULT);
    assert_eq!(r.particles.position(wrist), target);
    r.move_pinned(wrist, target + v(0.05, 0.0, 0.0));
    r.unpin(wrist);
    let vel = r.particles.velocity(wrist);
    assert!((vel.x.to_f64() - 3.0).abs() < 0.01, "{vel:?}");
}

/// The cap's quick test (every component within half the cap: surely
/// inside) decides only moves the exact test would leave alone: moves on
/// a grid around that bound are clamped exactly when `|d|^2 > max^2`.
/// With the quick bound at the whole cap, a move of 0.6 of it along
/// every axis (1.04 of the cap) would escape the clamp.
#[test]
fn speed_cap_clamps_exactly_the_moves_over_it() {
    let s = Settings {
        max_speed: fx!(6.0),
        ..Settings::DEFAULT
    };
    let sp = StepParams::new(&s);
    let max = sp.max_disp.raw();
    let half = max / 2;
    let mut clamped = 0;
    for a in [half - 1, half, half + 1, max * 3 / 5, max - 1, max] {
        for b in [0, half, half + 1, max * 3 / 5] {
            for c in [-half - 1, -half, 0, max * 3 / 5] {
                let mut p = Particles::<16>::new();
                let x = Vec3::from_raw(1 << 12, 1 << 12, 1 << 12);
                p.push(x, Fx1::ONE, Fx1::ONE, fx!(0.05)).unwrap();
                let d = Vec3::from_raw(a, b, c);
                // 60 steps a second: this velocity is the move `d` exactly.
                p.set_velocity(0, Vec3::from_raw(a * 60, b * 60, c * 60));
                assert_eq!(p.position(0) - p.prev_positions()[0], d);
                p.clamp_velocities(&sp);
                let moved = p.position(0) - p.prev_positions()[0];
                let over = d.length_squared() > sp.max_disp2;
                if over {
                    clamped += 1;
                    assert!(
                        moved != d && moved.length_squared() <= sp.max_disp2,
                        "{d:?}"
                    );
                } else {
                    assert_eq!(moved, d, "{d:?} is within the cap");
                }
            }
        }
    }
    assert!(clamped > 10, "the grid should reach past the cap");
}

#[test]
fn speed_cap_is_respected() {
    let s = Settings {
        max_speed: fx!(5.0),
        gravity: Gravity::TowardsPoint(v(0.0, 3.0, 0.0)),
        gravity_strength: fx!(60.0),
        damping: Fx1::ONE,
        ..Settings::DEFAULT
    };
    let mut r = tumbling_humanoid(0.5, [10.0, 0.0, 20.0], [30.0, 10.0, 0.0]);
    let mut worst: f64 = 0.0;
    for frame in 0..600 {
        let before: Vec<Vec3> = r.positions().to_vec();
        step_in_room(&mut r, &s);
        assert!(
            r.max_speed() <= s.max_speed,
            "frame {frame}: {:?}",
            r.max_speed()
        );
        // The implied velocity is capped: |cur - prev| <= 5 m/s / 60.
        for i in 0..r.particles.len() {
            let d = dist(r.particles.position(i), r.particles.prev_positions()[i]);
            worst = worst.max(d * 60.0);
            assert!(
                d * 60.0 <= 5.0 + 1e-9,
                "frame {frame} particle {i}: {} m/s",
                d * 60.0
            );
        }
        let _ = before;
    }
    println!("fastest implied speed {worst:.4} m/s (cap 5)");
    assert!(worst > 4.5, "the test should reach the cap");
}

#[test]
fn free_fall_matches_gravity_and_damping() {
    // No constraints: one particle, gravity down, no damping: after 1 s,
    // v = -9.81 m/s and y = y0 - g t^2 / 2 (Verlet: - g dt^2 n(n+1)/2).
    let mut p = Particles::<1>::new();
    p.push(v(0.0, 100.0, 0.0), fx!(1.0), fx!(1.0), Fx1::ZERO)
        .unwrap();
    let s = Settings {
        damping: Fx1::ONE,
        max_speed: fx!(1000.0),
        ..Settings::DEFAULT
    };
    let sp = StepParams::new(&s);
    for _ in 0..60 {
        p.integrate(&sp);
    }
    let vy = p.velocity(0).y.to_f64();
    let y = p.position(0).y.to_f64();
    let exact_y = 100.0 - 9.81 / 3600.0 * 60.0 * 61.0 / 2.0;
    println!("after 1 s: v = {vy:.4} m/s (exact -9.81), y = {y:.5} (exact {exact_y:.5})");
    assert!((vy + 9.81).abs() < 0.015, "{vy}");
    assert!((y - exact_y).abs() < 0.001, "{y}");
    // Damping 0.9 per frame: terminal speed g / (60 * 0.1) = 1.635 m/s.
    let s = Settings {
        damping: fx!(0.9),
        ..s
    };
    let sp = StepParams::new(&s);
    for _ in 0..600 {
        p.integrate(&sp);
    }
    let vy = p.velocity(0).y.to_f64();
    let terminal = 9.81 / 60.0 / (1.0 - fx!(0.9).to_f64());
    println!("terminal speed {vy:.4} m/s (exact {terminal:.4})");
    assert!((vy + terminal).abs() < 0.01, "{vy}");
}

#[test]
fn gravity_towards_a_point_pulls_there() {
    let point = v(3.0, 2.0, -1.0);
    let s = Settings {
        gravity: Gravity::TowardsPoint(point),
        ..Settings::DEFAULT
    };
    let mut r: Ragdoll = Ragdoll::new(&HUMANOID, v(0.0, 0.0, 0.0));
    let d0 = dist(r.centre_of_mass(), point);
    for _ in 0..30 {
        r.step(&s);
    }
    let d1 = dist(r.centre_of_mass(), point);
    let vel = vf(r.com_velocity());
    let dir = vf(point - r.centre_of_mass());
    let cos = (vel[0] * dir[0] + vel[1] * dir[1] + vel[2] * dir[2])
        / (vel.iter().map(|c| c * c).sum::<f64>().sqrt()
            * dir.iter().map(|c| c * c).sum::<f64>().sqrt());
    println!("distance {d0:.3} -> {d1:.3}, velocity direction cos {cos:.4}");
    assert!(d1 < d0 - 0.5);
    assert!(cos > 0.99);
}

#[test]
fn impulses_and_velocities_move_the_previous_position() {
    let mut p = Particles::<2>::new();
    p.push(v(0.0, 0.0, 0.0), fx!(2.0), fx!(0.5), Fx1::ZERO)
        .unwrap();
    p.push(v(1.0, 0.0, 0.0), fx!(1.0), Fx1::ZERO, Fx1::ZERO)
        .unwrap();
    p.apply_impulse(0, v(6.0, 0.0, -3.0));
    let vel = vf(p.velocity(0));
    assert!(
        (vel[0] - 3.0).abs() < 0.02 && (vel[2] + 1.5).abs() < 0.02,
        "{vel:?}"
    );
    assert_eq!(p.position(0), v(0.0, 0.0, 0.0), "position unchanged");
    p.apply_impulse(1, v(6.0, 0.0, 0.0));
    assert_eq!(p.velocity(1), Vec3::ZERO, "pinned: no change");
    p.set_velocity(0, v(-2.0, 1.0, 0.5));
    let vel = vf(p.velocity(0));
    assert!(
        (vel[0] + 2.0).abs() < 0.02 && (vel[1] - 1.0).abs() < 0.02,
        "{vel:?}"
    );
    // Changing the substep count keeps the velocity in m/s.
    p.set_substeps(3);
    let vel3 = vf(p.velocity(0));
    assert!(
        (vel3[0] + 2.0).abs() < 0.05 && (vel3[2] - 0.5).abs() < 0.05,
        "{vel3:?}"
    );
}

#[test]
fn substeps_fall_the_same_as_one_step() {
    let run = |substeps: u8| {
        let s = Settings {
            substeps,
            damping: Fx1::ONE,
            ..Settings::DEFAULT
        };
        let mut r: Ragdoll = Ragdoll::new(&HUMANOID, v(0.0, 50.0, 0.0));
        for _ in 0..60 {
            r.step(&s);
        }
        (r.centre_of_mass().y.to_f64(), r.com_velocity().y.to_f64())
    };
    let (y1, v1) = run(1);
    let (y3, v3) = run(3);
    println!("1 substep: y {y1:.4} v {v1:.4}; 3 substeps: y {y3:.4} v {v3:.4}");
    assert!((v1 + 9.81).abs() < 0.05 && (v3 + 9.81).abs() < 0.05);
    assert!((y1 - y3).abs() < 0.1);
}

/// The solver works on Q20 positions within `POSITION_LIMIT` (256 m):
/// particles far beyond it are saturated there, with no overflow (the
/// debug build panics on one), and a stick there still converges; the
/// window's edges (a 2 m stick stretched 1.9x, one crushed to a point,
/// one pulled 500 m long) take the exact path without overflow.
#[test]
fn relaxation_saturates_at_its_position_limit() {
    use dsphys::verlet::POSITION_LIMIT;
    let lim = POSITION_LIMIT.to_f64();
    assert!((lim - 256.0).abs() < 0.001, "{lim}");
    let mut p = Particles::<16>::new();
    let pts = [
        v(-30000.0, 1.0, 1.0),
        v(-30000.0, 1.3, 1.0),
        v(30000.0, -30000.0, 30000.0),
        v(30000.0, -30000.0, 30000.0),
        v(0.0, 0.0, 0.0),
        v(3.8, 0.0, 0.0),
        v(-250.0, 0.0, 0.0),
        v(250.0, 0.0, 0.0),
    ];
    for &x in &pts {
        p.push(x, fx!(1.0), fx!(1.0), fx!(0.05)).unwrap();
    }
    let mut c = Constraints::<16>::new();
    for (a, len) in [(0u8, 0.5), (2, 0.3), (4, 2.0), (6, 1.0)] {
        c.push(&ConstraintDef::stick(a, a + 1, f(len)), p.inv_masses())
            .unwrap();
    }
    let (x, rem) = relaxed(&p, &mut c, 200);
    for (i, xi) in x[..pts.len()].iter().enumerate() {
        for (k, c) in vf(*xi).iter().enumerate() {
            assert!(c.abs() <= lim + 1e-3, "particle {i} axis {k}: {c}");
        }
    }
    // What rounding to FX1 left out is below half a step.
    for (i, r) in rem.iter().enumerate() {
        assert!(r.iter().all(|c| (-2048..2048).contains(c)), "{i}: {r:?}");
    }
    // Saturated onto the limit, the far pair is a stick again.
    let near = |a: usize, b: usize, len: f64| {
        let d = dist(x[a], x[b]);
        assert!((d - len).abs() < 0.002, "{a}-{b}: {d} m, not {len}");
    };
    near(0, 1, 0.5);
    near(4, 5, 2.0);
    near(6, 7, 1.0);
    // The coincident pair has no direction to push along: it stays put.
    assert_eq!(x[2], x[3]);
}

/// Links up to `MAX_LINK_LENGTH` (10 m): the passes compare squared
/// lengths as `i32` Q24 (128 m^2 at most), saturating a longer `|d|^2`
/// there. A 10 m stick stretched to 12 m and squeezed to 1 m, a 10 m
/// min-stick at 12 m (satisfied: no push) and at 6 m, and a range of
/// 9-10 m at 30 m all end where they should.
#[test]
fn links_at_the_length_limit_hold() {
    use dsphys::verlet::MAX_LINK_LENGTH;
    let top = MAX_LINK_LENGTH.to_f64();
    assert!((top - 10.0).abs() < 0.001, "{top}");
    let mut p = Particles::<16>::new();
    let lengths = [12.0, 1.0, 12.0, 6.0, 30.0];
    for (k, &len) in lengths.iter().enumerate() {
        let z = 3.0 * k as f64;
        p.push(v(-len / 2.0, 1.0, z), fx!(1.0), fx!(1.0), fx!(0.05))
            .unwrap();
        p.push(v(len / 2.0, 1.0, z), fx!(1.0), fx!(1.0), fx!(0.05))
            .unwrap();
    }
    let mut c = Constraints::<16>::new();
    let defs = [
        ConstraintDef::stick(0, 1, MAX_LINK_LENGTH),
        ConstraintDef::stick(2, 3, MAX_LINK_LENGTH),
        ConstraintDef::min_stick(4, 5, MAX_LINK_LENGTH),
        ConstraintDef::min_stick(6, 7, MAX_LINK_LENGTH),
        ConstraintDef::range(8, 9, f(9.0), MAX_LINK_LENGTH),
    ];
    for d in &defs {
        c.push(d, p.inv_masses()).unwrap();
    }
    let (x, _) = relaxed(&p, &mut c, 4);
    let len = |a: usize| dist(x[a], x[a + 1]);
    for (a, want) in [(0, 10.0), (2, 10.0), (4, 12.0), (6, 10.0), (8, 10.0)] {
        assert!(
            (len(a) - want).abs() < 0.002,
            "{a}-{}: {} m, not {want}",
            a + 1,
            len(a)
        );
    }
}
