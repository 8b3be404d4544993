//! The brad matrices (seed 004): orthonormal and right-handed over many
//! random particle configurations, nearly degenerate ones included; what
//! happens when A and the goal are parallel; and the round trip: with the
//! particles on the animated joints, the brads give back the animation's
//! model-space matrices.
//!
//! Measured (`cargo test --test anim_brads -- --nocapture`): over 24,000
//! random cases (all 24 axis pairs, a third of them within 2° of
//! degenerate, a third pairs of a few mm) columns are unit within 3 FX1
//! steps and orthogonal within 1 step, the determinant is 1 within 6
//! steps, and each column is the cross product of the other two within 3
//! steps; the round trip within 2 steps per entry in the bind pose and 6
//! steps (0.08°) over 48 frames each of walk and run.

#[path = "anim_support.rs"]
mod support;

use dsphys::anim::brad::{brad_rotation, DEGENERATE_SIN, ORTHONORMAL_TOL};
use dsphys::anim::humanoid::{HUMANOID, HUMANOID_RUN, HUMANOID_WALK};
use dsphys::anim::humanoid_brads::HUMANOID as BRADS;
use dsphys::anim::{particle_targets, Axis, BradDef, BradTable};
use dsphys::fx::{Fx1, Mat3, Mat4x3, Quat, Vec3};
use support::*;

/// Worst deviations from orthonormal, in FX1 steps:
/// (|col|^2 - 1, col_i . col_j, det - 1, (c_k+1 x c_k+2) - c_k).
fn orthonormality(m: &Mat3) -> [i64; 4] {
    let step2 = |v: dsphys::fx::Fx2| v.raw() as f64 / 4096.0 / 4096.0 * 4096.0;
    let mut w = [0.0f64; 4];
    for i in 0..3 {
        // |c|^2 - 1 ~ 2 (|c| - 1): half of it in steps.
        w[0] = w[0].max((step2(m.cols[i].length_squared()) - 4096.0).abs() / 2.0);
        for j in i + 1..3 {
            w[1] = w[1].max(step2(m.cols[i].dot(m.cols[j])).abs());
        }
        let c = m.cols[(i + 1) % 3].cross(m.cols[(i + 2) % 3]).lower();
        w[3] = w[3].max(vec_diff(c, m.cols[i]) as f64);
    }
    let det = m.determinant().raw() as f64 / (1u64 << 36) as f64;
    w[2] = ((det - 1.0) * 4096.0).abs();
    w.map(|x| x.ceil() as i64)
}

fn def(axis_a: Axis, axis_b: Axis) -> BradDef {
    BradDef {
        joint: 0,
        particle: 0,
        a: [0, 1],
        b: [2, 3],
        axis_a,
        axis_b,
    }
}

#[test]
fn random_brads_are_orthonormal_and_right_handed() {
    let mut rng = Rng(0xB4AD_5EED);
    let mut worst = [0i64; 4];
    let mut cases = 0;
    for axis_a in Axis::ALL {
        for axis_b in Axis::ALL
            .into_iter()
            .filter(|b| b.index() != axis_a.index())
        {
            let d = def(axis_a, axis_b);
            for k in 0..1000 {
                let p0 = rng.point(3.0);
                let a = rng.point(1.0);
                let goal = match k % 3 {
                    0 => rng.point(1.0),
                    // Nearly parallel: within about 2° of A (either way).
                    1 => {
                        let s = rng.range(-2.0, 2.0);
                        let off = rng.point(0.035 * a.length().to_f64().max(0.01));
                        a.scale(Fx1::from_raw((s * 4096.0) as i32)) + off
                    }
                    // Short pairs (a few mm to a few cm).
                    _ => rng.point(0.02),
                };
                let x = [p0, p0 + a, p0, p0 + goal];
                let last = rng.quat().to_mat3();
                let m = brad_rotation(&d, &x, &last);
                let w = orthonormality(&m);
                for i in 0..4 {
                    worst[i] = worst[i].max(w[i]);
                }
                cases += 1;
            }
        }
    }
    println!(
        "{cases} random brads: |col| {} steps, dot {} steps, det {} steps, cross {} steps",
        worst[0], worst[1], worst[2], worst[3]
    );
    assert!(
        worst[0] <= ORTHONORMAL_TOL && worst[1] <= ORTHONORMAL_TOL,
        "{worst:?}"
    );
    assert!(
        worst[3] <= ORTHONORMAL_TOL && worst[2] <= 3 * ORTHONORMAL_TOL,
        "{worst:?}"
    );
}

