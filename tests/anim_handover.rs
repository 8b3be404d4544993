//! The hand-over between animation and ragdoll (seed 001): momentum at the
//! switch to ragdoll, no jump, and getting up without a pop.
//!
//! Measured (`--nocapture`): switching a running character (3.5 m/s clip)
//! to ragdoll at each of 42 frames of its cycle, the ragdoll's
//! centre-of-mass velocity after its first frame is the animation's
//! (times the 0.99 kept per frame, plus gravity's 0.16 m/s down) within
//! 0.01 m/s, and no particle lands more than 6.3 mm from where its own
//! velocity would carry it (the shins bending the feet's straight paths
//! into arcs), against 58 mm of travel per frame.

#[path = "anim_support.rs"]
mod support;

use dsphys::anim::handover::{particle_targets, start_ragdoll, GetUp};
use dsphys::anim::humanoid::{HUMANOID, HUMANOID_IDLE, HUMANOID_RUN};
use dsphys::anim::humanoid_brads::HUMANOID as BRADS;
use dsphys::anim::velocity::body_velocity;
use dsphys::anim::{expand, sample_clip, Character, JointPose, MAX_JOINTS};
use dsphys::fx::{Angle, Fx1, Mat4x3, Quat, Vec3};
use dsphys::verlet::humanoid::HUMANOID as RAGDOLL;
use dsphys::verlet::{Ragdoll, Settings};
use support::*;

fn vf(v: Vec3) -> [f64; 3] {
    v.to_array().map(|c| c.to_f64())
}

/// Where the run puts the particles at frame `f` (1/60 s frames).
fn targets(f: i32, place: &Mat4x3) -> [Vec3; 16] {
    let t = Fx1::from_raw(f * 4096 / 60);
    let (_, model) = posed(&HUMANOID_RUN, t, place);
    let mut x = [Vec3::ZERO; 16];
    particle_targets(BRADS.brads, &model[..HUMANOID.len()], &mut x);
    x
}

/// `sum m_i v_i / M` of particle velocities `v`.
fn com(v: &[[f64; 3]]) -> [f64; 3] {
    let m: Vec<f64> = RAGDOLL.particles.iter().map(|p| p.mass.to_f64()).collect();
    let total: f64 = m.iter().sum();
    let mut c = [0.0; 3];
    for (vi, mi) in v.iter().zip(&m) {
        for k in 0..3 {
            c[k] += vi[k] * mi / total;
        }
    }
    c
}

