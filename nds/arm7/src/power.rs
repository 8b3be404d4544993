//! The ARM9's way out (`nds/arm9/src/hw/exit.rs`), served here because
//! only the ARM7 reaches the power manager and can hand itself to a
//! loader:
//! - the loader's reset code ([`LOADER_RESET`], sent by the bootstub's
//!   ARM9 entry): the IPC-sync handshake of libnds, then the BIOS soft
//!   reset, which jumps to the ARM7 entry the bootstub wrote at
//!   0x02FFFE34 (the loader in VRAM C);
//! - [`POWER_OFF`]: bit 6 of the power manager's control register.
//!
//! And the lid (the ARM9's half and the handshake: `nds/arm9/src/hw/lid.rs`):
//! once the ARM9 has parked, the backlights go off and the ARM7 halts
//! until the lid-open interrupt ([`HALT`] says why not sleep mode).

use core::ptr::{read_volatile, write_volatile};

use crate::input_block::{InputBlock, EXT_LID_CLOSED, POWERING_OFF, SLEEPING};
use crate::io::{
    read16, read32, spi_exchange, spi_wait, write16, write32, write8, EXTKEYIN, IE, IF, IME,
    SPICNT, SPI_ENABLE, SPI_HOLD,
};

const IPCSYNC: usize = 0x0400_0180;
const IPCFIFOCNT: usize = 0x0400_0184;
const IPCFIFORECV: usize = 0x0410_0000;
const HALTCNT: usize = 0x0400_0301;

/// IPCFIFOCNT: enable (bit 15), clear our send FIFO (bit 3); bit 8 is
/// "receive FIFO empty".
const FIFO_ENABLE_AND_CLEAR: u16 = 1 << 15 | 1 << 3;
const FIFO_RECV_EMPTY: u16 = 1 << 8;

/// The ARM9's requests (the same values as `exit.rs`).
const LOADER_RESET: u32 = 0x0C04_000C;
const POWER_OFF: u32 = 0x5057_524F;

/// SPI to the power manager (device 0) at 1 MHz; the hold bit keeps the
/// chip selected between the register byte and the data byte.
const SPI_POWER_1MHZ: u16 = 2;
/// Power manager register 0 (control); bit 6 shuts the system down.
const PM_CONTROL: u8 = 0;
const PM_SHUT_DOWN: u8 = 1 << 6;
const PM_READ: u8 = 1 << 7;
/// Register 0: the lower and upper backlights, and the power LED's blink.
const PM_BACKLIGHTS: u8 = 1 << 2 | 1 << 3;
const PM_LED_BLINK: u8 = 1 << 4;

/// EXTKEYIN bit 7: the hinge, 1 while the lid is closed.
const HINGE_CLOSED: u16 = 1 << 7;
/// IE/IF bit of the lid-open interrupt (ARM7 only).
const IRQ_LID: u32 = 1 << 22;
/// HALTCNT: halt until an enabled interrupt. Not sleep mode (0xC0, the
/// BIOS Sleep function's write, which also stops the clocks): in
/// DeSmuME 0.9.12 the display never runs again after it (VCOUNT stays at
/// 262 and no VBlank comes), so the resume could not be tested; halted,
/// with both CPUs stopped and the backlights off, the console resumes in
/// DeSmuME.
const HALT: u8 = 0x80;
/// IPCSYNC: our output in bits 8-11, bit 13 raises the ARM9's interrupt.
const SYNC_SEND_IRQ: u16 = 1 << 13;
/// The ARM9's sync output while parked, and ours once awake (the values
/// of `nds/arm9/src/hw/lid.rs`).
const PARKED: u16 = 2;
const AWAKE: u16 = 3;

/// Enables the IPC FIFO and clears the sync output (at start-up).
pub fn enable_fifo() {
    write16(IPCFIFOCNT, FIFO_ENABLE_AND_CLEAR);
    write16(IPCSYNC, 0);
}

/// Takes the ARM9's messages, once a frame; the two requests never
/// return.
pub fn serve_requests(block: *mut InputBlock) {
    while read16(IPCFIFOCNT) & FIFO_RECV_EMPTY == 0 {
        match read32(IPCFIFORECV) {
            LOADER_RESET => reset_into_loader(),
            POWER_OFF => power_off(block),
            _ => {}
        }
    }
}