#[test]
fn the_a_axis_and_the_goal_side_are_kept() {
    let mut rng = Rng(77);
    for _ in 0..2000 {
        let d = def(Axis::NegZ, Axis::PosX);
        let (a, goal) = (rng.point(1.0), rng.point(1.0));
        let x = [Vec3::ZERO, a, Vec3::ZERO, goal];
        let m = brad_rotation(&d, &x, &Mat3::IDENTITY);
        // -z is along A; +x is on the goal's side of A.
        let a_col = -m.cols[2];
        let (af, aa) = (
            a.to_array().map(|c| c.to_f64()),
            a_col.to_array().map(|c| c.to_f64()),
        );
        let la = (af[0] * af[0] + af[1] * af[1] + af[2] * af[2]).sqrt();
        if la < 0.05 {
            continue;
        }
        for i in 0..3 {
            assert!((af[i] / la - aa[i]).abs() < 3e-3, "{af:?} {aa:?}");
        }
        assert!(m.cols[0].dot(goal).raw() >= 0);
    }
}

#[test]
fn parallel_goal_keeps_the_last_b_axis() {
    let d = def(Axis::PosY, Axis::PosX);
    // A along +y, goal exactly along A: B comes from the last matrix.
    let last = Quat::from_axis_angle(Vec3::Y, dsphys::fx::Angle::from_raw(0x1800)).to_mat3();
    let x = [Vec3::ZERO, Vec3::Y, Vec3::ZERO, Vec3::Y.scale_int(3)];
    let m = brad_rotation(&d, &x, &last);
    assert!(mat_diff(&m, &last) <= 2, "{m:?} vs {last:?}");
    // Sweeping the goal through A: B never flips (it turns by at most a
    // few degrees between neighbouring goals).
    let mut prev = Mat3::IDENTITY;
    let mut last_m = Mat3::IDENTITY;
    for k in -200..=200 {
        // Goal 0.3 m along A with a sideways part from -2 cm to +2 cm in z
        // (the goal crosses A; |angle| < 4°).
        let goal = Vec3::new(Fx1::ZERO, Fx1::from_raw(1229), Fx1::from_raw(k * 82 / 20));
        let x = [Vec3::ZERO, Vec3::Y, Vec3::ZERO, goal];
        let m = brad_rotation(&d, &x, &last_m);
        if k > -200 {
            let turn = mat_diff(&m, &prev) as f64 / 4096.0;
            // Inside the degenerate band B is held; outside it follows
            // the goal, whose side flips only where the goal crosses A.
            assert!(
                turn < 0.05 || k.abs() <= 2 * DEGENERATE_SIN.raw(),
                "k {k}: turned {turn}"
            );
        }
        prev = m;
        last_m = m;
    }
    // Last B parallel too (A turned 90° in one frame): still a rotation.
    let last = Mat3::from_cols(Vec3::Y, -Vec3::X, Vec3::Z);
    let m = brad_rotation(&d, &x_of(Vec3::Y, Vec3::Y), &last);
    assert!(orthonormality(&m).iter().all(|&e| e <= 3 * ORTHONORMAL_TOL));
    assert_eq!(m.cols[1], Vec3::Y);
    // Zero-length A: the last A is kept.
    let m = brad_rotation(&d, &x_of(Vec3::ZERO, Vec3::X), &last);
    assert_eq!(m.cols[1], last.cols[1]);
    assert!(orthonormality(&m).iter().all(|&e| e <= 3 * ORTHONORMAL_TOL));
}

fn x_of(a: Vec3, goal: Vec3) -> [Vec3; 4] {
    [Vec3::ZERO, a, Vec3::ZERO, goal]
}

/// Places the particles on the animated joints, builds the brads, and
/// returns the worst entry difference from the animation's matrices.
fn round_trip(model: &[Mat4x3]) -> (i64, i64) {
    let mut x = [Vec3::ZERO; 16];
    particle_targets(BRADS.brads, model, &mut x);
    let mut table: BradTable = BradTable::new(&BRADS);
    table.build(&x);
    let (mut rot, mut pos) = (0, 0);
    for (d, m) in table.defs().iter().zip(table.matrices()) {
        let want = &model[d.joint as usize];
        rot = rot.max(mat_diff(&m.rot, &want.rot));
        pos = pos.max(vec_diff(m.trans, want.trans));
    }
    (rot, pos)
}

