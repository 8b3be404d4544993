//! Hand-over between animation and ragdoll, both ways, with no frame
//! delay (seed 001).
//!
//! **Animation to ragdoll.** Every frame that a character may go limp,
//! [`particle_targets`] records where its particles would be (the
//! model-space origins of the brad joints): seed 001's `last_world`, kept
//! only for units that can go ragdoll and only for the joints that have a
//! particle. At the switch, [`start_ragdoll`] puts each particle at this
//! frame's position and sets its previous position to `cur - v dt`, with
//! `v` the particle's own velocity over the last frame. A particle is a
//! point mass, so its centre of mass is itself: the ragdoll's centre of
//! mass moves exactly as the animated one did (see
//! [`super::velocity::body_velocity`] for bodies whose centre of mass is
//! off the joint).
//!
//! **Ragdoll to animation** (getting up): [`GetUp`] reads the ragdoll's
//! last expanded pose back into local transforms and cross-fades from it
//! to the clip over a set time.

use crate::fx::{Fx1, Mat4x3, Vec3};
use crate::verlet::{Ragdoll, STEPS_PER_SECOND};

use super::blend::{blend_poses, CrossFade};
use super::brad::BradDef;
use super::def::{JointPose, MAX_JOINTS};
use super::expand::local_from_model;

/// `out[particle] = model[joint]` origin for every brad: where the
/// animation puts the ragdoll's particles.
pub fn particle_targets(brads: &[BradDef], model: &[Mat4x3], out: &mut [Vec3]) {
    for b in brads {
        out[b.particle as usize] = model[b.joint as usize].trans;
    }
}

/// Switches to ragdoll: particle `i` goes to `now[i]` with the velocity
/// `(now[i] - last[i])` per frame (`last`: the targets one frame ago).
/// With one substep the previous position is exactly `last[i]`.
pub fn start_ragdoll<const N: usize, const C: usize>(
    r: &mut Ragdoll<N, C>,
    now: &[Vec3],
    last: &[Vec3],
) {
    for i in 0..r.particles.len() {
        // move_pinned sets the position (and forgets the integration
        // remainder); set_velocity then sets the previous position.
        r.particles.move_pinned(i, now[i]);
        r.set_velocity(i, (now[i] - last[i]).scale_int(STEPS_PER_SECOND));
    }
}

/// Getting up: a fade from the ragdoll's last pose into a clip.
#[derive(Clone, Debug)]
pub struct GetUp {
    from: heapless::Vec<JointPose, MAX_JOINTS>,
    fade: CrossFade,
}

impl GetUp {
    /// Starts from `model`, the ragdoll's last expanded pose (brads
    /// injected), read back relative to `root` (the placement the clip
    /// will be expanded with), fading over `duration` seconds.
    pub fn new(parents: &[u8], model: &[Mat4x3], root: &Mat4x3, duration: Fx1) -> GetUp {
        let len = parents.len().min(MAX_JOINTS);
        let mut from = heapless::Vec::new();
        // Within capacity: len <= MAX_JOINTS.
        let _ = from.resize(len, JointPose::IDENTITY);
        local_from_model(&parents[..len], model, root, &mut from);
        GetUp {
            from,
            fade: CrossFade::new(duration),
        }
    }

    /// The pose the fade starts from.
    pub fn from_pose(&self) -> &[JointPose] {
        &self.from
    }

    /// The pose now: the start pose mixed towards `clip_pose` (the clip
    /// sampled this frame) by the fade's weight.
    pub fn pose(&self, clip_pose: &[JointPose], out: &mut [JointPose]) {
        blend_poses(self.from_pose(), clip_pose, self.fade.weight(), out);
    }

    /// Advances the fade by `dt` seconds.
    pub fn advance(&mut self, dt: Fx1) {
        self.fade.advance(dt);
    }

    /// True once the clip has taken over completely.
    pub fn done(&self) -> bool {
        self.fade.done()
    }
}
