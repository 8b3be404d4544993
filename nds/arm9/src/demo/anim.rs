//! The animated character's frame under the profiler, after physics
//! (DESIGN.md's order): walking, the animation (sample the two gaits,
//! blend) and then expand; limp, the brads from the ragdoll's particles,
//! and no expand: the skinning palette, built on the geometry engine when
//! the character is drawn (`render::skinned`), takes the brads' model
//! matrices and expands the other joints from their local poses itself.
//! Each stage is the engine's own function over the character's arrays
//! (`dsphys::anim::Character` runs the same calls in
//! `pose_from_animation` / `brads_from_ragdoll`); timing them apart puts
//! "anim", "brads" and "expand" on the profiler.

use crate::clock::Profiler;
use crate::scenes::Sim;
use dsphys::anim::humanoid::{HUMANOID_RUN, HUMANOID_WALK};
use dsphys::anim::humanoid_brads::HUMANOID as BRADS;
use dsphys::anim::{blend_poses, expand, particle_targets, sample_clip, JointPose, MAX_JOINTS};
use dsphys::fx::Fx1;
use profiler::PhaseId;

pub struct AnimPhases {
    /// Sampling and blending the clips.
    pub anim: PhaseId,
    /// Ragdoll particles to joint matrices.
    pub brads: PhaseId,
    /// Local to model space.
    pub expand: PhaseId,
}

impl AnimPhases {
    pub fn register(p: &mut Profiler) -> Self {
        AnimPhases {
            anim: p.phase("anim"),
            brads: p.phase("brads"),
            expand: p.phase("expand"),
        }
    }
}

/// Poses scene (d)'s character for this frame (nothing in other scenes).
#[inline(never)]
pub fn pose(sim: &mut Sim, p: &mut Profiler, ph: &AnimPhases) {
    if !sim.walker.active {
        return;
    }
    let Some(c) = sim.character.as_mut() else {
        return;
    };
    let n = c.joints();
    let skel = c.skeleton;
    if sim.walker.limp {
        // The joints without a brad need no model matrix on the CPU: the
        // renderer expands them on the geometry engine.
        let Some(r) = sim.ragdolls[0].as_ref() else {
            return;
        };
        p.time(ph.brads, |_| {
            c.brads.build(r.positions());
            c.brads.inject(&mut c.model[..n]);
        });
    } else {
        let w = &mut sim.walker;
        p.time(ph.anim, |_| {
            w.advance();
            let mut walk = [JointPose::IDENTITY; MAX_JOINTS];
            let mut run = [JointPose::IDENTITY; MAX_JOINTS];
            sample_clip(skel, &HUMANOID_WALK, w.t, &mut walk[..n]);
            sample_clip(skel, &HUMANOID_RUN, w.t, &mut run[..n]);
            blend_poses(&walk[..n], &run[..n], w.run_weight(), &mut c.local[..n]);
            // The travel goes into the placement (see scenes::animated).
            c.local[0].trans.x = Fx1::ZERO;
            c.local[0].trans.z = Fx1::ZERO;
            c.placement = w.placement();
        });
        p.time(ph.expand, |_| {
            expand(
                skel.parents,
                &c.local[..n],
                &c.placement,
                0,
                &mut c.model[..n],
            );
        });
    }
    let w = &mut sim.walker;
    if !w.limp {
        w.last = w.now;
        particle_targets(BRADS.brads, &c.model[..n], &mut w.now);
        if w.posed == 0 {
            w.last = w.now;
        }
        w.posed += 1;
    }
}
