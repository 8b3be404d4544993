//! The skinning palette as geometry-engine matrix commands (issue 24):
//! the sequence the ROM writes to the GX (`render::skinned`) and the host
//! model replays ([`super::gx_matrix::GxStack`]), from one function, so
//! that the model predicts exactly what the hardware is asked to do.
//!
//! With the camera current, slot `j` of the position matrix stack ends up
//! holding `M_j · camera` (row vectors), where `M_j` is
//! - joint `j`'s model matrix, sent whole, for the joints in `from_model`
//!   (every joint of a walking character, whose model matrices the CPU
//!   needs anyway; a limp one's brad joints);
//! - otherwise its parent's slot times its local pose: the engine does
//!   the expand product (RESTORE the parent, MULT the local matrix), and
//!   the CPU only turns the local rotation into words. A limp
//!   character's other joints never need a model matrix on the CPU.
//!
//! The camera waits in [`CAMERA_SLOT`]; it is current again at the end.

use crate::fx::Mat4x3;

use super::affine::rotation;
use super::def::{JointPose, NO_PARENT};

/// The stack slot that keeps the camera (joints take `0..CAMERA_SLOT`).
pub const CAMERA_SLOT: u8 = 30;

/// One matrix command of the palette. The matrices are borrowed, so that
/// the ROM writes them to the engine's port straight from where they are
/// (a copy of each cost more than the port writes it fed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaletteOp<'a> {
    /// MTX_STORE: the slot takes the current matrix.
    Store(u8),
    /// MTX_RESTORE: the slot's matrix becomes current.
    Restore(u8),
    /// MTX_MULT_4x3 of these words (columns, then the translation).
    Mult(&'a [i32; 12]),
    /// MTX_MULT_4x3 of [`words_shifted`] of this matrix and shift.
    MultShifted(&'a Mat4x3, u32),
}

/// `m` as MTX_MULT_4x3 words, its translation shifted right by `shift`
/// (the renderer's submission units: metres / 2^shift).
#[inline(always)]
pub fn words_shifted(m: &Mat4x3, shift: u32) -> [i32; 12] {
    let mut w = m.to_gx_4x3();
    for t in &mut w[9..] {
        *t >>= shift;
    }
    w
}

/// A local pose as MTX_MULT_4x3 words: its rotation (the same bits as
/// `Quat::to_mat3`), its translation shifted right by `shift`.
#[inline(always)]
pub fn local_words(pose: &JointPose, shift: u32) -> [i32; 12] {
    words_shifted(&Mat4x3::new(rotation(pose.rot), pose.trans), shift)
}

/// Every local pose as [`local_words`], into `out`: a limp character's
/// local poses hold still, so its renderer turns them into words once,
/// when it goes limp, not every frame.
pub fn all_local_words(local: &[JointPose], shift: u32, out: &mut [[i32; 12]]) {
    for (o, l) in out.iter_mut().zip(local) {
        *o = local_words(l, shift);
    }
}

/// The slots [`palette_ops`] fills for the joints in `needed`: those,
/// and the parent of every filled joint it expands from its parent.
pub fn filled_slots(parents: &[u8], needed: u32, from_model: u32) -> u32 {
    let n = parents.len().min(CAMERA_SLOT as usize);
    let mut fill = needed & (1u32 << n).wrapping_sub(1);
    // Every needed joint from its model matrix (a limp character's
    // mesh, bound to the brads' joints): no parent to add.
    if fill & !from_model == 0 {
        return fill;
    }
    // Children come after their parents: one pass backwards.
    for (j, &p) in parents[..n].iter().enumerate().rev() {
        if fill & 1 << j != 0 && from_model & 1 << j == 0 && p != NO_PARENT {
            fill |= 1 << p;
        }
    }
    fill
}

/// Emits the palette's commands for the joints in `needed` (of
/// `0..parents.len()`, at most [`CAMERA_SLOT`]; parents first), and the
/// ancestors their expand needs ([`filled_slots`]): `model[j]` for the
/// joints whose bit is set in `from_model`, the parent's slot times
/// `local[j]` (the local pose as [`local_words`]) for the others,
/// `placement` times `local[j]` for a root.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn palette_ops<'a>(
    parents: &[u8],
    local: &'a [[i32; 12]],
    placement: &'a Mat4x3,
    model: &'a [Mat4x3],
    from_model: u32,
    needed: u32,
    shift: u32,
    mut emit: impl FnMut(PaletteOp<'a>),
) {
    emit(PaletteOp::Store(CAMERA_SLOT));
    let n = parents.len().min(CAMERA_SLOT as usize).min(local.len());
    let fill = filled_slots(parents, needed, from_model) & (1u32 << n).wrapping_sub(1);
    // The filled slots in order, lowest bit first (15 of 25 joints for a
    // limp character: the others cost nothing).
    let mut rest = fill;
    while rest != 0 {
        let j = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if from_model & 1 << j != 0 {
            emit(PaletteOp::Restore(CAMERA_SLOT));
            emit(PaletteOp::MultShifted(&model[j], shift));
        } else {
            let p = parents[j];
            if p == NO_PARENT {
                emit(PaletteOp::Restore(CAMERA_SLOT));
                emit(PaletteOp::MultShifted(placement, shift));
            } else {
                emit(PaletteOp::Restore(p));
            }
            emit(PaletteOp::Mult(&local[j]));
        }
        emit(PaletteOp::Store(j as u8));
    }
    emit(PaletteOp::Restore(CAMERA_SLOT));
}
