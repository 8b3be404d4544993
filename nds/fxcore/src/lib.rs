//! The engine's FX scalar types ([`power`]) and FX vectors ([`vec3`]),
//! in a crate of their own so that the hardware layer's kernels
//! (`nds/kernels`) can take the engine's arrays of [`Vec3`] as the words
//! they are (`Vec3` is `#[repr(C)]`, each `Fx1` one `i32`).
//!
//! The engine re-exports both as `dsphys::fx::power` and
//! `dsphys::fx::vec3`; its module docs (`dsphys::fx`) describe them.
#![no_std]

pub mod power;
#[doc(hidden)]
pub mod unit;
pub mod vec3;

pub use power::{Fx, Fx1, Fx2, Fx3, Fx4, Fx5, Lower, Raise};
pub use vec3::Vec3;
