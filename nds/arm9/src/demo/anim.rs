//! The animated character's frame under the profiler, after physics
//! (DESIGN.md's order): walking, the animation (sample the two gaits,
//! blend) and then expand; limp, the brads from the ragdoll's particles,
//! and no expand: each brad goes to the skinning palette on the geometry
//! engine as it is built (`render::skinned::brads_to_palette`), and the
//! engine expands the other joints from their local poses itself.
//! Each stage is the engine's own function over the character's arrays
//! (`dsphys::anim::Character` runs the same calls in
//! `pose_from_animation` / `brads_from_ragdoll`); timing them apart puts
//! "anim", "brads" and "expand" on the profiler.

use crate::clock::Profiler;
use crate::render::skinned::brads_to_palette;
use crate::render::{self, Camera};
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
pub fn pose(sim: &mut Sim, cam: &Camera, p: &mut Profiler, ph: &AnimPhases) {
    sim.walker.palette_loaded = false;
    if !sim.walker.active {
        return;
    }
    let Some(c) = sim.character.as_mut() else {
        return;
    };
    let n = c.joints();
    let skel = c.skeleton;
    let given = if sim.walker.limp {
        let Some(r) = sim.ragdolls[0].as_ref() else {
            return;
        };
        // Each brad goes to the geometry engine's palette as it is built
        // (the camera current): the engine's products overlap the next
        // brad's, and the renderer has the palette ready.
        let local_words = &sim.walker.local_words;
        let given = p.time(ph.brads, |_| {
            render::load_view(cam);
            brads_to_palette(c, r.positions(), local_words)
        });
        sim.walker.palette_loaded = true;
        given
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
        0
    };
    if sim.walker.limp {
        // The joints without a brad need no model matrix on the CPU: the
        // renderer expands them on the geometry engine.
        sim.walker.from_model = given;
    } else {
        p.time(ph.expand, |_| {
            expand(
                skel.parents,
                &c.local[..n],
                &c.placement,
                given,
                &mut c.model[..n],
            );
        });
        sim.walker.from_model = u32::MAX;
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
