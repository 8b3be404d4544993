//! Closing the lid (issue 22): the ARM9 parks, the ARM7 puts the console
//! to sleep, and opening the lid brings both back.
//!
//! The two CPUs meet through IPCSYNC (each writes a 4-bit value the other
//! reads, and can raise an interrupt on the other side):
//! 1. The ARM7 publishes the hinge in the input block every frame.
//! 2. The ARM9, seeing it closed at the start of a frame, sets its sync
//!    output to [`PARKED`] and halts in IntrWait on the IPC-sync
//!    interrupt alone (no VBlanks).
//! 3. The ARM7 waits for [`PARKED`], turns both backlights off (the power
//!    LED blinks), and halts until the lid-open interrupt
//!    (`nds/arm7/src/power.rs`, which says why a halt and not the BIOS's
//!    sleep mode).
//! 4. Awake, it turns the backlights on and sends [`AWAKE`] with an
//!    IPC-sync interrupt; the ARM9 clears its output and goes on with the
//!    next VBlank.
//!
//! The values stay clear of libnds's loader handshake (1, then 0), which
//! `exit` leaves to the bootstub.

use super::reg::Reg;
use super::regs::{IE, IF};

/// The ARM9's sync output while it is parked.
pub const PARKED: u16 = 2;
/// The ARM7's sync output once the lid is open again.
pub const AWAKE: u16 = 3;

const IPCSYNC: Reg<u16> = Reg::at(0x0400_0180);
/// IE/IF bit of the IPC-sync interrupt.
const IRQ_IPC_SYNC: u32 = 1 << 16;
/// IPCSYNC bit 14: take the other CPU's sync interrupt.
const SYNC_IRQ_ENABLE: u16 = 1 << 14;

/// The ARM7's sync output (IPCSYNC bits 0-3, as this side reads it).
fn remote() -> u16 {
    IPCSYNC.read() & 0xF
}

/// Parks the ARM9 until the ARM7 reports the lid open again; interrupts
/// are back to what they were (`ie`) when it returns.
pub fn sleep_until_open() {
    let ie = IE.read();
    IE.write(IRQ_IPC_SYNC);
    IF.write(IRQ_IPC_SYNC);
    IPCSYNC.write(SYNC_IRQ_ENABLE | PARKED << 8);
    while remote() != AWAKE {
        super::irq::intr_wait(IRQ_IPC_SYNC);
    }
    IPCSYNC.write(0);
    // VBlanks that came while parked are stale: the next frame waits
    // for a fresh one.
    IF.write(u32::MAX);
    IE.write(ie);
}
