//! The raw-integer kernels of `anim::affine` give the same bits as the FX
//! types they replace: `Mat4x3 * Mat4x3`, `Quat::to_mat3` and the two
//! together, over random rotations, random linear parts up to the ±4
//! limit, translations over the whole FX1 range (saturation included) and
//! the rounding ties.

#[path = "anim_support.rs"]
mod support;

use dsphys::anim::affine::{self, LINEAR_LIMIT};
use dsphys::fx::{Mat3, Mat4x3, Quat, Vec3};
use support::*;

const CASES: usize = 20_000;

/// A linear part with entries uniform in ±`LINEAR_LIMIT` (edges included).
fn linear(rng: &mut Rng) -> Mat3 {
    let mut c = || match rng.next_u64() % 16 {
        0 => LINEAR_LIMIT,
        1 => -LINEAR_LIMIT,
        _ => (rng.next_u64() % (2 * LINEAR_LIMIT as u64 + 1)) as i32 - LINEAR_LIMIT,
    };
    Mat3::from_cols(
        Vec3::from_raw(c(), c(), c()),
        Vec3::from_raw(c(), c(), c()),
        Vec3::from_raw(c(), c(), c()),
    )
}

/// A translation: anywhere in FX1 (some saturate), or within 8 m.
fn translation(rng: &mut Rng) -> Vec3 {
    if rng.next_u64().is_multiple_of(4) {
        let mut c = || rng.next_u64() as i32;
        Vec3::from_raw(c(), c(), c())
    } else {
        rng.point(8.0)
    }
}

#[test]
fn product_matches_the_fx_types_bit_for_bit() {
    let mut rng = Rng(0x5eed_a77e);
    for _ in 0..CASES {
        let a = Mat4x3::new(linear(&mut rng), translation(&mut rng));
        let b = Mat4x3::new(linear(&mut rng), translation(&mut rng));
        assert_eq!(affine::mul(&a, &b), a * b, "{a:?} * {b:?}");
        let (ra, rb) = (rng.quat().to_mat3(), rng.quat().to_mat3());
        let a = Mat4x3::new(ra, translation(&mut rng));
        let b = Mat4x3::new(rb, translation(&mut rng));
        assert_eq!(affine::mul(&a, &b), a * b, "{a:?} * {b:?}");
    }
}

#[test]
fn ties_round_away_from_zero_as_the_fx_types_do() {
    // Entries of exactly k + 1/2 steps, both signs: 2048 * 1 / 4096.
    let half = Mat3::from_cols(
        Vec3::from_raw(2048, -2048, 6144),
        Vec3::from_raw(-6144, 1, -1),
        Vec3::from_raw(0, 2048, -2048),
    );
    let a = Mat4x3::new(half, Vec3::from_raw(3, -3, 0));
    let b = Mat4x3::new(
        Mat3::from_cols(Vec3::X, Vec3::X, Vec3::Y),
        Vec3::from_raw(1, 0, 0),
    );
    let scaled = Mat4x3::new(
        Mat3::from_cols(
            Vec3::from_raw(1, 0, 0),
            Vec3::from_raw(0, 1, 0),
            Vec3::from_raw(0, 0, 1),
        ),
        Vec3::from_raw(2048, -2048, 6145),
    );
    assert_eq!(affine::mul(&a, &b), a * b);
    assert_eq!(affine::mul(&a, &scaled), a * scaled);
    assert_eq!(affine::mul(&scaled, &a), scaled * a);
}

