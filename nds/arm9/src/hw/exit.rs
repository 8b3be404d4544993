//! Leaving the ROM (issue 22): back to the loader where the loader left
//! a bootstub, else power off.
//!
//! The bootstub is the exit-to-loader protocol of libnds loaders (NDS
//! Homebrew Menu, TWiLight Menu++, many flashcart menus): a structure 48
//! KiB below the end of main RAM, `"bootstub"` as a `u64`, then the ARM9
//! and ARM7 reboot entry points. Read at 0x02FF4000, it is found in DSi
//! mode (16 MiB) and in DS mode, where 0x02FF4000 mirrors 0x023F4000 (4
//! MiB). Its ARM9 entry takes it from there: it sends the ARM7 libnds's
//! reset code (0x0C04000C) through the IPC FIFO, and our ARM7 answers
//! with the IPC-sync handshake and a BIOS soft reset into the loader
//! (`nds/arm7/src/power.rs`).
//!
//! Without a bootstub (an emulator, a menu without the protocol) the
//! ARM7 is asked to switch the power off ([`POWER_OFF`]), which on a DSi
//! returns to its menu.

use super::reg::Reg;
use super::regs::{IE, IME};

/// The bootstub's address (see the module docs).
const BOOTSTUB: usize = 0x02FF_4000;
/// Its signature: "bootstub" in ASCII, little-endian.
const BOOTSIG: u64 = u64::from_le_bytes(*b"bootstub");

const IPCFIFOCNT: Reg<u16> = Reg::at(0x0400_0184);
const IPCFIFOSEND: Reg<u32> = Reg::at(0x0400_0188);

/// IPCFIFOCNT: enable both FIFOs (bit 15), clear our send FIFO (bit 3).
pub const FIFO_ENABLE_AND_CLEAR: u16 = 1 << 15 | 1 << 3;
/// The ARM9 asks the ARM7 to power off (ours; libnds never sends it).
pub const POWER_OFF: u32 = 0x5057_524F; // "ORWP"

/// Which way [`leave`] went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Path {
    Loader = 1,
    PowerOff = 2,
}

/// True when a loader left a bootstub.
pub fn bootstub_present() -> bool {
    // SAFETY: main RAM (or its mirror) is always mapped, and MPU region 0
    // covers the mirror uncached; two word reads of an aligned address.
    let (lo, hi) = unsafe {
        let p = BOOTSTUB as *const u32;
        (p.read_volatile(), p.add(1).read_volatile())
    };
    (lo as u64 | (hi as u64) << 32) == BOOTSIG
}

/// Leaves the ROM; `before` runs first with the path taken (to record it).
pub fn leave(before: impl FnOnce(Path)) -> ! {
    IME.write(0);
    IE.write(0);
    if bootstub_present() {
        before(Path::Loader);
        // SAFETY: a loader that writes the signature writes its ARM9
        // reboot entry in the next word (the protocol); it takes over the
        // machine and never returns.
        unsafe {
            let entry = ((BOOTSTUB + 8) as *const u32).read_volatile();
            let reboot: extern "C" fn() -> ! = core::mem::transmute(entry as usize);
            reboot()
        }
    }
    before(Path::PowerOff);
    IPCFIFOSEND.write(POWER_OFF);
    loop {
        // Nothing left to do until the power goes.
        core::hint::spin_loop();
    }
}

/// Enables the IPC FIFO, which both the bootstub and [`leave`] talk
/// through (at boot, from `boot::reset_io`).
pub fn enable_fifo() {
    IPCFIFOCNT.write(FIFO_ENABLE_AND_CLEAR);
}
