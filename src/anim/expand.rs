//! Expanding (local poses to model space), preparing for skinning (times
//! the inverse bind pose), and reading a model-space pose back into local
//! transforms (for the hand-over from ragdoll to animation).
//!
//! Model space here is whatever `root` maps into: pass the character's
//! placement to get world matrices, which is where the ragdoll's brads
//! live. Every product is `Mat4x3 * Mat4x3` (each entry one rounding,
//! half an FX1 step; computed by the raw-integer kernels of
//! [`super::affine`], which give the same bits), so a joint `d` levels deep carries about `d / 2`
//! steps of rounding (measured in `tests/anim_expand.rs`).

use crate::fx::{Mat4x3, Quat};

use super::affine;
use super::def::{JointPose, NO_PARENT};

/// `model[i] = model[parent] * local[i]` in joint order (parents first),
/// the root joints' parent being `root`. Joints whose bit is set in
/// `given` are skipped: their model matrix is already in `model` (a brad's
/// matrix, seed 004's injection), and their children build on it.
///
/// `root`'s linear part is clamped to ±2 (a placement is a rotation; the
/// bound keeps every product in range, see [`super::affine`]); for such a
/// root the result is bit for bit the FX types' `model[p] * local[i]`.
#[inline(never)]
pub fn expand(
    parents: &[u8],
    local: &[JointPose],
    root: &Mat4x3,
    given: u32,
    model: &mut [Mat4x3],
) {
    let root = affine::clamp_placement(root);
    let n = parents.len();
    let (local, model) = (&local[..n], &mut model[..n]);
    for (i, (&p, l)) in parents.iter().zip(local).enumerate() {
        if given & (1 << i) != 0 {
            continue;
        }
        let parent = if p == NO_PARENT {
            &root
        } else {
            &model[p as usize]
        };
        model[i] = affine::mul_pose(parent, l.rot, l.trans);
    }
}

/// The skinning palette: `palette[i] = model[i] * inverse_bind[i]`, the
/// matrix that takes a bind-pose vertex to its posed place (bit for bit
/// the FX product, see [`super::affine`]).
#[inline(never)]
pub fn skinning_palette(model: &[Mat4x3], inverse_bind: &[Mat4x3], palette: &mut [Mat4x3]) {
    for ((out, m), ib) in palette.iter_mut().zip(model).zip(inverse_bind) {
        *out = affine::mul(m, ib);
    }
}

/// [`expand`] and [`skinning_palette`] in one pass over the joints
/// (parents first): each joint's model matrix is built and at once
/// multiplied by its inverse bind, while both are at hand. The same bits
/// as the two passes.
#[inline(never)]
pub fn expand_palette(
    parents: &[u8],
    local: &[JointPose],
    root: &Mat4x3,
    given: u32,
    inverse_bind: &[Mat4x3],
    model: &mut [Mat4x3],
    palette: &mut [Mat4x3],
) {
    let root = affine::clamp_placement(root);
    let n = parents.len();
    let (local, ib) = (&local[..n], &inverse_bind[..n]);
    let (model, palette) = (&mut model[..n], &mut palette[..n]);
    for i in 0..n {
        if given & (1 << i) == 0 {
            let p = parents[i];
            let parent = if p == NO_PARENT {
                &root
            } else {
                &model[p as usize]
            };
            model[i] = affine::mul_pose(parent, local[i].rot, local[i].trans);
        }
        palette[i] = affine::mul(&model[i], &ib[i]);
    }
}

/// The inverse of [`expand`]: `local[i] = model[parent]^-1 * model[i]`,
/// with the rotation read back as a quaternion. The model matrices must be
/// rigid (rotations up to FX1 rounding), which expanded poses and brad
/// matrices are.
pub fn local_from_model(parents: &[u8], model: &[Mat4x3], root: &Mat4x3, local: &mut [JointPose]) {
    for i in 0..parents.len() {
        let p = parents[i];
        let parent = if p == NO_PARENT {
            root
        } else {
            &model[p as usize]
        };
        // R_p^T (t_i - t_p): one rounding, where rigid_inverse would add one.
        let rot = parent.rot.transpose() * model[i].rot;
        let trans = parent.rot.transpose_mul_vec(model[i].trans - parent.trans);
        local[i] = JointPose {
            rot: Quat::from_mat3(&rot),
            trans,
        };
    }
}
