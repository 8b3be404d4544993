//! Typed memory-mapped registers. Every register is declared once, in
//! `regs.rs`, with its address and width; the rest of the ROM reads and
//! writes through these, with no `unsafe` of its own.

use core::marker::PhantomData;
use core::ptr::{read_volatile, write_volatile};

#[derive(Clone, Copy)]
pub struct Reg<T> {
    addr: usize,
    _width: PhantomData<T>,
}

impl<T: Copy> Reg<T> {
    /// Only `regs.rs` declares registers, each at a documented address.
    pub(super) const fn at(addr: usize) -> Self {
        Reg {
            addr,
            _width: PhantomData,
        }
    }

    #[inline(always)]
    pub fn read(self) -> T {
        // SAFETY: `addr` is a documented, always-mapped ARM9 I/O register of
        // width `T` (see regs.rs); volatile keeps the access as written.
        unsafe { read_volatile(self.addr as *const T) }
    }

    #[inline(always)]
    pub fn write(self, value: T) {
        // SAFETY: as for `read`.
        unsafe { write_volatile(self.addr as *mut T, value) }
    }
}
