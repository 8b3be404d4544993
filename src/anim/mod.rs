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
//! # Cost (one 25-joint character, 15 brads; the bench ROM of `make
//! bench`, `nds/arm9/src/bench/anim.rs`)
//!
//! | figure | DeSmuME | melonDS | before the kernels (DeSmuME) |
//! |---|---:|---:|---:|
//! | `ragdoll_step_us.brads` (15 brads) | 151.1 us | 127.9 us | 462.6 us |
//! | `anim.inject_expand_us` (10 joints left to expand) | 124.7 us | 100.4 us | 243.2 us |
//! | `anim.palette_us` (25 products) | 176.7 us | 125.9 us | 311.4 us |
//! | **`anim_us`** (brads + expand + palette) | **451.8 us** | **353.5 us** | 1113.2 us |
//! | `anim.expand_us` (25 joints, no brads) | 267.1 us | 207.1 us | 569.5 us |
//! | `anim.sample_us` (walk clip, 9 tracks) | 165.8 us | 159.8 us | 169.5 us |
//! | `anim.blend_us` (25 nlerps) | 375.6 us | 351.8 us | 375.0 us |
//! | `anim.unit15_divider_us` (15 unit vectors, DS units) | 122.2 us | 116.2 us | |
//! | `anim.unit15_rsqrt_us` (the same, [`rsqrt`]) | 44.4 us | 36.6 us | |
//!
//! Expand and palette run on [`affine`]'s raw-integer kernels (same bits
//! as the FX types); the brads on `i32` arithmetic and [`rsqrt`]'s unit
//! vectors (no divider). Still about 7.5x the 60 us goal in DeSmuME: a
//! joint's 4x3 product is 36 multiplies and 12 roundings, about 200 ARM
//! instructions, and the palette alone is 25 of them. Sample and blend
//! still normalise every quaternion on the divider.
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
pub mod qlerp;
pub mod rsqrt;
pub mod sample;
pub mod velocity;
pub mod workload;

pub use blend::{blend_poses, CrossFade};
pub use brad::{build_brads, inject, Axis, Brad, BradDef, BradTable, BradTableDef};
pub use character::Character;
pub use def::{Clip, JointPose, Skeleton, Track, MAX_JOINTS, NO_PARENT};
pub use expand::{expand, expand_palette, local_from_model, skinning_palette};
pub use handover::{particle_targets, start_ragdoll, GetUp};
pub use sample::sample_clip;
