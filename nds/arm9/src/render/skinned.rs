//! An animated character by rigid skinning: one box per bone, placed by
//! its parent joint's matrix on the GX matrix stack (push, multiply by
//! the joint's model matrix, multiply by the bone's fixed box frame, draw
//! the unit box, pop), as DS games skin with the matrix stack. Whether
//! the joint matrices come from the animation or from the brads (a limp
//! character), the drawing is the same.

use super::prims::{Batch, ID_BODY};
use super::ragdoll::{bone_matrix, FACES, MAX_BONES};
use super::shade::{lit, Rgb};
use super::{DrawMode, PolyBudget, GX_SHIFT};
use crate::hw::gx;
use dsphys::anim::{Skeleton, NO_PARENT};
use dsphys::fx;
use dsphys::fx::{Fx1, Mat4x3, Vec3};

/// A bone: the box from its parent joint's origin to its own, in the
/// parent joint's frame (fixed: the bind pose's offset).
#[derive(Clone, Copy)]
struct Bone {
    parent: u8,
    /// The box frame as MTX_MULT_4x3 words (submission units).
    frame: [i32; 12],
    /// The box's axes in the parent's frame (for lighting).
    axes: [Vec3; 3],
}

/// The boxes of one skeleton, built once per skeleton.
pub struct Segments {
    bones: [Bone; MAX_BONES],
    len: usize,
}

/// Half widths: the trunk and head are thicker than the limbs.
const TRUNK: Fx1 = fx!(0.09);
const LIMB: Fx1 = fx!(0.04);

impl Segments {
    pub const fn new() -> Self {
        Segments {
            bones: [Bone {
                parent: 0,
                frame: [0; 12],
                axes: [Vec3::ZERO; 3],
            }; MAX_BONES],
            len: 0,
        }
    }

    /// One box per joint with a parent other than the root (the root is
    /// the character's place on the floor, not a body part), in place.
    pub fn build(&mut self, skel: &Skeleton) {
        self.len = 0;
        for (j, (&parent, pose)) in skel.parents.iter().zip(skel.bind_pose).enumerate() {
            if parent == NO_PARENT || skel.parents[parent as usize] == NO_PARENT {
                continue;
            }
            let name = skel.joint_names[j];
            let half = match name {
                "spine" | "chest" | "neck" | "head_end" => TRUNK,
                _ => LIMB,
            };
            let Some((frame, axes)) = bone_matrix(Vec3::ZERO, pose.trans, half) else {
                continue;
            };
            if self.len == MAX_BONES {
                break;
            }
            self.bones[self.len] = Bone {
                parent,
                frame,
                axes,
            };
            self.len += 1;
        }
    }
}

/// A joint's model matrix as MTX_MULT_4x3 words: rotation as is, the
/// translation in submission units.
fn joint_words(m: &Mat4x3) -> [i32; 12] {
    let mut w = m.to_gx_4x3();
    for t in &mut w[9..] {
        *t >>= GX_SHIFT;
    }
    w
}

/// Draws the character whose joints' model (world) matrices are `model`.
#[inline(never)]
pub fn draw(seg: &Segments, model: &[Mat4x3], color: Rgb, mode: DrawMode, budget: &mut PolyBudget) {
    let faces = FACES.len() as u32;
    for bone in &seg.bones[..seg.len] {
        if budget.left() < faces {
            budget.refused += faces;
            continue;
        }
        let joint = &model[bone.parent as usize];
        let shades = bone.axes.map(|a| {
            let n = joint.rot.mul_vec(a).raw();
            (lit(color, n, 12), lit(color, n.map(|c| -c), 12))
        });
        gx::push();
        gx::mult_4x3(&joint_words(joint));
        gx::mult_4x3(&bone.frame);
        {
            let mut b = Batch::quads(budget, mode.solid_alpha(), ID_BODY, faces);
            for (v, axis, negative) in FACES.iter() {
                let (pos, neg) = shades[*axis];
                b.quad_packed(v, if *negative { neg } else { pos });
            }
        }
        gx::pop(1);
    }
}
