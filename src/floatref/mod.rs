//! An `f32` twin of the Verlet ragdoll frame, for the "fixed against
//! float" benchmark (issue 8): the same integration, constraint
//! relaxation and box-room collision as [`Ragdoll::step_with`] with
//! [`BoxRoom::collide`], written with `f32` the way a user with a float
//! math library would. The ARM9 has no FPU, so on the DS every `f32`
//! operation is a call into the compiler's soft-float routines; the bench
//! ROM times both in the same run.
//!
//! It is the same work, step for step: the Verlet move with damping,
//! gravity and the speed cap; Jakobsen's square-root-free correction
//! inside the same window and the exact one (a square root and a
//! division) outside it; the same mass split; the same walls. Only the
//! fixed step's momentum give-back is left out (it corrects FX rounding
//! that float does not have); the bench turns it off on the fixed side
//! too. The host tests check that the twin tracks the fixed ragdoll.
//!
//! Not bit-identical across platforms (that is the fixed engine's job),
//! and not used by the engine: a reference only.
//!
//! [`Ragdoll::step_with`]: crate::verlet::Ragdoll::step_with
//! [`BoxRoom::collide`]: crate::verlet::BoxRoom::collide

mod math;
mod ragdoll;

pub use math::{sqrt, FloatMath, Libm, Micromath, V3};
pub use ragdoll::{FloatRagdoll, FloatRoom, FloatSettings};

#[cfg(test)]
mod tests;
