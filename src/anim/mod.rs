//! Animation (issue 5): skeletons and clips, the animation cycle of seed
//! 004, the brad table that turns ragdoll particles into joint matrices,
//! and the hand-over between animation and ragdoll with inherited
//! velocity (seed 001).
//!
//! The cycle, one free function over plain arrays per stage:
//! 1. keyframe blending: [`sample::sample_clip`] (a clip at a time gives
//!    a local pose);
//! 2. animation blending: [`blend::blend_poses`] with a
//!    [`blend::CrossFade`] weight;
//! 3. brads: [`brad::build_brads`] (ragdoll particles to joint matrices)
//!    and [`brad::inject`];
//! 4. expanding: [`expand::expand`] (local to model space; a joint in the
//!    `given` mask keeps the matrix already there: the brad's);
//! 5. prepare for skinning: [`expand::skinning_palette`].
//!
//! Animation knows brads only as "a joint whose model-space matrix is
//! given". [`character::Character`] owns one character's arrays and runs
//! the stages in order. [`handover`] switches to ragdoll keeping the
//! animated velocity, and back with a fade. [`workload`] holds the fixed
//! runs shared by the ROM's determinism test and the bench.
//!
//! # Cost (`make bench`, one 25-joint character, 15 brads)
//!
//! | figure | DeSmuME | melonDS |
//! |---|---:|---:|
//! | `ragdoll_step_us.brads` (15 brads) | 462.8 us | 436.5 us |
//! | `anim_us` (brads + expand + palette) | 1114.5 us | 907.4 us |
//! | `anim.sample_us` (walk clip, 9 tracks) | 163.8 us | 159.5 us |
//! | `anim.expand_palette_us` (no brads) | 880.1 us | 750.1 us |
//!
//! Far above the 60 us goal: each joint costs a quaternion-to-matrix and
//! two `Mat4x3` products, about 1,100 ARM instructions with the FX rules'
//! rounding (ties away from zero, saturation) on every entry, and each
//! brad two normalisations on the divider and square-root units. These
//! loops still run from main RAM: `linker.ld`'s ITCM rule names only
//! `dsphys::verlet`.
//!
//! Data: [`humanoid`] (skeleton and idle/walk/run clips, emitted by
//! `assetc` from `assets/characters/`) and [`humanoid_brads`] (from
//! `assets/ragdolls/humanoid.brads`).

pub mod affine;
pub mod blend;
pub mod brad;
pub mod character;
pub mod def;
pub mod expand;
pub mod handover;
pub mod humanoid;
pub mod humanoid_brads;
pub mod sample;
pub mod velocity;
pub mod workload;

pub use blend::{blend_poses, CrossFade};
pub use brad::{build_brads, inject, Axis, Brad, BradDef, BradTable, BradTableDef};
pub use character::Character;
pub use def::{Clip, JointPose, Skeleton, Track, MAX_JOINTS, NO_PARENT};
pub use expand::{expand, local_from_model, skinning_palette};
pub use handover::{particle_targets, start_ragdoll, GetUp};
pub use sample::sample_clip;
