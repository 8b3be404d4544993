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
//! 3. brads: [`brad::BradTable::build`] (ragdoll particles to joint
//!    matrices) and [`brad::BradTable::inject`];
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
//! # Cost (one 25-joint character, 15 brads; `nds/arm9/src/bench/anim.rs`)
//!
//! "before" is the last `make bench` before `anim::qlerp` (docs/performance.md);
//! "now" the same figures from the bench ROM with only the anim figures
//! enabled (a different code layout: DeSmuME moves 10-20% with layout).
//!
//! | figure | DeSmuME before | now | melonDS before | now |
//! |---|---:|---:|---:|---:|
//! | `ragdoll_step_us.brads` (15 brads) | 151.1 | 151.1 | 126.9 | 126.5 |
//! | `anim.inject_expand_us` (10 joints left to expand) | 124.7 | 124.3 | 100.4 | 104.0 |
//! | `anim.palette_us` (25 products) | 176.7 | 184.1 | 125.9 | 142.6 |
//! | **`anim_us`** (brads + expand + palette) | **451.8** | **461.5** | **352.9** | **373.1** |
//! | `anim.expand_us` (25 joints, no brads) | 267.1 | 271.4 | 207.1 | 218.6 |
//! | `anim.sample_us` (walk clip, 9 tracks) | 165.8 | 110.0 | 159.8 | 96.5 |
//! | `anim.blend_us` (25 nlerps) | 375.6 | 220.7 | 351.8 | 189.9 |
//! | `anim.unit15_divider_us` (15 unit vectors, DS units) | 122.2 | 122.2 | 116.2 | 117.8 |
//! | `anim.unit15_rsqrt_us` (the same, [`rsqrt`]) | 44.4 | 44.4 | 36.6 | 36.6 |
//!
//! Since then (issue 24) the ROM builds the palette on the geometry
//! engine, which also expands a limp character's joints without a brad
//! ([`gx_palette`]); `anim_us` became `anim_us.cpu_palette`, and the
//! frame as the ROM runs it is `anim_us.total`, 215.2 us in DeSmuME
//! (docs/skinning.md).
//!
//! Sample and blend normalise with [`qlerp`] (no divider). Expand and
//! palette run on [`affine`]'s raw-integer kernels (same bits as the FX
//! types), fused in one pass ([`expand::expand_palette`]); the brads on
//! `i32` arithmetic and [`rsqrt`]'s unit vectors. `anim_us` is still
//! about 7.5x the 60 us goal in DeSmuME, which charges about 2-3 cycles
//! per ARM9 instruction: a joint's 4x3 product is about 100 instructions
//! with its spills (36 multiplies, 12 roundings, 24 loads, 12 stores), so
//! the 35 products alone are about 3,500 instructions, near 120 us, and
//! a brad is about 10 us (two unit vectors of about 3 us each). Fusing
//! the passes and moving small translations from `i64` to `i32` (with
//! the tie fix-up) did not move the figures beyond layout noise.
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
pub mod gx_matrix;
pub mod gx_palette;
pub mod handover;
pub mod humanoid;
pub mod humanoid_brads;
pub mod qlerp;
/// Moved to [`crate::fx::rsqrt`] (the rigid bodies use it too); kept here
/// under its old path.
pub use crate::fx::rsqrt;
pub mod sample;
/// Moved to the kernels crate (the brads' ARM pass shares it); kept
/// here under its old path.
pub use kernels::unit32;
pub mod velocity;
pub mod workload;

pub use blend::{blend_poses, CrossFade};
pub use brad::{Axis, BradDef, BradTable, BradTableDef};
pub use character::Character;
pub use def::{Clip, JointPose, Skeleton, Track, MAX_JOINTS, NO_PARENT};
pub use expand::{expand, expand_palette, local_from_model, skinning_palette};
pub use handover::{particle_targets, start_ragdoll, GetUp};
pub use sample::sample_clip;
