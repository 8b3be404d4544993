//! Expanding a pose (local to model space) then reading it back gives the
//! local transforms again; the skinning palette of the bind pose is the
//! identity. Measured (this file, `--nocapture`): read-back rotations
//! within 2.3e-3 rad, translations within 5 FX1 steps (1.2 mm: a rotation
//! 8 products deep is orthonormal only to a few steps), over the bind
//! pose, 64 frames of each clip and 2000 random poses; bind palette
//! within 2 steps of the identity.

#[path = "anim_support.rs"]
mod support;

use dsphys::anim::humanoid::{HUMANOID, HUMANOID_IDLE, HUMANOID_RUN, HUMANOID_WALK};
use dsphys::anim::{expand, local_from_model, skinning_palette, JointPose, MAX_JOINTS};
use dsphys::fx::{Mat3, Mat4x3, Quat, Vec3};
use support::*;

/// Rotation read-back bound (rad): the model matrices are rounded to FX1
/// (2.4e-4 per entry) and compound down the chain; the read-back divides
/// by the matrix's quaternion's largest component.
const ROT_TOL: f64 = 3e-3;
/// Translation read-back bound, FX1 steps (measured 5).
const TRANS_TOL: i64 = 6;

/// Expands `local`, reads it back, returns the worst (angle, steps).
fn round_trip(local: &[JointPose], placement: &Mat4x3) -> (f64, i64) {
    let n = HUMANOID.len();
    let mut model = [Mat4x3::IDENTITY; MAX_JOINTS];
    let mut back = [JointPose::IDENTITY; MAX_JOINTS];
    expand(HUMANOID.parents, &local[..n], placement, 0, &mut model[..n]);
    local_from_model(HUMANOID.parents, &model[..n], placement, &mut back[..n]);
    let mut worst = (0.0f64, 0i64);
    for i in 0..n {
        worst.0 = worst.0.max(quat_angle(local[i].rot, back[i].rot));
        worst.1 = worst.1.max(vec_diff(local[i].trans, back[i].trans));
    }
    worst
}

#[test]
fn expand_then_read_back_gives_the_local_pose() {
    let placements = [
        Mat4x3::IDENTITY,
        Mat4x3::new(
            Quat::from_axis_angle(Vec3::Y, dsphys::fx::Angle::from_raw(0x3000)).to_mat3(),
            Vec3::from_raw(8192, 0, -12000),
        ),
    ];
    let mut worst = (0.0f64, 0i64);
    let mut take = |w: (f64, i64)| {
        worst.0 = worst.0.max(w.0);
        worst.1 = worst.1.max(w.1);
    };
    for p in &placements {
        take(round_trip(HUMANOID.bind_pose, p));
        for clip in [&HUMANOID_IDLE, &HUMANOID_WALK, &HUMANOID_RUN] {
            for k in 0..64 {
                let (local, _) = posed(clip, secs(k as f64 * 0.031), p);
                take(round_trip(&local, p));
            }
        }
    }
    // Random poses: every joint turned at random (translations kept).
    let mut rng = Rng(0x5EED_A11A);
    for _ in 0..2000 {
        let mut local = [JointPose::IDENTITY; MAX_JOINTS];
        for (i, l) in local.iter_mut().take(HUMANOID.len()).enumerate() {
            *l = JointPose::new(rng.quat(), HUMANOID.bind_pose[i].trans);
        }
        take(round_trip(&local, &placements[1]));
    }
    println!("read-back worst: {:.2e} rad, {} steps", worst.0, worst.1);
    assert!(worst.0 < ROT_TOL, "rotation {:.2e} rad", worst.0);
    assert!(worst.1 <= TRANS_TOL, "translation {} steps", worst.1);
}

#[test]
fn bind_pose_palette_is_the_identity() {
    let n = HUMANOID.len();
    let mut model = [Mat4x3::IDENTITY; MAX_JOINTS];
    let mut palette = [Mat4x3::IDENTITY; MAX_JOINTS];
    expand(
        HUMANOID.parents,
        HUMANOID.bind_pose,
        &Mat4x3::IDENTITY,
        0,
        &mut model[..n],
    );
    skinning_palette(&model[..n], HUMANOID.inverse_bind, &mut palette[..n]);
    let mut worst = 0;
    for m in &palette[..n] {
        worst = worst
            .max(mat_diff(&m.rot, &Mat3::IDENTITY))
            .max(vec_diff(m.trans, Vec3::ZERO));
    }
    println!("bind palette: within {worst} steps of the identity");
    assert!(worst <= 3, "{worst} steps");
}

#[test]
fn given_joints_keep_their_matrix_and_children_follow() {
    let n = HUMANOID.len();
    let mut model = [Mat4x3::IDENTITY; MAX_JOINTS];
    expand(
        HUMANOID.parents,
        HUMANOID.bind_pose,
        &Mat4x3::IDENTITY,
        0,
        &mut model[..n],
    );
    let forearm = HUMANOID.joint_index("forearm_l").unwrap();
    let hand = HUMANOID.joint_index("hand_l").unwrap();
    let lifted = Mat4x3::new(Mat3::IDENTITY, Vec3::from_raw(1000, 9000, 2000));
    let mut m2 = model;
    m2[forearm] = lifted;
    expand(
        HUMANOID.parents,
        HUMANOID.bind_pose,
        &Mat4x3::IDENTITY,
        1 << forearm,
        &mut m2[..n],
    );
    assert_eq!(m2[forearm], lifted);
    let local_hand = HUMANOID.bind_pose[hand].to_mat4x3();
    assert_eq!(m2[hand], lifted * local_hand);
    // Joints that do not descend from it are unchanged.
    let head = HUMANOID.joint_index("head").unwrap();
    assert_eq!(m2[head], model[head]);
}
