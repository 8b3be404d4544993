//! A sphere pressed into an acute crevice uses up its contacts each step
//! (each projection along one face drives it into the other). The
//! response then stops it where it touches, and its velocity with it:
//! a velocity the position never follows would be a phantom speed that
//! keeps a resting ragdoll awake (`assetc check` on the sample world
//! `slope_corner.obj` left one of eight drops at 0.1 m/s for ever).

#[path = "collision_support.rs"]
mod support;

use dsphys::collision::{collide_particle, Triangle};
use dsphys::fx::{Fx1, Vec3};
use support::{fx, one_leaf_world, p};

/// A V-shaped groove along z, its faces `slope` degrees off level,
/// facing up into the groove.
fn groove(slope: f64) -> Vec<Triangle> {
    let (c, s) = (slope.to_radians().cos(), slope.to_radians().sin());
    let mut out = Vec::new();
    for side in [1.0, -1.0] {
        let (a, b) = (p(0.0, 0.0, -1.0), p(0.0, 0.0, 1.0));
        let (d, e) = (p(side * c, s, -1.0), p(side * c, s, 1.0));
        // Wound so that the normal points into the groove.
        let (t0, t1) = if side > 0.0 {
            (Triangle::new(a, b, e), Triangle::new(a, e, d))
        } else {
            (Triangle::new(a, e, b), Triangle::new(a, d, e))
        };
        out.push(t0.expect("triangle"));
        out.push(t1.expect("triangle"));
    }
    out
}

/// A sphere dropped into the groove, stepped as a Verlet particle under
/// gravity for 5 s: the largest speed of its last second (m/s, from
/// `cur - prev`) and how far it moved in that second (m).
fn settle(slope: f64, friction: Fx1, start: Vec3, kick: Vec3) -> (f64, f64) {
    let tris = groove(slope);
    for t in &tris {
        assert!(t.normal().y > Fx1::ZERO, "a face of the groove faces down");
    }
    let world = one_leaf_world(&tris);
    let r = fx(0.05);
    let gravity = p(0.0, -9.81 / 3600.0, 0.0); // a step's worth, m per step^2
    let (mut prev, mut cur) = (start - kick, start);
    let (mut fastest, mut second_ago) = (0.0f64, Vec3::ZERO);
    for step in 0..300 {
        let next = cur + (cur - prev) + gravity;
        prev = cur;
        cur = next;
        collide_particle(&world, &mut prev, &mut cur, r, friction);
        if step == 239 {
            second_ago = cur;
        }
        if step >= 240 {
            fastest = fastest.max((cur - prev).length().to_f64() * 60.0);
        }
    }
    (fastest, (cur - second_ago).length().to_f64())
}

#[test]
fn a_sphere_in_an_acute_crevice_comes_to_rest() {
    let mut worst: (f64, f64) = (0.0, 0.0);
    for slope in [50.0, 60.0, 70.0] {
        for friction in [Fx1::ZERO, fx(0.5)] {
            for k in 0..4 {
                let start = p(0.01 * k as f64 - 0.015, 0.4, 0.1 * k as f64);
                let kick = p(0.002 * k as f64 - 0.003, 0.0, 0.0);
                let (fastest, moved) = settle(slope, friction, start, kick);
                worst = (worst.0.max(fastest), worst.1.max(moved));
            }
        }
    }
    println!(
        "in the last second: fastest {:.4} m/s, moved {:.5} m",
        worst.0, worst.1
    );
    // At rest: slower than a single FX1 step a frame (0.0146 m/s), and it
    // stays put.
    assert!(worst.0 < 0.0146, "a phantom speed of {:.4} m/s", worst.0);
    assert!(worst.1 < 0.001, "crept {:.4} m", worst.1);
}