/// libnds's ARM7 side of the reset: raise our sync output, wait for the
/// ARM9's, lower ours, soft-reset (the bootstub's ARM9 entry waits for
/// exactly this sequence).
fn reset_into_loader() -> ! {
    write32(IME, 0);
    write32(IE, 0);
    write32(IF, u32::MAX);
    write16(IPCSYNC, 1 << 8);
    while read16(IPCSYNC) & 0xF != 1 {}
    write16(IPCSYNC, 0);
    // SAFETY: the BIOS's SoftReset (SWI 0) done by hand, as GBATEK
    // describes it for the ARM7: 0x0380FE00-0x0380FFFF (the BIOS stacks,
    // IRQ vector and flags) cleared, the SVC, IRQ and System stacks at
    // 0x0380FFDC, 0x0380FFB0 and 0x0380FF00 with zero LR and SPSR,
    // System mode, zero registers, then a jump to the ARM7 entry at
    // 0x02FFFE34 (0x027FFE34 mirrored), which the loader's bootstub set.
    // Not the SWI itself: melonDS's FreeBIOS never returns from it and
    // DeSmuME's built-in BIOS returns at once; by hand it is the same on
    // every console and emulator. Nothing of this program (code in WRAM
    // below the cleared range) runs after it.
    unsafe {
        core::arch::asm!(
            "mov r0, #0xD3",
            "msr cpsr_c, r0",
            "ldr sp, =0x0380FFDC",
            "mov lr, #0",
            "msr spsr_cxsf, lr",
            "mov r0, #0xD2",
            "msr cpsr_c, r0",
            "ldr sp, =0x0380FFB0",
            "mov lr, #0",
            "msr spsr_cxsf, lr",
            "mov r0, #0xDF",
            "msr cpsr_c, r0",
            "ldr sp, =0x0380FF00",
            "ldr r0, =0x0380FE00",
            "ldr r1, =0x03810000",
            "mov r2, #0",
            "2:",
            "str r2, [r0], #4",
            "cmp r0, r1",
            "blo 2b",
            "ldr r0, =0x02FFFE34",
            "ldr lr, [r0]",
            "mov r0, #0",
            "mov r1, #0",
            "mov r3, #0",
            "mov r4, #0",
            "mov r5, #0",
            "mov r6, #0",
            "mov r7, #0",
            "mov r8, #0",
            "mov r9, #0",
            "mov r10, #0",
            "mov r11, #0",
            "mov r12, #0",
            "bx lr",
            ".ltorg",
            options(noreturn)
        )
    }
}

/// With the lid closed and the ARM9 parked, sleeps until the lid opens:
/// backlights off (the power LED blinks), halted with only the lid-open
/// interrupt enabled, then backlights back and the ARM9 woken.
/// Returns false, doing nothing, while the ARM9 has not parked yet (it
/// parks at the start of its next frame).
pub fn sleep_if_parked(block: *mut InputBlock) -> bool {
    if read16(IPCSYNC) & 0xF != PARKED {
        return false;
    }
    set_power_field(block, SLEEPING);
    let control = pm_transfer(PM_READ | PM_CONTROL, 0);
    pm_transfer(PM_CONTROL, control & !PM_BACKLIGHTS | PM_LED_BLINK);
    let ie = read32(IE);
    write32(IF, IRQ_LID);
    write32(IE, IRQ_LID);
    while read16(EXTKEYIN) & HINGE_CLOSED != 0 {
        // Halt stops the CPU until an enabled interrupt (the lid's), whose
        // handler (main.rs) is in place with IRQs unmasked.
        write8(HALTCNT, HALT);
    }
    write32(IE, ie);
    write32(IF, IRQ_LID);
    pm_transfer(PM_CONTROL, control);
    set_power_field(block, 0);
    // The block still says closed until the next poll; an ARM9 that read
    // it again would park again, with nobody to wake it.
    // SAFETY: as set_power_field, for the ext_keys field.
    unsafe {
        let keys = core::ptr::addr_of_mut!((*block).ext_keys);
        write_volatile(keys, read_volatile(keys) & !EXT_LID_CLOSED);
    }
    write16(IPCSYNC, SYNC_SEND_IRQ | AWAKE << 8);
    // The ARM9 clears its output once it has seen ours.
    while read16(IPCSYNC) & 0xF == PARKED {}
    write16(IPCSYNC, 0);
    true
}

fn set_power_field(block: *mut InputBlock, value: u16) {
    // SAFETY: the block's address is main RAM only the ARM7 writes (see
    // input_block.rs); one field, written volatile.
    unsafe { write_volatile(core::ptr::addr_of_mut!((*block).power), value) };
}

/// One power-manager transfer: the register byte, then the data byte
/// (what it answers is the register's value when reading).
fn pm_transfer(register: u8, data: u8) -> u8 {
    spi_wait();
    write16(SPICNT, SPI_ENABLE | SPI_HOLD | SPI_POWER_1MHZ);
    spi_exchange(register);
    write16(SPICNT, SPI_ENABLE | SPI_POWER_1MHZ);
    spi_exchange(data)
}

/// Records the request in the input block, then sets the power manager's
/// shut-down bit; waits for the power to go.
fn power_off(block: *mut InputBlock) -> ! {
    set_power_field(block, POWERING_OFF);
    let control = pm_transfer(PM_READ | PM_CONTROL, 0);
    pm_transfer(PM_CONTROL, control | PM_SHUT_DOWN);
    loop {
        core::hint::spin_loop();
    }
}
