//! dsphys: fixed-point character physics for the Nintendo DS.
//!
//! `no_std`, no register access: the same code runs on the host (tests)
//! and on the ARM9 (the ROM), and must give bit-identical results.
#![cfg_attr(not(test), no_std)]

pub use divsqrt;
pub use kernels;

pub mod anim;
pub mod collision;
pub mod floatref;
pub mod fx;
pub mod rigid;
pub mod scenario;
pub mod soak;
pub mod verlet;
pub mod xorshift;
