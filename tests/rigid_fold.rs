//! Seed 002's level of detail: the composite body is the exact sum of its
//! members, folding moves nothing, a folded figure stands still, and a
//! strike unfolds it.

#![allow(clippy::needless_range_loop)] // 3x3 index arithmetic reads best as loops

use dsphys::fx::{Angle, Fx1, Fx2, Quat, Vec3};
use dsphys::rigid::body::Body;
use dsphys::rigid::characters::powered::PoweredRagdoll;
use dsphys::rigid::composite::composite;
use dsphys::xorshift::XorShift32;

fn fx(x: f64) -> Fx1 {
    Fx1::from_raw((x * 4096.0).round() as i32)
}

/// Random boxes, turned and moving.
fn boxes(seed: u32, n: usize) -> Vec<Body> {
    let mut rng = XorShift32::new(seed);
    let mut u = |lo: f64, hi: f64| lo + (hi - lo) * (rng.below(10_000) as f64 / 10_000.0);
    (0..n)
        .map(|_| {
            let half = Vec3::new(fx(u(0.03, 0.2)), fx(u(0.03, 0.2)), fx(u(0.03, 0.2)));
            let axis = Vec3::new(fx(u(-1.0, 1.0)), fx(u(-1.0, 1.0)), fx(u(0.1, 1.0))).normalise();
            let rot = Quat::from_axis_angle(axis, Angle::from_radians(fx(u(-3.0, 3.0))));
            let pos = Vec3::new(fx(u(-0.5, 0.5)), fx(u(0.0, 1.8)), fx(u(-0.3, 0.3)));
            let mut b = Body::new_box(half, fx(u(1.0, 20.0)), pos, rot);
            b.vel = Vec3::new(fx(u(-2.0, 2.0)), fx(u(-2.0, 2.0)), fx(u(-2.0, 2.0))).raise();
            b.spin = Vec3::new(fx(u(-3.0, 3.0)), fx(u(-3.0, 3.0)), fx(u(-3.0, 3.0))).raise();
            b
        })
        .collect()
}

fn f3(v: Vec3<Fx2>) -> [f64; 3] {
    v.to_array().map(|c| c.to_f64())
}

/// The inertia tensor about `c` and the angular momentum, in f64.
fn reference(bodies: &[Body], c: [f64; 3], v: [f64; 3]) -> ([[f64; 3]; 3], [f64; 3]) {
    let mut t = [[0.0; 3]; 3];
    let mut l = [0.0; 3];
    for b in bodies {
        let r: [[f64; 3]; 3] =
            std::array::from_fn(|i| std::array::from_fn(|j| b.mat.at(i, j).to_f64()));
        let i_body = b.inertia.to_array().map(|x| x.to_f64());
        let m = b.mass.to_f64();
        let p = f3(b.pos);
        let d = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
        let dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        let mut own = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                own[i][j] = (0..3).map(|k| r[i][k] * i_body[k] * r[j][k]).sum::<f64>();
                t[i][j] += own[i][j] + m * (if i == j { dd } else { 0.0 } - d[i] * d[j]);
            }
        }
        let w = f3(b.spin);
        let bv = f3(b.vel);
        let rel = [bv[0] - v[0], bv[1] - v[1], bv[2] - v[2]];
        for i in 0..3 {
            l[i] += (0..3).map(|k| own[i][k] * w[k]).sum::<f64>();
        }
        let (x, y, z) = (
            d[1] * rel[2] - d[2] * rel[1],
            d[2] * rel[0] - d[0] * rel[2],
            d[0] * rel[1] - d[1] * rel[0],
        );
        l[0] += m * x;
        l[1] += m * y;
        l[2] += m * z;
    }
    (t, l)
}

#[test]
fn a_composite_is_the_exact_sum_of_its_members() {
    for seed in 1..=20u32 {
        let bodies = boxes(seed, 2 + seed as usize % 12);
        let members = (1u32 << bodies.len()) - 1;
        let c = composite(&bodies, members, None).expect("a composite");
        let mass: f64 = bodies.iter().map(|b| b.mass.to_f64()).sum();
        assert!((c.mass.to_f64() - mass).abs() < 1e-3, "seed {seed}");
        let centre = f3(c.pos);
        let vel = f3(c.vel);
        for k in 0..3 {
            let x: f64 = bodies
                .iter()
                .map(|b| b.mass.to_f64() * f3(b.pos)[k])
                .sum::<f64>()
                / mass;
            let v: f64 = bodies
                .iter()
                .map(|b| b.mass.to_f64() * f3(b.vel)[k])
                .sum::<f64>()
                / mass;
            assert!((centre[k] - x).abs() < 1e-4, "seed {seed}: centre");
            assert!((vel[k] - v).abs() < 1e-4, "seed {seed}: velocity");
        }
        let (t, l) = reference(&bodies, centre, vel);
        // The inverse times the tensor is the identity (FX1's rounding).
        let inv: [[f64; 3]; 3] =
            std::array::from_fn(|i| std::array::from_fn(|j| c.inv_inertia_world.at(i, j).to_f64()));
        for i in 0..3 {
            for j in 0..3 {
                let p: f64 = (0..3).map(|k| inv[i][k] * t[k][j]).sum();
                let want = if i == j { 1.0 } else { 0.0 };
                assert!(
                    (p - want).abs() < 0.01,
                    "seed {seed}: I^-1 I [{i}][{j}] = {p}"
                );
            }
        }
        // Angular momentum kept: I w = L, to 1 % of |L|.
        let w = f3(c.spin);
        let lmag = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
        for i in 0..3 {
            let iw: f64 = (0..3).map(|k| t[i][k] * w[k]).sum();
            assert!(
                (iw - l[i]).abs() < 0.01 * lmag + 1e-3,
                "seed {seed}: L[{i}] {iw} against {}",
                l[i]
            );
        }
    }
}

