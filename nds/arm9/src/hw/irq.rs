//! Interrupts, for one job: halting the ARM9 between frames instead of
//! spinning on VCOUNT (a spinning CPU drains the battery on a real DS).
//!
//! The BIOS takes every IRQ and calls the handler whose address sits at
//! the end of DTCM - 4; BIOS IntrWait and VBlankIntrWait halt the CPU
//! until the handler has ORed the interrupt's bit into the check flags
//! at the end of DTCM - 8 (GBATEK "BIOS Halt Functions"; NDS-FACTS).
//! So the handler acknowledges what it handles in IF, sets those check
//! flags, and counts VBlanks for the profiler. It is in ITCM: always
//! mapped, never a cache miss.

use super::reg::Reg;
use super::regs::{IE, IF, IME};

// The handler: IF & IE acknowledged, ORed into the BIOS check flags,
// and VBlanks counted in `VBLANKS` (the BIOS saved r0-r3, r12 and lr).
core::arch::global_asm!(
    r#"
    .section .itcm.irq_handler, "ax"
    .arm
    .global dsphys_irq_handler
dsphys_irq_handler:
    mov     r0, #0x04000000
    ldr     r1, [r0, #0x210]        @ IE
    ldr     r2, [r0, #0x214]        @ IF
    and     r1, r1, r2
    str     r1, [r0, #0x214]        @ acknowledge
    ldr     r0, =__dtcm_irq_flags
    ldr     r2, [r0]
    orr     r2, r2, r1
    str     r2, [r0]
    tst     r1, #1                  @ VBlank?
    ldrne   r0, =VBLANKS
    ldrne   r2, [r0]
    addne   r2, r2, #1
    strne   r2, [r0]
    bx      lr
    .pool
"#
);

extern "C" {
    fn dsphys_irq_handler();
}

/// VBlanks seen by the handler since `enable_vblank`.
#[no_mangle]
static mut VBLANKS: u32 = 0;

const DISPSTAT: Reg<u16> = Reg::at(0x0400_0004);
/// DTCM end - 4: the handler's address, read by the BIOS.
const HANDLER: Reg<u32> = Reg::at(0x0B00_3FFC);
const VBLANK: u32 = 1;

/// Installs the handler and turns on the VBlank interrupt (DISPSTAT bit
/// 3, IE bit 0, IME) with IRQs unmasked in the CPU.
pub fn enable_vblank() {
    IME.write(0);
    HANDLER.write(dsphys_irq_handler as *const () as usize as u32);
    IF.write(u32::MAX);
    IE.write(VBLANK);
    DISPSTAT.write(DISPSTAT.read() | 1 << 3);
    IME.write(1);
    // SAFETY: clears the CPSR's I bit (bit 7) in System mode; the handler
    // above and its BIOS check flags are in place.
    unsafe {
        core::arch::asm!(
            "mrs {t}, cpsr",
            "bic {t}, {t}, #0x80",
            "msr cpsr_c, {t}",
            t = out(reg) _,
        )
    };
}

/// Halts until the next VBlank starts (BIOS VBlankIntrWait: the CPU
/// sleeps until the interrupt). Needs `enable_vblank` first.
pub fn wait_vblank() {
    // SAFETY: SWI 5 is the BIOS's VBlankIntrWait; it runs in SVC mode on
    // the SVC stack crt0 set up, and clobbers r0-r3 and r12.
    unsafe {
        core::arch::asm!(
            "swi #0x050000",
            out("r0") _, out("r1") _, out("r2") _, out("r3") _, out("r12") _,
        )
    };
}

/// Halts until one of the interrupts in `flags` (IE/IF bits, enabled by
/// the caller) comes: BIOS IntrWait(1, flags).
pub fn intr_wait(flags: u32) {
    // SAFETY: SWI 4 is the BIOS's IntrWait (r0 = 1: wait for a new one,
    // r1 = the flags); it runs in SVC mode on the SVC stack crt0 set up,
    // and the handler above ORs the bits it takes into the check flags.
    unsafe {
        core::arch::asm!(
            "swi #0x040000",
            inout("r0") 1u32 => _, inout("r1") flags => _,
            out("r2") _, out("r3") _, out("r12") _,
        )
    };
}

/// VBlank interrupts taken so far.
pub fn vblanks() -> u32 {
    // SAFETY: a word read of a word the handler alone writes.
    unsafe { core::ptr::read_volatile(core::ptr::addr_of!(VBLANKS)) }
}
