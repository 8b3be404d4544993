//! Shared helpers for the verlet tests (included with `#[path]`).
#![allow(dead_code)]

use dsphys::fx;
use dsphys::fx::{Fx1, Vec3};
use dsphys::verlet::humanoid::HUMANOID;
use dsphys::verlet::{BoxRoom, ConstraintKind, Ragdoll, Settings};

pub fn v(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(f(x), f(y), f(z))
}

/// Float to FX1 (tests only).
pub fn f(x: f64) -> Fx1 {
    Fx1::from_raw((x * 4096.0).round() as i32)
}

pub fn vf(p: Vec3) -> [f64; 3] {
    [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
}

pub fn dist(a: Vec3, b: Vec3) -> f64 {
    let (a, b) = (vf(a), vf(b));
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The room of the tests: 8 x 6 x 8 m, floor at y = 0.
pub const ROOM: BoxRoom = BoxRoom::new(
    Vec3::new(fx!(-4.0), fx!(0.0), fx!(-4.0)),
    Vec3::new(fx!(4.0), fx!(6.0), fx!(4.0)),
    fx!(0.3),
);

/// The humanoid with its feet at `y`, spinning at `omega` (rad/s) about
/// its centre of mass and moving at `vel` (m/s).
pub fn tumbling_humanoid(y: f64, omega: [f64; 3], vel: [f64; 3]) -> Ragdoll {
    let mut r: Ragdoll = Ragdoll::new(&HUMANOID, v(0.0, y, 0.0));
    let c = vf(r.centre_of_mass());
    for i in 0..r.particles.len() {
        let p = vf(r.particles.position(i));
        let d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
        let w = omega;
        let u = [
            w[1] * d[2] - w[2] * d[1] + vel[0],
            w[2] * d[0] - w[0] * d[2] + vel[1],
            w[0] * d[1] - w[1] * d[0] + vel[2],
        ];
        r.set_velocity(i, v(u[0], u[1], u[2]));
    }
    r
}

/// Mean and max relative length error of the sticks, and the largest
/// violation of ranges/min-sticks relative to their bound.
pub fn stick_errors(r: &Ragdoll) -> (f64, f64) {
    let x = r.positions();
    let mut sum = 0.0;
    let mut max: f64 = 0.0;
    let mut n = 0;
    for (l, d) in r.constraints.links().iter().zip(HUMANOID.constraints) {
        if d.kind != ConstraintKind::Stick {
            continue;
        }
        let rest = l.min.to_f64();
        let e = (dist(x[l.a as usize], x[l.b as usize]) - rest).abs() / rest;
        sum += e;
        max = max.max(e);
        n += 1;
    }
    (sum / n as f64, max)
}

/// Total energy in joules: kinetic (the engine's measure) plus potential
/// `m g y` for gravity down.
pub fn total_energy(r: &Ragdoll, s: &Settings) -> f64 {
    let g = s.gravity_strength.to_f64();
    let pe: f64 = r
        .positions()
        .iter()
        .zip(r.particles.masses())
        .map(|(p, m)| m.to_f64() * g * p.y.to_f64())
        .sum();
    r.kinetic_energy().to_f64() + pe
}

/// Checks that every sphere of `r` lies inside [`ROOM`]: on each axis
/// its centre is at least its radius from both walls. With collision
/// last (the default budget) this holds exactly after every frame: the
/// room's `collide` is the frame's last move of a free particle.
pub fn assert_inside_room(r: &Ragdoll, frame: u32) {
    let (lo, hi) = (ROOM.min.to_array(), ROOM.max.to_array());
    for (i, (p, &rad)) in r.positions().iter().zip(r.particles.radii()).enumerate() {
        for (axis, c) in p.to_array().into_iter().enumerate() {
            assert!(
                c >= lo[axis] + rad && c <= hi[axis] - rad,
                "frame {frame}: particle {i} at {:?} (radius {}) is outside the room on axis {axis}",
                vf(*p),
                rad.to_f64()
            );
        }
    }
}

/// One frame in the room.
pub fn step_in_room(r: &mut Ragdoll, s: &Settings) {
    r.step_with(s, |_, prev, cur, rad| ROOM.collide(prev, cur, rad));
}