#[test]
fn rotation_matches_quat_to_mat3_bit_for_bit() {
    let mut rng = Rng(0x9047);
    let special = [
        Quat::IDENTITY,
        -Quat::IDENTITY,
        Quat::from_raw_q30(0, 1 << 30, 0, 0),
        Quat::from_raw_q30(0, 0, -(1 << 30), 0),
        Quat::from_raw_q30(0, 0, 0, 1 << 30),
        Quat::from_raw_q30(1 << 29, 1 << 29, 1 << 29, -(1 << 29)),
    ];
    for q in special {
        assert_eq!(affine::rotation(q), q.to_mat3(), "{q:?}");
    }
    for _ in 0..CASES {
        let q = rng.quat();
        assert_eq!(affine::rotation(q), q.to_mat3(), "{q:?}");
        // Within a few Q30 steps of unit, as interpolated keys are.
        let [w, x, y, z] = q.raw_q30();
        let mut j = || (rng.next_u64() % 7) as i32 - 3;
        let q = Quat::from_raw_q30(w + j(), x + j(), y + j(), z + j());
        assert_eq!(affine::rotation(q), q.to_mat3(), "{q:?}");
    }
}

#[test]
fn pose_product_matches_building_the_matrix_first() {
    let mut rng = Rng(0xb0_0e);
    for _ in 0..CASES {
        let a = Mat4x3::new(rng.quat().to_mat3(), translation(&mut rng));
        let (q, t) = (rng.quat(), translation(&mut rng));
        assert_eq!(affine::mul_pose(&a, q, t), a * Mat4x3::new(q.to_mat3(), t));
    }
}

#[test]
fn placement_is_clamped_to_two_and_rotations_pass_unchanged() {
    let mut rng = Rng(0x91ace);
    for _ in 0..1000 {
        let m = Mat4x3::new(rng.quat().to_mat3(), translation(&mut rng));
        assert_eq!(affine::clamp_placement(&m), m);
    }
    let big = Mat4x3::new(
        Mat3::from_cols(
            Vec3::from_raw(9 << 12, 0, 0),
            Vec3::Y,
            Vec3::from_raw(0, 0, -(5 << 12)),
        ),
        Vec3::from_raw(i32::MAX, 0, i32::MIN),
    );
    let c = affine::clamp_placement(&big);
    assert_eq!(c.rot.cols[0], Vec3::from_raw(2 << 12, 0, 0));
    assert_eq!(c.rot.cols[2], Vec3::from_raw(0, 0, -(2 << 12)));
    assert_eq!(c.trans, big.trans);
    assert!(affine::within_limit(&c));
    assert!(!affine::within_limit(&big));
}

/// The expand phase and the palette as first written, on the FX types.
fn reference_pose(local: &[dsphys::anim::JointPose], root: &Mat4x3) -> Vec<(Mat4x3, Mat4x3)> {
    use dsphys::anim::humanoid::HUMANOID;
    let mut model: Vec<Mat4x3> = Vec::new();
    for (i, &p) in HUMANOID.parents.iter().enumerate() {
        let parent = if p == dsphys::anim::NO_PARENT {
            *root
        } else {
            model[p as usize]
        };
        model.push(parent * local[i].to_mat4x3());
    }
    model
        .iter()
        .zip(HUMANOID.inverse_bind)
        .map(|(m, ib)| (*m, *m * *ib))
        .collect()
}

#[test]
fn expand_and_palette_match_the_fx_reference_bit_for_bit() {
    use dsphys::anim::humanoid::{HUMANOID, HUMANOID_RUN, HUMANOID_WALK};
    use dsphys::anim::{expand, sample_clip, skinning_palette, JointPose, MAX_JOINTS};
    let n = HUMANOID.len();
    let mut rng = Rng(0xe4ba);
    for f in 0..400u32 {
        let clip = if f.is_multiple_of(2) {
            &HUMANOID_WALK
        } else {
            &HUMANOID_RUN
        };
        let mut local = [JointPose::IDENTITY; MAX_JOINTS];
        sample_clip(&HUMANOID, clip, secs(f as f64 / 60.0), &mut local[..n]);
        if f.is_multiple_of(3) {
            for l in &mut local[1..n] {
                l.rot = rng.quat();
            }
        }
        let root = Mat4x3::new(rng.quat().to_mat3(), rng.point(100.0));
        let (mut model, mut palette) = (
            [Mat4x3::IDENTITY; MAX_JOINTS],
            [Mat4x3::IDENTITY; MAX_JOINTS],
        );
        expand(HUMANOID.parents, &local[..n], &root, 0, &mut model[..n]);
        skinning_palette(&model[..n], HUMANOID.inverse_bind, &mut palette[..n]);
        for (i, (m, p)) in reference_pose(&local[..n], &root).into_iter().enumerate() {
            assert_eq!((model[i], palette[i]), (m, p), "frame {f} joint {i}");
        }
    }
}

