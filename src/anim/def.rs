//! Static animation data: skeletons, clips and brad tables, as emitted by
//! `assetc` from `assets/characters/*.gltf` and `assets/ragdolls/*.brads`.
//! Everything has `const` constructors and public fields, so the emitted
//! source is plain data.

use crate::fx::{Mat4x3, Quat, Vec3};

/// Most joints a skeleton may have (the seed's rig has about 25); a mask
/// of joints fits in a `u32`.
pub const MAX_JOINTS: usize = 32;

/// The parent index of a root joint.
pub const NO_PARENT: u8 = u8::MAX;

/// A local transform: rotate by `rot`, then translate by `trans`, relative
/// to the parent joint (metres, Q30 quaternion).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct JointPose {
    /// Rotation relative to the parent.
    pub rot: Quat,
    /// Translation relative to the parent (m).
    pub trans: Vec3,
}

impl JointPose {
    /// No rotation, no translation.
    pub const IDENTITY: JointPose = JointPose {
        rot: Quat::IDENTITY,
        trans: Vec3::ZERO,
    };

    /// From both parts.
    pub const fn new(rot: Quat, trans: Vec3) -> JointPose {
        JointPose { rot, trans }
    }

    /// The 4x3 matrix (each rotation entry rounded once to FX1).
    #[inline]
    pub fn to_mat4x3(&self) -> Mat4x3 {
        Mat4x3::new(self.rot.to_mat3(), self.trans)
    }
}

/// A skeleton: joints in an order where every parent comes before its
/// children (`parents[i] < i`, `assetc` checks it), the bind pose and the
/// inverse bind matrices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skeleton<'a> {
    /// Its name (clips name the skeleton they are for).
    pub name: &'a str,
    /// One name per joint.
    pub joint_names: &'a [&'a str],
    /// Parent per joint, [`NO_PARENT`] for a root.
    pub parents: &'a [u8],
    /// The bind pose, local to each parent.
    pub bind_pose: &'a [JointPose],
    /// Inverse of each joint's model-space bind matrix.
    pub inverse_bind: &'a [Mat4x3],
}

impl Skeleton<'_> {
    /// Number of joints.
    #[inline]
    pub fn len(&self) -> usize {
        self.parents.len()
    }

    /// True for a skeleton without joints.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    /// The index of the joint called `name`.
    pub fn joint_index(&self, name: &str) -> Option<usize> {
        self.joint_names.iter().position(|n| *n == name)
    }
}

/// The rotation keys of one joint in a clip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Track<'a> {
    /// The joint it animates.
    pub joint: u8,
    /// One unit quaternion per key of the clip.
    pub keys: &'a [Quat],
}

/// A keyframed clip: rotation tracks for some joints and the root joint's
/// translation, all keyed at the same times.
///
/// Joints without a track keep their bind rotation; joints other than the
/// root keep their bind translation. A looping clip repeats, and its root
/// translation carries on by `last key - first key` per cycle (the
/// distance a walk cycle covers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clip<'a> {
    /// Its name.
    pub name: &'a str,
    /// The skeleton it was made for.
    pub skeleton: &'a str,
    /// Key times in seconds, increasing, the first 0.
    pub times: &'a [crate::fx::Fx1],
    /// Repeats after the last key.
    pub looping: bool,
    /// The root joint (index 0) translation per key.
    pub root_trans: &'a [Vec3],
    /// Rotation tracks.
    pub tracks: &'a [Track<'a>],
}

impl Clip<'_> {
    /// Length in seconds (the last key's time).
    #[inline]
    pub fn duration(&self) -> crate::fx::Fx1 {
        self.times[self.times.len() - 1]
    }
}