#[test]
fn a_composite_refuses_a_static_member_or_too_far_a_reach() {
    let mut bodies = boxes(7, 3);
    assert!(composite(&bodies, 0, None).is_none(), "empty");
    bodies[1].pos.x = Fx2::from_int(10);
    assert!(composite(&bodies, 0b111, None).is_none(), "reach");
    let still = Body::new_box(
        Vec3::new(Fx1::ONE, Fx1::ONE, Fx1::ONE),
        Fx1::ZERO,
        Vec3::ZERO,
        Quat::IDENTITY,
    );
    let mut with_static = boxes(7, 2);
    with_static.push(still);
    assert!(composite(&with_static, 0b111, None).is_none(), "static");
}

/// Steps until it folds (it stands quiet after about a second).
fn folded_figure() -> PoweredRagdoll {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    for _ in 0..300 {
        r.step();
        if r.is_folded() {
            return r;
        }
    }
    panic!("never folded in 5 s of standing");
}

#[test]
fn folding_moves_nothing_and_a_folded_figure_stands_still() {
    let mut r = folded_figure();
    let start: Vec<[f64; 3]> = r.bodies().iter().map(|b| f3(b.pos)).collect();
    let centre = r.world.centre_of_mass();
    // The step it folded on placed every body by the fold: nothing jumped.
    let mut worst_creep = 0.0f64;
    for _ in 0..300 {
        r.step();
        assert!(r.is_folded(), "unfolded while standing");
        let c = r.world.centre_of_mass() - centre;
        worst_creep = worst_creep.max(c.x.to_f64().hypot(c.z.to_f64()));
    }
    // The arms and head still follow the idle pose; the legs and pelvis
    // hold still.
    let moved: Vec<f64> = r
        .bodies()
        .iter()
        .zip(&start)
        .map(|(b, s)| {
            let p = f3(b.pos);
            ((p[0] - s[0]).powi(2) + (p[1] - s[1]).powi(2) + (p[2] - s[2]).powi(2)).sqrt()
        })
        .collect();
    println!("centre of mass creep {worst_creep:.4} m; bodies moved {moved:.3?}");
    assert!(
        worst_creep < 0.01,
        "the folded figure crept {worst_creep} m in 5 s"
    );
    for i in [0usize, 7, 8, 9, 10, 11, 12] {
        assert!(moved[i] < 0.01, "body {i} moved {} m", moved[i]);
    }
    assert!(r.world.max_joint_drift() < fx(0.02));
}

#[test]
fn a_strike_unfolds_it_and_it_reels() {
    let mut r = folded_figure();
    let chest = r.bodies()[1].position();
    r.apply_impulse(1, chest, Vec3::new(Fx1::ZERO, Fx1::ZERO, Fx1::from_int(30)));
    assert!(!r.is_folded());
    let before = r.bodies()[1].position();
    for _ in 0..10 {
        r.step();
        assert!(!r.is_folded(), "folded again while reeling");
    }
    let moved = (r.bodies()[1].position() - before).z;
    println!(
        "the chest moved {:.3} m in the 10 frames after the strike",
        moved.to_f64()
    );
    assert!(moved > fx(0.02));
}

#[test]
fn the_level_of_detail_off_never_folds() {
    let mut r = PoweredRagdoll::new(Vec3::ZERO);
    r.lod = false;
    for _ in 0..300 {
        r.step();
        assert!(!r.is_folded());
    }
}

/// A body hit directly (`Body::apply_impulse`, not through the
/// character) while folded: the fold sees the changed velocity, sums
/// the composite afresh and unfolds.
#[test]
fn a_body_hit_directly_while_folded_unfolds_it_too() {
    let mut r = folded_figure();
    r.step();
    assert!(r.is_folded());
    let before = r.bodies()[2].position();
    let head = &mut r.world.bodies_mut()[2];
    head.apply_impulse(
        Vec3::ZERO,
        Vec3::new(Fx1::ZERO, Fx1::ZERO, Fx1::from_int(30)).raise(),
    );
    r.step();
    assert!(!r.is_folded(), "the hit was lost in the fold");
    for _ in 0..5 {
        r.step();
    }
    assert!((r.bodies()[2].position() - before).z > fx(0.05));
}

/// Folded and calm for half a second, it rests: the legs and pelvis stay
/// exactly where they are, the arms and head still follow the idle pose,
/// and a strike wakes and unfolds it.
#[test]
fn a_calm_folded_figure_rests_and_still_moves_its_arms() {
    let mut r = folded_figure();
    let rest = (0..300).find(|_| {
        r.step();
        r.is_resting()
    });
    println!("resting after {rest:?} frames");
    assert!(rest.is_some(), "never came to rest");
    let legs: Vec<Vec3<Fx2>> = r.bodies()[7..].iter().map(|b| b.pos).collect();
    let arm = r.bodies()[4].position();
    for _ in 0..30 {
        r.step();
        assert!(r.is_resting());
    }
    let still: Vec<Vec3<Fx2>> = r.bodies()[7..].iter().map(|b| b.pos).collect();
    assert_eq!(legs, still, "the legs moved while resting");
    let swing = (r.bodies()[4].position() - arm).length();
    println!(
        "the left forearm moved {:.3} m in 0.5 s of rest",
        swing.to_f64()
    );
    assert!(swing > fx(0.01), "the arms stopped following the pose");
    let head = r.bodies()[2].position();
    r.apply_impulse(2, head, Vec3::new(Fx1::ZERO, Fx1::ZERO, Fx1::from_int(30)));
    r.step();
    assert!(!r.is_folded() && !r.is_resting());
}