#[test]
fn small_translations_round_ties_and_saturate_as_the_fx_types_do() {
    // Linear entries of 0, ±1 and ±2048 make products land on exact ties
    // (k + 1/2 steps) often; left-hand translations near zero make the
    // totals change sign there, and near the FX1 limits saturate.
    let mut rng = Rng(0x71e5);
    let mut ties = 0;
    for _ in 0..CASES * 5 {
        let mut e = || [0, 1, -1, 2048, -2048][(rng.next_u64() % 5) as usize];
        let lin = Mat3::from_cols(
            Vec3::from_raw(e(), e(), e()),
            Vec3::from_raw(e(), e(), e()),
            Vec3::from_raw(e(), e(), e()),
        );
        let mut near = || match rng.next_u64() % 4 {
            0 => i32::MAX - (rng.next_u64() % 4) as i32,
            1 => i32::MIN + (rng.next_u64() % 4) as i32,
            _ => (rng.next_u64() % 7) as i32 - 3,
        };
        let a = Mat4x3::new(lin, Vec3::from_raw(near(), near(), near()));
        let rot = rng.quat().to_mat3();
        let mut s = || (rng.next_u64() % (1 << 16)) as i32 - (1 << 15) + 1;
        let b = Mat4x3::new(rot, Vec3::from_raw(s(), s(), s()));
        let words = a.to_gx_4x3();
        let t = b.trans.raw();
        for i in 0..3 {
            let p = words[i] * t[0] + words[3 + i] * t[1] + words[6 + i] * t[2];
            ties += (p & 0xfff == 0x800) as u32;
        }
        assert_eq!(affine::mul(&a, &b), a * b, "{a:?} * {b:?}");
    }
    assert!(ties > 1000, "only {ties} ties exercised");
}

#[test]
fn fused_expand_palette_matches_the_two_passes() {
    use dsphys::anim::humanoid::{HUMANOID, HUMANOID_WALK};
    use dsphys::anim::{expand, expand_palette, sample_clip, skinning_palette};
    use dsphys::anim::{JointPose, MAX_JOINTS};
    let n = HUMANOID.len();
    let mut rng = Rng(0xf05e);
    for f in 0..300u32 {
        let mut local = [JointPose::IDENTITY; MAX_JOINTS];
        sample_clip(
            &HUMANOID,
            &HUMANOID_WALK,
            secs(f as f64 / 30.0),
            &mut local[..n],
        );
        let root = Mat4x3::new(rng.quat().to_mat3(), translation(&mut rng));
        // Some joints given (as brads are), with arbitrary rotations.
        let given = (rng.next_u64() as u32) & ((1 << n) - 1);
        let mut model = [Mat4x3::IDENTITY; MAX_JOINTS];
        for (i, m) in model[..n].iter_mut().enumerate() {
            if given & (1 << i) != 0 {
                *m = Mat4x3::new(rng.quat().to_mat3(), rng.point(8.0));
            }
        }
        let (mut m2, mut p1, mut p2) = (
            model,
            [Mat4x3::IDENTITY; MAX_JOINTS],
            [Mat4x3::IDENTITY; MAX_JOINTS],
        );
        expand(HUMANOID.parents, &local[..n], &root, given, &mut model[..n]);
        skinning_palette(&model[..n], HUMANOID.inverse_bind, &mut p1[..n]);
        let ib = HUMANOID.inverse_bind;
        expand_palette(
            HUMANOID.parents,
            &local[..n],
            &root,
            given,
            ib,
            &mut m2[..n],
            &mut p2[..n],
        );
        assert_eq!(&model[..n], &m2[..n], "frame {f}");
        assert_eq!(&p1[..n], &p2[..n], "frame {f}");
    }
}