#[test]
fn running_character_keeps_its_momentum_and_does_not_jump() {
    let place = Mat4x3::new(
        Quat::from_axis_angle(Vec3::Y, Angle::from_raw(0x2000)).to_mat3(),
        Vec3::from_raw(-4096, 0, 2048),
    );
    let n = RAGDOLL.particles.len();
    let (mut worst_v, mut worst_jump, mut worst_anim) = (0.0f64, 0.0f64, 0.0f64);
    let mut speeds = Vec::new();
    for f in 60..102 {
        let (last, now, next) = (
            targets(f - 1, &place),
            targets(f, &place),
            targets(f + 1, &place),
        );
        // The animation's centre-of-mass velocity over the last frame.
        let anim_v: Vec<[f64; 3]> = (0..n)
            .map(|i| vf((now[i] - last[i]).scale_int(60)))
            .collect();
        let anim_com = com(&anim_v);
        let mut r: Ragdoll = Ragdoll::new(&RAGDOLL, Vec3::ZERO);
        // The animated pose satisfies every constraint of the ragdoll
        // (a rigid torso, limbs of fixed length), so nothing snaps.
        for c in RAGDOLL.constraints {
            let d = (now[c.a as usize] - now[c.b as usize]).length().to_f64();
            assert!(d > c.min.to_f64() - 1e-3 && (c.max == Fx1::MAX || d < c.max.to_f64() + 1e-3));
        }
        start_ragdoll(&mut r, &now[..n], &last[..n]);
        // At the switch: same positions, same velocity, no frame delay.
        assert_eq!(r.positions(), &now[..n]);
        let v0 = vf(r.com_velocity());
        for k in 0..3 {
            assert!(
                (v0[k] - anim_com[k]).abs() < 2e-3,
                "frame {f}: {v0:?} vs {anim_com:?}"
            );
        }
        let settings = Settings::DEFAULT;
        r.step(&settings);
        let v1 = vf(r.com_velocity());
        // The first frame keeps `damping` of the velocity ("wind
        // resistance") and gravity adds 9.81 / 60 m/s down; the
        // constraints conserve momentum.
        let (keep, g) = (
            settings.damping.to_f64(),
            settings.gravity_strength.to_f64() / 60.0,
        );
        let want = [
            anim_com[0] * keep,
            anim_com[1] * keep - g,
            anim_com[2] * keep,
        ];
        for k in 0..3 {
            worst_v = worst_v.max((v1[k] - want[k]).abs());
        }
        speeds.push((anim_com[0].powi(2) + anim_com[2].powi(2)).sqrt());
        for i in 0..n {
            // Where its own velocity would carry it, and where the
            // animation goes next.
            let v = vf(now[i] - last[i]);
            let x = vf(now[i]);
            let coast = [
                x[0] + v[0] * keep,
                x[1] + v[1] * keep - g / 60.0,
                x[2] + v[2] * keep,
            ];
            let p = vf(r.positions()[i]);
            let d = |a: [f64; 3], b: [f64; 3]| {
                ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
            };
            worst_jump = worst_jump.max(d(p, coast));
            worst_anim = worst_anim.max(d(p, vf(next[i])));
        }
    }
    let mean_speed = speeds.iter().sum::<f64>() / speeds.len() as f64;
    println!(
        "switch over one run cycle: COM velocity off by {worst_v:.4} m/s after gravity; particles within {:.2} mm of coasting, {:.1} mm of the animation's next frame; mean COM speed {mean_speed:.3} m/s",
        worst_jump * 1000.0,
        worst_anim * 1000.0
    );
    assert!(worst_v < 0.02, "COM velocity off by {worst_v} m/s");
    // A straight-line coast takes a feet's particle off the circle its
    // shin allows ((w dt)^2 r / 2); the stick pulls it back by that much.
    // A jump would be the frame's travel (58 mm at 3.5 m/s): see below.
    assert!(worst_jump < 0.008, "a particle jumped {worst_jump} m");
    // The clip's feet reverse at up to about 50 m/s^2 (a dt^2 = 14 mm),
    // which a coasting ragdoll does not follow: it stays near, not on.
    assert!(worst_anim < 0.04, "{worst_anim} m from the animation");
    // The clip runs at 3.5 m/s: so does the ragdoll's centre of mass.
    assert!((mean_speed - 3.5).abs() < 0.1, "{mean_speed}");
    // Without the inherited velocity the particles would lag by a frame's
    // travel: the check above can fail.
    let (now, last) = (targets(70, &place), targets(69, &place));
    let mut r: Ragdoll = Ragdoll::new(&RAGDOLL, Vec3::ZERO);
    start_ragdoll(&mut r, &now[..n], &now[..n]);
    r.step(&Settings::DEFAULT);
    let lag = (r.positions()[2] - (now[2] + (now[2] - last[2])))
        .length()
        .to_f64();
    assert!(lag > 0.04, "{lag}");
}

#[test]
fn body_velocity_uses_the_centre_of_mass() {
    // A body turning at 3 rad/s about +y and moving at 1 m/s in x, with
    // its centre of mass 0.5 m out along its local x.
    let q0 = Quat::from_axis_angle(Vec3::Z, Angle::from_raw(0x1000));
    let turn = Quat::from_axis_angle(Vec3::Y, Angle::from_radians(Fx1::from_raw(3 * 4096 / 60)));
    let tm0 = Mat4x3::new(q0.to_mat3(), Vec3::from_raw(4096, 8192, 0));
    let tm1 = Mat4x3::new(
        (turn * q0).to_mat3(),
        tm0.trans + Vec3::from_raw(4096 / 60, 0, 0),
    );
    let com_local = Vec3::from_raw(2048, 0, 0);
    let (lin, ang) = body_velocity(&tm0, &tm1, com_local, 60);
    let ang = vf(ang);
    assert!(
        (ang[1] - 3.0).abs() < 0.05 && ang[0].abs() < 0.05 && ang[2].abs() < 0.05,
        "{ang:?}"
    );
    // v = v_origin + omega x r, r the centre of mass offset in world.
    let r = vf(tm0.rot.mul_vec(com_local));
    let want = [1.0 + 3.0 * r[2], 0.0, -3.0 * r[0]];
    let lin = vf(lin);
    for k in 0..3 {
        // A finite difference over one frame: the chord, not the tangent.
        assert!((lin[k] - want[k]).abs() < 0.1, "{lin:?} vs {want:?}");
    }
    // The bone origin's velocity would miss the rotation's part.
    let (origin, _) = body_velocity(&tm0, &tm1, Vec3::ZERO, 60);
    assert!((vf(origin)[2] - want[2]).abs() > 0.5);
}

