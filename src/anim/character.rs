//! One animated character's per-frame buffers and the order of the
//! stages over them (DESIGN.md's frame: animation, then after physics the
//! brads, the expand phase and the skinning palette). Each stage is a free
//! function over plain arrays; this only owns the arrays.

use crate::fx::{Fx1, Mat4x3, Vec3};
use crate::verlet::Fnv1a;

use super::brad::{BradTable, BradTableDef};
use super::def::{Clip, JointPose, Skeleton};
use super::expand::expand_palette;
use super::sample::sample_clip;

/// A character: skeleton, local pose, model-space matrices (world, when
/// `placement` is the character's place in the world), skinning palette
/// and brad table, with room for `J` joints and `B` brads (the default
/// fits the 25-joint humanoid: 4.0 KB, which matters on the DS's 16 KB
/// stack).
#[derive(Clone, Debug)]
pub struct Character<'a, const J: usize = 25, const B: usize = 16> {
    /// The skeleton.
    pub skeleton: &'a Skeleton<'a>,
    /// Local pose (the animation's output).
    pub local: [JointPose; J],
    /// Model-space matrix per joint.
    pub model: [Mat4x3; J],
    /// Skinning palette per joint.
    pub palette: [Mat4x3; J],
    /// The brads.
    pub brads: BradTable<B>,
    /// The parent of the root joint.
    pub placement: Mat4x3,
}

impl<'a, const J: usize, const B: usize> Character<'a, J, B> {
    /// In the bind pose at `placement`; the model matrices and the palette
    /// are the identity until the first `pose_from_*` call. Built as one
    /// struct literal, so that no second 4 KB copy sits on the stack.
    ///
    /// # Panics
    /// If the skeleton has more than `J` joints or the table more than `B`
    /// brads.
    pub fn new(skeleton: &'a Skeleton<'a>, brads: &BradTableDef, placement: Mat4x3) -> Self {
        Character {
            skeleton,
            local: bind_local(skeleton),
            model: [Mat4x3::IDENTITY; J],
            palette: [Mat4x3::IDENTITY; J],
            brads: BradTable::new(brads),
            placement,
        }
    }

    /// Number of joints.
    #[inline]
    pub fn joints(&self) -> usize {
        self.skeleton.len()
    }

    /// Samples `clip` at `t` seconds into the local pose.
    pub fn animate(&mut self, clip: &Clip, t: Fx1) {
        let n = self.joints();
        sample_clip(self.skeleton, clip, t, &mut self.local[..n]);
    }

    /// Expand and palette from the local pose alone.
    pub fn pose_from_animation(&mut self) {
        let n = self.joints();
        expand_palette(
            self.skeleton.parents,
            &self.local[..n],
            &self.placement,
            0,
            self.skeleton.inverse_bind,
            &mut self.model[..n],
            &mut self.palette[..n],
        );
    }

    /// The ragdoll frame: brads from the particle positions `x`, injected
    /// into the expand phase (the other joints follow from the local
    /// pose), then the palette.
    pub fn pose_from_ragdoll(&mut self, x: &[Vec3]) {
        let n = self.joints();
        self.brads.build(x);
        let given = self.brads.inject(&mut self.model[..n]);
        expand_palette(
            self.skeleton.parents,
            &self.local[..n],
            &self.placement,
            given,
            self.skeleton.inverse_bind,
            &mut self.model[..n],
            &mut self.palette[..n],
        );
    }

    /// The ragdoll frame's brads alone: built from the particle positions
    /// `x` and injected into the model matrices; returns the mask of
    /// their joints (the other joints' model matrices are left as they
    /// were: for a renderer that expands them itself, see
    /// [`super::gx_palette`]).
    pub fn brads_from_ragdoll(&mut self, x: &[Vec3]) -> u32 {
        let n = self.joints();
        self.brads.build(x);
        self.brads.inject(&mut self.model[..n])
    }

    /// FNV-1a over the raw words of every model matrix and palette entry
    /// (the ROM compares it with the host's).
    pub fn hash(&self) -> u32 {
        let mut h = Fnv1a::new();
        let n = self.joints();
        for m in self.model[..n].iter().chain(&self.palette[..n]) {
            for w in m.to_gx_4x3() {
                h.write(&w.to_le_bytes());
            }
        }
        h.finish()
    }
}

/// The bind pose in an array of `J` (the rest identity).
fn bind_local<const J: usize>(skeleton: &Skeleton) -> [JointPose; J] {
    assert!(skeleton.len() <= J, "character: more joints than J");
    let mut local = [JointPose::IDENTITY; J];
    local[..skeleton.len()].copy_from_slice(skeleton.bind_pose);
    local
}
