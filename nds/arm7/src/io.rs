//! The ARM7's I/O: register accessors, the registers more than one part
//! of the program uses, and the SPI bus (touch controller and power
//! manager).

use core::ptr::{read_volatile, write_volatile};

pub const IME: usize = 0x0400_0208;
pub const IE: usize = 0x0400_0210;
pub const IF: usize = 0x0400_0214;
pub const EXTKEYIN: usize = 0x0400_0136;
pub const SPICNT: usize = 0x0400_01C0;
pub const SPIDATA: usize = 0x0400_01C2;

/// SPICNT bits: enable, busy, and hold (the chip stays selected after
/// the transfer, for a command's next byte).
pub const SPI_ENABLE: u16 = 1 << 15;
pub const SPI_BUSY: u16 = 1 << 7;
pub const SPI_HOLD: u16 = 1 << 11;

pub fn read8(addr: usize) -> u8 {
    // SAFETY: every address passed to these accessors is an always-mapped
    // ARM7 I/O register, the ARM7's WRAM or main RAM, accessed with the
    // width it has.
    unsafe { read_volatile(addr as *const u8) }
}

pub fn read16(addr: usize) -> u16 {
    // SAFETY: as read8.
    unsafe { read_volatile(addr as *const u16) }
}

pub fn read32(addr: usize) -> u32 {
    // SAFETY: as read8.
    unsafe { read_volatile(addr as *const u32) }
}

pub fn write8(addr: usize, v: u8) {
    // SAFETY: as read8.
    unsafe { write_volatile(addr as *mut u8, v) }
}

pub fn write16(addr: usize, v: u16) {
    // SAFETY: as read8.
    unsafe { write_volatile(addr as *mut u16, v) }
}

pub fn write32(addr: usize, v: u32) {
    // SAFETY: as read8.
    unsafe { write_volatile(addr as *mut u32, v) }
}

/// Waits until the SPI bus has finished its transfer.
pub fn spi_wait() {
    while read16(SPICNT) & SPI_BUSY != 0 {}
}

/// Sends one byte on the SPI bus as SPICNT is set, waits, and returns
/// the byte that came back.
pub fn spi_exchange(out: u8) -> u8 {
    write16(SPIDATA, out as u16);
    spi_wait();
    read16(SPIDATA) as u8
}