#[test]
fn getting_up_fades_from_the_ragdoll_without_a_pop() {
    // A ragdoll that fell for a second.
    let mut r = dsphys::scenario::tumbling_ragdoll(Vec3::ZERO);
    for _ in 0..60 {
        dsphys::scenario::step_in_room(&mut r);
    }
    let place = Mat4x3::IDENTITY;
    let mut c: Character = Character::new(&HUMANOID, &BRADS, place);
    c.pose_from_ragdoll(r.positions());
    let n = HUMANOID.len();
    let duration = secs(0.5);
    let mut getup = GetUp::new(HUMANOID.parents, &c.model[..n], &place, duration);
    let mut clip_pose = [JointPose::IDENTITY; MAX_JOINTS];
    let mut pose = [JointPose::IDENTITY; MAX_JOINTS];
    let mut model = [Mat4x3::IDENTITY; MAX_JOINTS];
    let mut prev: Option<[Mat4x3; MAX_JOINTS]> = None;
    let (mut first_off, mut max_step, mut total) = (0i64, 0.0f64, 0.0f64);
    let mut frames = 0;
    loop {
        let t = Fx1::from_raw(frames * 4096 / 60);
        sample_clip(&HUMANOID, &HUMANOID_IDLE, t, &mut clip_pose[..n]);
        getup.pose(&clip_pose[..n], &mut pose[..n]);
        expand(HUMANOID.parents, &pose[..n], &place, 0, &mut model[..n]);
        match prev {
            // The first frame is the ragdoll's pose.
            None => {
                for (m, r) in model[..n].iter().zip(&c.model[..n]) {
                    first_off = first_off.max(vec_diff(m.trans, r.trans));
                }
            }
            Some(p) => {
                for i in 0..n {
                    let d = vf(model[i].trans - p[i].trans);
                    let d = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                    max_step = max_step.max(d);
                }
            }
        }
        prev = Some(model);
        if getup.done() {
            break;
        }
        getup.advance(secs(1.0 / 60.0));
        frames += 1;
    }
    // At the end the clip has taken over exactly.
    assert_eq!(pose[..n], clip_pose[..n]);
    for (m, r) in model[..n].iter().zip(&c.model[..n]) {
        let d = vf(m.trans - r.trans);
        total = total.max((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt());
    }
    println!("get-up over {frames} frames: starts within {first_off} steps of the ragdoll pose; largest joint move per frame {:.1} mm of {:.0} mm in all", max_step * 1000.0, total * 1000.0);
    assert!(
        first_off <= 8,
        "the fade starts {first_off} steps off the ragdoll"
    );
    // Smoothstep's steepest frame is 1.5x the average; joints on long
    // chains swing through arcs, so allow 3x the straight-line average.
    assert!(
        max_step < 3.0 * total / frames as f64,
        "{max_step} m in one frame"
    );
}

/// Regression guard: the animation workloads' hashes over the ROM's 120
/// frames (`ANIM_FRAMES` in `nds/arm9/build.rs`). Derivation:
/// `expand_hash(120)` and `brads_hash(120)` on the host (`brads_hash` since
/// a ragdoll settles before it sleeps, `verlet::SETTLE_FRAMES`),
/// printed by `workload_hashes_match_the_committed_values` with
/// `--nocapture`. The ROM's `anim_expand_hash` and `anim_brads_hash`
/// compare the DS's run with the host's build-time value; these
/// constants tie the host's value to a fixed number, so that a change to
/// sampling, blending, expand, the brads or skinning shows here even when
/// host and ROM change together.
const ANIM_EXPAND_120: u32 = 0xe87c_2b4d;
/// See [`ANIM_EXPAND_120`].
const ANIM_BRADS_120: u32 = 0xe0e2_535f;

#[test]
fn workload_hashes_match_the_committed_values() {
    use dsphys::anim::workload::{brads_hash, expand_hash};
    for (name, f, want) in [
        (
            "expand_hash",
            expand_hash as fn(u32) -> u32,
            ANIM_EXPAND_120,
        ),
        ("brads_hash", brads_hash, ANIM_BRADS_120),
    ] {
        let h = f(120);
        println!("{name}(120) = {h:#010x}");
        assert_eq!(
            h, want,
            "{name}(120) changed: {h:#010x}, committed {want:#010x}"
        );
        // Every frame counts.
        assert_ne!(h, f(119), "{name}: frame 120 left no trace");
    }
}

#[test]
fn brads_from_ragdoll_gives_the_brad_joints_of_pose_from_ragdoll() {
    use dsphys::anim::workload::{character, tumbled_positions};
    for frames in [0, 20, 40] {
        let x = tumbled_positions(frames);
        let (mut full, mut brads_only) = (character(), character());
        full.pose_from_ragdoll(&x);
        // Left over from an earlier frame: the brads' joints must not
        // keep it, the others must.
        brads_only.model = [Mat4x3::IDENTITY; 25];
        let mask = brads_only.brads_from_ragdoll(&x);
        assert_eq!(mask, brads_only.brads.joints_mask());
        for j in 0..full.joints() {
            if mask & 1 << j != 0 {
                assert_eq!(
                    full.model[j], brads_only.model[j],
                    "joint {j} after {frames} frames"
                );
            } else {
                assert_eq!(
                    brads_only.model[j],
                    Mat4x3::IDENTITY,
                    "joint {j} was written"
                );
            }
        }
    }
}
