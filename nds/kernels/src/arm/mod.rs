//! The ARM9 forms of the kernels (ARMv5TE, ARM state).

pub(crate) mod brad;
pub(crate) mod cap;
pub(crate) mod integrate;
pub(crate) mod q20;
pub(crate) mod reach;
pub(crate) mod relax;
