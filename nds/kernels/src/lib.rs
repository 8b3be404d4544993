//! The engine's hottest loops, where compiled code leaves most of its
//! cycles in spills and reloads: hand-scheduled ARM on the DS ARM9
//! (`target_arch = "arm"`, `target_os = "none"`), and the same arithmetic
//! in Rust everywhere else, which is the reference. Both give the same
//! bits; the ROM's self-test `relax_kernel_matches_host` compares them on
//! the DS, and the ragdoll hashes compare the whole engine.
//!
//! Like `divsqrt`, this is hardware layer: the engine calls it and never
//! sees a register.
#![no_std]

pub mod brad;
pub mod cap;
pub mod integrate;
pub mod q20;
pub mod reach;
pub mod relax;
pub mod unit32;

#[cfg(all(target_arch = "arm", target_os = "none"))]
mod arm;
