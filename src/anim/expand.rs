//! Expanding (local poses to model space), preparing for skinning (times
//! the inverse bind pose), and reading a model-space pose back into local
//! transforms (for the hand-over from ragdoll to animation).
//!
//! Model space here is whatever `root` maps into: pass the character's
//! placement to get world matrices, which is where the ragdoll's brads
//! live. Every product is `Mat4x3 * Mat4x3` (each entry one rounding,
//! half an FX1 step), so a joint `d` levels deep carries about `d / 2`
//! steps of rounding (measured in `tests/anim_expand.rs`).

use crate::fx::{Mat4x3, Quat};

use super::def::{JointPose, NO_PARENT};

/// `model[i] = model[parent] * local[i]` in joint order (parents first),
/// the root joints' parent being `root`. Joints whose bit is set in
/// `given` are skipped: their model matrix is already in `model` (a brad's
/// matrix, seed 004's injection), and their children build on it.
#[inline(never)]
pub fn expand(
    parents: &[u8],
    local: &[JointPose],
    root: &Mat4x3,
    given: u32,
    model: &mut [Mat4x3],
) {
    for i in 0..parents.len() {
        if given & (1 << i) != 0 {
            continue;
        }
        let l = local[i].to_mat4x3();
        let p = parents[i];
        model[i] = if p == NO_PARENT {
            *root * l
        } else {
            model[p as usize] * l
        };
    }
}

/// The skinning palette: `palette[i] = model[i] * inverse_bind[i]`, the
/// matrix that takes a bind-pose vertex to its posed place.
#[inline(never)]
pub fn skinning_palette(model: &[Mat4x3], inverse_bind: &[Mat4x3], palette: &mut [Mat4x3]) {
    for i in 0..model.len().min(inverse_bind.len()).min(palette.len()) {
        palette[i] = model[i] * inverse_bind[i];
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
