//! The ARM7 program: once per frame it reads what only the ARM7 can see
//! (the X and Y buttons, the lid, the pen-down flag and the touch screen's
//! position, over SPI from the touch controller) and publishes it in the
//! shared input block (`input_block.rs`) for the ARM9.
//!
//! Touch positions become pixels through the calibration in the firmware's
//! user settings (copied to 0x02FFFC80 by the boot code), or through the
//! documented default if those are missing or unusable. Each frame takes
//! several samples, filtered in `touch_filter.rs`.
//!
//! It also serves the ARM9's way out (`nds/arm9/src/hw/exit.rs`): a
//! loader's reset code through the IPC FIFO, or a power-off request.
#![no_std]
#![no_main]

mod input_block;
mod io;
mod power;
mod touch_filter;

use core::ptr::{read_volatile, write_volatile};
use input_block::{Calibration, InputBlock};
use io::{
    read16, read8, spi_exchange, spi_wait, write16, write32, EXTKEYIN, IE, IF, IME, SPICNT,
    SPI_ENABLE, SPI_HOLD,
};
use touch_filter::{Sample, TouchFilter, SAMPLES};

core::arch::global_asm!(
    r#"
    .section .crt0, "ax"
    .arm
    .global _start
_start:
    mov     r0, #0x04000000
    str     r0, [r0, #0x208]        @ IME = 0
    @ Stacks where the BIOS keeps them (GBATEK): IRQ and SVC (the BIOS's
    @ IRQ dispatch and IntrWait run there), then System for the program;
    @ IRQs masked in the CPU until arm7_main enables them.
    mov     r0, #0xD2
    msr     cpsr_c, r0
    ldr     sp, =0x0380FFB0
    mov     r0, #0xD3
    msr     cpsr_c, r0
    ldr     sp, =0x0380FFDC
    mov     r0, #0xDF
    msr     cpsr_c, r0
    ldr     sp, =__stack_top
    @ Zero .bss: no loader clears the ARM7's WRAM, and a static the
    @ program starts to rely on would otherwise hold whatever the last
    @ program left there (emulators start it zeroed, which hides this).
    ldr     r0, =__bss_start
    ldr     r1, =__bss_end
    mov     r2, #0
1:  cmp     r0, r1
    strlo   r2, [r0], #4
    blo     1b
    bl      arm7_main
    b       .
    .pool

@ The IRQ handler (its address at 0x0380FFFC, read by the BIOS):
@ acknowledges IF & IE and ORs them into the BIOS check flags at
@ 0x0380FFF8, which IntrWait waits on. The BIOS saved r0-r3.
    .global arm7_irq_handler
arm7_irq_handler:
    mov     r0, #0x04000000
    ldr     r1, [r0, #0x210]        @ IE
    ldr     r2, [r0, #0x214]        @ IF
    and     r1, r1, r2
    str     r1, [r0, #0x214]
    ldr     r0, =0x0380FFF8
    ldr     r2, [r0]
    orr     r2, r2, r1
    str     r2, [r0]
    bx      lr
    .pool
"#
);

extern "C" {
    fn arm7_irq_handler();
}

const DISPSTAT: usize = 0x0400_0004;
const IRQ_HANDLER: usize = 0x0380_FFFC;
/// IE/IF bit of the VCOUNT match interrupt.
const IRQ_VCOUNT: u32 = 1 << 2;
/// The scanline the ARM7 wakes on: before the ARM9's VBlank frame (line
/// 192) with time to spare for the touch samples (20 conversions of
/// about 12 us at 2 MHz, 0.3 ms of the 0.76 ms that 12 lines take); at
/// line 190 the block came a frame late in melonDS, which times SPI.
const WAKE_LINE: u16 = 180;

/// The VCOUNT-match interrupt at `WAKE_LINE`, with the handler above.
fn enable_line_interrupt() {
    write32(IME, 0);
    write32(IRQ_HANDLER, arm7_irq_handler as *const () as usize as u32);
    write32(IF, u32::MAX);
    write32(IE, IRQ_VCOUNT);
    // DISPSTAT: the VCOUNT setting in bits 8-15 (bit 7 is its 9th bit),
    // the VCOUNT-match IRQ enable in bit 5.
    write16(DISPSTAT, WAKE_LINE << 8 | 1 << 5);
    write32(IME, 1);
    // SAFETY: clears the CPSR's I bit in System mode, with the handler
    // and the BIOS's stacks in place.
    unsafe {
        core::arch::asm!(
            "mrs {t}, cpsr",
            "bic {t}, {t}, #0x80",
            "msr cpsr_c, {t}",
            t = out(reg) _,
        )
    };
}

/// Halts until the scanline interrupt (BIOS IntrWait(1, VCOUNT): the CPU
/// sleeps instead of spinning on VCOUNT).
fn wait_for_wake_line() {
    // SAFETY: SWI 4 is the BIOS's IntrWait (r0 = 1: wait for a new one,
    // r1 = the flags); it runs on the SVC stack set up in _start.
    unsafe {
        core::arch::asm!(
            "swi #0x040000",
            inout("r0") 1u32 => _, inout("r1") IRQ_VCOUNT => _,
            out("r2") _, out("r3") _, out("r12") _,
        )
    };
}

/// Firmware user settings, touch calibration at +0x58 (GBATEK "DS Firmware
/// User Settings"): adc_x1, adc_y1 (u16), scr_x1, scr_y1 (u8), adc_x2,
/// adc_y2 (u16), scr_x2, scr_y2 (u8). The copy is at 0x027FFC80 in DS
/// mode and 0x02FFFC80 in DSi mode; 0x02FFFC80 mirrors the first in DS
/// mode's 4 MiB, so it is right in both.
const USER_SETTINGS_CALIBRATION: usize = 0x02FF_FC80 + 0x58;

const SPI_TOUCH: u16 = 2 << 8;
const SPI_2MHZ: u16 = 1;
/// TSC2046 control bytes: start bit, channel, 12-bit differential mode.
const TSC_MEASURE_X: u8 = 0xD0;
const TSC_MEASURE_Y: u8 = 0x90;
/// The pressure channels Z1 and Z2 (touch_filter.rs).
const TSC_MEASURE_Z1: u8 = 0xB0;
const TSC_MEASURE_Z2: u8 = 0xC0;

/// One 12-bit conversion: the control byte, then 16 clocks of result with
/// the chip selected throughout (the result is bits 14..3 of those).
fn tsc_read(command: u8) -> u16 {
    spi_wait();
    write16(SPICNT, SPI_ENABLE | SPI_HOLD | SPI_TOUCH | SPI_2MHZ);
    spi_exchange(command);
    let high = spi_exchange(0) as u16;
    write16(SPICNT, SPI_ENABLE | SPI_TOUCH | SPI_2MHZ); // last byte: release
    let low = spi_exchange(0) as u16;
    ((high & 0x7F) << 5) | (low >> 3)
}

fn firmware_calibration() -> Option<Calibration> {
    let b = USER_SETTINGS_CALIBRATION;
    let r16 = |off: usize| read8(b + off) as u16 | (read8(b + off + 1) as u16) << 8;
    Calibration::from_user_settings(
        [r16(0), r16(2), r16(6), r16(8)],
        [read8(b + 4), read8(b + 5), read8(b + 10), read8(b + 11)],
    )
}

#[no_mangle]
extern "C" fn arm7_main() -> ! {
    let (cal, source) = match firmware_calibration() {
        Some(c) => (c, input_block::CALIBRATION_FIRMWARE),
        None => (Calibration::DEFAULT, input_block::CALIBRATION_DEFAULT),
    };
    let block = input_block::ADDRESS as *mut InputBlock;
    let mut state = InputBlock {
        magic: input_block::MAGIC,
        calibration: source,
        adc: cal.adc,
        scr: cal.scr,
        ..InputBlock::default()
    };
    let mut touch = TouchFilter::default();
    power::enable_fifo();
    enable_line_interrupt();
    loop {
        // Line 180: fresh input before the ARM9's VBlank frame starts.
        wait_for_wake_line();
        power::serve_requests(block);
        // The ARM9 parks when it reads the lid closed in the block; then
        // the console sleeps until it opens (at once if it opened since).
        power::sleep_if_parked(block);
        let ext = read16(EXTKEYIN);
        // X, Y and pen are active low; the hinge bit is 1 when closed.
        let held = !ext & (input_block::EXT_X | input_block::EXT_Y | input_block::EXT_PEN);
        state.ext_keys = held | (ext & input_block::EXT_LID_CLOSED);
        state.touching = 0;
        let pen = held & input_block::EXT_PEN != 0;
        let mut samples = [Sample::default(); SAMPLES];
        if pen {
            for s in samples.iter_mut() {
                *s = Sample {
                    x: tsc_read(TSC_MEASURE_X),
                    y: tsc_read(TSC_MEASURE_Y),
                    z1: tsc_read(TSC_MEASURE_Z1),
                    z2: tsc_read(TSC_MEASURE_Z2),
                };
            }
        }
        state.z1 = samples[SAMPLES / 2].z1;
        state.z2 = samples[SAMPLES / 2].z2;
        if let Some((x, y)) = touch.update(pen, &samples) {
            let (px, py) = cal.pixels(x, y);
            state.raw_x = x;
            state.raw_y = y;
            state.px = px;
            state.py = py;
            state.touching = 1;
        }
        state.updates = state.updates.wrapping_add(1);
        // SAFETY: ADDRESS is main RAM that nothing is linked into (see
        // input_block.rs), always mapped on the ARM7; volatile writes keep
        // the sequence-lock order that the ARM9 reader relies on.
        unsafe {
            let seq = read_volatile(core::ptr::addr_of!((*block).seq));
            write_volatile(core::ptr::addr_of_mut!((*block).seq), seq | 1);
            state.seq = seq | 1;
            write_volatile(block, state);
            write_volatile(
                core::ptr::addr_of_mut!((*block).seq),
                (seq | 1).wrapping_add(1),
            );
        }
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}
