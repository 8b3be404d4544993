//! The hardware layer: the only place in the ROM with `unsafe`.

pub mod arm7_input;
pub mod boot;
pub mod exit;
pub mod gx;
pub mod gx_dma;
pub mod irq;
pub mod itcm;
pub mod keys;
pub mod lid;
pub mod mailbox;
pub mod mem;
pub mod once;
mod panic;
mod reg;
mod regs;
pub mod stack_guard;
pub mod start;
pub mod timer;
pub mod video;
