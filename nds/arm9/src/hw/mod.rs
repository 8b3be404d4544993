//! The hardware layer: the only place in the ROM with `unsafe`.

pub mod keys;
pub mod mailbox;
mod panic;
mod reg;
mod regs;
pub mod start;
pub mod timer;
pub mod video;
