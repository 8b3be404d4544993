//! Keyframe and animation blending: keys are reproduced exactly at their
//! times, blending with weight 0 or 1 gives each clip exactly, a looping
//! clip's root carries on across cycles, and a cross-fade's weight runs
//! smoothly from 0 to 1.

#[path = "anim_support.rs"]
mod support;

use dsphys::anim::humanoid::{HUMANOID, HUMANOID_IDLE, HUMANOID_RUN, HUMANOID_WALK};
use dsphys::anim::sample::locate;
use dsphys::anim::{blend_poses, sample_clip, CrossFade, JointPose, MAX_JOINTS};
use dsphys::fx::Fx1;
use support::*;

fn sample(clip: &dsphys::anim::Clip, t: Fx1) -> [JointPose; MAX_JOINTS] {
    let mut out = [JointPose::IDENTITY; MAX_JOINTS];
    sample_clip(&HUMANOID, clip, t, &mut out[..HUMANOID.len()]);
    out
}

#[test]
fn keys_are_reproduced_at_their_times() {
    for clip in [&HUMANOID_IDLE, &HUMANOID_WALK, &HUMANOID_RUN] {
        for (k, &t) in clip.times.iter().enumerate().take(clip.times.len() - 1) {
            let pose = sample(clip, t);
            for tr in clip.tracks {
                assert_eq!(
                    pose[tr.joint as usize].rot, tr.keys[k],
                    "{} key {k}",
                    clip.name
                );
            }
            assert_eq!(pose[0].trans, clip.root_trans[k]);
            // Joints without a track keep the bind pose.
            let spine = HUMANOID.joint_index("spine").unwrap();
            assert_eq!(pose[spine], HUMANOID.bind_pose[spine]);
        }
    }
}

#[test]
fn between_keys_the_pose_lies_between_them() {
    let clip = &HUMANOID_WALK;
    for k in 0..clip.times.len() - 1 {
        let mid = Fx1::from_raw((clip.times[k].raw() + clip.times[k + 1].raw()) / 2);
        let pose = sample(clip, mid);
        for tr in clip.tracks {
            let (a, b, m) = (tr.keys[k], tr.keys[k + 1], pose[tr.joint as usize].rot);
            let ab = quat_angle(a, b);
            assert!(
                (quat_angle(a, m) - ab / 2.0).abs() < 1e-3 + ab * 0.01,
                "key {k}"
            );
        }
    }
}

#[test]
fn weights_zero_and_one_give_each_clip_exactly() {
    let n = HUMANOID.len();
    for k in 0..40 {
        let t = secs(k as f64 * 0.0437);
        let (a, b) = (sample(&HUMANOID_WALK, t), sample(&HUMANOID_RUN, t));
        let mut out = [JointPose::IDENTITY; MAX_JOINTS];
        blend_poses(&a[..n], &b[..n], Fx1::ZERO, &mut out[..n]);
        assert_eq!(out[..n], a[..n]);
        blend_poses(&a[..n], &b[..n], Fx1::ONE, &mut out[..n]);
        assert_eq!(out[..n], b[..n]);
        // Out-of-range weights clamp.
        blend_poses(&a[..n], &b[..n], secs(1.5), &mut out[..n]);
        assert_eq!(out[..n], b[..n]);
        // Half way: each rotation halfway between, within 1e-3 rad.
        blend_poses(&a[..n], &b[..n], secs(0.5), &mut out[..n]);
        for i in 0..n {
            let (da, db) = (
                quat_angle(a[i].rot, out[i].rot),
                quat_angle(out[i].rot, b[i].rot),
            );
            assert!((da - db).abs() < 1e-3, "joint {i}: {da} vs {db}");
        }
    }
}

#[test]
fn looping_root_carries_on_across_cycles() {
    let clip = &HUMANOID_WALK;
    let dur = clip.duration();
    let travel = clip.root_trans[clip.root_trans.len() - 1] - clip.root_trans[0];
    for cycles in [1, 2, 7] {
        let t = Fx1::from_raw(dur.raw() * cycles + 100);
        let p = locate(clip, t);
        assert_eq!(p.cycles, cycles);
        let a = sample(clip, Fx1::from_raw(100))[0].trans;
        let b = sample(clip, t)[0].trans;
        assert_eq!(b - a, travel.scale_int(cycles));
    }
    // No jump at the seam: the root moves by about speed / 60 per frame.
    let step = |t: f64| {
        (sample(clip, secs(t + 1.0 / 60.0))[0].trans - sample(clip, secs(t))[0].trans)
            .z
            .to_f64()
    };
    for t in [0.98, 0.99, 1.0, 1.005] {
        assert!(
            (step(t) * 60.0 - 1.4).abs() < 0.15,
            "{t}: {}",
            step(t) * 60.0
        );
    }
    // A one-shot clip would hold; negative times count as 0.
    assert_eq!(
        sample(clip, Fx1::from_raw(-5000))[0].trans,
        clip.root_trans[0]
    );
}

#[test]
fn cross_fade_weight_is_smooth_and_exact_at_the_ends() {
    let mut f = CrossFade::new(secs(0.25));
    assert_eq!(f.weight(), Fx1::ZERO);
    let mut last = Fx1::ZERO;
    let mut frames = 0;
    while !f.done() {
        f.advance(secs(1.0 / 60.0));
        let w = f.weight();
        assert!(w >= last, "not monotonic");
        // No frame moves the weight by more than 1.5 x the average (1/15).
        assert!(
            (w - last).to_f64() < 1.5 / 15.0 + 1e-3,
            "{:?} -> {:?}",
            last,
            w
        );
        last = w;
        frames += 1;
    }
    assert_eq!(last, Fx1::ONE);
    // 0.25 s of 1/60 s frames (68/4096 s each after rounding): 16 frames.
    assert_eq!(frames, 16);
    assert_eq!(CrossFade::new(Fx1::ZERO).weight(), Fx1::ONE);
}