#[test]
fn brads_reproduce_the_animation() {
    let place = Mat4x3::new(
        Quat::from_axis_angle(Vec3::Y, dsphys::fx::Angle::from_raw(0x2345)).to_mat3(),
        Vec3::from_raw(4096, 0, -8192),
    );
    let mut bind_model = [Mat4x3::IDENTITY; dsphys::anim::MAX_JOINTS];
    dsphys::anim::expand(
        HUMANOID.parents,
        HUMANOID.bind_pose,
        &Mat4x3::IDENTITY,
        0,
        &mut bind_model[..HUMANOID.len()],
    );
    let (r, p) = round_trip(&bind_model);
    println!("bind pose: rotations within {r} steps, positions {p}");
    assert!(r <= 4 && p == 0, "bind pose: {r} / {p} steps");
    let mut worst = 0;
    for clip in [&HUMANOID_WALK, &HUMANOID_RUN] {
        for k in 0..48 {
            let (_, model) = posed(clip, secs(k as f64 * 0.0211), &place);
            let (r, p) = round_trip(&model);
            assert_eq!(p, 0, "positions are the particles");
            worst = worst.max(r);
        }
    }
    println!(
        "walk and run frames: rotations within {worst} steps ({:.3} deg)",
        (worst as f64 / 4096.0).asin().to_degrees()
    );
    assert!(worst <= 10, "{worst} steps");
}

/// A hand takes its forearm's rotation and a foot its shin's
/// (`BradTable::is_twin`): the same bits as building each brad alone,
/// frame after frame, through degenerate poses (a wrist on its elbow, a
/// limb along its goal) and pairs beyond the 8 m clamp (which the kernel
/// leaves to the engine), including a first frame where each twin's last
/// matrix is unrelated to its source's, so that it must fall back to its
/// own.
#[test]
fn twins_give_the_bits_of_brads_built_alone() {
    let mut rng = Rng(0x7A1_5EED);
    let (mut regular, mut degenerate) = (0, 0);
    for trial in 0..400 {
        let mut table: BradTable = BradTable::new(&BRADS);
        let twins: Vec<usize> = (0..table.len()).filter(|&k| table.is_twin(k)).collect();
        assert_eq!(twins.len(), 4, "the hands and the feet");
        for &k in &twins {
            table.set_rotation(k, rng.quat().to_mat3());
        }
        let mut alone: Vec<Mat3> = table.matrices().map(|m| m.rot).collect();
        for frame in 0..10 {
            let mut x: Vec<Vec3> = (0..16).map(|_| rng.point(1.0)).collect();
            // Put one particle on another, on the line of two others, or
            // 12 m away.
            let mut pick = || (rng.next_u64() % 16) as usize;
            match (trial + frame) % 4 {
                0 => {
                    let (i, j) = (pick(), pick());
                    x[i] = x[j];
                }
                1 => {
                    let (i, j, k) = (pick(), pick(), pick());
                    x[i] = x[j] + (x[j] - x[k]);
                }
                2 => {
                    let i = pick();
                    x[i] += Vec3::from_raw(12 << 12, 0, -(12 << 12));
                }
                _ => {}
            }
            for (d, last) in table.defs().iter().zip(alone.iter_mut()) {
                *last = brad_rotation(d, &x, last);
            }
            table.build(&x);
            for (k, ((d, m), want)) in table
                .defs()
                .iter()
                .zip(table.matrices())
                .zip(&alone)
                .enumerate()
            {
                assert_eq!(m.rot, *want, "trial {trial}, frame {frame}, brad {k}");
                assert_eq!(m.trans, x[d.particle as usize]);
            }
            for &k in &twins {
                let t = &table.defs()[k - 1];
                if x[t.a[1] as usize] == x[t.a[0] as usize] {
                    degenerate += 1;
                } else {
                    regular += 1;
                }
            }
        }
    }
    println!("twins: {regular} regular, {degenerate} with a zero A");
    assert!(degenerate > 0 && regular > 0);
}
